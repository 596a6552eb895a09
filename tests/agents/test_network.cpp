// SPDX-License-Identifier: Apache-2.0
// The network model of the full-NI simulator (sim/agents/network, ICD 15) alone, without a
// verilated model: its ports are plain variables that a few lines of C++ per node drive as a
// node would (tx: packets beat by beat, valid held until ready; rx: always ready or stalled),
// and the Component protocol is run by hand. Expected cycles are worked out by hand from the
// model's contract: a packet whose last tx beat is taken at cycle t is presented on the rx
// port from cycle t + latency; a port delivers one beat per cycle.
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ref_model/common/wire.hpp"
#include "sim/agents/network.hpp"

using ni::Bits512;
using ni::WireHead;
using ni::WireKind;
using ni::WirePacket;
using sim::NetEvent;
using sim::NetFault;
using sim::NetOptions;
using sim::Network;
using Action = sim::NetEvent::Action;

namespace {

constexpr uint64_t kDst = uint64_t{1} << 47;  // destination addresses (ICD 15)

// A packet as the receiving node saw it.
struct Rx {
  WirePacket pkt;
  uint64_t first = 0, last = 0;  // cycles of its first and last beat
};

// One node's side of a network: the variables the ports point to, and its behaviour.
struct FakeNode {
  // tx: driven by the node (valid, last, data), ready by the network
  uint8_t tx_valid = 0, tx_ready = 0, tx_last = 0;
  uint32_t tx_data[16] = {};
  // rx: driven by the network (valid, last, data), ready by the node
  uint8_t rx_valid = 0, rx_ready = 0, rx_last = 0;
  uint32_t rx_data[16] = {};

  std::vector<WirePacket> to_send;  // in order
  std::size_t next = 0, beat = 0;   // packet and beat being presented
  std::vector<uint64_t> sent_at;    // cycle each packet's last beat was taken
  bool stall_rx = false;
  std::vector<Rx> got;
  std::vector<Bits512> cur;
  uint64_t cur_first = 0;
  std::vector<uint64_t> rx_valid_cycles;  // every cycle rx_valid was high

  // Registered outputs: settled before the network's drive() (as after a clock edge).
  void present(bool one_beat) {
    tx_valid = next < to_send.size();
    if (!tx_valid) return;
    const WirePacket& p = to_send[next];
    const Bits512& b = p.beats[beat];
    for (unsigned i = 0; i < 16; ++i) tx_data[i] = uint32_t(b[i / 2] >> (i % 2 ? 32 : 0));
    tx_last = one_beat || beat + 1 == p.beats.size();
  }
  // After sample(): the handshakes of the cycle.
  void update(uint64_t cycle, bool one_beat) {
    if (tx_valid && tx_ready) {
      if (++beat == to_send[next].beats.size()) {
        sent_at.push_back(cycle);
        ++next;
        beat = 0;
      }
    }
    if (rx_valid) rx_valid_cycles.push_back(cycle);
    if (rx_valid && rx_ready) {
      Bits512 b{};
      for (unsigned i = 0; i < 16; ++i) b[i / 2] |= uint64_t{rx_data[i]} << (i % 2 ? 32 : 0);
      if (cur.empty()) cur_first = cycle;
      cur.push_back(b);
      if (one_beat || rx_last) {
        got.push_back(Rx{WirePacket{cur}, cur_first, cycle});
        cur.clear();
      }
    }
  }
};

// N fake nodes on one Network; one_beat: the response network (last == nullptr).
struct Bench {
  std::vector<std::unique_ptr<FakeNode>> nodes;
  sim::Rng rng;
  std::unique_ptr<Network> net;
  bool one_beat;
  uint64_t cycle = 0;
  std::vector<NetEvent> events;
  // (node, cycle) of each packet a node sent (TxEvent on its bus) and of each delivered (the
  // network's deliver event: the cycle the last beat entered the node).
  std::vector<std::pair<unsigned, uint64_t>> tx_log, rx_log;

  // What the buses carry: the network's events, and each node's packets sent.
  struct Log : sim::Listener {
    Log(Bench& b, unsigned n) : bench(b), node(n) {}
    void on_net(const NetEvent& e) override {
      bench.events.push_back(e);
      if (e.action == Action::Deliver) bench.rx_log.emplace_back(e.to, e.cycle);
    }
    void on_tx(const sim::TxEvent& e) override { bench.tx_log.emplace_back(node, e.cycle); }
    Bench& bench;
    unsigned node;
  };
  sim::EventBus net_bus;
  std::vector<std::unique_ptr<sim::EventBus>> buses;
  std::vector<std::unique_ptr<Log>> logs;  // [i]: node i's; back: the network's

  Bench(unsigned n, NetOptions opt, uint64_t seed = 1, bool rsp = false)
      : rng(seed), one_beat(rsp) {
    std::vector<Network::Port> ports;
    for (unsigned i = 0; i <= n; ++i) logs.push_back(std::make_unique<Log>(*this, i));
    net_bus.add(*logs.back());
    for (unsigned i = 0; i < n; ++i) {
      nodes.push_back(std::make_unique<FakeNode>());
      FakeNode& f = *nodes.back();
      buses.push_back(std::make_unique<sim::EventBus>());
      buses.back()->add(*logs[i]);
      ports.push_back(
          Network::Port{sim::StreamTxPorts{&f.tx_valid, &f.tx_ready, sim::WideOut{f.tx_data, 16},
                                           rsp ? nullptr : &f.tx_last},
                        sim::StreamRxPorts{&f.rx_valid, &f.rx_ready, sim::WideIn{f.rx_data, 16},
                                           rsp ? nullptr : &f.rx_last},
                        buses.back().get()});
    }
    net = std::make_unique<Network>(rsp ? sim::Net::Rsp : sim::Net::Req, ports, net_bus, rng, opt);
    net->on_reset();
  }
  FakeNode& node(unsigned i) { return *nodes.at(i); }
  void step() {
    for (auto& n : nodes) n->present(one_beat);
    net->drive(cycle);
    for (auto& n : nodes) n->rx_ready = !n->stall_rx;
    net->sample(cycle);
    for (auto& n : nodes) n->update(cycle, one_beat);
    ++cycle;
  }
  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) step();
  }
  // Until every packet is sent and delivered (or `limit` cycles).
  void drain(uint64_t limit = 10000) {
    for (uint64_t i = 0; i < limit; ++i) {
      bool pending = net->busy();
      for (auto& n : nodes) pending = pending || n->next < n->to_send.size();
      if (!pending) return;
      step();
    }
    FAIL("network did not drain in " << limit << " cycles");
  }
  std::vector<NetEvent> events_of(Action a) const {
    std::vector<NetEvent> r;
    for (const NetEvent& e : events) {
      if (e.action == a) r.push_back(e);
    }
    return r;
  }
};

// A data packet of `len` bytes (byte i = seed + i) to node `to` at kDst + off.
WirePacket data_pkt(unsigned to, unsigned from, unsigned tid, unsigned seq, unsigned len,
                    uint64_t off = 0, uint8_t seed = 1) {
  WireHead h;
  h.kind = uint8_t(WireKind::Data);
  h.tid = uint16_t(tid);
  h.seq = uint16_t(seq);
  h.len = uint16_t(len);
  h.last = true;
  h.npkts = 1;
  h.dst_addr = (uint64_t{to} << 48) | (kDst + off);
  h.src_node = uint16_t(from);
  std::vector<uint8_t> bytes(len);
  for (unsigned i = 0; i < len; ++i) bytes[i] = uint8_t(seed + i);
  return ni::make_data_packet(h, bytes.data());
}

// A head-only inline packet of 4 bytes.
WirePacket inline_pkt(unsigned to, unsigned from, unsigned tid, unsigned seq) {
  WireHead h;
  h.kind = uint8_t(WireKind::Inline);
  h.tid = uint16_t(tid);
  h.seq = uint16_t(seq);
  h.len = 4;
  h.dst_addr = (uint64_t{to} << 48) | kDst;
  h.payload[0] = uint8_t(seq);
  h.src_node = uint16_t(from);
  h.seal();
  return WirePacket{{h.pack()}};
}

// Bits that differ between two packets of equal beat count.
unsigned bit_distance(const WirePacket& a, const WirePacket& b) {
  REQUIRE(a.beats.size() == b.beats.size());
  unsigned n = 0;
  for (std::size_t i = 0; i < a.beats.size(); ++i) {
    for (unsigned w = 0; w < 8; ++w)
      n += unsigned(__builtin_popcountll(a.beats[i][w] ^ b.beats[i][w]));
  }
  return n;
}

std::vector<unsigned> seqs(const std::vector<Rx>& v) {
  std::vector<unsigned> r;
  for (const Rx& x : v) r.push_back(x.pkt.head().seq);
  return r;
}

NetOptions fixed_latency(unsigned lat) {
  NetOptions o;
  o.lat_min = o.lat_max = lat;
  return o;
}

}  // namespace

TEST_CASE("network: a data packet arrives intact after exactly its latency", "[network]") {
  Bench b(2, fixed_latency(4));
  // 100 bytes at a 64-aligned address: head, 2 payload beats, tail = 4 beats
  const WirePacket p = data_pkt(1, 0, 5, 9, 100);
  REQUIRE(p.beats.size() == 4);
  b.node(0).to_send = {p};
  b.run(20);
  // tx beats at cycles 0..3 (ready every cycle), last at 3; rx from 3 + 4 = 7 to 10
  REQUIRE(b.node(0).sent_at == std::vector<uint64_t>{3});
  REQUIRE(b.node(1).got.size() == 1);
  CHECK(b.node(1).got[0].pkt == p);
  CHECK(b.node(1).got[0].pkt.pcrc_ok());
  CHECK(b.node(1).got[0].first == 7);
  CHECK(b.node(1).got[0].last == 10);
  CHECK(b.node(1).rx_valid_cycles == std::vector<uint64_t>{7, 8, 9, 10});
  CHECK(b.node(0).got.empty());
  CHECK(b.node(0).rx_valid_cycles.empty());
  CHECK(b.tx_log == std::vector<std::pair<unsigned, uint64_t>>{{0, 3}});
  CHECK(b.rx_log == std::vector<std::pair<unsigned, uint64_t>>{{1, 10}});
  REQUIRE(b.events.size() == 1);
  const NetEvent& e = b.events[0];
  CHECK(e.action == Action::Deliver);
  CHECK(e.cycle == 10);
  CHECK((e.from == 0 && e.to == 1 && e.kind == 2 && e.tid == 5 && e.seq == 9));
  CHECK(b.net->counts().sent == 1);
  CHECK(b.net->counts().delivered == 1);
  CHECK_FALSE(b.net->busy());
}

TEST_CASE("network: busy and in_flight while a packet is on its way", "[network]") {
  Bench b(2, fixed_latency(10));
  b.node(0).to_send = {data_pkt(1, 0, 1, 1, 64)};  // 3 beats: cycles 0..2
  CHECK_FALSE(b.net->busy());
  b.run(1);  // head taken: half a packet in the tx assembler
  CHECK(b.net->busy());
  CHECK(b.net->in_flight() == 0);
  b.run(2);  // last beat taken at cycle 2: in flight until delivered at 12..14
  CHECK(b.net->in_flight() == 1);
  b.run(11);  // through cycle 13
  CHECK(b.net->busy());
  b.run(1);  // cycle 14: last beat delivered
  CHECK(b.net->in_flight() == 0);
  CHECK_FALSE(b.net->busy());
  CHECK(b.node(1).got.size() == 1);
}

TEST_CASE("network: latency is drawn from [lo, hi], never below lo", "[network]") {
  NetOptions o;
  o.lat_min = 3;
  o.lat_max = 9;
  Bench b(2, o, 77);
  // One inline packet at a time, so that the rx port is idle when each arrives.
  std::set<uint64_t> seen;
  for (unsigned i = 0; i < 200; ++i) {
    b.node(0).to_send.push_back(inline_pkt(1, 0, 1, i));
    b.drain();
    REQUIRE(b.node(1).got.size() == i + 1);
    const uint64_t lat = b.node(1).got[i].first - b.node(0).sent_at[i];
    REQUIRE(lat >= 3);
    REQUIRE(lat <= 9);
    seen.insert(lat);
  }
  // 200 draws over 7 values: each one shows up (a range that ignores lo or hi would not)
  CHECK(seen == std::set<uint64_t>{3, 4, 5, 6, 7, 8, 9});
}

TEST_CASE("network: a packet for a node that does not exist is dropped", "[network]") {
  Bench b(2, fixed_latency(1));
  // node 2 is the first node that does not exist
  b.node(0).to_send = {inline_pkt(5, 0, 3, 4), inline_pkt(1, 0, 3, 5), inline_pkt(2, 0, 3, 6)};
  b.drain();
  CHECK(b.net->counts().sent == 3);
  CHECK(b.net->counts().no_node == 2);
  CHECK(b.net->counts().dropped == 0);
  CHECK(b.net->counts().delivered == 1);
  CHECK(seqs(b.node(1).got) == std::vector<unsigned>{5});
  CHECK(b.node(0).got.empty());
  const auto drops = b.events_of(Action::Drop);
  REQUIRE(drops.size() == 2);
  CHECK((drops[0].from == 0 && drops[0].to == 5 && drops[0].seq == 4 && drops[0].cycle == 0));
  CHECK((drops[1].from == 0 && drops[1].to == 2 && drops[1].seq == 6 && drops[1].cycle == 2));
}

TEST_CASE("network: an armed drop hits exactly the next matching packet", "[network]") {
  Bench b(3, fixed_latency(2));
  SECTION("match on tid") {
    b.net->arm(NetFault{Action::Drop, std::nullopt, 7u, std::nullopt, std::nullopt});
    b.node(0).to_send = {inline_pkt(1, 0, 5, 1), inline_pkt(1, 0, 7, 2), inline_pkt(1, 0, 7, 3)};
    b.drain();
    CHECK(seqs(b.node(1).got) == std::vector<unsigned>{1, 3});
  }
  SECTION("match on kind and seq") {
    NetFault f;
    f.action = Action::Drop;
    f.kind = unsigned(WireKind::Data);
    f.seq = 2u;
    b.net->arm(f);
    // an inline packet with seq 2 does not match, the data packet with seq 2 does
    b.node(0).to_send = {inline_pkt(1, 0, 1, 2), data_pkt(1, 0, 1, 1, 10), data_pkt(1, 0, 1, 2, 10),
                         data_pkt(1, 0, 1, 2, 10)};
    b.drain();
    CHECK(seqs(b.node(1).got) == std::vector<unsigned>{2, 1, 2});
    CHECK(b.node(1).got[0].pkt.beats.size() == 1);
  }
  SECTION("match on from") {
    NetFault f;
    f.action = Action::Drop;
    f.from = 2u;
    b.net->arm(f);
    b.node(1).to_send = {inline_pkt(0, 1, 1, 1)};
    b.node(2).to_send = {inline_pkt(0, 2, 1, 1), inline_pkt(0, 2, 1, 2)};
    b.drain();
    CHECK(b.node(0).got.size() == 2);
    std::multiset<unsigned> from;
    for (const Rx& r : b.node(0).got) from.insert(r.pkt.head().src_node * 10 + r.pkt.head().seq);
    CHECK(from == std::multiset<unsigned>{11, 22});
  }
  CHECK(b.net->counts().dropped == 1);
  CHECK(b.net->counts().corrupted == 0);
  CHECK(b.net->counts().duplicated == 0);
  CHECK(b.events_of(Action::Drop).size() == 1);
}

TEST_CASE("network: an armed corrupt flips exactly one bit of the next matching packet",
          "[network]") {
  Bench b(2, fixed_latency(1), GENERATE(1u, 2u, 3u, 4u, 5u));
  NetFault f;
  f.action = Action::Corrupt;
  f.tid = 9u;
  b.net->arm(f);
  const WirePacket a = data_pkt(1, 0, 8, 1, 300, 5);  // not matching
  const WirePacket c = data_pkt(1, 0, 9, 1, 300, 5);  // corrupted
  const WirePacket d = data_pkt(1, 0, 9, 2, 300, 5);  // the fault is used up
  b.node(0).to_send = {a, c, d};
  b.drain();
  const auto& got = b.node(1).got;
  REQUIRE(got.size() == 3);
  CHECK(got[0].pkt == a);
  CHECK(bit_distance(got[1].pkt, c) == 1);
  CHECK_FALSE((got[1].pkt.hcrc_ok() && got[1].pkt.pcrc_ok()));
  CHECK(got[2].pkt == d);
  CHECK(b.net->counts().corrupted == 1);
  CHECK(b.net->counts().delivered == 3);
  const auto ev = b.events_of(Action::Corrupt);
  REQUIRE(ev.size() == 1);
  CHECK((ev[0].tid == 9 && ev[0].seq == 1));
}

TEST_CASE("network: an armed dup delivers two identical copies of the next matching packet",
          "[network]") {
  Bench b(2, fixed_latency(3));
  NetFault f;
  f.action = Action::Dup;
  f.seq = 2u;
  b.net->arm(f);
  const WirePacket p1 = data_pkt(1, 0, 4, 1, 70, 0, 10);
  const WirePacket p2 = data_pkt(1, 0, 4, 2, 70, 0, 20);
  const WirePacket p3 = data_pkt(1, 0, 4, 2, 70, 0, 30);
  b.node(0).to_send = {p1, p2, p3};
  b.drain();
  const auto& got = b.node(1).got;
  REQUIRE(got.size() == 4);
  CHECK(got[0].pkt == p1);
  CHECK(got[1].pkt == p2);
  CHECK(got[2].pkt == p2);
  CHECK(got[3].pkt == p3);
  CHECK(b.net->counts().sent == 3);
  CHECK(b.net->counts().delivered == 4);
  CHECK(b.net->counts().duplicated == 1);
  CHECK(b.net->sent_by(0) == 3);
  CHECK(b.net->delivered_to(1) == 4);
  CHECK(b.events_of(Action::Dup).size() == 1);
  CHECK(b.events_of(Action::Deliver).size() == 4);
}

TEST_CASE("network: a full destination holds the sender's next head beat", "[network]") {
  NetOptions o = fixed_latency(1);
  o.buffer = 2;
  Bench b(3, o);
  b.node(1).stall_rx = true;
  // node 0: three 4-beat packets to node 1; node 2: packets to node 0, not held up
  b.node(0).to_send = {data_pkt(1, 0, 1, 1, 100), data_pkt(1, 0, 1, 2, 100),
                       data_pkt(1, 0, 1, 3, 100)};
  for (unsigned i = 0; i < 4; ++i) b.node(2).to_send.push_back(inline_pkt(0, 2, 2, i));
  b.run(8);
  // packets 1 and 2 left at cycles 3 and 7; packet 3's head waits from cycle 8 on
  CHECK(b.node(0).sent_at == std::vector<uint64_t>{3, 7});
  CHECK(b.node(0).beat == 0);
  CHECK(b.node(0).tx_ready == 1);
  CHECK(b.net->counts().full_stalls == 0);
  b.run(10);  // cycles 8..17
  CHECK(b.node(0).tx_ready == 0);
  CHECK(b.node(0).next == 2);
  CHECK(b.node(0).beat == 0);
  CHECK(b.net->counts().full_stalls == 10);
  CHECK(b.net->counts().sent == 2 + 4);
  CHECK(b.node(2).sent_at == std::vector<uint64_t>{0, 1, 2, 3});
  CHECK(b.node(0).got.size() == 4);
  // node 1 takes again from cycle 18: packet 1's last beat at 21 frees a slot, the head
  // goes at 22 (stalled at 8..21: 14 cycles), its last beat at 25
  b.node(1).stall_rx = false;
  b.drain();
  CHECK(b.node(0).sent_at == std::vector<uint64_t>{3, 7, 25});
  CHECK(b.net->counts().full_stalls == 14);
  CHECK(seqs(b.node(1).got) == std::vector<unsigned>{1, 2, 3});
}

TEST_CASE("network: buffer 0 is unbounded", "[network]") {
  NetOptions o = fixed_latency(1);
  o.buffer = 0;
  Bench b(2, o);
  b.node(1).stall_rx = true;
  for (unsigned i = 0; i < 100; ++i) b.node(0).to_send.push_back(inline_pkt(1, 0, 1, i));
  b.run(100);
  CHECK(b.node(0).next == 100);
  CHECK(b.net->in_flight() == 100);
  CHECK(b.net->counts().full_stalls == 0);
}

TEST_CASE("network: tx back-pressure delays packets but loses none", "[network]") {
  NetOptions o = fixed_latency(1);
  o.tx_stall_pct = 50;
  Bench b(2, o, 5);
  for (unsigned i = 0; i < 40; ++i) b.node(0).to_send.push_back(data_pkt(1, 0, 1, i, 64 + i, i));
  b.drain();
  std::size_t beats = 0;
  for (const WirePacket& p : b.node(0).to_send) beats += p.beats.size();
  // at 50% stall the beats take far longer than one per cycle
  CHECK(b.node(0).sent_at.back() > beats + beats / 4);
  REQUIRE(b.node(1).got.size() == 40);
  for (unsigned i = 0; i < 40; ++i) CHECK(b.node(1).got[i].pkt == b.node(0).to_send[i]);
}

TEST_CASE("network: with every percentage 0 nothing is faulted", "[network]") {
  NetOptions o;
  o.lat_min = 1;
  o.lat_max = 30;
  Bench b(3, o, 1234);
  std::multiset<std::vector<Bits512>> sent[3];
  for (unsigned i = 0; i < 300; ++i) {
    const unsigned from = i % 3, to = (i * 7 + 1) % 3;
    const WirePacket p = i % 2 ? data_pkt(to, from, i % 64, i, 1 + (i * 37) % 1024, (i * 11) % 64)
                               : inline_pkt(to, from, i % 64, i);
    b.node(from).to_send.push_back(p);
    sent[to].insert(p.beats);
  }
  b.drain(100000);
  for (unsigned n = 0; n < 3; ++n) {
    std::multiset<std::vector<Bits512>> got;
    for (const Rx& r : b.node(n).got) got.insert(r.pkt.beats);
    CHECK(got == sent[n]);
  }
  const Network::Counts& c = b.net->counts();
  CHECK(c.sent == 300);
  CHECK(c.delivered == 300);
  CHECK(c.dropped == 0);
  CHECK(c.corrupted == 0);
  CHECK(c.duplicated == 0);
  CHECK(c.no_node == 0);
  CHECK(b.events.size() == 300);
  CHECK(b.events_of(Action::Deliver).size() == 300);
}

TEST_CASE("network: percentages of 100 fault every packet", "[network]") {
  NetOptions o = fixed_latency(2);
  SECTION("drop") {
    o.drop_pct = 100;
    Bench b(2, o);
    for (unsigned i = 0; i < 20; ++i) b.node(0).to_send.push_back(inline_pkt(1, 0, 1, i));
    b.drain();
    CHECK(b.node(1).got.empty());
    CHECK(b.net->counts().dropped == 20);
  }
  SECTION("dup") {
    o.dup_pct = 100;
    Bench b(2, o);
    for (unsigned i = 0; i < 20; ++i) b.node(0).to_send.push_back(inline_pkt(1, 0, 1, i));
    b.drain();
    REQUIRE(b.node(1).got.size() == 40);
    for (unsigned i = 0; i < 20; ++i) {
      CHECK(b.node(1).got[2 * i].pkt == b.node(0).to_send[i]);
      CHECK(b.node(1).got[2 * i + 1].pkt == b.node(0).to_send[i]);
    }
  }
  SECTION("corrupt") {
    o.corrupt_pct = 100;
    Bench b(2, o);
    for (unsigned i = 0; i < 20; ++i) b.node(0).to_send.push_back(data_pkt(1, 0, 1, i, 200));
    b.drain();
    REQUIRE(b.node(1).got.size() == 20);
    for (unsigned i = 0; i < 20; ++i)
      CHECK(bit_distance(b.node(1).got[i].pkt, b.node(0).to_send[i]) == 1);
    CHECK(b.net->counts().corrupted == 20);
  }
  SECTION("corrupt and dup: the first copy is corrupted, the second is intact") {
    o.corrupt_pct = 100;
    o.dup_pct = 100;
    Bench b(2, o);
    for (unsigned i = 0; i < 20; ++i) b.node(0).to_send.push_back(data_pkt(1, 0, 1, i, 200));
    b.drain();
    REQUIRE(b.node(1).got.size() == 40);
    for (unsigned i = 0; i < 20; ++i) {
      CHECK(bit_distance(b.node(1).got[2 * i].pkt, b.node(0).to_send[i]) == 1);
      CHECK(b.node(1).got[2 * i + 1].pkt == b.node(0).to_send[i]);
    }
    CHECK(b.net->counts().corrupted == 20);
    CHECK(b.net->counts().duplicated == 20);
  }
}

namespace {
// (receiver, seq, cycle) of every delivery of a 3-node run with random latencies.
std::vector<std::tuple<unsigned, unsigned, uint64_t>> delivery_order(uint64_t seed,
                                                                     unsigned lat_max) {
  NetOptions o;
  o.lat_min = 1;
  o.lat_max = lat_max;
  o.tx_stall_pct = 10;
  o.dup_pct = 5;
  o.drop_pct = 5;
  o.corrupt_pct = 5;
  Bench b(3, o, seed);
  for (unsigned i = 0; i < 60; ++i)
    b.node(i % 3).to_send.push_back(inline_pkt((i + 1) % 3, i % 3, 1, i));
  b.drain();
  std::vector<std::tuple<unsigned, unsigned, uint64_t>> r;
  for (unsigned n = 0; n < 3; ++n) {
    for (const Rx& x : b.node(n).got) r.emplace_back(n, x.pkt.head().seq, x.first);
  }
  return r;
}
}  // namespace

TEST_CASE("network: a seed is a run", "[network]") {
  const auto a = delivery_order(42, 20);
  CHECK(a == delivery_order(42, 20));
  CHECK(a != delivery_order(43, 20));
  CHECK(a.size() > 30);
}

TEST_CASE("network: random latencies reorder packets, a fixed latency does not", "[network]") {
  auto order = [](unsigned lo, unsigned hi) {
    NetOptions o;
    o.lat_min = lo;
    o.lat_max = hi;
    Bench b(2, o, 9);
    for (unsigned i = 0; i < 50; ++i) b.node(0).to_send.push_back(inline_pkt(1, 0, 1, i));
    b.drain();
    return seqs(b.node(1).got);
  };
  std::vector<unsigned> in_order;
  for (unsigned i = 0; i < 50; ++i) in_order.push_back(i);
  CHECK(order(6, 6) == in_order);
  const std::vector<unsigned> shuffled = order(1, 20);
  CHECK(shuffled != in_order);
  CHECK(std::multiset<unsigned>(shuffled.begin(), shuffled.end()) ==
        std::multiset<unsigned>(in_order.begin(), in_order.end()));
}

TEST_CASE("network: per-node sent and delivered counters", "[network]") {
  Bench b(3, fixed_latency(2));
  b.node(0).to_send = {inline_pkt(1, 0, 1, 1), inline_pkt(1, 0, 1, 2), inline_pkt(1, 0, 1, 3)};
  b.node(1).to_send = {data_pkt(2, 1, 1, 1, 65), data_pkt(2, 1, 1, 2, 3)};
  b.node(2).to_send = {inline_pkt(0, 2, 1, 1), inline_pkt(2, 2, 1, 2)};  // one to itself
  b.drain();
  CHECK(b.net->sent_by(0) == 3);
  CHECK(b.net->sent_by(1) == 2);
  CHECK(b.net->sent_by(2) == 2);
  CHECK(b.net->delivered_to(0) == 1);
  CHECK(b.net->delivered_to(1) == 3);
  CHECK(b.net->delivered_to(2) == 3);
  CHECK(b.node(2).got.size() == 3);
  CHECK(b.net->counts().sent == 7);
  CHECK(b.net->counts().delivered == 7);
}

TEST_CASE("network: the response network carries one-beat packets (no last signal)", "[network]") {
  Bench b(2, fixed_latency(3), 1, /*rsp=*/true);
  const WirePacket ack = ni::make_response(WireKind::Ack, 12, 34, 1, 0);
  const WirePacket nack = ni::make_response(WireKind::Nack, 12, 35, 1, 0);
  const WirePacket back = ni::make_response(WireKind::Ack, 3, 4, 0, 1);
  b.node(0).to_send = {ack, nack};
  b.node(1).to_send = {back};
  b.drain();
  // one packet per beat: taken at cycles 0 and 1, presented at 3 and 4
  CHECK(b.node(0).sent_at == std::vector<uint64_t>{0, 1});
  REQUIRE(b.node(1).got.size() == 2);
  CHECK(b.node(1).got[0].pkt == ack);
  CHECK(b.node(1).got[0].first == 3);
  CHECK(b.node(1).got[1].pkt == nack);
  CHECK(b.node(1).got[1].first == 4);
  REQUIRE(b.node(0).got.size() == 1);
  CHECK(b.node(0).got[0].pkt == back);
  CHECK(b.net->counts().delivered == 3);
  const auto ev = b.events_of(Action::Deliver);
  REQUIRE(ev.size() == 3);
  CHECK(ev[0].kind == unsigned(WireKind::Ack));
}

TEST_CASE("network: an injected packet enters the rx port at its cycle", "[network]") {
  Bench b(2, fixed_latency(1));
  const WirePacket p = data_pkt(1, 0, 3, 3, 40);
  b.net->inject(1, p, 10);
  b.run(20);
  REQUIRE(b.node(1).got.size() == 1);
  CHECK(b.node(1).got[0].pkt == p);
  CHECK(b.node(1).got[0].first == 10);
  CHECK(b.net->counts().injected == 1);
  CHECK(b.net->counts().sent == 0);
  CHECK(b.net->delivered_to(1) == 1);
  REQUIRE(b.events.size() == 1);
  CHECK((b.events[0].from == 1 && b.events[0].to == 1 && b.events[0].seq == 3));
}

TEST_CASE("network: an injected packet does not free a routed packet's buffer slot", "[network]") {
  NetOptions o = fixed_latency(1);
  o.buffer = 1;
  Bench b(2, o);
  b.net->inject(1, inline_pkt(1, 1, 9, 9), 0);
  b.node(1).stall_rx = true;
  b.node(0).to_send = {inline_pkt(1, 0, 1, 1), inline_pkt(1, 0, 1, 2)};
  b.run(5);
  // packet 1 left at cycle 0 and fills node 1's buffer (the injected one is outside it)
  CHECK(b.node(0).sent_at == std::vector<uint64_t>{0});
  CHECK(b.net->counts().full_stalls == 4);
  // node 1 takes from cycle 5: the injected packet at 5, packet 1 at 6; packet 2's head
  // waits until then (the injected packet's delivery frees no slot) and goes at 7
  b.node(1).stall_rx = false;
  b.drain();
  CHECK(seqs(b.node(1).got) == std::vector<unsigned>{9, 1, 2});
  CHECK(b.node(0).sent_at == std::vector<uint64_t>{0, 7});
  CHECK(b.net->counts().full_stalls == 6);
}
