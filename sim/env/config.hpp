// SPDX-License-Identifier: Apache-2.0
// Run configuration of ni_sim: the random traffic mix, AXI master behaviour, responder and
// stall injectors. Loaded from a JSON file (--config, or the "config" object of a scenario);
// every key is checked: an unknown key, a wrong type or an out-of-range value is an error
// that names the file and the key.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "sim/agents/axi_master.hpp"
#include "sim/agents/cpu.hpp"
#include "sim/agents/mem_model.hpp"
#include "sim/agents/network.hpp"
#include "sim/agents/responder.hpp"
#include "sim/agents/stall_injector.hpp"

namespace sim {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Control registers each CPU writes before its first descriptor (ICD 14, 15 "retx"); only
// the keys given are written.
struct RetxConfig {
  std::optional<uint64_t> timeout, max_retries, rx_idle;
  bool any() const { return timeout || max_retries || rx_idle; }
};

struct SimConfig {
  uint64_t seed = 1;
  uint64_t max_cycles = 0;  // 0 = automatic (generous bound from the transfer count)
  TrafficConfig traffic;
  AxiMaster::Options axi;
  ResponderOptions responder;
  StallOptions blk_stall;
  StallOptions pkt_stall;
  // Full NI (ICD 15): 0 = the QoS engine alone; N >= 1 = N ni_nodes on a network.
  unsigned nodes = 0;
  MemOptions memory;
  NetOptions network;
  RetxConfig retx;

  // Applies the keys present in `j` on top of the current values. `where` names the source
  // (file name) for error messages.
  void apply(const nlohmann::json& j, const std::string& where);
  nlohmann::json to_json() const;
};

// Reads and parses a JSON file; errors name the file (and line for syntax errors).
nlohmann::json read_json_file(const std::string& path);

}  // namespace sim
