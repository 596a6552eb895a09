// SPDX-License-Identifier: Apache-2.0
// Segmentation of a memory transfer into blocks and the IDs each block uses
// (ICD section 5, docs/design.md sections 3 and 6).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <vector>

#include "ref_model/common/types.hpp"

namespace ni {

// total = ceil((dst % BlockBytes + size) / BlockBytes); size >= 1 (0 gives 0).
uint32_t total_blocks(uint64_t dst, uint32_t size);
// First block: min(size, BlockBytes - dst % BlockBytes).
uint32_t first_block_len(uint64_t dst, uint32_t size);
// Length of block k (k < total): first, then BlockBytes, the last one the remainder.
uint32_t block_len(uint64_t dst, uint32_t size, uint32_t k);

struct Block {
  uint32_t k = 0;  // block number 0..total-1
  uint64_t src = 0;
  uint64_t dst = 0;  // dst[63:48] (node) is kept
  uint32_t len = 0;  // bytes, 1..BlockBytes
  bool operator==(const Block& o) const {
    return k == o.k && src == o.src && dst == o.dst && len == o.len;
  }
};

// Block k of a transfer. k = 0 starts at (src, dst); k >= 1 at offset first + (k-1)*BlockBytes:
// dst_k = {dst[63:48], (dst[47:16] + k) << 16}, src_k = src + first + (k-1)*BlockBytes.
Block block_of(uint64_t src, uint64_t dst, uint32_t size, uint32_t k);
// All blocks of a transfer, in order.
std::vector<Block> segment(uint64_t src, uint64_t dst, uint32_t size);

// What the Transfer Table holds in place of w2 of a memory descriptor (design.md section 3):
// total[17:0], first_len_m1[33:18], last_len_m1[49:34], zeros above.
struct SegInfo {
  uint32_t total = 0;  // 18 bit
  uint16_t first_len_m1 = 0;
  uint16_t last_len_m1 = 0;  // (dst + size - 1) % BlockBytes, see seg_info()
  uint64_t pack() const;
  static SegInfo unpack(uint64_t w);
  bool operator==(const SegInfo& o) const {
    return total == o.total && first_len_m1 == o.first_len_m1 && last_len_m1 == o.last_len_m1;
  }
};

// Seg-info as the AXI slave computes it (mirrors ni_pkg total_blocks / first_len_m1 /
// last_len_m1). last_len_m1 is (dst + size - 1) % BlockBytes for every transfer, so for a
// single-block transfer whose dst is not block-aligned it is NOT size-1; the segmenter uses
// first_len_m1 for block 0.
SegInfo seg_info(uint64_t dst, uint32_t size);

std::ostream& operator<<(std::ostream& os, const Block& b);
std::ostream& operator<<(std::ostream& os, const SegInfo& s);

// ---------------------------------------------------------------------------------------------
// IDs (ICD section 5, thesis 3.8)
// ---------------------------------------------------------------------------------------------
// 1xFID flow f: block k uses TID (f<<2) + k%4.
constexpr unsigned tid_1x(unsigned f, uint32_t k) { return (f << 2) + k % FlowBlocks; }
// 4xFID group base g: block k uses FID g + k%4 and TID ((g + k%4)<<2) + (k/4)%4.
constexpr unsigned fid_4x(unsigned g, uint32_t k) { return g + k % 4; }
constexpr unsigned tid_4x(unsigned g, uint32_t k) {
  return (fid_4x(g, k) << 2) + (k / 4) % FlowBlocks;
}

// The `fid` field of block k's descriptor: 0 (TID-only, inline), f (1x), g + k%4 (4x).
// `flow` is the FID (1x) or group base (4x) the transfer got at its first block.
unsigned block_fid(Kind kind, unsigned flow, uint32_t k);
// The TID block k of a congestion-managed transfer uses; nullopt for TID-only and inline
// (those take the TID FIFO head).
std::optional<unsigned> cm_block_tid(Kind kind, unsigned flow, uint32_t k);

}  // namespace ni
