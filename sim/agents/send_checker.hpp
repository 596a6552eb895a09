// SPDX-License-Identifier: Apache-2.0
// The packet checker of one node's send unit behind the checker interface. It subscribes to
// the node's event bus: the blocks and engine packets the send unit accepts (the node's trace
// taps) and the packets that leave req_tx (the request network's TxEvent) go to the send-unit
// golden model (ref_model/send), which predicts every wire packet: head fields, payload,
// CRCs, order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ref_model/send/send_model.hpp"
#include "sim/core/checker.hpp"

namespace sim {

class SendUnitChecker : public Checker {
 public:
  SendUnitChecker(uint16_t node, const ni::MemImage& mem) : node_(node), chk_(node, mem) {}

  std::string name() const override { return "node" + std::to_string(node_) + " send unit"; }
  const std::vector<CheckFailure>& errors() const override { return errors_; }
  bool quiescent() const override { return chk_.idle(); }
  std::vector<std::string> final_check(uint64_t cycle) override;

  void on_block(const BlockEvent& e) override;
  void on_packet(const PacketEvent& e) override;
  // A packet's last beat left req_tx (responses leaving rsp_tx are the receive unit's).
  void on_tx(const TxEvent& e) override;

  uint64_t packets_checked() const { return chk_.packets_checked(); }

 private:
  uint16_t node_;
  ni::SendChecker chk_;
  std::vector<CheckFailure> errors_;
};

}  // namespace sim
