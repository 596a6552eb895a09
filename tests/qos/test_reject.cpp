// SPDX-License-Identifier: Apache-2.0
// Every rejection rule: the descriptor rules of ICD 4 / design.md R1..R10 and the AXI-level
// rules of design.md 3. Each rejected write must answer B = SLVERR and change nothing: no
// status change (the channel stays as it was, IDLE unless the rule needs it otherwise), no
// enqueue (no block or packet ever appears), the statistics read over AXI unchanged except
// "descriptor writes rejected" +1 per rejected transaction. Afterwards a legal descriptor on
// another line (proving no partial line was left in the accumulator) and one on the same
// channel still complete.
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x0077ull << 48;

struct Snap {
  Stats st;
  std::size_t outputs;
  std::size_t status_events;
};

Snap snap(Env& env) { return Snap{env.stats(), env.col.outputs(), env.col.status.size()}; }

// Nothing changed since `before` but the rejected-writes counter (+n).
void expect_unchanged(Env& env, const Snap& before, unsigned n) {
  env.run(30);  // time for anything wrongly accepted to show at the ports
  CHECK(env.col.outputs() == before.outputs);
  CHECK(env.col.status.size() == before.status_events);
  const Stats now = env.stats();
  for (unsigned i = 0; i < kNumStats; ++i) {
    INFO("statistics counter " << i);
    CHECK(now[i] == before.st[i] + (i == kWritesRejected ? n : 0));
  }
}

// The writes `ws` are rejected: the last one (and those marked in `bad`, default: only the
// last) answer SLVERR, the others OKAY; then nothing changed.
void expect_rejected(Env& env, std::vector<sim::AxiWrite> ws, std::vector<bool> bad = {}) {
  if (bad.empty()) {
    bad.assign(ws.size(), false);
    bad.back() = true;
  }
  const Snap before = snap(env);
  const std::vector<uint8_t> r = env.write_all(std::move(ws));
  unsigned n = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    INFO("write #" << i);
    CHECK(r[i] == (bad[i] ? sim::kRespSlverr : sim::kRespOkay));
    n += bad[i] ? 1 : 0;
  }
  expect_unchanged(env, before, n);
}

// A legal short 1-block TID-only descriptor at (page, ch) completes (ACKs automatic or, in
// script mode, given here); the status read returns DONE and clears it.
void expect_works(Env& env, unsigned page, unsigned ch) {
  INFO("legal descriptor at page " << page << " channel " << ch);
  const std::size_t out0 = env.col.outputs();
  const ni::Descriptor d =
      mem_desc(page, ch, ni::Kind::Tid, 0xC0FFEE000ull + ch, kNode | (0x10000ull * ch), 64 + ch);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_outputs(out0 + 1);
  const Block b = env.col.blocks.back();
  CHECK(b.xfer == d.xfer());
  CHECK(b.src == d.src);
  CHECK(b.len == d.size);
  if (env.tb.responder().options().auto_mode) {
    env.wait_status(page, ch, kDone);
  } else {
    env.ack_until_finished(page, ch);
  }
  CHECK(env.status(page, ch) == kDone);
  CHECK(env.status(page, ch) == kIdle);
}

// expect_works on another line first (an accumulator left holding part of a line would make
// it an interleaving write: SLVERR), then on the channel itself.
void expect_channel_works(Env& env, unsigned page, unsigned ch) {
  expect_works(env, page ^ 1u, (ch + 17) % 64);
  expect_works(env, page, ch);
}

// Line 0 (words w0..w3) of a descriptor, as one 128-bit burst.
sim::AxiWrite line0(const ni::Descriptor& d, const std::vector<uint64_t>& w) {
  return burst(word_addr(d.page, d.channel, 0), {w[0], w[1], w[2], w[3]}, 16);
}
// Line 1 (w4..w7) at channel c+1.
sim::AxiWrite line1(const ni::Descriptor& d, const std::vector<uint64_t>& w) {
  return burst(word_addr(d.page, d.channel + 1, 0), {w[4], w[5], w[6], w[7]}, 16);
}
sim::AxiWrite short_write(const ni::Descriptor& d) { return desc_writes(d).front(); }

ni::Descriptor tid_desc(unsigned page, unsigned ch, uint32_t size = 100) {
  return mem_desc(page, ch, ni::Kind::Tid, 0x1000, kNode | 0x20000, size);
}

}  // namespace

TEST_CASE("reject: descriptor rules R1..R10", "[engine][reject]") {
  SECTION("R1: write channel >= 64") {
    Env env;
    expect_rejected(env, {short_write(tid_desc(0, 64))});
    expect_rejected(env, {short_write(tid_desc(0, 127))});
    expect_rejected(env, {short_write(inline_desc(3, 100, 8, false, kNode))});
    const ni::Descriptor l = notify_desc(0, 64, ni::Kind::Tid, 1, kNode, 10, 2, 3);
    expect_rejected(env, {line0(l, l.encode())});
    CHECK(env.status32(0, 0) == 0);
    CHECK(env.status32(0, 1) == 0);
    CHECK(env.stat(kDescAccepted) == 0);
    CHECK(env.stat(kWritesRejected) == 4);
    expect_channel_works(env, 0, 0);
    expect_channel_works(env, 0, 63);
  }
  SECTION("R2: channel BUSY, DONE (not read yet) or ERROR; line 1 on a channel that is not IDLE") {
    Env env(/*auto_ack=*/false);
    env.set_max_retries(0);  // ICD 14: no re-issue, the first NACK ends the transfer ERROR
    const ni::Descriptor d1 = tid_desc(1, 10, 200);
    const ni::Descriptor d2 = mem_desc(1, 10, ni::Kind::OneFid, 0x5000, kNode | 0x70000, 300);
    REQUIRE(env.write_desc(d1) == sim::kRespOkay);
    env.wait_outputs(1);
    REQUIRE(env.tb.status(d1.wch()) == kBusy);
    expect_rejected(env, {short_write(d2)});  // BUSY
    CHECK(env.tb.status(d1.wch()) == kBusy);
    env.ack_outstanding();
    env.wait_status(1, 10, kDone);
    expect_rejected(env, {short_write(d2)});  // DONE, not read yet
    CHECK(env.tb.status(d1.wch()) == kDone);
    CHECK(env.status(1, 10) == kDone);
    REQUIRE(env.write_desc(d2) == sim::kRespOkay);  // now IDLE: accepted
    env.wait_outputs(2);
    env.ack_outstanding(/*nack=*/true);
    env.wait_status(1, 10, kError);
    expect_rejected(env, {short_write(d1)});  // ERROR, not read yet
    CHECK(env.status(1, 10) == kError);
    CHECK(env.status(1, 10) == kIdle);
    expect_channel_works(env, 1, 10);

    // Line 1 of a long descriptor at (1,20) while (1,21) is BUSY: line 0 is accepted (it
    // becomes the pending long descriptor), line 1 answers SLVERR, nothing goes live.
    const ni::Descriptor s21 = tid_desc(1, 21);
    REQUIRE(env.write_desc(s21) == sim::kRespOkay);
    env.wait_outputs(env.col.outputs() + 1);
    const ni::Descriptor l20 =
        notify_desc(1, 20, ni::Kind::Tid, 0x4000, kNode | 0x30000, 500, 0xAA, 0xBB);
    const std::vector<uint64_t> w = l20.encode();
    REQUIRE(env.write(line0(l20, w)) == sim::kRespOkay);
    expect_rejected(env, {line1(l20, w)});
    CHECK(env.tb.status(l20.wch()) == kIdle);
    env.ack_until_finished(1, 21);
    CHECK(env.status(1, 21) == kDone);
    // The pending long descriptor was kept (design.md 3: a rejected line changes nothing
    // else): line 1 alone now makes it live.
    REQUIRE(env.write(line1(l20, w)) == sim::kRespOkay);
    CHECK(env.tb.status(l20.wch()) == kBusy);
    env.ack_until_finished(1, 20);
    CHECK(env.status(1, 20) == kDone);
    REQUIRE(env.col.packets_of(l20.xfer()).size() == 1);  // its control packet
  }
  SECTION("R3: odd channel whose even neighbour holds a live long descriptor") {
    Env env(/*auto_ack=*/false);
    // A live long descriptor at (2,30) that stays BUSY: 2 blocks, ACKs withheld.
    const ni::Descriptor l30 =
        notify_desc(2, 30, ni::Kind::Tid, 0x8000, kNode | 0x38000, 0x10000, 0x11, 0x22);
    REQUIRE(env.write_desc(l30) == sim::kRespOkay);
    env.wait_outputs(2);
    REQUIRE(env.tb.status(l30.wch()) == kBusy);
    const std::size_t blocks_of_30 = env.col.blocks.size();
    expect_rejected(env, {short_write(tid_desc(2, 31))});
    expect_rejected(env, {short_write(inline_desc(2, 31, 4, false, kNode))});
    CHECK(env.tb.status(l30.wch()) == kBusy);
    CHECK(env.tb.status(wch_of(2, 31)) == kIdle);
    // A live *short* descriptor at an even channel does not block its odd neighbour.
    REQUIRE(env.write_desc(tid_desc(2, 40)) == sim::kRespOkay);
    REQUIRE(env.write_desc(tid_desc(2, 41)) == sim::kRespOkay);
    env.wait_outputs(blocks_of_30 + 2);
    CHECK(env.tb.status(wch_of(2, 41)) == kBusy);
    // Once (2,30) is no longer BUSY (DONE, not even read), (2,31) takes a descriptor.
    env.ack_until_finished(2, 30);
    REQUIRE(env.tb.status(l30.wch()) == kDone);
    env.ack_until_finished(2, 40);
    env.ack_until_finished(2, 41);
    expect_works(env, 2, 31);
    CHECK(env.status(2, 30) == kDone);
    // The long flag follows the live descriptor: a short one at (2,30) replaces it, and
    // (2,31) takes a descriptor while (2,30) is BUSY.
    REQUIRE(env.write_desc(tid_desc(2, 30)) == sim::kRespOkay);
    env.wait_outputs(env.col.outputs() + 1);
    REQUIRE(env.tb.status(l30.wch()) == kBusy);
    expect_works(env, 2, 31);
    env.ack_until_finished(2, 30);
  }
  SECTION("R4: size 0") {
    Env env;
    expect_rejected(env, {short_write(tid_desc(3, 2, 0))});
    expect_rejected(env, {short_write(inline_desc(3, 2, 0, false, kNode))});
    const ni::Descriptor l = notify_desc(3, 2, ni::Kind::OneFid, 1, kNode, 0, 2, 3);
    expect_rejected(env, {line0(l, l.encode())});
    expect_channel_works(env, 3, 2);
  }
  SECTION("R5: inline size > 16 in a short, > 32 in a long descriptor") {
    Env env;
    expect_rejected(env, {short_write(inline_desc(4, 6, 17, false, kNode))});
    expect_rejected(env, {short_write(inline_desc(4, 6, 0xFFFFFFFF, false, kNode))});
    const ni::Descriptor l33 = inline_desc(4, 6, 33, true, kNode);
    expect_rejected(env, {line0(l33, l33.encode())});
    const ni::Descriptor l64 = inline_desc(4, 6, 64, true, kNode);
    expect_rejected(env, {desc_writes(l64).front()});  // both lines in one burst: line 1 then
                                                       // lands as a first line (size 0): SLVERR
    expect_channel_works(env, 4, 6);
  }
  SECTION("R6: memory transfer with notify but not long") {
    Env env;
    for (ni::Kind k : {ni::Kind::Tid, ni::Kind::OneFid, ni::Kind::FourFid}) {
      ni::Descriptor d = notify_desc(5, 8, k, 0x100, kNode | 0x100, 1000, 0x1, 0x2);
      d.long_mode = ni::LongMode::Short;
      expect_rejected(env, {short_write(d)});
    }
    expect_channel_works(env, 5, 8);
  }
  SECTION("R7: long descriptor on an odd channel") {
    Env env;
    const ni::Descriptor m = notify_desc(6, 5, ni::Kind::Tid, 0x100, kNode, 1000, 0x1, 0x2);
    expect_rejected(env, {line0(m, m.encode())});
    const ni::Descriptor i = inline_desc(6, 7, 20, true, kNode);
    expect_rejected(env, {line0(i, i.encode())});
    expect_rejected(env, {desc_writes(i).front()});  // both lines: (6,8) then judged as a
                                                     // first line of size 0: one SLVERR
    expect_channel_works(env, 6, 5);
    expect_channel_works(env, 6, 7);
  }
  SECTION("R8: last missing on the final line, or present on line 0 of a long one") {
    Env env;
    std::vector<uint64_t> w = tid_desc(7, 12).encode();
    w[3] &= ~ni::CtrlLast;
    expect_rejected(env, {burst(word_addr(7, 12, 0), w, 16)});
    const ni::Descriptor l = notify_desc(7, 12, ni::Kind::Tid, 0x100, kNode, 1000, 0x1, 0x2);
    w = l.encode();
    w[3] |= ni::CtrlLast;
    expect_rejected(env, {line0(l, w)});
    // Line 1 without last: line 0 accepted, line 1 SLVERR, nothing live.
    w = l.encode();
    w[7] = 0;
    REQUIRE(env.write(line0(l, w)) == sim::kRespOkay);
    expect_rejected(env, {line1(l, w)});
    CHECK(env.tb.status(l.wch()) == kIdle);
    // The right line 1 completes it (the pending line 0 was kept).
    REQUIRE(env.write(line1(l, l.encode())) == sim::kRespOkay);
    env.wait_status(7, 12, kDone);
    CHECK(env.status(7, 12) == kDone);
    expect_channel_works(env, 7, 12);
  }
  SECTION("R9: dst_addr[47:0] + size crossing 2^48") {
    Env env;
    expect_rejected(env,
                    {short_write(mem_desc(8, 14, ni::Kind::Tid, 0, 0x0000FFFFFFFFFFF0ull, 17))});
    expect_rejected(
        env, {short_write(mem_desc(8, 14, ni::Kind::OneFid, 0, 0xABCDFFFFFFFF0000ull, 0x10001))});
    expect_rejected(
        env,
        {short_write(mem_desc(8, 14, ni::Kind::FourFid, 0, 0x0000FFFF00000002ull, 0xFFFFFFFF))});
    expect_rejected(env, {short_write(inline_desc(8, 14, 9, false, 0x5555FFFFFFFFFFF8ull))});
    // The edges: ending exactly at 2^48 is legal (node bits [63:48] play no part).
    const std::size_t b0 = env.col.blocks.size();
    REQUIRE(env.write_desc(mem_desc(8, 14, ni::Kind::Tid, 0x40, 0x1234FFFFFFFFFFF0ull, 16)) ==
            sim::kRespOkay);
    env.wait_status(8, 14, kDone);
    REQUIRE(env.col.blocks.size() == b0 + 1);
    CHECK(env.col.blocks.back().dst == 0x1234FFFFFFFFFFF0ull);
    CHECK(env.col.blocks.back().len == 16);
    CHECK(env.status(8, 14) == kDone);
    REQUIRE(env.write_desc(inline_desc(8, 14, 8, false, 0x5555FFFFFFFFFFF8ull)) == sim::kRespOkay);
    env.wait_status(8, 14, kDone);
    CHECK(env.status(8, 14) == kDone);
    expect_channel_works(env, 8, 14);
  }
  SECTION("R11: a read (w3 bit 40, ICD 16) of kind inline, or whose source crosses 2^48") {
    Env env;
    ni::Descriptor i = inline_desc(9, 18, 8, false, kNode);
    i.read = true;
    expect_rejected(env, {short_write(i)});
    // the remote source range [2^48 - 16, 2^48 + 16) crosses 2^48 (node 3's memory)
    ni::Descriptor m =
        mem_desc(9, 18, ni::Kind::Tid, (uint64_t{3} << 48) | 0xFFFFFFFFFFF0ull, kNode, 32);
    m.read = true;
    expect_rejected(env, {short_write(m)});
    CHECK(env.stat(kWritesRejected) == 2);
    expect_channel_works(env, 9, 18);
  }
  SECTION("R10: nonzero reserved bits (w3[62:41], w2 of a memory descriptor, w6, w7[62:0])") {
    Env env;
    const ni::Descriptor d = tid_desc(9, 16);
    for (unsigned b = 41; b <= 62; ++b) {  // (bit 40 is `read`, ICD 16: R11)
      INFO("w3 bit " << b);
      std::vector<uint64_t> w = d.encode();
      w[3] |= uint64_t{1} << b;
      expect_rejected(env, {burst(word_addr(9, 16, 0), w, 16)});
    }
    for (unsigned b : {0u, 17u, 63u}) {
      INFO("w2 bit " << b);
      for (ni::Kind k : {ni::Kind::Tid, ni::Kind::OneFid, ni::Kind::FourFid}) {
        std::vector<uint64_t> w = mem_desc(9, 16, k, 0x100, kNode, 1000).encode();
        w[2] |= uint64_t{1} << b;
        expect_rejected(env, {burst(word_addr(9, 16, 0), w, 8)});
      }
    }
    CHECK(env.stat(kWritesRejected) == 22 + 9);
    // Line 1: w6 nonzero, w7 with any bit but `last`.
    const ni::Descriptor l = notify_desc(9, 16, ni::Kind::FourFid, 0x100, kNode, 1000, 0x1, 0x2);
    REQUIRE(env.write(line0(l, l.encode())) == sim::kRespOkay);
    for (unsigned word : {6u, 7u}) {
      for (unsigned b : {0u, 31u, 62u}) {
        INFO("w" << word << " bit " << b);
        std::vector<uint64_t> w = l.encode();
        w[word] |= uint64_t{1} << b;
        expect_rejected(env, {line1(l, w)});
        CHECK(env.tb.status(l.wch()) == kIdle);
      }
    }
    REQUIRE(env.write(line1(l, l.encode())) == sim::kRespOkay);
    env.wait_status(9, 16, kDone);
    CHECK(env.status(9, 16) == kDone);
    expect_channel_works(env, 9, 16);
  }
}

TEST_CASE("reject: AXI-level write rules", "[engine][reject][axi]") {
  Env env;
  const ni::Descriptor d = tid_desc(10, 20);
  const std::vector<uint64_t> w = d.encode();
  const uint32_t a0 = word_addr(10, 20, 0);
  auto one_beat = [&](uint32_t addr, uint8_t size, uint8_t burst_type, uint64_t lo, uint64_t hi,
                      uint16_t strb, bool last = true, int len = -1) {
    sim::AxiWrite x;
    x.addr = addr;
    x.size = size;
    x.burst = burst_type;
    x.len = len;
    x.beats.push_back(sim::AxiBeat{lo, hi, strb, last});
    return x;
  };
  unsigned rejected = 0;

  SECTION("AWBURST FIXED, WRAP and reserved: every beat dropped") {
    for (uint8_t bt : {uint8_t(0), uint8_t(2), uint8_t(3)}) {
      INFO("AWBURST " << unsigned(bt));
      sim::AxiWrite x = burst(a0, w, 16);
      x.burst = bt;
      expect_rejected(env, {x});
      ++rejected;
    }
  }
  SECTION("AWSIZE other than 3 and 4") {
    for (uint8_t sz : {uint8_t(0), uint8_t(1), uint8_t(2), uint8_t(5), uint8_t(6), uint8_t(7)}) {
      INFO("AWSIZE " << unsigned(sz));
      expect_rejected(env, {one_beat(a0, sz, 1, w[0], w[1], 0xFFFF)});
      sim::AxiWrite x = burst(a0, w, 16);  // a whole line: not one word may land
      x.size = sz;
      expect_rejected(env, {x});
      rejected += 2;
    }
  }
  SECTION("AWADDR not 8-byte aligned") {
    for (uint32_t off : {1u, 4u, 7u}) {
      INFO("offset " << off);
      expect_rejected(env, {one_beat(a0 + off, 3, 1, w[0], 0, 0x00FF)});
      expect_rejected(env, {one_beat(a0 + off, 4, 1, w[0], w[1], 0xFFFF)});
      sim::AxiWrite x = burst(a0, w, 8);
      x.addr += off;
      expect_rejected(env, {x});
      rejected += 3;
    }
  }
  SECTION("WSTRB: partial lanes, lanes outside the beat's window") {
    for (uint16_t s : {uint16_t(0x000F), uint16_t(0x00F0), uint16_t(0x0FF0), uint16_t(0xFF0F),
                       uint16_t(0x0001), uint16_t(0x8000), uint16_t(0x7FFF), uint16_t(0xFFFE)}) {
      INFO("16-byte beat, WSTRB " << s);
      expect_rejected(env, {one_beat(a0, 4, 1, w[0], w[1], s)});
    }
    // 8-byte beats: the window is the lane addr[3] selects.
    expect_rejected(env, {one_beat(a0, 3, 1, w[0], w[0], 0xFF00)});      // word 0, upper lane
    expect_rejected(env, {one_beat(a0, 3, 1, w[0], w[0], 0xFFFF)});      // word 0, both lanes
    expect_rejected(env, {one_beat(a0 + 8, 3, 1, w[1], w[1], 0x00FF)});  // word 1, lower lane
    // 16-byte beat at an odd word (AWADDR[3] = 1): only the upper lane is in the window.
    expect_rejected(env, {one_beat(a0 + 8, 4, 1, w[0], w[1], 0xFFFF)});
    rejected += 12;
    // A beat without any word write is legal and does nothing: OKAY, nothing counted.
    const Snap before = snap(env);
    REQUIRE(env.write(one_beat(a0, 4, 1, w[0], w[1], 0x0000)) == sim::kRespOkay);
    expect_unchanged(env, before, 0);
  }
  SECTION("WLAST on the wrong beat") {
    expect_rejected(env, {one_beat(a0, 4, 1, w[0], w[1], 0xFFFF, /*last=*/false)});
    sim::AxiWrite x = burst(a0, {w[0], w[1], w[2], w[3]}, 16);  // beat 0 last, beat 1 not: both bad
    x.beats[0].last = true;
    x.beats[1].last = false;
    expect_rejected(env, {x});
    rejected += 2;
  }
  SECTION("writes to the read-only and unmapped regions") {
    for (uint32_t region : {1u, 2u, 3u, 5u, 8u, 15u}) {
      INFO("region " << region);
      expect_rejected(
          env, {one_beat((region << 16) | (10u << 12) | (20u << 5), 4, 1, 0x2, 0x3, 0xFFFF)});
      ++rejected;
    }
    CHECK(env.stat(kDescAccepted) == 0);
  }
  SECTION("control registers: only words 0x40000 and 0x40010 are writable") {
    for (uint32_t addr : {0x40008u, 0x40018u, 0x40020u, 0x40100u, 0x4FFF0u}) {
      INFO("address " << std::hex << addr);
      expect_rejected(env, {one_beat(addr, 3, 1, 7, 7, (addr & 8) ? 0xFF00 : 0x00FF)});
      ++rejected;
    }
    // A 16-byte beat writing 0x40000 and the invalid 0x40008: the whole beat is dropped.
    expect_rejected(env, {one_beat(0x40000, 4, 1, 1234, 5678, 0xFFFF)});
    ++rejected;
    CHECK(env.read(0x40000) == 0);  // retransmission timeout: reset value, unchanged
    CHECK(env.read(0x40010) == 3);  // MaxRetries: reset value, unchanged
    // The legal words (8- and 16-byte beats, lower lane only).
    REQUIRE(env.write(one_beat(0x40010, 3, 1, 5, 0, 0x00FF)) == sim::kRespOkay);
    CHECK(env.read(0x40010) == 5);
    REQUIRE(env.write(one_beat(0x40010, 4, 1, 3, 0, 0x00FF)) == sim::kRespOkay);
    CHECK(env.read(0x40010) == 3);
    REQUIRE(env.write(one_beat(0x40000, 3, 1, 0, 0, 0x00FF)) == sim::kRespOkay);
    CHECK(env.read(0x40000) == 0);
  }
  CHECK(env.stat(kWritesRejected) == rejected);
  CHECK(env.stat(kDescAccepted) == 0);
  CHECK(env.status32(10, 0) == 0);
  CHECK(env.status32(10, 1) == 0);
  expect_channel_works(env, 10, 20);
  env.finish();
}

TEST_CASE("reject: a beat that breaks a rule is dropped alone; the transaction's others land",
          "[engine][reject][axi]") {
  // design.md 3: "A beat that breaks the rule is dropped whole (no word of it is written)
  // and the transaction answers SLVERR": the other beats of the burst are written. A line
  // left partly accumulated that way is completed by the next writes.
  Env env;
  const ni::Descriptor d = tid_desc(11, 22, 4242);
  const std::vector<uint64_t> w = d.encode();
  SECTION("bad WSTRB on beat 1") {
    sim::AxiWrite x = burst(word_addr(11, 22, 0), w, 16);
    x.beats[1].strb = 0x0FFF;
    REQUIRE(env.write(x) == sim::kRespSlverr);
  }
  SECTION("WLAST missing on the last beat") {
    sim::AxiWrite x = burst(word_addr(11, 22, 0), w, 16);
    x.beats[1].last = false;
    REQUIRE(env.write(x) == sim::kRespSlverr);
  }
  env.run(20);
  CHECK(env.col.outputs() == 0);
  CHECK(env.tb.status(d.wch()) == kIdle);
  // w0, w1 are held: w2, w3 alone complete the line.
  REQUIRE(env.write(burst(word_addr(11, 22, 2), {w[2], w[3]}, 16)) == sim::kRespOkay);
  env.wait_status(11, 22, kDone);
  REQUIRE(env.col.blocks.size() == 1);
  CHECK(env.col.blocks[0].src == d.src);
  CHECK(env.col.blocks[0].dst == d.dst);
  CHECK(env.col.blocks[0].len == 4242);
  CHECK(env.stat(kWritesRejected) == 1);
  CHECK(env.stat(kDescAccepted) == 1);
  env.finish();
}

TEST_CASE("reject: illegal reads answer SLVERR on every beat and clear nothing",
          "[engine][reject][axi]") {
  Env env;
  // A DONE channel whose status an illegal read must not clear.
  REQUIRE(env.write_desc(tid_desc(12, 3)) == sim::kRespOkay);
  env.wait_status(12, 3, kDone);
  struct Bad {
    uint32_t addr;
    uint8_t len, size;
  };
  const Bad bad[] = {
      {status_addr(12, 3), 2, 4},        // ARLEN != 0: three SLVERR beats, RLAST on the last
      {status_addr(12, 3), 0, 5},        // ARSIZE > 4
      {status_addr(12, 3) | 8, 0, 3},    // not 16-byte aligned
      {status32_addr(12, 0) | 4, 0, 4},  // not 16-byte aligned
      {word_addr(12, 3, 0), 0, 4},       // region 0 (descriptor lines are write-only)
      {0x50000, 0, 4},                   // unmapped regions
      {0xF0000, 1, 4},
  };
  for (const Bad& b : bad) {
    INFO("read at " << std::hex << b.addr << std::dec << " len " << unsigned(b.len) << " size "
                    << unsigned(b.size));
    sim::AxiRead r;
    r.addr = b.addr;
    r.len = b.len;
    r.size = b.size;
    const sim::AxiRead t = env.read_txn(r);
    CHECK(t.last_ok);
    REQUIRE(t.data.size() == std::size_t(b.len) + 1);
    for (std::size_t i = 0; i < t.data.size(); ++i) {
      CHECK(t.resp[i] == sim::kRespSlverr);
      CHECK(t.data[i] == 0);
    }
  }
  CHECK(env.tb.status(wch_of(12, 3)) == kDone);
  CHECK(env.status(12, 3) == kDone);
  CHECK(env.status(12, 3) == kIdle);
  CHECK(env.stat(kWritesRejected) == 0);  // reads are not counted
  env.finish();
}

}  // namespace engine_test
