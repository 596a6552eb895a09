// SPDX-License-Identifier: Apache-2.0
// ni_unit_bench: the unit throughput benchmarks of `make bench` (scripts/bench.py runs it and
// stores the figures in bench/results.json under "send_unit_rate" and "recv_unit_rate").
//
//   ni_unit_bench send [--out FILE]   send unit alone: cycles per 1 KiB packet (goal 18)
//   ni_unit_bench recv [--out FILE]   receive unit in ni_node: beats per cycle (goal 1)
//
// Every run is checked by the unit's golden model; a failed check exits 1. Results are JSON
// (stdout, or --out FILE). Cycle figures only: nothing depends on wall time.
#include <cstdio>
#include <fstream>
#include <string>

#include "bench/units/unit_bench.hpp"

int main(int argc, char** argv) {
  const std::string usage = "usage: ni_unit_bench send|recv [--out FILE]\n";
  if (argc < 2 || (argc != 2 && argc != 4) || (argc == 4 && std::string(argv[2]) != "--out")) {
    std::fputs(usage.c_str(), stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  nlohmann::json result;
  try {
    if (cmd == "send") {
      result = unit_bench::send_rate();
    } else if (cmd == "recv") {
      result = unit_bench::recv_rate();
    } else {
      std::fputs(usage.c_str(), stderr);
      return 2;
    }
  } catch (const unit_bench::BenchError& e) {
    std::fprintf(stderr, "ni_unit_bench %s: FAILED: %s\n", cmd.c_str(), e.what());
    return 1;
  }
  const std::string text = result.dump(2) + "\n";
  if (argc == 2) {
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  std::ofstream f(argv[3]);
  f << text;
  if (!f) {
    std::fprintf(stderr, "ni_unit_bench: cannot write %s\n", argv[3]);
    return 2;
  }
  return 0;
}
