// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/engine_checker.hpp"

namespace sim {

const std::vector<CheckFailure>& EngineChecker::errors() const {
  if (errors_.empty() && model_.failed()) {
    const ni::ModelFailure& f = model_.failure();
    errors_.push_back(CheckFailure{f.cycle, f.what, f.detail});
  }
  return errors_;
}

void EngineChecker::announce_transfers(EventBus& bus) {
  model_.on_live([&bus](unsigned x, const ni::Descriptor& d, uint64_t c) {
    const XferEvent e{c, x, XferEvent::What::Live, &d};
    bus.emit([&](Listener& l) { l.on_xfer(e); });
  });
  model_.on_read_decision([&bus](const ni::ReadAllocModel::Decision& d) {
    using A = RreqAction;
    const A a = d.action == ni::ReadAllocModel::Action::Serve  ? A::Serve
                : d.action == ni::ReadAllocModel::Action::Drop ? A::Drop
                                                               : A::Dup;
    const RreqDecisionEvent e{d.cycle, d.from, d.tid, d.seq, a, a == A::Drop ? -1 : int(d.channel)};
    bus.emit([&](Listener& l) { l.on_rreq_decision(e); });
  });
  model_.on_finish([&bus](unsigned x, ni::Status st, uint64_t c) {
    const XferEvent e{
        c, x, st == ni::Status::Error ? XferEvent::What::Error : XferEvent::What::Done, nullptr};
    bus.emit([&](Listener& l) { l.on_xfer(e); });
  });
}

std::vector<std::string> EngineChecker::final_check(uint64_t cycle) {
  return model_.final_check(cycle);
}

void EngineChecker::on_aw(const AwEvent& e) {
  model_.aw(ni::AwFields{e.addr, e.len, e.size, e.burst, e.id});
}
void EngineChecker::on_w(const WEvent& e) { model_.w(ni::WBeat{e.lo, e.hi, e.strb, e.last}); }
void EngineChecker::on_b(const BEvent& e) { model_.b(e.id, ni::AxiResp(e.resp)); }
void EngineChecker::on_ar(const ArEvent& e) {
  model_.ar(ni::ArFields{e.addr, e.len, e.size, e.burst, e.id});
}
void EngineChecker::on_r(const REvent& e) { model_.r(e.id, e.data, ni::AxiResp(e.resp), e.last); }
void EngineChecker::on_block(const BlockEvent& e) { model_.block(e.tid, e.desc); }
void EngineChecker::on_packet(const PacketEvent& e) { model_.packet(e.data); }
void EngineChecker::on_rsp(const RspEvent& e) { model_.rsp(e.tid, e.seq, e.nack); }
void EngineChecker::on_rreq(const RreqEvent& e) { model_.rreq(e.head); }
void EngineChecker::on_drsp(const DrspEvent& e) {
  model_.drsp(e.taken, e.tid, e.seq, e.nack, e.node);
}
void EngineChecker::on_status(const StatusEvent& e) {
  model_.status(e.wch, ni::Status(e.from), ni::Status(e.to));
}
void EngineChecker::on_tap(const TapEvent& e) {
  ni::CycleTaps t;
  t.deq = e.deq;
  t.deq_qid = e.deq_qid;
  t.deq_node = e.deq_node;
  t.deq_first = e.deq_first;
  t.enq = e.enq;
  t.enq_src = e.enq_src;
  t.enq_qid = e.enq_qid;
  t.enq_node = e.enq_node;
  t.s2_fire = e.s2_fire;
  t.s2_hold = e.s2_hold;
  t.s2_node = e.s2_node;
  t.blk_valid = e.blk_valid;
  t.blk_ready = e.blk_ready;
  t.pkt_valid = e.pkt_valid;
  t.pkt_ready = e.pkt_ready;
  t.rsp_valid = e.rsp_valid;
  t.rsp_ready = e.rsp_ready;
  t.init_done = e.init_done;
  t.axi_enq_req = e.axi_enq_req;
  t.axi_starving = e.axi_starving;
  t.tmo = e.tmo;
  t.retx_pop = e.retx_pop;
  t.s2_retx = e.s2_retx;
  t.rd_enq_req = e.rd_enq_req;
  t.rd_dec = e.rd_dec;
  t.rd_action = e.rd_action;
  t.rd_ch = e.rd_ch;
  t.rd_tt_we = e.rd_tt_we;
  t.recheck = e.recheck;
  model_.taps(t);
}
void EngineChecker::end_of_cycle(uint64_t cycle) { model_.end_cycle(cycle); }

}  // namespace sim
