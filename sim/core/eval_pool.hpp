// SPDX-License-Identifier: Apache-2.0
// Evaluates several verilated tops on several threads, one clock phase at a time.
//
// The tops of one simulation (the N nodes of ni_sim) only meet through the test bench
// between clock phases, so within a phase each top's eval() is independent of the others.
// The pool gives every top a fixed thread (top i on thread i % threads; thread 0 is the
// caller's), and eval_all() sets the clock of every top and evaluates it on its thread, with
// one barrier at the end: when it returns, every top has settled. Everything else (the test
// bench's components, the waveform dump) stays on the caller's thread, so a run is the same,
// byte for byte, whatever the thread count.
//
// Waiting threads spin for a while (adaptively bounded), yield, then sleep on a condition
// variable, so a pool on a machine with fewer free cores than threads slows down instead of
// starving the others. Where the cores are taken (more threads than free cores: other jobs
// on the machine, or --threads above the core count), the waits can cost far more than the
// evaluation itself: over each window of kWindow phases (from its kProbe-th on) the caller
// compares its wait with its own evaluation time, and when one thread would have been far
// faster (wait > 4 x (threads - 1) x own) it evaluates every top itself for a stretch of
// phases, then tries the threads again; the stretch doubles after every window that failed
// again (kSerialPhases up to kMaxSerialPhases), so the trials cost little while the cores
// stay taken. Which thread evaluates a top changes nothing in the run.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

class VerilatedContext;

namespace sim {

class Dut;

class EvalPool {
 public:
  // `threads` >= 1, the caller's thread included; at most one thread per top is used.
  EvalPool(VerilatedContext& ctx, const std::vector<Dut*>& duts, unsigned threads);
  ~EvalPool();
  EvalPool(const EvalPool&) = delete;
  EvalPool& operator=(const EvalPool&) = delete;

  // Every top: set_clk(high), eval(). Returns when all have settled.
  void eval_all(bool high);
  unsigned threads() const { return unsigned(share_.size()); }
  // Phases evaluated, and of those, evaluated on the caller's thread alone (contention).
  uint64_t phases() const { return phases_; }
  uint64_t serial_phases() const { return serial_phases_; }

  static constexpr unsigned kWindow = 256;                // phases between two decisions
  static constexpr unsigned kProbe = 8;                   // the earliest decision in one
  static constexpr unsigned kSerialPhases = 16384;        // the first stretch on one thread
  static constexpr unsigned kMaxSerialPhases = 1u << 20;  // the longest

 private:
  void worker(unsigned w);
  template <typename Ready>
  void wait_for(Ready ready, std::condition_variable& cv, int64_t& spin_ns);

  VerilatedContext& ctx_;
  std::vector<std::vector<Dut*>> share_;  // share_[0]: the caller's tops
  std::vector<std::thread> workers_;
  bool high_ = false;                  // the phase: written before epoch_ is bumped
  std::atomic<uint64_t> epoch_{0};     // bumped once per eval_all()
  std::atomic<unsigned> pending_{0};   // workers still evaluating this phase
  std::atomic<unsigned> sleepers_{0};  // threads asleep on cv_work_ or cv_done_
  std::atomic<bool> stop_{false};
  int64_t spin_ns_ = 200000;  // the caller's spin bound (see wait_for)
  // The caller's record (see above).
  unsigned window_ = 0;                  // parallel phases in this window
  int64_t own_ns_ = 0;                   // the caller's time evaluating its own tops in them
  int64_t wait_ns_ = 0;                  // and waiting for the workers
  unsigned serial_left_ = 0;             // phases still to evaluate on the caller's thread
  unsigned serial_run_ = kSerialPhases;  // the next stretch
  uint64_t phases_ = 0;
  uint64_t serial_phases_ = 0;
  std::mutex mutex_;
  std::condition_variable cv_work_, cv_done_;
};

}  // namespace sim
