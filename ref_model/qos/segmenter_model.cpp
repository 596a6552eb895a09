// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/segmenter_model.hpp"

#include <algorithm>

#include "ref_model/common/block_desc.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/qos/segmentation.hpp"

namespace ni {

std::optional<SchedModel::Held> SegmenterModel::held() const {
  if (!b_) return std::nullopt;
  return SchedModel::Held{b_->s.xfer, b_->s.qid};
}

std::vector<SchedModel::Held> SegmenterModel::holders() const {
  std::vector<SchedModel::Held> h;
  if (const auto b = held()) h.push_back(*b);
  if (s2_) h.push_back(SchedModel::Held{s2_->xfer, s2_->qid});
  if (sk_) h.push_back(SchedModel::Held{sk_->xfer, sk_->qid});
  return h;
}

// What stage 1 takes enters stage 2a when 2a is free at the end of the cycle (empty, or its
// node moved into 2b), else the skid (empty whenever stage 1 takes something).
void SegmenterModel::enter(const Slot& s) {
  if (!s2_) {
    s2_ = s;
  } else {
    sk_ = s;
  }
}

void SegmenterModel::load(const SchedModel::Entry& e, unsigned qid) {
  enter(Slot{e.xfer, e.first, qid});
  st_.xf[e.xfer].where = Where::InS2;
}

// A re-issue request holds stage 2 without a queue (no ID reservation: queue 0) and leaves the
// transfer where it is.
void SegmenterModel::load_retx(const RetxReq& r) {
  Slot s{r.e.xfer, false, 0};
  s.retx = true;
  s.rq = r;
  enter(s);
}

std::optional<unsigned> SegmenterModel::retx_now(unsigned tid) const {
  if (!b_ || !b_->s.retx || b_->s.rq.tid != tid || !st_.taps.s2_fire) return std::nullopt;
  const Plan p = applied();
  if (!p.live || stalls(p).any()) return std::nullopt;
  return st_.seq;
}

// A re-issue is current when the entry still has its re-issue pending and holds the same
// block; its last block of a notifying transfer repeats the control packet if that has gone
// out.
static void retx_parts(const EngineState& st, const RetxReq& rq, SegmenterModel::Plan& p);

void SegmenterModel::note_resolve() {
  if (b_ && !b_->s.retx && st_.res_now && st_.res_now->xfer == b_->s.xfer) b_->since = true;
}

SegmenterModel::Plan SegmenterModel::applied() const {
  Plan p = b_->p;
  const Xfer& X = st_.xf[b_->s.xfer];
  const Descriptor& d = X.d;
  if (b_->s.retx) {
    p = Plan{};
    retx_parts(st_, b_->s.rq, p);
    return p;
  }
  if (p.issue) {
    // The IDs are taken where they are popped: the FID FIFO's head for a first visit, the
    // TID FIFO's head for a TID-only kind.
    if (b_->s.first && d.kind == Kind::OneFid)
      p.flow = st_.fid1_fifo.front();
    else if (b_->s.first && d.kind == Kind::FourFid)
      p.flow = st_.fid4_fifo.front();
    else
      p.flow = X.flow;
    const auto cm_tid = cm_block_tid(d.kind, p.flow, p.k);
    p.tid = cm_tid ? *cm_tid : st_.tid_fifo.front();
  }
  return p;
}

// A first node starts its transfer afresh (the firing resets the counts; a hold sees them
// as if reset).
SegmenterModel::Plan SegmenterModel::plan() const {
  const Xfer& X = st_.xf[s2_->xfer];
  const Descriptor& d = X.d;
  const bool first = s2_->first;
  Plan p;
  if (s2_->retx) {
    retx_parts(st_, s2_->rq, p);
    return p;
  }
  // Stage 2 decides on its transfer as it was before this cycle's resolve in M2, if M2
  // resolves one of its blocks now (design.md section 20, "The resolve seen a cycle later").
  const bool before = !first && st_.res_now && st_.res_now->xfer == s2_->xfer;
  const uint32_t resolved = before ? X.resolved - 1 : X.resolved;
  p.is_ctrl = s2_->qid == 0;
  p.k = first ? 0 : X.issued;
  p.inflight = first ? 0 : X.issued - resolved;
  p.err = !first && (before ? st_.res_now->err_before : X.err);
  if (p.is_ctrl) {
    p.need_pkt = !p.err;
    p.need_fin = p.inflight == 0;
  } else if (p.err) {
    p.need_fin = p.inflight == 0;
  } else {
    if (first && d.kind == Kind::OneFid)
      p.flow = st_.fid1_fifo.front();
    else if (first && d.kind == Kind::FourFid)
      p.flow = st_.fid4_fifo.front();
    else
      p.flow = X.flow;
    const auto cm_tid = cm_block_tid(d.kind, p.flow, p.k);
    if (cm_tid) {
      p.tid = *cm_tid;
      p.busy = st_.ptt[p.tid].valid || (before && st_.res_now->tid == p.tid);
    } else {
      p.tid = st_.tid_fifo.front();
    }
    // The last block of a notifying read waits for the read's other blocks (ICD 16; the
    // notification is written after its bytes).
    p.read_hold = d.read && d.notify && p.k + 1 == X.total && p.inflight != 0;
    p.issue = !p.busy && !p.read_hold;
    if (p.issue) {
      p.is_last = p.k + 1 == X.total;
      // A read's blocks leave as read-request packets; its notification is the responder's
      // (no control packet here, ICD 16).
      p.need_blk = d.kind != Kind::Inline && !d.read;
      p.direct_ctrl = p.need_blk && p.is_last && d.notify && p.inflight == 0;
      p.need_pkt = d.kind == Kind::Inline || d.read || p.direct_ctrl;
      p.need_enq = d.kind != Kind::Inline && !p.is_last && p.inflight + 1 < st_.cfg.max_outstanding;
    }
  }
  p.parks = !p.need_enq && !p.need_fin;
  return p;
}

static void retx_parts(const EngineState& st, const RetxReq& rq, SegmenterModel::Plan& p) {
  const Xfer& X = st.xf[rq.e.xfer];
  const Descriptor& d = X.d;
  const PttEntry& e = st.ptt[rq.tid];
  p.retx = true;
  p.live = e.valid && e.rp && e.seq == rq.e.seq;
  p.k = rq.e.blk;
  p.tid = rq.tid;
  p.flow = X.flow;
  if (p.live) {
    p.is_last = p.k + 1 == X.total;
    p.need_blk = d.kind != Kind::Inline && !d.read;
    p.retx_ctrl = p.need_blk && p.is_last && d.notify && X.ctrl_sent;
    p.need_pkt = d.kind == Kind::Inline || d.read || p.retx_ctrl;
  }
}

SegmenterModel::Stalls SegmenterModel::stalls(const Plan& p) const {
  const bool m2_enq =
      std::any_of(st_.exp_enq.begin(), st_.exp_enq.end(), [](const Enq& e) { return e.src == 0; });
  Stalls s;
  s.pkt_full = p.need_pkt && sb_.pkt_queue_count() >= st_.pkt_depth;
  s.fin_full = p.need_fin && st_.fin_fifo_start >= 2;
  s.blk_busy = p.need_blk && sb_.blk_stage_busy();
  s.enq_lost = p.need_enq && m2_enq;
  s.axi_yield = p.need_enq && st_.axi_starving;
  return s;
}

void SegmenterModel::check_hold(uint64_t c) {
  const CycleTaps& t = st_.taps;
  if (!b_ || b_->s.xfer != t.s2_node) {
    st_.fail(c, "stage 2b holds transfer " + std::to_string(t.s2_node) + ", model has " +
                    (b_ ? std::to_string(b_->s.xfer) : std::string("nothing")));
    return;
  }
  note_resolve();
  // A hold needs a reason.
  const Plan p = applied();
  const Stalls s = stalls(p);
  const unsigned x = b_->s.xfer;
  const unsigned qid = b_->s.qid;
  const Kind kind = st_.xf[x].d.kind;
  if (t.s2_retx != b_->s.retx) {
    st_.fail(c,
             std::string("stage 2b holds ") + (t.s2_retx ? "a re-issue" : "a queue node") +
                 ", model has " + (b_->s.retx ? "a re-issue" : "a queue node"),
             "", int(x));
  }
  if (st_.observer) {
    using S2 = ModelObserver::S2;
    if (s.pkt_full) st_.observe_s2(c, S2::HoldPktFull, x, qid, kind);
    if (s.fin_full) st_.observe_s2(c, S2::HoldFinFull, x, qid, kind);
    if (s.blk_busy) st_.observe_s2(c, S2::HoldBlkBusy, x, qid, kind);
    if (s.enq_lost) st_.observe_s2(c, S2::HoldEnqLost, x, qid, kind);
    if (s.axi_yield && !s.enq_lost) st_.observe_s2(c, S2::HoldAxiYield, x, qid, kind);
  }
  if (!s.any()) {
    st_.fail(
        c, "segmenter stage 2 stalls transfer " + std::to_string(x) + " without a reason",
        "packet queue " + std::to_string(sb_.pkt_queue_count()) + "/" +
            std::to_string(st_.pkt_depth) + ", finish FIFO " + std::to_string(st_.fin_fifo_start) +
            "/2, blocks waiting " + std::to_string(sb_.blocks_waiting()) +
            ", needs pkt=" + std::to_string(p.need_pkt) + " blk=" + std::to_string(p.need_blk) +
            " fin=" + std::to_string(p.need_fin) + " enq=" + std::to_string(p.need_enq),
        int(x));
  }
}

// Stage 2a's node moves into stage 2b when 2b is free at the end of the cycle (empty, or it
// fired), planned now on its transfer as it was before this cycle's resolve; the skid's node
// enters 2a.
void SegmenterModel::advance() {
  if (b_ || !s2_) return;
  B nb{*s2_, plan()};
  nb.since = !s2_->retx && !s2_->first && st_.res_now && st_.res_now->xfer == s2_->xfer;
  b_ = nb;
  s2_ = sk_;
  sk_.reset();
}

bool SegmenterModel::fire(uint64_t c) {
  const CycleTaps& t = st_.taps;
  if (!b_ || b_->s.xfer != t.s2_node) {
    st_.fail(c, "stage 2b fires transfer " + std::to_string(t.s2_node) + ", model holds " +
                    (b_ ? std::to_string(b_->s.xfer) : std::string("nothing")));
    return false;
  }
  note_resolve();
  const Plan p = applied();
  const unsigned x = b_->s.xfer;
  if (t.s2_retx != b_->s.retx) {
    st_.fail(c,
             std::string("stage 2b fires ") + (t.s2_retx ? "a re-issue" : "a queue node") +
                 ", model has " + (b_->s.retx ? "a re-issue" : "a queue node"),
             "", int(x));
  }
  if (b_->s.retx) {
    const Stalls s = stalls(p);
    if (s.pkt_full) st_.fail(c, "stage 2b re-issued into a full packet queue", "", int(x));
    if (s.blk_busy) st_.fail(c, "stage 2b re-issued a block while stage 3 was blocked", "", int(x));
    apply_retx(c, p);
    return false;
  }
  const bool recheck = p.parks && b_->since;
  if (b_->s.first) {
    Xfer& X = st_.xf[x];
    X.issued = 0;
    X.resolved = 0;
    X.err = false;
    X.ctrl_sent = false;
  }
  if (b_->s.first && !p.issue) {
    st_.fail(c, "first block of transfer " + std::to_string(x) + " not issued", "", int(x));
  }
  // The DUT fired: no stall condition may hold.
  const Stalls s = stalls(p);
  if (s.pkt_full) st_.fail(c, "stage 2 wrote a packet into a full packet queue", "", int(x));
  if (s.fin_full) st_.fail(c, "stage 2 pushed into a full finish FIFO", "", int(x));
  if (s.blk_busy) st_.fail(c, "stage 2 issued a block while stage 3 was blocked", "", int(x));
  if (s.enq_lost) {
    st_.fail(c, "stage 2 re-enqueued in the cycle of a Message Handler enqueue", "", int(x));
  }
  if (s.axi_yield) {
    st_.fail(c,
             "stage 2 re-enqueued while the AXI slave's enqueue was starving (refused " +
                 std::to_string(st_.axi_wait) + " cycles in a row)",
             "", int(x));
  }
  observe_fire(c, p);
  if (recheck && st_.observer) {
    st_.observe_s2(c, ModelObserver::S2::ParkPassed, x, b_->s.qid, st_.xf[x].d.kind);
  }
  apply(c, p);
  return recheck;
}

void SegmenterModel::observe_fire(uint64_t c, const Plan& p) const {
  if (!st_.observer) return;
  using S2 = ModelObserver::S2;
  const Slot& sl = b_->s;
  const Descriptor& d = st_.xf[sl.xfer].d;
  auto obs = [&](S2 path) { st_.observe_s2(c, path, sl.xfer, sl.qid, d.kind, p.tid, st_.seq); };
  if (p.is_ctrl) {
    obs(p.err ? S2::CtrlError : S2::CtrlFromQueue);
    obs(p.need_fin ? S2::CtrlFinish : S2::CtrlWait);
  } else if (p.err) {
    obs(p.need_fin ? S2::ErrFinish : S2::ErrPark);
  } else if (p.busy) {
    obs(S2::TidBusy);
  } else if (p.read_hold) {
    obs(S2::ReadNotifyWait);
  } else if (d.kind == Kind::Inline) {
    obs(S2::IssueInline);
  } else {
    obs(sl.first ? S2::IssueFirst : S2::IssueNext);
    if (!p.is_last)
      obs(p.need_enq ? S2::ReEnqueue : S2::ParkMoreLimit);
    else if (p.direct_ctrl)
      obs(S2::CtrlDirect);
    else
      obs(d.notify && !d.read ? S2::ParkNeedCtrl : S2::ParkWaitLast);
  }
}

// A re-issue (design.md 8.1): same TID, next seq, `retx` set; the last block of a notifying
// transfer repeats its control packet if that has gone out, and a control packet made later
// carries the new seq. A stale request does nothing.
void SegmenterModel::apply_retx(uint64_t c, const Plan& p) {
  const unsigned x = b_->s.xfer;
  b_.reset();
  if (!p.live) return;
  Xfer& X = st_.xf[x];
  const Descriptor& d = X.d;
  const unsigned seq = st_.seq;
  st_.seq = (st_.seq + 1) & SeqMask;
  PttEntry& e = st_.ptt[p.tid];
  e.seq = seq;
  e.retries = std::min(e.retries + 1, 255u);
  e.rp = false;
  e.sent = false;
  e.written = c;
  st_.stats.inc(Stat::Retransmissions);
  if (d.kind == Kind::Inline) {
    sb_.expect_packet(make_inline_packet(d, uint16_t(p.tid), uint16_t(seq)), x);
    return;
  }
  if (d.read) {
    sb_.expect_packet(make_read_packet(d, p.k, uint16_t(p.tid), uint16_t(seq), st_.cfg.node_id), x);
    return;
  }
  sb_.expect_block(p.tid, expected_block_desc(d, p.k, X.flow, uint16_t(seq), true), x, c);
  if (p.is_last) X.last_seq = seq;
  if (p.retx_ctrl) sb_.expect_packet(make_control_packet(d, uint16_t(p.tid), uint16_t(seq)), x);
}

void SegmenterModel::apply(uint64_t c, const Plan& p) {
  const unsigned x = b_->s.xfer;
  const bool first = b_->s.first;
  b_.reset();
  Xfer& X = st_.xf[x];
  const Descriptor& d = X.d;
  Park park = Park::More;
  bool parks = true;
  if (p.is_ctrl) {
    if (!p.err) {
      sb_.expect_packet(make_control_packet(d, uint16_t(X.last_tid), uint16_t(X.last_seq)), x);
      st_.stats.inc(Stat::ControlPackets);
      X.ctrl_sent = true;
    }
    park = Park::Wait;
  } else if (p.issue) {
    const unsigned seq = st_.seq;
    st_.seq = (st_.seq + 1) & SeqMask;
    if (d.kind == Kind::Tid || d.kind == Kind::Inline) {
      st_.tid_fifo.pop();
    } else if (first) {
      (d.kind == Kind::OneFid ? st_.fid1_fifo : st_.fid4_fifo).pop();
    }
    PttEntry& e = st_.ptt[p.tid];
    e.valid = true;
    e.seq = seq;
    e.xfer = x;
    e.blk = p.k;
    e.retries = 0;
    e.rp = false;
    e.sent = false;  // a bypassing block leaves in this cycle: see EngineModel::handshakes
    e.written = c;
    X.issued = p.k + 1;
    if (first) X.flow = p.flow;
    if (d.kind == Kind::Inline) {
      sb_.expect_packet(make_inline_packet(d, uint16_t(p.tid), uint16_t(seq)), x);
      st_.stats.inc(Stat::InlinePackets);
      park = Park::Wait;
    } else {
      if (d.read) {
        sb_.expect_packet(make_read_packet(d, p.k, uint16_t(p.tid), uint16_t(seq), st_.cfg.node_id),
                          x);
      } else {
        sb_.expect_block(p.tid, expected_block_desc(d, p.k, X.flow, uint16_t(seq)), x, c);
      }
      st_.stats.inc(Stat::BlocksIssued);
      if (p.is_last) {
        X.last_tid = p.tid;
        X.last_seq = seq;
        if (p.direct_ctrl) {
          sb_.expect_packet(make_control_packet(d, uint16_t(p.tid), uint16_t(seq)), x);
          st_.stats.inc(Stat::ControlPackets);
          X.ctrl_sent = true;
          park = Park::Wait;
        } else {
          park = d.notify && !d.read ? Park::NeedCtrl : Park::Wait;
        }
      } else if (p.need_enq) {
        parks = false;
        st_.exp_enq.push_back(Enq{1, X.own_qid, x});
        X.where = Where::Queued;
      } else {
        park = Park::More;
      }
    }
  }
  if (p.need_fin) {
    parks = false;
    st_.fin_fifo.push_back(Fin{x, p.err});
    X.where = Where::Finishing;
  }
  if (parks) {
    X.where = Where::Parked;
    X.park = park;
  }
}

}  // namespace ni
