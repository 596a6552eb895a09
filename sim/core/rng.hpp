// SPDX-License-Identifier: Apache-2.0
// Portable random numbers: Boost.Random engines and distributions give the same sequence
// for a seed on every compiler and standard library (std:: distributions do not).
#pragma once

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cstdint>

namespace sim {

class Rng {
 public:
  explicit Rng(uint64_t seed) : eng_(static_cast<uint32_t>(seed ^ (seed >> 32))) {}

  // Uniform integer in [lo, hi].
  uint64_t range(uint64_t lo, uint64_t hi) {
    return boost::random::uniform_int_distribution<uint64_t>(lo, hi)(eng_);
  }
  // True with probability pct/100. One raw 32-bit draw against a threshold (no division or
  // rejection loop: these run several times per simulated cycle); mt19937's output is the
  // same on every platform, so the result is too.
  bool percent(unsigned pct) {
    if (pct == 0) return false;
    if (pct >= 100) return true;
    return eng_() < uint32_t((uint64_t{pct} << 32) / 100);
  }
  // True with probability pct/100 for a fractional percentage (resolution 2^-32).
  bool chance(double pct) {
    if (pct <= 0) return false;
    if (pct >= 100) return true;
    return eng_() < uint32_t(pct / 100.0 * 4294967296.0);
  }
  uint64_t bits64() { return range(0, ~uint64_t{0}); }

  boost::random::mt19937& engine() { return eng_; }

 private:
  boost::random::mt19937 eng_;
};

}  // namespace sim
