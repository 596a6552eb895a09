// SPDX-License-Identifier: Apache-2.0
// Progress of a long run on stderr: transfers finished of the total, cycles, simulation rate
// and an estimate of the time left. On a terminal one line is rewritten in place (every
// 0.5 s); otherwise (a log file, a pipe, a batch job) a full line is printed every 30 s, so
// that a run whose output goes to a file still shows it is alive.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace sim {

class Progress {
 public:
  enum class Mode { Off, Live, Lines };
  // Live on a terminal, Lines otherwise; Off when `quiet`.
  static Mode mode_for_stderr(bool quiet);

  Progress(Mode mode, std::string label) : mode_(mode), label_(std::move(label)) {}
  bool on() const { return mode_ != Mode::Off; }
  // The run's clock starts (after reset and initialisation).
  void start(double now);
  // Cheap enough to call every few thousand cycles: prints only when the interval passed.
  void update(double now, uint64_t finished, uint64_t total, uint64_t cycle);
  // Ends the live line (a newline), once, when anything was printed.
  void finish();

 private:
  Mode mode_;
  std::string label_;
  double start_ = 0, last_ = 0;
  bool printed_ = false;
};

}  // namespace sim
