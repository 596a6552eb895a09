// SPDX-License-Identifier: Apache-2.0
// The checker interface (ibex's Cosim idea): the harness reports what the DUT did, through
// the Listener callbacks, and the checker compares it with its golden model and accumulates
// mismatches. The cycle-level checker of the QoS engine (EngineChecker) is one
// implementation; the packet checkers of the send and receive units and the end-to-end
// scoreboard of the N-node simulator are others. A testbench holds a list of them and asks
// each the same questions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/events.hpp"

namespace sim {

struct CheckFailure {
  uint64_t cycle = 0;
  std::string what;    // one line
  std::string detail;  // field-by-field diff, context
};

class Checker : public Listener {
 public:
  // A short name for messages ("engine", "node1 send unit", ...).
  virtual std::string name() const = 0;
  // Mismatches found so far, first first (a checker may stop at the first).
  virtual const std::vector<CheckFailure>& errors() const = 0;
  bool failed() const { return !errors().empty(); }
  const CheckFailure& first_error() const { return errors().front(); }
  // True when the checker expects nothing more from the DUT (the run may end).
  virtual bool quiescent() const = 0;
  // End-of-run checks (nothing pending, every ID back, ...): the problems found, also
  // recorded as errors.
  virtual std::vector<std::string> final_check(uint64_t cycle) = 0;
};

}  // namespace sim
