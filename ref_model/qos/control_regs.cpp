// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/control_regs.hpp"

#include "ref_model/qos/axi_rules.hpp"

namespace ni {

bool ControlRegs::write_word(uint32_t addr, uint64_t data) {
  const auto idx = ctrl_write_index(addr, node_regs_);
  if (!idx) return false;
  switch (*idx) {
    case 0:
      timeout_ = data;
      break;
    case 1:
      max_retries_ = data;
      break;
    default:
      rx_idle_ = data;
      break;
  }
  return true;
}

uint64_t ControlRegs::read(uint32_t addr) const {
  switch ((addr >> 4) & 0xFFF) {
    case 0:
      return timeout_;
    case 1:
      return max_retries_;
    case 2:
      return node_regs_ ? rx_idle_ : 0;
    case 3:
      return node_regs_ ? node_id_ : 0;
    default:
      return 0;
  }
}

}  // namespace ni
