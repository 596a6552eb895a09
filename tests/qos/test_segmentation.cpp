// SPDX-License-Identifier: Apache-2.0
// Segmentation of transfers into 64 KiB blocks aligned to the destination (ICD 5, thesis
// 3.9, figure 3.10): first, middle and last block lengths and src/dst addresses, worked out
// by hand for unaligned transfers around block boundaries, and the total-blocks edges.
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x00C3ull << 48;

struct Geo {
  uint32_t len;
  uint64_t src, dst;
};

// Writes `d` (immediate ACKs), waits DONE and compares its blocks with `want` (in order).
void expect_geometry(Env& env, const ni::Descriptor& d, const std::vector<Geo>& want) {
  INFO(d.to_string());
  const std::size_t b0 = env.col.blocks.size();
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_status(d.page, d.channel, kDone, 100000);
  REQUIRE(env.status(d.page, d.channel) == kDone);
  const std::vector<Block> b(env.col.blocks.begin() + std::ptrdiff_t(b0), env.col.blocks.end());
  REQUIRE(b.size() == want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("block " << k);
    CHECK(b[k].len == want[k].len);
    CHECK(b[k].src == want[k].src);
    CHECK(b[k].dst == want[k].dst);
    CHECK(b[k].block_idx == k);
    CHECK(b[k].xfer == d.xfer());
  }
}

}  // namespace

TEST_CASE(
    "segmentation: unaligned transfers ending just before, at and just after a block boundary",
    "[engine][segmentation]") {
  Env env;
  const uint64_t src = 0x0000123400000000ull;
  const uint64_t dst = kNode | 0x00001234FFF0ull;  // dst % 64K = 0xFFF0: 16 bytes to the boundary
  const uint64_t b1 = kNode | 0x000012350000ull;   // the next block boundaries
  const uint64_t b2 = kNode | 0x000012360000ull;
  unsigned ch = 0;
  auto d = [&](uint32_t size, ni::Kind k = ni::Kind::Tid) {
    return mem_desc(3, ch++, k, src, dst, size);
  };
  expect_geometry(env, d(15), {{15, src, dst}});
  expect_geometry(env, d(16), {{16, src, dst}});
  expect_geometry(env, d(17), {{16, src, dst}, {1, src + 16, b1}});
  expect_geometry(env, d(16 + 65535), {{16, src, dst}, {65535, src + 16, b1}});
  expect_geometry(env, d(16 + 65536, ni::Kind::OneFid), {{16, src, dst}, {65536, src + 16, b1}});
  expect_geometry(env, d(16 + 65537, ni::Kind::FourFid),
                  {{16, src, dst}, {65536, src + 16, b1}, {1, src + 16 + 65536, b2}});
  // The CM flags of the 3-block 4xFID transfer just run: chained on all but the first,
  // has_next on all but the last.
  const Block* last3 = &env.col.blocks[env.col.blocks.size() - 3];
  CHECK((last3[0].chained == false && last3[1].chained && last3[2].chained));
  CHECK((last3[0].has_next && last3[1].has_next && last3[2].has_next == false));
  env.finish();
}

TEST_CASE("segmentation: total-blocks edges (1 B, 64 KiB aligned and not, 1 MiB, address carries)",
          "[engine][segmentation]") {
  Env env;
  const uint64_t s = 0x00000000ABCD0000ull;
  unsigned ch = 0;
  auto d = [&](uint64_t src, uint64_t dst, uint32_t size) {
    return mem_desc(4, ch++, ni::Kind::Tid, src, dst, size);
  };
  // 1 byte: aligned, and at the last byte of a block.
  expect_geometry(env, d(s, kNode | 0x50000, 1), {{1, s, kNode | 0x50000}});
  expect_geometry(env, d(s, kNode | 0x5FFFF, 1), {{1, s, kNode | 0x5FFFF}});
  // 2 bytes across a boundary: 1 + 1.
  expect_geometry(env, d(s, kNode | 0x5FFFF, 2),
                  {{1, s, kNode | 0x5FFFF}, {1, s + 1, kNode | 0x60000}});
  // Exactly 64 KiB, aligned: one full block (len_m1 = 0xFFFF).
  expect_geometry(env, d(s, kNode | 0x70000, 65536), {{65536, s, kNode | 0x70000}});
  // 64 KiB from the middle of a block: two halves.
  expect_geometry(env, d(s, kNode | 0x78000, 65536),
                  {{0x8000, s, kNode | 0x78000}, {0x8000, s + 0x8000, kNode | 0x80000}});
  // 64 KiB from 16 bytes before a boundary: 16 + 65520.
  expect_geometry(env, d(s, kNode | 0x8FFF0, 65536),
                  {{16, s, kNode | 0x8FFF0}, {65520, s + 16, kNode | 0x90000}});
  // 1 MiB aligned: 16 full blocks.
  {
    std::vector<Geo> g;
    for (unsigned k = 0; k < 16; ++k)
      g.push_back({65536, s + 65536ull * k, kNode | (0x100000 + 65536ull * k)});
    expect_geometry(env, d(s, kNode | 0x100000, 1u << 20), g);
  }
  // 1 MiB from dst % 64K = 1: 65535, 15 x 65536, 1 (17 blocks).
  {
    std::vector<Geo> g{{65535, s, kNode | 0x200001}};
    for (unsigned k = 1; k < 16; ++k)
      g.push_back({65536, s + 65535 + 65536ull * (k - 1), kNode | (0x200000 + 65536ull * k)});
    g.push_back({1, s + 65535 + 65536ull * 15, kNode | 0x300000});
    expect_geometry(env, d(s, kNode | 0x200001, 1u << 20), g);
  }
  // Carries: dst[47:16] + 1 into bit 32 (node bits kept), src + first across bit 32.
  expect_geometry(env, d(0x00000000FFFFFFFFull, kNode | 0x0000FFFF8000ull, 0x10000),
                  {{0x8000, 0x00000000FFFFFFFFull, kNode | 0x0000FFFF8000ull},
                   {0x8000, 0x0000000100007FFFull, kNode | 0x000100000000ull}});
  // The last block of the 48-bit space: ends exactly at 2^48.
  expect_geometry(env, d(s, kNode | 0xFFFFFFFF0000ull, 65536),
                  {{65536, s, kNode | 0xFFFFFFFF0000ull}});
  expect_geometry(
      env, d(s, kNode | 0xFFFFFFFE8000ull, 65536),
      {{0x8000, s, kNode | 0xFFFFFFFE8000ull}, {0x8000, s + 0x8000, kNode | 0xFFFFFFFF0000ull}});
  env.finish();
}

TEST_CASE("segmentation: block_idx is the block number mod 4096 (4097-block transfer)",
          "[engine][segmentation]") {
  Env env;
  const ni::Descriptor d = mem_desc(5, 0, ni::Kind::OneFid, 0x0, kNode | 0x7000000000ull, 0);
  ni::Descriptor big = d;
  big.size = 4096u * 65536u + 100;  // 4097 blocks (size is 32 bit: 2^28 + 100)
  REQUIRE(env.write_desc(big) == sim::kRespOkay);
  env.wait_status(5, 0, kDone, 100000);
  const std::vector<Block> b = env.col.blocks_of(big.xfer());
  REQUIRE(b.size() == 4097);
  CHECK(b[4095].block_idx == 4095);
  CHECK(b[4095].has_next);
  CHECK(b[4096].block_idx == 0);
  CHECK(b[4096].len == 100);
  CHECK(b[4096].chained);
  CHECK_FALSE(b[4096].has_next);
  CHECK(b[4096].tid == (128u << 2) + 4096 % 4);
  CHECK(b[4096].dst == (kNode | (0x7000000000ull + 4096ull * 65536)));
  CHECK(b[4096].src == 4096ull * 65536);
  env.finish();
}

TEST_CASE("segmentation: the largest transfer, size 2^32-1 from dst % 64K = 0xFFFF: 65537 blocks",
          "[engine][segmentation]") {
  // total = ceil((0xFFFF + 0xFFFFFFFF) / 65536) = 0x10001: needs 17 bits of the 18-bit count
  // (and 33-bit arithmetic); first block 1 byte, 65535 full ones, last 65534 bytes.
  Env env;
  const uint64_t dst = kNode | 0x00010000FFFFull;
  const ni::Descriptor d = mem_desc(6, 0, ni::Kind::OneFid, 0x0, dst, 0xFFFFFFFFu);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_status(6, 0, kDone, 400000);
  const std::vector<Block>& b = env.col.blocks;
  REQUIRE(b.size() == 65537);
  CHECK(b[0].len == 1);
  CHECK(b[1].len == 65536);
  CHECK(b[1].src == 1);
  CHECK(b[1].dst == (kNode | 0x000100010000ull));
  CHECK(b[65535].len == 65536);
  CHECK(b[65536].len == 65534);
  CHECK(b[65536].src == 1 + 65535ull * 65536);
  CHECK(b[65536].dst == (kNode | 0x000200000000ull));  // (0x10000 + 65536) << 16
  CHECK(b[65536].block_idx == 0);                      // 65536 mod 4096
  CHECK(b[65536].tid == 512);                          // FID 128, 65536 mod 4 = 0
  CHECK(b[65536].seq == 65536 % 16384);
  CHECK_FALSE(b[65536].has_next);
  CHECK(b[65535].has_next);
  uint64_t bytes = 0;
  for (const Block& x : b) bytes += x.len;
  CHECK(bytes == 0xFFFFFFFFull);
  env.finish();
}

}  // namespace engine_test
