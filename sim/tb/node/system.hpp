// SPDX-License-Identifier: Apache-2.0
// The full-NI verification environment (ICD 15): N verilated ni_node instances in one process
// on one clock, each with its own random CPU (AXI master), memory model, monitors, QoS-engine
// checker (golden model over the trace port) and send-unit packet checker, joined by two
// network models (requests, responses), and an end-to-end scoreboard over all of them. Used
// by ni_sim --nodes N (N >= 1).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/core/config.hpp"
#include "sim/core/progress.hpp"
#include "sim/core/run_result.hpp"
#include "sim/core/scenario.hpp"

class VerilatedContext;

namespace sim {

class NodeSystem {
 public:
  struct Options {
    SimConfig cfg;                       // cfg.nodes >= 1
    const Scenario* scenario = nullptr;  // replay this scenario (no random CPUs)
    std::string record_path;             // --record: write the run's stimulus as a scenario
    std::string log_path;                // --log
    std::string trace_path;              // --trace (FST, one scope per node: node0, node1, ...)
    uint64_t trace_from = 0;             // first traced cycle
    Progress::Mode progress = Progress::Mode::Off;  // progress on stderr
    bool profile = false;       // --profile: SimCtrl's phase timers, printed by print_profile()
    unsigned threads = 1;       // evaluate the nodes on this many threads (SimCtrl::set_threads)
    std::string coverage_path;  // --coverage: functional coverage of the full NI
    std::string capture_path;   // --capture: CSV of one node's top-level ports
    unsigned capture_node = 0;  // --capture-node
  };

  explicit NodeSystem(Options opt);
  ~NodeSystem();
  NodeSystem(const NodeSystem&) = delete;
  NodeSystem& operator=(const NodeSystem&) = delete;

  // Random run to completion (every CPU's transfers finished) or scenario replay (its events
  // played, everything idle); then statistics read back and checked, final checks of every
  // checker and the cross-node counter balance.
  RunResult run();
  // The report (ICD 15): totals, per node and per network.
  nlohmann::json report(const RunResult& r) const;
  VerilatedContext& context();
  // --profile: where the run's wall time went (the models' eval, the components' phases).
  void print_profile() const;
  // Writes the run's functional coverage (Options::coverage_path set), "ni-fcov/1".
  void write_coverage(const std::string& path, const nlohmann::json& source) const;

 private:
  struct Node;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sim
