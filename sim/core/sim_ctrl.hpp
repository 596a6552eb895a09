// SPDX-License-Identifier: Apache-2.0
// Simulation control: owns the clock, the reset, the cycle count, waveform tracing and the
// run loop of one or more verilated tops (Dut), all on one clock; test-bench components plug
// into it (see component.hpp for the per-cycle protocol).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/component.hpp"
#include "sim/core/dut.hpp"
#include "sim/core/eval_pool.hpp"

class VerilatedContext;
class VerilatedFstC;

namespace sim {

class SimCtrl {
 public:
  explicit SimCtrl(VerilatedContext& ctx);
  ~SimCtrl();
  SimCtrl(const SimCtrl&) = delete;
  SimCtrl& operator=(const SimCtrl&) = delete;

  // The tops it clocks (all from `ctx`), in evaluation order.
  void add_dut(Dut& d) { duts_.push_back(&d); }
  void add(Component& c) { components_.push_back(&c); }
  // Evaluate the tops on `n` threads (the caller's included; at most one per top): each
  // clock phase evaluates every top on its own thread (EvalPool), the components stay on
  // the caller's. The run is the same, byte for byte, for every n. Call after add_dut().
  void set_threads(unsigned n);
  unsigned threads() const;
  // Split evaluation (Dut::split_eval): on by default; in effect on the tops that support it
  // from the end of reset() on, except while a waveform is written or in a binary built for
  // code coverage. Off: every eval() evaluates every region (Verilator's eval()). A run is
  // the same, byte for byte, either way (tests/sim/test_threads.py).
  void set_split_eval(bool on);
  // Whether every top evaluates split now.
  bool split_eval() const { return split_active_; }
  // With threads: clock phases evaluated, and of those on the caller's thread alone because
  // the cores were taken (EvalPool); 0 and 0 with one thread.
  uint64_t pool_phases() const;
  uint64_t pool_serial_phases() const;

  // Waveforms (FST) of every top, each under the scope of its instance name. Dumping starts
  // at cycle `from` (0 = from reset).
  void open_trace(const std::string& path, uint64_t from = 0);
  void close_trace();
  bool tracing() const { return trace_ != nullptr; }

  // Hold rst_ni low for `cycles` clock edges, then release it; cycle() restarts at 0, so the
  // first rising edge after the release is cycle 0 (ICD section 9).
  void reset(unsigned cycles = 4);
  // One clock cycle: drive, settle, sample, rising edge.
  void step();
  // Step until `done()` or `max_cycles` cycles have run since the call; returns done().
  bool run_until(const std::function<bool()>& done, uint64_t max_cycles);

  uint64_t cycle() const { return cycle_; }

  // Optional wall-clock profile of step() (off by default; when on, each cycle reads the
  // steady clock eight times, a few per cent of a cycle's cost): time in the verilated model's
  // eval() calls, in the components' drive() / sample() / post_edge() (the monitor's include
  // its listeners: scoreboard and golden model, log writer, ...) and in waveform dumping.
  // Whatever is not in step() (the caller's run loop) is the caller's to measure.
  struct Profile {
    uint64_t cycles = 0;
    double eval_s = 0;       // dut.eval(), both clock phases
    double drive_s = 0;      // Component::drive
    double sample_s = 0;     // Component::sample (monitor -> scoreboard -> golden model)
    double post_edge_s = 0;  // Component::post_edge (status decoding, end of the model's cycle)
    double dump_s = 0;       // FST dumping
  };
  void set_profiling(bool on) { profiling_ = on; }
  const Profile& profile() const { return profile_; }

  // Ctrl-C: the first SIGINT asks the run loop to stop at the end of the cycle.
  static void install_sigint_handler();
  static bool interrupted();

 private:
  void dump(uint64_t t);
  void step_profiled();
  void clock(bool high);
  void apply_split();

  VerilatedContext& ctx_;
  std::vector<Dut*> duts_;
  std::vector<Component*> components_;
  std::unique_ptr<EvalPool> pool_;  // set_threads(n > 1)
  struct TraceDeleter {
    void operator()(VerilatedFstC* t) const;
  };
  std::unique_ptr<VerilatedFstC, TraceDeleter> trace_;
  uint64_t trace_from_ = 0;
  uint64_t cycle_ = 0;
  bool profiling_ = false;
  bool split_wanted_ = true;
  bool split_active_ = false;
  bool out_of_reset_ = false;
  Profile profile_;
};

}  // namespace sim
