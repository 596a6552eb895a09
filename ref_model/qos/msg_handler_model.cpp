// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/msg_handler_model.hpp"

namespace ni {

void MsgHandlerModel::finish(unsigned x, bool err, uint64_t c) {
  Xfer& X = st_.xf[x];
  X.where = Where::Idle;
  if (X.d.kind == Kind::OneFid) st_.fid1_fifo.push(X.flow);
  if (X.d.kind == Kind::FourFid) st_.fid4_fifo.push(X.flow);
  st_.stats.inc(err ? Stat::XfersError : Stat::XfersDone);
  if (xfer_channel(x) >= WrChPerPage) {
    // A read channel's transfer (ICD 16): no status; the allocator answers its request.
    st_.rd_finishes.push_back({x, err});
    return;
  }
  st_.finishes.push_back({wch_of_xfer(x), err ? Status::Error : Status::Done});
  (err ? st_.metrics.error : st_.metrics.done)++;
  st_.metrics.latency[static_cast<unsigned>(X.d.kind)].add(c - X.live_cycle);
  --st_.metrics.live_now;
  if (finish_hook_) finish_hook_(x, err ? Status::Error : Status::Done, c);
}

void MsgHandlerModel::m2(uint64_t c) {
  // M3: last cycle's wake is enqueued now, ahead of every other source.
  if (m3_) {
    st_.exp_enq.push_back(*m3_);
    m3_.reset();
  }
  const bool dut_rc = st_.taps.recheck;
  const bool rc_now = m2_ && m2_->is_rc;
  if (dut_rc != rc_now) {
    st_.fail(c, std::string("Message Handler's M2: ") +
                    (dut_rc ? "re-check made, none expected" : "no re-check, one expected") +
                    (rc_now ? " (transfer " + std::to_string(m2_->xfer) + ")" : std::string()));
  }
  if (!m2_) return;
  const M2 m = *m2_;
  m2_.reset();
  using Mh = ModelObserver::Mh;
  if (m.is_rc) {
    recheck_m2(c, m.xfer);
    return;
  }
  if (m.is_fin) {
    st_.observe_mh(c, m.f.err ? Mh::FinishFifoError : Mh::FinishFifoDone, m.f.xfer);
    finish(m.f.xfer, m.f.err, c);
    return;
  }
  const unsigned x = m.xfer;
  Xfer& X = st_.xf[x];
  PttEntry& e = st_.ptt[m.r.tid];
  st_.stats.inc(m.r.tmo ? Stat::Timeouts : m.r.nack ? Stat::Nacks : Stat::AcksAccepted);
  // A NACK or timeout with retries left: request a re-issue (design.md 8.1).
  if (m.r.nack && m.left) {
    e.rp = true;
    st_.rq.push_back(RetxReq{m.r.tid, m.e, c});
    return;
  }
  e.valid = false;
  e.rp = false;
  if (!is_cm(X.d.kind)) st_.tid_fifo.push(m.r.tid);
  st_.res_now = EngineState::ResolveNow{x, m.r.tid, X.err, m.r.nack};
  ++X.resolved;
  if (m.r.nack) X.err = true;
  if (X.where != Where::Parked) {  // queued or in stage 2: the segmenter decides
    st_.observe_mh(c, Mh::ResolveActive, x);
    return;
  }
  wake_or_finish(c, x, false);
}

// A re-check: the wake and finish decisions of a resolve, on the transfer as it is, without
// counting a resolve (design.md section 20).
void MsgHandlerModel::recheck_m2(uint64_t c, unsigned x) {
  if (st_.xf[x].where != Where::Parked) {
    st_.observe_mh(c, ModelObserver::Mh::RecheckNone, x);
    return;
  }
  wake_or_finish(c, x, true);
}

// A parked transfer after a resolve (or a re-check): MORE wakes into its own queue; NEED_CTRL
// wakes into the control queue with one block left (with an error it finishes when all are
// resolved); WAIT finishes when all are resolved.
void MsgHandlerModel::wake_or_finish(uint64_t c, unsigned x, bool recheck) {
  using Mh = ModelObserver::Mh;
  Xfer& X = st_.xf[x];
  const bool all = X.resolved == X.total;
  bool wake_own = false, wake_ctrl = false, fin = false;
  Mh path = Mh::WaitMore;
  switch (X.park) {
    case Park::More:
      wake_own = true;
      path = recheck ? Mh::RecheckWake : Mh::WakeMore;
      break;
    case Park::NeedCtrl:
      if (X.err) {
        fin = all;
        path = recheck ? (fin ? Mh::RecheckFinish : Mh::RecheckStay)
                       : (fin ? Mh::NeedCtrlErrFinish : Mh::NeedCtrlErrWait);
      } else if (X.resolved + 1 == X.total) {
        wake_ctrl = true;
        path = recheck ? Mh::RecheckCtrl : Mh::WakeCtrl;
      } else {
        path = recheck ? Mh::RecheckStay : Mh::NeedCtrlWait;
      }
      break;
    case Park::Wait:
      fin = all;
      path = recheck ? (fin ? Mh::RecheckFinish : Mh::RecheckStay)
                     : (fin ? (X.err ? Mh::FinishM2Error : Mh::FinishM2Done) : Mh::WaitMore);
      break;
  }
  st_.observe_mh(c, path, x);
  if (wake_own || wake_ctrl) {
    m3_ = Enq{0, wake_ctrl ? 0u : X.own_qid, x};
    X.where = Where::Queued;
  }
  if (fin) finish(x, X.err, c);
}

void MsgHandlerModel::m1(uint64_t c) {
  if (!m1_) return;
  const M1 m = *m1_;
  m1_.reset();
  // A re-check and a finish event go on to M2 without a check.
  if (m.is_rc || m.is_fin) {
    M2 n;
    n.is_rc = m.is_rc;
    n.xfer = m.rc_xfer;
    n.is_fin = m.is_fin;
    n.f = m.f;
    m2_ = n;
    return;
  }
  const PttEntry& e = st_.ptt[m.r.tid];
  // A re-issue of this TID in this very cycle gives the entry its new seq (the RTL forwards
  // the segmenter's write into M1).
  unsigned seq_now = e.seq;
  if (retx_now_) {
    if (const auto s = retx_now_(m.r.tid)) seq_now = *s;
  }
  const bool pend_blocks =
      m.r.nack && e.rp;  // a NACK or timeout adds nothing to a pending re-issue
  if (!e.valid || seq_now != m.r.seq || pend_blocks) {
    if (m.r.tmo) return;  // a timeout event that lost its race vanishes
    st_.observe_mh(c, e.valid ? ModelObserver::Mh::RspDropStale : ModelObserver::Mh::RspDropUnknown,
                   e.valid ? e.xfer : 0);
    st_.stats.inc(Stat::RspDropped);
    return;
  }
  if (!m.r.tmo) {
    st_.observe_mh(c, m.r.nack ? ModelObserver::Mh::RspNack : ModelObserver::Mh::RspAck, e.xfer);
  }
  M2 n;
  n.r = m.r;
  n.xfer = e.xfer;
  n.e = e;
  n.left = e.retries < st_.max_retries;
  m2_ = n;
}

void MsgHandlerModel::m0(uint64_t c) {
  const CycleTaps& t = st_.taps;
  const bool rsp_hs = !rsp_.empty();
  if (rsp_.size() > 1) st_.fail(c, "more than one response handshake in a cycle");
  // A re-check takes M0 ahead of everything; a timeout event offered now vanishes (the FSM
  // offers it again on its next round), and the arbiter sees no request.
  if (rc_) {
    if (rsp_hs) st_.fail(c, "response accepted in the cycle of a re-check");
    M1 m;
    m.is_rc = true;
    m.rc_xfer = *rc_;
    rc_.reset();
    m1_ = m;
    return;
  }
  // A timeout event takes M0 ahead of the arbiter, which sees no request in this cycle.
  if (st_.tmo) {
    if (rsp_hs) st_.fail(c, "response accepted in the cycle of a timeout event");
    M1 m;
    m.r = RspIn{*st_.tmo, st_.ptt[*st_.tmo].seq, true, true};
    m1_ = m;
    return;
  }
  const bool seg_req = !st_.fin_fifo.empty();
  const bool mh_req = t.rsp_valid && t.init_done;  // responses wait for init_done_o
  bool seg_gnt = false;
  if (seg_req && mh_req) {
    seg_gnt = arb_last_mh_;
    st_.observe_mh(c, seg_gnt ? ModelObserver::Mh::ArbTieSeg : ModelObserver::Mh::ArbTieMh,
                   st_.fin_fifo.front().xfer);
  } else {
    seg_gnt = seg_req;
  }
  if (mh_req && !seg_gnt && !rsp_hs) {
    st_.fail(c, "response not accepted although the Message Handler's arbiter grants it");
  }
  if (rsp_hs && seg_gnt) {
    st_.fail(c, "response accepted although the arbiter grants the segmenter's finish event");
  }
  if (seg_gnt) {
    M1 m;
    m.is_fin = true;
    m.f = st_.fin_fifo.front();
    st_.fin_fifo.pop_front();
    m1_ = m;
    arb_last_mh_ = false;
  } else if (rsp_hs) {
    M1 m;
    m.r = rsp_.front();
    m1_ = m;
    arb_last_mh_ = true;
  }
}

}  // namespace ni
