// SPDX-License-Identifier: Apache-2.0
// The thesis's experiments of section 4.3 (figures 4.4-4.6) in cycle-accurate simulation: the
// verilated engine (golden model attached) between a PS-PL CPU model (ps_cpu.hpp) and a send
// unit timing model (send_unit.hpp), running the thesis's two programs over a sweep of
// transfer sizes.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "bench/send_unit.hpp"

namespace bench {

struct CurveOptions {
  unsigned rtt = 20;                // PS-PL round trip, PL cycles (20 = 133 ns at 150 MHz)
  unsigned issue_interval = 1;      // PL cycles between two accesses the CPU issues
  SendUnitOptions send;             // net_delay etc.
  uint64_t budget_cycles = 200000;  // rough simulated cycles per size and program
  unsigned page = 0;
  std::vector<uint32_t> sizes;         // memory transfer sizes (default 8 B .. 4 MiB)
  std::vector<uint32_t> inline_sizes;  // inline transfer sizes (default 8, 16, 32)
  std::vector<unsigned> delay_sweep;   // net delays for the small-transfer latency sweep
};

struct ProgramRun {
  unsigned transfers = 0;
  uint64_t bytes = 0;
  uint64_t cycles = 0;  // first store issued -> the CPU sees the last DONE
  double latency = 0;   // average completion latency (outstanding: cycles / transfers)
  uint64_t min_latency = 0, max_latency = 0;  // one at a time only
  uint64_t polls = 0;                         // status loads issued
  double datapath_busy = 0;  // share of `cycles` the send unit's datapath carried something
};

// (a) one transfer at a time on channels 0, 1, ..., 63, 0, ...: two (inline long: four)
// 128-bit stores, then single-channel status loads until DONE; `n` transfers.
ProgramRun one_at_a_time(const CurveOptions& o, uint32_t size, bool inline_kind, unsigned n);
// (b) `n` (<= 64) transfers on one page issued back to back, then rounds of two 32-channel
// status loads until every one is DONE; repeated `batches` times.
ProgramRun outstanding(const CurveOptions& o, uint32_t size, bool inline_kind, unsigned n,
                       unsigned batches);

// The sweep: latency_curve, throughput_curve, inline_curve, line_rate_size_bytes,
// small_transfer_latency_cycles, net_delay_sweep, parameters. Throws BenchError on a failure.
nlohmann::json curves(CurveOptions o);

}  // namespace bench
