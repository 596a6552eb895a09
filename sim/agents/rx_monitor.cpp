// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/rx_monitor.hpp"

#include <algorithm>
#include <utility>

namespace sim {

void RxMonitor::on_reset() {
  rsp_offered_ = false;
  aw_offered_ = false;
  aws_.clear();
  ws_.clear();
  w_cur_ = ni::RxBurst{};
  req_cur_ = ni::WirePacket{};
}

// AW and W handshakes of the memory master, paired in order (AXI4: no write interleaving)
// into whole bursts; B handshakes.
void RxMonitor::watch_mem(uint64_t cycle) {
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
    const WrBurstEvent e{cycle, b};
    bus_.emit([&](Listener& l) { l.on_wr_burst(e); });
  }
  if (*m.bvalid && *m.bready) {
    const MemBEvent e{cycle};
    bus_.emit([&](Listener& l) { l.on_mem_b(e); });
  }
}

void RxMonitor::sample(uint64_t cycle) {
  // What the receive unit decided this cycle (the response it offers, its writes), then what
  // entered the node.
  const StreamTxPorts& tx = p_.rsp_tx;
  if (*tx.valid) {
    if (!rsp_offered_) {
      rsp_offered_ = true;
      const ni::WirePacket p{{tx.data.get<8>()}};
      const RspOfferEvent e{cycle, p};
      bus_.emit([&](Listener& l) { l.on_rsp_offer(e); });
    }
    if (*tx.ready) rsp_offered_ = false;
  }
  watch_mem(cycle);
  const StreamRxPorts& rq = p_.req_rx;
  if (*rq.valid && *rq.ready) {
    req_cur_.beats.push_back(rq.data.get<8>());
    if (rq.last == nullptr || *rq.last) {
      const RxEvent e{cycle, Net::Req, req_cur_};
      bus_.emit([&](Listener& l) { l.on_rx(e); });
      req_cur_.beats.clear();
    }
  }
  const StreamRxPorts& rs = p_.rsp_rx;
  if (*rs.valid && *rs.ready) {
    // One-beat packets (ICD 10).
    const ni::WirePacket p{{rs.data.get<8>()}};
    const RxEvent e{cycle, Net::Rsp, p};
    bus_.emit([&](Listener& l) { l.on_rx(e); });
  }
}

}  // namespace sim
