// SPDX-License-Identifier: Apache-2.0
// The full NI (ICD 15) as a wiring of the Env: N ni_nodes (NodeAgents: the node, its AXI
// master and memory, its monitors, bus and unit checkers) in one process on one clock, each
// with its own random CPU or scenario driver, joined by two networks (requests, responses),
// and an end-to-end scoreboard over all of them; the log writers, the functional coverage and
// the counters' tally subscribe to the buses. Used by ni_sim --nodes N (N >= 1).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/env/env.hpp"

namespace sim {

class E2eScoreboard;
class Network;
class NodeCoverage;

class NodeWiring : public Wiring {
 public:
  explicit NodeWiring(Env& env);
  ~NodeWiring() override;

  void configure() override;
  bool initialised() const override;
  bool done() const override;
  uint64_t cycle_budget() const override;
  std::string timeout_message(uint64_t budget) const override;
  uint64_t transfers_finished() const override;
  // Every statistics counter of every node over its CPU port: 0-15 the engine models check,
  // 16-26 the receive-unit models, and end_problems() balances them across the nodes and
  // networks.
  void read_back() override;
  std::vector<std::string> end_problems() const override;
  void report(const RunResult& r, nlohmann::json& j) const override;
  std::string summary(const nlohmann::json& report) const override;
  std::string random_run_name() const override;
  std::string progress_label(unsigned threads) const override;
  std::vector<CaptureSignal> capture_columns(unsigned node) const override;
  void write_coverage(const std::string& path, const nlohmann::json& source) const override;
  // The GTKWave save file of the trace (NiNodeDut::write_save_file).
  void trace_closed(const std::string& fst) const override;

 private:
  struct Node;
  class NetScenarioDriver;
  void build_node(unsigned i);
  uint64_t transfers_of(unsigned i) const;

  Env& env_;
  bool faulty_ = false;  // faults injected: ERROR endings and stray writes allowed
  std::vector<std::unique_ptr<Node>> nodes_;
  std::unique_ptr<Rng> req_rng_, rsp_rng_;
  EventBus net_bus_;  // what the networks did (NetEvent)
  std::unique_ptr<Network> req_, rsp_;
  std::unique_ptr<E2eScoreboard> e2e_;
  std::unique_ptr<NetScenarioDriver> net_driver_;
  std::unique_ptr<NodeCoverage> cov_;  // --coverage
};

// ni_sim --nodes N: the Env's wiring for N nodes.
Env::MakeWiring node_wiring();

}  // namespace sim
