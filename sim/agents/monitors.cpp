// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/monitors.hpp"

#include <cstring>

#include "ni_pkg_gen.hpp"  // the generated decoders (scripts/gen_pkg.py)

namespace sim {

namespace pkg = ni::ni_pkg;

void AxiSlaveMonitor::sample(uint64_t cycle) {
  if (*p_.awvalid && *p_.awready) {
    AwEvent e{cycle, *p_.awid, *p_.awaddr, *p_.awlen, *p_.awsize, *p_.awburst};
    bus_.emit([&](Listener& l) { l.on_aw(e); });
  }
  if (*p_.wvalid && *p_.wready) {
    const auto w = p_.wdata.get<2>();
    WEvent e{cycle, w[0], w[1], *p_.wstrb, bool(*p_.wlast)};
    bus_.emit([&](Listener& l) { l.on_w(e); });
  }
  if (*p_.bvalid && *p_.bready) {
    BEvent e{cycle, *p_.bid, *p_.bresp};
    bus_.emit([&](Listener& l) { l.on_b(e); });
  }
  if (*p_.arvalid && *p_.arready) {
    ArEvent e{cycle, *p_.arid, *p_.araddr, *p_.arlen, *p_.arsize, *p_.arburst};
    bus_.emit([&](Listener& l) { l.on_ar(e); });
  }
  if (*p_.rvalid && *p_.rready) {
    const auto rd = p_.rdata.get<2>();
    REvent e{cycle, *p_.rid, rd[0], *p_.rresp, bool(*p_.rlast)};
    bus_.emit([&](Listener& l) { l.on_r(e); });
  }
}

void BlkMonitor::sample(uint64_t cycle) {
  if (*p_.valid && *p_.ready) {
    BlockEvent e{cycle, *p_.tid, p_.desc.get<4>()};
    bus_.emit([&](Listener& l) { l.on_block(e); });
  }
}

void PktMonitor::sample(uint64_t cycle) {
  if (*p_.valid && *p_.ready) {
    PacketEvent e{cycle, p_.data.get<8>()};
    bus_.emit([&](Listener& l) { l.on_packet(e); });
  }
}

void RspInMonitor::sample(uint64_t cycle) {
  if (*p_.valid && *p_.ready) {
    const pkg::rsp_t::Value v = pkg::rsp_t::unpack(uint64_t{*p_.rsp});
    RspEvent e{cycle, uint16_t(v.tid), uint16_t(v.seq), v.nack != 0};
    bus_.emit([&](Listener& l) { l.on_rsp(e); });
  }
}

void ReadMonitor::sample(uint64_t cycle) {
  if (*p_.rreq_valid && *p_.rreq_ready) {
    RreqEvent e{cycle, p_.rreq.get<8>()};
    bus_.emit([&](Listener& l) { l.on_rreq(e); });
  }
  if (*p_.drsp_valid) {
    const pkg::rsp_t::Value v = pkg::rsp_t::unpack(uint64_t{*p_.drsp});
    DrspEvent e{cycle,           *p_.drsp_ready != 0, uint16_t(v.tid),
                uint16_t(v.seq), v.nack != 0,         *p_.drsp_node};
    bus_.emit([&](Listener& l) { l.on_drsp(e); });
  }
}

void QosTraceMonitor::on_reset() {
  status_.fill(0);
  raw_.fill(0);
}

void QosTraceMonitor::sample(uint64_t cycle) {
  // The event fields, through the generated decoder of qos_trace_t (the status vector, 2048
  // bits, is decoded by post_edge as it changes).
  const pkg::qos_trace_t::Value v = pkg::qos_trace_t::unpack(p_.trace.p);
  TapEvent t{};
  t.cycle = cycle;
  t.deq = v.deq;
  t.deq_qid = uint8_t(v.deq_qid);
  t.deq_node = uint16_t(v.deq_node);
  t.deq_first = v.deq_first;
  t.enq = v.enq;
  t.enq_src = uint8_t(v.enq_src);
  t.enq_qid = uint8_t(v.enq_qid);
  t.enq_node = uint16_t(v.enq_node);
  t.s2_fire = v.s2_fire;
  t.s2_hold = v.s2_hold;
  t.s2_node = uint16_t(v.s2_node);
  t.axi_enq_req = v.axi_enq_req;
  t.axi_starving = v.axi_starving;
  t.tmo = v.tmo;
  t.retx_pop = v.retx_pop;
  t.s2_retx = v.s2_retx;
  t.rd_enq_req = v.rd_enq_req;
  t.rd_dec = v.rd_dec;
  t.rd_action = uint8_t(v.rd_action);
  t.rd_ch = uint8_t(v.rd_ch);
  t.rd_tt_we = v.rd_tt_we;
  t.recheck = v.recheck;
  t.blk_valid = *p_.blk.valid;
  t.blk_ready = *p_.blk.ready;
  t.pkt_valid = *p_.pkt.valid;
  t.pkt_ready = *p_.pkt.ready;
  t.rsp_valid = *p_.rsp.valid;
  t.rsp_ready = *p_.rsp.ready;
  t.init_done = *p_.init_done;
  bus_.emit([&](Listener& l) { l.on_tap(t); });
}

void QosTraceMonitor::post_edge(uint64_t cycle) {
  // The status vector: 2048 bits, 2 per write channel; only words that changed are decoded.
  const uint32_t* v = p_.trace.p;
  if (std::memcmp(v, raw_.data(), sizeof(uint32_t) * raw_.size()) == 0) return;  // mostly
  for (unsigned w = 0; w < 64; ++w) {
    if (v[w] == raw_[w]) continue;
    raw_[w] = v[w];
    for (unsigned i = 0; i < 16; ++i) {
      const unsigned ch = w * 16 + i;
      const uint8_t now = (v[w] >> (2 * i)) & 3u;
      if (now != status_[ch]) {
        StatusEvent e{cycle, uint16_t(ch), status_[ch], now};
        status_[ch] = now;
        bus_.emit([&](Listener& l) { l.on_status(e); });
      }
    }
  }
}

}  // namespace sim
