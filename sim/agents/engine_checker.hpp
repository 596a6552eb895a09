// SPDX-License-Identifier: Apache-2.0
// The cycle-level checker of a QoS engine: feeds every event of the engine's ports and trace
// port to the golden model (ref_model/qos/engine_model) and reports its mismatches. What the
// model decides about transfers (one went live, one finished) it can announce on a bus
// (XferEvent), for the checkers that follow transfers end to end.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ref_model/qos/engine_model.hpp"
#include "sim/core/checker.hpp"

namespace sim {

class EngineChecker : public Checker {
 public:
  explicit EngineChecker(ni::EngineModel& model, std::string name = "engine")
      : model_(model), name_(std::move(name)) {}

  std::string name() const override { return name_; }
  const std::vector<CheckFailure>& errors() const override;
  bool quiescent() const override { return model_.quiescent(); }
  std::vector<std::string> final_check(uint64_t cycle) override;

  void on_aw(const AwEvent& e) override;
  void on_w(const WEvent& e) override;
  void on_b(const BEvent& e) override;
  void on_ar(const ArEvent& e) override;
  void on_r(const REvent& e) override;
  void on_block(const BlockEvent& e) override;
  void on_packet(const PacketEvent& e) override;
  void on_rsp(const RspEvent& e) override;
  void on_rreq(const RreqEvent& e) override;
  void on_drsp(const DrspEvent& e) override;
  void on_status(const StatusEvent& e) override;
  void on_tap(const TapEvent& e) override;
  void end_of_cycle(uint64_t cycle) override;

  ni::EngineModel& model() { return model_; }
  // Announces the model's transfer decisions on `bus` from now on (the cycle it decided).
  void announce_transfers(EventBus& bus);

 private:
  ni::EngineModel& model_;
  std::string name_;
  mutable std::vector<CheckFailure> errors_;  // mirrors the model's first failure
};

}  // namespace sim
