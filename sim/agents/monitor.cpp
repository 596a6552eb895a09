// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/monitor.hpp"

#include <cstring>

#include "Vqos_engine.h"
#include "Vqos_engine___024root.h"
#include "sim/core/wide.hpp"

namespace sim {

void Monitor::on_reset() {
  status_.fill(0);
  raw_.fill(0);
}

void Monitor::sample(uint64_t cycle) {
  Vqos_engine& d = dut_;
  auto* r = d.rootp;

  TapEvent t{};
  t.cycle = cycle;
  t.deq = r->qos_engine__DOT__mon_deq;
  t.deq_qid = r->qos_engine__DOT__mon_deq_qid;
  t.deq_node = r->qos_engine__DOT__mon_deq_node;
  t.deq_first = r->qos_engine__DOT__mon_deq_first;
  t.enq = r->qos_engine__DOT__mon_enq;
  t.enq_src = r->qos_engine__DOT__mon_enq_src;
  t.enq_qid = r->qos_engine__DOT__mon_enq_qid;
  t.enq_node = r->qos_engine__DOT__mon_enq_node;
  t.s2_fire = r->qos_engine__DOT__mon_s2_fire;
  t.s2_hold = r->qos_engine__DOT__mon_s2_hold;
  t.s2_node = r->qos_engine__DOT__mon_s2_node;
  t.blk_valid = d.blk_valid_o;
  t.blk_ready = d.blk_ready_i;
  t.pkt_valid = d.pkt_valid_o;
  t.pkt_ready = d.pkt_ready_i;
  t.rsp_valid = d.rsp_valid_i;
  t.rsp_ready = d.rsp_ready_o;
  t.init_done = d.init_done_o;
  t.axi_enq_req = r->qos_engine__DOT__mon_axi_enq_req;
  t.axi_starving = r->qos_engine__DOT__mon_axi_starving;
  emit([&](Listener& l) { l.on_tap(t); });

  if (d.s_axi_awvalid_i && d.s_axi_awready_o) {
    AwEvent e{cycle,           d.s_axi_awid_i,   d.s_axi_awaddr_i,
              d.s_axi_awlen_i, d.s_axi_awsize_i, d.s_axi_awburst_i};
    emit([&](Listener& l) { l.on_aw(e); });
  }
  if (d.s_axi_wvalid_i && d.s_axi_wready_o) {
    const auto w = from_wide<2>(d.s_axi_wdata_i);
    WEvent e{cycle, w[0], w[1], d.s_axi_wstrb_i, bool(d.s_axi_wlast_i)};
    emit([&](Listener& l) { l.on_w(e); });
  }
  if (d.s_axi_bvalid_o && d.s_axi_bready_i) {
    BEvent e{cycle, d.s_axi_bid_o, d.s_axi_bresp_o};
    emit([&](Listener& l) { l.on_b(e); });
  }
  if (d.s_axi_arvalid_i && d.s_axi_arready_o) {
    ArEvent e{cycle,           d.s_axi_arid_i,   d.s_axi_araddr_i,
              d.s_axi_arlen_i, d.s_axi_arsize_i, d.s_axi_arburst_i};
    emit([&](Listener& l) { l.on_ar(e); });
  }
  if (d.s_axi_rvalid_o && d.s_axi_rready_i) {
    const auto rd = from_wide<2>(d.s_axi_rdata_o);
    REvent e{cycle, d.s_axi_rid_o, rd[0], d.s_axi_rresp_o, bool(d.s_axi_rlast_o)};
    emit([&](Listener& l) { l.on_r(e); });
  }
  if (d.rsp_valid_i && d.rsp_ready_o) {
    const uint32_t v = d.rsp_i;
    RspEvent e{cycle, uint16_t((v >> 1) & 0x3FF), uint16_t((v >> 11) & 0x3FFF), bool(v & 1)};
    emit([&](Listener& l) { l.on_rsp(e); });
  }
  if (d.blk_valid_o && d.blk_ready_i) {
    BlockEvent e{cycle, d.blk_tid_o, from_wide<4>(d.blk_desc_o)};
    emit([&](Listener& l) { l.on_block(e); });
  }
  if (d.pkt_valid_o && d.pkt_ready_i) {
    PacketEvent e{cycle, from_wide<8>(d.pkt_data_o)};
    emit([&](Listener& l) { l.on_packet(e); });
  }
}

void Monitor::post_edge(uint64_t cycle) {
  // mon_status: 2048 bits, 2 per write channel; only words that changed are decoded.
  const auto& v = dut_.rootp->qos_engine__DOT__mon_status;
  if (std::memcmp(&v[0], raw_.data(), sizeof(uint32_t) * raw_.size()) != 0) {  // rare
    for (unsigned w = 0; w < 64; ++w) {
      if (v[w] == raw_[w]) continue;
      raw_[w] = v[w];
      for (unsigned i = 0; i < 16; ++i) {
        const unsigned ch = w * 16 + i;
        const uint8_t now = (v[w] >> (2 * i)) & 3u;
        if (now != status_[ch]) {
          StatusEvent e{cycle, uint16_t(ch), status_[ch], now};
          status_[ch] = now;
          emit([&](Listener& l) { l.on_status(e); });
        }
      }
    }
  }
  emit([&](Listener& l) { l.end_of_cycle(cycle); });
}

}  // namespace sim
