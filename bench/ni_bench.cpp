// SPDX-License-Identifier: Apache-2.0
// ni_bench: the benchmarks of `make bench` (scripts/bench.py runs it and writes
// bench/results.json and the plots).
//
//   ni_bench figures [--out FILE]   cycle figures of the RTL (thesis 4.2.1)
//   ni_bench curves  [--out FILE] [--rtt N] [--net-delay N] [--issue-interval N]
//                    [--budget CYCLES] [--max-size BYTES]
//                                   the thesis's figures 4.4-4.6 (send unit + CPU models)
//   ni_bench profile [--out FILE] [--seed N] [--transfers N] [--config FILE]
//                                   a random run (as ni_sim's) with SimCtrl's phase timers:
//                                   wall time in the verilated model vs the harness
//
// Every benchmark runs inside the verification harness with the golden model attached; a
// run that fails a check makes ni_bench exit 1. Results are JSON (stdout, or --out FILE).
// Benchmarks never fail on wall time.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/common.hpp"
#include "bench/curves.hpp"
#include "bench/figures.hpp"
#include "sim/core/sim_ctrl.hpp"
#include "sim/env/config.hpp"
#include "sim/tb/qos/testbench.hpp"

namespace {

constexpr const char* kUsage =
    "usage: ni_bench figures|curves|profile [options]\n"
    "  figures                cycle figures of the RTL (thesis 4.2.1)\n"
    "  curves                 thesis figures 4.4-4.6: latency and throughput vs transfer size\n"
    "    --rtt N              PS-PL round trip, cycles (default 20)\n"
    "    --net-delay N        network + receiver delay before an ACK, cycles (default 50)\n"
    "    --issue-interval N   cycles between two CPU accesses (default 1)\n"
    "    --budget N           rough simulated cycles per size and program (default 200000)\n"
    "    --max-size BYTES     largest transfer size of the sweep (default 4 MiB)\n"
    "  profile                random run with phase timers (model vs harness wall time)\n"
    "    --seed N --transfers N --config FILE   as ni_sim\n"
    "  --out FILE             write the JSON there (default: stdout)\n";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

uint64_t number(const std::string& flag, const std::string& v) {
  try {
    std::size_t pos = 0;
    const unsigned long long n = std::stoull(v, &pos, 0);
    if (pos != v.size()) throw std::invalid_argument(v);
    return n;
  } catch (const std::exception&) {
    throw UsageError(flag + ": not a number: " + v);
  }
}

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

nlohmann::json profile(uint64_t seed, uint64_t transfers, const std::string& config) {
  sim::SimConfig cfg;
  if (!config.empty()) cfg.apply(sim::read_json_file(config), config);
  cfg.seed = seed;
  cfg.traffic.transfers = transfers;
  sim::Testbench::Options opt;
  opt.cfg = cfg;
  sim::Testbench tb(opt);
  tb.ctrl().set_profiling(true);
  const double t0 = now_seconds();
  const sim::RunResult r = tb.run();
  const double wall = now_seconds() - t0;
  if (!r.passed)
    throw bench::BenchError("profile run failed at cycle " + std::to_string(r.fail_cycle) + ": " +
                            r.failure);
  const sim::SimCtrl::Profile& p = tb.ctrl().profile();
  const double harness = wall - p.eval_s;
  const uint64_t done = tb.model().transfers_done() + tb.model().transfers_error();
  return {{"seed", seed},
          {"transfers", done},
          {"cycles", r.cycles},
          {"wall_seconds", wall},
          {"cycles_per_second", double(r.cycles) / wall},
          {"model_seconds", p.eval_s},
          {"drive_seconds", p.drive_s},
          {"sample_seconds", p.sample_s},
          {"post_edge_seconds", p.post_edge_s},
          {"dump_seconds", p.dump_s},
          {"other_seconds", harness - p.drive_s - p.sample_s - p.post_edge_s - p.dump_s},
          {"model_time_share", p.eval_s / wall},
          {"harness_time_share", harness / wall}};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string cmd = args[0];
  std::string out;
  bench::CurveOptions co;
  uint64_t seed = 1, transfers = 100000;
  std::string config;
  nlohmann::json result;
  try {
    for (std::size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      auto need = [&]() -> std::string {
        if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
        return args[++i];
      };
      if (a == "--out") {
        out = need();
      } else if (cmd == "curves" && a == "--rtt") {
        co.rtt = unsigned(number(a, need()));
        if (co.rtt < 2) throw UsageError("--rtt must be at least 2");
      } else if (cmd == "curves" && a == "--net-delay") {
        co.send.net_delay = unsigned(number(a, need()));
      } else if (cmd == "curves" && a == "--issue-interval") {
        co.issue_interval = unsigned(number(a, need()));
      } else if (cmd == "curves" && a == "--budget") {
        co.budget_cycles = number(a, need());
      } else if (cmd == "curves" && a == "--max-size") {
        const uint64_t m = number(a, need());
        for (uint64_t s = 8; s <= m && s <= (1u << 31); s *= 2) co.sizes.push_back(uint32_t(s));
        if (co.sizes.empty()) throw UsageError("--max-size below 8");
      } else if (cmd == "profile" && a == "--seed") {
        seed = number(a, need());
      } else if (cmd == "profile" && a == "--transfers") {
        transfers = number(a, need());
      } else if (cmd == "profile" && a == "--config") {
        config = need();
      } else {
        throw UsageError("unknown option for " + cmd + ": " + a);
      }
    }
    if (cmd != "figures" && cmd != "curves" && cmd != "profile")
      throw UsageError("unknown command: " + cmd);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ni_bench: error: %s\n%s", e.what(), kUsage);
    return 2;
  }

  try {
    if (cmd == "figures") {
      result = bench::cycle_figures();
    } else if (cmd == "curves") {
      result = bench::curves(co);
    } else {
      result = profile(seed, transfers, config);
    }
  } catch (const bench::BenchError& e) {
    std::fprintf(stderr, "ni_bench %s: FAILED: %s\n", cmd.c_str(), e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ni_bench %s: error: %s\n", cmd.c_str(), e.what());
    return 2;
  }

  const std::string text = result.dump(2) + "\n";
  if (out.empty()) {
    std::fputs(text.c_str(), stdout);
  } else {
    std::ofstream f(out);
    f << text;
    if (!f) {
      std::fprintf(stderr, "ni_bench: cannot write %s\n", out.c_str());
      return 2;
    }
  }
  return 0;
}
