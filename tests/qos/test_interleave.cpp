// SPDX-License-Identifier: Apache-2.0
// Interleaved descriptor writes with AccSets = 1 (ICD 4, design.md 3, thesis 3.6.1 and
// figure 3.4): one accumulator for all pages, so a word write to any other line while a line
// is partly accumulated answers SLVERR, is dropped, and the partial line is kept; a line-1
// word before line 0 is complete is such a write.
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x0101ull << 48;

// One 8-byte word write of word i (0..7) of descriptor d.
sim::AxiWrite w8(const ni::Descriptor& d, unsigned i) {
  return word_write(word_addr(d.page, d.channel + i / 4, i % 4), d.encode()[i]);
}

}  // namespace

TEST_CASE("interleave (AccSets=1): another line while one is partly accumulated",
          "[engine][interleave]") {
  REQUIRE(sim::built_params().acc_sets == 1);
  Env env;
  const ni::Descriptor a = mem_desc(0, 3, ni::Kind::Tid, 0xAAAA0000, kNode | 0x10000, 1000);
  const ni::Descriptor b = mem_desc(0, 9, ni::Kind::Tid, 0xBBBB0000, kNode | 0x20000, 2000);
  const ni::Descriptor c =
      mem_desc(7, 3, ni::Kind::Tid, 0xCCCC0000, kNode | 0x30000, 3000);  // same channel, other page

  // a: w0, w2 accumulated.
  REQUIRE(env.write(w8(a, 0)) == sim::kRespOkay);
  REQUIRE(env.write(w8(a, 2)) == sim::kRespOkay);
  // Intruders: b's w0 and w3 (same page), c's w1 (other page: with one set, also interleaving),
  // a 16-byte beat with both of b's words, a word of the next line (channel 4).
  const std::vector<uint8_t> r = env.write_all(
      {w8(b, 0), w8(b, 3), w8(c, 1), burst(word_addr(0, 9, 0), {b.encode()[0], b.encode()[1]}, 16),
       word_write(word_addr(0, 4, 0), 0x1234)});
  for (uint8_t x : r) CHECK(x == sim::kRespSlverr);
  env.run(20);
  CHECK(env.col.outputs() == 0);
  CHECK(env.stat(kWritesRejected) == 5);
  // The partial line of a was kept: w1 and w3 complete it (w2 written again overwrites itself).
  REQUIRE(env.write_all({w8(a, 1), w8(a, 2), w8(a, 3)}) == std::vector<uint8_t>(3, sim::kRespOkay));
  env.wait_status(0, 3, kDone);
  REQUIRE(env.col.blocks.size() == 1);
  CHECK(env.col.blocks[0].src == a.src);
  CHECK(env.col.blocks[0].dst == a.dst);
  CHECK(env.col.blocks[0].len == 1000);

  // The intruders were dropped, not stored: b's w1..w3 leave b's line incomplete (its w0 was
  // an intruder), so nothing goes live until w0 comes again.
  REQUIRE(env.write_all({w8(b, 1), w8(b, 2), w8(b, 3)}) == std::vector<uint8_t>(3, sim::kRespOkay));
  env.run(20);
  CHECK(env.tb.status(b.wch()) == kIdle);
  CHECK(env.col.blocks.size() == 1);
  REQUIRE(env.write(w8(b, 0)) == sim::kRespOkay);
  env.wait_status(0, 9, kDone);
  REQUIRE(env.col.blocks.size() == 2);
  CHECK(env.col.blocks[1].src == b.src);
  CHECK(env.col.blocks[1].len == 2000);
  // c, written whole, is fine.
  REQUIRE(env.write_desc(c, Shape{8, false, {}}) == sim::kRespOkay);
  env.wait_status(7, 3, kDone);
  CHECK(env.col.blocks.back().src == c.src);

  const Stats st = env.stats();
  CHECK(st[kDescAccepted] == 3);
  CHECK(st[kWritesRejected] == 5);
  env.finish();
}

TEST_CASE("interleave (AccSets=1): thesis figure 3.4 word orders of a long descriptor",
          "[engine][interleave]") {
  REQUIRE(sim::built_params().acc_sets == 1);
  Env env;
  // A long inline descriptor of 32 bytes written with 64-bit stores, words w0..w7.
  const ni::Descriptor d = inline_desc(4, 10, 32, true, kNode | 0x44);
  SECTION("legal: line 0 in any order, then line 1 in any order") {
    const std::vector<uint8_t> r = env.write_all({w8(d, 2), w8(d, 0), w8(d, 3), w8(d, 1),  //
                                                  w8(d, 5), w8(d, 7), w8(d, 4), w8(d, 6)});
    CHECK(r == std::vector<uint8_t>(8, sim::kRespOkay));
    env.wait_status(4, 10, kDone);
    REQUIRE(env.col.packets.size() == 1);
    check_inline_packet(env.col.packets[0], d, 0, 0);
    CHECK(env.stat(kWritesRejected) == 0);
  }
  SECTION(
      "illegal: a line-1 word before line 0 is complete is rejected; the descriptor still "
      "completes") {
    // w0 w1 w4(!) w2 w3 ...: w4 interleaves with the partial line 0 -> SLVERR, dropped.
    std::vector<uint8_t> r = env.write_all({w8(d, 0), w8(d, 1), w8(d, 4), w8(d, 2), w8(d, 3)});
    CHECK(r == std::vector<uint8_t>{0, 0, sim::kRespSlverr, 0, 0});
    env.run(10);
    CHECK(env.tb.status(d.wch()) == kIdle);  // line 0 accepted, not live
    // Line 1, complete (w4 again, since it was dropped).
    r = env.write_all({w8(d, 5), w8(d, 4), w8(d, 6), w8(d, 7)});
    CHECK(r == std::vector<uint8_t>(4, sim::kRespOkay));
    env.wait_status(4, 10, kDone);
    REQUIRE(env.col.packets.size() == 1);
    check_inline_packet(env.col.packets[0], d, 0, 0);
    CHECK(env.stat(kWritesRejected) == 1);
  }
  SECTION("illegal: line 1 entirely before line 0") {
    // w4..w7 first: they form a line at channel 11 that is judged as a first line (no pending
    // line 0): w7 as a control word has size 0 -> rejected on its fourth word. Then w0..w3 are
    // accepted as line 0 (pending), nothing goes live until line 1 is written again.
    std::vector<uint8_t> r = env.write_all({w8(d, 4), w8(d, 5), w8(d, 6), w8(d, 7)});
    CHECK(r == std::vector<uint8_t>{0, 0, 0, sim::kRespSlverr});
    r = env.write_all({w8(d, 0), w8(d, 1), w8(d, 2), w8(d, 3)});
    CHECK(r == std::vector<uint8_t>(4, sim::kRespOkay));
    env.run(20);
    CHECK(env.col.outputs() == 0);
    CHECK(env.tb.status(d.wch()) == kIdle);
    r = env.write_all({w8(d, 7), w8(d, 6), w8(d, 5), w8(d, 4)});
    CHECK(r == std::vector<uint8_t>(4, sim::kRespOkay));
    env.wait_status(4, 10, kDone);
    REQUIRE(env.col.packets.size() == 1);
    check_inline_packet(env.col.packets[0], d, 0, 0);
    CHECK(env.stat(kWritesRejected) == 1);
    CHECK(env.stat(kDescAccepted) == 1);
  }
  SECTION("illegal: line 1 and line 0 words alternating") {
    // w4 starts a partial line at channel 11; w0 then interleaves (SLVERR); w5, w6, w7
    // complete channel 11 as a first line (rejected, size 0); then line 0 and line 1 in order.
    std::vector<uint8_t> r = env.write_all({w8(d, 4), w8(d, 0), w8(d, 5), w8(d, 6), w8(d, 7)});
    CHECK(r == std::vector<uint8_t>{0, sim::kRespSlverr, 0, 0, sim::kRespSlverr});
    r = env.write_all(desc_writes(d, Shape{8, false, {}}));
    CHECK(r == std::vector<uint8_t>(8, sim::kRespOkay));
    env.wait_status(4, 10, kDone);
    REQUIRE(env.col.packets.size() == 1);
    check_inline_packet(env.col.packets[0], d, 0, 0);
    CHECK(env.stat(kWritesRejected) == 2);
  }
  env.finish();
}

}  // namespace engine_test

namespace engine_test {

TEST_CASE("interleave (AccSets=1): the pending long descriptor of the accumulator set",
          "[engine][interleave]") {
  // design.md 3: a set holds one pending long descriptor (line 0 accepted, waiting for line
  // 1). Other complete lines in between leave it alone, a short descriptor written over its
  // line 0 cancels it, a newer line 0 abandons it; a line 1 without its pending line 0 is
  // judged as a first line (w7 = last only: size 0, rejected); a complete line at c+1 while
  // line 0 at c is pending is judged as its line 1.
  REQUIRE(sim::built_params().acc_sets == 1);
  Env env;
  auto line = [](const ni::Descriptor& d, unsigned l) {
    const std::vector<uint64_t> w = d.encode();
    return burst(word_addr(d.page, d.channel + l, 0),
                 {w[4 * l], w[4 * l + 1], w[4 * l + 2], w[4 * l + 3]}, 16);
  };
  const ni::Descriptor l20 = inline_desc(0, 20, 24, true, kNode | 20);
  const ni::Descriptor s30 = mem_desc(3, 30, ni::Kind::Tid, 0x30, kNode | 0x30000, 30);
  // Line 0, an unrelated short descriptor (another page even), line 1: both live.
  CHECK(env.write_all({line(l20, 0), desc_writes(s30).front(), line(l20, 1)}) ==
        std::vector<uint8_t>(3, sim::kRespOkay));
  env.wait_status(0, 20, kDone);
  env.wait_status(3, 30, kDone);
  check_inline_packet(env.col.packets_of(l20.xfer()).at(0), l20,
                      env.col.packets_of(l20.xfer())[0].tid, env.col.packets_of(l20.xfer())[0].seq);
  // Line 0 at 22, then a short descriptor at 22 (accepted: the channel is IDLE): the pending
  // long is cancelled, its line 1 rejected.
  const ni::Descriptor l22 = inline_desc(0, 22, 30, true, kNode | 22);
  const ni::Descriptor s22 = mem_desc(0, 22, ni::Kind::Tid, 0x22, kNode | 0x220000, 22);
  CHECK(env.write_all({line(l22, 0), desc_writes(s22).front(), line(l22, 1)}) ==
        std::vector<uint8_t>{0, 0, sim::kRespSlverr});
  env.wait_status(0, 22, kDone);
  CHECK(env.col.packets_of(l22.xfer()).empty());
  CHECK(env.col.blocks_of(s22.xfer()).size() == 1);
  CHECK(env.tb.status(wch_of(0, 23)) == kIdle);
  // Line 0 at 24, line 0 at 26 (abandons 24's), line 1 of 24 rejected, line 1 of 26 live.
  const ni::Descriptor l24 = inline_desc(0, 24, 18, true, kNode | 24);
  const ni::Descriptor l26 = inline_desc(0, 26, 19, true, kNode | 26);
  CHECK(env.write_all({line(l24, 0), line(l26, 0), line(l24, 1), line(l26, 1)}) ==
        std::vector<uint8_t>{0, 0, sim::kRespSlverr, 0});
  env.wait_status(0, 26, kDone);
  CHECK(env.tb.status(wch_of(0, 24)) == kIdle);
  CHECK(env.col.packets_of(l24.xfer()).empty());
  REQUIRE(env.col.packets_of(l26.xfer()).size() == 1);
  // While line 0 at 28 is pending, a short descriptor at 29 is judged as its line 1
  // (design.md 3): its control word in the w7 position has bits besides `last` -> SLVERR.
  const ni::Descriptor l28 = inline_desc(0, 28, 21, true, kNode | 28);
  const ni::Descriptor s29 = mem_desc(0, 29, ni::Kind::Tid, 0x29, kNode | 0x290000, 29);
  CHECK(env.write_all({line(l28, 0), desc_writes(s29).front(), line(l28, 1)}) ==
        std::vector<uint8_t>{0, sim::kRespSlverr, 0});
  env.wait_status(0, 28, kDone);
  CHECK(env.col.blocks_of(s29.xfer()).empty());
  CHECK(env.tb.status(wch_of(0, 29)) == kIdle);
  CHECK(env.stat(kWritesRejected) == 3);
  CHECK(env.stat(kDescAccepted) == 5);
  env.finish();
}

}  // namespace engine_test
