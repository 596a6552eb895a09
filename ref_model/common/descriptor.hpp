// SPDX-License-Identifier: Apache-2.0
// Transfer descriptor (ICD section 4): the control word, the descriptor as the CPU means it,
// and its encoding into one or two Transfer Table lines of four 64-bit words.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "ref_model/common/types.hpp"

namespace ni {

// One Transfer Table line: words w0..w3 (line 0) or w4..w7 (line 1).
using Line = std::array<uint64_t, LineWords>;

// Control word w3: size[31:0], prio[35:32], kind[37:36], notify[38], long[39],
// reserved[62:40], last[63]. In w7 only `last` is meaningful (the rest must be 0).
struct ControlWord {
  uint32_t size = 0;
  uint8_t prio = 0;       // 4 bit
  Kind kind = Kind::Tid;  // 2 bit
  bool notify = false;
  bool is_long = false;
  bool read = false;  // RDMA Read (ICD 16)
  uint32_t rsvd = 0;  // 22 bit, bits 62:41
  bool last = false;

  uint64_t pack() const;
  static ControlWord unpack(uint64_t w);
  bool operator==(const ControlWord& o) const;
  bool operator!=(const ControlWord& o) const { return !(*this == o); }
};

constexpr unsigned CtrlSizeLsb = 0;
constexpr unsigned CtrlPrioLsb = 32;
constexpr unsigned CtrlKindLsb = 36;
constexpr unsigned CtrlNotifyBit = 38;
constexpr unsigned CtrlLongBit = 39;
constexpr unsigned CtrlReadBit = 40;
constexpr unsigned CtrlRsvdLsb = 41;
constexpr unsigned CtrlRsvdW = 22;
constexpr unsigned CtrlLastBit = 63;
constexpr uint64_t CtrlLast = uint64_t{1} << CtrlLastBit;  // w7 of a long descriptor

// How a descriptor chooses between one line and two.
enum class LongMode : uint8_t {
  Auto,   // the harness rule: memory with notify, or inline payload over 16 bytes
  Long,   // force two lines (e.g. an inline transfer of <= 16 bytes written long)
  Short,  // force one line (for negative tests: a memory notify or a 17..32 byte inline)
};

struct Descriptor {
  unsigned page = 0;
  unsigned channel = 0;
  Kind kind = Kind::Tid;
  uint64_t src = 0;  // memory kinds only
  uint64_t dst = 0;  // [63:48] = destination node
  uint32_t size = 0;
  uint8_t prio = 0;  // 4 bit
  bool notify = false;
  bool read = false;             // RDMA Read (ICD 16): src on node src[63:48] into local dst
  uint64_t notify_addr = 0;      // memory kinds, long only
  uint64_t notify_tag = 0;       // memory kinds, long only
  std::vector<uint8_t> payload;  // inline only, byte 0 first, at most 32 bytes are carried
  LongMode long_mode = LongMode::Auto;

  unsigned xfer() const { return xfer_id(page, channel); }
  unsigned wch() const { return wch_index(page, channel); }
  bool is_memory() const { return ni::is_memory(kind); }

  // Auto rule (ICD 9 "descriptor" event): long when `notify` is set on a memory transfer or
  // the inline payload exceeds 16 bytes (payload.size() > 16); LongMode overrides it.
  bool is_long() const;

  // Control word w3 as encode() writes it (last = !is_long()).
  ControlWord control() const;

  // 4 words (short) or 8 words (long), w0..w7, exactly per the ICD section 4 table.
  std::vector<uint64_t> encode() const;
  // The same split into Transfer Table lines (1 or 2).
  std::vector<Line> encode_lines() const;

  // Back from words. `words` holds 4 or 8 words (line 0, then line 1 if long). Memory kinds
  // take src/notify fields; inline kinds take the payload, truncated to min(size, 16 or 32)
  // bytes. long_mode is Auto when the Auto rule agrees with the control word, else explicit.
  static Descriptor decode(unsigned page, unsigned channel, const std::vector<uint64_t>& words);

  std::string to_string() const;
  // Field-wise equality (long_mode compared through is_long()).
  bool operator==(const Descriptor& o) const;
  bool operator!=(const Descriptor& o) const { return !(*this == o); }
};

std::ostream& operator<<(std::ostream& os, const Descriptor& d);

}  // namespace ni
