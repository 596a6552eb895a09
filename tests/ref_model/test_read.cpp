// SPDX-License-Identifier: Apache-2.0
// RDMA Read (ICD 16) in the golden models: the read-request packet of each block (ICD 7 and
// 16 field by field) and its READ_REQ head beat on the wire (ICD 11). Expected values are
// worked out by hand from the ICD's bit tables and block rules (ICD 5), never from this code.
#include <catch2/catch.hpp>

#include "ref_model/common/bits.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/common/wire.hpp"

using namespace ni;

namespace {

// A 1xFID read of 70,000 bytes of node 5 at 0x1234 into 0x8000_0000_F000, page 3 channel 4,
// prio 6, notifying: the destination's 64 KiB alignment makes blocks of 4,096, 65,536 and
// 368 bytes (ICD 5: first = 65,536 - 0xF000 = 4,096; then 70,000 - 4,096 - 65,536 = 368).
Descriptor read_desc() {
  Descriptor d;
  d.page = 3;
  d.channel = 4;
  d.kind = Kind::OneFid;
  d.read = true;
  d.src = (uint64_t{5} << 48) | 0x1234;
  d.dst = 0x80000000F000ull;
  d.size = 70000;
  d.prio = 6;
  d.notify = true;
  d.notify_addr = 0x800000100000ull;
  d.notify_tag = 0x1122334455667788ull;
  return d;
}

uint64_t bits(const Bits512& b, unsigned lsb, unsigned w) { return get_field(b, lsb, w); }

}  // namespace

TEST_CASE("read request: header and payload of each block (ICD 7, 16)", "[read]") {
  const Descriptor d = read_desc();
  const Bits512 p0 = make_read_packet(d, 0, 200, 17, 9).pack();
  // header: kind 2, tid, seq, len 32, notify only on the last block, pd 3, xfer 3*128+4
  CHECK(bits(p0, 0, 4) == 2);
  CHECK(bits(p0, 4, 10) == 200);
  CHECK(bits(p0, 14, 14) == 17);
  CHECK(bits(p0, 28, 6) == 32);
  CHECK(bits(p0, 34, 1) == 0);
  CHECK(bits(p0, 35, 4) == 3);
  CHECK(bits(p0, 39, 11) == 388);
  CHECK(bits(p0, 64, 64) == ((uint64_t{5} << 48) | 0x1234));  // the block's remote source
  // payload at bit 128: local destination with the issuer's node id, no notification, bytes
  // 4096, kind 1, prio 6, not last
  CHECK(bits(p0, 128, 64) == ((uint64_t{9} << 48) | 0x80000000F000ull));
  CHECK(bits(p0, 192, 64) == 0);
  CHECK(bits(p0, 256, 64) == 0);
  CHECK(bits(p0, 320, 32) == 4096);
  CHECK(bits(p0, 352, 2) == 1);
  CHECK(bits(p0, 354, 4) == 6);
  CHECK(bits(p0, 358, 1) == 0);
  CHECK(bits(p0, 359, 25) == 0);
  CHECK(check_crc(p0));

  const Bits512 p1 = make_read_packet(d, 1, 201, 18, 9).pack();
  CHECK(bits(p1, 64, 64) == ((uint64_t{5} << 48) | (0x1234 + 4096)));
  CHECK(bits(p1, 128, 64) == ((uint64_t{9} << 48) | 0x800000010000ull));
  CHECK(bits(p1, 320, 32) == 65536);
  CHECK(bits(p1, 358, 1) == 0);

  const Bits512 p2 = make_read_packet(d, 2, 202, 19, 9).pack();
  CHECK(bits(p2, 34, 1) == 1);  // notify: the last block of a notifying read
  CHECK(bits(p2, 64, 64) == ((uint64_t{5} << 48) | (0x1234 + 4096 + 65536)));
  CHECK(bits(p2, 128, 64) == ((uint64_t{9} << 48) | 0x800000020000ull));
  CHECK(bits(p2, 192, 64) == 0x800000100000ull);
  CHECK(bits(p2, 256, 64) == 0x1122334455667788ull);
  CHECK(bits(p2, 320, 32) == 368);
  CHECK(bits(p2, 358, 1) == 1);
}

TEST_CASE("read request: the READ_REQ head beat (ICD 11, 16)", "[read]") {
  const Descriptor d = read_desc();
  const Packet pk = make_read_packet(d, 2, 202, 19, 9);
  const WirePacket w = head_packet(pk, 9);
  REQUIRE(w.beats.size() == 1);
  const Bits512& b = w.beats[0];
  CHECK(bits(b, 0, 4) == 5);     // READ_REQ
  CHECK(bits(b, 4, 10) == 202);  // tid
  CHECK(bits(b, 14, 14) == 19);  // seq
  CHECK(bits(b, 28, 11) == 32);  // len
  CHECK(bits(b, 39, 1) == 1);    // notify
  CHECK(bits(b, 40, 1) == 1);    // last, from the payload
  CHECK(bits(b, 41, 1) == 0);    // retx
  CHECK(bits(b, 42, 4) == 3);    // pd
  CHECK(bits(b, 46, 7) == 0);    // npkts
  CHECK(bits(b, 64, 64) == ((uint64_t{5} << 48) | (0x1234 + 4096 + 65536)));
  CHECK(bits(b, 128, 64) == ((uint64_t{9} << 48) | 0x800000020000ull));  // the payload, as is
  CHECK(bits(b, 320, 32) == 368);
  CHECK(bits(b, 416, 16) == 9);    // src_node
  CHECK(bits(b, 432, 11) == 388);  // xfer_id
  CHECK(head_crc_ok(b));
  // a block that is not the last: `last` 0 on the wire
  const WirePacket w0 = head_packet(make_read_packet(d, 0, 200, 17, 9), 9);
  CHECK(bits(w0.beats[0], 40, 1) == 0);
  CHECK(to_string(WireKind::ReadReq) == std::string("rreq"));
}

TEST_CASE("read request: payload round trip", "[read]") {
  ReadReqPayload r;
  r.local_dst = 0xABCD800000001234ull;
  r.notify_addr = 1;
  r.notify_tag = 2;
  r.bytes = 65536;
  r.kind = Kind::FourFid;
  r.prio = 15;
  r.last = true;
  const ReadReqPayload u = ReadReqPayload::unpack(r.pack());
  CHECK(u.local_dst == r.local_dst);
  CHECK(u.notify_addr == 1);
  CHECK(u.notify_tag == 2);
  CHECK(u.bytes == 65536);
  CHECK(u.kind == Kind::FourFid);
  CHECK(u.prio == 15);
  CHECK(u.last);
}
