// SPDX-License-Identifier: Apache-2.0
// id_init: lockstep against a model of the initialiser, plus the exact sequence of the
// engine's parameters.
//
// Model (rtl/id_init.sv header, docs/design.md section 2): after reset the three FIFOs are
// filled side by side, one push per FIFO per cycle, in ascending order. Counting the rising
// edges after the release of reset from 0, edge k pushes TID k (k < TidCount), 1xFID
// Fid1Base + k (k < Fid1Count) and 4xFID Fid4Base + k*Fid4Step (k < Fid4Count): the push
// outputs are high, with those IDs, in the cycle before edge k. done_o is low until the last
// push of the longest list and high from the cycle after it until the next reset; nothing is
// pushed once done_o is high. An ID output is compared only while its push output is high.
// During reset only done_o = 0 is required (the FIFOs are in reset too).
//
// Two parameterisations: the engine's (512 TIDs, 64 1xFIDs from 128, 16 4xFID bases from 192
// step 4) and a small one where the 4xFID list is the longest (model id_init_small).
#include <algorithm>

#include "Vid_init.h"
#include "Vid_init_small.h"
#include "tests/common/lockstep.hpp"

namespace {

using lockstep::Harness;
using lockstep::Rng;

constexpr const char* kBinary = "tb_id_init";

struct Params {
  unsigned tid_count, fid1_base, fid1_count, fid4_base, fid4_count, fid4_step;
  unsigned longest() const { return std::max({tid_count, fid1_count, fid4_count}); }
};

constexpr Params kEngine{512, 128, 64, 192, 16, 4};
// Must match the -G flags of id_init_small in the Makefile.
constexpr Params kSmall{5, 9, 3, 40, 7, 3};

struct Inputs {
  bool rst = false;
  std::string describe() const { return rst ? "rst_ni=0" : "rst_ni=1"; }
};

struct Expected {
  bool tid_push, fid1_push, fid4_push, done;
  unsigned tid, fid1, fid4;
};

// k: rising edges since the release of reset.
Expected expected(const Params& p, std::uint64_t k) {
  Expected e{};
  e.tid_push = k < p.tid_count;
  e.fid1_push = k < p.fid1_count;
  e.fid4_push = k < p.fid4_count;
  e.done = k >= p.longest();
  e.tid = static_cast<unsigned>(k);
  e.fid1 = p.fid1_base + static_cast<unsigned>(k);
  e.fid4 = p.fid4_base + static_cast<unsigned>(k) * p.fid4_step;
  return e;
}

template <class Dut, class Chk>
void compare(Harness<Dut>& h, Chk& chk, const Expected& e) {
  chk.expect("tid_push_o", e.tid_push, h->tid_push_o);
  chk.expect("fid1_push_o", e.fid1_push, h->fid1_push_o);
  chk.expect("fid4_push_o", e.fid4_push, h->fid4_push_o);
  chk.expect("done_o", e.done, h->done_o);
  if (e.tid_push) chk.expect("tid_o", e.tid, h->tid_o);
  if (e.fid1_push) chk.expect("fid1_o", e.fid1, h->fid1_o);
  if (e.fid4_push) chk.expect("fid4_o", e.fid4, h->fid4_o);
}

template <class Dut>
void lockstep_run(const Params& p, const char* what) {
  const std::uint32_t seed = lockstep::seed();
  const std::uint64_t n = lockstep::cycles();
  const std::string test = Catch::getResultCapture().getCurrentTestName();
  Rng rng(seed);
  Harness<Dut> h;
  lockstep::Checker<Inputs> chk(what, seed, lockstep::reproduce_cmd(kBinary, test, seed, n));

  // Reset pulses of 1..3 cycles, at random points: mostly during the fill or shortly after
  // done_o, sometimes long after.
  std::uint64_t k = 0;           // edges since the release of reset
  std::uint64_t next_reset = 0;  // value of k at which the next reset starts
  unsigned rst_left = 0;         // cycles of reset still to apply
  std::uint64_t completed = 0;   // fills that reached done_o
  const std::uint64_t longest = p.longest();
  for (std::uint64_t c = 0; c < n; ++c) {
    if (rst_left == 0 && k == next_reset) {
      rst_left = static_cast<unsigned>(rng.range(1, 3));
      switch (rng.below(4)) {
        case 0:
          next_reset = rng.range(0, longest);
          break;
        case 1:
          next_reset = longest + rng.range(0, 3);
          break;
        case 2:
          next_reset = rng.range(0, 2 * longest);
          break;
        default:
          next_reset = rng.range(longest, 8 * longest);
          break;
      }
    }
    Inputs in;
    in.rst = rst_left > 0;
    chk.begin(c, in);
    h->rst_ni = !in.rst;
    h.settle();
    if (in.rst) {
      chk.expect("done_o", false, h->done_o);
    } else {
      compare(h, chk, expected(p, k));
    }
    h.posedge();
    if (in.rst) {
      --rst_left;
      k = 0;
    } else {
      if (k + 1 == longest) ++completed;
      ++k;
    }
    chk.end(h.sva_failed());
  }
  CHECK(completed > 10);
}

}  // namespace

TEST_CASE("id_init: lockstep random resets (engine parameters)", "[id_init][lockstep]") {
  lockstep_run<Vid_init>(kEngine, "id_init TidCount=512 Fid1=128+64 Fid4=192+16*4");
}

TEST_CASE("id_init: lockstep random resets (small parameters)", "[id_init][lockstep]") {
  lockstep_run<Vid_init_small>(kSmall, "id_init TidCount=5 Fid1=9+3 Fid4=40+7*3");
}

// The engine's fill, written out from docs/design.md section 2: TID FIFO 0..511, 1xFID FIFO
// 128..191, 4xFID FIFO 192,196,..,252, all in parallel from the first edge after reset,
// done_o the cycle after the 512th push.
TEST_CASE("id_init: engine fill order and parallel pushes and done_o timing",
          "[id_init][directed]") {
  Harness<Vid_init> h;
  h->rst_ni = 0;
  h.cycle();
  h.cycle();
  h.settle();
  CHECK(h->done_o == 0);
  h->rst_ni = 1;

  std::vector<unsigned> tids, fid1s, fid4s;
  std::vector<std::uint64_t> tid_edges, fid1_edges, fid4_edges;
  std::uint64_t done_from = 0;
  for (std::uint64_t edge = 0; edge < 2000; ++edge) {
    h.settle();
    if (h->done_o && done_from == 0) done_from = edge;
    if (done_from != 0) CHECK(h->done_o == 1);  // stays high
    if (h->tid_push_o) {
      tids.push_back(h->tid_o);
      tid_edges.push_back(edge);
    }
    if (h->fid1_push_o) {
      fid1s.push_back(h->fid1_o);
      fid1_edges.push_back(edge);
    }
    if (h->fid4_push_o) {
      fid4s.push_back(h->fid4_o);
      fid4_edges.push_back(edge);
    }
    h.posedge();
  }
  std::vector<unsigned> want_tids, want_fid1s, want_fid4s;
  for (unsigned i = 0; i < 512; ++i) want_tids.push_back(i);
  for (unsigned i = 128; i <= 191; ++i) want_fid1s.push_back(i);
  for (unsigned i = 192; i <= 252; i += 4) want_fid4s.push_back(i);
  CHECK(tids == want_tids);
  CHECK(fid1s == want_fid1s);
  CHECK(fid4s == want_fid4s);
  // In parallel: push i of every FIFO happens at edge i, so the three start together.
  for (std::size_t i = 0; i < tid_edges.size(); ++i) REQUIRE(tid_edges[i] == i);
  for (std::size_t i = 0; i < fid1_edges.size(); ++i) REQUIRE(fid1_edges[i] == i);
  for (std::size_t i = 0; i < fid4_edges.size(); ++i) REQUIRE(fid4_edges[i] == i);
  // The 512th TID push is at edge 511; done_o is high in the cycle after it (before edge 512).
  CHECK(done_from == 512);
  REQUIRE_FALSE(h.sva_failed());
}

TEST_CASE("id_init: a reset during the fill starts it again from the first ID",
          "[id_init][directed]") {
  Harness<Vid_init> h;
  lockstep::reset(h);
  for (int i = 0; i < 100; ++i) h.cycle();
  h.settle();
  CHECK(h->tid_o == 100);
  CHECK(h->fid1_push_o == 0);  // 64 done
  lockstep::reset(h);
  CHECK(h->tid_push_o == 1);
  CHECK(h->tid_o == 0);
  CHECK(h->fid1_push_o == 1);
  CHECK(h->fid1_o == 128);
  CHECK(h->fid4_push_o == 1);
  CHECK(h->fid4_o == 192);
  CHECK(h->done_o == 0);
  // A reset after done_o clears it and fills again.
  for (int i = 0; i < 600; ++i) h.cycle();
  h.settle();
  CHECK(h->done_o == 1);
  CHECK(h->tid_push_o == 0);
  lockstep::reset(h);
  CHECK(h->done_o == 0);
  CHECK(h->tid_push_o == 1);
  CHECK(h->tid_o == 0);
  REQUIRE_FALSE(h.sva_failed());
}

TEST_CASE("id_init: the longest list sets done_o", "[id_init][directed]") {
  // Small parameters: TIDs 0..4, 1xFIDs 9..11, 4xFIDs 40,43,..,58 (7, the longest).
  Harness<Vid_init_small> h;
  lockstep::reset(h);
  const unsigned want_fid4[] = {40, 43, 46, 49, 52, 55, 58};
  for (unsigned edge = 0; edge < 7; ++edge) {
    h.settle();
    CHECK(h->done_o == 0);
    CHECK(h->tid_push_o == (edge < 5));
    CHECK(h->fid1_push_o == (edge < 3));
    CHECK(h->fid4_push_o == 1);
    CHECK(h->fid4_o == want_fid4[edge]);
    h.posedge();
  }
  h.settle();
  CHECK(h->done_o == 1);
  CHECK(h->tid_push_o == 0);
  CHECK(h->fid1_push_o == 0);
  CHECK(h->fid4_push_o == 0);
  REQUIRE_FALSE(h.sva_failed());
}
