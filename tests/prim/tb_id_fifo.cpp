// SPDX-License-Identifier: Apache-2.0
// id_fifo: lockstep against a std::deque model, plus directed cases.
//
// Model (rtl/id_fifo.sv header, thesis 3.8): a first-word-fall-through FIFO of IDs, one push
// and one pop per cycle. head_o is the oldest ID whenever the FIFO is not empty (undefined
// when empty: not compared); count_o/empty_o/full_o describe the content; a push is visible
// from the next cycle (no write-through to an empty FIFO's head), a pop takes the current
// head. Reset empties it.
// Input contract (the module's assertions): no pop when empty; no push when full (even with
// a pop in the same cycle); an ID is never pushed while it is inside, except the head that
// is popped in the same cycle.
//
// Two parameterisations: the TID FIFO (Depth 512, Width 10: 1024 IDs) and a small one
// (Depth 12, not a power of two, Width 4: 16 IDs; model id_fifo_d12).
#include <algorithm>
#include <deque>

#include "Vid_fifo.h"
#include "Vid_fifo_d12.h"
#include "tests/common/lockstep.hpp"

namespace {

using lockstep::Harness;
using lockstep::Rng;

constexpr const char* kBinary = "tb_id_fifo";

struct Inputs {
  bool rst = false;
  bool push = false;
  std::uint32_t id = 0;
  bool pop = false;
  std::string describe() const {
    if (rst) return "reset";
    std::ostringstream os;
    os << "push=" << push << " push_id=" << id << " pop=" << pop;
    return os.str();
  }
};

// The IDs outside the FIFO, with O(1) random pick and removal.
class Pool {
 public:
  explicit Pool(std::uint32_t n) : pos_(n) { reset(); }
  void reset() {
    ids_.clear();
    for (std::uint32_t i = 0; i < pos_.size(); ++i) add(i);
  }
  void add(std::uint32_t id) {
    pos_[id] = ids_.size();
    ids_.push_back(id);
  }
  void remove(std::uint32_t id) {
    const std::size_t p = pos_[id];
    ids_[p] = ids_.back();
    pos_[ids_[p]] = p;
    ids_.pop_back();
  }
  bool empty() const { return ids_.empty(); }
  std::uint32_t pick(Rng& rng) const { return ids_[rng.below(ids_.size())]; }

 private:
  std::vector<std::uint32_t> ids_;
  std::vector<std::size_t> pos_;
};

template <class Dut>
void apply(Harness<Dut>& h, const Inputs& in) {
  h->push_i = in.push;
  h->push_id_i = in.id;
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
  Pool outside(1u << width);

  lockstep::reset(h);
  // Phases: push/pop rates from draining to filling, and how often the popped head is pushed
  // back in the same cycle.
  unsigned p_push = 50, p_pop = 50, p_recycle = 0;
  std::uint64_t full_cycles = 0, empty_cycles = 0, push_pop = 0;
  for (std::uint64_t c = 0; c < n; ++c) {
    if (rng.below(static_cast<std::uint64_t>(depth) * 8) == 0) {
      static constexpr unsigned kRates[][2] = {{90, 10}, {10, 90}, {50, 50}, {100, 100},
                                               {70, 40}, {40, 70}, {100, 0}, {0, 100}};
      const auto& r = kRates[rng.below(8)];
      p_push = r[0];
      p_pop = r[1];
      p_recycle = static_cast<unsigned>(rng.range(0, 3)) * 10;
    }
    Inputs in;
    in.rst = rng.below(200000) == 0;
    if (in.rst) {
      chk.begin(c, in);
      h->rst_ni = 0;
      h.settle();
      h.posedge();
      h->rst_ni = 1;
      fifo.clear();
      outside.reset();
      chk.end(h.sva_failed());
      continue;
    }
    const bool full = fifo.size() == depth;
    const bool empty = fifo.empty();
    in.pop = !fifo.empty() && rng.chance(p_pop);
    if (!full) {
      if (in.pop && rng.chance(p_recycle)) {
        in.push = true;  // the head popped in this cycle goes straight back in
        in.id = fifo.front();
      } else if (!outside.empty() && rng.chance(p_push)) {
        in.push = true;
        in.id = outside.pick(rng);
      }
    }
    if (!in.push) in.id = static_cast<std::uint32_t>(rng.bits(width));  // ignored
    chk.begin(c, in);
    apply(h, in);
    h.settle();
    chk.expect("count_o", fifo.size(), h->count_o);
    chk.expect("empty_o", empty, h->empty_o);
    chk.expect("full_o", full, h->full_o);
    if (!empty) chk.expect("head_o", fifo.front(), h->head_o);
    h.posedge();
    if (in.pop) {
      outside.add(fifo.front());
      fifo.pop_front();
    }
    if (in.push) {
      outside.remove(in.id);
      fifo.push_back(in.id);
    }
    full_cycles += full ? 1 : 0;
    empty_cycles += empty ? 1 : 0;
    push_pop += (in.push && in.pop) ? 1 : 0;
    chk.end(h.sva_failed());
  }
  // The stream reached the corners often.
  CHECK(full_cycles > n / 100);
  CHECK(empty_cycles > n / 100);
  CHECK(push_pop > n / 20);
}

// Directed-test helpers: one cycle with the given operation, checks before the edge are the
// caller's; return the head seen before the edge.
template <class Dut>
void op(Harness<Dut>& h, bool push, std::uint32_t id, bool pop) {
  apply(h, Inputs{false, push, id, pop});
  h.cycle();
}

template <class Dut>
void expect_state(Harness<Dut>& h, std::size_t count, bool empty, bool full) {
  apply(h, Inputs{});
  h.settle();
  CHECK(h->count_o == count);
  CHECK(h->empty_o == empty);
  CHECK(h->full_o == full);
}

template <class Dut>
std::uint32_t head(Harness<Dut>& h) {
  h.settle();
  return h->head_o;
}

}  // namespace

TEST_CASE("id_fifo: lockstep random (Depth 512 Width 10)", "[id_fifo][lockstep]") {
  lockstep_run<Vid_fifo>(512, 10, "id_fifo Depth=512 Width=10");
}

TEST_CASE("id_fifo: lockstep random (Depth 12 Width 4)", "[id_fifo][lockstep]") {
  lockstep_run<Vid_fifo_d12>(12, 4, "id_fifo Depth=12 Width=4");
}

TEST_CASE("id_fifo: empty after reset and a push shows up the next cycle", "[id_fifo][directed]") {
  Harness<Vid_fifo> h;
  lockstep::reset(h);
  expect_state(h, 0, true, false);
  // Push 42: before the edge the FIFO is still empty; after it, 42 is the head.
  apply(h, Inputs{false, true, 42, false});
  h.settle();
  CHECK(h->empty_o == 1);
  CHECK(h->count_o == 0);
  h.posedge();
  expect_state(h, 1, false, false);
  CHECK(head(h) == 42);
  REQUIRE_FALSE(h.sva_failed());
}

TEST_CASE("id_fifo: push and pop in one cycle at count 1 and at Depth-1", "[id_fifo][directed]") {
  Harness<Vid_fifo_d12> h;
  lockstep::reset(h);
  // Count 1: pop the head and push another ID: the new one becomes the head.
  op(h, true, 3, false);
  apply(h, Inputs{false, true, 9, true});
  h.settle();
  CHECK(h->head_o == 3);
  h.posedge();
  expect_state(h, 1, false, false);
  CHECK(head(h) == 9);
  op(h, false, 0, true);
  expect_state(h, 0, true, false);
  // Fill to Depth-1 = 11 (IDs 0..10), then push+pop: count stays 11, never full.
  for (std::uint32_t id = 0; id < 11; ++id) op(h, true, id, false);
  expect_state(h, 11, false, false);
  op(h, true, 11, true);  // pops 0
  expect_state(h, 11, false, false);
  CHECK(head(h) == 1);
  op(h, true, 0, false);  // now full
  expect_state(h, 12, false, true);
  CHECK(head(h) == 1);
  // Pop at full frees one slot.
  op(h, false, 0, true);
  expect_state(h, 11, false, false);
  CHECK(head(h) == 2);
  REQUIRE_FALSE(h.sva_failed());
}

TEST_CASE("id_fifo: order is kept across pointer wrap-around", "[id_fifo][directed]") {
  Harness<Vid_fifo_d12> h;
  lockstep::reset(h);
  // Keep 5 IDs inside and stream 40 more through (3+ laps of a 12-entry ring): pop the head
  // and push the next ID every cycle; the heads come out in push order.
  for (std::uint32_t id = 0; id < 5; ++id) op(h, true, id, false);
  for (std::uint32_t k = 0; k < 40; ++k) {
    const std::uint32_t in = (5 + k) % 16;
    const std::uint32_t out = k % 16;
    CHECK(head(h) == out);
    op(h, true, in, true);
    expect_state(h, 5, false, false);
  }
  // Fill and drain completely twice, crossing the wrap point at different offsets.
  for (int lap = 0; lap < 2; ++lap) {
    while (true) {
      h.settle();
      if (h->full_o) break;
      // IDs not inside: the FIFO holds 5 consecutive IDs mod 16 starting at its head.
      op(h, true, (head(h) + static_cast<std::uint32_t>(h->count_o)) % 16, false);
    }
    expect_state(h, 12, false, true);
    std::uint32_t expect = head(h);
    for (int i = 0; i < 12; ++i) {
      CHECK(head(h) == expect);
      expect = (expect + 1) % 16;
      op(h, false, 0, true);
    }
    expect_state(h, 0, true, false);
    op(h, true, expect, false);  // restart one further on
    op(h, true, (expect + 1) % 16, false);
    op(h, false, 0, true);
  }
  REQUIRE_FALSE(h.sva_failed());
}

TEST_CASE("id_fifo: the TID FIFO fills to 512 in order", "[id_fifo][directed]") {
  Harness<Vid_fifo> h;
  lockstep::reset(h);
  for (std::uint32_t id = 0; id < 512; ++id) {
    h.settle();
    CHECK(h->full_o == 0);
    op(h, true, 1023 - id, false);
  }
  expect_state(h, 512, false, true);
  for (std::uint32_t id = 0; id < 512; ++id) {
    CHECK(head(h) == 1023 - id);
    op(h, false, 0, true);
  }
  expect_state(h, 0, true, false);
  REQUIRE_FALSE(h.sva_failed());
}

// The contract is checked by the RTL's assertions: each violation below must fire one (and
// shows that --assert is live in the test build).
TEST_CASE("id_fifo: contract violations fire the SVA assertions", "[id_fifo][sva]") {
  SECTION("pop when empty") {
    Harness<Vid_fifo_d12> h;
    lockstep::reset(h);
    op(h, false, 0, true);
    CHECK(h.sva_failed());
  }
  SECTION("push and pop in one cycle when empty") {
    Harness<Vid_fifo_d12> h;
    lockstep::reset(h);
    op(h, true, 1, true);
    CHECK(h.sva_failed());
  }
  SECTION("push when full, even with a pop") {
    Harness<Vid_fifo_d12> h;
    lockstep::reset(h);
    for (std::uint32_t id = 0; id < 12; ++id) op(h, true, id, false);
    REQUIRE_FALSE(h.sva_failed());
    op(h, true, 12, true);
    CHECK(h.sva_failed());
  }
  SECTION("push of an ID that is inside") {
    Harness<Vid_fifo_d12> h;
    lockstep::reset(h);
    op(h, true, 4, false);
    op(h, true, 5, false);
    REQUIRE_FALSE(h.sva_failed());
    op(h, true, 5, true);  // pops 4, pushes 5 which stays inside
    CHECK(h.sva_failed());
  }
  SECTION("push of the head popped in the same cycle is legal") {
    Harness<Vid_fifo_d12> h;
    lockstep::reset(h);
    op(h, true, 4, false);
    op(h, true, 5, false);
    op(h, true, 4, true);  // pops 4, pushes 4
    CHECK_FALSE(h.sva_failed());
    CHECK(head(h) == 5);
  }
}
