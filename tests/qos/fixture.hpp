// SPDX-License-Identifier: Apache-2.0
// Shared plumbing of the directed engine tests (tests/engine/*.cpp): the verilated qos_engine
// in a sim::Testbench driven by the test itself (random_cpu = false; the golden model and its
// scoreboard stay attached and check every cycle), plus
//   - independent decoders of the block descriptor (ICD 6) and packet (ICD 7) formats and a
//     bitwise CRC-32, written from the ICD, not from ref_model/ (the tests' own oracle);
//   - descriptor builders and AXI write shapes (word order, beat width, bursts);
//   - blocking AXI helpers (write, status reads, statistics reads);
//   - a Collector (sim::Listener on the monitor) of blocks, packets, status changes, responses;
//   - responder control (auto / script mode, raw ACKs) and forced blk/pkt stalls.
// Every test ends with Env::finish(): the engine drained, the statistics read back over AXI
// (the model checks each value) and the model's end-of-run checks (IDs back, nothing live).
#ifndef NI_TESTS_ENGINE_FIXTURE_HPP_
#define NI_TESTS_ENGINE_FIXTURE_HPP_

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/types.hpp"
#include "ref_model/qos/descriptor_write_model.hpp"
#include "sim/tb/qos/testbench.hpp"

namespace engine_test {

// ------------------------------------------------------------------------------------------
// Address map (ICD section 3)
// ------------------------------------------------------------------------------------------
using ni::stat_addr;
using ni::status32_addr;
using ni::status_addr;
constexpr uint32_t word_addr(unsigned page, unsigned ch, unsigned word) {
  return ni::desc_addr(page, ch, word);  // word 0..3 of the line at (page, ch)
}
constexpr unsigned xfer_of(unsigned page, unsigned ch) { return page * 128 + ch; }
constexpr unsigned wch_of(unsigned page, unsigned ch) { return page * 64 + ch; }

// Statistics counter indices (ICD section 8).
enum Stat : unsigned {
  kDescAccepted = 0,
  kWritesRejected = 1,
  kBlocksIssued = 2,
  kInlinePackets = 3,
  kCtrlPackets = 4,
  kAcks = 5,
  kNacks = 6,
  kDropped = 7,
  kRetx = 8,
  kXfersDone = 9,
  kXfersError = 10,
  kBlkStall = 11,
  kPktStall = 12,
  kTimeouts = 13,
  kNumStats = 14,
};
using Stats = std::array<uint64_t, kNumStats>;

// Status codes (ICD section 3).
enum Code : unsigned { kIdle = 0, kBusy = 1, kDone = 2, kError = 3 };

constexpr uint64_t kBlock = 65536;

// ------------------------------------------------------------------------------------------
// Independent format decoders (ICD sections 6 and 7)
// ------------------------------------------------------------------------------------------
template <std::size_t N>
uint64_t field(const std::array<uint64_t, N>& w, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned b = lsb + i;
    v |= ((w[b / 64] >> (b % 64)) & 1u) << i;
  }
  return v;
}

// blk_desc_o, ICD 6: src64 dst64 pd16 seq14 bytes_sent16 cm1 initialized1 fid8 retx1 done1
// notify1 chained1 len_m1 16 block_idx12 has_next1 xfer11 reserved28.
struct Block {
  uint64_t cycle = 0;
  unsigned tid = 0;
  uint64_t src = 0, dst = 0;
  unsigned pd = 0, seq = 0, bytes_sent = 0;
  bool cm = false, initialized = false;
  unsigned fid = 0;
  bool retx = false, done = false, notify = false, chained = false;
  uint32_t len = 0;  // len_m1 + 1
  unsigned block_idx = 0;
  bool has_next = false;
  unsigned xfer = 0;
  uint64_t rsvd = 0;
};

inline Block decode_block(uint64_t cycle, unsigned tid, const std::array<uint64_t, 4>& w) {
  Block b;
  b.cycle = cycle;
  b.tid = tid;
  b.src = w[0];
  b.dst = w[1];
  b.pd = unsigned(field(w, 128, 16));
  b.seq = unsigned(field(w, 144, 14));
  b.bytes_sent = unsigned(field(w, 158, 16));
  b.cm = field(w, 174, 1) != 0;
  b.initialized = field(w, 175, 1) != 0;
  b.fid = unsigned(field(w, 176, 8));
  b.retx = field(w, 184, 1) != 0;
  b.done = field(w, 185, 1) != 0;
  b.notify = field(w, 186, 1) != 0;
  b.chained = field(w, 187, 1) != 0;
  b.len = uint32_t(field(w, 188, 16)) + 1;
  b.block_idx = unsigned(field(w, 204, 12));
  b.has_next = field(w, 216, 1) != 0;
  b.xfer = unsigned(field(w, 217, 11));
  b.rsvd = field(w, 228, 28);
  return b;
}

// pkt_data_o, ICD 7: header kind4 tid10 seq14 len6 notify1 pd4 xfer11 reserved14 dst64;
// payload [383:128]; footer crc32 [415:384], reserved zeros above.
struct Packet {
  uint64_t cycle = 0;
  std::array<uint64_t, 8> raw{};
  unsigned kind = 0, tid = 0, seq = 0, len = 0;
  bool notify = false;
  unsigned pd = 0, xfer = 0;
  uint64_t hdr_rsvd = 0;
  uint64_t dst = 0;
  std::array<uint8_t, 32> payload{};
  uint32_t crc = 0;
  uint64_t footer_rsvd_lo = 0;  // [447:416]
  uint64_t footer_rsvd_hi = 0;  // [511:448]
};

inline Packet decode_packet(uint64_t cycle, const std::array<uint64_t, 8>& w) {
  Packet p;
  p.cycle = cycle;
  p.raw = w;
  p.kind = unsigned(field(w, 0, 4));
  p.tid = unsigned(field(w, 4, 10));
  p.seq = unsigned(field(w, 14, 14));
  p.len = unsigned(field(w, 28, 6));
  p.notify = field(w, 34, 1) != 0;
  p.pd = unsigned(field(w, 35, 4));
  p.xfer = unsigned(field(w, 39, 11));
  p.hdr_rsvd = field(w, 50, 14);
  p.dst = w[1];
  for (unsigned i = 0; i < 32; ++i) p.payload[i] = uint8_t(field(w, 128 + 8 * i, 8));
  p.crc = uint32_t(field(w, 384, 32));
  p.footer_rsvd_lo = field(w, 416, 32);
  p.footer_rsvd_hi = w[7];
  return p;
}

// CRC-32, IEEE 802.3: reflected polynomial 0xEDB88320, init and final XOR 0xFFFFFFFF;
// one bit at a time (deliberately not the table-driven code of ref_model/crc32.cpp).
inline uint32_t crc32_bitwise(const std::vector<uint8_t>& bytes) {
  uint32_t c = 0xFFFFFFFFu;
  for (uint8_t b : bytes) {
    c ^= b;
    for (int i = 0; i < 8; ++i) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : (c >> 1);
  }
  return ~c;
}

// The CRC a packet must carry: 16 header bytes then `len` payload bytes (ICD 7).
inline uint32_t expected_crc(const Packet& p) {
  std::vector<uint8_t> bytes;
  for (unsigned i = 0; i < 16; ++i) bytes.push_back(uint8_t(p.raw[i / 8] >> (8 * (i % 8))));
  for (unsigned i = 0; i < p.len && i < 32; ++i) bytes.push_back(p.payload[i]);
  return crc32_bitwise(bytes);
}

// ------------------------------------------------------------------------------------------
// Expected values, worked by hand in the tests
// ------------------------------------------------------------------------------------------
struct ExpBlock {
  unsigned tid = 0;
  uint64_t src = 0, dst = 0;
  uint32_t len = 0;
  unsigned seq = 0;
  unsigned fid = 0;
  bool cm = false, chained = false, has_next = false, notify = false;
  unsigned idx = 0;
  unsigned page = 0, xfer = 0;
};

inline void check_block(const Block& a, const ExpBlock& e) {
  INFO("block " << e.idx << " of transfer " << e.xfer << " (blk handshake at cycle " << a.cycle
                << ")");
  CHECK(a.tid == e.tid);
  CHECK(a.src == e.src);
  CHECK(a.dst == e.dst);
  CHECK(a.len == e.len);
  CHECK(a.seq == e.seq);
  CHECK(a.fid == e.fid);
  CHECK(a.cm == e.cm);
  CHECK(a.chained == e.chained);
  CHECK(a.has_next == e.has_next);
  CHECK(a.notify == e.notify);
  CHECK(a.block_idx == e.idx);
  CHECK(a.pd == e.page);
  CHECK(a.xfer == e.xfer);
  CHECK(a.bytes_sent == 0);
  CHECK_FALSE(a.initialized);
  CHECK_FALSE(a.retx);
  CHECK_FALSE(a.done);
  CHECK(a.rsvd == 0);
}

// Segmentation of ICD 5: first block kBlock - dst % kBlock (at most size), then full blocks,
// the last one the remainder; block k >= 1 at dst {dst[63:48], (dst[47:16] + k) << 16} and at
// src + first + (k-1) * kBlock. total = ceil((dst % kBlock + size) / kBlock).
inline uint32_t total_blocks(uint64_t dst, uint32_t size) {
  return uint32_t(((dst % kBlock) + size + kBlock - 1) / kBlock);
}

// The blocks memory transfer `d` must produce (ICD 5 and 6), when its blocks take the seqs
// seq0, seq0+1, ... (nothing else issues in between). IDs: TID-only blocks take `tids[k]`
// (the TID FIFO order the test worked out); 1xFID: `flow` = FID f, TID (f<<2) + k%4;
// 4xFID: `flow` = base g, FID g + k%4, TID ((g + k%4)<<2) + (k/4)%4.
inline std::vector<ExpBlock> expected_blocks(const ni::Descriptor& d, unsigned seq0, unsigned flow,
                                             const std::vector<unsigned>& tids = {}) {
  const uint32_t total = total_blocks(d.dst, d.size);
  const uint64_t first = std::min<uint64_t>(d.size, kBlock - d.dst % kBlock);
  std::vector<ExpBlock> v;
  for (uint32_t k = 0; k < total; ++k) {
    ExpBlock e;
    e.idx = k % 4096;
    e.seq = (seq0 + k) & 0x3FFF;
    e.page = d.page;
    e.xfer = d.xfer();
    if (k == 0) {
      e.src = d.src;
      e.dst = d.dst;
      e.len = uint32_t(first);
    } else {
      e.src = d.src + first + uint64_t(k - 1) * kBlock;
      e.dst = (d.dst & 0xFFFF000000000000ull) | ((((d.dst & 0xFFFFFFFFFFFFull) >> 16) + k) << 16);
      e.len =
          (k + 1 == total) ? uint32_t(d.size - first - uint64_t(k - 1) * kBlock) : uint32_t(kBlock);
    }
    e.cm = d.kind == ni::Kind::OneFid || d.kind == ni::Kind::FourFid;
    e.chained = e.cm && k > 0;
    e.has_next = e.cm && k + 1 < total;
    e.notify = d.notify && k + 1 == total;
    switch (d.kind) {
      case ni::Kind::OneFid:
        e.fid = flow;
        e.tid = (flow << 2) + k % 4;
        break;
      case ni::Kind::FourFid:
        e.fid = flow + k % 4;
        e.tid = ((flow + k % 4) << 2) + (k / 4) % 4;
        break;
      default:
        e.fid = 0;
        e.tid = k < tids.size() ? tids[k] : ~0u;
        break;
    }
    v.push_back(e);
  }
  return v;
}

// Inline packet of `d` (design.md 10): kind 0, len = size, notify = d.notify, payload = the
// descriptor's payload bytes, zero beyond len.
inline void check_inline_packet(const Packet& p, const ni::Descriptor& d, unsigned tid,
                                unsigned seq) {
  INFO("inline packet of transfer " << d.xfer() << " size " << d.size << " (cycle " << p.cycle
                                    << ")");
  CHECK(p.kind == 0);
  CHECK(p.tid == tid);
  CHECK(p.seq == seq);
  CHECK(p.len == d.size);
  CHECK(p.notify == d.notify);
  CHECK(p.pd == d.page);
  CHECK(p.xfer == d.xfer());
  CHECK(p.hdr_rsvd == 0);
  CHECK(p.dst == d.dst);
  for (unsigned i = 0; i < 32; ++i) {
    const uint8_t want = (i < d.size && i < d.payload.size()) ? d.payload[i] : 0;
    INFO("payload byte " << i);
    CHECK(unsigned(p.payload[i]) == unsigned(want));
  }
  CHECK(p.crc == expected_crc(p));
  CHECK(p.footer_rsvd_lo == 0);
  CHECK(p.footer_rsvd_hi == 0);
}

// Control packet (ICD 7): kind 1, the last block's TID/seq, len 32, notify 1, payload =
// notification address, tag, size32, total_blocks18, zeros.
inline void check_ctrl_packet(const Packet& p, const ni::Descriptor& d, unsigned tid, unsigned seq,
                              uint32_t total) {
  INFO("control packet of transfer " << d.xfer() << " (cycle " << p.cycle << ")");
  CHECK(p.kind == 1);
  CHECK(p.tid == tid);
  CHECK(p.seq == seq);
  CHECK(p.len == 32);
  CHECK(p.notify);
  CHECK(p.pd == d.page);
  CHECK(p.xfer == d.xfer());
  CHECK(p.hdr_rsvd == 0);
  CHECK(p.dst == d.dst);
  CHECK(p.raw[2] == d.notify_addr);
  CHECK(p.raw[3] == d.notify_tag);
  CHECK(field(p.raw, 256, 32) == d.size);
  CHECK(field(p.raw, 288, 18) == total);
  CHECK(field(p.raw, 306, 78) == 0);
  CHECK(p.crc == expected_crc(p));
  CHECK(p.footer_rsvd_lo == 0);
  CHECK(p.footer_rsvd_hi == 0);
}

// ------------------------------------------------------------------------------------------
// Descriptors and AXI write shapes
// ------------------------------------------------------------------------------------------
inline ni::Descriptor mem_desc(unsigned page, unsigned ch, ni::Kind kind, uint64_t src,
                               uint64_t dst, uint32_t size, uint8_t prio = 0) {
  ni::Descriptor d;
  d.page = page;
  d.channel = ch;
  d.kind = kind;
  d.src = src;
  d.dst = dst;
  d.size = size;
  d.prio = prio;
  d.long_mode = ni::LongMode::Short;
  return d;
}

inline ni::Descriptor notify_desc(unsigned page, unsigned ch, ni::Kind kind, uint64_t src,
                                  uint64_t dst, uint32_t size, uint64_t naddr, uint64_t ntag,
                                  uint8_t prio = 0) {
  ni::Descriptor d = mem_desc(page, ch, kind, src, dst, size, prio);
  d.notify = true;
  d.notify_addr = naddr;
  d.notify_tag = ntag;
  d.long_mode = ni::LongMode::Long;
  return d;
}

// Inline transfer of `size` bytes; the payload words are filled with a pattern over all
// `is_long ? 32 : 16` bytes, also beyond `size` (the engine must mask them off).
inline ni::Descriptor inline_desc(unsigned page, unsigned ch, uint32_t size, bool is_long,
                                  uint64_t dst, bool notify = false) {
  ni::Descriptor d;
  d.page = page;
  d.channel = ch;
  d.kind = ni::Kind::Inline;
  d.dst = dst;
  d.size = size;
  d.notify = notify;
  d.long_mode = is_long ? ni::LongMode::Long : ni::LongMode::Short;
  d.payload.resize(is_long ? 32 : 16);
  for (unsigned i = 0; i < d.payload.size(); ++i)
    d.payload[i] = uint8_t(0x11 * (i % 15 + 1) + 3 * size + ch);
  return d;
}

// One AXI write of `words` at consecutive word addresses from `addr` (8-aligned): a single
// INCR burst of 8-byte (width 8) or 16-byte (width 16) beats. A 16-byte burst starting on an
// odd word (addr[3] = 1) has an upper-lane-only first beat; an odd word count an
// lower-lane-only last beat.
inline sim::AxiWrite burst(uint32_t addr, const std::vector<uint64_t>& words, unsigned width,
                           uint8_t id = 0) {
  sim::AxiWrite w;
  w.addr = addr;
  w.size = width == 16 ? 4 : 3;
  w.id = id;
  const uint32_t first_window = addr & ~uint32_t(width - 1);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const uint32_t a = addr + uint32_t(8 * i);
    const std::size_t b = width == 16 ? (a - first_window) / 16 : i;
    if (w.beats.size() <= b) w.beats.resize(b + 1);
    if ((a >> 3) & 1) {
      w.beats[b].hi = words[i];
      w.beats[b].strb |= 0xFF00;
    } else {
      w.beats[b].lo = words[i];
      w.beats[b].strb |= 0x00FF;
    }
  }
  w.beats.back().last = true;
  return w;
}

// A single-beat write of one word (8-byte beat, or one lane of a 16-byte beat).
inline sim::AxiWrite word_write(uint32_t addr, uint64_t v, unsigned width = 8) {
  return burst(addr, {v}, width);
}

// How a descriptor's words reach the engine.
struct Shape {
  unsigned width = 16;  // 8 or 16-byte beats
  bool bursts = true;   // one burst per descriptor (else one single-beat write per beat)
  // Single-beat writes only: the order of the words (8-byte beats: word indices 0..7) or of
  // the 16-byte windows (indices 0..3, window i = words 2i, 2i+1). Empty = ascending.
  std::vector<unsigned> order;
};

inline std::vector<sim::AxiWrite> desc_writes(const ni::Descriptor& d, const Shape& s = Shape{}) {
  const std::vector<uint64_t> words = d.encode();
  auto addr = [&](unsigned i) { return word_addr(d.page, d.channel + i / 4, i % 4); };
  std::vector<sim::AxiWrite> out;
  if (s.bursts) {
    out.push_back(burst(addr(0), words, s.width));
    return out;
  }
  const unsigned units = s.width == 16 ? unsigned(words.size()) / 2 : unsigned(words.size());
  std::vector<unsigned> order = s.order;
  if (order.empty()) {
    for (unsigned i = 0; i < units; ++i) order.push_back(i);
  }
  for (unsigned u : order) {
    if (s.width == 16) {
      out.push_back(burst(addr(2 * u), {words[2 * u], words[2 * u + 1]}, 16));
    } else {
      out.push_back(burst(addr(u), {words[u]}, 8));
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// Collector: what the monitor saw
// ------------------------------------------------------------------------------------------
class Collector : public sim::Listener {
 public:
  std::vector<Block> blocks;
  std::vector<Packet> packets;
  std::vector<sim::StatusEvent> status;
  std::vector<sim::RspEvent> rsps;
  std::vector<sim::AwEvent> aws;
  std::vector<sim::BEvent> bs;

  void on_block(const sim::BlockEvent& e) override {
    blocks.push_back(decode_block(e.cycle, e.tid, e.desc));
  }
  void on_packet(const sim::PacketEvent& e) override {
    packets.push_back(decode_packet(e.cycle, e.data));
  }
  void on_status(const sim::StatusEvent& e) override { status.push_back(e); }
  void on_rsp(const sim::RspEvent& e) override { rsps.push_back(e); }
  void on_aw(const sim::AwEvent& e) override { aws.push_back(e); }
  void on_b(const sim::BEvent& e) override { bs.push_back(e); }

  std::vector<Block> blocks_of(unsigned xfer) const {
    std::vector<Block> v;
    for (const Block& b : blocks) {
      if (b.xfer == xfer) v.push_back(b);
    }
    return v;
  }
  std::vector<Packet> packets_of(unsigned xfer) const {
    std::vector<Packet> v;
    for (const Packet& p : packets) {
      if (p.xfer == xfer) v.push_back(p);
    }
    return v;
  }
  // Cycle of the first change of `wch` to `code` at or after `from` (~0 when none).
  uint64_t status_cycle(unsigned wch, unsigned code, uint64_t from = 0) const {
    for (const auto& s : status) {
      if (s.wch == wch && s.to == code && s.cycle >= from) return s.cycle;
    }
    return ~uint64_t{0};
  }
  std::size_t outputs() const { return blocks.size() + packets.size(); }
};

// ------------------------------------------------------------------------------------------
// The environment
// ------------------------------------------------------------------------------------------
inline sim::Testbench::Options tb_options(uint64_t seed) {
  sim::Testbench::Options o;
  o.cfg.seed = seed;
  o.random_cpu = false;
  o.cfg.responder.auto_mode = true;  // every block / inline packet ACKed after 1 cycle
  o.cfg.responder.lat_min = 1;
  o.cfg.responder.lat_max = 1;
  o.cfg.responder.reorder_window = 1;
  return o;
}

class Env {
 public:
  // A fresh engine after reset and init_done_o; `auto_ack` = responder in auto mode (every
  // block and inline packet ACKed one cycle after its handshake), else script mode.
  explicit Env(bool auto_ack = true, uint64_t seed = 1) : tb(tb_options(seed)) {
    tb.bus().add(col);
    if (!auto_ack) script_mode();
    tb.start();
    REQUIRE(bool(init_done()));
    check();
  }
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  sim::Testbench tb;
  Collector col;

  uint64_t cycle() const { return tb.cycle(); }
  bool init_done() { return *tb.ports().init_done != 0; }

  // Fails the test with the golden model's first failure, if any.
  void check() {
    if (tb.failed()) {
      const ni::ModelFailure& f = tb.model().failure();
      FAIL("golden model / scoreboard failure at cycle " << f.cycle << ": " << f.what << "\n"
                                                         << f.detail);
    }
    REQUIRE_FALSE(tb.failed());
  }

  // Runs exactly n cycles (fails the test on a model failure).
  void run(uint64_t n) {
    const uint64_t end = cycle() + n;
    tb.run_until([&] { return cycle() >= end; }, n + 1);
    check();
  }
  // Runs until `done()`; fails the test when it does not happen within `max` cycles.
  void run_until(const std::function<bool()>& done, uint64_t max, const char* what) {
    const bool ok = tb.run_until(done, max);
    check();
    INFO("waiting for: " << what << " (cycle " << cycle() << ")");
    REQUIRE(ok);
  }

  // ---- AXI -----------------------------------------------------------------------------
  // Submits writes (the AXI master plays them back to back) and waits for every B response;
  // returns the responses in order.
  std::vector<uint8_t> write_all(std::vector<sim::AxiWrite> ws,
                                 std::vector<sim::AxiWrite>* done = nullptr) {
    auto got = std::make_shared<std::vector<sim::AxiWrite>>();
    const std::size_t n = ws.size();
    for (auto& w : ws)
      tb.axi().write(std::move(w), [got](const sim::AxiWrite& t) { got->push_back(t); });
    run_until([&] { return got->size() == n; }, 2000 + 50 * n, "B responses");
    std::vector<uint8_t> resp;
    for (const auto& t : *got) resp.push_back(t.resp);
    if (done != nullptr) *done = *got;
    return resp;
  }
  uint8_t write(sim::AxiWrite w, sim::AxiWrite* done = nullptr) {
    std::vector<sim::AxiWrite> d;
    const auto r = write_all({std::move(w)}, &d);
    if (done != nullptr) *done = d.front();
    return r.front();
  }
  // Writes a descriptor; returns OKAY only when every write answered OKAY, else SLVERR.
  uint8_t write_desc(const ni::Descriptor& d, const Shape& s = Shape{}) {
    const auto r = write_all(desc_writes(d, s));
    return std::all_of(r.begin(), r.end(), [](uint8_t x) { return x == sim::kRespOkay; })
               ? sim::kRespOkay
               : sim::kRespSlverr;
  }
  // One read transaction, played to its last beat.
  sim::AxiRead read_txn(const sim::AxiRead& r) {
    auto got = std::make_shared<sim::AxiRead>();
    auto fin = std::make_shared<bool>(false);
    tb.axi().read(r, [got, fin](const sim::AxiRead& t) {
      *got = t;
      *fin = true;
    });
    run_until([&] { return *fin; }, 2000, "R response");
    return *got;
  }
  // A single-beat read; returns RDATA[63:0] and its RRESP.
  uint64_t read(uint32_t addr, uint8_t* resp = nullptr) {
    sim::AxiRead r;
    r.addr = addr;
    const sim::AxiRead t = read_txn(r);
    REQUIRE(t.last_ok);
    REQUIRE(t.data.size() == 1);
    if (resp != nullptr) *resp = t.resp.front();
    return t.data.front();
  }
  unsigned status(unsigned page, unsigned ch) {
    uint8_t resp = 0xFF;
    const uint64_t v = read(status_addr(page, ch), &resp);
    REQUIRE(resp == sim::kRespOkay);
    REQUIRE((v >> 2) == 0);
    return unsigned(v & 3);
  }
  uint64_t status32(unsigned page, unsigned half) {
    uint8_t resp = 0xFF;
    const uint64_t v = read(status32_addr(page, half), &resp);
    REQUIRE(resp == sim::kRespOkay);
    return v;
  }
  uint64_t stat(unsigned idx) {
    uint8_t resp = 0xFF;
    const uint64_t v = read(stat_addr(idx), &resp);
    REQUIRE(resp == sim::kRespOkay);
    return v;
  }
  Stats stats() {
    Stats s{};
    for (unsigned i = 0; i < kNumStats; ++i) s[i] = stat(i);
    return s;
  }

  // ---- retransmission control registers (ICD 14) ----------------------------------------
  // Word 0: timeout in cycles (0 = off); word 1: MaxRetries.
  void set_timeout(uint64_t cycles) {
    REQUIRE(write(word_write(ni::ctrl_addr(0), cycles)) == sim::kRespOkay);
  }
  void set_max_retries(uint64_t n) {
    REQUIRE(write(word_write(ni::ctrl_addr(1), n)) == sim::kRespOkay);
  }

  // ---- responses ----------------------------------------------------------------------
  void script_mode() {
    sim::ResponderOptions o = tb.responder().options();
    o.auto_mode = false;
    tb.responder().set_options(o);
  }
  void auto_mode(unsigned lat = 1, unsigned reorder_window = 1) {
    sim::ResponderOptions o = tb.responder().options();
    o.auto_mode = true;
    o.lat_min = o.lat_max = lat;
    o.reorder_window = reorder_window;
    tb.responder().set_options(o);
  }
  // A raw response, offered from the next cycle on; waits until the engine took it.
  void ack(unsigned tid, unsigned seq, bool nack = false) {
    const std::size_t before = col.rsps.size();
    answered_.insert({tid, seq});
    tb.responder().script(cycle(), uint16_t(tid), uint16_t(seq), nack);
    run_until([&] { return col.rsps.size() > before; }, 200, "response handshake");
  }
  void ack(const Block& b, bool nack = false) { ack(b.tid, b.seq, nack); }
  void ack(const Packet& p, bool nack = false) { ack(p.tid, p.seq, nack); }

  // Script mode: ACKs (or NACKs) every block and inline packet seen so far that has not been
  // answered yet (by this or by ack()), in the order they appeared; waits until the engine
  // took them all. Returns how many it sent.
  std::size_t ack_outstanding(bool nack = false) {
    std::size_t n = 0;
    auto answer = [&](unsigned tid, unsigned seq) {
      if (!answered_.insert({tid, seq}).second) return;
      tb.responder().script(cycle(), uint16_t(tid), uint16_t(seq), nack);
      ++n;
    };
    for (const Block& b : col.blocks) answer(b.tid, b.seq);
    for (const Packet& p : col.packets) {
      if (p.kind == 0) answer(p.tid, p.seq);  // control packets are not acknowledged
    }
    const std::size_t want = col.rsps.size() + n;
    run_until([&] { return col.rsps.size() >= want; }, 200 + 4 * n, "scripted responses");
    return n;
  }
  // Script mode: answers blocks and inline packets as they appear until (page, ch) is no
  // longer BUSY.
  void ack_until_finished(unsigned page, unsigned ch, uint64_t max = 20000) {
    const uint64_t end = cycle() + max;
    while (tb.status(wch_of(page, ch)) == kBusy) {
      INFO("page " << page << " channel " << ch << " still BUSY at cycle " << cycle());
      REQUIRE(cycle() < end);
      if (ack_outstanding() == 0) run(1);
    }
  }

  // Waits until `n` blocks + packets in total have been seen at the ports.
  void wait_outputs(std::size_t n, uint64_t max = 5000) {
    run_until([&] { return col.outputs() >= n; }, max, "blocks/packets");
  }
  void wait_status(unsigned page, unsigned ch, unsigned code, uint64_t max = 5000) {
    const unsigned w = wch_of(page, ch);
    run_until([&] { return tb.status(w) == code; }, max, "status change");
  }

  // ---- back-pressure on blk_ready_i / pkt_ready_i ------------------------------------------
  // Ready low for `cycles` cycles from now.
  void stall_blk(uint64_t cycles) { tb.blk_stall().force(cycle(), cycles); }
  void stall_pkt(uint64_t cycles) { tb.pkt_stall().force(cycle(), cycles); }
  // Ready low from now on, until released (`on` = false).
  void hold_blk(bool on) { tb.blk_stall().set_options(on ? kHold : sim::StallOptions{}); }
  // Random stall bursts: start with `pct` % per cycle, `len_min`..`len_max` cycles long
  // (pct = 0: none).
  void random_blk_stalls(unsigned pct, unsigned len_min = 1, unsigned len_max = 1) {
    tb.blk_stall().set_options(sim::StallOptions{pct, len_min, len_max});
  }
  void random_pkt_stalls(unsigned pct, unsigned len_min = 1, unsigned len_max = 1) {
    tb.pkt_stall().set_options(sim::StallOptions{pct, len_min, len_max});
  }

  // ---- end of test --------------------------------------------------------------------
  // Drains the engine, reads every statistics counter back (the model checks them), runs the
  // model's end-of-run checks and requires them clean.
  void finish(uint64_t max = 200000) {
    run_until(
        [&] {
          return !tb.axi().busy() && !tb.responder().busy() && !tb.blk_stall().busy() &&
                 !tb.pkt_stall().busy() && tb.model().quiescent();
        },
        max, "engine idle");
    sim::RunResult r;
    tb.finish(r);
    INFO(r.failure << "\n" << r.detail);
    REQUIRE(r.passed);
    REQUIRE_FALSE(tb.failed());
  }

 private:
  static constexpr sim::StallOptions kHold{100, 1, 1};  // a 1-cycle burst every cycle
  std::set<std::pair<unsigned, unsigned>> answered_;    // (tid, seq) of every response sent
};

}  // namespace engine_test

#endif  // NI_TESTS_ENGINE_FIXTURE_HPP_
