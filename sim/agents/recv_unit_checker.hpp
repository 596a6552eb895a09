// SPDX-License-Identifier: Apache-2.0
// The receive-unit golden model (ref_model/recv, RecvChecker) on one node of the N-node
// simulator, behind the checker interface. It only watches ports, never drives one:
// packets accepted on req_rx and rsp_rx (valid && ready beats, assembled up to the last),
// write bursts on the node's memory master (AW and W handshakes, paired in order) and their
// B responses, responses offered on rsp_tx (at the first cycle RSP_TX_VALID shows each) and
// the responses the engine takes (the rsp tap). Within a cycle it reports them in the order
// of tests/top/tb_ni_node.cpp: rsp_tx, bursts, B, then req_rx, rsp_rx and the engine's rsp.
// At the end, counters 16-26 as read back over the CPU port are compared with the model.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "ref_model/common/types.hpp"
#include "ref_model/recv/recv_model.hpp"
#include "sim/core/checker.hpp"
#include "sim/core/component.hpp"
#include "sim/core/ports.hpp"

namespace sim {

class RecvUnitChecker : public Component, public Checker {
 public:
  // The node's ports the checker watches (all read only).
  struct Ports {
    AxiMemPorts mem;
    StreamRxPorts req_rx, rsp_rx;
    StreamTxPorts rsp_tx;
    RspInPorts rsp;  // the engine's response input (tap)
  };

  // `rx_idle`: control word 2 (RxIdle) as the node holds it during the run.
  RecvUnitChecker(const Ports& port, uint16_t node, unsigned contexts = 64,
                  uint64_t rx_idle = 65536);

  // Component (observe only)
  void on_reset() override;
  void sample(uint64_t cycle) override;

  // Checker
  std::string name() const override { return "node" + std::to_string(node_) + " receive unit"; }
  const std::vector<CheckFailure>& errors() const override { return errors_; }
  bool quiescent() const override { return chk_.idle(); }
  std::vector<std::string> final_check(uint64_t cycle) override;

  // Counters 16..26 (index 0 = counter 16) as read back from the node; `cycle` is when they
  // were read (the model's reclaim window depends on it). Counter 16 also counts the send
  // unit's packets and is not compared here.
  void check_counters(const std::array<uint64_t, ni::NumNodeStats>& v, uint64_t cycle);

  const ni::RecvChecker& model() const { return chk_; }
  uint64_t packets_seen() const { return n_req_; }

 private:
  void report(const std::vector<std::string>& bad, uint64_t cycle);
  void watch_mem(uint64_t cycle);

  Ports p_;
  uint16_t node_;
  ni::RecvChecker chk_;
  std::vector<CheckFailure> errors_;
  uint64_t n_req_ = 0;
  // Stream assembly.
  ni::WirePacket req_cur_;
  bool rsp_offered_ = false;  // the response on rsp_tx was reported (held until taken)
  // Memory writes: AW handshakes awaiting their W beats, W bursts awaiting their AW.
  bool aw_offered_ = false;
  uint64_t aw_first_ = 0;
  std::deque<ni::RxBurst> aws_, ws_;
  ni::RxBurst w_cur_;
};

}  // namespace sim
