// SPDX-License-Identifier: Apache-2.0
// Segmentation (ICD section 5): hand-worked block splits and total-block edges.
#include <catch2/catch.hpp>

#include "ref_model/qos/segmentation.hpp"

using namespace ni;

TEST_CASE("unaligned transfer ending on a block boundary", "[seg]") {
  // dst = 0x1_0000_FFF0: dst % 65536 = 0xFFF0 = 65520; size = 0x20010 = 131088.
  // first = 65536 - 65520 = 16; total = ceil((65520 + 131088) / 65536) = 196608 / 65536 = 3.
  // blocks: 16, 65536, 65536 (16 + 131072 = 131088): the last block is full.
  const uint64_t src = 0x0000200000001000ull;
  const uint64_t dst = 0x000000010000FFF0ull;
  const uint32_t size = 0x20010;
  CHECK(total_blocks(dst, size) == 3);
  const auto b = segment(src, dst, size);
  REQUIRE(b.size() == 3);
  CHECK(b[0] == Block{0, 0x0000200000001000ull, 0x000000010000FFF0ull, 16});
  // block 1 at offset 16: dst 0x1_0001_0000, src 0x2000_0000_1010
  CHECK(b[1] == Block{1, 0x0000200000001010ull, 0x0000000100010000ull, 65536});
  // block 2 at offset 16 + 65536: dst 0x1_0002_0000, src 0x2000_0001_1010
  CHECK(b[2] == Block{2, 0x0000200000011010ull, 0x0000000100020000ull, 65536});
  const SegInfo s = seg_info(dst, size);
  CHECK(s.total == 3);
  CHECK(s.first_len_m1 == 15);
  CHECK(s.last_len_m1 == 65535);  // (65520 + 131088 - 1) % 65536
}

TEST_CASE("unaligned transfer with a short last block", "[seg]") {
  // same dst, size = 0x20020 = 131104: (65520 + 131104) / 65536 = 3.0002 -> 4 blocks:
  // 16, 65536, 65536, 131104 - 16 - 131072 = 16.
  const uint64_t dst = 0x000000010000FFF0ull;
  const auto b = segment(0, dst, 0x20020);
  REQUIRE(b.size() == 4);
  CHECK(b[0].len == 16);
  CHECK(b[1].len == 65536);
  CHECK(b[2].len == 65536);
  CHECK(b[3].len == 16);
  CHECK(b[3].dst == 0x0000000100030000ull);
  CHECK(b[3].src == 16 + 2 * 65536);
  CHECK(seg_info(dst, 0x20020).last_len_m1 == 15);
}

TEST_CASE("total blocks edges", "[seg]") {
  CHECK(total_blocks(0, 1) == 1);                  // size 1
  CHECK(total_blocks(0xFFFF, 1) == 1);             // last byte of a block
  CHECK(total_blocks(0xFFFF, 2) == 2);             // straddles a boundary: 1 + 1
  CHECK(total_blocks(0x30000, 65536) == 1);        // exactly one aligned block
  CHECK(total_blocks(0x30000, 65535) == 1);        // boundary - 1
  CHECK(total_blocks(0x30000, 65537) == 2);        // boundary + 1: 65536 + 1
  CHECK(total_blocks(0x10, 65520) == 1);           // unaligned, fills to the boundary
  CHECK(total_blocks(0x10, 65521) == 2);           // one byte over: 65520 + 1
  CHECK(total_blocks(0, 0x100000) == 16);          // 1 MiB aligned
  CHECK(total_blocks(0x8000, 0x100000) == 17);     // 1 MiB from mid-block: 32768+15*64K+32768
  CHECK(total_blocks(0, 0xFFFFFFFFu) == 65536);    // (2^32 - 1) / 2^16 rounded up
  CHECK(total_blocks(1, 0xFFFFFFFFu) == 65536);    // 1 + 2^32 - 1 = 2^32 exactly
  CHECK(total_blocks(2, 0xFFFFFFFFu) == 65537);    // 2^32 + 1
  CHECK(total_blocks(0x12340000FFFFull, 1) == 1);  // upper address bits do not matter

  // lengths at the edges
  CHECK(block_len(0xFFFF, 2, 0) == 1);
  CHECK(block_len(0xFFFF, 2, 1) == 1);
  CHECK(block_len(0x30000, 65537, 1) == 1);
  const auto mib = segment(0, 0x8000, 0x100000);
  REQUIRE(mib.size() == 17);
  CHECK(mib.front().len == 32768);
  CHECK(mib[8].len == 65536);
  CHECK(mib.back().len == 32768);
  CHECK(mib.back().dst == 0x100000);  // block 16 starts at 16 * 64K
}

TEST_CASE("dst near 2^48 keeps the node bits", "[seg]") {
  // dst[47:0] = 0xFFFF_FFFE_FFF8 (65528 into its block), size 24: blocks of 8 and 16;
  // block 1 starts at 0xFFFF_FFFF_0000, node 0x1234 preserved.
  const uint64_t dst = 0x1234FFFFFFFEFFF8ull;
  const auto b = segment(0x500, dst, 24);
  REQUIRE(b.size() == 2);
  CHECK(b[0].len == 8);
  CHECK(b[1].len == 16);
  CHECK(b[1].dst == 0x1234FFFFFFFF0000ull);
  CHECK(b[1].src == 0x508);
  // the last full block below 2^48
  CHECK(total_blocks(0xABCDFFFFFFFF0000ull, 65536) == 1);
  CHECK(segment(0, 0xABCDFFFFFFFE0000ull, 0x20000)[1].dst == 0xABCDFFFFFFFF0000ull);
}

TEST_CASE("seg-info packing and the single-block last_len quirk", "[seg]") {
  // 3 | 0xFFEF << 18 | 0xF << 34 (worked out in test_write_model.cpp)
  SegInfo s{3, 0xFFEF, 0xF};
  CHECK(s.pack() == 0x0000003FFFBC0003ull);
  CHECK(SegInfo::unpack(0x0000003FFFBC0003ull) == s);
  CHECK(SegInfo{0x3FFFF, 0, 0}.pack() == 0x3FFFF);
  CHECK(SegInfo{0, 0xFFFF, 0}.pack() == 0x3FFFC0000ull);
  CHECK(SegInfo{0, 0, 0xFFFF}.pack() == 0x3FFFC00000000ull);
  // one block at an aligned dst: first = last = size
  SegInfo a = seg_info(0x30000, 100);
  CHECK(a.total == 1);
  CHECK(a.first_len_m1 == 99);
  CHECK(a.last_len_m1 == 99);
  // one block at dst % 64K = 0xFFFF, size 1: first_len_m1 = 0, while the ni_pkg formula for
  // last_len_m1 gives (0xFFFF + 1 - 1) % 64K = 0xFFFF
  SegInfo q = seg_info(0xFFFF, 1);
  CHECK(q.total == 1);
  CHECK(q.first_len_m1 == 0);
  CHECK(q.last_len_m1 == 0xFFFF);
  // a 4 GiB - 1 transfer: 65536 blocks fit the 18-bit total
  CHECK(seg_info(0, 0xFFFFFFFFu).total == 65536);
  CHECK(seg_info(2, 0xFFFFFFFFu).total == 65537);
}
