// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/stall_injector.hpp"

#include <algorithm>

namespace sim {

void StallInjector::force(uint64_t at, uint64_t cycles) {
  forced_at_ = at;
  forced_len_ = cycles;
}

void StallInjector::on_reset() {
  left_ = 0;
  forced_left_ = 0;
  *ready_ = 1;
}

void StallInjector::drive(uint64_t cycle) {
  if (forced_at_ != kNone && cycle >= forced_at_) {
    if (on_burst_ && forced_len_ > forced_left_) on_burst_(cycle, forced_len_);
    forced_left_ = std::max(forced_left_, forced_len_);
    forced_at_ = kNone;
  }
  bool stall = false;
  if (forced_left_ != 0) {
    --forced_left_;
    stall = true;
  } else if (left_ != 0) {
    --left_;
    stall = true;
  } else if (rng_.percent(opt_.start_pct)) {
    left_ = rng_.range(opt_.len_min, std::max(opt_.len_min, opt_.len_max)) - 1;
    stall = true;
    if (on_burst_) on_burst_(cycle, left_ + 1);
  }
  *ready_ = !stall;
}

}  // namespace sim
