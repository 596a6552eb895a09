// SPDX-License-Identifier: Apache-2.0
// Region-4 control registers (docs/design.md section 3 "Reads"): word addr[15:4] 0 =
// retransmission timeout (cycles, reset 0 = off), 1 = MaxRetries (reset 3); inside ni_node also
// 2 = RxIdle (reset 65536) and 3 = the node id (read-only); other words read 0. Writes only to
// the writable words (ctrl_write_index), anything else answers SLVERR.
#pragma once

#include <cstdint>

#include "ref_model/common/types.hpp"

namespace ni {

class ControlRegs {
 public:
  explicit ControlRegs(bool node_regs = false, uint16_t node_id = 0)
      : node_regs_(node_regs), node_id_(node_id) {
    reset();
  }
  void reset() {
    timeout_ = DefaultRetxTimeout;
    max_retries_ = DefaultMaxRetries;
    rx_idle_ = DefaultRxIdle;
  }

  uint64_t timeout() const { return timeout_; }
  uint64_t max_retries() const { return max_retries_; }
  uint64_t rx_idle() const { return rx_idle_; }

  // A word write; false (nothing written, SLVERR) when the address is not writable.
  bool write_word(uint32_t addr, uint64_t data);
  // A read of the region-4 word at addr (addr[3:0] = 0 already checked by the caller).
  uint64_t read(uint32_t addr) const;

 private:
  bool node_regs_;
  uint16_t node_id_;
  uint64_t timeout_ = 0;
  uint64_t max_retries_ = 0;
  uint64_t rx_idle_ = 0;
};

}  // namespace ni
