// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/send_checker.hpp"

namespace sim {

void SendUnitChecker::on_block(const BlockEvent& e) {
  chk_.on_block(ni::BlockDesc::unpack(e.desc), e.tid);
}

void SendUnitChecker::on_packet(const PacketEvent& e) {
  chk_.on_engine_packet(ni::Packet::unpack(e.data));
}

void SendUnitChecker::on_tx(const TxEvent& e) {
  if (e.net != Net::Req) return;
  const std::vector<std::string> bad = chk_.on_tx(e.packet);
  if (bad.empty() || !errors_.empty()) return;
  CheckFailure f;
  f.cycle = e.cycle;
  f.what = "req_tx packet differs from the send-unit model: " + bad.front();
  for (const std::string& b : bad) f.detail += "  " + b + "\n";
  errors_.push_back(std::move(f));
}

std::vector<std::string> SendUnitChecker::final_check(uint64_t cycle) {
  std::vector<std::string> p;
  if (!chk_.idle()) {
    p.push_back(std::to_string(chk_.pending()) + " predicted packet(s) never left req_tx");
    if (errors_.empty()) errors_.push_back(CheckFailure{cycle, p.back(), ""});
  }
  return p;
}

}  // namespace sim
