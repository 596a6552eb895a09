// SPDX-License-Identifier: Apache-2.0
// Line validation rules R1..R10 (docs/design.md section 3), one minimal case each plus the
// accept cases, judged against a hand-set fake engine state.
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <utility>

#include "ref_model/common/descriptor.hpp"
#include "ref_model/qos/validation.hpp"

using namespace ni;

namespace {

struct FakeView : ChannelView {
  std::map<std::pair<unsigned, unsigned>, Status> st;
  std::set<std::pair<unsigned, unsigned>> live_longs;
  Status status(unsigned p, unsigned c) const override {
    auto it = st.find({p, c});
    return it == st.end() ? Status::Idle : it->second;
  }
  bool live_long(unsigned p, unsigned c) const override { return live_longs.count({p, c}) != 0; }
};

Descriptor mem(unsigned ch) {
  Descriptor d;
  d.page = 2;
  d.channel = ch;
  d.kind = Kind::Tid;
  d.src = 0x1000;
  d.dst = 0x0005000000002000ull;
  d.size = 100;
  return d;
}

Descriptor inl(unsigned ch, unsigned n) {
  Descriptor d;
  d.page = 2;
  d.channel = ch;
  d.kind = Kind::Inline;
  d.dst = 0x0005000000002000ull;
  d.payload.assign(n, 0x5A);
  d.size = n;
  return d;
}

Line line0(const Descriptor& d) { return d.encode_lines().at(0); }
Line line1(const Descriptor& d) { return d.encode_lines().at(1); }

Verdict judge(const Descriptor& d, const FakeView& v) {
  return judge_first_line(d.page, d.channel, line0(d), v);
}

}  // namespace

TEST_CASE("accept cases", "[validation]") {
  FakeView v;
  CHECK(judge(mem(4), v) == Verdict::Accept);
  CHECK(judge(mem(5), v) == Verdict::Accept);   // odd channel, short
  CHECK(judge(mem(63), v) == Verdict::Accept);  // last write channel
  Descriptor l = mem(4);
  l.notify = true;
  l.kind = Kind::FourFid;
  CHECK(judge(l, v) == Verdict::Accept);  // long line 0
  CHECK(judge_line1(2, 5, line1(l), v) == Verdict::Accept);
  CHECK(judge(inl(4, 16), v) == Verdict::Accept);
  CHECK(judge(inl(4, 32), v) == Verdict::Accept);  // auto long
  Descriptor il = inl(4, 1);
  il.long_mode = LongMode::Long;
  CHECK(judge(il, v) == Verdict::Accept);
  // a long memory descriptor without notify is legal
  Descriptor ln = mem(4);
  ln.long_mode = LongMode::Long;
  CHECK(judge(ln, v) == Verdict::Accept);
  // the inline w2 is payload, not reserved
  Descriptor ip = inl(4, 16);
  ip.payload.assign(16, 0xFF);
  CHECK(line0(ip)[2] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(judge(ip, v) == Verdict::Accept);
}

TEST_CASE("R1: channel >= 64", "[validation]") {
  FakeView v;
  CHECK(judge(mem(64), v) == Verdict::R1ChannelRange);
  CHECK(judge(mem(127), v) == Verdict::R1ChannelRange);
  // R1 is reported before anything else (size 0 too)
  Descriptor d = mem(100);
  d.size = 0;
  CHECK(judge(d, v) == Verdict::R1ChannelRange);
}

TEST_CASE("R2: channel not IDLE", "[validation]") {
  for (Status s : {Status::Busy, Status::Done, Status::Error}) {
    FakeView v;
    v.st[{2, 4}] = s;
    CHECK(judge(mem(4), v) == Verdict::R2NotIdle);
    CHECK(judge(mem(6), v) == Verdict::Accept);  // other channels unaffected
  }
  FakeView other_page;
  other_page.st[{3, 4}] = Status::Busy;
  CHECK(judge(mem(4), other_page) == Verdict::Accept);
}

TEST_CASE("R3: c odd and c-1 holds a live long descriptor", "[validation]") {
  FakeView v;
  v.st[{2, 4}] = Status::Busy;
  CHECK(judge(mem(5), v) == Verdict::Accept);  // c-1 busy but short
  v.live_longs.insert({2, 4});
  CHECK(judge(mem(5), v) == Verdict::R3PairLongLive);
  CHECK(judge(mem(7), v) == Verdict::Accept);
}

TEST_CASE("R4: size 0", "[validation]") {
  FakeView v;
  Descriptor d = mem(4);
  d.size = 0;
  CHECK(judge(d, v) == Verdict::R4SizeZero);
  Descriptor i = inl(4, 0);
  CHECK(judge(i, v) == Verdict::R4SizeZero);
}

TEST_CASE("R5: inline size > 16 short or > 32 long", "[validation]") {
  FakeView v;
  Descriptor s = inl(4, 17);
  s.long_mode = LongMode::Short;
  CHECK(judge(s, v) == Verdict::R5InlineSize);
  Descriptor l = inl(4, 32);
  l.size = 33;
  REQUIRE(l.is_long());
  CHECK(judge(l, v) == Verdict::R5InlineSize);
  Descriptor memory_big = mem(4);
  memory_big.size = 1000;  // memory transfers are not limited
  CHECK(judge(memory_big, v) == Verdict::Accept);
}

TEST_CASE("R6: memory notify without long", "[validation]") {
  FakeView v;
  Descriptor d = mem(4);
  d.notify = true;
  d.long_mode = LongMode::Short;
  CHECK(judge(d, v) == Verdict::R6NotifyNotLong);
  Descriptor i = inl(4, 8);  // an inline notify may be short
  i.notify = true;
  CHECK(judge(i, v) == Verdict::Accept);
}

TEST_CASE("R7: long on an odd channel", "[validation]") {
  FakeView v;
  Descriptor d = mem(5);
  d.notify = true;
  CHECK(judge(d, v) == Verdict::R7LongOdd);
}

TEST_CASE("R8: last bit", "[validation]") {
  FakeView v;
  Line s = line0(mem(4));
  s[3] &= ~CtrlLast;  // short without last
  CHECK(judge_first_line(2, 4, s, v) == Verdict::R8Last);
  Descriptor l = mem(4);
  l.notify = true;
  Line l0 = line0(l);
  l0[3] |= CtrlLast;  // long line 0 with last
  CHECK(judge_first_line(2, 4, l0, v) == Verdict::R8Last);
  Line l1 = line1(l);
  l1[3] = 0;  // line 1 without last
  CHECK(judge_line1(2, 5, l1, v) == Verdict::R8Last);
}

TEST_CASE("R9: dst[47:0] + size crossing 2^48", "[validation]") {
  FakeView v;
  Descriptor d = mem(4);
  d.dst = 0x0000FFFFFFFFFF9Cull;  // 2^48 - 100
  d.size = 100;                   // ends exactly at 2^48: legal
  CHECK(judge(d, v) == Verdict::Accept);
  d.size = 101;
  CHECK(judge(d, v) == Verdict::R9DstCross);
  d.dst = 0xABCDFFFFFFFFFF9Cull;  // the node bits do not count
  d.size = 100;
  CHECK(judge(d, v) == Verdict::Accept);
  Descriptor i = inl(4, 8);       // inline transfers too
  i.dst = 0x0000FFFFFFFFFFF9ull;  // 2^48 - 7
  CHECK(judge(i, v) == Verdict::R9DstCross);
}

TEST_CASE("R11: read rules (ICD 16)", "[validation]") {
  FakeView v;
  Descriptor d = mem(4);
  d.read = true;
  d.src = (uint64_t{3} << 48) | 0x1000;
  CHECK(judge(d, v) == Verdict::Accept);  // a read of node 3's memory
  Descriptor top = d;                     // the remote source may end exactly at 2^48
  top.src = (uint64_t{3} << 48) | ((uint64_t{1} << 48) - top.size);
  CHECK(judge(top, v) == Verdict::Accept);
  Descriptor over = top;  // ... one byte further crosses it
  over.src += 1;
  CHECK(judge(over, v) == Verdict::R11Read);
  Descriptor i = inl(4, 8);  // no inline reads
  i.read = true;
  CHECK(judge(i, v) == Verdict::R11Read);
  Descriptor w = over;  // the same source range is fine for a write (only dst is checked)
  w.read = false;
  CHECK(judge(w, v) == Verdict::Accept);
}

TEST_CASE("R10: reserved bits", "[validation]") {
  FakeView v;
  Line a = line0(mem(4));
  a[3] |= uint64_t{1} << 41;  // (bit 40 is `read`, ICD 16)
  CHECK(judge_first_line(2, 4, a, v) == Verdict::R10Reserved);
  Line b = line0(mem(4));
  b[3] |= uint64_t{1} << 62;
  CHECK(judge_first_line(2, 4, b, v) == Verdict::R10Reserved);
  Line c = line0(mem(4));
  c[2] = 1;  // w2 of a memory descriptor
  CHECK(judge_first_line(2, 4, c, v) == Verdict::R10Reserved);
  Descriptor l = mem(4);
  l.notify = true;
  Line l1 = line1(l);
  l1[3] |= 1;  // w7[62:0]
  CHECK(judge_line1(2, 5, l1, v) == Verdict::R10Reserved);
  Line l1b = line1(l);
  l1b[2] = 0x10;  // w6
  CHECK(judge_line1(2, 5, l1b, v) == Verdict::R10Reserved);
}

TEST_CASE("line 1: R1 and R2", "[validation]") {
  FakeView v;
  Descriptor l = mem(4);
  l.notify = true;
  CHECK(judge_line1(2, 65, line1(l), v) == Verdict::R1ChannelRange);
  v.st[{2, 5}] = Status::Done;
  CHECK(judge_line1(2, 5, line1(l), v) == Verdict::R2NotIdle);
}
