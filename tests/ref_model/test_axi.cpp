// SPDX-License-Identifier: Apache-2.0
// AXI transaction-level rules and the slave model (ICD section 3, docs/design.md section 3).
#include <catch2/catch.hpp>

#include "ref_model/qos/axi_rules.hpp"
#include "ref_model/qos/axi_slave_model.hpp"

using namespace ni;

namespace {
AwFields aw(uint32_t addr, uint8_t len, uint8_t size, uint8_t burst = AxiBurstIncr) {
  AwFields a;
  a.addr = addr;
  a.len = len;
  a.size = size;
  a.burst = burst;
  return a;
}
WBeat beat(uint64_t lo, uint64_t hi, uint16_t strb, bool last) {
  WBeat b;
  b.data_lo = lo;
  b.data_hi = hi;
  b.strb = strb;
  b.last = last;
  return b;
}
}  // namespace

TEST_CASE("AW checks", "[axi]") {
  CHECK(check_aw(aw(0x0, 0, 3)) == AwError::None);
  CHECK(check_aw(aw(0x40000, 0, 4)) == AwError::None);
  CHECK(check_aw(aw(0x0, 0, 3, AxiBurstFixed)) == AwError::Burst);
  CHECK(check_aw(aw(0x0, 0, 3, AxiBurstWrap)) == AwError::Burst);
  CHECK(check_aw(aw(0x0, 0, 2)) == AwError::Size);
  CHECK(check_aw(aw(0x0, 0, 5)) == AwError::Size);
  CHECK(check_aw(aw(0x4, 0, 3)) == AwError::Align);
  CHECK(check_aw(aw(0x10000, 0, 3)) == AwError::Region);  // status region is read-only
  CHECK(check_aw(aw(0x30000, 0, 3)) == AwError::Region);
  CHECK(check_aw(aw(0x50000, 0, 3)) == AwError::Region);
  CHECK(check_aw(aw(0xFFF00000, 0, 3)) == AwError::None);  // upper bits ignored: region 0
}

TEST_CASE("beat addresses follow AXI INCR", "[axi]") {
  // 16-byte beats from an unaligned start: 0x28, then align(0x28,16) + n*16
  CHECK(beat_addr(aw(0x28, 2, 4), 0) == 0x28);
  CHECK(beat_addr(aw(0x28, 2, 4), 1) == 0x30);
  CHECK(beat_addr(aw(0x28, 2, 4), 2) == 0x40);
  CHECK(beat_addr(aw(0x28, 2, 3), 1) == 0x30);
  CHECK(beat_addr(aw(0x28, 2, 3), 2) == 0x38);
}

TEST_CASE("WSTRB lane rule", "[axi]") {
  const uint64_t lo = 0x1111, hi = 0x2222;
  SECTION("16-byte aligned beat") {
    BeatDecode d = decode_write_beat(aw(0x20, 0, 4), 0, beat(lo, hi, 0xFFFF, true));
    REQUIRE_FALSE(d.dropped());
    CHECK(d.words == BeatWords{{0x20, lo}, {0x28, hi}});
    d = decode_write_beat(aw(0x20, 0, 4), 0, beat(lo, hi, 0x00FF, true));
    CHECK(d.words == BeatWords{{0x20, lo}});
    d = decode_write_beat(aw(0x20, 0, 4), 0, beat(lo, hi, 0xFF00, true));
    CHECK(d.words == BeatWords{{0x28, hi}});
    d = decode_write_beat(aw(0x20, 0, 4), 0, beat(lo, hi, 0x0000, true));
    CHECK_FALSE(d.dropped());  // legal, no word
    CHECK(d.words.empty());
    CHECK(decode_write_beat(aw(0x20, 0, 4), 0, beat(lo, hi, 0x0F0F, true)).error ==
          BeatError::Strobe);
    CHECK(decode_write_beat(aw(0x20, 0, 4), 0, beat(lo, hi, 0x00FE, true)).error ==
          BeatError::Strobe);
  }
  SECTION("16-byte unaligned first beat covers the upper lane only") {
    BeatDecode d = decode_write_beat(aw(0x28, 1, 4), 0, beat(lo, hi, 0xFF00, false));
    CHECK(d.words == BeatWords{{0x28, hi}});
    CHECK(decode_write_beat(aw(0x28, 1, 4), 0, beat(lo, hi, 0xFFFF, false)).error ==
          BeatError::Strobe);
    d = decode_write_beat(aw(0x28, 1, 4), 1, beat(lo, hi, 0xFFFF, true));
    CHECK(d.words == BeatWords{{0x30, lo}, {0x38, hi}});
  }
  SECTION("8-byte beats use the lane addr[3]") {
    BeatDecode d = decode_write_beat(aw(0x20, 1, 3), 0, beat(lo, hi, 0x00FF, false));
    CHECK(d.words == BeatWords{{0x20, lo}});
    CHECK(decode_write_beat(aw(0x20, 1, 3), 0, beat(lo, hi, 0xFF00, false)).error ==
          BeatError::Strobe);
    d = decode_write_beat(aw(0x20, 1, 3), 1, beat(lo, hi, 0xFF00, true));  // 0x28
    CHECK(d.words == BeatWords{{0x28, hi}});
    CHECK(decode_write_beat(aw(0x20, 1, 3), 1, beat(lo, hi, 0x00FF, true)).error ==
          BeatError::Strobe);
  }
}

TEST_CASE("WLAST must be high exactly on beat AWLEN", "[axi]") {
  CHECK(decode_write_beat(aw(0x0, 1, 3), 0, beat(1, 0, 0xFF, true)).error == BeatError::Last);
  CHECK(decode_write_beat(aw(0x0, 1, 3), 1, beat(1, 0, 0xFF00, false)).error == BeatError::Last);
  CHECK_FALSE(decode_write_beat(aw(0x0, 1, 3), 1, beat(1, 0, 0xFF00, true)).dropped());
}

TEST_CASE("AW errors drop every beat", "[axi]") {
  const AwFields bad = aw(0x4, 1, 3);
  CHECK(decode_write_beat(bad, 0, beat(1, 0, 0, false)).error == BeatError::AwError);
  CHECK(decode_write_beat(bad, 1, beat(1, 0, 0, true)).error == BeatError::AwError);
}

TEST_CASE("region 4 writes: only 0x40000 and 0x40010", "[axi]") {
  CHECK(decode_write_beat(aw(0x40000, 0, 3), 0, beat(5, 0, 0x00FF, true)).words ==
        BeatWords{{0x40000, 5}});
  CHECK(decode_write_beat(aw(0x40010, 0, 4), 0, beat(5, 0, 0x00FF, true)).words ==
        BeatWords{{0x40010, 5}});
  CHECK(decode_write_beat(aw(0x40008, 0, 3), 0, beat(0, 5, 0xFF00, true)).error ==
        BeatError::CtrlWord);
  CHECK(decode_write_beat(aw(0x40000, 0, 4), 0, beat(5, 6, 0xFFFF, true)).error ==
        BeatError::CtrlWord);  // the upper lane (0x40008) is not a register
  CHECK(decode_write_beat(aw(0x40020, 0, 3), 0, beat(5, 0, 0x00FF, true)).error ==
        BeatError::CtrlWord);
}

TEST_CASE("read legality", "[axi]") {
  CHECK(read_is_legal(aw(0x10000, 0, 3)));
  CHECK(read_is_legal(aw(0x20400, 0, 4)));
  CHECK(read_is_legal(aw(0x30010, 0, 0)));
  CHECK(read_is_legal(aw(0x40000, 0, 3)));
  CHECK_FALSE(read_is_legal(aw(0x10000, 1, 3)));  // ARLEN
  CHECK_FALSE(read_is_legal(aw(0x10000, 0, 5)));  // ARSIZE
  CHECK_FALSE(read_is_legal(aw(0x10008, 0, 3)));  // alignment
  CHECK_FALSE(read_is_legal(aw(0x00000, 0, 3)));  // region 0
  CHECK_FALSE(read_is_legal(aw(0x50000, 0, 3)));
}

TEST_CASE("slave model: a descriptor in one 16-byte burst", "[axi][slave]") {
  AxiSlaveModel s;
  Descriptor d;
  d.page = 3;
  d.channel = 10;
  d.kind = Kind::Tid;
  d.src = 0x100;
  d.dst = 0x200;
  d.size = 8;
  const auto w = d.encode();
  const uint32_t base = desc_addr(3, 10, 0);  // 0x3140
  CHECK(base == 0x3140);
  std::vector<WriteBeatOutcome> out;
  const AxiResp r = s.write(
      aw(base, 1, 4), {beat(w[0], w[1], 0xFFFF, false), beat(w[2], w[3], 0xFFFF, true)}, &out);
  CHECK(r == AxiResp::Okay);
  REQUIRE(out.size() == 2);
  CHECK_FALSE(out[0].txn_done);
  CHECK(out[1].txn_done);
  CHECK(out[1].desc.live == std::vector<unsigned>{xfer_id(3, 10)});
  CHECK(s.stats().get(Stat::DescAccepted) == 1);
  CHECK(s.stats().get(Stat::WriteRejected) == 0);
  // single status read: region 1, page 3, channel 10 -> 0x10000 | 0x3000 | 10 << 5
  ReadOutcome rd = s.read(aw(0x13140, 0, 3));
  CHECK(rd.resp == AxiResp::Okay);
  CHECK(rd.data == std::vector<uint64_t>{1});
  s.status().finish(wch_index(3, 10), false);
  // 32-channel read of page 3, half 0: channel 10 DONE -> 2 << 20
  rd = s.read(aw(0x23000, 0, 4));
  CHECK(rd.data == std::vector<uint64_t>{0x200000});
  rd = s.read(aw(0x13140, 0, 3));
  CHECK(rd.data == std::vector<uint64_t>{0});
  // statistics: counter 0 at 0x30000, counter 13 reads 0
  CHECK(s.read(aw(0x30000, 0, 3)).data == std::vector<uint64_t>{1});
  CHECK(s.read(aw(0x300D0, 0, 3)).data == std::vector<uint64_t>{0});
}

TEST_CASE("slave model: SLVERR transactions", "[axi][slave]") {
  AxiSlaveModel s;
  // a bad WSTRB in beat 0 of 2: the transaction answers SLVERR, beat 1 still applies
  std::vector<WriteBeatOutcome> out;
  AxiResp r = s.write(aw(0x0, 1, 3), {beat(7, 0, 0x0F, false), beat(0, 9, 0xFF00, true)}, &out);
  CHECK(r == AxiResp::Slverr);
  CHECK(out[0].slverr);
  CHECK_FALSE(out[1].slverr);
  CHECK(s.desc().partial(0).valid);
  CHECK(s.desc().partial(0).mask == 0x2);
  CHECK(s.stats().get(Stat::WriteRejected) == 1);
  // interleaving
  r = s.write(aw(0x1000, 0, 3), {beat(1, 0, 0xFF, true)});
  CHECK(r == AxiResp::Slverr);
  CHECK(s.stats().get(Stat::WriteRejected) == 2);
  // AW error: every beat dropped, one SLVERR
  r = s.write(aw(0x10000, 1, 3), {beat(1, 0, 0xFF, false), beat(1, 0, 0xFF00, true)}, &out);
  CHECK(r == AxiResp::Slverr);
  CHECK(s.stats().get(Stat::WriteRejected) == 3);
}

TEST_CASE("slave model: illegal reads", "[axi][slave]") {
  AxiSlaveModel s;
  ReadOutcome rd = s.read(aw(0x10000, 3, 3));
  CHECK(rd.resp == AxiResp::Slverr);
  CHECK(rd.data == std::vector<uint64_t>{0, 0, 0, 0});  // ARLEN+1 beats of zeros
  rd = s.read(aw(0x00000, 0, 3));
  CHECK(rd.resp == AxiResp::Slverr);
  CHECK(rd.data.size() == 1);
}

TEST_CASE("slave model: control registers", "[axi][slave]") {
  AxiSlaveModel s;
  CHECK(s.read(aw(0x40000, 0, 3)).data == std::vector<uint64_t>{0});  // timeout off
  CHECK(s.read(aw(0x40010, 0, 3)).data == std::vector<uint64_t>{3});  // MaxRetries
  CHECK(s.read(aw(0x40020, 0, 3)).data == std::vector<uint64_t>{0});
  CHECK(s.write(aw(0x40000, 0, 3), {beat(1000, 0, 0xFF, true)}) == AxiResp::Okay);
  CHECK(s.write(aw(0x40010, 0, 4), {beat(7, 0, 0xFF, true)}) == AxiResp::Okay);
  CHECK(s.ctrl().timeout() == 1000);
  CHECK(s.ctrl().max_retries() == 7);
  CHECK(s.read(aw(0x40000, 0, 3)).data == std::vector<uint64_t>{1000});
  CHECK(s.write(aw(0x40008, 0, 3), {beat(0, 1, 0xFF00, true)}) == AxiResp::Slverr);
  CHECK(s.write(aw(0x40030, 0, 3), {beat(1, 0, 0xFF, true)}) == AxiResp::Slverr);
  CHECK(s.ctrl().timeout() == 1000);
}

TEST_CASE("slave model: a long descriptor in one 4-beat 16-byte burst", "[axi][slave]") {
  // Beats 0,1 fill line 0 at channel 4 (0x80..0x9F), beats 2,3 line 1 at channel 5.
  AxiSlaveModel s;
  Descriptor d;
  d.page = 0;
  d.channel = 4;
  d.kind = Kind::FourFid;
  d.src = 0x1000;
  d.dst = 0x2000;
  d.size = 0x40000;
  d.notify = true;
  d.notify_addr = 0x3000;
  d.notify_tag = 9;
  const auto w = d.encode();
  REQUIRE(w.size() == 8);
  std::vector<WriteBeatOutcome> out;
  const AxiResp r = s.write(aw(0x80, 3, 4),
                            {beat(w[0], w[1], 0xFFFF, false), beat(w[2], w[3], 0xFFFF, false),
                             beat(w[4], w[5], 0xFFFF, false), beat(w[6], w[7], 0xFFFF, true)},
                            &out);
  CHECK(r == AxiResp::Okay);
  REQUIRE(out.size() == 4);
  CHECK(out[1].desc.line_complete);
  CHECK(out[1].desc.live.empty());
  CHECK(out[3].desc.line1);
  CHECK(out[3].desc.live == std::vector<unsigned>{4});
  CHECK(s.desc().table_descriptor(4) == d);
  CHECK(s.status().long_flag(wch_index(0, 4)));
}
