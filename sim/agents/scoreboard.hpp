// SPDX-License-Identifier: Apache-2.0
// Feeds every monitored event to the golden model (ref_model/engine_model) and remembers the
// first mismatch, which stops the run.
#pragma once

#include <cstdint>
#include <string>

#include "ref_model/qos/engine_model.hpp"
#include "sim/core/events.hpp"

namespace sim {

class Scoreboard : public Listener {
 public:
  explicit Scoreboard(ni::EngineModel& model) : model_(model) {}

  void on_aw(const AwEvent& e) override;
  void on_w(const WEvent& e) override;
  void on_b(const BEvent& e) override;
  void on_ar(const ArEvent& e) override;
  void on_r(const REvent& e) override;
  void on_block(const BlockEvent& e) override;
  void on_packet(const PacketEvent& e) override;
  void on_rsp(const RspEvent& e) override;
  void on_status(const StatusEvent& e) override;
  void on_tap(const TapEvent& e) override;
  void end_of_cycle(uint64_t cycle) override;

  bool failed() const { return model_.failed(); }
  ni::EngineModel& model() { return model_; }

 private:
  ni::EngineModel& model_;
};

}  // namespace sim
