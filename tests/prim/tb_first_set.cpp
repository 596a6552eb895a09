// SPDX-License-Identifier: Apache-2.0
// first_set: the lowest set bit of a vector, against the count of trailing zeros.
//
// Model (rtl/first_set.sv header): any_o is set when some bit of in_i is; idx_o is the index
// of the lowest set bit, 0 when none is. The module is combinational: each vector is applied
// and evaluated on its own. Three widths: 64 (the tables' 64 entries), 10 (not a power of
// two: the vector is widened inside, the added bits never set), 1.
#include <cstdint>

#include "Vfirst_set.h"
#include "Vfirst_set_w1.h"
#include "Vfirst_set_w10.h"
#include "tests/common/lockstep.hpp"

namespace {

using lockstep::Rng;

struct Expect {
  bool any;
  unsigned idx;
};

Expect model(std::uint64_t v) {
  if (v == 0) return {false, 0};
  unsigned i = 0;
  while (((v >> i) & 1U) == 0) ++i;
  return {true, i};
}

template <class Dut>
class Checker {
 public:
  explicit Checker(unsigned width) : width_(width) {}
  void check(std::uint64_t v) {
    dut_.in_i = v;
    dut_.eval();
    const Expect e = model(v);
    INFO("width " << width_ << " in_i " << lockstep::hex(v));
    REQUIRE(static_cast<bool>(dut_.any_o) == e.any);
    REQUIRE(static_cast<unsigned>(dut_.idx_o) == e.idx);
    ++checked_;
  }
  unsigned checked() const { return checked_; }

 private:
  Dut dut_;
  unsigned width_;
  unsigned checked_ = 0;
};

}  // namespace

TEST_CASE("first_set: every vector of 10 and of 1 bit", "[first_set][directed]") {
  Checker<Vfirst_set_w10> w10(10);
  for (std::uint64_t v = 0; v < (1U << 10); ++v) w10.check(v);
  Checker<Vfirst_set_w1> w1(1);
  w1.check(0);
  w1.check(1);
  CHECK(w10.checked() == 1024);
  CHECK(w1.checked() == 2);
}

TEST_CASE("first_set: 64 bits, every lowest bit under every pattern above it",
          "[first_set][directed]") {
  Checker<Vfirst_set> c(64);
  c.check(0);
  c.check(~std::uint64_t{0});
  for (unsigned i = 0; i < 64; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    const std::uint64_t above = (i == 63) ? 0 : ~((bit << 1) - 1);
    c.check(bit);                                    // alone
    c.check(bit | above);                            // every bit above set
    c.check(bit | (above & 0xAAAAAAAAAAAAAAAAULL));  // alternate bits above
    c.check(bit | (std::uint64_t{1} << 63));         // the top bit set too
  }
  CHECK(c.checked() == 2 + 4 * 64);
}

TEST_CASE("first_set: 64 bits, random vectors of every density", "[first_set][random]") {
  const std::uint32_t seed = lockstep::seed();
  INFO("seed " << seed << " (LOCKSTEP_SEED)");
  Rng rng(seed);
  Checker<Vfirst_set> c(64);
  for (unsigned n = 0; n < 20000; ++n) {
    // a density from one bit in 64 to all: AND or OR of a few random words
    std::uint64_t v = rng.bits(64);
    const unsigned ands = static_cast<unsigned>(rng.below(6));
    for (unsigned k = 0; k < ands; ++k) v &= rng.bits(64);
    if (rng.chance(20)) v |= rng.bits(64);
    c.check(v);
  }
  CHECK(c.checked() == 20000);
}
