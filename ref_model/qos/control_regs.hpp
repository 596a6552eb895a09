// SPDX-License-Identifier: Apache-2.0
// Region-4 control registers (docs/design.md section 3 "Reads"): word addr[15:4] 0 =
// retransmission timeout (cycles, reset 0 = off), 1 = MaxRetries (reset 3); other words read 0.
// Writes only to 0x40000 / 0x40010 (addr[15:0] = 0x0000 / 0x0010).
#pragma once

#include <cstdint>

#include "ref_model/common/types.hpp"

namespace ni {

class ControlRegs {
 public:
  ControlRegs() { reset(); }
  void reset() {
    timeout_ = DefaultRetxTimeout;
    max_retries_ = DefaultMaxRetries;
  }

  uint64_t timeout() const { return timeout_; }
  uint64_t max_retries() const { return max_retries_; }

  // A word write; false (nothing written, SLVERR) when the address is not writable.
  bool write_word(uint32_t addr, uint64_t data);
  // A read of the region-4 word at addr (addr[3:0] = 0 already checked by the caller).
  uint64_t read(uint32_t addr) const;

 private:
  uint64_t timeout_ = 0;
  uint64_t max_retries_ = 0;
};

}  // namespace ni
