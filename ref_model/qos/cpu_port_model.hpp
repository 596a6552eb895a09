// SPDX-License-Identifier: Apache-2.0
// The engine's CPU port (ICD sections 3-4, docs/design.md sections 3-4): write transactions
// turn into descriptor lines (accepted or rejected, transfers going live and their
// enqueues), reads into the values the R channel must return, and both into the status
// register changes the DUT must make. Built on AxiSlaveModel (the transaction rules, the
// descriptor accumulation, the status and control registers).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ref_model/qos/axi_slave_model.hpp"
#include "ref_model/qos/engine_scoreboard.hpp"
#include "ref_model/qos/engine_state.hpp"

namespace ni {

class CpuPortModel {
 public:
  CpuPortModel(EngineState& st, EngineScoreboard& sb);

  // ---- the DUT's handshakes and status changes of the current cycle ------------------------
  void aw(const AwFields& a) { aw_.push_back(a); }
  void w(const WBeat& b) { w_.push_back(b); }
  void ar(const ArFields& a) { ar_.push_back(a); }
  void status(unsigned wch, Status from, Status to) { dut_changes_.push_back({wch, from, to}); }

  // AR handshakes: values are sampled from the state at the start of the cycle.
  void reads(uint64_t c);
  // AW and W handshakes: descriptor lines, transfers going live, B responses. A transfer
  // made live is enqueued from the AXI slave's register (design.md section 3): requested from
  // the next cycle on, granted in a cycle no higher source (the Message Handler, the
  // segmenter) enqueues, and no beat makes another transfer live while it waits.
  void writes(uint64_t c);
  // True while a transfer made live waits for its enqueue.
  bool enq_pending() const { return enq_pend_.has_value(); }
  // Read clears, then this cycle's finishes (EngineState::finishes); compares every status
  // change with the DUT's.
  void apply_status(uint64_t c);
  void end_cycle();

  const AxiSlaveModel& axi() const { return axi_; }
  using LiveHook = std::function<void(unsigned xfer, const Descriptor& d, uint64_t cycle)>;
  void on_live(LiveHook h) { live_hook_ = std::move(h); }

 private:
  struct StIn {
    unsigned wch;
    Status from, to;
  };
  struct ReadClear {
    bool single;
    unsigned page, index;  // channel (single) or half (32 channels)
  };

  EngineState& st_;
  EngineScoreboard& sb_;
  AxiSlaveModel axi_;
  std::vector<AwFields> aw_;
  std::vector<WBeat> w_;
  std::vector<ArFields> ar_;
  std::vector<StIn> dut_changes_;    // the DUT's status changes of this cycle
  std::vector<StIn> model_changes_;  // every status change the model made this cycle
  std::vector<ReadClear> read_clears_;
  LiveHook live_hook_;
  std::optional<Enq> enq_pend_;  // the AXI slave's enqueue register
};

}  // namespace ni
