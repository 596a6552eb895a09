// SPDX-License-Identifier: Apache-2.0
// Status registers of the 1024 write channels and the long flags of the even channels
// (ICD section 3, docs/design.md section 4).
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <functional>

#include "ref_model/common/types.hpp"
#include "ref_model/qos/validation.hpp"

namespace ni {

class StatusRegs : public ChannelView {
 public:
  // Called on every change of a channel's code (the log's "status" events).
  using Listener = std::function<void(unsigned wch, Status from, Status to)>;

  StatusRegs() { reset(); }
  void reset();
  void set_listener(Listener l) { listener_ = std::move(l); }

  // ChannelView
  Status status(unsigned page, unsigned channel) const override;
  bool live_long(unsigned page, unsigned even_channel) const override;

  Status get(unsigned wch) const { return st_.at(wch); }
  bool long_flag(unsigned wch) const { return (wch % 2 == 0) && long_[wch / 2]; }

  // A descriptor goes live: IDLE -> BUSY. At an even channel the long flag := is_long.
  // Returns false (and changes nothing) when the channel was not IDLE.
  bool set_busy(unsigned wch, bool is_long);
  // The engine finishes a transfer: BUSY -> DONE or ERROR. False when not BUSY.
  bool finish(unsigned wch, bool error);

  // Single-channel status read (region 1): returns the code; DONE/ERROR become IDLE.
  Status read_single(unsigned page, unsigned channel);
  // 32-channel read (region 2): channel i of the half in bits 2i+1:2i; every DONE/ERROR
  // reported becomes IDLE. half 0 = channels 0..31, 1 = 32..63.
  uint64_t read32(unsigned page, unsigned half);
  // The same values without clearing.
  uint64_t peek32(unsigned page, unsigned half) const;

 private:
  void change(unsigned wch, Status to);

  std::array<Status, NumWch> st_{};
  std::bitset<NumWch / 2> long_;
  Listener listener_;
};

}  // namespace ni
