// SPDX-License-Identifier: Apache-2.0
// The wire format (ICD 11), the memory pattern (ICD 15) and the send unit's packetization
// (ICD 12). Expected values are worked out from the ICD's definitions by hand or with an
// independent few-line script (Python's zlib.crc32 and integer shifts over the ICD's bit
// table), never from this code.
#include <catch2/catch.hpp>

#include "ref_model/common/crc32.hpp"
#include "ref_model/common/mem_image.hpp"
#include "ref_model/common/wire.hpp"
#include "ref_model/send/send_model.hpp"

using namespace ni;

TEST_CASE("memory pattern: SplitMix64 of (node << 48) ^ (a >> 3), little-endian", "[mem]") {
  // ICD 15: node 0's bytes 0..7 are SplitMix64's first output from state 0.
  const uint8_t first[] = {0xaf, 0xcd, 0x1d, 0x7b, 0x39, 0xa8, 0x20, 0xe2};
  for (unsigned a = 0; a < 8; ++a) CHECK(pattern_byte(0, a) == first[a]);
  CHECK(splitmix64(0) == 0xe220a8397b1dcdafull);
  // bytes 8..11 of node 0: splitmix64(1); bytes 0..3 of node 1: splitmix64(1 << 48)
  CHECK(pattern_byte(0, 8) == 0xc1);
  CHECK(pattern_byte(0, 9) == 0x5c);
  CHECK(pattern_byte(0, 10) == 0x02);
  CHECK(pattern_byte(0, 11) == 0x89);
  CHECK(pattern_byte(1, 0) == 0x50);
  CHECK(pattern_byte(1, 3) == 0xde);
  CHECK(pattern_byte(3, 0x800000000005ull) == 0x98);
}

TEST_CASE("memory image: pattern, sparse overlay, 48-bit addresses", "[mem]") {
  MemImage m(0);
  CHECK(m.byte(0) == 0xaf);
  CHECK(m.read(6, 4) == std::vector<uint8_t>{0x20, 0xe2, 0xc1, 0x5c});
  CHECK(m.untouched(0, 1 << 20));
  const uint8_t d[3] = {1, 2, 3};
  m.write(63, d, 3);  // crosses a line
  CHECK(m.lines_written() == 2);
  CHECK(m.read(62, 5) == std::vector<uint8_t>{pattern_byte(0, 62), 1, 2, 3, pattern_byte(0, 66)});
  CHECK_FALSE(m.untouched(60, 4));
  CHECK(m.untouched(128, 64));
  // bits 63:48 are ignored
  CHECK(m.byte((uint64_t{7} << 48) | 64) == 2);
  uint8_t line[64] = {};
  line[5] = 0x55;
  m.write_line(0x1000, line, uint64_t{1} << 5);
  CHECK(m.byte(0x1005) == 0x55);
  CHECK(m.byte(0x1004) == pattern_byte(0, 0x1004));
}

TEST_CASE("crc32 is IEEE 802.3", "[wire]") {
  const char* s = "123456789";
  CHECK(crc32(reinterpret_cast<const uint8_t*>(s), 9) == 0xcbf43926u);
}

TEST_CASE("head beat: fields at the ICD 11 positions, hcrc over bytes 0-47 and 52-63", "[wire]") {
  WireHead h;
  h.kind = 2;
  h.tid = 5;
  h.seq = 7;
  h.len = 1024;
  h.notify = true;
  h.retx = true;
  h.pd = 3;
  h.npkts = 4;
  h.dst_addr = (uint64_t{1} << 48) | 0x800000000400ull;
  h.src_node = 2;
  h.xfer_id = 9;
  const Bits512 b = h.pack();
  // header word 0: kind | tid<<4 | seq<<14 | len<<28 | notify<<39 | retx<<41 | pd<<42 | npkts<<46
  CHECK(b[0] == (2ull | 5ull << 4 | 7ull << 14 | 1024ull << 28 | 1ull << 39 | 1ull << 41 |
                 3ull << 42 | 4ull << 46));
  CHECK(b[1] == h.dst_addr);
  CHECK(b[6] == (uint64_t{2} << 32 | uint64_t{9} << 48));  // src_node 431:416, xfer 442:432
  CHECK(h.compute_hcrc() == 0x0a420214u);
  h.seal();
  CHECK(head_crc_ok(h.pack()));
  CHECK(WireHead::unpack(h.pack()) == h);
  Bits512 bad = h.pack();
  bad[7] ^= uint64_t{1} << 63;  // a reserved bit is covered by hcrc
  CHECK_FALSE(head_crc_ok(bad));
  Bits512 hc = h.pack();
  hc[6] ^= 1;  // bits of hcrc itself
  CHECK_FALSE(head_crc_ok(hc));
}

TEST_CASE("ACK and NACK: one head beat, len 0, dst = node << 48", "[wire]") {
  const WirePacket a = make_response(WireKind::Ack, 17, 100, 5, 7);
  REQUIRE(a.beats.size() == 1);
  const WireHead h = a.head();
  CHECK(h.kind == 3);
  CHECK(h.tid == 17);
  CHECK(h.seq == 100);
  CHECK(h.len == 0);
  CHECK(h.dst_addr == uint64_t{5} << 48);
  CHECK(h.src_node == 7);
  CHECK(h.hcrc == 0xdb44467du);
  CHECK(make_response(WireKind::Nack, 17, 100, 5, 7).head().kind == 4);
}

TEST_CASE("data packet: destination-aligned payload beats, zero lanes, pcrc tail", "[wire]") {
  CHECK(payload_beats(0x3c, 8) == 2);
  CHECK(payload_beats(0x40, 64) == 1);
  CHECK(payload_beats(0x41, 64) == 2);
  CHECK(payload_beats(0x400, 1024) == 16);
  CHECK(payload_beats(0x401, 1023) == 16);
  CHECK(payload_beats(0x7ff, 1) == 1);
  CHECK(beat_strobe(0x3c, 8, 0) == 0xF000000000000000ull);
  CHECK(beat_strobe(0x3c, 8, 1) == 0xFull);
  CHECK(beat_strobe(0x40, 64, 0) == ~uint64_t{0});

  WireHead h;
  h.len = 8;
  h.dst_addr = 0x800000000000ull | 0x3c;
  const uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const WirePacket p = make_data_packet(h, bytes);
  REQUIRE(p.beats.size() == 4);  // head, 2 payload beats, tail
  CHECK(p.head().kind == 2);
  CHECK(p.beats[1][7] == 0x0403020100000000ull);  // lanes 60-63
  CHECK(p.beats[2][0] == 0x0000000008070605ull);  // lanes 0-3
  CHECK(p.pcrc() == 0xd8e63b17u);
  CHECK(p.pcrc_ok());
  CHECK(p.bytes() == std::vector<uint8_t>(bytes, bytes + 8));
  WirePacket c = p;
  c.beats[1][0] ^= 1;  // a zero lane is covered by pcrc
  CHECK_FALSE(c.pcrc_ok());
  CHECK(c.hcrc_ok());
  WirePacket t = p;
  t.beats.pop_back();
  CHECK_FALSE(t.pcrc_ok());
}

TEST_CASE("notification record: tag, size, src_node, 0x0001", "[wire]") {
  const auto r = notification_record(0x1122334455667788ull, 0x1000, 3);
  const std::array<uint8_t, 16> want = {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
                                        0x00, 0x10, 0x00, 0x00, 0x03, 0x00, 0x01, 0x00};
  CHECK(r == want);
}

TEST_CASE("packetization: cut at 1 KiB destination boundaries (ICD 12)", "[send]") {
  CHECK(block_npkts(0x300, 2048) == 3);
  CHECK(block_npkts(0x400, 1024) == 1);
  CHECK(block_npkts(0x3ff, 2) == 2);
  CHECK(block_npkts(0x10000, 65536) == 64);
  CHECK(block_npkts(0x7, 1) == 1);

  BlockDesc b;
  b.src_addr = 0x1005;
  b.dst_addr = (uint64_t{1} << 48) | 0x800000000300ull;
  b.len_m1 = 2047;
  b.seq = 9;
  b.pd_id = 2;
  b.notify = true;
  b.xfer_id = 33;
  const auto s = block_spans(b);
  REQUIRE(s.size() == 3);
  CHECK(s[0].dst == 0x800000000300ull);
  CHECK(s[0].len == 256);
  CHECK(s[0].src == 0x1005);
  CHECK(s[1].dst == 0x800000000400ull);
  CHECK(s[1].len == 1024);
  CHECK(s[1].src == 0x1105);
  CHECK(s[2].dst == 0x800000000800ull);
  CHECK(s[2].len == 768);
  CHECK(s[2].src == 0x1505);

  MemImage mem(4);
  const auto pk = block_packets(b, 12, 4, mem);
  REQUIRE(pk.size() == 3);
  for (unsigned p = 0; p < 3; ++p) {
    const WireHead h = pk[p].head();
    CHECK(h.kind == 2);
    CHECK(h.tid == 12);
    CHECK(h.seq == 9);
    CHECK(h.npkts == 3);
    CHECK(h.last == (p == 2));
    CHECK(h.notify);
    CHECK(h.pd == 2);
    CHECK(h.src_node == 4);
    CHECK(h.dst_node() == 1);
    CHECK(h.xfer_id == 33);
    CHECK(pk[p].hcrc_ok());
    CHECK(pk[p].pcrc_ok());
    CHECK(pk[p].bytes() == mem.read(s[p].src, s[p].len));
  }
  CHECK(pk[0].beats.size() == 2 + 4);
  CHECK(pk[1].beats.size() == 2 + 16);
  CHECK(pk[2].beats.size() == 2 + 12);
  // first payload byte of packet 0: source 0x1005 of node 4, in lane 0x300 % 64 = 0
  CHECK((pk[0].beats[1][0] & 0xFF) == pattern_byte(4, 0x1005));
}

TEST_CASE("engine packets become head beats with src_node and hcrc (ICD 12)", "[send]") {
  Packet p;
  p.hdr.kind = 0;
  p.hdr.tid = 3;
  p.hdr.seq = 44;
  p.hdr.len = 5;
  p.hdr.notify = true;
  p.hdr.pd = 1;
  p.hdr.xfer_id = 7;
  p.hdr.dst_addr = (uint64_t{2} << 48) | 0x800000000010ull;
  for (unsigned i = 0; i < 5; ++i) p.payload[i] = static_cast<uint8_t>(0xA0 + i);
  p.seal();
  const WirePacket w = head_packet(p, 6);
  REQUIRE(w.beats.size() == 1);
  const WireHead h = w.head();
  CHECK(h.kind == 0);
  CHECK(h.tid == 3);
  CHECK(h.seq == 44);
  CHECK(h.len == 5);
  CHECK(h.notify);
  CHECK_FALSE(h.last);
  CHECK(h.npkts == 0);
  CHECK(h.pd == 1);
  CHECK(h.xfer_id == 7);
  CHECK(h.src_node == 6);
  CHECK(h.dst_addr == p.hdr.dst_addr);
  CHECK(w.bytes() == std::vector<uint8_t>{0xA0, 0xA1, 0xA2, 0xA3, 0xA4});
  CHECK(w.hcrc_ok());
}

TEST_CASE("send checker: per-class order, mismatches reported", "[send]") {
  MemImage mem(0);
  SendChecker chk(0, mem);
  BlockDesc b;
  b.dst_addr = 0x800000000000ull;
  b.src_addr = 0x40;
  b.len_m1 = 1500;
  chk.on_block(b, 1);
  Packet p;
  p.hdr.kind = 1;
  p.hdr.len = 32;
  chk.on_engine_packet(p);
  const auto want = block_packets(b, 1, 0, mem);
  REQUIRE(want.size() == 2);
  CHECK(chk.on_tx(want[0]).empty());
  CHECK(chk.on_tx(head_packet(p, 0)).empty());
  WirePacket bad = want[1];
  bad.beats[2][3] ^= 0x100;
  const auto d = chk.on_tx(bad);
  CHECK_FALSE(d.empty());
  CHECK(chk.idle());
  CHECK_FALSE(chk.on_tx(want[1]).empty());  // nothing more was expected
}
