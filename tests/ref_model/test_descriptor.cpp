// SPDX-License-Identifier: Apache-2.0
// Descriptor encoding (ICD section 4). Expected words are worked out by hand from the table.
#include <catch2/catch.hpp>

#include "ref_model/common/descriptor.hpp"

using namespace ni;

TEST_CASE("control word bit positions", "[descriptor]") {
  ControlWord c;
  c.size = 0x1234;
  c.prio = 0xA;
  c.kind = Kind::FourFid;
  c.notify = true;
  c.is_long = true;
  c.last = false;
  // bits 39..32 = long(1) notify(1) kind(10) prio(1010) = 1110_1010 = 0xEA
  CHECK(c.pack() == 0x000000EA00001234ull);
  CHECK(ControlWord::unpack(0x000000EA00001234ull) == c);

  ControlWord s;
  s.size = 5;
  s.prio = 3;
  s.kind = Kind::Inline;
  s.last = true;
  // bits 39..32 = 0 0 11 0011 = 0x33, last = bit 63
  CHECK(s.pack() == 0x8000003300000005ull);

  ControlWord r = ControlWord::unpack(0x4000030000000000ull);  // bits 62, 41 and 40
  CHECK(r.rsvd == ((1u << 21) | 1u));                          // reserved: bits 62:41
  CHECK(r.read);                                               // bit 40: read (ICD 16)
  CHECK(ControlWord::unpack(uint64_t{1} << 40).pack() == uint64_t{1} << 40);
  CHECK_FALSE(r.last);
  CHECK(ControlWord::unpack(0xFFFFFFFF00000000ull).size == 0);
  CHECK(ControlWord::unpack(0x00000000FFFFFFFFull).size == 0xFFFFFFFFu);
}

TEST_CASE("is_long follows the harness rule and can be forced", "[descriptor]") {
  Descriptor m;
  m.kind = Kind::OneFid;
  m.size = 100;
  CHECK_FALSE(m.is_long());
  m.notify = true;
  CHECK(m.is_long());
  m.long_mode = LongMode::Short;
  CHECK_FALSE(m.is_long());

  Descriptor i;
  i.kind = Kind::Inline;
  i.payload.assign(16, 0xAA);
  i.size = 16;
  CHECK_FALSE(i.is_long());
  i.payload.assign(17, 0xAA);
  i.size = 17;
  CHECK(i.is_long());
  i.payload.assign(8, 0xAA);
  i.size = 8;
  i.notify = true;  // inline notify does not make it long
  CHECK_FALSE(i.is_long());
  i.long_mode = LongMode::Long;
  CHECK(i.is_long());
}

TEST_CASE("encode a long memory descriptor", "[descriptor]") {
  Descriptor d;
  d.page = 2;
  d.channel = 6;
  d.kind = Kind::OneFid;
  d.src = 0x0000123400005000ull;
  d.dst = 0x0007000000010000ull;
  d.size = 0x30000;
  d.prio = 5;
  d.notify = true;
  d.notify_addr = 0x00000000DEAD0000ull;
  d.notify_tag = 0x0123456789ABCDEFull;
  const auto w = d.encode();
  REQUIRE(w.size() == 8);
  CHECK(w[0] == 0x0000123400005000ull);
  CHECK(w[1] == 0x0007000000010000ull);
  CHECK(w[2] == 0);
  // long(1) notify(1) kind 01 prio 0101 -> 1101_0101 = 0xD5; last = 0 on line 0
  CHECK(w[3] == 0x000000D500030000ull);
  CHECK(w[4] == 0x00000000DEAD0000ull);
  CHECK(w[5] == 0x0123456789ABCDEFull);
  CHECK(w[6] == 0);
  CHECK(w[7] == 0x8000000000000000ull);
  const auto lines = d.encode_lines();
  REQUIRE(lines.size() == 2);
  CHECK(lines[1][3] == 0x8000000000000000ull);
  CHECK(Descriptor::decode(2, 6, w) == d);
}

TEST_CASE("encode a short memory descriptor", "[descriptor]") {
  Descriptor d;
  d.kind = Kind::Tid;
  d.src = 0x1000;
  d.dst = 0x2000;
  d.size = 64;
  const auto w = d.encode();
  REQUIRE(w.size() == 4);
  CHECK(w[0] == 0x1000);
  CHECK(w[1] == 0x2000);
  CHECK(w[2] == 0);
  CHECK(w[3] == 0x8000000000000040ull);  // last, kind 0, size 64
  CHECK(Descriptor::decode(0, 0, w) == d);
}

TEST_CASE("encode inline descriptors: payload little-endian in w0, w2, w4, w5", "[descriptor]") {
  Descriptor d;
  d.page = 1;
  d.channel = 3;
  d.kind = Kind::Inline;
  d.dst = 0x0009000000000100ull;
  for (uint8_t b = 1; b <= 12; ++b) d.payload.push_back(b);  // 01 02 .. 0c
  d.size = 12;
  auto w = d.encode();
  REQUIRE(w.size() == 4);
  CHECK(w[0] == 0x0807060504030201ull);
  CHECK(w[1] == 0x0009000000000100ull);
  CHECK(w[2] == 0x000000000C0B0A09ull);
  CHECK(w[3] == 0x800000300000000Cull);  // last, kind 11, size 12
  CHECK(Descriptor::decode(1, 3, w) == d);

  d.payload.clear();
  for (uint8_t b = 1; b <= 20; ++b) d.payload.push_back(b);  // 01 .. 14
  d.size = 20;
  w = d.encode();
  REQUIRE(w.size() == 8);
  CHECK(w[0] == 0x0807060504030201ull);
  CHECK(w[2] == 0x100F0E0D0C0B0A09ull);
  CHECK(w[3] == 0x000000B000000014ull);  // long, kind 11 -> 0xB0; size 20; last 0
  CHECK(w[4] == 0x0000000014131211ull);
  CHECK(w[5] == 0);
  CHECK(w[6] == 0);
  CHECK(w[7] == 0x8000000000000000ull);
  CHECK(Descriptor::decode(1, 3, w) == d);

  // a forced-long inline descriptor of 8 bytes decodes back as forced long
  Descriptor f;
  f.kind = Kind::Inline;
  f.payload = {0xAA, 0xBB};
  f.size = 2;
  f.long_mode = LongMode::Long;
  w = f.encode();
  REQUIRE(w.size() == 8);
  CHECK(w[0] == 0xBBAA);
  const Descriptor back = Descriptor::decode(0, 0, w);
  CHECK(back.long_mode == LongMode::Long);
  CHECK(back == f);
}
