// SPDX-License-Identifier: Apache-2.0
// Functional coverage of the full NI (ni_sim --nodes N --coverage FILE): what the send and
// receive units and the network saw. It subscribes to every node's event bus (the packets the
// node sent and received, its memory's writes) and to the networks' bus (what they did with
// each packet), and samples the rx ports' back-pressure and the networks' flow control each
// cycle. Same JSON format as the engine's coverage ("ni-fcov/1", CoverageDb), so
// scripts/coverage_report.py merges both.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ref_model/common/wire.hpp"
#include "sim/agents/network.hpp"
#include "sim/core/component.hpp"
#include "sim/core/events.hpp"
#include "sim/tb/node/ni_node_dut.hpp"
#include "sim/tb/qos/coverage.hpp"

namespace sim {

class NodeCoverage : public Component {
 public:
  // `nodes`: every node's ports, node i at index i; `req`, `rsp`: the two networks.
  NodeCoverage(std::vector<const NiNodePorts*> nodes, const Network& req, const Network& rsp);
  ~NodeCoverage() override;
  // Subscribes to node `node`'s event bus, and to the networks' bus.
  void attach(unsigned node, EventBus& bus);
  void attach_networks(EventBus& bus);

  // Once per cycle: the rx ports' back-pressure (valid && !ready), the networks' flow control.
  void sample(uint64_t cycle) override;
  void write(const std::string& path, const nlohmann::json& source) const;

 private:
  struct Tap;
  using Key = std::tuple<unsigned, unsigned, unsigned, unsigned>;  // to, src, tid, seq
  struct Block {
    unsigned npkts = 0, got = 0, max_slot = 0;
    bool any = false, ctrl = false;
    std::set<unsigned> slots;
  };
  void declare();
  // A packet left node `from` on the request (rsp = false) or response network.
  void on_tx(bool rsp, unsigned from, const ni::WirePacket& p);
  // A packet entered node `to`.
  void on_rx(bool rsp, unsigned to, const ni::WirePacket& p);
  void on_net(const NetEvent& e);
  void on_memwr(const MemWrEvent& e);

  std::vector<const NiNodePorts*> nodes_;
  const Network& req_;
  const Network& rsp_;
  std::vector<std::unique_ptr<Tap>> taps_;  // [i]: node i's; back: the networks'
  uint64_t full_ = 0;                       // the networks' full stalls so far
  CoverageDb db_;
  std::map<Key, Block> blocks_;  // request data arriving at each node, by block
  // read requests sent: (node, tid, local destination), to tell re-issues from first requests
  std::set<std::tuple<unsigned, unsigned, uint64_t>> rreq_seen_;
  std::map<unsigned, unsigned> open_at_;  // node -> blocks partly arrived
};

}  // namespace sim
