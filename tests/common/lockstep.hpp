// SPDX-License-Identifier: Apache-2.0
// Plumbing shared by the lockstep tests of the RTL primitives (tests/prim/tb_*.cpp).
//
// A lockstep test drives a verilated primitive and an independent C++ model of it with the
// same random input stream and compares every output in every cycle. The pieces:
//   Knobs      LOCKSTEP_CYCLES / LOCKSTEP_SEED from the environment.
//   Rng        portable random numbers (Boost.Random: the same stream with every compiler).
//   Harness    owns the VerilatedContext and the model; clock phases; SVA failure detection.
//   Checker    collects the mismatches of one cycle, keeps the inputs of the last cycles and
//              fails the Catch2 test with a report (cycle, seed, outputs, history, command).
//
// Cycle protocol (all tests): inputs are changed while the clock is low (away from the
// active edge), then `settle()` evaluates the combinational outputs, which are compared,
// then `posedge()` applies the rising edge, and the model takes the same step.
#ifndef NI_TESTS_PRIM_LOCKSTEP_HPP_
#define NI_TESTS_PRIM_LOCKSTEP_HPP_

// Catch2 prints the std::pair operands of a failed check.
#define CATCH_CONFIG_ENABLE_PAIR_STRINGMAKER

#include <unistd.h>
#include <verilated.h>
#if VM_COVERAGE
#include <verilated_cov.h>
#endif

#include <array>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace lockstep {

// ------------------------------------------------------------------------------------------
// Knobs
// ------------------------------------------------------------------------------------------
inline std::uint64_t env_u64(const char* name, std::uint64_t dflt) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return dflt;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v, &end, 0);
  if (end == v || *end != '\0') {
    FAIL("environment variable " << name << "='" << v << "' is not a number");
  }
  return static_cast<std::uint64_t>(x);
}

// Random cycles per lockstep test case: LOCKSTEP_CYCLES, default 4,000,000 (each binary runs
// two parameterisations of its primitive in at most ~2.5 s).
inline std::uint64_t cycles(std::uint64_t dflt = 4000000) {
  return env_u64("LOCKSTEP_CYCLES", dflt);
}

// Seed: LOCKSTEP_SEED (a number, or "random" for a fresh one, reported on failure), default 1.
inline std::uint32_t seed(std::uint32_t dflt = 1) {
  const char* v = std::getenv("LOCKSTEP_SEED");
  if (v != nullptr && std::string(v) == "random") return std::random_device{}();
  return static_cast<std::uint32_t>(env_u64("LOCKSTEP_SEED", dflt));
}

// ------------------------------------------------------------------------------------------
// Random numbers
// ------------------------------------------------------------------------------------------
class Rng {
 public:
  explicit Rng(std::uint32_t seed) : gen_(seed) {}

  // Uniform in [lo, hi] (inclusive).
  std::uint64_t range(std::uint64_t lo, std::uint64_t hi) {
    return boost::random::uniform_int_distribution<std::uint64_t>(lo, hi)(gen_);
  }
  // Uniform in [0, n).
  std::uint64_t below(std::uint64_t n) { return range(0, n - 1); }
  // True with probability percent/100.
  bool chance(unsigned percent) { return below(100) < percent; }
  bool coin() { return below(2) != 0; }
  // Uniform over all values of `bits` bits.
  std::uint64_t bits(unsigned n) {
    return n >= 64 ? range(0, ~std::uint64_t{0}) : range(0, (std::uint64_t{1} << n) - 1);
  }

 private:
  boost::random::mt19937 gen_;
};

// ------------------------------------------------------------------------------------------
// Verilated model and its clock
// ------------------------------------------------------------------------------------------
template <class Model>
class Harness {
 public:
  Harness() : ctx_(std::make_unique<VerilatedContext>()) {
    // A failing SVA ($error) sets gotError() instead of aborting the process, so the test
    // reports it with its history and the other test cases still run.
    ctx_->fatalOnError(false);
    dut_ = std::make_unique<Model>(ctx_.get(), "TOP");
    dut_->clk_i = 0;
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;
  ~Harness() {
    dut_->final();
#if VM_COVERAGE
    // COVERAGE=1 builds: one coverage file per harness, for verilator_coverage.
    static int serial = 0;
    std::filesystem::create_directories("build/coverage");
    const std::string file =
        "build/coverage/" + std::to_string(::getpid()) + "_" + std::to_string(serial++) + ".dat";
    ctx_->coveragep()->write(file.c_str());
#endif
  }

  Model& dut() { return *dut_; }
  Model* operator->() { return dut_.get(); }

  // Clock low: evaluate the combinational outputs of the inputs just applied.
  void settle() {
    dut_->clk_i = 0;
    ctx_->timeInc(1);
    dut_->eval();
  }
  // Rising edge.
  void posedge() {
    dut_->clk_i = 1;
    ctx_->timeInc(1);
    dut_->eval();
    ++edges_;
  }
  // settle() and posedge(): one cycle with the inputs as they are.
  void cycle() {
    settle();
    posedge();
  }

  // Number of rising edges so far.
  std::uint64_t edges() const { return edges_; }
  // An SVA assertion of the model has failed (its message went to stdout).
  bool sva_failed() const { return ctx_->gotError(); }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> dut_;
  std::uint64_t edges_ = 0;
};

// Asynchronous reset of a model with clk_i/rst_ni: assert between edges, hold for `cycles`
// rising edges, release between edges.
template <class Model>
void reset(Harness<Model>& h, unsigned cycles = 2) {
  h->rst_ni = 0;
  h.settle();
  for (unsigned i = 0; i < cycles; ++i) h.cycle();
  h->rst_ni = 1;
  h.settle();
}

// ------------------------------------------------------------------------------------------
// Formatting helpers
// ------------------------------------------------------------------------------------------
inline std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// ------------------------------------------------------------------------------------------
// Checker: compares outputs, keeps the history, fails the test with a report.
//
// Inputs is the test's record of the inputs of one cycle; it must have
// `std::string describe() const`.
// ------------------------------------------------------------------------------------------
template <class Inputs, std::size_t HistoryDepth = 16>
class Checker {
 public:
  // `what`: the configuration under test; `reproduce`: the command that re-runs this test.
  Checker(std::string what, std::uint32_t seed, std::string reproduce)
      : what_(std::move(what)), seed_(seed), reproduce_(std::move(reproduce)) {}

  // Start cycle `cycle` with these inputs (kept in the history).
  void begin(std::uint64_t cycle, const Inputs& in) {
    cycle_ = cycle;
    hist_[count_ % HistoryDepth] = std::make_pair(cycle, in);
    ++count_;
  }

  template <class E, class A>
  void expect(const char* output, const E& expected, const A& actual) {
    const auto e = static_cast<std::uint64_t>(expected);
    const auto a = static_cast<std::uint64_t>(actual);
    if (e != a) {
      std::ostringstream os;
      os << "  " << output << ": expected " << hex(e) << ", actual " << hex(a) << "\n";
      diffs_ += os.str();
    }
  }

  // End of the checks of this cycle (and of the posedge that follows when called after it).
  void end(bool sva_failed) {
    if (diffs_.empty() && !sva_failed) return;
    std::ostringstream os;
    os << "LOCKSTEP FAILURE: " << what_ << "\n"
       << "cycle " << cycle_ << ", seed " << seed_ << "\n";
    if (!diffs_.empty()) os << "outputs that differ from the model:\n" << diffs_;
    if (sva_failed) {
      os << "an SVA assertion of the RTL failed (its %Error line is in the test's stdout)\n";
    }
    os << "inputs of the last " << std::min<std::uint64_t>(count_, HistoryDepth)
       << " cycles (oldest first):\n";
    const std::uint64_t n = std::min<std::uint64_t>(count_, HistoryDepth);
    for (std::uint64_t i = count_ - n; i < count_; ++i) {
      const auto& [c, in] = hist_[i % HistoryDepth];
      os << "  " << std::setw(9) << c << ": " << in.describe() << "\n";
    }
    os << "reproduce: " << reproduce_ << "\n";
    FAIL(os.str());
  }

 private:
  std::string what_;
  std::uint32_t seed_;
  std::string reproduce_;
  std::uint64_t cycle_ = 0;
  std::uint64_t count_ = 0;
  std::array<std::pair<std::uint64_t, Inputs>, HistoryDepth> hist_{};
  std::string diffs_;
};

// The command line that reproduces a lockstep test case.
inline std::string reproduce_cmd(const std::string& binary, const std::string& test_name,
                                 std::uint32_t seed, std::uint64_t cycles) {
  std::ostringstream os;
  os << "LOCKSTEP_SEED=" << seed << " LOCKSTEP_CYCLES=" << cycles << " build/tests/" << binary
     << " \"" << test_name << "\"";
  return os.str();
}

}  // namespace lockstep

#endif  // NI_TESTS_PRIM_LOCKSTEP_HPP_
