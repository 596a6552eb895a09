// SPDX-License-Identifier: Apache-2.0
// The receive side of one ni_node at its ports, as the receive-unit golden model (ref_model/
// recv, RecvChecker) takes it: per cycle, a response offered on rsp_tx (RspOfferEvent, once,
// at its first valid cycle), the write bursts on the memory master that completed (AW paired
// with its W beats in order, WrBurstEvent), B handshakes (MemBEvent), then the packets the
// node accepted on req_rx (assembled up to the last beat) and rsp_rx (RxEvent). Register it
// before the node's other monitors: the engine's response tap (RspInMonitor) comes after it
// within a cycle, the order the checker takes them in. It only reads ports.
#pragma once

#include <cstdint>
#include <deque>

#include "ref_model/common/wire.hpp"
#include "ref_model/recv/recv_model.hpp"
#include "sim/core/component.hpp"
#include "sim/core/events.hpp"
#include "sim/core/ports.hpp"

namespace sim {

class RxMonitor : public Component {
 public:
  struct Ports {
    AxiMemPorts mem;
    StreamTxPorts rsp_tx;
    StreamRxPorts req_rx, rsp_rx;
  };
  RxMonitor(const Ports& port, EventBus& bus) : p_(port), bus_(bus) {}

  void on_reset() override;
  void sample(uint64_t cycle) override;

  // A write burst still being assembled (AW without its W beats, or the reverse).
  bool burst_pending() const { return !aws_.empty() || !ws_.empty() || !w_cur_.data.empty(); }
  // A req_rx packet whose last beat has not come.
  bool packet_pending() const { return !req_cur_.beats.empty(); }

 private:
  void watch_mem(uint64_t cycle);

  Ports p_;
  EventBus& bus_;
  bool rsp_offered_ = false;  // the response on rsp_tx was reported (held until taken)
  bool aw_offered_ = false;
  uint64_t aw_first_ = 0;
  std::deque<ni::RxBurst> aws_;  // AW handshakes awaiting their W beats
  std::deque<ni::RxBurst> ws_;   // complete W bursts awaiting their AW
  ni::RxBurst w_cur_;
  ni::WirePacket req_cur_;
};

}  // namespace sim
