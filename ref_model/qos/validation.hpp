// SPDX-License-Identifier: Apache-2.0
// Descriptor line validation (ICD section 4, docs/design.md section 3 rules R1..R11).
//
// Pure functions: they judge one complete Transfer Table line against the engine state they
// are shown through a ChannelView, and report the first rule (in R1..R11 order) that rejects
// it. The RTL only answers SLVERR; the rule number is for diagnostics and tests.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/types.hpp"

namespace ni {

enum class Verdict : uint8_t {
  Accept = 0,
  R1ChannelRange = 1,   // c >= 64
  R2NotIdle = 2,        // status of (p,c) not IDLE
  R3PairLongLive = 3,   // c odd and (p,c-1) holds a live long descriptor
  R4SizeZero = 4,       // size == 0
  R5InlineSize = 5,     // inline size > 16 short / > 32 long
  R6NotifyNotLong = 6,  // memory kind with notify and not long
  R7LongOdd = 7,        // long on an odd channel
  R8Last = 8,           // last missing on the final line / present on line 0 of a long one
  R9DstCross = 9,       // dst_addr[47:0] + size > 2^48
  R10Reserved = 10,     // reserved bits nonzero
  R11Read = 11,         // read (ICD 16) with kind inline, or src[47:0] + size crosses 2^48
};

// "accept", "R1 channel>=64", ...
const char* to_string(Verdict v);
std::ostream& operator<<(std::ostream& os, Verdict v);
constexpr unsigned rule_number(Verdict v) { return static_cast<unsigned>(v); }

// What validation needs to know about the engine (the status registers and long flags).
class ChannelView {
 public:
  virtual ~ChannelView() = default;
  // Status of write channel (page, channel), channel < 64.
  virtual Status status(unsigned page, unsigned channel) const = 0;
  // (page, even_channel) holds a live long descriptor: status BUSY and its long flag set.
  virtual bool live_long(unsigned page, unsigned even_channel) const = 0;
};

// A first line (short descriptor or line 0 of a long one), words w0..w3, at (page, channel).
Verdict judge_first_line(unsigned page, unsigned channel, const Line& w, const ChannelView& v);

// Line 1 of a long descriptor, words w4..w7 (w[0] = w4 .. w[3] = w7), at odd `channel`:
// R1, R2 (status of (page, channel)), R8 (w7[63] = 1), R10 (w7[62:0] = 0, w6 = 0).
Verdict judge_line1(unsigned page, unsigned channel, const Line& w, const ChannelView& v);

}  // namespace ni
