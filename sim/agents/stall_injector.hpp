// SPDX-License-Identifier: Apache-2.0
// Back-pressure on a ready input (qos_engine's blk/pkt ports, a network tx port, a memory
// channel): random stall bursts, and forced stalls from scenarios ("stall" events).
#pragma once

#include <cstdint>
#include <functional>

#include "sim/core/component.hpp"
#include "sim/core/rng.hpp"

namespace sim {

struct StallOptions {
  unsigned start_pct = 0;  // chance per cycle that a stall burst starts
  unsigned len_min = 1;    // burst length range, cycles
  unsigned len_max = 1;
};

class StallInjector : public Component {
 public:
  enum class Port { Blk, Pkt };
  // `ready`: the input it drives; `port` names it for scenarios and the recorder.
  StallInjector(uint8_t* ready, Rng& rng, Port port, StallOptions opt)
      : ready_(ready), rng_(rng), port_(port), opt_(opt) {}

  void set_options(const StallOptions& o) { opt_ = o; }
  // Hold ready low for `cycles` cycles from `at` (or from now if `at` is in the past).
  void force(uint64_t at, uint64_t cycles);

  void on_reset() override;
  void drive(uint64_t cycle) override;
  bool busy() const override { return forced_left_ != 0 || forced_at_ != kNone; }

  Port port() const { return port_; }
  // Called when a stall burst (random or forced) starts: its first cycle and length.
  void on_burst(std::function<void(uint64_t cycle, uint64_t len)> h) { on_burst_ = std::move(h); }

 private:
  static constexpr uint64_t kNone = ~uint64_t{0};
  uint8_t* ready_;
  Rng& rng_;
  Port port_;
  StallOptions opt_;
  uint64_t left_ = 0;  // random burst
  uint64_t forced_at_ = kNone;
  uint64_t forced_len_ = 0;
  uint64_t forced_left_ = 0;
  std::function<void(uint64_t, uint64_t)> on_burst_;
};

}  // namespace sim
