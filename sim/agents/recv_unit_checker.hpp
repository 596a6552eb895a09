// SPDX-License-Identifier: Apache-2.0
// The receive-unit golden model (ref_model/recv, RecvChecker) on one node, behind the checker
// interface. It subscribes to the node's event bus: what the receive side's ports showed
// (RxMonitor: responses offered on rsp_tx, write bursts and B responses of the memory master,
// packets accepted on req_rx and rsp_rx) and the responses the engine takes (the rsp tap,
// RspInMonitor), in that order within a cycle. At the end, counters 16-26 as read back over
// the CPU port are compared with the model.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ref_model/common/types.hpp"
#include "ref_model/recv/recv_model.hpp"
#include "sim/agents/rx_monitor.hpp"
#include "sim/core/checker.hpp"

namespace sim {

class RecvUnitChecker : public Checker {
 public:
  // `mon`: the node's receive-side monitor (asked at the end whether it holds half a burst
  // or half a packet); `rx_idle`: control word 2 (RxIdle) as the node holds it.
  RecvUnitChecker(const RxMonitor& mon, uint16_t node, unsigned contexts = 64,
                  uint64_t rx_idle = 65536);

  // Listener
  void on_rsp_offer(const RspOfferEvent& e) override;
  void on_wr_burst(const WrBurstEvent& e) override;
  void on_mem_b(const MemBEvent& e) override;
  void on_rx(const RxEvent& e) override;
  void on_rsp(const RspEvent& e) override;
  void on_rreq(const RreqEvent& e) override;
  void on_drsp(const DrspEvent& e) override;

  // Checker
  std::string name() const override { return "node" + std::to_string(node_) + " receive unit"; }
  const std::vector<CheckFailure>& errors() const override { return errors_; }
  bool quiescent() const override { return chk_.idle(); }
  std::vector<std::string> final_check(uint64_t cycle) override;

  // Counters 16..26 (index 0 = counter 16) as read back from the node; `cycle` is when they
  // were read (the model's reclaim window depends on it). Counter 16 also counts the send
  // unit's packets and is not compared here.
  void check_counters(const std::array<uint64_t, ni::NumNodeStats>& v, uint64_t cycle);

  // The model itself: a directed test feeds it wrong observations, or tells it RxIdle.
  ni::RecvChecker& model() { return chk_; }
  const ni::RecvChecker& model() const { return chk_; }
  uint64_t packets_seen() const { return n_req_; }

 private:
  void report(const std::vector<std::string>& bad, uint64_t cycle);

  const RxMonitor& mon_;
  uint16_t node_;
  ni::RecvChecker chk_;
  std::vector<CheckFailure> errors_;
  uint64_t n_req_ = 0;
};

}  // namespace sim
