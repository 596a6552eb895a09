// SPDX-License-Identifier: Apache-2.0
// The outcome of one simulation run.
#pragma once

#include <cstdint>
#include <string>

namespace sim {

struct RunResult {
  bool passed = false;
  bool timeout = false;
  bool interrupted = false;
  uint64_t cycles = 0;
  double wall_seconds = 0;
  std::string failure;  // first failure, one line
  std::string detail;   // context
  uint64_t fail_cycle = 0;
};

// Seconds on a monotonic clock (for wall-time figures).
double now_seconds();

}  // namespace sim
