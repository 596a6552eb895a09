// SPDX-License-Identifier: Apache-2.0
// The processor side of the thesis's experiments (thesis 4.3): an ARM core in the PS reaching
// the engine's AXI slave in the PL through a path with a round trip of `rtt` PL cycles
// (default 20 cycles = 133 ns at 150 MHz; the thesis measured 120-150 ns).
//
//  - A store is posted: the CPU issues it and goes on; its write reaches the engine's AXI
//    port rtt/2 cycles after the issue. Its B response is only checked (it must be OKAY).
//  - A load's read request reaches the port rtt/2 cycles after the issue; its data reaches
//    the CPU rtt - rtt/2 cycles after the R beat. The program continues from there.
//
// CPU programs are callbacks on a timeline of PL cycles: at(t, f) runs f when the CPU is at
// cycle t, before the engine's inputs of cycle t are driven, so a write or read handed to the
// AXI master then is presented at cycle t. Requests that reach the port at the same cycle
// keep their issue order (the AXI master plays writes in order, reads in order; writes and
// reads are independent channels, so a load can overtake earlier posted stores, as on the
// real interconnect).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "sim/agents/axi_master.hpp"
#include "sim/core/component.hpp"

namespace bench {

class PsCpu : public sim::Component {
 public:
  using Action = std::function<void(uint64_t now)>;
  using LoadDone = std::function<void(uint64_t now, const sim::AxiRead& r)>;

  PsCpu(sim::AxiMaster& axi, unsigned rtt, uint64_t now) : axi_(axi), rtt_(rtt), now_(now) {}

  // Runs `f(t)` at CPU cycle t (immediately when t is not in the future).
  void at(uint64_t t, Action f);
  void store(uint64_t issue, sim::AxiWrite w);
  void load(uint64_t issue, sim::AxiRead r, LoadDone done);

  void post_edge(uint64_t cycle) override;
  bool busy() const override { return !timeline_.empty() || in_flight_ != 0; }

  uint64_t now() const { return now_; }
  unsigned rtt() const { return rtt_; }
  // First problem seen (a store answered SLVERR, a read not OKAY), empty when none.
  const std::string& error() const { return error_; }

 private:
  void run_due();

  sim::AxiMaster& axi_;
  unsigned rtt_;
  uint64_t now_;
  std::multimap<uint64_t, Action> timeline_;  // equal times keep insertion order
  unsigned in_flight_ = 0;                    // stores and loads not answered yet
  bool running_ = false;
  std::string error_;
};

}  // namespace bench
