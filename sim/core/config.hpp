// SPDX-License-Identifier: Apache-2.0
// Run configuration of ni_sim: the random traffic mix, AXI master behaviour, responder and
// stall injectors. Loaded from a JSON file (--config, or the "config" object of a scenario);
// every key is checked: an unknown key, a wrong type or an out-of-range value is an error
// that names the file and the key.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "sim/agents/axi_master.hpp"
#include "sim/agents/cpu.hpp"
#include "sim/agents/responder.hpp"
#include "sim/agents/stall_injector.hpp"

namespace sim {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SimConfig {
  uint64_t seed = 1;
  uint64_t max_cycles = 0;  // 0 = automatic (generous bound from the transfer count)
  TrafficConfig traffic;
  AxiMaster::Options axi;
  ResponderOptions responder;
  StallOptions blk_stall;
  StallOptions pkt_stall;

  // Applies the keys present in `j` on top of the current values. `where` names the source
  // (file name) for error messages.
  void apply(const nlohmann::json& j, const std::string& where);
  nlohmann::json to_json() const;
};

// Reads and parses a JSON file; errors name the file (and line for syntax errors).
nlohmann::json read_json_file(const std::string& path);

}  // namespace sim
