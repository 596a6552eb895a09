// SPDX-License-Identifier: Apache-2.0
// Descriptor accumulation, validation in context, pending long descriptors and the status
// registers (docs/design.md sections 3 and 4, thesis 3.6.1 and figure 3.4).
#include <catch2/catch.hpp>
#include <vector>

#include "ref_model/qos/descriptor_write_model.hpp"

using namespace ni;

namespace {

// One 8-byte beat writing word `w` (0..7; 4..7 land in line c+1) of the descriptor at (p, c).
BeatWords word(unsigned p, unsigned c, unsigned w, uint64_t v) {
  return {{desc_addr(p, c + w / 4, w % 4), v}};
}

// Writes the words of `d` in the given order (indices 0..7), one word per beat; returns the
// result of the last beat and checks every earlier beat did nothing visible.
BeatResult write_words(DescriptorWriteModel& m, const Descriptor& d,
                       const std::vector<unsigned>& order) {
  const auto w = d.encode();
  BeatResult r;
  for (std::size_t i = 0; i < order.size(); ++i) {
    r = m.apply_beat(word(d.page, d.channel, order[i], w.at(order[i])));
    if (i + 1 < order.size()) {
      INFO("word " << order[i]);
      CHECK_FALSE(r.slverr);
      CHECK(r.live.empty());
    }
  }
  return r;
}

BeatResult write_all(DescriptorWriteModel& m, const Descriptor& d) {
  std::vector<unsigned> order;
  for (unsigned i = 0; i < d.encode().size(); ++i) order.push_back(i);
  return write_words(m, d, order);
}

Descriptor mem(unsigned p, unsigned c, bool notify = false) {
  Descriptor d;
  d.page = p;
  d.channel = c;
  d.kind = Kind::OneFid;
  d.src = 0x4000;
  d.dst = 0x0003000000010010ull;
  d.size = 0x20000;
  d.prio = 6;
  d.notify = notify;
  if (notify) {  // a short descriptor carries no notification fields
    d.notify_addr = 0x8000;
    d.notify_tag = 77;
  }
  return d;
}

Descriptor inl(unsigned p, unsigned c, unsigned n) {
  Descriptor d;
  d.page = p;
  d.channel = c;
  d.kind = Kind::Inline;
  d.dst = 0x100;
  for (unsigned i = 0; i < n; ++i) d.payload.push_back(static_cast<uint8_t>(i + 1));
  d.size = n;
  return d;
}

}  // namespace

TEST_CASE("short memory descriptor: one word per beat, Table stores the seg-info", "[write]") {
  DescriptorWriteModel m;
  const Descriptor d = mem(0, 2);
  const BeatResult r = write_all(m, d);
  CHECK_FALSE(r.slverr);
  CHECK(r.line_complete);
  CHECK(r.verdict == Verdict::Accept);
  REQUIRE(r.live == std::vector<unsigned>{2});
  CHECK(m.status().get(wch_index(0, 2)) == Status::Busy);
  REQUIRE(r.table_writes.size() == 1);
  CHECK(r.table_writes[0].line == 2);
  const Line& t = r.table_writes[0].words;
  CHECK(t[0] == 0x4000);
  CHECK(t[1] == 0x0003000000010010ull);
  // dst % 64K = 0x10 = 16, size 0x20000 = 131072:
  //   total = ceil((16 + 131072) / 65536) = 3; first = 65536 - 16 = 65520 -> m1 0xFFEF;
  //   last_m1 = (16 + 131072 - 1) % 65536 = 15 (blocks 65520 + 65536 + 16 = 131072).
  //   word = 3 | 0xFFEF << 18 | 0xF << 34 = 0x3F_FFBC_0003
  CHECK(t[2] == 0x0000003FFFBC0003ull);
  CHECK(t[3] == d.encode()[3]);
  CHECK(m.table_line(2) == t);
  CHECK(m.table_descriptor(2) == d);
}

TEST_CASE("inline descriptor: w2 is stored as written", "[write]") {
  DescriptorWriteModel m;
  const Descriptor d = inl(1, 7, 12);
  const BeatResult r = write_all(m, d);
  REQUIRE(r.live == std::vector<unsigned>{xfer_id(1, 7)});
  CHECK(r.table_writes.at(0).words[2] == 0x000000000C0B0A09ull);
  CHECK(m.table_descriptor(xfer_id(1, 7)) == d);
}

TEST_CASE("16-byte beats: two words each", "[write]") {
  DescriptorWriteModel m;
  const Descriptor d = mem(0, 2);
  const auto w = d.encode();
  BeatResult r = m.apply_beat({{desc_addr(0, 2, 0), w[0]}, {desc_addr(0, 2, 1), w[1]}});
  CHECK_FALSE(r.line_complete);
  r = m.apply_beat({{desc_addr(0, 2, 2), w[2]}, {desc_addr(0, 2, 3), w[3]}});
  CHECK(r.line_complete);
  CHECK(r.live == std::vector<unsigned>{2});
}

TEST_CASE("empty beat does nothing", "[write]") {
  DescriptorWriteModel m;
  const BeatResult r = m.apply_beat({});
  CHECK_FALSE(r.slverr);
  CHECK_FALSE(r.dropped);
  CHECK_FALSE(m.partial(0).valid);
}

TEST_CASE("word orders (thesis figure 3.4)", "[write]") {
  const Descriptor d = inl(0, 4, 24);  // long inline: w0..w7, lines at channels 4 and 5

  SECTION("words in any order inside each line: legal") {
    DescriptorWriteModel m;
    BeatResult r = write_words(m, d, {3, 1, 0, 2});
    CHECK(r.line_complete);
    CHECK_FALSE(r.slverr);
    CHECK(r.live.empty());  // line 0 alone does not make it live
    CHECK(m.pending(0).valid);
    r = write_words(m, d, {7, 4, 6, 5});
    CHECK(r.line1);
    CHECK(r.verdict == Verdict::Accept);
    CHECK(r.live == std::vector<unsigned>{4});
    CHECK(m.table_descriptor(4) == d);
  }

  SECTION("a line-1 word before line 0 is complete: dropped, line 0 kept") {
    DescriptorWriteModel m;
    const auto w = d.encode();
    m.apply_beat(word(0, 4, 0, w[0]));
    m.apply_beat(word(0, 4, 1, w[1]));
    BeatResult r = m.apply_beat(word(0, 4, 4, w[4]));
    CHECK(r.dropped);
    CHECK(r.slverr);
    CHECK(m.partial(0).valid);
    CHECK(m.partial(0).channel == 4);
    CHECK(m.partial(0).mask == 0x3);
    // the CPU can still finish correctly
    write_words(m, d, {2, 3});
    r = write_words(m, d, {4, 5, 6, 7});
    CHECK(r.live == std::vector<unsigned>{4});
  }

  SECTION("line 1 complete before line 0: judged as a first line and rejected") {
    DescriptorWriteModel m;
    BeatResult r = write_words(m, d, {4, 5, 6, 7});
    CHECK(r.line_complete);
    CHECK_FALSE(r.line1);
    CHECK(r.verdict == Verdict::R4SizeZero);  // w7 read as a control word: size 0
    CHECK(r.slverr);
    r = write_words(m, d, {0, 1, 2, 3});
    CHECK(r.verdict == Verdict::Accept);
    CHECK(r.live.empty());
    CHECK(m.status().get(wch_index(0, 4)) == Status::Idle);
  }
}

TEST_CASE("writing a word twice inside the partial line overwrites it", "[write]") {
  DescriptorWriteModel m;
  const Descriptor d = mem(0, 2);
  const auto w = d.encode();
  m.apply_beat(word(0, 2, 0, 0xBAD));
  write_words(m, d, {0, 1, 2});
  const BeatResult r = m.apply_beat(word(0, 2, 3, w[3]));
  REQUIRE(r.live.size() == 1);
  CHECK(m.table_line(2)[0] == 0x4000);
}

TEST_CASE("interleaving with AccSets = 1", "[write]") {
  DescriptorWriteModel m;  // AccSets 1
  const Descriptor a = mem(0, 2);
  const Descriptor b = mem(1, 6);
  const auto wa = a.encode();
  const auto wb = b.encode();
  m.apply_beat(word(0, 2, 0, wa[0]));
  m.apply_beat(word(0, 2, 1, wa[1]));
  // another page: rejected, the partial line kept
  BeatResult r = m.apply_beat(word(1, 6, 0, wb[0]));
  CHECK(r.dropped);
  CHECK(r.slverr);
  // the same page, another channel: rejected too
  r = m.apply_beat(word(0, 3, 0, wb[0]));
  CHECK(r.dropped);
  CHECK(m.partial(0).page == 0);
  CHECK(m.partial(0).channel == 2);
  CHECK(m.partial(0).mask == 0x3);
  m.apply_beat(word(0, 2, 2, wa[2]));
  r = m.apply_beat(word(0, 2, 3, wa[3]));
  CHECK(r.live == std::vector<unsigned>{2});
  // once a line is complete, another line may start
  r = write_all(m, b);
  CHECK(r.live == std::vector<unsigned>{xfer_id(1, 6)});
}

TEST_CASE("interleaving with AccSets = 16: one set per page", "[write]") {
  Config cfg;
  cfg.acc_sets = 16;
  DescriptorWriteModel m(cfg);
  const Descriptor a = mem(0, 2);
  const Descriptor b = mem(1, 6);
  const auto wa = a.encode();
  const auto wb = b.encode();
  BeatResult r;
  for (unsigned i = 0; i < 4; ++i) {
    r = m.apply_beat(word(0, 2, i, wa[i]));
    CHECK_FALSE(r.slverr);
    if (i == 3) CHECK(r.live == std::vector<unsigned>{2});
    r = m.apply_beat(word(1, 6, i, wb[i]));
    CHECK_FALSE(r.slverr);
    if (i == 3) CHECK(r.live == std::vector<unsigned>{xfer_id(1, 6)});
  }
  // the same page still interleaves
  m.apply_beat(word(2, 0, 0, 1));
  r = m.apply_beat(word(2, 8, 0, 1));
  CHECK(r.dropped);
}

TEST_CASE("rejected line: discarded, nothing else changes", "[write]") {
  DescriptorWriteModel m;
  Descriptor d = mem(0, 2);
  d.size = 0;
  const BeatResult r = write_all(m, d);
  CHECK(r.verdict == Verdict::R4SizeZero);
  CHECK(r.slverr);
  CHECK_FALSE(r.dropped);
  CHECK(r.live.empty());
  CHECK(r.table_writes.empty());
  CHECK_FALSE(m.partial(0).valid);
  CHECK(m.status().get(wch_index(0, 2)) == Status::Idle);
  CHECK(m.table_line(2) == Line{});
}

TEST_CASE("a busy channel rejects a new descriptor (R2 in context)", "[write]") {
  DescriptorWriteModel m;
  write_all(m, mem(0, 2));
  BeatResult r = write_all(m, mem(0, 2));
  CHECK(r.verdict == Verdict::R2NotIdle);
  m.status().finish(wch_index(0, 2), false);
  r = write_all(m, mem(0, 2));
  CHECK(r.verdict == Verdict::R2NotIdle);  // DONE until read
  CHECK(m.status().read_single(0, 2) == Status::Done);
  r = write_all(m, mem(0, 2));
  CHECK(r.verdict == Verdict::Accept);
}

TEST_CASE("pending long descriptors", "[write]") {
  DescriptorWriteModel m;
  const Descriptor l = mem(0, 4, true);  // long memory descriptor at 4/5
  const unsigned w4 = wch_index(0, 4);

  SECTION("line 0 pending, line 1 makes it live with the long flag") {
    BeatResult r = write_words(m, l, {0, 1, 2, 3});
    CHECK(r.verdict == Verdict::Accept);
    CHECK(r.live.empty());
    REQUIRE(r.table_writes.size() == 1);
    CHECK(r.table_writes[0].line == 4);
    CHECK(m.pending(0).valid);
    CHECK(m.pending(0).channel == 4);
    CHECK(m.status().get(w4) == Status::Idle);
    r = write_words(m, l, {4, 5, 6, 7});
    CHECK(r.line1);
    CHECK(r.live == std::vector<unsigned>{4});
    REQUIRE(r.table_writes.size() == 1);
    CHECK(r.table_writes[0].line == 5);
    CHECK(r.table_writes[0].words == Line{0x8000, 77, 0, CtrlLast});
    CHECK(m.status().get(w4) == Status::Busy);
    CHECK(m.status().long_flag(w4));
    CHECK(m.status().get(wch_index(0, 5)) == Status::Idle);
    CHECK_FALSE(m.pending(0).valid);
    CHECK(m.table_descriptor(4) == l);
    // channel 5 is taken while 4 is alive
    r = write_all(m, mem(0, 5));
    CHECK(r.verdict == Verdict::R3PairLongLive);
    // ... and free once 4 has finished (R3 needs BUSY), even before the status is read
    m.status().finish(w4, false);
    r = write_all(m, mem(0, 5));
    CHECK(r.verdict == Verdict::Accept);
  }

  SECTION("a new line 0 in the same set abandons the previous pending one") {
    write_words(m, l, {0, 1, 2, 3});
    const Descriptor l8 = mem(0, 8, true);
    write_words(m, l8, {0, 1, 2, 3});
    CHECK(m.pending(0).channel == 8);
    BeatResult r = write_words(m, l, {4, 5, 6, 7});  // line 1 of the abandoned one
    CHECK_FALSE(r.line1);
    CHECK(r.verdict == Verdict::R4SizeZero);
    r = write_words(m, l8, {4, 5, 6, 7});
    CHECK(r.live == std::vector<unsigned>{8});
    CHECK(m.status().get(w4) == Status::Idle);
  }

  SECTION("a short descriptor at the same channel cancels the pending one") {
    write_words(m, l, {0, 1, 2, 3});
    BeatResult r = write_all(m, mem(0, 4));
    CHECK(r.live == std::vector<unsigned>{4});
    CHECK_FALSE(m.pending(0).valid);
    CHECK_FALSE(m.status().long_flag(w4));
    r = write_words(m, l, {4, 5, 6, 7});
    CHECK_FALSE(r.line1);
    CHECK(r.verdict == Verdict::R4SizeZero);  // (0,4) is live but short: not R3
  }

  SECTION("a short descriptor elsewhere keeps it pending") {
    write_words(m, l, {0, 1, 2, 3});
    write_all(m, mem(3, 10));
    CHECK(m.pending(0).valid);
    const BeatResult r = write_words(m, l, {4, 5, 6, 7});
    CHECK(r.live == std::vector<unsigned>{4});
  }

  SECTION("line 1 of another page is not line 1 (AccSets = 1)") {
    write_words(m, l, {0, 1, 2, 3});
    Descriptor other = l;
    other.page = 1;
    const BeatResult r = write_words(m, other, {4, 5, 6, 7});
    CHECK_FALSE(r.line1);
    CHECK(r.verdict == Verdict::R4SizeZero);
    CHECK(m.pending(0).valid);
  }

  SECTION("a rejected line 1 leaves the descriptor pending") {
    write_words(m, l, {0, 1, 2, 3});
    BeatResult r = m.apply_beat(word(0, 4, 4, 0x8000));
    m.apply_beat(word(0, 4, 5, 77));
    m.apply_beat(word(0, 4, 6, 1));  // w6 nonzero
    r = m.apply_beat(word(0, 4, 7, CtrlLast));
    CHECK(r.line1);
    CHECK(r.verdict == Verdict::R10Reserved);
    CHECK(m.pending(0).valid);
    r = write_words(m, l, {4, 5, 6, 7});
    CHECK(r.live == std::vector<unsigned>{4});
  }

  SECTION("line 1 when c+1 is busy: R2") {
    write_all(m, mem(0, 5));  // short at 5 first
    write_words(m, l, {0, 1, 2, 3});
    const BeatResult r = write_words(m, l, {4, 5, 6, 7});
    CHECK(r.line1);
    CHECK(r.verdict == Verdict::R2NotIdle);
  }

  SECTION("a short at an even channel clears the long flag") {
    write_all(m, l);
    m.status().finish(w4, false);
    m.status().read_single(0, 4);
    write_all(m, mem(0, 4));
    CHECK_FALSE(m.status().long_flag(w4));
    const BeatResult r = write_all(m, mem(0, 5));
    CHECK(r.verdict == Verdict::Accept);
  }

  SECTION("AccSets = 16: pending long descriptors of two pages") {
    Config cfg;
    cfg.acc_sets = 16;
    DescriptorWriteModel m16(cfg);
    Descriptor l1 = l;
    l1.page = 1;
    write_words(m16, l, {0, 1, 2, 3});
    write_words(m16, l1, {0, 1, 2, 3});
    CHECK(m16.pending(0).valid);
    CHECK(m16.pending(1).valid);
    CHECK(write_words(m16, l1, {4, 5, 6, 7}).live == std::vector<unsigned>{xfer_id(1, 4)});
    CHECK(write_words(m16, l, {4, 5, 6, 7}).live == std::vector<unsigned>{4});
  }
}

TEST_CASE("status registers: single read clears DONE/ERROR", "[status]") {
  StatusRegs s;
  const unsigned w = wch_index(2, 9);
  CHECK(s.read_single(2, 9) == Status::Idle);
  CHECK(s.set_busy(w, false));
  CHECK_FALSE(s.set_busy(w, false));  // only from IDLE
  CHECK(s.read_single(2, 9) == Status::Busy);
  CHECK(s.get(w) == Status::Busy);  // BUSY is not cleared
  CHECK(s.finish(w, false));
  CHECK_FALSE(s.finish(w, true));  // only from BUSY
  CHECK(s.read_single(2, 9) == Status::Done);
  CHECK(s.get(w) == Status::Idle);
  s.set_busy(w, false);
  s.finish(w, true);
  CHECK(s.read_single(2, 9) == Status::Error);
  CHECK(s.read_single(2, 9) == Status::Idle);
}

TEST_CASE("status registers: 32-channel read", "[status]") {
  StatusRegs s;
  std::vector<std::string> changes;
  s.set_listener([&](unsigned wch, Status from, Status to) {
    changes.push_back(std::to_string(wch) + ":" + to_string(from) + "->" + to_string(to));
  });
  s.set_busy(wch_index(2, 32), false);  // code 1 at bits 1:0
  s.set_busy(wch_index(2, 33), false);
  s.finish(wch_index(2, 33), false);  // code 2 at bits 3:2 -> 0x8
  s.set_busy(wch_index(2, 63), false);
  s.finish(wch_index(2, 63), true);    // code 3 at bits 63:62
  s.set_busy(wch_index(2, 0), false);  // other half
  s.finish(wch_index(2, 0), false);
  CHECK(s.peek32(2, 1) == 0xC000000000000009ull);
  CHECK(s.read32(2, 1) == 0xC000000000000009ull);
  CHECK(s.read32(2, 1) == 0x0000000000000001ull);  // only the BUSY one remains
  CHECK(s.read32(2, 0) == 0x0000000000000002ull);  // channel 0 DONE
  CHECK(s.read32(2, 0) == 0);
  CHECK(s.read32(3, 1) == 0);
  // wch(2,32) = 160, (2,33) = 161, (2,63) = 191, (2,0) = 128
  const std::vector<std::string> expected = {
      "160:IDLE->BUSY", "161:IDLE->BUSY", "161:BUSY->DONE", "191:IDLE->BUSY",  "191:BUSY->ERROR",
      "128:IDLE->BUSY", "128:BUSY->DONE", "161:DONE->IDLE", "191:ERROR->IDLE", "128:DONE->IDLE"};
  CHECK(changes == expected);
}
