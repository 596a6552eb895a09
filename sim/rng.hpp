// Portable random numbers: Boost.Random engines and distributions give the same sequence
// for a seed on every compiler and standard library (std:: distributions do not).
#pragma once

#include <cstdint>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>

namespace sim {

class Rng {
 public:
  explicit Rng(uint64_t seed) : eng_(static_cast<uint32_t>(seed ^ (seed >> 32))) {}

  // Uniform integer in [lo, hi].
  uint64_t range(uint64_t lo, uint64_t hi) {
    return boost::random::uniform_int_distribution<uint64_t>(lo, hi)(eng_);
  }
  // True with probability pct/100.
  bool percent(unsigned pct) { return pct != 0 && range(0, 99) < pct; }
  // True with probability pct/100 for a fractional percentage (resolution 1e-6).
  bool chance(double pct) {
    return pct > 0 && double(range(0, 99999999)) < pct * 1e6;
  }
  uint64_t bits64() { return range(0, ~uint64_t{0}); }

  boost::random::mt19937& engine() { return eng_; }

 private:
  boost::random::mt19937 eng_;
};

}  // namespace sim
