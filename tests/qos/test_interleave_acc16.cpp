// SPDX-License-Identifier: Apache-2.0
// Interleaved descriptor writes with AccSets = 16 (ICD 1 [beyond], design.md 3): one
// accumulator set per page, so descriptors of different pages may be written word by word
// interleaved and all complete; within a page, another line still interleaves (SLVERR,
// partial line kept). Built against the engine verilated with -GAccSets=16
// (build/tests/tb_engine_acc16).
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x0016ull << 48;

sim::AxiWrite w8(const ni::Descriptor& d, unsigned i) {
  return word_write(word_addr(d.page, d.channel + i / 4, i % 4), d.encode()[i]);
}

}  // namespace

TEST_CASE("interleave (AccSets=16): two pages written word by word interleaved both complete",
          "[engine][interleave][acc16]") {
  REQUIRE(sim::built_params().acc_sets == 16);
  Env env;
  const ni::Descriptor a = mem_desc(1, 3, ni::Kind::Tid, 0xA000, kNode | 0x10000, 1111);
  const ni::Descriptor b = mem_desc(2, 3, ni::Kind::OneFid, 0xB000, kNode | 0x20000, 2222);
  std::vector<sim::AxiWrite> ws;
  for (unsigned i : {3u, 0u, 2u, 1u}) {
    ws.push_back(w8(a, i));
    ws.push_back(w8(b, 3 - i));
  }
  CHECK(env.write_all(ws) == std::vector<uint8_t>(8, sim::kRespOkay));
  env.wait_status(1, 3, kDone);
  env.wait_status(2, 3, kDone);
  REQUIRE(env.col.blocks.size() == 2);
  const std::vector<Block> ba = env.col.blocks_of(a.xfer()), bb = env.col.blocks_of(b.xfer());
  REQUIRE(ba.size() == 1);
  REQUIRE(bb.size() == 1);
  CHECK(ba[0].src == a.src);
  CHECK(ba[0].len == 1111);
  CHECK(ba[0].tid == 0);
  CHECK(bb[0].src == b.src);
  CHECK(bb[0].len == 2222);
  CHECK(bb[0].tid == 512);  // 1xFID 128
  CHECK(env.stat(kWritesRejected) == 0);
  env.finish();
}

TEST_CASE("interleave (AccSets=16): long descriptors of 16 pages, lines interleaved, all complete",
          "[engine][interleave][acc16]") {
  REQUIRE(sim::built_params().acc_sets == 16);
  Env env;
  std::vector<ni::Descriptor> ds;
  for (unsigned p = 0; p < 16; ++p) {
    ds.push_back(p % 2 == 0 ? inline_desc(p, 8, 17 + p, true, kNode | p)
                            : notify_desc(p, 8, ni::Kind::Tid, 0x100 * p, kNode | (0x10000 * p),
                                          500 + p, 0xA0 + p, 0xB0 + p));
  }
  // Every page's word i before any page's word i+1: each page's line 0 is completed, pending,
  // while 15 other pages hold partial lines; then the line 1s the same way.
  std::vector<sim::AxiWrite> ws;
  for (unsigned i = 0; i < 8; ++i) {
    for (const ni::Descriptor& d : ds) ws.push_back(w8(d, i));
  }
  CHECK(env.write_all(ws) == std::vector<uint8_t>(128, sim::kRespOkay));
  for (unsigned p = 0; p < 16; ++p) env.wait_status(p, 8, kDone);
  // They go live in page order (the line 1s complete in that order), all in the TID-only
  // queue, one block or packet each: page p's takes TID p and seq p.
  for (unsigned p = 0; p < 16; ++p) {
    INFO("page " << p);
    const ni::Descriptor& d = ds[p];
    if (d.kind == ni::Kind::Inline) {
      REQUIRE(env.col.packets_of(d.xfer()).size() == 1);
      check_inline_packet(env.col.packets_of(d.xfer())[0], d, p, p);
    } else {
      REQUIRE(env.col.blocks_of(d.xfer()).size() == 1);
      check_block(env.col.blocks_of(d.xfer())[0], expected_blocks(d, p, 0, {p}).front());
      REQUIRE(env.col.packets_of(d.xfer()).size() == 1);
      check_ctrl_packet(env.col.packets_of(d.xfer())[0], d, p, p, 1);
    }
  }
  CHECK(env.stat(kDescAccepted) == 16);
  CHECK(env.stat(kWritesRejected) == 0);
  env.finish();
}

TEST_CASE("interleave (AccSets=16): within one page another line still interleaves",
          "[engine][interleave][acc16]") {
  REQUIRE(sim::built_params().acc_sets == 16);
  Env env;
  const ni::Descriptor a = mem_desc(5, 20, ni::Kind::Tid, 0xA000, kNode | 0x10000, 100);
  const ni::Descriptor b = mem_desc(5, 22, ni::Kind::Tid, 0xB000, kNode | 0x20000, 200);
  const ni::Descriptor c = mem_desc(6, 22, ni::Kind::Tid, 0xC000, kNode | 0x30000, 300);
  REQUIRE(env.write(w8(a, 1)) == sim::kRespOkay);
  CHECK(env.write(w8(b, 1)) == sim::kRespSlverr);  // same page, other line: set 5 busy
  CHECK(env.write_desc(c, Shape{8, false, {}}) == sim::kRespOkay);  // page 6: its own set
  env.wait_status(6, 22, kDone);
  REQUIRE(env.write_all({w8(a, 0), w8(a, 3), w8(a, 2)}) == std::vector<uint8_t>(3, sim::kRespOkay));
  env.wait_status(5, 20, kDone);
  CHECK(env.col.blocks_of(a.xfer()).size() == 1);
  CHECK(env.col.blocks_of(a.xfer())[0].len == 100);
  CHECK(env.col.blocks_of(b.xfer()).empty());
  CHECK(env.stat(kWritesRejected) == 1);
  // A pending long descriptor is per set too: line 0 on page 7 and on page 8, then both line 1s.
  const ni::Descriptor l7 = inline_desc(7, 0, 20, true, kNode);
  const ni::Descriptor l8 = inline_desc(8, 0, 30, true, kNode);
  const std::vector<uint8_t> r =
      env.write_all({burst(word_addr(7, 0, 0),
                           {l7.encode()[0], l7.encode()[1], l7.encode()[2], l7.encode()[3]}, 16),
                     burst(word_addr(8, 0, 0),
                           {l8.encode()[0], l8.encode()[1], l8.encode()[2], l8.encode()[3]}, 16),
                     burst(word_addr(7, 1, 0),
                           {l7.encode()[4], l7.encode()[5], l7.encode()[6], l7.encode()[7]}, 16),
                     burst(word_addr(8, 1, 0),
                           {l8.encode()[4], l8.encode()[5], l8.encode()[6], l8.encode()[7]}, 16)});
  CHECK(r == std::vector<uint8_t>(4, sim::kRespOkay));
  env.wait_status(7, 0, kDone);
  env.wait_status(8, 0, kDone);
  REQUIRE(env.col.packets_of(l7.xfer()).size() == 1);
  REQUIRE(env.col.packets_of(l8.xfer()).size() == 1);
  check_inline_packet(env.col.packets_of(l7.xfer())[0], l7, env.col.packets_of(l7.xfer())[0].tid,
                      env.col.packets_of(l7.xfer())[0].seq);
  check_inline_packet(env.col.packets_of(l8.xfer())[0], l8, env.col.packets_of(l8.xfer())[0].tid,
                      env.col.packets_of(l8.xfer())[0].seq);
  env.finish();
}

}  // namespace engine_test
