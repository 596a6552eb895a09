// SPDX-License-Identifier: Apache-2.0
// md_arbiter: lockstep against a model of the "last served" arbiter, plus directed cases.
//
// Model (rtl/md_arbiter.sv header, thesis 3.12, docs/design.md section 9): a lone request is
// granted; when both request, the one that was not served last wins; the grant is
// combinational; the arbiter remembers who was served last (a cycle without a request
// changes nothing). Reset state: the segmenter counts as served last, so the handler wins
// the first tie after reset (the spec leaves this open; the RTL documents it so).
#include "Vmd_arbiter.h"
#include "tests/common/lockstep.hpp"

namespace {

using lockstep::Harness;
using lockstep::Rng;

constexpr const char* kBinary = "tb_md_arbiter";

struct Inputs {
  bool rst = false;  // reset asserted during this cycle
  bool seg = false;
  bool mh = false;
  std::string describe() const {
    if (rst) return "reset";
    return std::string("seg_req=") + (seg ? "1" : "0") + " mh_req=" + (mh ? "1" : "0");
  }
};

class Model {
 public:
  void reset() { seg_last_ = true; }
  // Grants for these requests (combinational).
  std::pair<bool, bool> grant(bool seg, bool mh) const {
    if (seg && mh) return seg_last_ ? std::make_pair(false, true) : std::make_pair(true, false);
    return {seg, mh};
  }
  void step(bool seg, bool mh) {
    const auto [gs, gm] = grant(seg, mh);
    if (gs) seg_last_ = true;
    if (gm) seg_last_ = false;
  }

 private:
  bool seg_last_ = true;
};

std::string current_test() { return Catch::getResultCapture().getCurrentTestName(); }

}  // namespace

TEST_CASE("md_arbiter: lockstep random", "[md_arbiter][lockstep]") {
  const std::uint32_t seed = lockstep::seed();
  const std::uint64_t n = lockstep::cycles();
  Rng rng(seed);
  Harness<Vmd_arbiter> h;
  Model model;
  lockstep::Checker<Inputs> chk("md_arbiter", seed,
                                lockstep::reproduce_cmd(kBinary, current_test(), seed, n));
  lockstep::reset(h);
  model.reset();

  unsigned p_seg = 50, p_mh = 50;
  std::uint64_t ties = 0;
  for (std::uint64_t c = 0; c < n; ++c) {
    // New phase every few hundred cycles: request rates from "both always" to "rare".
    if (rng.below(256) == 0) {
      static constexpr unsigned kRates[] = {0, 10, 50, 90, 100};
      p_seg = kRates[rng.below(5)];
      p_mh = kRates[rng.below(5)];
    }
    Inputs in;
    in.rst = rng.below(20000) == 0;
    in.seg = rng.chance(p_seg);
    in.mh = rng.chance(p_mh);
    chk.begin(c, in);
    if (in.rst) {
      h->rst_ni = 0;
      h.settle();
      h.posedge();
      h->rst_ni = 1;
      model.reset();
      chk.end(h.sva_failed());
      continue;
    }
    h->seg_req_i = in.seg;
    h->mh_req_i = in.mh;
    h.settle();
    const auto [gs, gm] = model.grant(in.seg, in.mh);
    chk.expect("seg_gnt_o", gs, h->seg_gnt_o);
    chk.expect("mh_gnt_o", gm, h->mh_gnt_o);
    h.posedge();
    model.step(in.seg, in.mh);
    ties += (in.seg && in.mh) ? 1 : 0;
    chk.end(h.sva_failed());
  }
  // The stream must have exercised ties (the interesting case) many times.
  CHECK(ties > n / 10);
}

namespace {

// One cycle of the arbiter: apply the requests, return the grants seen before the edge.
std::pair<bool, bool> arb(Harness<Vmd_arbiter>& h, bool seg, bool mh) {
  h->seg_req_i = seg;
  h->mh_req_i = mh;
  h.settle();
  const std::pair<bool, bool> g{h->seg_gnt_o != 0, h->mh_gnt_o != 0};
  h.posedge();
  REQUIRE_FALSE(h.sva_failed());
  return g;
}

using G = std::pair<bool, bool>;
constexpr G kSeg{true, false};
constexpr G kMh{false, true};
constexpr G kNone{false, false};

}  // namespace

TEST_CASE("md_arbiter: ties alternate and the handler wins the first after reset",
          "[md_arbiter][directed]") {
  Harness<Vmd_arbiter> h;
  lockstep::reset(h);
  CHECK(arb(h, true, true) == kMh);
  CHECK(arb(h, true, true) == kSeg);
  CHECK(arb(h, true, true) == kMh);
  CHECK(arb(h, true, true) == kSeg);
  // Idle cycles do not change who was served last.
  CHECK(arb(h, false, false) == kNone);
  CHECK(arb(h, false, false) == kNone);
  CHECK(arb(h, true, true) == kMh);
  // Reset forgets: the handler wins the first tie again.
  lockstep::reset(h);
  CHECK(arb(h, true, true) == kMh);
}

TEST_CASE("md_arbiter: lone requests are granted and count as served", "[md_arbiter][directed]") {
  Harness<Vmd_arbiter> h;
  lockstep::reset(h);
  // Lone requests always win, whoever was served last.
  for (int i = 0; i < 3; ++i) CHECK(arb(h, true, false) == kSeg);
  // The segmenter was served last: the handler wins the tie.
  CHECK(arb(h, true, true) == kMh);
  for (int i = 0; i < 3; ++i) CHECK(arb(h, false, true) == kMh);
  // The handler was served last: the segmenter wins the tie.
  CHECK(arb(h, true, true) == kSeg);
  // A lone handler request after the segmenter won: granted, and then the segmenter wins.
  CHECK(arb(h, false, true) == kMh);
  CHECK(arb(h, true, true) == kSeg);
  // A lone segmenter request after it won a tie: granted, the handler wins the next tie.
  CHECK(arb(h, true, false) == kSeg);
  CHECK(arb(h, true, true) == kMh);
}

TEST_CASE("md_arbiter: the grant is combinational", "[md_arbiter][directed]") {
  Harness<Vmd_arbiter> h;
  lockstep::reset(h);
  // Within one cycle (no clock edge), the grants follow the requests.
  h->seg_req_i = 1;
  h->mh_req_i = 0;
  h.settle();
  CHECK(h->seg_gnt_o == 1);
  CHECK(h->mh_gnt_o == 0);
  h->seg_req_i = 0;
  h->mh_req_i = 1;
  h.settle();
  CHECK(h->seg_gnt_o == 0);
  CHECK(h->mh_gnt_o == 1);
  h->mh_req_i = 0;
  h.settle();
  CHECK(h->seg_gnt_o == 0);
  CHECK(h->mh_gnt_o == 0);
}
