// SPDX-License-Identifier: Apache-2.0
// The network model of the full-NI simulator (ICD 15): one instance per network (requests,
// responses), joining the tx and rx streams of N nodes. A packet is taken whole from a
// node's tx port (ready low at random: back-pressure), routed by its head's destination node
// (dst_addr[63:48]; a node that does not exist: dropped), and delivered to that node's rx
// port after a random latency, so packets, also of one block, overtake each other. Per packet
// it may drop it, corrupt one random bit of one beat, or deliver it twice, each with a
// configurable percentage, and a scenario can aim a fault at the next packet that matches.
// Every choice comes from the network's own random stream: a seed is a run. It reports on
// event buses: each packet a node sent (TxEvent, on that node's bus) and what it did with
// each packet (NetEvent, on the network's own bus).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ref_model/common/wire.hpp"
#include "sim/core/component.hpp"
#include "sim/core/events.hpp"
#include "sim/core/ports.hpp"
#include "sim/core/rng.hpp"

namespace sim {

struct NetOptions {
  unsigned lat_min = 1, lat_max = 1;  // tx last beat -> first rx beat, cycles
  double drop_pct = 0;                // per packet
  double corrupt_pct = 0;             // per packet: one random bit of one beat
  double dup_pct = 0;                 // per packet: delivered twice
  double tx_stall_pct = 0;            // per cycle and node: tx ready low
  // Packets in flight to one node (its rx port's buffer), 0 = unbounded. A packet whose
  // destination is full waits at its tx port (ready low at its head beat): the flow
  // control of a real network, which keeps many-to-one traffic from queueing without bound.
  unsigned buffer = 64;
};

// A fault aimed at the next packet that matches (scenario "net" event); unset fields match
// anything. The directed tests also let `skip` matching packets pass first and choose the
// bit a corruption flips (else both random).
struct NetFault {
  NetEvent::Action action = NetEvent::Action::Drop;  // Drop, Corrupt or Dup
  std::optional<unsigned> kind, tid, seq, from;
  unsigned skip = 0;
  std::optional<unsigned> beat = std::nullopt, bit = std::nullopt;  // Corrupt: bit of beat
};

class Network : public Component {
 public:
  // A node's side of the network: its tx port (the network takes packets), its rx port (the
  // network delivers), and the bus its TxEvents go to (none: not reported).
  struct Port {
    StreamTxPorts tx;
    StreamRxPorts rx;
    EventBus* bus = nullptr;
  };
  // One port per node, node i at index i; NetEvents go to `events`.
  Network(Net net, std::vector<Port> ports, EventBus& events, Rng& rng, NetOptions opt);

  void arm(const NetFault& f) { armed_.push_back(f); }
  // A raw packet into node `to`'s rx port, delivered at cycle `at` or later (scenario
  // "packet" events); logged as delivered from node `to` itself.
  void inject(unsigned to, ni::WirePacket p, uint64_t at);
  // Holds node `node`'s tx ready low (back-pressure the directed tests choose), or releases it.
  void hold(unsigned node, bool on) { held_.at(node) = on; }

  void on_reset() override;
  void drive(uint64_t cycle) override;
  void sample(uint64_t cycle) override;
  bool busy() const override;

  Net net() const { return net_; }
  const char* name() const { return to_string(net_); }
  struct Counts {
    uint64_t sent = 0;       // packets taken from tx ports
    uint64_t delivered = 0;  // packets (copies) handed to rx ports
    uint64_t dropped = 0;    // dropped by a fault
    uint64_t no_node = 0;    // dropped: destination node does not exist
    uint64_t corrupted = 0;
    uint64_t duplicated = 0;
    uint64_t injected = 0;
    uint64_t full_stalls = 0;  // cycles a tx head waited for a full destination
  };
  const Counts& counts() const { return counts_; }
  // The same, of the packets node `node` sent (sent, dropped, no_node, corrupted, duplicated;
  // the rest stay 0): the faults injected into its traffic (ICD 15 report, per node).
  const Counts& counts_from(unsigned node) const { return from_[node]; }
  // Per node: packets taken from its tx port / handed to its rx port.
  uint64_t sent_by(unsigned node) const { return sent_by_[node]; }
  uint64_t delivered_to(unsigned node) const { return delivered_to_[node]; }
  std::size_t in_flight() const;

 private:
  struct Flight {
    ni::WirePacket pkt;
    unsigned from = 0;
    NetEvent head;        // kind/tid/seq/from/to of the packet as sent
    bool routed = false;  // counted in queued_ (injected packets are not)
  };
  struct RxPort {
    std::map<std::pair<uint64_t, uint64_t>, Flight> q;  // (ready cycle, order) -> packet
    std::optional<Flight> cur;                          // being delivered
    std::size_t beat = 0;
  };
  void route(unsigned from, ni::WirePacket p, uint64_t cycle);
  void emit(NetEvent e, NetEvent::Action a, uint64_t cycle);
  // The fault armed for this packet, taken off the list (none: the random draws decide).
  std::optional<NetFault> armed_fault(const NetEvent& h);

  Net net_;
  std::vector<StreamTxPorts> tx_;
  std::vector<StreamRxPorts> rx_;
  std::vector<EventBus*> bus_;  // per node: its TxEvents
  EventBus& events_;            // NetEvents
  Rng& rng_;
  NetOptions opt_;
  std::vector<ni::WirePacket> asm_;  // per node: beats of the packet leaving tx
  std::vector<uint8_t> tx_ready_;
  std::vector<uint8_t> held_;
  std::vector<RxPort> port_;
  std::vector<NetFault> armed_;
  std::vector<uint64_t> sent_by_, delivered_to_;
  std::vector<Counts> from_;  // per sending node
  uint64_t order_ = 0;
  Counts counts_;
  std::vector<std::size_t> queued_;  // per destination: packets routed, not yet delivered
};

}  // namespace sim
