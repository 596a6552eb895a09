// SPDX-License-Identifier: Apache-2.0
// sync_fifo: lockstep against a std::deque model, plus directed cases.
//
// Model (rtl/sync_fifo.sv header): a small first-word-fall-through FIFO (AW, B and finish
// FIFOs). head_o is the oldest word whenever the FIFO is not empty (not compared when
// empty); count_o/empty_o/full_o describe the content; a push is visible from the next
// cycle; a pop takes the current head. Pop then push: at full, a push is legal together with
// a pop. Reset empties it.
// Input contract (the module's assertions): no pop when empty; no push when full unless
// popping in the same cycle. Data is arbitrary (duplicates allowed).
//
// Two parameterisations: the default (Depth 8, Width 8) and Depth 3, Width 20 (not a power
// of two; model sync_fifo_d3).
#include <deque>

#include "Vsync_fifo.h"
#include "Vsync_fifo_d3.h"
#include "tests/common/lockstep.hpp"

namespace {

using lockstep::Harness;
using lockstep::Rng;

constexpr const char* kBinary = "tb_sync_fifo";

struct Inputs {
  bool rst = false;
  bool push = false;
  std::uint32_t data = 0;
  bool pop = false;
  std::string describe() const {
    if (rst) return "reset";
    std::ostringstream os;
    os << "push=" << push << " push_data=" << lockstep::hex(data) << " pop=" << pop;
    return os.str();
  }
};

template <class Dut>
void apply(Harness<Dut>& h, const Inputs& in) {
  h->push_i = in.push;
  h->push_data_i = in.data;
  h->pop_i = in.pop;
}

template <class Dut>
void lockstep_run(unsigned depth, unsigned width, const char* what) {
  const std::uint32_t seed = lockstep::seed();
  const std::uint64_t n = lockstep::cycles();
  const std::string test = Catch::getResultCapture().getCurrentTestName();
  Rng rng(seed);
  Harness<Dut> h;
  lockstep::Checker<Inputs> chk(what, seed, lockstep::reproduce_cmd(kBinary, test, seed, n));
  std::deque<std::uint32_t> fifo;
  lockstep::reset(h);

  unsigned p_push = 50, p_pop = 50;
  std::uint64_t full_push_pop = 0, empty_cycles = 0, full_cycles = 0;
  for (std::uint64_t c = 0; c < n; ++c) {
    if (rng.below(64) == 0) {
      static constexpr unsigned kRates[][2] = {{90, 10}, {10, 90}, {50, 50}, {100, 100},
                                               {70, 40}, {40, 70}, {100, 0}, {0, 100}};
      const auto& r = kRates[rng.below(8)];
      p_push = r[0];
      p_pop = r[1];
    }
    Inputs in;
    if (rng.below(100000) == 0) {
      in.rst = true;
      chk.begin(c, in);
      h->rst_ni = 0;
      h.settle();
      h.posedge();
      h->rst_ni = 1;
      fifo.clear();
      chk.end(h.sva_failed());
      continue;
    }
    const bool empty = fifo.empty();
    const bool full = fifo.size() == depth;
    in.pop = !empty && rng.chance(p_pop);
    in.push = (!full || in.pop) && rng.chance(p_push);
    in.data = static_cast<std::uint32_t>(rng.bits(width));
    chk.begin(c, in);
    apply(h, in);
    h.settle();
    chk.expect("count_o", fifo.size(), h->count_o);
    chk.expect("empty_o", empty, h->empty_o);
    chk.expect("full_o", full, h->full_o);
    if (!empty) chk.expect("head_o", fifo.front(), h->head_o);
    h.posedge();
    if (in.pop) fifo.pop_front();
    if (in.push) fifo.push_back(in.data);
    full_push_pop += (full && in.push && in.pop) ? 1 : 0;
    empty_cycles += empty ? 1 : 0;
    full_cycles += full ? 1 : 0;
    chk.end(h.sva_failed());
  }
  CHECK(full_push_pop > n / 200);
  CHECK(empty_cycles > n / 20);
  CHECK(full_cycles > n / 20);
}

template <class Dut>
void op(Harness<Dut>& h, bool push, std::uint32_t data, bool pop) {
  apply(h, Inputs{false, push, data, pop});
  h.cycle();
}

}  // namespace

TEST_CASE("sync_fifo: lockstep random (Depth 8 Width 8)", "[sync_fifo][lockstep]") {
  lockstep_run<Vsync_fifo>(8, 8, "sync_fifo Depth=8 Width=8");
}

TEST_CASE("sync_fifo: lockstep random (Depth 3 Width 20)", "[sync_fifo][lockstep]") {
  lockstep_run<Vsync_fifo_d3>(3, 20, "sync_fifo Depth=3 Width=20");
}

TEST_CASE("sync_fifo: push and pop together when full keeps it full", "[sync_fifo][directed]") {
  Harness<Vsync_fifo_d3> h;
  lockstep::reset(h);
  op(h, true, 0xA, false);
  op(h, true, 0xB, false);
  op(h, true, 0xC, false);
  apply(h, Inputs{});
  h.settle();
  REQUIRE(h->full_o == 1);
  REQUIRE(h->count_o == 3);
  // Five push+pop cycles at full: the heads come out in order, it stays full.
  const std::uint32_t want[] = {0xA, 0xB, 0xC, 0xD, 0xE};
  for (std::uint32_t i = 0; i < 5; ++i) {
    apply(h, Inputs{false, true, 0xD + i, true});
    h.settle();
    CHECK(h->head_o == want[i]);
    CHECK(h->full_o == 1);
    h.posedge();
  }
  // Drain: F, 10, 11 remain.
  for (std::uint32_t d : {0xFu, 0x10u, 0x11u}) {
    apply(h, Inputs{false, false, 0, true});
    h.settle();
    CHECK(h->head_o == d);
    h.posedge();
  }
  apply(h, Inputs{});
  h.settle();
  CHECK(h->empty_o == 1);
  CHECK(h->count_o == 0);
  REQUIRE_FALSE(h.sva_failed());
}

TEST_CASE("sync_fifo: contract violations fire the SVA assertions", "[sync_fifo][sva]") {
  SECTION("pop when empty") {
    Harness<Vsync_fifo> h;
    lockstep::reset(h);
    op(h, true, 1, true);  // push and pop while empty: the pop is illegal
    CHECK(h.sva_failed());
  }
  SECTION("push when full without a pop") {
    Harness<Vsync_fifo_d3> h;
    lockstep::reset(h);
    for (std::uint32_t i = 0; i < 3; ++i) op(h, true, i, false);
    REQUIRE_FALSE(h.sva_failed());
    op(h, true, 3, false);
    CHECK(h.sva_failed());
  }
}
