// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/validation.hpp"

#include <ostream>

#include "ref_model/common/bits.hpp"

namespace ni {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Accept:
      return "accept";
    case Verdict::R1ChannelRange:
      return "R1 channel>=64";
    case Verdict::R2NotIdle:
      return "R2 channel not IDLE";
    case Verdict::R3PairLongLive:
      return "R3 c-1 holds a live long descriptor";
    case Verdict::R4SizeZero:
      return "R4 size 0";
    case Verdict::R5InlineSize:
      return "R5 inline size too large";
    case Verdict::R6NotifyNotLong:
      return "R6 memory notify without long";
    case Verdict::R7LongOdd:
      return "R7 long on odd channel";
    case Verdict::R8Last:
      return "R8 last bit wrong";
    case Verdict::R9DstCross:
      return "R9 dst+size crosses 2^48";
    case Verdict::R10Reserved:
      return "R10 reserved bits nonzero";
    case Verdict::R11Read:
      return "R11 read with kind inline, or src+size crosses 2^48";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, Verdict v) { return os << to_string(v); }

Verdict judge_first_line(unsigned page, unsigned channel, const Line& w, const ChannelView& v) {
  const ControlWord c = ControlWord::unpack(w[3]);
  const bool inline_kind = c.kind == Kind::Inline;
  if (channel >= WrChPerPage) return Verdict::R1ChannelRange;
  if (v.status(page, channel) != Status::Idle) return Verdict::R2NotIdle;
  if ((channel & 1) && v.live_long(page, channel - 1)) return Verdict::R3PairLongLive;
  if (c.size == 0) return Verdict::R4SizeZero;
  if (inline_kind && c.size > (c.is_long ? 32u : 16u)) return Verdict::R5InlineSize;
  if (!inline_kind && c.notify && !c.is_long) return Verdict::R6NotifyNotLong;
  if (c.is_long && (channel & 1)) return Verdict::R7LongOdd;
  if (c.is_long == c.last) return Verdict::R8Last;  // short needs last, line 0 must not
  const uint64_t dst_lo = w[1] & mask_bits(48);
  if (dst_lo + c.size > (uint64_t{1} << 48)) return Verdict::R9DstCross;
  if (c.rsvd != 0 || (!inline_kind && w[2] != 0)) return Verdict::R10Reserved;
  if (c.read && (inline_kind || (w[0] & mask_bits(48)) + c.size > (uint64_t{1} << 48))) {
    return Verdict::R11Read;
  }
  return Verdict::Accept;
}

Verdict judge_line1(unsigned page, unsigned channel, const Line& w, const ChannelView& v) {
  if (channel >= WrChPerPage) return Verdict::R1ChannelRange;
  if (v.status(page, channel) != Status::Idle) return Verdict::R2NotIdle;
  if (!(w[3] & CtrlLast)) return Verdict::R8Last;
  if ((w[3] & ~CtrlLast) != 0 || w[2] != 0) return Verdict::R10Reserved;
  return Verdict::Accept;
}

}  // namespace ni
