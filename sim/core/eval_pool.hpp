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
// starving the others.
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
  std::mutex mutex_;
  std::condition_variable cv_work_, cv_done_;
};

}  // namespace sim
