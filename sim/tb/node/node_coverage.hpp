// SPDX-License-Identifier: Apache-2.0
// Functional coverage of the full NI (ni_sim --nodes N --coverage FILE): what the send and
// receive units and the network saw, from the networks' packet hooks and the memory models'
// writes. Same JSON format as the engine's coverage ("ni-fcov/1", CoverageDb), so
// scripts/coverage_report.py merges both.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>

#include "ref_model/common/wire.hpp"
#include "sim/agents/network.hpp"
#include "sim/core/events.hpp"
#include "sim/tb/qos/coverage.hpp"

namespace sim {

class NodeCoverage {
 public:
  NodeCoverage();
  // A packet left node `from` on the request (rsp = false) or response network.
  void on_tx(bool rsp, unsigned from, const ni::WirePacket& p);
  // A packet entered node `to`.
  void on_rx(bool rsp, unsigned to, const ni::WirePacket& p, uint64_t cycle);
  void on_net(const NetEvent& e);
  void on_memwr(unsigned node, const MemWrEvent& e);
  // Once per cycle: the rx ports' back-pressure (valid && !ready) per node.
  void on_rx_stall(bool rsp);
  void on_tx_full_stall();
  void write(const std::string& path, const nlohmann::json& source) const;

 private:
  using Key = std::tuple<unsigned, unsigned, unsigned, unsigned>;  // to, src, tid, seq
  struct Block {
    unsigned npkts = 0, got = 0, max_slot = 0;
    bool any = false, ctrl = false;
    std::set<unsigned> slots;
  };
  void declare();

  CoverageDb db_;
  std::map<Key, Block> blocks_;           // request data arriving at each node, by block
  std::map<unsigned, unsigned> open_at_;  // node -> blocks partly arrived
};

}  // namespace sim
