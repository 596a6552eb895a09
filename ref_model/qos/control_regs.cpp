// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/control_regs.hpp"

#include "ref_model/qos/axi_rules.hpp"

namespace ni {

bool ControlRegs::write_word(uint32_t addr, uint64_t data) {
  const auto idx = ctrl_write_index(addr);
  if (!idx) return false;
  (*idx == 0 ? timeout_ : max_retries_) = data;
  return true;
}

uint64_t ControlRegs::read(uint32_t addr) const {
  switch ((addr >> 4) & 0xFFF) {
    case 0:
      return timeout_;
    case 1:
      return max_retries_;
    default:
      return 0;
  }
}

}  // namespace ni
