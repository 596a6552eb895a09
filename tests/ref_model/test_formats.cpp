// SPDX-License-Identifier: Apache-2.0
// Block descriptor and packet formats (ICD sections 6 and 7), CRC-32, expected values and the
// diff / pretty-print helpers.
#include <catch2/catch.hpp>
#include <cstring>
#include <string>

#include "ref_model/common/block_desc.hpp"
#include "ref_model/common/crc32.hpp"
#include "ref_model/common/packet.hpp"

using namespace ni;

namespace {

// Independent bitwise CRC-32 (reflected 0xEDB88320, init/final XOR 0xFFFFFFFF).
uint32_t ref_crc32(const uint8_t* p, std::size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int b = 0; b < 8; ++b) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : (c >> 1);
  }
  return ~c;
}

void put_le(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

TEST_CASE("CRC-32 check value", "[crc]") {
  const char* s = "123456789";
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  CHECK(ref_crc32(p, 9) == 0xCBF43926u);
  CHECK(crc32(p, 9) == 0xCBF43926u);
  CHECK(crc32(p, 0) == 0);
}

TEST_CASE("block descriptor field positions", "[blkdesc]") {
  auto only = [](auto set) {
    BlockDesc d;
    set(d);
    return d.pack();
  };
  CHECK(only([](BlockDesc& d) { d.src_addr = 0x1122334455667788ull; }) ==
        Bits256{0x1122334455667788ull, 0, 0, 0});
  CHECK(only([](BlockDesc& d) { d.dst_addr = 0x99AABBCCDDEEFF00ull; }) ==
        Bits256{0, 0x99AABBCCDDEEFF00ull, 0, 0});
  CHECK(only([](BlockDesc& d) { d.pd_id = 0xABCD; }) == Bits256{0, 0, 0xABCD, 0});
  // seq bits 157:144 -> word 2 bits 29:16
  CHECK(only([](BlockDesc& d) { d.seq = 0x3FFF; }) == Bits256{0, 0, 0x3FFF0000ull, 0});
  // bytes_sent 173:158 -> word 2 bits 45:30
  CHECK(only([](BlockDesc& d) { d.bytes_sent = 0xFFFF; }) ==
        Bits256{0, 0, 0x00003FFFC0000000ull, 0});
  CHECK(only([](BlockDesc& d) { d.cm = true; }) == Bits256{0, 0, 1ull << 46, 0});
  CHECK(only([](BlockDesc& d) { d.initialized = true; }) == Bits256{0, 0, 1ull << 47, 0});
  CHECK(only([](BlockDesc& d) { d.fid = 0xFF; }) == Bits256{0, 0, 0x00FF000000000000ull, 0});
  CHECK(only([](BlockDesc& d) { d.retx = true; }) == Bits256{0, 0, 1ull << 56, 0});
  CHECK(only([](BlockDesc& d) { d.done = true; }) == Bits256{0, 0, 1ull << 57, 0});
  CHECK(only([](BlockDesc& d) { d.notify = true; }) == Bits256{0, 0, 1ull << 58, 0});
  CHECK(only([](BlockDesc& d) { d.chained = true; }) == Bits256{0, 0, 1ull << 59, 0});
  // len_m1 203:188 straddles: low nibble in word 2 bits 63:60, the rest in word 3 bits 11:0
  CHECK(only([](BlockDesc& d) { d.len_m1 = 0xABCD; }) ==
        Bits256{0, 0, 0xD000000000000000ull, 0xABC});
  // block_idx 215:204 -> word 3 bits 23:12
  CHECK(only([](BlockDesc& d) { d.block_idx = 0xFFF; }) == Bits256{0, 0, 0, 0xFFF000});
  CHECK(only([](BlockDesc& d) { d.has_next = true; }) == Bits256{0, 0, 0, 1ull << 24});
  // xfer_id 227:217 -> word 3 bits 35:25
  CHECK(only([](BlockDesc& d) { d.xfer_id = 0x7FF; }) == Bits256{0, 0, 0, 0xFFE000000ull});
  // reserved 255:228 -> word 3 bits 63:36
  CHECK(only([](BlockDesc& d) { d.rsvd = 0xFFFFFFF; }) == Bits256{0, 0, 0, 0xFFFFFFF000000000ull});
  // widths are enforced
  CHECK(only([](BlockDesc& d) { d.seq = 0x4001; }) == Bits256{0, 0, 0x00010000ull, 0});
  CHECK(only([](BlockDesc& d) { d.block_idx = 0x1001; }) == Bits256{0, 0, 0, 0x1000});

  const Bits256 all = {0x0123456789ABCDEFull, 0xFEDCBA9876543210ull, 0xDEADBEEFCAFEF00Dull,
                       0x0F1E2D3C4B5A6978ull};
  CHECK(BlockDesc::unpack(all).pack() == all);
}

TEST_CASE("expected block descriptors of a notifying 1xFID transfer", "[blkdesc]") {
  // page 3, channel 10 -> xfer 394. dst % 64K = 0x8000 = 32768, size 0x18000 = 98304:
  // first = 32768, total = (32768 + 98304) / 65536 = 2, block 1 = 98304 - 32768 = 65536 at
  // dst 0x2_0000_0001_0000, src 0x5000_0000 + 0x8000.
  Descriptor d;
  d.page = 3;
  d.channel = 10;
  d.kind = Kind::OneFid;
  d.src = 0x50000000;
  d.dst = 0x0002000000008000ull;
  d.size = 0x18000;
  d.notify = true;
  BlockDesc e0;
  e0.src_addr = 0x50000000;
  e0.dst_addr = 0x0002000000008000ull;
  e0.pd_id = 3;
  e0.seq = 100;
  e0.cm = true;
  e0.fid = 130;
  e0.notify = false;
  e0.chained = false;
  e0.len_m1 = 0x7FFF;
  e0.block_idx = 0;
  e0.has_next = true;
  e0.xfer_id = 394;
  const BlockDesc a0 = expected_block_desc(d, 0, 130, 100);
  INFO(to_string(a0));
  CHECK(diff(e0, a0).empty());
  BlockDesc e1 = e0;
  e1.src_addr = 0x50008000;
  e1.dst_addr = 0x0002000000010000ull;
  e1.seq = 101;
  e1.notify = true;
  e1.chained = true;
  e1.len_m1 = 0xFFFF;
  e1.block_idx = 1;
  e1.has_next = false;
  CHECK(diff(e1, expected_block_desc(d, 1, 130, 101)).empty());
}

TEST_CASE("expected block descriptors: 4xFID FIDs, TID-only flags, block_idx wrap", "[blkdesc]") {
  Descriptor d;
  d.page = 0;
  d.channel = 2;
  d.kind = Kind::FourFid;
  d.dst = 0;
  d.size = 6 * 65536;
  CHECK(expected_block_desc(d, 0, 196, 1).fid == 196);
  CHECK(expected_block_desc(d, 3, 196, 1).fid == 199);
  CHECK(expected_block_desc(d, 5, 196, 1).fid == 197);
  CHECK_FALSE(expected_block_desc(d, 5, 196, 1).has_next);
  CHECK(expected_block_desc(d, 5, 196, 1).chained);
  CHECK_FALSE(expected_block_desc(d, 5, 196, 1).notify);  // no notify requested

  d.kind = Kind::Tid;
  const BlockDesc t = expected_block_desc(d, 2, 999, 7);
  CHECK_FALSE(t.cm);
  CHECK(t.fid == 0);
  CHECK_FALSE(t.chained);
  CHECK_FALSE(t.has_next);
  CHECK(t.dst_addr == 0x20000);

  // 4098 blocks: 0x1001_0001 bytes = 4097 full blocks + 1 byte; block 4097 has index 1
  d.size = 0x10010001;
  const BlockDesc w = expected_block_desc(d, 4097, 0, 0);
  CHECK(w.block_idx == 1);
  CHECK(w.len_m1 == 0);
  CHECK(expected_block_desc(d, 4096, 0, 0).block_idx == 0);
  CHECK(expected_block_desc(d, 1, 0, 0x7FFF).seq == 0x3FFF);  // seq is 14 bit
}

TEST_CASE("block descriptor diff and printing", "[blkdesc]") {
  BlockDesc e;
  e.seq = 5;
  e.fid = 130;
  e.dst_addr = 0x10000;
  BlockDesc a = e;
  CHECK(diff(e, a).empty());
  a.seq = 6;
  a.fid = 131;
  const auto d = diff(e, a);
  REQUIRE(d.size() == 2);
  CHECK(d[0] == "seq: expected 5, actual 6");
  CHECK(d[1] == "fid: expected 130, actual 131");
  a = e;
  a.dst_addr = 0x20000;
  CHECK(diff(e, a) == std::vector<std::string>{"dst_addr: expected 0x10000, actual 0x20000"});
  const std::string s = to_string(e);
  CHECK(s.find("seq=5") != std::string::npos);
  CHECK(s.find("dst_addr=0x10000") != std::string::npos);
  CHECK(s.find("xfer_id=0") != std::string::npos);
}

TEST_CASE("packet header field positions", "[packet]") {
  PacketHeader h;
  h.kind = 0xF;
  CHECK(h.pack() == Bits128{0xF, 0});
  h = PacketHeader{};
  h.tid = 0x3FF;  // 13:4
  CHECK(h.pack() == Bits128{0x3FF0, 0});
  h = PacketHeader{};
  h.seq = 0x3FFF;  // 27:14
  CHECK(h.pack() == Bits128{0xFFFC000, 0});
  h = PacketHeader{};
  h.len = 0x3F;  // 33:28
  CHECK(h.pack() == Bits128{0x3F0000000ull, 0});
  h = PacketHeader{};
  h.notify = true;  // 34
  CHECK(h.pack() == Bits128{1ull << 34, 0});
  h = PacketHeader{};
  h.pd = 0xF;  // 38:35
  CHECK(h.pack() == Bits128{0xFull << 35, 0});
  h = PacketHeader{};
  h.xfer_id = 0x7FF;  // 49:39
  CHECK(h.pack() == Bits128{0x7FFull << 39, 0});
  h = PacketHeader{};
  h.rsvd = 0x3FFF;  // 63:50
  CHECK(h.pack() == Bits128{0xFFFC000000000000ull, 0});
  h = PacketHeader{};
  h.dst_addr = 0x1234;
  CHECK(h.pack() == Bits128{0, 0x1234});
}

TEST_CASE("inline packet with an independently computed CRC", "[packet]") {
  Descriptor d;
  d.page = 2;
  d.channel = 3;  // xfer 259
  d.kind = Kind::Inline;
  d.dst = 0x0004000012345678ull;
  d.payload = {'h', 'e', 'l', 'l', 'o'};
  d.size = 5;
  const Packet p = make_inline_packet(d, 7, 0x123);
  const Bits512 b = p.pack();
  // header word 0 = kind 0 | tid 7 << 4 | seq 0x123 << 14 | len 5 << 28 | pd 2 << 35 |
  //                 xfer 259 << 39 = 0x70 + 0x48C000 + 0x5000_0000 + 0x10_0000_0000 +
  //                 0x8180_0000_0000 = 0x8190_5048_C070
  CHECK(b[0] == 0x000081905048C070ull);
  CHECK(b[1] == 0x0004000012345678ull);
  CHECK(b[2] == 0x0000006F6C6C6568ull);  // "hello", byte 0 at bit 128
  CHECK(b[3] == 0);
  CHECK(b[4] == 0);
  CHECK(b[5] == 0);
  uint8_t bytes[21];
  put_le(bytes, 0x000081905048C070ull);
  put_le(bytes + 8, 0x0004000012345678ull);
  std::memcpy(bytes + 16, "hello", 5);
  const uint32_t crc = ref_crc32(bytes, 21);
  CHECK(crc == 0x342BE097u);  // also python: zlib.crc32(header + b"hello")
  CHECK(b[6] == crc);         // crc32 at 415:384, zeros above
  CHECK(b[7] == 0);
  CHECK(check_crc(b));
  CHECK(check_crc(p));

  Bits512 bad = b;
  bad[2] ^= 0x100;  // a payload bit inside len
  CHECK_FALSE(check_crc(bad));
  Bits512 beyond = b;
  beyond[3] = 0xFF;  // payload byte 8, beyond len: not covered by the CRC
  CHECK(check_crc(beyond));
  Bits512 hdr = b;
  hdr[1] ^= 1ull << 63;
  CHECK_FALSE(check_crc(hdr));
  CHECK(Packet::unpack(b) == p);
}

TEST_CASE("inline packet masks the payload to len", "[packet]") {
  Descriptor d;
  d.kind = Kind::Inline;
  d.payload = {1, 2, 3, 4, 5, 6, 7, 8};
  d.size = 3;  // only 3 bytes go out
  const Bits512 b = make_inline_packet(d, 0, 0).pack();
  CHECK(b[2] == 0x030201);
  // a 32-byte long inline transfer fills the payload
  Descriptor l;
  l.kind = Kind::Inline;
  for (int i = 0; i < 32; ++i) l.payload.push_back(static_cast<uint8_t>(0xA0 + i));
  l.size = 32;
  const Bits512 lb = make_inline_packet(l, 0, 0).pack();
  CHECK(lb[5] == 0xBFBEBDBCBBBAB9B8ull);  // bytes 24..31
  CHECK(((lb[0] >> 28) & 0x3F) == 32);
}

TEST_CASE("control packet", "[packet]") {
  Descriptor d;
  d.page = 3;
  d.channel = 10;  // xfer 394
  d.kind = Kind::OneFid;
  d.dst = 0x0002000000008000ull;
  d.size = 0x18000;  // 2 blocks (see the block descriptor test)
  d.notify = true;
  d.notify_addr = 0x1111222233334444ull;
  d.notify_tag = 0xCAFEF00D00000042ull;
  const Packet p = make_control_packet(d, 521, 0x3FFF);
  const Bits512 b = p.pack();
  // kind 1 | tid 521 << 4 (0x2090) | seq 0x3FFF << 14 (0xFFFC000) | len 32 << 28
  // (0x2_0000_0000) | notify << 34 (0x4_0000_0000) | pd 3 << 35 (0x18_0000_0000) |
  // xfer 394 << 39 (0xC500_0000_0000) = 0xC51E_0FFF_E091
  CHECK(b[0] == 0x0000C51E0FFFE091ull);
  CHECK(b[1] == 0x0002000000008000ull);
  CHECK(b[2] == 0x1111222233334444ull);
  CHECK(b[3] == 0xCAFEF00D00000042ull);
  CHECK(b[4] == 0x0000000200018000ull);  // size 0x18000 | total 2 << 32
  CHECK(b[5] == 0);
  CHECK(b[6] == 0x3AD2C233u);  // python: zlib.crc32 of the 48 bytes
  CHECK(b[7] == 0);
  uint8_t bytes[48];
  for (int i = 0; i < 6; ++i) put_le(bytes + 8 * i, b[i]);
  CHECK(ref_crc32(bytes, 48) == 0x3AD2C233u);
  const CtrlPayload c = CtrlPayload::unpack(p.payload);
  CHECK(c.total_blocks == 2);
  CHECK(c.size == 0x18000);
}

TEST_CASE("packet diff and printing", "[packet]") {
  Descriptor d;
  d.kind = Kind::Inline;
  d.payload = {1, 2, 3};
  d.size = 3;
  const Packet e = make_inline_packet(d, 7, 9);
  Packet a = e;
  CHECK(diff(e, a).empty());
  a.hdr.tid = 8;
  a.payload[1] = 0xFF;
  auto lines = diff(e, a);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "tid: expected 7, actual 8");
  CHECK(lines[1] == "payload.w0: expected 0x30201, actual 0x3ff01");
  a = e;
  a.crc ^= 1;
  lines = diff(e, a);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind("crc32: expected 0x", 0) == 0);

  Descriptor m;
  m.kind = Kind::Tid;
  m.size = 100;
  m.notify = true;
  m.notify_tag = 5;
  const Packet ce = make_control_packet(m, 1, 2);
  Packet ca = ce;
  CtrlPayload cp = CtrlPayload::unpack(ca.payload);
  cp.notify_tag = 6;
  ca.payload = cp.pack();
  CHECK(diff(ce, ca) == std::vector<std::string>{"payload.notify_tag: expected 0x5, actual 0x6"});
  const std::string s = to_string(ce);
  CHECK(s.find("kind=1") != std::string::npos);
  CHECK(s.find("total_blocks=1") != std::string::npos);
}

TEST_CASE("block descriptor field table is contiguous and 256 bits", "[blkdesc]") {
  unsigned next = 0;
  for (const FieldSpec& f : block_desc_fields()) {
    INFO(f.name);
    CHECK(f.lsb == next);
    next = f.lsb + f.width;
  }
  CHECK(next == 256);
}
