// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/segmentation.hpp"

#include <ostream>

#include "ref_model/common/bits.hpp"
#include "ref_model/common/format_util.hpp"

namespace ni {

uint32_t total_blocks(uint64_t dst, uint32_t size) {
  if (size == 0) return 0;
  const uint64_t lo = dst % BlockBytes;
  return static_cast<uint32_t>((lo + size + BlockBytes - 1) / BlockBytes);
}

uint32_t first_block_len(uint64_t dst, uint32_t size) {
  const uint32_t room = BlockBytes - static_cast<uint32_t>(dst % BlockBytes);
  return size < room ? size : room;
}

uint32_t block_len(uint64_t dst, uint32_t size, uint32_t k) {
  const uint32_t total = total_blocks(dst, size);
  if (k == 0) return first_block_len(dst, size);
  if (k + 1 < total) return BlockBytes;
  // last block: what is left after the first and the full ones
  const uint64_t rest = uint64_t{size} - first_block_len(dst, size) - uint64_t{k - 1} * BlockBytes;
  return static_cast<uint32_t>(rest);
}

Block block_of(uint64_t src, uint64_t dst, uint32_t size, uint32_t k) {
  Block b;
  b.k = k;
  b.len = block_len(dst, size, k);
  if (k == 0) {
    b.src = src;
    b.dst = dst;
    return b;
  }
  const uint64_t node = dst & ~mask_bits(48);
  const uint64_t blk = (get_bits(dst, 16, 32) + k) & mask_bits(32);
  b.dst = node | ((blk << 16) & mask_bits(48));
  b.src = src + first_block_len(dst, size) + uint64_t{k - 1} * BlockBytes;
  return b;
}

std::vector<Block> segment(uint64_t src, uint64_t dst, uint32_t size) {
  std::vector<Block> v;
  const uint32_t total = total_blocks(dst, size);
  v.reserve(total);
  for (uint32_t k = 0; k < total; ++k) v.push_back(block_of(src, dst, size, k));
  return v;
}

uint64_t SegInfo::pack() const {
  return (uint64_t{total} & mask_bits(CntW)) | (uint64_t{first_len_m1} << 18) |
         (uint64_t{last_len_m1} << 34);
}

SegInfo SegInfo::unpack(uint64_t w) {
  SegInfo s;
  s.total = static_cast<uint32_t>(get_bits(w, 0, CntW));
  s.first_len_m1 = static_cast<uint16_t>(get_bits(w, 18, 16));
  s.last_len_m1 = static_cast<uint16_t>(get_bits(w, 34, 16));
  return s;
}

SegInfo seg_info(uint64_t dst, uint32_t size) {
  SegInfo s;
  s.total = total_blocks(dst, size) & mask_bits(CntW);
  s.first_len_m1 = static_cast<uint16_t>(first_block_len(dst, size) - 1);
  s.last_len_m1 = static_cast<uint16_t>((dst % BlockBytes + size - 1) % BlockBytes);
  return s;
}

std::ostream& operator<<(std::ostream& os, const Block& b) {
  return os << "block{k=" << b.k << " src=" << detail::hex64(b.src)
            << " dst=" << detail::hex64(b.dst) << " len=" << b.len << "}";
}

std::ostream& operator<<(std::ostream& os, const SegInfo& s) {
  return os << "seg{total=" << s.total << " first_len_m1=" << s.first_len_m1
            << " last_len_m1=" << s.last_len_m1 << "}";
}

unsigned block_fid(Kind kind, unsigned flow, uint32_t k) {
  switch (kind) {
    case Kind::OneFid:
      return flow;
    case Kind::FourFid:
      return fid_4x(flow, k);
    default:
      return 0;
  }
}

std::optional<unsigned> cm_block_tid(Kind kind, unsigned flow, uint32_t k) {
  switch (kind) {
    case Kind::OneFid:
      return tid_1x(flow, k);
    case Kind::FourFid:
      return tid_4x(flow, k);
    default:
      return std::nullopt;
  }
}

}  // namespace ni
