// SPDX-License-Identifier: Apache-2.0
#include "sim/core/eval_pool.hpp"

#include <algorithm>
#include <chrono>

#include "sim/core/dut.hpp"
#include "verilated.h"

namespace sim {

namespace {
// A waiting thread spins first: a node's clock phase and the test bench's work between
// phases take microseconds, and with a core to itself the thread never sleeps. The spin is
// bounded in time and adapts (per thread): a wait that outlasts it halves the next bound, one
// that ends inside it doubles it (up to kMaxSpin). When there are fewer free cores than
// threads, the bound thus drops and the waiter yields its core to the thread it waits for,
// then sleeps.
constexpr int64_t kMaxSpinNs = 200000;
constexpr int64_t kMinSpinNs = 500;
constexpr unsigned kYields = 64;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

EvalPool::EvalPool(VerilatedContext& ctx, const std::vector<Dut*>& duts, unsigned threads)
    : ctx_(ctx) {
  unsigned n = threads == 0 ? 1 : threads;
  if (n > duts.size()) n = duts.empty() ? 1 : unsigned(duts.size());
  share_.resize(n);
  for (std::size_t i = 0; i < duts.size(); ++i) share_[i % n].push_back(duts[i]);
  for (unsigned w = 1; w < n; ++w) workers_.emplace_back([this, w] { worker(w); });
}

EvalPool::~EvalPool() {
  stop_.store(true);
  epoch_.fetch_add(1);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cv_work_.notify_all();
  }
  for (std::thread& t : workers_) t.join();
}

// Spins on `ready`, then sleeps on `cv` until it holds. The sleeper count and the state
// `ready` reads are sequentially consistent, so a waker either sees the sleeper and
// notifies under the mutex, or the sleeper sees the new state before it waits.
template <typename Ready>
void EvalPool::wait_for(Ready ready, std::condition_variable& cv, int64_t& spin_ns) {
  if (ready()) return;
  const int64_t until = now_ns() + spin_ns;
  for (unsigned i = 1;; ++i) {
    cpu_relax();
    if (ready()) {
      spin_ns = std::min(kMaxSpinNs, spin_ns * 2);
      return;
    }
    if ((i & 15) == 0 && now_ns() > until) break;
  }
  spin_ns = std::max(kMinSpinNs, spin_ns / 2);
  for (unsigned i = 0; i < kYields; ++i) {
    std::this_thread::yield();
    if (ready()) return;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  sleepers_.fetch_add(1);
  cv.wait(lock, ready);
  sleepers_.fetch_sub(1);
}

void EvalPool::worker(unsigned w) {
  // Verilator's run time finds the context of the calling thread through this.
  Verilated::threadContextp(&ctx_);
  uint64_t seen = 0;
  int64_t spin_ns = kMaxSpinNs;
  for (;;) {
    wait_for([this, seen] { return epoch_.load() != seen; }, cv_work_, spin_ns);
    seen = epoch_.load();
    if (stop_.load()) return;
    for (Dut* d : share_[w]) {
      d->set_clk(high_);
      d->eval();
    }
    if (pending_.fetch_sub(1) == 1 && sleepers_.load() != 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      cv_done_.notify_all();
    }
  }
}

void EvalPool::eval_all(bool high) {
  ++phases_;
  if (serial_left_ != 0) {
    --serial_left_;
    ++serial_phases_;
    for (const std::vector<Dut*>& s : share_) {
      for (Dut* d : s) {
        d->set_clk(high);
        d->eval();
      }
    }
    return;
  }
  if (!workers_.empty()) {
    high_ = high;
    pending_.store(unsigned(workers_.size()));
    epoch_.fetch_add(1);
    if (sleepers_.load() != 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      cv_work_.notify_all();
    }
  }
  const int64_t t0 = now_ns();
  for (Dut* d : share_[0]) {
    d->set_clk(high);
    d->eval();
  }
  if (workers_.empty()) return;
  const int64_t t1 = now_ns();
  wait_for([this] { return pending_.load() == 0; }, cv_done_, spin_ns_);
  own_ns_ += t1 - t0;
  wait_ns_ += now_ns() - t1;
  ++window_;
  // One thread would take about threads() x own; the threads took own + wait. Only a wait
  // far beyond that counts (the factor 4 keeps 3 nodes on 2 threads of a free machine in
  // parallel for most phases). Judged from kProbe phases on (a wait of a scheduler tick
  // shows at once), and at the window's end.
  const bool slower = wait_ns_ > 4 * int64_t(share_.size() - 1) * own_ns_;
  if (window_ >= kProbe && slower) {
    serial_left_ = serial_run_;
    serial_run_ = std::min(2 * serial_run_, kMaxSerialPhases);
  } else if (window_ == kWindow) {
    serial_run_ = kSerialPhases;
  } else {
    return;
  }
  window_ = 0;
  own_ns_ = 0;
  wait_ns_ = 0;
}

}  // namespace sim
