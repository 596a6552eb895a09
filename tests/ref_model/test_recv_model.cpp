// SPDX-License-Identifier: Apache-2.0
// The receive-unit golden model (ref_model/recv): what a packet on req_rx becomes (writes,
// ACK, NACK, notification record, drops and counters 17-26, ICD 8, 11, 13). The expected
// writes and responses are built here by hand from the ICD (line = address & ~63, lane =
// address % 64, strobes as hex masks worked out on paper), never from the model's output;
// every case also feeds a wrong observation and requires the checker to report it.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "ref_model/common/bits.hpp"
#include "ref_model/common/wire.hpp"
#include "ref_model/recv/recv_model.hpp"

using namespace ni;

namespace {

constexpr uint16_t kMe = 2;    // the receiving node
constexpr uint16_t kPeer = 7;  // the sender
constexpr uint64_t kBase = 0x800000000000ull;

uint8_t pay(unsigned i) { return uint8_t(i * 7 + 3); }

// A data packet of `len` bytes pay(0..len-1) at `addr` (48-bit) of node kMe.
WirePacket data_pkt(uint16_t tid, uint16_t seq, uint64_t addr, unsigned len, unsigned npkts,
                    bool notify = false, uint16_t to = kMe) {
  WireHead h;
  h.tid = tid;
  h.seq = seq;
  h.len = uint16_t(len);
  h.npkts = uint8_t(npkts);
  h.notify = notify;
  h.dst_addr = (uint64_t{to} << 48) | addr;
  h.src_node = kPeer;
  std::vector<uint8_t> b(len);
  for (unsigned i = 0; i < len; ++i) b[i] = pay(i);
  return make_data_packet(h, b.data());
}

WirePacket short_pkt(WireKind k, uint16_t tid, uint16_t seq, uint64_t addr,
                     const std::vector<uint8_t>& bytes) {
  WireHead h;
  h.kind = uint8_t(k);
  h.tid = tid;
  h.seq = seq;
  h.len = uint16_t(bytes.size());
  h.dst_addr = (uint64_t{kMe} << 48) | addr;
  h.src_node = kPeer;
  for (std::size_t i = 0; i < bytes.size(); ++i) h.payload[i] = bytes[i];
  h.seal();
  return WirePacket{{h.pack()}};
}

// Control packet: notify_addr, tag, size, total_blocks 1 as 8+8+4+3 little-endian bytes.
WirePacket ctrl_pkt(uint16_t tid, uint16_t seq, uint64_t naddr, uint64_t tag, uint32_t size) {
  std::vector<uint8_t> b(32, 0);
  for (unsigned i = 0; i < 8; ++i) b[i] = uint8_t(naddr >> (8 * i));
  for (unsigned i = 0; i < 8; ++i) b[8 + i] = uint8_t(tag >> (8 * i));
  for (unsigned i = 0; i < 4; ++i) b[16 + i] = uint8_t(size >> (8 * i));
  b[20] = 1;
  auto p = short_pkt(WireKind::Ctrl, tid, seq, kBase, b);
  return p;
}

// A response beat built field by field from the ICD 11 table: kind [3:0], tid [13:4],
// seq [27:14], dst_addr [127:64] = to << 48, src_node [431:416], hcrc over the rest.
WirePacket resp(unsigned kind, uint16_t tid, uint16_t seq, uint16_t to = kPeer) {
  Bits512 b{};
  b[0] = uint64_t(kind) | uint64_t(tid) << 4 | uint64_t(seq) << 14;
  b[1] = uint64_t(to) << 48;
  b[6] = uint64_t(kMe) << 32;  // bit 416 = word 6 bit 32
  b[6] |= head_crc(b);         // hcrc at bit 384 = word 6 bits 31:0
  return WirePacket{{b}};
}

// One observed line: bytes pay(first + k) at lanes lo.. of the burst's beat.
struct Line {
  unsigned lo, n, first;
  uint64_t strb;
};
RxBurst burst(uint64_t addr, const std::vector<Line>& lines, uint64_t cycle) {
  RxBurst b;
  b.aw_cycle = cycle;
  b.done_cycle = cycle + lines.size();
  b.addr = addr;
  b.len = unsigned(lines.size() - 1);
  for (const auto& l : lines) {
    Bits512 d{};
    for (unsigned k = 0; k < l.n; ++k) set_byte(d, l.lo + k, pay(l.first + k));
    b.data.push_back(d);
    b.strb.push_back(l.strb);
  }
  return b;
}
RxBurst raw_burst(uint64_t addr, const std::vector<uint8_t>& bytes, unsigned lo, uint64_t strb,
                  uint64_t cycle) {
  RxBurst b;
  b.aw_cycle = cycle;
  b.done_cycle = cycle + 1;
  b.addr = addr;
  Bits512 d{};
  for (std::size_t k = 0; k < bytes.size(); ++k) set_byte(d, lo + k, bytes[k]);
  b.data = {d};
  b.strb = {strb};
  return b;
}

// A checker and a clock; every observation advances time so that decisions can follow.
struct Bench {
  explicit Bench(unsigned contexts = 64, uint64_t idle = 65536) : chk(kMe, contexts, idle) {}
  RecvChecker chk;
  uint64_t t = 100;
  std::vector<std::string> pkt(const WirePacket& p) { return chk.on_req_rx(p, t += 2); }
  std::vector<std::string> wr(RxBurst b) {
    t += 3;
    b.aw_cycle = t;
    b.done_cycle = t + b.data.size();
    t = b.done_cycle;
    return chk.on_burst(b);
  }
  std::vector<std::string> b() { return chk.on_b(t += 4); }
  std::vector<std::string> rsp(const WirePacket& p) { return chk.on_rsp_tx(p, t += 3); }
  // counters 17..26 as given
  std::vector<std::string> counters(std::array<uint64_t, 11> v) {
    return chk.compare_counters(t += 5, v);
  }
  std::vector<std::string> fin() { return chk.finish(t += 10); }
};

#define NO_ERR(x)                    \
  do {                               \
    const auto e_ = (x);             \
    INFO((e_.empty() ? "" : e_[0])); \
    CHECK(e_.empty());               \
  } while (0)

// A single-packet block: 100 bytes at kBase + 0x1010 -> line 0x1000 lanes 16..63 (48 bytes)
// and line 0x1040 lanes 0..51 (52 bytes).
const uint64_t kA = kBase + 0x1010;
const std::vector<Line> kALines = {{16, 48, 0, 0xFFFFFFFFFFFF0000ull},
                                   {0, 52, 48, 0x000FFFFFFFFFFFFFull}};

}  // namespace

TEST_CASE("recv model: a one-packet block is one write, then its ACK after the B", "[recv]") {
  Bench n;
  NO_ERR(n.pkt(data_pkt(5, 40, kA, 100, 1)));
  CHECK_FALSE(n.chk.idle());
  NO_ERR(n.wr(burst(kBase + 0x1000, kALines, 0)));
  SECTION("ACK before the B is a mismatch") { CHECK_FALSE(n.rsp(resp(3, 5, 40)).empty()); }
  SECTION("ACK after the B") {
    NO_ERR(n.b());
    CHECK_FALSE(n.rsp(resp(3, 5, 41)).empty());     // wrong seq
    CHECK_FALSE(n.rsp(resp(3, 5, 40, 3)).empty());  // wrong node
    NO_ERR(n.rsp(resp(3, 5, 40)));
    CHECK(n.chk.idle());
    NO_ERR(n.fin());
    NO_ERR(n.counters({0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0}));
    CHECK_FALSE(n.counters({0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}).empty());
  }
}

TEST_CASE("recv model: wrong data, strobe or address is a mismatch", "[recv]") {
  Bench n;
  NO_ERR(n.pkt(data_pkt(5, 40, kA, 100, 1)));
  auto b = burst(kBase + 0x1000, kALines, 0);
  SECTION("data") {
    set_byte(b.data[1], 51, 0);  // the last byte, pay(99) = 0xb8
    CHECK_FALSE(n.wr(b).empty());
  }
  SECTION("strobe") {
    b.strb[0] = ~uint64_t{0};
    CHECK_FALSE(n.wr(b).empty());
  }
  SECTION("address") {
    b.addr += 64;
    CHECK_FALSE(n.wr(b).empty());
  }
  SECTION("a lane outside the packet may hold anything") {
    set_byte(b.data[1], 60, 0x55);
    NO_ERR(n.wr(b));
  }
  SECTION("never finished") { CHECK_FALSE(n.fin().empty()); }
}

TEST_CASE("recv model: packets of a block out of order, one ACK after both B", "[recv]") {
  // block of 32 bytes at 0x13F0: packet 0 = 0x13F0..0x13FF (line 0x13C0 lanes 48..63),
  // packet 1 = 0x1400..0x140F (line 0x1400 lanes 0..15), npkts 2
  Bench n;
  const auto p0 = data_pkt(9, 3, kBase + 0x13F0, 16, 2);
  const auto p1 = data_pkt(9, 3, kBase + 0x1400, 16, 2);
  NO_ERR(n.pkt(p1));
  NO_ERR(n.pkt(p0));
  CHECK_FALSE(n.chk.on_burst(burst(kBase + 0x13C0, {{48, 16, 0, 0xFFFF000000000000ull}}, n.t + 1))
                  .empty());  // packet 0's write first: wrong order
  NO_ERR(n.wr(burst(kBase + 0x1400, {{0, 16, 0, 0xFFFFull}}, 0)));
  NO_ERR(n.wr(burst(kBase + 0x13C0, {{48, 16, 0, 0xFFFF000000000000ull}}, 0)));
  NO_ERR(n.b());
  CHECK_FALSE(n.rsp(resp(3, 9, 3)).empty());  // one B still out
  NO_ERR(n.b());
  NO_ERR(n.rsp(resp(3, 9, 3)));
  NO_ERR(n.fin());
  NO_ERR(n.counters({0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0}));
}

TEST_CASE("recv model: a duplicate packet is dropped and counted", "[recv]") {
  Bench n;
  const auto p0 = data_pkt(9, 3, kBase + 0x13F0, 16, 2);
  NO_ERR(n.pkt(p0));
  NO_ERR(n.pkt(p0));
  NO_ERR(n.wr(burst(kBase + 0x13C0, {{48, 16, 0, 0xFFFF000000000000ull}}, 0)));
  CHECK_FALSE(n.wr(burst(kBase + 0x13C0, {{48, 16, 0, 0xFFFF000000000000ull}}, 0)).empty());
  NO_ERR(n.b());
  CHECK_FALSE(n.rsp(resp(3, 9, 3)).empty());  // block not complete
  NO_ERR(n.counters({0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0}));
  CHECK_FALSE(n.counters({0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0}).empty());
}

TEST_CASE("recv model: a stale seq is dropped, a newer one restarts the context", "[recv]") {
  Bench n;
  NO_ERR(n.pkt(data_pkt(9, 100, kBase + 0x13F0, 16, 2)));
  NO_ERR(n.wr(burst(kBase + 0x13C0, {{48, 16, 0, 0xFFFF000000000000ull}}, 0)));
  NO_ERR(n.b());
  NO_ERR(n.pkt(data_pkt(9, 99, kBase + 0x1400, 16, 2)));   // older: stale, no write
  NO_ERR(n.pkt(data_pkt(9, 101, kBase + 0x1400, 16, 2)));  // newer: restart, slot 1
  NO_ERR(n.wr(burst(kBase + 0x1400, {{0, 16, 0, 0xFFFFull}}, 0)));
  NO_ERR(n.b());
  // seq 101 has only slot 1: neither ACK is due
  CHECK_FALSE(n.rsp(resp(3, 9, 100)).empty());
  CHECK_FALSE(n.rsp(resp(3, 9, 101)).empty());
  NO_ERR(n.pkt(data_pkt(9, 101, kBase + 0x13F0, 16, 2)));  // slot 0 again, now for 101
  NO_ERR(n.wr(burst(kBase + 0x13C0, {{48, 16, 0, 0xFFFF000000000000ull}}, 0)));
  NO_ERR(n.b());
  CHECK_FALSE(n.rsp(resp(3, 9, 100)).empty());
  NO_ERR(n.rsp(resp(3, 9, 101)));
  NO_ERR(n.fin());
  NO_ERR(n.counters({0, 4, 0, 0, 0, 1, 0, 1, 0, 0, 0}));
  // serial-number arithmetic wraps at 2^14
  CHECK(RecvModel::seq_newer(0, 16383));
  CHECK(RecvModel::seq_newer(8191, 0));
  CHECK_FALSE(RecvModel::seq_newer(8192, 0));
  CHECK_FALSE(RecvModel::seq_newer(5, 5));
}

TEST_CASE("recv model: a bad pcrc is NACKed, never written", "[recv]") {
  Bench n;
  auto p = data_pkt(12, 77, kA, 100, 1);
  p.beats[2][0] ^= 1;  // one payload bit
  NO_ERR(n.pkt(p));
  SECTION("a write of it is a mismatch") {
    CHECK_FALSE(n.wr(burst(kBase + 0x1000, kALines, 0)).empty());
  }
  SECTION("an ACK is a mismatch") { CHECK_FALSE(n.rsp(resp(3, 12, 77)).empty()); }
  SECTION("NACK to the sender") {
    NO_ERR(n.rsp(resp(4, 12, 77)));
    NO_ERR(n.fin());
    NO_ERR(n.counters({0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0}));
  }
  SECTION("a missing tail beat is NACKed too") {
    Bench m;
    auto q = data_pkt(12, 78, kA, 100, 1);
    q.beats.pop_back();
    NO_ERR(m.pkt(q));
    NO_ERR(m.rsp(resp(4, 12, 78)));
  }
}

TEST_CASE("recv model: a bad hcrc or another node's packet is dropped silently", "[recv]") {
  Bench n;
  auto p = data_pkt(12, 77, kA, 100, 1);
  const bool hcrc = GENERATE(true, false);
  if (hcrc)
    p.beats[0][1] ^= 0x100;  // a dst_addr bit: hcrc no longer matches
  else
    p = data_pkt(12, 77, kA, 100, 1, false, 3);  // for node 3
  NO_ERR(n.pkt(p));
  CHECK(n.chk.idle());
  CHECK_FALSE(n.wr(burst(kBase + 0x1000, kALines, 0)).empty());
  CHECK_FALSE(n.rsp(resp(4, 12, 77)).empty());
  NO_ERR(n.fin());
  if (hcrc)
    NO_ERR(n.counters({0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0}));
  else
    NO_ERR(n.counters({0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0}));
}

TEST_CASE("recv model: contexts exhausted drop without NACK; idle ones reclaimed", "[recv]") {
  Bench n(2, 1000);  // two contexts, RxIdle 1000
  NO_ERR(n.pkt(data_pkt(1, 1, kBase + 0x13F0, 16, 2)));
  NO_ERR(n.wr(burst(kBase + 0x13C0, {{48, 16, 0, 0xFFFF000000000000ull}}, 0)));
  NO_ERR(n.b());
  NO_ERR(n.pkt(data_pkt(2, 1, kBase + 0x23F0, 16, 2)));
  NO_ERR(n.wr(burst(kBase + 0x23C0, {{48, 16, 0, 0xFFFF000000000000ull}}, 0)));
  NO_ERR(n.b());
  const auto p3 = data_pkt(3, 1, kA, 100, 1);
  NO_ERR(n.pkt(p3));  // no context left
  CHECK_FALSE(n.wr(burst(kBase + 0x1000, kALines, 0)).empty());
  CHECK_FALSE(n.rsp(resp(4, 3, 1)).empty());
  NO_ERR(n.counters({0, 3, 0, 0, 1, 0, 0, 0, 0, 0, 0}));
  // 1000 idle cycles plus one scan (2 contexts) and the slack: both reclaimed for sure
  n.t += 1100;
  NO_ERR(n.counters({0, 3, 0, 0, 1, 0, 0, 0, 0, 0, 2}));
  CHECK_FALSE(n.counters({0, 3, 0, 0, 1, 0, 0, 0, 0, 0, 0}).empty());
  NO_ERR(n.pkt(p3));  // now it gets one
  NO_ERR(n.wr(burst(kBase + 0x1000, kALines, 0)));
  NO_ERR(n.b());
  NO_ERR(n.rsp(resp(3, 3, 1)));
  NO_ERR(n.fin());
}

TEST_CASE("recv model: reclaim timing is a window, not a cycle", "[recv]") {
  Bench n(64, 1000);
  NO_ERR(n.pkt(data_pkt(1, 1, kBase + 0x13F0, 16, 2)));
  NO_ERR(n.wr(burst(kBase + 0x13C0, {{48, 16, 0, 0xFFFF000000000000ull}}, 0)));
  NO_ERR(n.b());
  n.t += 1010;  // idle long enough to be reclaimable, not long enough to be sure
  NO_ERR(n.counters({0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  NO_ERR(n.counters({0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
  // slot 1 arrives now: either the context is still there (block completes, ACK) ...
  NO_ERR(n.pkt(data_pkt(1, 1, kBase + 0x1400, 16, 2)));
  NO_ERR(n.wr(burst(kBase + 0x1400, {{0, 16, 0, 0xFFFFull}}, 0)));
  NO_ERR(n.b());
  SECTION("kept") { NO_ERR(n.rsp(resp(3, 1, 1))); }
  SECTION("reclaimed: a new context waits for slot 0, no ACK") {
    n.t += 5000;
    NO_ERR(n.fin());
    NO_ERR(n.counters({0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2}));
  }
}

TEST_CASE("recv model: notify block, control packet before or after the data", "[recv]") {
  // record at kBase + 0x5000038: 16 bytes over lanes 56..63 of line 0x5000000 and lanes 0..7
  // of line 0x5000040: tag 0x1122334455667788, size 3000 = 0xbb8, src 7, magic 0x0001
  const uint64_t naddr = kBase + 0x5000038;
  const std::vector<uint8_t> rec = {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
                                    0xb8, 0x0b, 0x00, 0x00, 0x07, 0x00, 0x01, 0x00};
  const auto ctrl = ctrl_pkt(4, 9, naddr, 0x1122334455667788ull, 3000);
  const auto d = data_pkt(4, 9, kA, 100, 1, true);
  const bool before = GENERATE(true, false);
  Bench n;
  if (before) NO_ERR(n.pkt(ctrl));
  NO_ERR(n.pkt(d));
  NO_ERR(n.wr(burst(kBase + 0x1000, kALines, 0)));
  NO_ERR(n.b());
  if (!before) {
    CHECK_FALSE(n.rsp(resp(3, 4, 9)).empty());  // the control packet is missing
    NO_ERR(n.pkt(ctrl));
  }
  CHECK_FALSE(n.rsp(resp(3, 4, 9)).empty());  // the record first
  const std::vector<uint8_t> lo(rec.begin(), rec.begin() + 8), hi(rec.begin() + 8, rec.end());
  auto wrong = lo;
  wrong[0] ^= 1;
  CHECK_FALSE(n.wr(raw_burst(kBase + 0x5000000, wrong, 56, 0xFF00000000000000ull, 0)).empty());
  NO_ERR(n.wr(raw_burst(kBase + 0x5000000, lo, 56, 0xFF00000000000000ull, 0)));
  NO_ERR(n.wr(raw_burst(kBase + 0x5000040, hi, 0, 0xFFull, 0)));
  NO_ERR(n.b());
  CHECK_FALSE(n.rsp(resp(3, 4, 9)).empty());  // the record's second B is out
  NO_ERR(n.b());
  NO_ERR(n.rsp(resp(3, 4, 9)));
  NO_ERR(n.fin());
  NO_ERR(n.counters({0, 2, 0, 0, 0, 0, 0, 1, 0, 1, 0}));
}

TEST_CASE("recv model: inline packet written across a line, ACK after its last B", "[recv]") {
  // 20 bytes at 0x7FFF3: line 0x7FFC0 lanes 51..63 (13 bytes), line 0x80000 lanes 0..6
  std::vector<uint8_t> bytes;
  for (unsigned i = 0; i < 20; ++i) bytes.push_back(uint8_t(0xC0 + i));
  Bench n;
  NO_ERR(n.pkt(short_pkt(WireKind::Inline, 30, 6, kBase + 0x7FFF3, bytes)));
  NO_ERR(n.wr(raw_burst(kBase + 0x7FFC0, std::vector<uint8_t>(bytes.begin(), bytes.begin() + 13),
                        51, 0xFFF8000000000000ull, 0)));
  NO_ERR(n.wr(raw_burst(kBase + 0x80000, std::vector<uint8_t>(bytes.begin() + 13, bytes.end()), 0,
                        0x7Full, 0)));
  NO_ERR(n.b());
  CHECK_FALSE(n.rsp(resp(3, 30, 6)).empty());  // its second B is out
  NO_ERR(n.b());
  NO_ERR(n.rsp(resp(3, 30, 6)));
  NO_ERR(n.fin());
  NO_ERR(n.counters({0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0}));
  // an inline packet of length 0 is malformed: NACK
  Bench m;
  NO_ERR(m.pkt(short_pkt(WireKind::Inline, 31, 2, kBase, {})));
  NO_ERR(m.rsp(resp(4, 31, 2)));
}

TEST_CASE("recv model: a duplicate racing the ACK may be either side of it", "[recv]") {
  Bench n;
  const auto p = data_pkt(5, 40, kA, 100, 1);
  NO_ERR(n.pkt(p));
  NO_ERR(n.wr(burst(kBase + 0x1000, kALines, 0)));
  NO_ERR(n.b());
  NO_ERR(n.pkt(p));  // arrives while the block waits for its ACK
  n.t += 5;
  NO_ERR(n.rsp(resp(3, 5, 40)));
  SECTION("decided before the ACK: dropped") {
    n.t += 5000;
    NO_ERR(n.fin());
    NO_ERR(n.counters({0, 2, 0, 0, 0, 1, 0, 1, 0, 0, 0}));
  }
  SECTION("decided after the ACK: a new context, written again") {
    NO_ERR(n.wr(burst(kBase + 0x1000, kALines, 0)));
    NO_ERR(n.b());
    NO_ERR(n.rsp(resp(3, 5, 40)));
    NO_ERR(n.fin());
  }
}

TEST_CASE("recv model: two duplicates racing the ACK may straddle it", "[recv]") {
  // A two-packet block (as in the out-of-order case above), complete; then a duplicate of
  // each packet arrives before the ACK. The unit may drop the first as a duplicate, send the
  // ACK (freeing the context), and write the second into a new context.
  Bench n;
  const auto p0 = data_pkt(9, 3, kBase + 0x13F0, 16, 2);
  const auto p1 = data_pkt(9, 3, kBase + 0x1400, 16, 2);
  const auto w0 = burst(kBase + 0x13C0, {{48, 16, 0, 0xFFFF000000000000ull}}, 0);
  const auto w1 = burst(kBase + 0x1400, {{0, 16, 0, 0xFFFFull}}, 0);
  NO_ERR(n.pkt(p0));
  NO_ERR(n.pkt(p1));
  NO_ERR(n.wr(w0));
  NO_ERR(n.wr(w1));
  NO_ERR(n.b());
  NO_ERR(n.b());
  NO_ERR(n.pkt(p0));
  NO_ERR(n.pkt(p1));
  n.t += 5;
  NO_ERR(n.rsp(resp(3, 9, 3)));
  SECTION("the first dropped before the ACK, the second written after it") {
    NO_ERR(n.wr(w1));
    CHECK_FALSE(n.wr(w0).empty());  // the first was decided: nothing left to write it
  }
  SECTION("both after the ACK: the first written, then the second") {
    NO_ERR(n.wr(w0));
    NO_ERR(n.wr(w1));
    NO_ERR(n.b());
    NO_ERR(n.b());
    NO_ERR(n.rsp(resp(3, 9, 3)));  // the block again, complete: ACKed again
    NO_ERR(n.fin());
  }
  SECTION("both before the ACK: dropped, nothing more") {
    n.t += 5000;
    NO_ERR(n.fin());
    NO_ERR(n.counters({0, 4, 0, 0, 0, 2, 0, 1, 0, 0, 0}));
  }
}

TEST_CASE("recv model: responses from rsp_rx reach the engine, others are counted", "[recv]") {
  RecvChecker c(kMe);
  auto to_me = [](unsigned kind, uint16_t tid, uint16_t seq) { return resp(kind, tid, seq, kMe); };
  NO_ERR(c.on_rsp_rx(to_me(3, 8, 100), 10));
  NO_ERR(c.on_rsp_rx(to_me(4, 9, 101), 11));
  NO_ERR(c.on_rsp_rx(resp(3, 8, 100, 5), 12));  // another node's: misrouted
  auto bad = to_me(3, 1, 1);
  bad.beats[0][0] ^= 1 << 20;
  NO_ERR(c.on_rsp_rx(bad, 13));  // hcrc
  CHECK_FALSE(c.on_engine_rsp(8, 101, false).empty());
  NO_ERR(c.on_engine_rsp(9, 101, true));
  CHECK_FALSE(c.on_engine_rsp(1, 1, false).empty());
  NO_ERR(c.compare_counters(20, {0, 4, 1, 0, 0, 0, 1, 0, 0, 0, 0}));
}

TEST_CASE("recv model: states compare equal only when every field that matters does", "[recv]") {
  // The checker keeps one of each group of equal states (RecvModel::operator==), so equality
  // must not merge states that would explain a later observation differently.
  const auto p = data_pkt(1, 1, kA, 100, 1);
  RecvModel a(kMe, 64, 1000), b(kMe, 64, 1000);
  CHECK(a == b);
  a.arrive(p, 10);
  CHECK(a != b);
  b.arrive(p, 10);
  CHECK(a == b);  // the same packet at the same cycle: the same state
  SECTION("one arrival applied to two states: equal, the payload shared") {
    const RecvModel::Arrival arr = RecvModel::ingress(p, kMe, 20);
    a.admit(arr);
    CHECK(a != b);
    b.admit(arr);
    CHECK(a == b);
  }
  SECTION("another arrival cycle differs") {
    a.arrive(p, 20);
    b.arrive(p, 21);
    CHECK(a != b);
  }
  SECTION("another payload differs") {
    // the same head, another first byte, its own (good) pcrc: both wait with a good payload
    std::vector<uint8_t> bytes(100);
    for (unsigned i = 0; i < 100; ++i) bytes[i] = pay(i);
    bytes[0] ^= 1;
    const WirePacket q = make_data_packet(p.head(), bytes.data());
    REQUIRE(q.pcrc_ok());
    REQUIRE(q.beats[0] == p.beats[0]);
    a.arrive(p, 30);
    b.arrive(q, 30);
    CHECK(a != b);
  }
  SECTION("another node or context count differs") {
    CHECK(RecvModel(kMe, 64, 1000) != RecvModel(kMe, 32, 1000));
    CHECK(RecvModel(kMe, 64, 1000) != RecvModel(kPeer, 64, 1000));
    CHECK(RecvModel(kMe, 64, 1000) != RecvModel(kMe, 64, 999));
  }
}

TEST_CASE("recv model: a data write decided into the writer's slot, nothing else", "[recv]") {
  // Two one-line data packets of different blocks arrive; the second's burst shows its AW
  // while the first's W beat is still to come (the writer's slot, rtl/recv/recv_writer.sv).
  Bench n;
  NO_ERR(n.chk.on_req_rx(data_pkt(5, 40, kBase + 0x2000, 64, 1), 102));
  auto first = burst(kBase + 0x2000, {{0, 64, 0, ~uint64_t{0}}}, 110);  // AW 110, W 111
  SECTION("a data packet's write") {
    NO_ERR(n.chk.on_req_rx(data_pkt(6, 41, kBase + 0x3000, 64, 1), 104));
    auto second = burst(kBase + 0x3000, {{0, 64, 0, ~uint64_t{0}}}, 111);  // AW 111, W 112
    NO_ERR(n.chk.on_burst(first));
    NO_ERR(n.chk.on_burst(second));
    NO_ERR(n.chk.on_b(120));
    NO_ERR(n.chk.on_b(121));
    NO_ERR(n.chk.on_rsp_tx(resp(3, 5, 40), 125));
    NO_ERR(n.chk.on_rsp_tx(resp(3, 6, 41), 127));
    NO_ERR(n.chk.finish(200));
  }
  SECTION("an inline packet waits for the idle writer") {
    const std::vector<uint8_t> bytes = {1, 2, 3, 4};
    NO_ERR(n.chk.on_req_rx(short_pkt(WireKind::Inline, 6, 41, kBase + 0x3000, bytes), 104));
    NO_ERR(n.chk.on_burst(first));
    CHECK_FALSE(n.chk.on_burst(raw_burst(kBase + 0x3000, bytes, 0, 0xF, 111)).empty());
  }
  SECTION("a third write does not pass the one-job slot") {
    // packets B and C arrive in time; B waits in the slot behind the first write until its
    // last beat (111), so C can be decided from 112 on and show its AW at 113 at the earliest
    NO_ERR(n.chk.on_req_rx(data_pkt(6, 41, kBase + 0x3000, 64, 1), 104));
    NO_ERR(n.chk.on_req_rx(data_pkt(7, 42, kBase + 0x4000, 64, 1), 106));
    NO_ERR(n.chk.on_burst(first));
    NO_ERR(n.chk.on_burst(burst(kBase + 0x3000, {{0, 64, 0, ~uint64_t{0}}}, 111)));
    auto third = burst(kBase + 0x4000, {{0, 64, 0, ~uint64_t{0}}}, 112);  // decided by 111
    SECTION("too early") { CHECK_FALSE(n.chk.on_burst(third).empty()); }
    SECTION("in time") {
      third.aw_cycle = 113;
      third.done_cycle = 114;
      NO_ERR(n.chk.on_burst(third));
    }
  }
}
