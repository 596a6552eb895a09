// SPDX-License-Identifier: Apache-2.0
// The receive unit alone (ICD 11, 13): wire packets driven straight into req_rx and rsp_rx,
// its AW/W/B port on the memory model (sim/agents/mem_model: write latency, AW/W
// back-pressure, protocol checks), rsp_tx and the engine's rsp port with back-pressure. Every
// port is watched by the harness's receive-unit checker (sim/agents/recv_unit_checker), which
// compares what the unit does with the golden model (ref_model/recv: every write burst, ACK,
// NACK, drop, notification record and forwarded response), and the statistics pulses are
// summed and compared with the model's counters at the end. Each directed case also asserts
// its own expectations: the responses sent, the memory contents, the counters.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <string>
#include <tuple>
#include <vector>

#include "Vrecv_unit.h"
#include "ni_pkg_gen.hpp"  // the generated decoders (scripts/gen_pkg.py)
#include "ref_model/common/wire.hpp"
#include "ref_model/recv/recv_model.hpp"
#include "sim/agents/mem_model.hpp"
#include "sim/agents/monitors.hpp"
#include "sim/agents/recv_unit_checker.hpp"
#include "sim/agents/rx_monitor.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/sim_ctrl.hpp"
#include "sim/tb/bind.hpp"

namespace {

using ni::WireHead;
using ni::WireKind;
using ni::WirePacket;

constexpr uint16_t kNode = 5;
constexpr unsigned kContexts = 64;  // recv_unit's RxContexts default

struct Options {
  sim::MemOptions mem;
  unsigned tx_stall_pct = 0;      // rsp_tx_ready low
  unsigned eng_stall_pct = 0;     // rsp_ready (the engine) low
  uint64_t eng_refuse_until = 0;  // rsp_ready (the engine) low before this cycle
  unsigned gap_pct = 0;           // req_rx_valid low in a cycle
  uint64_t rx_idle = 65536;
  uint64_t seed = 1;
};

struct Rsp {  // a response the unit sent on rsp_tx, or forwarded to the engine
  WireKind kind;
  uint16_t tid, seq, to;
  bool operator==(const Rsp& o) const {
    return std::tie(kind, tid, seq, to) == std::tie(o.kind, o.tid, o.seq, o.to);
  }
};

template <class T>
void put_wide(T& w, const ni::Bits512& b) {
  for (unsigned i = 0; i < 16; ++i) w[i] = uint32_t(b[i / 2] >> (32 * (i % 2)));
}

class Bench : public sim::Component {
 public:
  explicit Bench(const Options& o)
      : opt_(o),
        rng_(o.seed),
        dut_(ctx_, "recv_unit"),
        m_(dut_.model()),
        mem_(sim::bind_axi_mem_write(m_, tie_), rng_, o.mem, kNode, bus_),
        rx_mon_(rx_ports(), bus_),
        rsp_mon_(rsp_ports(), bus_),
        chk_(rx_mon_, kNode, kContexts, o.rx_idle),
        ctrl_(ctx_) {
    // As a node is wired (sim/tb/node/node_agents.cpp): the receive-side monitor before the
    // engine's response tap, then the bus that hands their events to the checker.
    bus_.add(chk_);
    ctrl_.add_dut(dut_);
    ctrl_.add(*this);
    ctrl_.add(mem_);
    ctrl_.add(rx_mon_);
    ctrl_.add(rsp_mon_);
    ctrl_.add(bus_);
    m_.node_id_i = kNode;
    m_.rx_idle_i = o.rx_idle;
    ctrl_.reset();
  }

  void req(const WirePacket& p) { req_.push_back(p); }
  void req(const std::vector<WirePacket>& v) {
    for (const auto& p : v) req_.push_back(p);
  }
  void rsp_rx(const WirePacket& p) { rsp_in_.push_back(p.beats.at(0)); }

  // Runs until everything queued was taken and the model expects nothing more, then a few
  // cycles more (nothing unexpected may follow).
  bool run(uint64_t limit = 500000) {
    const bool ok = ctrl_.run_until(
        [&] {
          return req_.empty() && rsp_in_.empty() && chk_.quiescent() && !mem_.busy() &&
                 !m_.rsp_tx_valid_o && !m_.rsp_valid_o;
        },
        limit);
    idle(64);
    return ok;
  }
  // Runs until everything queued was taken, then `cycles` more (for decisions the model
  // cannot see: a packet dropped without a response keeps it busy until the next event).
  bool feed(uint64_t cycles) {
    const bool ok = ctrl_.run_until([&] { return req_.empty() && rsp_in_.empty(); }, 500000);
    idle(cycles);
    return ok;
  }
  void idle(uint64_t cycles) {
    ctrl_.run_until([] { return false; }, cycles);
  }

  // The checks every case ends with: the model's, the memory's, the counters'.
  void finish() {
    const uint64_t now = ctrl_.cycle();
    chk_.check_counters(ctr_, now);
    chk_.final_check(now);
    mem_.final_check(now);
  }
  std::vector<std::string> errors() const {
    std::vector<std::string> v;
    for (const auto& e : chk_.errors())
      v.push_back("cycle " + std::to_string(e.cycle) + ": " + e.what + "\n" + e.detail);
    for (const auto& e : mem_.errors())
      v.push_back("cycle " + std::to_string(e.cycle) + ": " + e.what);
    return v;
  }

  uint64_t ctr(unsigned idx) const { return ctr_.at(idx - 16); }
  const std::vector<Rsp>& sent() const { return sent_; }
  const std::vector<Rsp>& to_engine() const { return eng_; }
  // the cycles of the rsp_rx handshakes and of the engine's takes, in order
  const std::vector<uint64_t>& rsp_rx_cycles() const { return rsp_rx_at_; }
  const std::vector<uint64_t>& engine_cycles() const { return eng_at_; }
  // the cycles of the W handshakes with WLAST, and of req_rx stalls (valid, not ready)
  const std::vector<uint64_t>& wlast_cycles() const { return wlast_at_; }
  const std::vector<uint64_t>& w_cycles() const { return w_at_; }
  const std::vector<uint64_t>& req_stall_cycles() const { return stall_at_; }
  std::vector<uint8_t> mem(uint64_t a, std::size_t n) const { return mem_.image().read(a, n); }
  uint64_t cycle() const { return ctrl_.cycle(); }
  const ni::RecvChecker& model() const { return chk_.model(); }

  void on_reset() override {
    m_.req_rx_valid_i = 0;
    m_.req_rx_last_i = 0;
    m_.rsp_rx_valid_i = 0;
    m_.rsp_tx_ready_i = 0;
    m_.rsp_ready_i = 0;
    beat_ = 0;
  }

  void drive(uint64_t) override {
    const bool gap = opt_.gap_pct && rng_.range(0, 99) < opt_.gap_pct;
    m_.req_rx_valid_i = !req_.empty() && !gap;
    if (!req_.empty()) {
      put_wide(m_.req_rx_data_i, req_.front().beats.at(beat_));
      m_.req_rx_last_i = beat_ + 1 == req_.front().beats.size();
    }
    m_.rsp_rx_valid_i = !rsp_in_.empty();
    if (!rsp_in_.empty()) put_wide(m_.rsp_rx_data_i, rsp_in_.front());
    m_.rsp_tx_ready_i = !(opt_.tx_stall_pct && rng_.range(0, 99) < opt_.tx_stall_pct);
    m_.rsp_ready_i = !(opt_.eng_stall_pct && rng_.range(0, 99) < opt_.eng_stall_pct) &&
                     ctrl_.cycle() >= opt_.eng_refuse_until;
  }

  void sample(uint64_t) override {
    if (m_.m_axi_wvalid_o && m_.m_axi_wready_i) {
      w_at_.push_back(ctrl_.cycle());
      if (m_.m_axi_wlast_o) wlast_at_.push_back(ctrl_.cycle());
    }
    if (m_.req_rx_valid_i && !m_.req_rx_ready_o) stall_at_.push_back(ctrl_.cycle());
    if (m_.req_rx_valid_i && m_.req_rx_ready_o) {
      if (++beat_ == req_.front().beats.size()) {
        req_.pop_front();
        beat_ = 0;
      }
    }
    if (m_.rsp_rx_valid_i && m_.rsp_rx_ready_o) {
      rsp_in_.pop_front();
      rsp_rx_at_.push_back(ctrl_.cycle());
    }
    if (m_.rsp_tx_valid_o && m_.rsp_tx_ready_i) {
      const WireHead h = WireHead::unpack(sim::wide_out(m_.rsp_tx_data_o).get<8>());
      sent_.push_back({h.wire_kind(), h.tid, h.seq, h.dst_node()});
    }
    if (m_.rsp_valid_o && m_.rsp_ready_i) {
      const auto r = ni::ni_pkg::rsp_t::unpack(uint64_t{m_.rsp_o});
      eng_.push_back(
          {r.nack ? WireKind::Nack : WireKind::Ack, uint16_t(r.tid), uint16_t(r.seq), kNode});
      eng_at_.push_back(ctrl_.cycle());
    }
    // statistics pulses, counters 16..26 (ICD 8)
    ctr_[0] += m_.stat_tx_rsp_o;
    ctr_[1] += m_.stat_rx_req_o + m_.stat_rx_rsp_o;
    ctr_[2] += m_.stat_hcrc_req_o + m_.stat_hcrc_rsp_o;
    ctr_[3] += m_.stat_pcrc_o;
    ctr_[4] += m_.stat_no_ctx_o;
    ctr_[5] += m_.stat_dup_o;
    ctr_[6] += m_.stat_misroute_req_o + m_.stat_misroute_rsp_o;
    ctr_[7] += m_.stat_ack_o;
    ctr_[8] += m_.stat_nack_o;
    ctr_[9] += m_.stat_notify_o;
    ctr_[10] += m_.stat_reclaim_o;
  }

 private:
  sim::RxMonitor::Ports rx_ports() {
    sim::RxMonitor::Ports p{};
    p.mem = sim::bind_axi_mem_write(m_, tie_);
    p.req_rx = {&m_.req_rx_valid_i, &m_.req_rx_ready_o, sim::wide_in(m_.req_rx_data_i),
                &m_.req_rx_last_i};
    p.rsp_rx = {&m_.rsp_rx_valid_i, &m_.rsp_rx_ready_o, sim::wide_in(m_.rsp_rx_data_i), nullptr};
    p.rsp_tx = {&m_.rsp_tx_valid_o, &m_.rsp_tx_ready_i, sim::wide_out(m_.rsp_tx_data_o), nullptr};
    return p;
  }
  // The monitor only reads the engine's port; here the unit drives it.
  sim::RspInPorts rsp_ports() {
    return {const_cast<uint8_t*>(&m_.rsp_valid_o), &m_.rsp_ready_i,
            const_cast<uint32_t*>(&m_.rsp_o)};
  }

  Options opt_;
  sim::Rng rng_;
  VerilatedContext ctx_;
  sim::VerilatedDut<Vrecv_unit> dut_;
  Vrecv_unit& m_;
  sim::AxiTie tie_;  // the read channels the receive unit does not have
  sim::EventBus bus_;
  sim::MemModel mem_;
  sim::RxMonitor rx_mon_;
  sim::RspInMonitor rsp_mon_;
  sim::RecvUnitChecker chk_;
  sim::SimCtrl ctrl_;
  std::deque<WirePacket> req_;
  std::size_t beat_ = 0;
  std::deque<ni::Bits512> rsp_in_;
  std::vector<Rsp> sent_, eng_;
  std::vector<uint64_t> rsp_rx_at_, eng_at_, w_at_, wlast_at_, stall_at_;
  std::array<uint64_t, ni::NumNodeStats> ctr_{};
};

void expect_clean(Bench& b) {
  b.finish();
  const auto e = b.errors();
  for (const auto& s : e) FAIL_CHECK(s);
  CHECK(e.empty());
}

// ---- packets ------------------------------------------------------------------------------
std::vector<uint8_t> some_bytes(sim::Rng& r, std::size_t n) {
  std::vector<uint8_t> v(n);
  for (auto& x : v) x = uint8_t(r.range(0, 255));
  return v;
}

uint64_t dst_of(uint16_t node, uint64_t a48) { return (uint64_t{node} << 48) | a48; }

// A block from node `src`: [dst, dst+len) inside one 64 KiB window, one data packet per
// 1 KiB destination window it touches (in order; the caller may reorder them).
std::vector<WirePacket> block_packets(uint16_t src, uint16_t tid, uint16_t seq, uint64_t dst,
                                      const std::vector<uint8_t>& bytes, bool notify = false) {
  const uint64_t end = dst + bytes.size();
  const unsigned npkts = unsigned(((end - 1) >> 10) - (dst >> 10)) + 1;
  std::vector<WirePacket> out;
  for (uint64_t a = dst; a < end;) {
    const uint64_t wend = std::min(end, (a | 1023) + 1);
    WireHead h;
    h.kind = uint8_t(WireKind::Data);
    h.tid = tid;
    h.seq = seq;
    h.len = uint16_t(wend - a);
    h.notify = notify;
    h.last = wend == end;
    h.npkts = uint8_t(npkts);
    h.pd = uint8_t(seq % 16);
    h.dst_addr = dst_of(kNode, a);
    h.src_node = src;
    h.xfer_id = uint16_t(tid % 2048);
    out.push_back(ni::make_data_packet(h, bytes.data() + (a - dst)));
    a = wend;
  }
  return out;
}

WirePacket inline_packet(uint16_t src, uint16_t tid, uint16_t seq, uint64_t dst,
                         const std::vector<uint8_t>& bytes, uint16_t to = kNode) {
  WireHead h;
  h.kind = uint8_t(WireKind::Inline);
  h.tid = tid;
  h.seq = seq;
  h.len = uint16_t(bytes.size());
  h.dst_addr = dst_of(to, dst);
  h.src_node = src;
  std::copy(bytes.begin(), bytes.end(), h.payload.begin());
  h.seal();
  return WirePacket{{h.pack()}};
}

// The control packet of a notify block: where its notification record goes.
WirePacket ctrl_packet(uint16_t src, uint16_t tid, uint16_t seq, uint64_t naddr, uint64_t ntag,
                       uint32_t size) {
  WireHead h;
  h.kind = uint8_t(WireKind::Ctrl);
  h.tid = tid;
  h.seq = seq;
  h.len = 32;
  h.notify = true;
  h.dst_addr = dst_of(kNode, 0);
  h.src_node = src;
  for (unsigned i = 0; i < 8; ++i) {
    h.payload[i] = uint8_t(naddr >> (8 * i));
    h.payload[8 + i] = uint8_t(ntag >> (8 * i));
  }
  for (unsigned i = 0; i < 4; ++i) h.payload[16 + i] = uint8_t(size >> (8 * i));
  h.payload[20] = 1;  // total_blocks
  h.seal();
  return WirePacket{{h.pack()}};
}

WirePacket bad_hcrc(WirePacket p) {
  p.beats[0][6] ^= 0x10;  // hcrc [415:384]
  return p;
}
WirePacket bad_pcrc(WirePacket p) {
  p.beats.at(1)[3] ^= 0x100;  // a payload bit
  return p;
}

Rsp ack(uint16_t tid, uint16_t seq, uint16_t to) { return {WireKind::Ack, tid, seq, to}; }
Rsp nack(uint16_t tid, uint16_t seq, uint16_t to) { return {WireKind::Nack, tid, seq, to}; }

}  // namespace

TEST_CASE("recv unit: head checks and drops", "[recv]") {
  Options o;
  Bench b(o);
  sim::Rng r(3);
  const auto in_bytes = some_bytes(r, 20);
  b.req(bad_hcrc(inline_packet(1, 10, 100, 0x1000, in_bytes)));   // 18, dropped
  b.req(inline_packet(1, 11, 101, 0x1000, in_bytes, kNode + 1));  // 22: another node's
  auto d = block_packets(2, 12, 102, 0x20000, some_bytes(r, 700));
  b.req(bad_hcrc(d[0]));                                    // a data packet: dropped whole
  b.req(bad_pcrc(d[0]));                                    // 19, NACK
  b.req(ni::make_response(WireKind::Ack, 1, 2, kNode, 3));  // a response on req_rx: 22
  b.req(inline_packet(1, 13, 103, 0x1010, in_bytes));       // good: written, ACKed
  CHECK(b.run());
  expect_clean(b);
  CHECK(b.ctr(ni::kCtrRx) == 6);
  CHECK(b.ctr(ni::kCtrHcrc) == 2);
  CHECK(b.ctr(ni::kCtrMisroute) == 2);
  CHECK(b.ctr(ni::kCtrPcrc) == 1);
  CHECK(b.ctr(ni::kCtrNack) == 1);
  CHECK(b.ctr(ni::kCtrAck) == 1);
  CHECK(b.sent() == std::vector<Rsp>{nack(12, 102, 2), ack(13, 103, 1)});
  CHECK(b.mem(0x1010, in_bytes.size()) == in_bytes);
}

TEST_CASE("recv unit: in-order and reordered data packets", "[recv]") {
  Options o;
  Bench b(o);
  sim::Rng r(4);
  const auto x = some_bytes(r, 4000), y = some_bytes(r, 3333), z = some_bytes(r, 1);
  b.req(block_packets(3, 20, 200, 0x40000 + 0x2A, x));  // 4 packets, in order
  auto p = block_packets(4, 21, 201, 0x50000 + 0x3C0, y);
  std::reverse(p.begin(), p.end());  // 4 packets, last first
  b.req(p);
  b.req(block_packets(3, 22, 202, 0x6FFFF, z));  // one byte, the window's last
  CHECK(b.run());
  expect_clean(b);
  CHECK(b.sent() == std::vector<Rsp>{ack(20, 200, 3), ack(21, 201, 4), ack(22, 202, 3)});
  CHECK(b.mem(0x4002A, x.size()) == x);
  CHECK(b.mem(0x503C0, y.size()) == y);
  CHECK(b.mem(0x6FFFF, 1) == z);
  CHECK(b.ctr(ni::kCtrAck) == 3);
  CHECK(b.ctr(ni::kCtrDup) == 0);
}

TEST_CASE("recv unit: duplicates and stale seqs", "[recv]") {
  Options o;
  Bench b(o);
  sim::Rng r(5);
  const auto x = some_bytes(r, 2048);
  const auto p = block_packets(6, 30, 300, 0x80000, x);
  const auto old = block_packets(6, 30, 299, 0x90000, some_bytes(r, 2048));
  const auto next = block_packets(6, 30, 301, 0xA0000, x);
  b.req(p[0]);
  b.req(p[0]);    // same slot again: 21
  b.req(old[1]);  // an older seq of the live context: 21, not written
  b.req(p[1]);    // completes the block: ACK
  REQUIRE(b.run());
  b.req(next[0]);  // a newer seq: a new block on the same key
  b.req(next[0]);  // 21
  b.req(next[1]);
  CHECK(b.run());
  expect_clean(b);
  CHECK(b.ctr(ni::kCtrDup) == 3);
  CHECK(b.sent() == std::vector<Rsp>{ack(30, 300, 6), ack(30, 301, 6)});
  CHECK(b.mem(0x80000, x.size()) == x);
  CHECK(b.mem(0xA0000, x.size()) == x);
  // the stale packet's bytes never reached memory
  CHECK(b.mem(0x90400, 1024) != std::vector<uint8_t>(old[1].bytes()));
}

TEST_CASE("recv unit: notification records", "[recv]") {
  const uint64_t naddr = GENERATE(uint64_t{0x7000}, uint64_t{0x7038});  // 0x38: two lines
  Options o;
  // the control packets arrive while the data's writes await their B: no record or ACK yet
  o.mem.wr_lat_min = o.mem.wr_lat_max = 150;
  Bench b(o);
  sim::Rng r(6);
  const auto x = some_bytes(r, 1500), y = some_bytes(r, 64);
  // control packet after the data
  b.req(block_packets(7, 40, 400, 0xB0000, x, true));
  b.req(ctrl_packet(7, 40, 400, naddr, 0x1122334455667788, 1500));
  // control packet first, and a second one of the same seq (21)
  b.req(ctrl_packet(8, 41, 401, naddr + 0x100, 0xAABB, 64));
  b.req(ctrl_packet(8, 41, 401, naddr + 0x100, 0xAABB, 64));
  b.req(block_packets(8, 41, 401, 0xC0000, y, true));
  CHECK(b.run());
  expect_clean(b);
  CHECK(b.sent() == std::vector<Rsp>{ack(40, 400, 7), ack(41, 401, 8)});
  CHECK(b.ctr(ni::kCtrNotify) == 2);
  CHECK(b.ctr(ni::kCtrDup) == 1);
  const auto rec1 = ni::notification_record(0x1122334455667788, 1500, 7);
  const auto rec2 = ni::notification_record(0xAABB, 64, 8);
  CHECK(b.mem(naddr, 16) == std::vector<uint8_t>(rec1.begin(), rec1.end()));
  CHECK(b.mem(naddr + 0x100, 16) == std::vector<uint8_t>(rec2.begin(), rec2.end()));
  CHECK(b.mem(0xB0000, x.size()) == x);
}

TEST_CASE("recv unit: inline packets", "[recv]") {
  Options o;
  Bench b(o);
  sim::Rng r(7);
  const std::array<std::pair<uint64_t, unsigned>, 6> cases{
      {{0x3000, 1}, {0x3041, 17}, {0x30A0, 32}, {0x30F0, 32}, {0x313F, 2}, {0x31C0, 31}}};
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<Rsp> want;
  for (unsigned i = 0; i < cases.size(); ++i) {
    bytes.push_back(some_bytes(r, cases[i].second));
    b.req(inline_packet(9, uint16_t(50 + i), uint16_t(500 + i), cases[i].first, bytes.back()));
    want.push_back(ack(uint16_t(50 + i), uint16_t(500 + i), 9));
  }
  CHECK(b.run());
  expect_clean(b);
  CHECK(b.sent() == want);
  for (unsigned i = 0; i < cases.size(); ++i) {
    INFO("inline packet " << i);
    CHECK(b.mem(cases[i].first, bytes[i].size()) == bytes[i]);
  }
}

TEST_CASE("recv unit: context exhaustion and idle reclaim", "[recv]") {
  Options o;
  o.rx_idle = 5000;  // longer than the 64 packets take to arrive
  Bench b(o);
  sim::Rng r(8);
  const auto x = some_bytes(r, 2048);
  // every context holds the first packet of a two-packet block
  for (uint16_t t = 0; t < kContexts; ++t)
    b.req(block_packets(10, t, 600, 0x100000 + 0x10000 * (t % 8), x)[0]);
  const auto extra = block_packets(11, 99, 700, 0x200000, x);
  b.req(extra[0]);  // no context free: 20
  REQUIRE(b.feed(200));
  CHECK(b.ctr(ni::kCtrNoCtx) == 1);
  CHECK(b.ctr(ni::kCtrReclaim) == 0);
  b.idle(8000);  // all 64 idle longer than RxIdle: reclaimed
  CHECK(b.ctr(ni::kCtrReclaim) == kContexts);
  b.req(extra);  // now it finds a context
  CHECK(b.run());
  expect_clean(b);
  CHECK(b.sent() == std::vector<Rsp>{ack(99, 700, 11)});
  CHECK(b.mem(0x200000, x.size()) == x);
}

TEST_CASE("recv unit: rsp_tx back-pressure keeps every response in order", "[recv]") {
  Options o;
  o.tx_stall_pct = 85;
  Bench b(o);
  sim::Rng r(9);
  std::vector<Rsp> want;
  for (uint16_t i = 0; i < 24; ++i) {
    const uint16_t tid = uint16_t(100 + i), seq = uint16_t(800 + i);
    if (i % 3 == 0) {
      b.req(bad_pcrc(block_packets(12, tid, seq, 0x300000, some_bytes(r, 200))[0]));
      want.push_back(nack(tid, seq, 12));
    } else {
      b.req(inline_packet(12, tid, seq, 0x4000 + 64 * i, some_bytes(r, 8)));
      want.push_back(ack(tid, seq, 12));
    }
  }
  CHECK(b.run());
  expect_clean(b);
  CHECK(b.sent() == want);
  CHECK(b.ctr(ni::kCtrRspSent) == want.size());
}

TEST_CASE("recv unit: write latency and AW/W back-pressure, ACK only after the last B", "[recv]") {
  const unsigned lat = GENERATE(1u, 60u);
  Options o;
  o.mem.wr_lat_min = 1;
  o.mem.wr_lat_max = lat;
  o.mem.aw_stall_pct = 40;
  o.mem.w_stall_pct = 40;
  o.seed = lat;
  Bench b(o);
  sim::Rng r(10 + lat);
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> wrote;
  for (uint16_t i = 0; i < 12; ++i) {
    const uint64_t a = 0x400000 + 0x10000 * i + r.range(0, 1023);
    wrote.push_back({a, some_bytes(r, r.range(1, 5000))});
    b.req(block_packets(13, uint16_t(200 + i), uint16_t(900 + i), a, wrote.back().second));
    const uint64_t ia = 0x500000 + 128 * i + r.range(0, 63);
    wrote.push_back({ia, some_bytes(r, r.range(1, 32))});
    b.req(inline_packet(13, uint16_t(300 + i), uint16_t(950 + i), ia, wrote.back().second));
  }
  CHECK(b.run());
  expect_clean(b);
  CHECK(b.sent().size() == 24);
  for (const auto& w : wrote) CHECK(b.mem(w.first, w.second.size()) == w.second);
}

// The next data packet's write waits in the writer's slot: its AW goes out during the current
// burst and its W beats follow the current burst's last beat at once, so that a stream of
// 1 KiB packets (18 beats each on req_rx, 16 on W) is taken at one beat a cycle.
TEST_CASE("recv unit: a stream of 1 KiB packets at one beat a cycle, writes back to back",
          "[recv]") {
  const unsigned lat = GENERATE(1u, 64u);
  Options o;
  o.mem.wr_lat_min = o.mem.wr_lat_max = lat;
  o.seed = 40 + lat;
  Bench b(o);
  sim::Rng r(o.seed);
  constexpr unsigned kBlocks = 6;
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> wrote;
  for (uint16_t i = 0; i < kBlocks; ++i) {
    const uint64_t a = 0x800000 + 0x10000 * i;  // 16 packets of 1 KiB, line-aligned
    wrote.push_back({a, some_bytes(r, 16 * 1024)});
    b.req(block_packets(21, uint16_t(400 + i), uint16_t(10 + i), a, wrote.back().second));
  }
  CHECK(b.run());
  expect_clean(b);
  CHECK(b.sent().size() == kBlocks);
  for (const auto& w : wrote) CHECK(b.mem(w.first, w.second.size()) == w.second);
  // every beat of every packet taken without a stall
  CHECK(b.req_stall_cycles().empty());
  // 96 bursts of 16 beats, in order (each burst's first beat after the previous burst's last)
  // and each in 16 consecutive cycles (checked below); counted: bursts whose first beat is in
  // the cycle right after the previous burst's last
  const auto& wl = b.wlast_cycles();
  REQUIRE(wl.size() == 16 * kBlocks);
  const auto& w = b.w_cycles();
  REQUIRE(w.size() == 16 * wl.size());
  unsigned back_to_back = 0;
  for (std::size_t k = 1; k < wl.size(); ++k) {
    const uint64_t first = w[16 * k];
    CHECK(first > wl[k - 1]);
    back_to_back += first == wl[k - 1] + 1;
  }
  // the writer is faster than req_rx (16 beats against 18) and waits for packets; behind
  // each block's completion check and ACK (decided while the writer is idle) it has a packet
  // in hand, and catches up with the slot: the next burst's beats follow the last at once
  CHECK(back_to_back >= kBlocks - 1);
  for (std::size_t k = 0; k < wl.size(); ++k) CHECK(wl[k] - w[16 * k] == 15);
}

TEST_CASE("recv unit: responses from rsp_rx to the engine", "[recv]") {
  Options o;
  o.eng_stall_pct = 60;
  Bench b(o);
  std::vector<Rsp> want;
  for (uint16_t i = 0; i < 10; ++i) {
    const auto k = i % 2 ? WireKind::Nack : WireKind::Ack;
    b.rsp_rx(ni::make_response(k, uint16_t(i * 7), uint16_t(i * 1000 + 1), kNode, 2));
    want.push_back({k, uint16_t(i * 7), uint16_t(i * 1000 + 1), kNode});
  }
  b.rsp_rx(bad_hcrc(ni::make_response(WireKind::Ack, 1, 1, kNode, 2)));     // 18
  b.rsp_rx(ni::make_response(WireKind::Ack, 1, 1, kNode + 1, 2));           // 22
  b.rsp_rx(inline_packet(2, 1, 1, 0x1000, std::vector<uint8_t>(4, 0xEE)));  // 22: not a response
  CHECK(b.run());
  expect_clean(b);
  CHECK(b.to_engine() == want);
  CHECK(b.ctr(ni::kCtrHcrc) == 1);
  CHECK(b.ctr(ni::kCtrMisroute) == 2);
  CHECK(b.ctr(ni::kCtrRx) == 13);
  CHECK(b.sent().empty());
}

// The response path (docs/design.md sections 15, 20): rsp_rx_ready is made of registers, a
// response goes through the input register (its hcrc checked on the way in) and reaches the
// engine two cycles after its beat, one a cycle; while the engine refuses, two wait in the
// FIFO, a third in the input register, and the fourth waits on rsp_rx.
// Offers n responses (TIDs 0.., seqs seq0..) back to back on rsp_rx and runs until all reached
// the engine, in order.
void offer_responses(Bench& b, uint16_t n, WireKind k, uint16_t seq0) {
  for (uint16_t i = 0; i < n; ++i) b.rsp_rx(ni::make_response(k, i, uint16_t(seq0 + i), kNode, 2));
  CHECK(b.run());
  expect_clean(b);
  REQUIRE(b.rsp_rx_cycles().size() == n);
  REQUIRE(b.engine_cycles().size() == n);
  for (uint16_t i = 0; i < n; ++i) CHECK(b.to_engine()[i].seq == seq0 + i);
}

TEST_CASE("recv unit: response path, one response a cycle, three held", "[recv]") {
  SECTION("the engine takes every cycle") {
    Bench b(Options{});
    offer_responses(b, 16, WireKind::Ack, 100);
    const auto& rx = b.rsp_rx_cycles();
    const auto& eng = b.engine_cycles();
    for (std::size_t i = 0; i < 16; ++i) {
      INFO("response " << i);
      CHECK(rx[i] == rx[0] + i);   // back to back on rsp_rx
      CHECK(eng[i] == rx[i] + 2);  // at the engine two cycles later
    }
  }
  SECTION("the engine refuses for a while") {
    Options o;
    o.eng_refuse_until = 200;
    Bench b(o);
    offer_responses(b, 5, WireKind::Nack, 7);
    const auto& rx = b.rsp_rx_cycles();
    const auto& eng = b.engine_cycles();
    CHECK(rx[2] < 200);   // two taken into the FIFO, one into the input register
    CHECK(rx[3] >= 200);  // the fourth waited on rsp_rx
    CHECK(eng[0] == 200);
    for (std::size_t i = 1; i < 5; ++i) CHECK(eng[i] == eng[i - 1] + 1);
    CHECK(b.ctr(ni::kCtrRx) == 5);
  }
}

TEST_CASE("recv unit: random traffic against the model", "[recv][random]") {
  const uint64_t seed = GENERATE(range(1u, 9u));
  Options o;
  o.seed = seed;
  o.mem.wr_lat_min = 1;
  o.mem.wr_lat_max = unsigned(seed * 20);
  o.mem.aw_stall_pct = unsigned(seed * 7 % 50);
  o.mem.w_stall_pct = unsigned(seed * 5 % 40);
  o.tx_stall_pct = unsigned(seed * 15 % 90);
  o.eng_stall_pct = 30;
  o.gap_pct = 20;
  o.rx_idle = seed % 2 ? 2000 : 65536;
  Bench b(o);
  sim::Rng r(seed * 101);
  unsigned ctrl_blocks = 0;
  for (unsigned i = 0; i < 150; ++i) {
    const uint16_t src = uint16_t(r.range(0, 7));
    const uint16_t tid = uint16_t(r.range(0, 1023));
    const uint16_t seq = uint16_t(r.range(0, 16383));
    const unsigned what = unsigned(r.range(0, 9));
    if (what < 3) {
      const uint64_t a = (r.range(0, 255) << 16) | r.range(0, 65535 - 32);
      auto p = inline_packet(src, tid, seq, a, some_bytes(r, r.range(1, 32)));
      b.req(what == 0 && r.range(0, 3) == 0 ? bad_hcrc(p) : p);
    } else if (what < 9) {
      const unsigned len = unsigned(r.range(1, what < 6 ? 1500 : 9000));
      const uint64_t a = (r.range(0, 255) << 16) | r.range(0, 65536 - len);
      const bool notify = r.range(0, 4) == 0;
      auto p = block_packets(src, tid, seq, a, some_bytes(r, len), notify);
      if (r.range(0, 2) == 0) std::reverse(p.begin(), p.end());
      if (r.range(0, 5) == 0) p.push_back(p.front());           // a duplicate
      if (r.range(0, 7) == 0) p.front() = bad_pcrc(p.front());  // NACKed
      if (r.range(0, 9) == 0 && p.size() > 1) p.pop_back();     // a packet lost
      b.req(p);
      if (notify) {
        ++ctrl_blocks;
        b.req(ctrl_packet(src, tid, seq, 0x7F000000 + 64 * i + r.range(0, 48), r.range(0, 1 << 30),
                          len));
      }
    } else {
      b.rsp_rx(
          ni::make_response(r.range(0, 1) ? WireKind::Ack : WireKind::Nack, tid, seq, kNode, src));
    }
  }
  CHECK(b.run());
  expect_clean(b);
  INFO("seed " << seed << ": " << b.sent().size() << " responses, " << ctrl_blocks
               << " notify blocks");
  CHECK(b.ctr(ni::kCtrRx) > 150);
  CHECK(b.ctr(ni::kCtrRspSent) == b.sent().size());
}
