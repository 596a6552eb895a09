// SPDX-License-Identifier: Apache-2.0
// One ni_node on a loopback network (ICD 10-13, 15 with --nodes 1): its req_tx feeds its own
// req_rx and its rsp_tx its own rsp_rx, through a C++ link that can drop, corrupt or
// duplicate a chosen packet. The CPU writes descriptors over AXI and polls status; the
// memory model (sim/agents/mem_model) serves reads and writes. Checked: every transfer ends
// DONE, the destination bytes equal the source bytes (the memory pattern of ICD 15), the
// notification record is in memory, every req_tx packet is as the send-unit model predicts,
// and the statistics counters 16-26 read over AXI count what happened. The receive unit's
// golden model (ref_model/recv, RecvChecker) watches req_rx, rsp_rx, the memory writes, rsp_tx
// and the engine's rsp port in every case and must report nothing.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "Vni_node.h"
#include "ref_model/common/addr_map.hpp"
#include "ref_model/common/bits.hpp"
#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/wire.hpp"
#include "ref_model/recv/recv_model.hpp"
#include "ref_model/send/send_model.hpp"
#include "sim/agents/axi_master.hpp"
#include "sim/agents/mem_model.hpp"
#include "sim/agents/rx_observer.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/sim_ctrl.hpp"
#include "sim/tb/bind.hpp"

namespace {

using ni::Bits512;
using ni::WirePacket;

constexpr uint16_t kNode = 0;
constexpr uint64_t kDstBase = uint64_t{1} << 47;

// What the link does to the next packet that matches.
struct Fault {
  enum Action { None, Drop, Corrupt, Dup } action = None;
  unsigned kind = 2;
  unsigned nth = 0;  // the nth packet of that kind (0 = the first)
};

// The loopback link of one stream: whole packets from tx, delivered beat by beat to rx.
class Link {
 public:
  Link(const uint8_t* tx_valid, uint8_t* tx_ready, const VlWide<16>* tx_data,
       const uint8_t* tx_last, uint8_t* rx_valid, const uint8_t* rx_ready, VlWide<16>* rx_data,
       uint8_t* rx_last)
      : txv_(tx_valid),
        txr_(tx_ready),
        txd_(tx_data),
        txl_(tx_last),
        rxv_(rx_valid),
        rxr_(rx_ready),
        rxd_(rx_data),
        rxl_(rx_last) {}
  // Arms a fault; `nth` counts packets of its kind from now on.
  void set_fault(Fault f) {
    fault_ = f;
    seen_ = 0;
  }
  std::vector<WirePacket> sent;  // every packet that left tx
  std::function<void(const WirePacket&)> on_tx;
  std::function<void(const WirePacket&)> on_rx;  // a packet's last beat accepted by rx
  bool hold_tx = false;                          // tx ready held low (back-pressure)

  void drive() {
    *txr_ = !hold_tx;
    *rxv_ = !q_.empty();
    if (!q_.empty()) {
      sim::wide_in(*rxd_).set<8>(q_.front().beats[beat_]);
      if (rxl_) *rxl_ = beat_ + 1 == q_.front().beats.size();
    }
  }
  void sample() {
    if (*rxv_ && *rxr_) {
      if (++beat_ == q_.front().beats.size()) {
        if (on_rx) on_rx(q_.front());
        q_.pop_front();
        beat_ = 0;
      }
    }
    if (*txv_ && *txr_) {
      cur_.beats.push_back(sim::wide_out(*txd_).get<8>());
      if (!txl_ || *txl_) {
        sent.push_back(cur_);
        if (on_tx) on_tx(cur_);
        deliver(cur_);
        cur_.beats.clear();
      }
    }
  }
  bool busy() const { return !q_.empty() || !cur_.beats.empty(); }
  // A packet into rx, behind whatever is queued (the packet injector of the directed tests).
  void inject(const WirePacket& p) { q_.push_back(p); }

 private:
  void deliver(WirePacket p) {
    if (fault_.action != Fault::None && p.head().kind == fault_.kind) {
      if (seen_++ == fault_.nth) {
        const auto a = fault_.action;
        fault_.action = Fault::None;
        if (a == Fault::Drop) return;
        if (a == Fault::Corrupt) p.beats[p.beats.size() > 1 ? 1 : 0][2] ^= 0x10;
        if (a == Fault::Dup) q_.push_back(p);
      }
    }
    q_.push_back(std::move(p));
  }
  const uint8_t* txv_;
  uint8_t* txr_;
  const VlWide<16>* txd_;
  const uint8_t* txl_;
  uint8_t* rxv_;
  const uint8_t* rxr_;
  VlWide<16>* rxd_;
  uint8_t* rxl_;
  Fault fault_;
  std::deque<WirePacket> q_;
  std::size_t beat_ = 0;
  WirePacket cur_;
  unsigned seen_ = 0;
};

class Node : public sim::Component {
 public:
  explicit Node(sim::MemOptions mo = {})
      : rng_(1),
        dut_(ctx_, "node0"),
        m_(dut_.model()),
        axi_(sim::bind_axi_slave(m_), rng_),
        mem_(sim::bind_axi_mem(m_), rng_, mo, kNode, bus_),
        req_(&m_.req_tx_valid_o, &m_.req_tx_ready_i, &m_.req_tx_data_o, &m_.req_tx_last_o,
             &m_.req_rx_valid_i, &m_.req_rx_ready_o, &m_.req_rx_data_i, &m_.req_rx_last_i),
        rsp_(&m_.rsp_tx_valid_o, &m_.rsp_tx_ready_i, &m_.rsp_tx_data_o, nullptr, &m_.rsp_rx_valid_i,
             &m_.rsp_rx_ready_o, &m_.rsp_rx_data_i, nullptr),
        chk_(kNode, mem_.image()),
        rchk_(kNode),
        ctrl_(ctx_) {
    ctrl_.add_dut(dut_);
    ctrl_.add(axi_);
    ctrl_.add(*this);
    ctrl_.add(mem_);
    m_.node_id_i = kNode;
    req_.on_tx = [&](const WirePacket& p) {
      for (auto& e : chk_.on_tx(p)) errors_.push_back("req_tx: " + e);
    };
    req_.on_rx = [&](const WirePacket& p) { recv_errors(rchk_.on_req_rx(p, ctrl_.cycle())); };
    rsp_.on_rx = [&](const WirePacket& p) { recv_errors(rchk_.on_rsp_rx(p, ctrl_.cycle())); };
    ctrl_.reset();
    REQUIRE(ctrl_.run_until([&] { return m_.init_done_o != 0; }, 5000));
  }

  Link& req() { return req_; }
  Link& rsp() { return rsp_; }
  sim::MemModel& mem() { return mem_; }
  ni::RecvChecker& recv() { return rchk_; }
  const std::vector<std::string>& errors() const { return errors_; }

  void on_reset() override {
    m_.req_rx_valid_i = 0;
    m_.rsp_rx_valid_i = 0;
    m_.req_tx_ready_i = 0;
    m_.rsp_tx_ready_i = 0;
  }
  void drive(uint64_t) override {
    req_.drive();
    rsp_.drive();
  }
  void sample(uint64_t cycle) override {
    if (m_.trace_blk_valid_o && m_.trace_blk_ready_o) {
      ni::Bits256 d{};
      for (unsigned i = 0; i < 8; ++i)
        d[i / 2] |= uint64_t{m_.trace_blk_desc_o[i]} << (32 * (i % 2));
      chk_.on_block(ni::BlockDesc::unpack(d), m_.trace_blk_tid_o);
    }
    if (m_.trace_pkt_valid_o && m_.trace_pkt_ready_o)
      chk_.on_engine_packet(ni::Packet::unpack(sim::wide_out(m_.trace_pkt_data_o).get<8>()));
    watch_recv(cycle);
    req_.sample();
    rsp_.sample();
    if (m_.trace_rsp_valid_o && m_.trace_rsp_ready_o) {
      const uint32_t r = m_.trace_rsp_o;  // rsp_t: nack [0], tid [10:1], seq [24:11]
      recv_errors(rchk_.on_engine_rsp(uint16_t((r >> 1) & 0x3FF), uint16_t(r >> 11), r & 1));
    }
  }
  bool busy() const override { return req_.busy() || rsp_.busy(); }

  uint8_t write_words(uint32_t addr, const std::vector<uint64_t>& words) {
    sim::AxiWrite w;
    w.addr = addr;
    w.size = 4;
    for (std::size_t i = 0; i < words.size(); i += 2) {
      sim::AxiBeat b;
      b.lo = words[i];
      b.hi = i + 1 < words.size() ? words[i + 1] : 0;
      b.strb = i + 1 < words.size() ? 0xFFFF : 0x00FF;
      w.beats.push_back(b);
    }
    w.beats.back().last = true;
    uint8_t resp = 0xFF;
    axi_.write(w, [&](const sim::AxiWrite& d) { resp = d.resp; });
    REQUIRE(ctrl_.run_until([&] { return resp != 0xFF; }, 10000));
    return resp;
  }
  uint64_t read_word(uint32_t addr) {
    sim::AxiRead r;
    r.addr = addr;
    r.size = 3;
    bool done = false;
    uint64_t v = 0;
    axi_.read(r, [&](const sim::AxiRead& d) {
      v = d.data.at(0);
      done = true;
    });
    REQUIRE(ctrl_.run_until([&] { return done; }, 10000));
    return v;
  }
  void submit(const ni::Descriptor& d) {
    const auto lines = d.encode_lines();
    for (std::size_t l = 0; l < lines.size(); ++l)
      REQUIRE(write_words(ni::desc_addr(d.page, d.channel + unsigned(l)),
                          std::vector<uint64_t>(lines[l].begin(), lines[l].end())) == 0);
  }
  // Polls the channel's status until it leaves BUSY; returns the final status.
  unsigned wait_status(const ni::Descriptor& d, uint64_t limit = 400000) {
    const uint64_t end = ctrl_.cycle() + limit;
    while (ctrl_.cycle() < end) {
      const unsigned s = unsigned(read_word(ni::status_addr(d.page, d.channel)) & 3);
      if (s != unsigned(ni::Status::Busy)) return s;
      ctrl_.run_until([] { return false; }, 50);
    }
    return 0xFF;
  }
  void settle(uint64_t n = 2000) {
    ctrl_.run_until([&] { return !busy() && !mem_.busy() && !m_.trace_rx_busy_o; }, n);
  }
  uint64_t stat(unsigned i) { return read_word(ni::stat_addr(i)); }
  void set_rx_idle(uint64_t cycles) {
    REQUIRE(write_words(ni::ctrl_addr(2), {cycles}) == 0);
    rchk_.set_rx_idle(cycles);
  }
  // The receive checker's end: everything it expected was seen, counters 17-26 agree.
  void finish_recv() {
    recv_errors(rchk_.finish(cycle()));
    check_recv_counters();
  }
  // Counters 17-26 against the receive checker; they also tell it which way an invisible
  // decision went (a drop for want of a context, a reclaim).
  void check_recv_counters() {
    std::array<uint64_t, 11> v{};
    for (unsigned i = 17; i <= 26; ++i) v[i - 16] = stat(i);
    recv_errors(rchk_.compare_counters(cycle(), v));
  }
  bool rx_busy() const { return m_.trace_rx_busy_o; }
  uint64_t cycle() const { return ctrl_.cycle(); }
  void run(uint64_t n) {
    ctrl_.run_until([] { return false; }, n);
  }

 private:
  sim::Rng rng_;
  VerilatedContext ctx_;
  sim::VerilatedDut<Vni_node> dut_;
  Vni_node& m_;
  sim::EventBus bus_;
  sim::AxiMaster axi_;
  sim::MemModel mem_;
  Link req_, rsp_;
  ni::SendChecker chk_;
  ni::RecvChecker rchk_;
  sim::SimCtrl ctrl_;
  std::vector<std::string> errors_;
  // receive-side port monitor state
  sim::RxObserver rx_obs_{sim::bind_axi_mem(m_),
                          sim::StreamTxPorts{&m_.rsp_tx_valid_o, &m_.rsp_tx_ready_i,
                                             sim::wide_out(m_.rsp_tx_data_o), nullptr}};

  void recv_errors(const std::vector<std::string>& v) {
    for (const auto& e : v) errors_.push_back("recv: " + e);
  }
  // What the receive unit decided this cycle (sim/agents/rx_observer); packets accepted on
  // req_rx/rsp_rx and the engine's rsp port follow in sample.
  void watch_recv(uint64_t cycle) { recv_errors(rx_obs_.watch(rchk_, cycle)); }
};

ni::Descriptor mem_xfer(unsigned ch, uint64_t src, uint64_t dst_off, uint32_t size,
                        bool notify = false) {
  ni::Descriptor d;
  d.page = 0;
  d.channel = ch;
  d.kind = ni::Kind::OneFid;
  d.src = src;
  d.dst = (uint64_t{kNode} << 48) | kDstBase | dst_off;
  d.size = size;
  d.prio = 3;
  d.notify = notify;
  if (notify) {
    d.notify_addr = (uint64_t{kNode} << 48) | kDstBase | 0x40000000ull | (dst_off & 0xFFFF);
    d.notify_tag = 0xABCD000000000000ull | dst_off;
  }
  return d;
}

void expect_copied(Node& n, const ni::Descriptor& d) {
  const auto& img = n.mem().image();
  const auto got = img.read(d.dst, d.size);
  std::vector<uint8_t> want(d.size);
  for (uint32_t i = 0; i < d.size; ++i) want[i] = ni::pattern_byte(kNode, d.src + i);
  CHECK(got == want);
  if (d.notify) {
    const auto rec = ni::notification_record(d.notify_tag, d.size, kNode);
    CHECK(img.read(d.notify_addr, 16) == std::vector<uint8_t>(rec.begin(), rec.end()));
  }
}

void expect_clean(Node& n) {
  n.finish_recv();
  CHECK(n.recv().responses_sent() > 0);  // the receive checker saw the node answer
  for (const auto& e : n.errors()) FAIL_CHECK(e);
  for (const auto& e : n.mem().errors()) FAIL_CHECK(e.what);
  CHECK(n.errors().empty());
  CHECK(n.mem().errors().empty());
}

}  // namespace

TEST_CASE("ni_node loopback: memory transfers arrive intact and complete DONE", "[top]") {
  Node n;
  const uint32_t sizes[] = {1, 100, 1024, 5000, 70000};
  unsigned ch = 0;
  std::vector<ni::Descriptor> ds;
  for (uint32_t sz : sizes) {
    ds.push_back(mem_xfer(ch, 0x10000 + 0x100000 * ch + 7 * ch, 0x200000 * ch + 3 * ch, sz));
    n.submit(ds.back());
    ch += 2;
  }
  for (const auto& d : ds) {
    INFO("channel " << d.channel << " size " << d.size);
    CHECK(n.wait_status(d) == unsigned(ni::Status::Done));
    expect_copied(n, d);
  }
  n.settle();
  CHECK_FALSE(n.rx_busy());
  expect_clean(n);
  // counters: every packet sent was received (loopback), one ACK per block
  const uint64_t sent = n.stat(16), recvd = n.stat(17), acks = n.stat(23);
  CHECK(sent == recvd);
  CHECK(acks == n.stat(5));  // ACKs sent = ACKs the engine accepted
  CHECK(n.stat(18) == 0);
  CHECK(n.stat(19) == 0);
  CHECK(n.stat(21) == 0);
}

TEST_CASE("ni_node loopback: notification record written, inline data written", "[top]") {
  Node n;
  const auto d = mem_xfer(4, 0x5003, 0x1000, 3000, true);
  n.submit(d);
  CHECK(n.wait_status(d) == unsigned(ni::Status::Done));
  expect_copied(n, d);
  ni::Descriptor in;
  in.page = 0;
  in.channel = 8;
  in.kind = ni::Kind::Inline;
  in.dst = kDstBase | 0x7FFF3;  // crosses a line
  in.size = 20;
  for (unsigned i = 0; i < 20; ++i) in.payload.push_back(uint8_t(0xC0 + i));
  n.submit(in);
  CHECK(n.wait_status(in) == unsigned(ni::Status::Done));
  CHECK(n.mem().image().read(in.dst, 20) == in.payload);
  n.settle();
  CHECK(n.stat(25) == 1);
  expect_clean(n);
}

TEST_CASE("ni_node loopback: a corrupted payload is NACKed and re-sent", "[top]") {
  Node n;
  n.req().set_fault(Fault{Fault::Corrupt, 2, 1});
  const auto d = mem_xfer(0, 0x9000, 0x30000, 3000);
  n.submit(d);
  // the corrupted packet never lands unverified; the NACK re-issues its block (ICD 14: same
  // TID, new seq, retx), whose packets arrive intact, so the transfer ends DONE
  const unsigned st = n.wait_status(d);
  CHECK(st == unsigned(ni::Status::Done));
  expect_copied(n, d);
  n.settle();
  CHECK(n.stat(19) == 1);
  CHECK(n.stat(24) == 1);
  CHECK(n.stat(6) == 1);
  CHECK(n.stat(8) == 1);
  expect_clean(n);
}

TEST_CASE("ni_node loopback: duplicates and a corrupted head are dropped and counted", "[top]") {
  Node n;
  n.req().set_fault(Fault{Fault::Dup, 2, 0});
  const auto d = mem_xfer(0, 0x9000, 0x30000, 3000);
  n.submit(d);
  CHECK(n.wait_status(d) == unsigned(ni::Status::Done));
  expect_copied(n, d);
  n.settle();
  CHECK(n.stat(21) == 1);

  n.req().set_fault(Fault{Fault::Corrupt, 0, 0});  // inline: the head beat itself
  ni::Descriptor in;
  in.page = 0;
  in.channel = 10;
  in.kind = ni::Kind::Inline;
  in.dst = kDstBase | 0x90000;
  in.size = 8;
  in.payload.assign(8, 0x5A);
  n.submit(in);
  n.run(3000);
  CHECK(n.stat(18) == 1);  // silently dropped: no ACK, no NACK, transfer stays BUSY
  CHECK(n.mem().image().untouched(in.dst, 8));
  expect_clean(n);
}

namespace {

constexpr uint16_t kPeer = 5;  // the injected packets' sender (its ACKs leave as misrouted)

// Block `len` bytes from `src` of node kPeer to `dst` of this node, tid/seq as given.
ni::BlockDesc peer_block(uint64_t src, uint64_t dst_off, uint32_t len, uint16_t seq,
                         bool notify = false) {
  ni::BlockDesc b;
  b.src_addr = src;
  b.dst_addr = (uint64_t{kNode} << 48) | kDstBase | dst_off;
  b.len_m1 = uint16_t(len - 1);
  b.seq = seq;
  b.notify = notify;
  return b;
}

WirePacket peer_ctrl(uint16_t tid, uint16_t seq, uint64_t naddr, uint64_t tag, uint32_t size) {
  ni::Packet p;
  p.hdr.kind = ni::PktKindCtrl;
  p.hdr.tid = tid;
  p.hdr.seq = seq;
  p.hdr.len = 32;
  p.hdr.notify = true;
  p.hdr.dst_addr = (uint64_t{kNode} << 48) | kDstBase;
  ni::CtrlPayload c;
  c.notify_addr = naddr;
  c.notify_tag = tag;
  c.size = size;
  c.total_blocks = 1;
  p.payload = c.pack();
  p.seal();
  return ni::head_packet(p, kPeer);
}

// The ACKs/NACKs node 0 sent: (kind, tid, seq).
std::vector<std::array<unsigned, 3>> responses(Node& n) {
  std::vector<std::array<unsigned, 3>> v;
  for (const auto& p : n.rsp().sent) {
    const auto h = p.head();
    CHECK(h.dst_node() == kPeer);
    CHECK(p.hcrc_ok());
    v.push_back({h.kind, h.tid, h.seq});
  }
  return v;
}

void expect_block_data(Node& n, const ni::BlockDesc& b, const ni::MemImage& peer) {
  const uint32_t len = uint32_t(b.len_m1) + 1;
  CHECK(n.mem().image().read(b.dst_addr, len) == peer.read(b.src_addr, len));
}

}  // namespace

TEST_CASE("receive unit: a block's packets in any order, then one ACK", "[top][recv]") {
  Node n;
  ni::MemImage peer(kPeer);
  const auto b = peer_block(0x1234, 0x10100, 5000, 40);
  auto pk = ni::block_packets(b, 7, kPeer, peer);
  REQUIRE(pk.size() == 6);  // 0x10100..0x11487: destination windows 64..69
  std::reverse(pk.begin(), pk.end());
  std::swap(pk[1], pk[3]);
  for (const auto& p : pk) n.req().inject(p);
  n.settle(20000);
  expect_block_data(n, b, peer);
  const auto r = responses(n);
  REQUIRE(r.size() == 1);
  CHECK(r[0] == std::array<unsigned, 3>{3, 7, 40});
  CHECK_FALSE(n.rx_busy());  // context freed
  expect_clean(n);
}

TEST_CASE("receive unit: control packet before, between and after the data", "[top][recv]") {
  const unsigned where = GENERATE(0u, 1u, 3u);
  Node n;
  ni::MemImage peer(kPeer);
  const auto b = peer_block(0x8000, 0x20000, 3000, 9, true);
  const auto pk = ni::block_packets(b, 11, kPeer, peer);
  REQUIRE(pk.size() == 3);
  const uint64_t naddr = kDstBase | 0x50000030;  // straddles no line: bytes 48..63
  const auto ctrl = peer_ctrl(11, 9, naddr, 0x1122334455667788ull, 3000);
  for (unsigned i = 0; i <= pk.size(); ++i) {
    if (i == where) n.req().inject(ctrl);
    if (i < pk.size()) n.req().inject(pk[i]);
  }
  n.settle(20000);
  expect_block_data(n, b, peer);
  const auto rec = ni::notification_record(0x1122334455667788ull, 3000, kPeer);
  CHECK(n.mem().image().read(naddr, 16) == std::vector<uint8_t>(rec.begin(), rec.end()));
  const auto r = responses(n);
  REQUIRE(r.size() == 1);
  CHECK(r[0] == std::array<unsigned, 3>{3, 11, 9});
  CHECK(n.stat(25) == 1);
  expect_clean(n);
}

TEST_CASE("receive unit: a newer seq restarts the context, an older one is stale", "[top][recv]") {
  Node n;
  ni::MemImage peer(kPeer);
  const auto old_b = peer_block(0x4000, 0x30000, 2048, 100);
  const auto new_b = peer_block(0x4000, 0x30000, 2048, 101);
  const auto p_old = ni::block_packets(old_b, 3, kPeer, peer);
  const auto p_new = ni::block_packets(new_b, 3, kPeer, peer);
  n.req().inject(p_old[0]);  // block 100 starts
  n.req().inject(p_new[1]);  // the re-issue (101) restarts the context
  n.req().inject(p_old[1]);  // stale
  n.req().inject(p_new[0]);
  n.settle(20000);
  const auto r = responses(n);
  REQUIRE(r.size() == 1);
  CHECK(r[0] == std::array<unsigned, 3>{3, 3, 101});
  CHECK(n.stat(21) == 1);
  expect_block_data(n, new_b, peer);
  expect_clean(n);
}

TEST_CASE("receive unit: contexts exhausted drop without NACK; idle contexts reclaimed",
          "[top][recv]") {
  Node n;
  ni::MemImage peer(kPeer);
  n.set_rx_idle(5000);  // RxIdle
  CHECK(n.read_word(ni::ctrl_addr(2)) == 5000);
  CHECK(n.read_word(ni::ctrl_addr(3)) == kNode);
  CHECK(n.write_words(ni::ctrl_addr(3), {7}) == 2);  // read-only: SLVERR
  // 64 blocks of two packets each, only the first packet of each: 64 live contexts
  for (uint16_t t = 0; t < 64; ++t) {
    const auto b = peer_block(0x100000 + 0x1000 * t, 0x100000 + 0x800 * t, 2048, 1);
    n.req().inject(ni::block_packets(b, t, kPeer, peer)[0]);
  }
  const auto b65 = peer_block(0x900000, 0x900000, 100, 1);
  n.req().inject(ni::block_packets(b65, 64, kPeer, peer)[0]);  // no context left
  n.run(3000);
  CHECK(n.stat(20) == 1);
  n.check_recv_counters();
  CHECK(responses(n).empty());  // no NACK for a missing context
  CHECK(n.mem().image().untouched(b65.dst_addr, 100));
  // after RxIdle cycles without packets every context is reclaimed
  n.run(6000);
  CHECK(n.stat(26) == 64);
  CHECK_FALSE(n.rx_busy());
  // and the dropped block now gets a context
  n.req().inject(ni::block_packets(b65, 64, kPeer, peer)[0]);
  n.settle(5000);
  expect_block_data(n, b65, peer);
  const auto r = responses(n);
  REQUIRE(r.size() == 1);
  CHECK(r[0] == std::array<unsigned, 3>{3, 64, 1});
  expect_clean(n);
}

TEST_CASE("receive unit: write latency 128 and back-pressure on every memory channel",
          "[top][recv]") {
  sim::MemOptions mo;
  mo.wr_lat_min = 1;
  mo.wr_lat_max = 128;
  mo.rd_lat_max = 128;
  mo.aw_stall_pct = 40;
  mo.w_stall_pct = 40;
  mo.ar_stall_pct = 40;
  Node n(mo);
  std::vector<ni::Descriptor> ds;
  for (unsigned ch = 0; ch < 6; ++ch) {
    ds.push_back(mem_xfer(2 * ch, 0x40000 + 0x20000 * ch + 13 * ch, 0x400000 * ch + 5 * ch,
                          4000 + 3000 * ch, ch % 2 == 1));
    n.submit(ds.back());
  }
  for (const auto& d : ds) {
    CHECK(n.wait_status(d, 2000000) == unsigned(ni::Status::Done));
    expect_copied(n, d);
  }
  n.settle(20000);
  expect_clean(n);
}

TEST_CASE("receive checker: a wrong observation is reported", "[top][recv]") {
  Node n;
  ni::MemImage peer(kPeer);
  const auto b = peer_block(0x2000, 0x40010, 300, 21);
  n.req().inject(ni::block_packets(b, 7, kPeer, peer)[0]);
  n.settle(5000);
  REQUIRE(responses(n).size() == 1);
  expect_clean(n);
  auto& c = n.recv();
  // the same ACK again, a NACK nobody earned, a write nobody asked for, a B without a write
  CHECK_FALSE(
      c.on_rsp_tx(ni::make_response(ni::WireKind::Ack, 7, 21, kPeer, kNode), n.cycle()).empty());
  CHECK_FALSE(
      c.on_rsp_tx(ni::make_response(ni::WireKind::Nack, 7, 21, kPeer, kNode), n.cycle()).empty());
  ni::RxBurst w;
  w.aw_cycle = n.cycle();
  w.done_cycle = n.cycle() + 1;
  w.addr = (kDstBase | 0x40000) & ((uint64_t{1} << 48) - 1);
  w.data = {Bits512{}};
  w.strb = {~uint64_t{0}};
  CHECK_FALSE(c.on_burst(w).empty());
  CHECK_FALSE(c.on_b(n.cycle()).empty());
  // a packet whose write and ACK never come
  c.on_req_rx(ni::block_packets(peer_block(0x3000, 0x50000, 64, 22), 8, kPeer, peer)[0], n.cycle());
  CHECK_FALSE(c.finish(n.cycle() + 100).empty());
  // counters that disagree
  std::array<uint64_t, 11> v{};
  CHECK_FALSE(c.compare_counters(n.cycle(), v).empty());
}

TEST_CASE("receive unit: rsp_tx held off while packets keep arriving, nothing lost",
          "[top][recv]") {
  Node n;
  ni::MemImage peer(kPeer);
  std::vector<ni::BlockDesc> bs;
  n.rsp().hold_tx = true;
  for (uint16_t t = 0; t < 24; ++t) {
    bs.push_back(peer_block(0x10000 + 0x400 * t, 0x60000 + 0x1000 * t + 3 * t, 256, 300 + t));
    n.req().inject(ni::block_packets(bs.back(), uint16_t(100 + t), kPeer, peer)[0]);
  }
  n.run(4000);
  CHECK(n.rsp().sent.empty());  // the first ACK waits on rsp_tx
  CHECK(n.req().busy());        // req_rx stalls: buffers full behind the blocked response
  n.rsp().hold_tx = false;
  n.settle(20000);
  const auto r = responses(n);
  REQUIRE(r.size() == 24);
  std::vector<std::array<unsigned, 3>> want;
  for (unsigned t = 0; t < 24; ++t) want.push_back({3, 100 + t, 300 + t});
  auto got = r;
  std::sort(got.begin(), got.end());
  CHECK(got == want);
  for (const auto& b : bs) expect_block_data(n, b, peer);
  CHECK(n.stat(23) == 24);
  expect_clean(n);
}

TEST_CASE("receive unit: write latency 1, interleaved blocks, control and inline packets",
          "[top][recv]") {
  sim::MemOptions mo;
  mo.wr_lat_min = 1;
  mo.wr_lat_max = 1;
  Node n(mo);
  ni::MemImage peer(kPeer);
  const auto b1 = peer_block(0x1111, 0x70000 + 0x3C5, 2500, 50, true);
  const auto b2 = peer_block(0x2222, 0x80000 + 0x7F, 1500, 51);
  const auto p1 = ni::block_packets(b1, 40, kPeer, peer);
  const auto p2 = ni::block_packets(b2, 41, kPeer, peer);
  REQUIRE(p1.size() == 4);  // 0x703C5..0x70D88: windows 0x70000..0x70C00
  REQUIRE(p2.size() == 2);
  const uint64_t naddr = kDstBase | 0x5100003A;  // straddles two lines
  n.req().inject(p1[2]);
  n.req().inject(p2[1]);
  n.req().inject(peer_ctrl(40, 50, naddr, 0x0123456789ABCDEFull, 2500));
  n.req().inject(p1[0]);
  ni::Packet in;
  in.hdr.kind = ni::PktKindInline;
  in.hdr.tid = 42;
  in.hdr.seq = 52;
  in.hdr.len = 30;
  in.hdr.dst_addr = (uint64_t{kNode} << 48) | kDstBase | 0x90021;
  for (unsigned i = 0; i < 30; ++i) in.payload[i] = uint8_t(0x30 + i);
  in.seal();
  n.req().inject(ni::head_packet(in, kPeer));
  n.req().inject(p2[0]);
  n.req().inject(p1[3]);
  n.req().inject(p1[1]);
  n.settle(20000);
  expect_block_data(n, b1, peer);
  expect_block_data(n, b2, peer);
  CHECK(n.mem().image().read(in.hdr.dst_addr, 30) ==
        std::vector<uint8_t>(in.payload.begin(), in.payload.begin() + 30));
  const auto rec = ni::notification_record(0x0123456789ABCDEFull, 2500, kPeer);
  CHECK(n.mem().image().read(naddr, 16) == std::vector<uint8_t>(rec.begin(), rec.end()));
  auto r = responses(n);
  std::sort(r.begin(), r.end());
  CHECK(r == std::vector<std::array<unsigned, 3>>{{3, 40, 50}, {3, 41, 51}, {3, 42, 52}});
  expect_clean(n);
}
