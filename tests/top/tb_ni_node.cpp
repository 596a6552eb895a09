// SPDX-License-Identifier: Apache-2.0
// One ni_node on a loopback network (ICD 10-13, 15 with --nodes 1), built as ni_sim builds
// every node (sim/tb/node/node_agents: the node, its AXI master and memory model, its
// monitors and unit checkers on its event bus): its req_tx feeds its own req_rx and its
// rsp_tx its own rsp_rx through the network model (sim/agents/network), which the tests aim
// faults with (drop, corrupt, duplicate a chosen packet), inject a peer's packets through and
// hold rsp_tx off with. The CPU writes descriptors over AXI and polls status; the memory model
// serves reads and writes. Checked: every transfer ends DONE, the destination bytes equal the
// source bytes (the memory pattern of ICD 15), the notification record is in memory, and the
// statistics counters 16-26 read over AXI count what happened; the node's checkers (the
// engine's golden model, the send unit's on every req_tx packet, the receive unit's on
// req_rx, rsp_rx, the memory writes, rsp_tx and the engine's rsp port, the memory's protocol
// checks) watch every case and must report nothing.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ref_model/common/addr_map.hpp"
#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/wire.hpp"
#include "ref_model/recv/recv_model.hpp"
#include "ref_model/send/send_model.hpp"
#include "sim/agents/network.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/sim_ctrl.hpp"
#include "sim/tb/node/node_agents.hpp"
#include "verilated.h"

namespace {

using ni::Bits512;
using ni::WirePacket;

constexpr uint16_t kNode = 0;
constexpr uint64_t kDstBase = uint64_t{1} << 47;

// What the network does to the next packet that matches: the `nth` packet of wire kind
// `kind` from now on (0 = the first); a corruption flips bit 132 of the payload beat (of the
// head beat of a one-beat packet).
struct Fault {
  enum Action { Drop, Corrupt, Dup } action = Drop;
  unsigned kind = 2;
  unsigned nth = 0;
};

// The packets that left the node, per network.
struct Sent : sim::Listener {
  void on_tx(const sim::TxEvent& e) override {
    (e.net == sim::Net::Req ? req : rsp).push_back(e.packet);
  }
  std::vector<WirePacket> req, rsp;
};

sim::NodeAgents::Options agent_options(const sim::MemOptions& mo) {
  sim::NodeAgents::Options o;
  o.memory = mo;
  return o;
}

class Node {
 public:
  explicit Node(sim::MemOptions mo = {})
      : rng_(1),
        net_rng_(2),
        a_(ctx_, kNode, rng_, rng_, agent_options(mo)),
        ctrl_(ctx_),
        req_(sim::Net::Req, {a_.net_port(sim::Net::Req)}, net_bus_, net_rng_, sim::NetOptions{}),
        rsp_(sim::Net::Rsp, {a_.net_port(sim::Net::Rsp)}, net_bus_, net_rng_, sim::NetOptions{}) {
    ctrl_.add_dut(a_.dut());
    a_.add_stimulus(ctrl_);
    ctrl_.add(req_);
    ctrl_.add(rsp_);
    a_.add_monitors(ctrl_);
    a_.bus().add(sent_);
    ctrl_.reset();
    REQUIRE(ctrl_.run_until([&] { return *a_.ports().init_done != 0; }, 5000));
  }
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  sim::MemModel& mem() { return a_.mem(); }
  ni::RecvChecker& recv() { return a_.recv().model(); }
  // Every mismatch the node's checkers found, "checker: what".
  std::vector<std::string> errors() {
    std::vector<std::string> v;
    for (const sim::Checker* c : a_.checkers()) {
      for (const sim::CheckFailure& f : c->errors()) v.push_back(c->name() + ": " + f.what);
    }
    return v;
  }

  // The network: a fault aimed at a request packet, a peer's packet into req_rx (behind
  // what is queued), rsp_tx held off, what left.
  void arm(const Fault& f) {
    sim::NetFault nf;
    nf.action = f.action == Fault::Drop      ? sim::NetEvent::Action::Drop
                : f.action == Fault::Corrupt ? sim::NetEvent::Action::Corrupt
                                             : sim::NetEvent::Action::Dup;
    nf.kind = f.kind;
    nf.skip = f.nth;
    nf.beat = 1;
    nf.bit = 132;
    req_.arm(nf);
  }
  void inject(const WirePacket& p) { req_.inject(kNode, p, ctrl_.cycle()); }
  void inject_rsp(const WirePacket& p) { rsp_.inject(kNode, p, ctrl_.cycle()); }
  const std::vector<WirePacket>& req_sent() const { return sent_.req; }
  void hold_rsp_tx(bool on) { rsp_.hold(kNode, on); }
  bool req_busy() const { return req_.busy(); }
  const std::vector<WirePacket>& rsp_sent() const { return sent_.rsp; }
  // Another listener of the node's events (after the monitors and checkers).
  void listen(sim::Listener& l) { a_.bus().add(l); }

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
    a_.axi().write(w, [&](const sim::AxiWrite& d) { resp = d.resp; });
    REQUIRE(ctrl_.run_until([&] { return resp != 0xFF; }, 10000));
    return resp;
  }
  uint64_t read_word(uint32_t addr) {
    sim::AxiRead r;
    r.addr = addr;
    r.size = 3;
    bool done = false;
    uint64_t v = 0;
    a_.axi().read(r, [&](const sim::AxiRead& d) {
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
    ctrl_.run_until([&] { return !req_.busy() && !rsp_.busy() && !mem().busy() && !rx_busy(); }, n);
  }
  uint64_t stat(unsigned i) { return read_word(ni::stat_addr(i)); }
  void set_rx_idle(uint64_t cycles) {
    REQUIRE(write_words(ni::ctrl_addr(2), {cycles}) == 0);
    recv().set_rx_idle(cycles);
  }
  // The receive checker's end: everything it expected was seen, counters 17-26 agree.
  void finish_recv() {
    a_.recv().final_check(cycle());
    check_recv_counters();
  }
  // Counters 17-26 against the receive checker; they also tell it which way an invisible
  // decision went (a drop for want of a context, a reclaim).
  void check_recv_counters() {
    std::array<uint64_t, ni::NumNodeStats> v{};
    for (unsigned i = 17; i <= 26; ++i) v[i - 16] = stat(i);
    a_.recv().check_counters(v, cycle());
  }
  bool rx_busy() const { return *a_.ports().rx_busy != 0; }
  uint64_t cycle() const { return ctrl_.cycle(); }
  void run(uint64_t n) {
    ctrl_.run_until([] { return false; }, n);
  }

 private:
  sim::Rng rng_, net_rng_;
  VerilatedContext ctx_;
  sim::NodeAgents a_;
  sim::SimCtrl ctrl_;
  sim::EventBus net_bus_;
  sim::Network req_, rsp_;
  Sent sent_;
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
  CHECK(n.errors().empty());
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
  n.arm(Fault{Fault::Corrupt, 2, 1});
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
  n.arm(Fault{Fault::Dup, 2, 0});
  const auto d = mem_xfer(0, 0x9000, 0x30000, 3000);
  n.submit(d);
  CHECK(n.wait_status(d) == unsigned(ni::Status::Done));
  expect_copied(n, d);
  n.settle();
  CHECK(n.stat(21) == 1);

  n.arm(Fault{Fault::Corrupt, 0, 0});  // inline: the head beat itself
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
  for (const auto& p : n.rsp_sent()) {
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
  for (const auto& p : pk) n.inject(p);
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
    if (i == where) n.inject(ctrl);
    if (i < pk.size()) n.inject(pk[i]);
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
  n.inject(p_old[0]);  // block 100 starts
  n.inject(p_new[1]);  // the re-issue (101) restarts the context
  n.inject(p_old[1]);  // stale
  n.inject(p_new[0]);
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
    n.inject(ni::block_packets(b, t, kPeer, peer)[0]);
  }
  const auto b65 = peer_block(0x900000, 0x900000, 100, 1);
  n.inject(ni::block_packets(b65, 64, kPeer, peer)[0]);  // no context left
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
  n.inject(ni::block_packets(b65, 64, kPeer, peer)[0]);
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
  n.inject(ni::block_packets(b, 7, kPeer, peer)[0]);
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
  n.hold_rsp_tx(true);
  for (uint16_t t = 0; t < 24; ++t) {
    bs.push_back(peer_block(0x10000 + 0x400 * t, 0x60000 + 0x1000 * t + 3 * t, 256, 300 + t));
    n.inject(ni::block_packets(bs.back(), uint16_t(100 + t), kPeer, peer)[0]);
  }
  n.run(4000);
  CHECK(n.rsp_sent().empty());  // the first ACK waits on rsp_tx
  CHECK(n.req_busy());          // req_rx stalls: buffers full behind the blocked response
  n.hold_rsp_tx(false);
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
  n.inject(p1[2]);
  n.inject(p2[1]);
  n.inject(peer_ctrl(40, 50, naddr, 0x0123456789ABCDEFull, 2500));
  n.inject(p1[0]);
  ni::Packet in;
  in.hdr.kind = ni::PktKindInline;
  in.hdr.tid = 42;
  in.hdr.seq = 52;
  in.hdr.len = 30;
  in.hdr.dst_addr = (uint64_t{kNode} << 48) | kDstBase | 0x90021;
  for (unsigned i = 0; i < 30; ++i) in.payload[i] = uint8_t(0x30 + i);
  in.seal();
  n.inject(ni::head_packet(in, kPeer));
  n.inject(p2[0]);
  n.inject(p1[3]);
  n.inject(p1[1]);
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

namespace {

// A peer's read request (ICD 16) for `bytes` at `src_off` of this node into its own memory
// at `dst_off`, on page 0: READ_REQ (tid, seq) from kPeer.
WirePacket peer_read(uint16_t tid, uint16_t seq, uint64_t src_off, uint64_t dst_off,
                     uint32_t bytes) {
  ni::Descriptor d;
  d.page = 0;
  d.channel = 0;
  d.kind = ni::Kind::Tid;
  d.read = true;
  d.src = (uint64_t{kNode} << 48) | src_off;
  d.dst = kDstBase | dst_off;
  d.size = bytes;
  d.prio = 2;
  return ni::head_packet(ni::make_read_packet(d, 0, tid, seq, kPeer), kPeer);
}

// Answers every data block the node sent since `from` (its read channels' writes to kPeer,
// which the network drops) with an ACK from kPeer, so their transfers finish.
// Waits (up to 20,000 cycles) until `blocks` such blocks were answered.
std::size_t ack_blocks(Node& n, std::size_t from, unsigned blocks) {
  std::size_t i = from;
  for (unsigned t = 0; t < 200 && blocks != 0; ++t) {
    n.run(100);
    for (; i < n.req_sent().size() && blocks != 0; ++i) {
      const auto h = n.req_sent()[i].head();
      if (h.wire_kind() != ni::WireKind::Data || !h.last) continue;
      n.inject_rsp(ni::make_response(ni::WireKind::Ack, h.tid, h.seq, kNode, kPeer));
      --blocks;
    }
  }
  CHECK(blocks == 0);
  return i;
}

}  // namespace

TEST_CASE(
    "read allocator: a newer re-issue right behind its request's serve is answered "
    "with its seq",
    "[top][read]") {
  // Channel 64 of page 0 first answers a request with seq 5000, which its seq RAM keeps.
  // Then a request (tid 9, seq 100) is served into the same channel and its re-issue (seq
  // 101), right behind it on rreq, is decided in the next cycle, while seq 100 still waits
  // in the written-behind register: 101 is newer than 100 (the channel answers 101), not
  // than the RAM's 5000.
  Node n;
  n.inject(peer_read(3, 5000, 0x1000, 0x100000, 256));
  std::size_t acked = ack_blocks(n, 0, 1);
  n.run(2000);
  REQUIRE(responses(n).size() == 1);
  CHECK(responses(n)[0] == std::array<unsigned, 3>{3, 3, 5000});
  n.inject(peer_read(9, 100, 0x2000, 0x200000, 256));
  n.inject(peer_read(9, 101, 0x2000, 0x200000, 256));
  acked = ack_blocks(n, acked, 1);
  n.run(2000);
  const auto r = responses(n);
  REQUIRE(r.size() == 2);
  CHECK(r[1] == std::array<unsigned, 3>{3, 9, 101});
  CHECK(n.stat(28) == 1);  // the re-issue matched
  CHECK(n.stat(29) == 2);  // two serves
  for (const auto& e : n.errors()) FAIL_CHECK(e);
}

TEST_CASE(
    "read allocator: a re-issue entering stage A in the cycles after its request's serve "
    "is matched",
    "[top][read]") {
  // A request (tid 9, seq 100) is served into channel 64, whose key is written a cycle late
  // (docs/design.md section 20); its re-issue (seq 101) follows `k` cycles behind it on
  // req_rx: over the range of k, it enters stage A in the serve's cycle (the key forwarded
  // from stage A), in the cycle after (the key in the written-behind register) and later (the
  // key in the RAM). Each time it matches channel 64 (counter 28), is not served again (29),
  // and the channel answers the newer seq.
  const unsigned k = GENERATE(range(0u, 8u));
  Node n;
  n.inject(peer_read(9, 100, 0x2000, 0x200000, 256));
  n.run(k);
  n.inject(peer_read(9, 101, 0x2000, 0x200000, 256));
  ack_blocks(n, 0, 1);
  n.run(2000);
  const auto r = responses(n);
  REQUIRE(r.size() == 1);
  CHECK(r[0] == std::array<unsigned, 3>{3, 9, 101});
  CHECK(n.stat(28) == 1);
  CHECK(n.stat(29) == 1);
  for (const auto& e : n.errors()) FAIL_CHECK(e);
}

TEST_CASE(
    "read allocator: a request entering stage A as its page's channel is answered "
    "takes that channel",
    "[top][read]") {
  // Channel 64 of page 0 serves a request (tid 3) and waits for its block's ACK. The ACK is
  // injected, and a second request (tid 4, page 0) `k` cycles later: over the range of k,
  // one enters stage A in the cycle channel 64's answer leaves, and is decided in the next
  // with channel 64 IDLE (the lowest IDLE channel, which the engine's model expects).
  const unsigned k = GENERATE(range(0u, 40u));
  Node n;
  n.inject(peer_read(3, 700, 0x1000, 0x100000, 256));
  const std::size_t acked = ack_blocks(n, 0, 1);
  n.run(k);
  n.inject(peer_read(4, 800, 0x3000, 0x300000, 256));
  ack_blocks(n, acked, 1);
  n.run(2000);
  const auto r = responses(n);
  REQUIRE(r.size() == 2);
  CHECK(r[0] == std::array<unsigned, 3>{3, 3, 700});
  CHECK(r[1] == std::array<unsigned, 3>{3, 4, 800});
  for (const auto& e : n.errors()) FAIL_CHECK(e);
}

// The allocator's decisions and the cycles its deferred responses were taken.
struct ReadEvents : sim::Listener {
  void on_rreq_decision(const sim::RreqDecisionEvent& e) override { dec.push_back(e); }
  void on_drsp(const sim::DrspEvent& e) override {
    if (!first_offered) first_offered = e.cycle;
    if (e.taken) taken.push_back(e.cycle);
  }
  std::vector<sim::RreqDecisionEvent> dec;
  std::optional<uint64_t> first_offered;  // the cycle the first response was offered
  std::vector<uint64_t> taken;            // the cycles responses were taken
};

TEST_CASE(
    "read allocator: a re-issue decided in the cycle its channel's response leaves is "
    "matched (a dup), one decided after it is served",
    "[top][read]") {
  // Channel 64 of page 0 serves a request (tid 3, seq 700) and its block is ACKed; its
  // re-issue (tid 3, seq 701, the same block) is injected `k` cycles after the ACK. The
  // channel is busy until its response has been taken: a re-issue decided up to that cycle,
  // the cycle itself included, is a dup, whose newer seq the channel answers if it is
  // decided before the response is offered (the offered beat holds; the response leaving
  // cannot change); decided after it, it is served into channel 64 again (the lowest IDLE
  // one). Over the range of k, some re-issue is decided in that very cycle.
  unsigned at_edge = 0, before = 0, after = 0;
  for (unsigned k = 0; k < 40; ++k) {
    CAPTURE(k);
    Node n;
    ReadEvents ev;
    n.listen(ev);
    n.inject(peer_read(3, 700, 0x1000, 0x100000, 256));
    const std::size_t acked = ack_blocks(n, 0, 1);
    n.run(k);
    n.inject(peer_read(3, 701, 0x1000, 0x100000, 256));
    n.run(400);
    REQUIRE(ev.dec.size() == 2);
    REQUIRE(!ev.taken.empty());
    REQUIRE(ev.first_offered);
    const sim::RreqDecisionEvent& d = ev.dec[1];
    CHECK(d.tid == 3);
    CHECK(d.seq == 701);
    CHECK(d.channel == 64);
    if (d.cycle <= ev.taken[0]) {
      CHECK(d.action == sim::RreqAction::Dup);
      CHECK(n.stat(28) == 1);
      CHECK(n.stat(29) == 1);
      (d.cycle == ev.taken[0] ? at_edge : before)++;
    } else {
      CHECK(d.action == sim::RreqAction::Serve);
      CHECK(n.stat(28) == 0);
      CHECK(n.stat(29) == 2);
      ack_blocks(n, acked, 1);
      n.run(2000);
      ++after;
    }
    const auto r = responses(n);
    REQUIRE(!r.empty());
    const unsigned answered = d.cycle < *ev.first_offered ? 701 : 700;
    CHECK(r[0] == std::array<unsigned, 3>{3, 3, answered});
    for (const auto& e : n.errors()) FAIL_CHECK(e);
  }
  CHECK(at_edge >= 1);
  CHECK(before >= 1);
  CHECK(after >= 1);
}
