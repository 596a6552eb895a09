// SPDX-License-Identifier: Apache-2.0
// sim::EvalPool, the clock-phase evaluation of several tops on several threads: every top is
// evaluated once per phase with the phase's clock, on the pool's threads or, once the pool
// has found that its threads wait far longer than they evaluate (the cores are taken), on the
// caller's thread alone. The tops here are stand-ins with a chosen cost per evaluation, so
// the pool's decision is forced: a worker top that takes a millisecond beside a caller's top
// that takes nothing is the wait the fallback exists for.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "sim/core/dut.hpp"
#include "sim/core/eval_pool.hpp"
#include "verilated.h"

namespace {

class CostDut : public sim::Dut {
 public:
  CostDut(std::string name, std::chrono::microseconds cost) : name_(std::move(name)), cost_(cost) {}
  void set_clk(bool high) override { clk_ = high; }
  void set_rst_n(bool) override {}
  void eval() override {
    ++evals_;
    if (clk_) ++high_evals_;
    if (cost_.count() != 0) std::this_thread::sleep_for(cost_);
  }
  void trace(VerilatedFstC&, int) override {}
  void final() override {}
  const std::string& name() const override { return name_; }

  unsigned evals() const { return evals_; }
  unsigned high_evals() const { return high_evals_; }
  bool clk() const { return clk_; }

 private:
  std::string name_;
  std::chrono::microseconds cost_;
  bool clk_ = false;
  unsigned evals_ = 0;
  unsigned high_evals_ = 0;
};

}  // namespace

TEST_CASE("eval_pool: every top is evaluated once per phase with that phase's clock",
          "[eval_pool]") {
  VerilatedContext ctx;
  std::vector<CostDut> tops;
  for (int i = 0; i < 5; ++i)
    tops.emplace_back("top" + std::to_string(i), std::chrono::microseconds(0));
  std::vector<sim::Dut*> duts;
  for (CostDut& t : tops) duts.push_back(&t);
  const unsigned threads = GENERATE(1u, 2u, 3u, 8u);
  sim::EvalPool pool(ctx, duts, threads);
  CHECK(pool.threads() == std::min<unsigned>(threads, 5));
  for (unsigned p = 0; p < 1000; ++p) {
    pool.eval_all(p % 2 == 1);
    for (const CostDut& t : tops) {
      REQUIRE(t.evals() == p + 1);
      REQUIRE(t.clk() == (p % 2 == 1));
    }
  }
  for (const CostDut& t : tops) CHECK(t.high_evals() == 500);
  CHECK(pool.phases() == 1000);
}

TEST_CASE("eval_pool: a pool whose workers keep the caller waiting evaluates on one thread",
          "[eval_pool]") {
  VerilatedContext ctx;
  // The caller's top costs nothing, the worker's a millisecond: the caller's wait is far
  // beyond 4 x its own evaluation from the first phase, so the pool decides at its earliest
  // decision point (EvalPool::kProbe phases) and evaluates the next kSerialPhases phases
  // on the caller's thread.
  CostDut own("own", std::chrono::microseconds(0));
  CostDut slow("slow", std::chrono::microseconds(1000));
  sim::EvalPool pool(ctx, {&own, &slow}, 2);
  REQUIRE(pool.threads() == 2);
  // (The caller's own evaluation could only look long if its thread were descheduled in it;
  // then the decision comes a phase or a few later.)
  const unsigned phases = sim::EvalPool::kProbe + 64;
  for (unsigned p = 0; p < phases; ++p) pool.eval_all(p % 2 == 0);
  CHECK(pool.phases() == phases);
  CHECK(pool.serial_phases() > 0);
  CHECK(pool.serial_phases() <= phases - sim::EvalPool::kProbe);
  CHECK(own.evals() == phases);
  CHECK(slow.evals() == phases);
  CHECK(slow.clk() == own.clk());
}

TEST_CASE("eval_pool: one thread never counts phases as a fallback", "[eval_pool]") {
  VerilatedContext ctx;
  CostDut a("a", std::chrono::microseconds(0));
  CostDut b("b", std::chrono::microseconds(100));
  sim::EvalPool pool(ctx, {&a, &b}, 1);
  REQUIRE(pool.threads() == 1);
  for (unsigned p = 0; p < 64; ++p) pool.eval_all(p % 2 == 0);
  CHECK(pool.phases() == 64);
  CHECK(pool.serial_phases() == 0);
  CHECK(a.evals() == 64);
  CHECK(b.evals() == 64);
}
