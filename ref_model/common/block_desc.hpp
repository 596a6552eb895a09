// SPDX-License-Identifier: Apache-2.0
// Block descriptor (ICD section 6): the 256-bit Transaction Table entry on blk_desc_o.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "ref_model/common/descriptor.hpp"

namespace ni {

using Bits256 = std::array<uint64_t, 4>;  // word 0 = bits 63:0

struct BlockDesc {
  uint64_t src_addr = 0;     // 63:0
  uint64_t dst_addr = 0;     // 127:64
  uint16_t pd_id = 0;        // 143:128
  uint16_t seq = 0;          // 157:144 (14 bit)
  uint16_t bytes_sent = 0;   // 173:158
  bool cm = false;           // 174
  bool initialized = false;  // 175
  uint8_t fid = 0;           // 183:176
  bool retx = false;         // 184
  bool done = false;         // 185
  bool notify = false;       // 186
  bool chained = false;      // 187
  uint16_t len_m1 = 0;       // 203:188
  uint16_t block_idx = 0;    // 215:204 (12 bit)
  bool has_next = false;     // 216
  uint16_t xfer_id = 0;      // 227:217 (11 bit)
  uint32_t rsvd = 0;         // 255:228 (28 bit)

  // LSB-first packing in ICD order; values are masked to their widths.
  Bits256 pack() const;
  static BlockDesc unpack(const Bits256& b);
  bool operator==(const BlockDesc& o) const { return pack() == o.pack(); }
  bool operator!=(const BlockDesc& o) const { return !(*this == o); }
};

// Field layout, for tools that print or poke bits.
struct FieldSpec {
  const char* name;
  unsigned lsb;
  unsigned width;
};
const std::vector<FieldSpec>& block_desc_fields();

// One line, every field: "src_addr=0x... dst_addr=0x... pd_id=3 ...".
std::string to_string(const BlockDesc& b);
std::ostream& operator<<(std::ostream& os, const BlockDesc& b);
// "field: expected X, actual Y" for every field that differs (empty when equal).
std::vector<std::string> diff(const BlockDesc& expected, const BlockDesc& actual);

// The descriptor block k of transfer `d` must produce, given its seq and the transfer's flow
// id (the 1xFID f or the 4xFID group base g it got at its first block; ignored for TID-only).
// pd_id = page, bytes_sent 0, cm for kinds 1/2, initialized 0, fid per block_fid(), retx as
// given, done 0, notify on the last block of a notifying transfer, chained (CM, k > 0),
// len_m1, block_idx = k mod 4096, has_next (CM, not last), xfer_id, reserved 0.
BlockDesc expected_block_desc(const Descriptor& d, uint32_t k, unsigned flow, uint16_t seq,
                              bool retx = false);

}  // namespace ni
