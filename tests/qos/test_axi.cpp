// SPDX-License-Identifier: Apache-2.0
// AXI slave behaviour around the descriptor path (ICD 1-3, design.md 2-3): back-pressure
// until init_done_o (nothing rejected for arriving early, responses held), at least 8
// outstanding write addresses and 8 pending B responses, B/R IDs, and the address bits the
// map ignores.
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x0A11ull << 48;

}  // namespace

TEST_CASE("axi: writes and responses before init_done_o wait; nothing is rejected",
          "[engine][axi]") {
  sim::Testbench tb(tb_options(1));
  Collector col;
  tb.bus().add(col);
  tb.ctrl().reset(4);
  // A descriptor, a status read and a stray response, all offered from cycle 0.
  const ni::Descriptor d = inline_desc(0, 1, 8, false, kNode);
  auto b = std::make_shared<uint8_t>(0xFF);
  tb.axi().write(desc_writes(d).front(), [b](const sim::AxiWrite& t) { *b = t.resp; });
  sim::AxiRead r;
  r.addr = status_addr(0, 1);
  auto rd = std::make_shared<std::vector<uint64_t>>();
  tb.axi().read(r, [rd](const sim::AxiRead& t) { *rd = t.data; });
  tb.responder().script(0, 5, 5, false);
  uint64_t init = 0;  // first cycle with init_done_o high
  tb.run_until(
      [&] {
        if (init == 0 && *tb.ports().init_done) init = tb.cycle();
        return *b != 0xFF;
      },
      5000);
  REQUIRE_FALSE(tb.failed());
  INFO("init_done_o at cycle " << init);
  CHECK(init >= 512);  // 512 TIDs pushed one per cycle (design.md 2)
  REQUIRE(col.aws.size() == 1);
  CHECK(col.aws[0].cycle >= init);
  CHECK(*b == sim::kRespOkay);
  REQUIRE(col.rsps.size() == 1);
  CHECK(col.rsps[0].cycle >= init);
  tb.run_until([&] { return !rd->empty() && col.packets.size() == 1; }, 100);
  REQUIRE(rd->size() == 1);
  CHECK(((*rd)[0] == kIdle || (*rd)[0] == kBusy));
  check_inline_packet(col.packets.at(0), d, 0, 0);
  sim::RunResult res;
  tb.run_until([&] { return tb.model().quiescent() && !tb.axi().busy(); }, 1000);
  tb.finish(res);
  INFO(res.failure << "\n" << res.detail);
  CHECK(res.passed);
  CHECK(tb.model().stats().get(ni::Stat::RspDropped) == 1);  // the stray response, once accepted
}

TEST_CASE("axi: 8 outstanding write addresses and 8 pending B responses", "[engine][axi]") {
  Env env;
  std::vector<ni::Descriptor> ds;
  for (unsigned i = 0; i < 12; ++i) ds.push_back(inline_desc(2, i, 8, false, kNode | i));
  auto done = std::make_shared<std::vector<sim::AxiWrite>>();
  sim::AxiMaster::Options o;
  o.w_with_aw = false;
  o.w_gap_pct = 100;  // no W beat at all for now
  env.tb.axi().set_options(o);
  for (unsigned i = 0; i < 12; ++i) {
    sim::AxiWrite w = desc_writes(ds[i]).front();
    w.id = uint8_t(i);
    env.tb.axi().write(w, [done](const sim::AxiWrite& t) { done->push_back(t); });
  }
  env.run(50);
  CHECK(env.col.aws.size() == 8);  // the AW FIFO: 8 addresses accepted without data
  // Now the data, but no BREADY: 8 B responses wait in the B FIFO, then WREADY drops on the
  // last beat of the 9th transaction.
  o.w_gap_pct = 0;
  o.bready_low_pct = 100;
  env.tb.axi().set_options(o);
  env.run(100);
  CHECK(env.col.bs.empty());
  CHECK(env.tb.model().transfers_live() == 8);
  CHECK(env.col.aws.size() == 12);  // 9..12 entered the AW FIFO as 1..8 left it
  o.bready_low_pct = 0;
  env.tb.axi().set_options(o);
  env.run_until([&] { return done->size() == 12; }, 500, "B responses");
  for (unsigned i = 0; i < 12; ++i) {
    CHECK((*done)[i].id == i);
    CHECK((*done)[i].resp == sim::kRespOkay);
    CHECK(env.col.bs[i].id == i);
  }
  for (unsigned i = 0; i < 12; ++i) env.wait_status(2, i, kDone);
  env.finish();
}

TEST_CASE(
    "axi: B and R carry the transaction's ID; addr[31:20] is ignored; status reads use addr[10:5]",
    "[engine][axi]") {
  Env env;
  const ni::Descriptor d = mem_desc(3, 7, ni::Kind::Tid, 0x10, kNode | 0x10000, 64);
  sim::AxiWrite w = desc_writes(d).front();
  w.addr |= 0xABC00000u;  // upper bits: ignored (ICD 3)
  w.id = 9;
  sim::AxiWrite got;
  REQUIRE(env.write(w, &got) == sim::kRespOkay);
  CHECK(got.id == 9);
  CHECK(env.col.bs.back().id == 9);
  env.wait_status(3, 7, kDone);
  REQUIRE(env.col.blocks.size() == 1);
  CHECK(env.col.blocks[0].xfer == d.xfer());
  // A status read with addr[11] and upper bits set reads (and clears) channel 7.
  sim::AxiRead r;
  r.addr = status_addr(3, 7) | (1u << 11) | 0xFFF00000u;
  r.id = 13;
  const sim::AxiRead t = env.read_txn(r);
  REQUIRE(t.data.size() == 1);
  CHECK(t.data[0] == kDone);
  CHECK(t.resp[0] == sim::kRespOkay);
  CHECK(env.tb.status(d.wch()) == kIdle);
  // Writes with the upper bits set elsewhere too: region 4 at 0xFFF40010.
  sim::AxiWrite c = word_write(0xFFF40010u, 4);
  c.id = 15;
  REQUIRE(env.write(c, &got) == sim::kRespOkay);
  CHECK(got.id == 15);
  CHECK(env.read(0x40010) == 4);
  REQUIRE(env.write(word_write(0x40010u, 3)) == sim::kRespOkay);
  env.finish();
}

TEST_CASE("axi: one burst writes many descriptors (lines are contiguous across channels)",
          "[engine][axi]") {
  Env env;
  SECTION("128 16-byte beats: the 64 write channels of a page, one B OKAY") {
    std::vector<ni::Descriptor> ds;
    std::vector<uint64_t> words;
    for (unsigned ch = 0; ch < 64; ++ch) {
      ds.push_back(
          ch % 2 ? mem_desc(4, ch, ni::Kind::Tid, 0x100 * ch, kNode | (uint64_t(ch) << 16), 10 + ch)
                 : inline_desc(4, ch, 1 + ch % 16, false, kNode | ch));
      for (uint64_t w : ds.back().encode()) words.push_back(w);
    }
    const sim::AxiWrite w = burst(word_addr(4, 0, 0), words, 16);
    REQUIRE(w.beats.size() == 128);
    REQUIRE(env.write(w) == sim::kRespOkay);
    for (const auto& d : ds) env.wait_status(4, d.channel, kDone);
    // They went live in channel order, each one block or packet: TID and seq = channel.
    for (const auto& d : ds) {
      INFO("channel " << d.channel);
      if (d.kind == ni::Kind::Inline) {
        REQUIRE(env.col.packets_of(d.xfer()).size() == 1);
        check_inline_packet(env.col.packets_of(d.xfer())[0], d, d.channel, d.channel);
      } else {
        REQUIRE(env.col.blocks_of(d.xfer()).size() == 1);
        check_block(env.col.blocks_of(d.xfer())[0],
                    expected_blocks(d, d.channel, 0, {d.channel}).front());
      }
    }
    CHECK(env.stat(kDescAccepted) == 64);
  }
  SECTION(
      "256 8-byte beats from channel 32: channels 64..95 are read channels (R1): SLVERR, 32..63 "
      "live") {
    std::vector<uint64_t> words;
    for (unsigned ch = 32; ch < 96; ++ch) {
      for (uint64_t w :
           mem_desc(5, ch, ni::Kind::Tid, ch, kNode | (uint64_t(ch) << 16), 100).encode())
        words.push_back(w);
    }
    const sim::AxiWrite w = burst(word_addr(5, 32, 0), words, 8);
    REQUIRE(w.beats.size() == 256);
    REQUIRE(env.write(w) == sim::kRespSlverr);
    for (unsigned ch = 32; ch < 64; ++ch) env.wait_status(5, ch, kDone);
    env.run(50);
    CHECK(env.col.blocks.size() == 32);
    CHECK(env.stat(kDescAccepted) == 32);
    CHECK(env.stat(kWritesRejected) == 1);
  }
  SECTION("a beat without strobes leaves its line partial: the rest of the burst interleaves") {
    std::vector<uint64_t> words;
    for (unsigned ch = 0; ch < 16; ++ch) {
      for (uint64_t w :
           mem_desc(6, ch, ni::Kind::Tid, ch, kNode | (uint64_t(ch) << 16), 100).encode())
        words.push_back(w);
    }
    sim::AxiWrite w = burst(word_addr(6, 0, 0), words, 16);
    // Channel 5's w0/w1 beat without strobes: legal, writes nothing; channel 5's line then
    // holds w2, w3 only, and every later word (channels 6..15) is an interleaving write.
    w.beats[2 * 5].strb = 0;
    REQUIRE(env.write(w) == sim::kRespSlverr);
    for (unsigned ch = 0; ch < 5; ++ch) env.wait_status(6, ch, kDone);
    env.run(50);
    CHECK(env.stat(kDescAccepted) == 5);
    for (unsigned ch = 5; ch < 16; ++ch) CHECK(env.tb.status(wch_of(6, ch)) == kIdle);
    // Channel 5's missing words complete it.
    REQUIRE(env.write(burst(word_addr(6, 5, 0), {words[20], words[21]}, 16)) == sim::kRespOkay);
    env.wait_status(6, 5, kDone);
    CHECK(env.col.blocks.size() == 6);
    CHECK(env.col.blocks.back().src == 5);
  }
  env.finish();
}

}  // namespace engine_test
