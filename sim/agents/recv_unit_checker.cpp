// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/recv_unit_checker.hpp"

#include <algorithm>
#include <utility>

namespace sim {

RecvUnitChecker::RecvUnitChecker(const Ports& port, uint16_t node, unsigned contexts,
                                 uint64_t rx_idle)
    : p_(port), node_(node), chk_(node, contexts, rx_idle) {}

void RecvUnitChecker::on_reset() {
  req_cur_ = ni::WirePacket{};
  rsp_offered_ = false;
  aw_offered_ = false;
  aws_.clear();
  ws_.clear();
  w_cur_ = ni::RxBurst{};
}

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

// AW and W handshakes of the memory master, paired in order (AXI4: no write interleaving)
// into whole bursts; B handshakes.
void RecvUnitChecker::watch_mem(uint64_t cycle) {
  const AxiMemPorts& m = p_.mem;
  if (*m.awvalid) {
    if (!aw_offered_) {
      aw_offered_ = true;
      aw_first_ = cycle;
    }
    if (*m.awready) {
      aw_offered_ = false;
      ni::RxBurst b;
      b.aw_cycle = aw_first_;
      b.done_cycle = cycle;
      b.addr = *m.awaddr;
      b.len = *m.awlen;
      b.size = *m.awsize;
      b.burst = *m.awburst;
      aws_.push_back(std::move(b));
    }
  }
  if (*m.wvalid && *m.wready) {
    w_cur_.data.push_back(m.wdata.get<8>());
    w_cur_.strb.push_back(*m.wstrb);
    w_cur_.done_cycle = cycle;
    if (*m.wlast) {
      ws_.push_back(std::move(w_cur_));
      w_cur_ = ni::RxBurst{};
    }
  }
  while (!aws_.empty() && !ws_.empty()) {
    ni::RxBurst b = std::move(aws_.front());
    ni::RxBurst& w = ws_.front();
    b.data = std::move(w.data);
    b.strb = std::move(w.strb);
    b.done_cycle = std::max(b.done_cycle, w.done_cycle);
    b.wlast_ok = b.data.size() == b.len + 1;
    aws_.pop_front();
    ws_.pop_front();
    report(chk_.on_burst(b), cycle);
  }
  if (*m.bvalid && *m.bready) report(chk_.on_b(cycle), cycle);
}

void RecvUnitChecker::sample(uint64_t cycle) {
  // What the receive unit decided this cycle (the response it offers, its writes), then what
  // entered the node: the order tests/top/tb_ni_node.cpp reports them in.
  const StreamTxPorts& tx = p_.rsp_tx;
  if (*tx.valid) {
    if (!rsp_offered_) {
      rsp_offered_ = true;
      report(chk_.on_rsp_tx(ni::WirePacket{{tx.data.get<8>()}}, cycle), cycle);
    }
    if (*tx.ready) rsp_offered_ = false;
  }
  watch_mem(cycle);
  const StreamRxPorts& rq = p_.req_rx;
  if (*rq.valid && *rq.ready) {
    req_cur_.beats.push_back(rq.data.get<8>());
    if (rq.last == nullptr || *rq.last) {
      ++n_req_;
      report(chk_.on_req_rx(req_cur_, cycle), cycle);
      req_cur_.beats.clear();
    }
  }
  const StreamRxPorts& rs = p_.rsp_rx;
  if (*rs.valid && *rs.ready) {
    // One-beat packets (ICD 10).
    report(chk_.on_rsp_rx(ni::WirePacket{{rs.data.get<8>()}}, cycle), cycle);
  }
  if (*p_.rsp.valid && *p_.rsp.ready) {
    const uint32_t r = *p_.rsp.rsp;  // rsp_t: nack [0], tid [10:1], seq [24:11]
    report(chk_.on_engine_rsp(uint16_t((r >> 1) & 0x3FF), uint16_t((r >> 11) & 0x3FFF), r & 1),
           cycle);
  }
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
  if (!req_cur_.beats.empty()) p.push_back("a req_rx packet ended without its last beat");
  if (!aws_.empty() || !ws_.empty() || !w_cur_.data.empty())
    p.push_back("a memory write burst is incomplete (AW without all W beats, or the reverse)");
  if (!p.empty() && errors_.empty()) {
    errors_.push_back(CheckFailure{cycle, p.front(), ""});
    for (const std::string& s : p) errors_.back().detail += "  " + s + "\n";
  }
  return p;
}

}  // namespace sim
