// SPDX-License-Identifier: Apache-2.0
#include "sim/core/progress.hpp"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>

namespace sim {

Progress::Mode Progress::mode_for_stderr(bool quiet) {
  if (quiet) return Mode::Off;
  return isatty(STDERR_FILENO) ? Mode::Live : Mode::Lines;
}

void Progress::start(double now) {
  start_ = now;
  last_ = now;
}

void Progress::update(double now, uint64_t finished, uint64_t total, uint64_t cycle) {
  if (mode_ == Mode::Off) return;
  if (now - last_ < (mode_ == Mode::Live ? 0.5 : 30.0)) return;
  last_ = now;
  const double elapsed = now - start_;
  const double khz = elapsed > 0 ? double(cycle) / elapsed / 1000.0 : 0.0;
  char eta[32] = "?";
  if (finished > 0 && finished <= total) {
    const double left = elapsed * double(total - finished) / double(finished);
    std::snprintf(eta, sizeof eta, "%.0f s", left);
  }
  std::fprintf(stderr,
               "%s[ni_sim] %s: transfers %" PRIu64 "/%" PRIu64 " done, cycle %" PRIu64
               ", %.1f kHz, %.0f s elapsed, ETA %s%s",
               mode_ == Mode::Live ? "\r" : "", label_.c_str(), finished, total, cycle, khz,
               elapsed, eta, mode_ == Mode::Live ? "   " : "\n");
  std::fflush(stderr);
  printed_ = true;
}

void Progress::finish() {
  if (mode_ == Mode::Live && printed_) std::fputc('\n', stderr);
  printed_ = false;
}

}  // namespace sim
