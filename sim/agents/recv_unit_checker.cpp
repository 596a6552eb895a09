// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/recv_unit_checker.hpp"

#include <algorithm>
#include <utility>

namespace sim {

RecvUnitChecker::RecvUnitChecker(const RxMonitor& mon, uint16_t node, unsigned contexts,
                                 uint64_t rx_idle)
    : mon_(mon), node_(node), chk_(node, contexts, rx_idle) {}

void RecvUnitChecker::report(const std::vector<std::string>& bad, uint64_t cycle) {
  if (bad.empty() || !errors_.empty()) return;  // the first mismatch is the one that counts
  CheckFailure f;
  f.cycle = cycle;
  f.what = "differs from the receive-unit model: " + bad.front();
  for (const std::string& b : bad) f.detail += "  " + b + "\n";
  const ni::RecvModel& m = chk_.model();
  f.detail += "  model: " + std::to_string(chk_.states()) + " open state(s), " +
              std::to_string(m.live_contexts()) + " live context(s), " +
              std::to_string(m.waiting_packets()) + " packet(s) undecided\n";
  errors_.push_back(std::move(f));
}

void RecvUnitChecker::on_rsp_offer(const RspOfferEvent& e) {
  report(chk_.on_rsp_tx(e.packet, e.cycle), e.cycle);
}

void RecvUnitChecker::on_wr_burst(const WrBurstEvent& e) {
  report(chk_.on_burst(e.burst), e.cycle);
}

void RecvUnitChecker::on_mem_b(const MemBEvent& e) { report(chk_.on_b(e.cycle), e.cycle); }

void RecvUnitChecker::on_rx(const RxEvent& e) {
  if (e.net == Net::Req) {
    ++n_req_;
    report(chk_.on_req_rx(e.packet, e.cycle), e.cycle);
  } else {
    report(chk_.on_rsp_rx(e.packet, e.cycle), e.cycle);
  }
}

void RecvUnitChecker::on_rreq(const RreqEvent& e) { report(chk_.on_rreq(e.head), e.cycle); }
void RecvUnitChecker::on_drsp(const DrspEvent& e) {
  if (e.taken) chk_.on_engine_drsp_sent(e.nack);
}

void RecvUnitChecker::on_rsp(const RspEvent& e) {
  report(chk_.on_engine_rsp(e.tid, e.seq, e.nack), e.cycle);
}

void RecvUnitChecker::check_counters(const std::array<uint64_t, ni::NumNodeStats>& v,
                                     uint64_t cycle) {
  static_assert(ni::NumNodeStats == 11, "counters 16..26");
  std::array<uint64_t, 11> c{};
  std::copy(v.begin(), v.end(), c.begin());
  report(chk_.compare_counters(cycle, c), cycle);
}

std::vector<std::string> RecvUnitChecker::final_check(uint64_t cycle) {
  std::vector<std::string> p = chk_.finish(cycle);
  if (mon_.packet_pending()) p.push_back("a req_rx packet ended without its last beat");
  if (mon_.burst_pending())
    p.push_back("a memory write burst is incomplete (AW without all W beats, or the reverse)");
  if (!p.empty() && errors_.empty()) {
    errors_.push_back(CheckFailure{cycle, p.front(), ""});
    for (const std::string& s : p) errors_.back().detail += "  " + s + "\n";
  }
  return p;
}

}  // namespace sim
