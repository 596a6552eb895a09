// SPDX-License-Identifier: Apache-2.0
// Scenario shrinking: removes events from a failing scenario while the same first failure
// still occurs (delta debugging, Zeller's ddmin), and returns the smallest scenario found.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "sim/env/config.hpp"
#include "sim/env/scenario.hpp"

namespace sim {

// The failure with every number replaced by '#': "the same failure" for shrinking.
std::string failure_signature(const std::string& failure);

struct ShrinkResult {
  Scenario scenario;
  std::size_t runs = 0;
  bool hit_limit = false;
};

// `fails(sc)` runs a candidate and returns its failure text ("" when it passes).
ShrinkResult shrink_scenario(const Scenario& sc, const std::string& signature,
                             const std::function<std::string(const Scenario&)>& fails,
                             std::size_t max_runs,
                             const std::function<void(const std::string&)>& progress);

// Writes a scenario (its events' original JSON) to `path`.
void save_scenario(const Scenario& sc, const std::string& path, const std::string& description);

}  // namespace sim
