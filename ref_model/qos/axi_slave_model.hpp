// SPDX-License-Identifier: Apache-2.0
// Transaction-level model of the AXI4 slave (ICD section 3, docs/design.md section 3): routes
// write beats to the descriptor path or the control registers, answers reads from the status
// registers, statistics and control registers, and keeps statistics counters 0 and 1.
// It is untimed: the caller applies AW, W and AR events in the order the DUT consumes them.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "ref_model/common/types.hpp"
#include "ref_model/qos/axi_rules.hpp"
#include "ref_model/qos/control_regs.hpp"
#include "ref_model/qos/descriptor_write_model.hpp"
#include "ref_model/qos/stats_model.hpp"

namespace ni {

struct WriteBeatOutcome {
  uint8_t id = 0;                // AWID of the transaction
  unsigned beat = 0;             // beat number within the transaction
  BeatDecode decode;             // word writes, or the transaction-level drop reason
  BeatResult desc;               // region-0 effects (default when dropped or region 4)
  bool slverr = false;           // this beat makes the transaction answer SLVERR
  bool txn_done = false;         // this was beat AWLEN: the B response is due
  AxiResp resp = AxiResp::Okay;  // the B response, meaningful when txn_done
};

struct ReadOutcome {
  uint8_t id = 0;
  AxiResp resp = AxiResp::Okay;
  std::vector<uint64_t> data;  // ARLEN+1 beats, value in RDATA[63:0]
};

class AxiSlaveModel {
 public:
  explicit AxiSlaveModel(const Config& cfg = Config{});
  void reset();

  // Write-address handshake; transactions are served in AW order.
  void write_address(const AwFields& aw);
  // The next W beat (of the oldest transaction with beats left). Throws std::logic_error when
  // no write address is open.
  WriteBeatOutcome write_beat(const WBeat& beat);
  bool write_open() const { return !aw_q_.empty(); }

  // A whole write transaction; optionally returns every beat's outcome.
  AxiResp write(const AwFields& aw, const std::vector<WBeat>& beats,
                std::vector<WriteBeatOutcome>* outcomes = nullptr);

  // A read (AR handshake): sampling and clearing of status happen here.
  ReadOutcome read(const ArFields& ar);

  DescriptorWriteModel& desc() { return desc_; }
  const DescriptorWriteModel& desc() const { return desc_; }
  StatusRegs& status() { return desc_.status(); }
  const StatusRegs& status() const { return desc_.status(); }
  ControlRegs& ctrl() { return ctrl_; }
  const ControlRegs& ctrl() const { return ctrl_; }
  StatsModel& stats() { return stats_; }
  const StatsModel& stats() const { return stats_; }

 private:
  struct OpenWrite {
    AwFields aw;
    unsigned next_beat = 0;
    bool slverr = false;
  };

  DescriptorWriteModel desc_;
  ControlRegs ctrl_;
  bool node_regs_;
  StatsModel stats_;
  std::deque<OpenWrite> aw_q_;
};

}  // namespace ni
