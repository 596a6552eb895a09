// SPDX-License-Identifier: Apache-2.0
// Watches every port handshake and the engine's internal taps and hands each event to the
// registered listeners (scoreboard, log writer, responder, recorder, coverage).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/component.hpp"
#include "sim/core/events.hpp"

class Vqos_engine;

namespace sim {

class Monitor : public Component {
 public:
  explicit Monitor(Vqos_engine& dut) : dut_(dut) {}
  void add(Listener& l) { listeners_.push_back(&l); }

  void on_reset() override;
  void sample(uint64_t cycle) override;
  void post_edge(uint64_t cycle) override;

  // Current status code of a write channel, as the engine holds it.
  uint8_t status(unsigned wch) const { return status_[wch]; }

 private:
  template <typename F>
  void emit(F&& f) {
    for (Listener* l : listeners_) f(*l);
  }

  Vqos_engine& dut_;
  std::vector<Listener*> listeners_;
  std::array<uint8_t, 1024> status_{};
  std::array<uint32_t, 64> raw_{};  // mon_status as last seen
};

}  // namespace sim
