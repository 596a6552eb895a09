// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/segmenter_model.hpp"

#include <algorithm>

#include "ref_model/common/block_desc.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/qos/segmentation.hpp"

namespace ni {

std::optional<SchedModel::Held> SegmenterModel::held() const {
  if (!s2_) return std::nullopt;
  return SchedModel::Held{s2_->xfer, s2_->qid};
}

std::vector<SchedModel::Held> SegmenterModel::holders() const {
  std::vector<SchedModel::Held> h;
  if (const auto s2 = held()) h.push_back(*s2);
  if (sk_) h.push_back(SchedModel::Held{sk_->xfer, sk_->qid});
  return h;
}

// What stage 1 takes enters stage 2 when stage 2 is free at the end of the cycle (empty, or it
// fired), else the skid (empty whenever stage 1 takes something).
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
  if (!s2_ || !s2_->retx || s2_->rq.tid != tid || !st_.taps.s2_fire) return std::nullopt;
  const Plan p = plan();
  if (!p.live || stalls(p).any()) return std::nullopt;
  return st_.seq;
}

// A first node starts its transfer afresh (the firing resets the counts; a hold sees them
// as if reset).
SegmenterModel::Plan SegmenterModel::plan() const {
  const Xfer& X = st_.xf[s2_->xfer];
  const Descriptor& d = X.d;
  const bool first = s2_->first;
  Plan p;
  if (s2_->retx) {
    // Current when the entry still has its re-issue pending and holds the same block.
    const PttEntry& e = st_.ptt[s2_->rq.tid];
    p.retx = true;
    p.live = e.valid && e.rp && e.seq == s2_->rq.e.seq;
    p.k = s2_->rq.e.blk;
    p.tid = s2_->rq.tid;
    p.flow = X.flow;
    if (p.live) {
      p.is_last = p.k + 1 == X.total;
      p.need_blk = d.kind != Kind::Inline && !d.read;
      p.retx_ctrl = p.need_blk && p.is_last && d.notify && X.ctrl_sent;
      p.need_pkt = d.kind == Kind::Inline || d.read || p.retx_ctrl;
    }
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
  return p;
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
  s.err_resolve = !p.retx && st_.res_now && st_.res_now->err && st_.res_now->xfer == s2_->xfer;
  return s;
}

void SegmenterModel::check_hold(uint64_t c) {
  const CycleTaps& t = st_.taps;
  if (!s2_ || s2_->xfer != t.s2_node) {
    st_.fail(c, "stage 2 holds transfer " + std::to_string(t.s2_node) + ", model has " +
                    (s2_ ? std::to_string(s2_->xfer) : std::string("nothing")));
    return;
  }
  // A hold needs a reason.
  const Plan p = plan();
  const Stalls s = stalls(p);
  const unsigned x = s2_->xfer;
  const Kind kind = st_.xf[x].d.kind;
  if (t.s2_retx != s2_->retx) {
    st_.fail(c,
             std::string("stage 2 holds ") + (t.s2_retx ? "a re-issue" : "a queue node") +
                 ", model has " + (s2_->retx ? "a re-issue" : "a queue node"),
             "", int(x));
  }
  if (st_.observer) {
    using S2 = ModelObserver::S2;
    if (s.pkt_full) st_.observe_s2(c, S2::HoldPktFull, x, s2_->qid, kind);
    if (s.fin_full) st_.observe_s2(c, S2::HoldFinFull, x, s2_->qid, kind);
    if (s.blk_busy) st_.observe_s2(c, S2::HoldBlkBusy, x, s2_->qid, kind);
    if (s.enq_lost) st_.observe_s2(c, S2::HoldEnqLost, x, s2_->qid, kind);
    if (s.axi_yield && !s.enq_lost) st_.observe_s2(c, S2::HoldAxiYield, x, s2_->qid, kind);
    if (s.err_resolve) st_.observe_s2(c, S2::HoldErrResolve, x, s2_->qid, kind);
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

void SegmenterModel::fire(uint64_t c) {
  fire_s2(c);
  // The skid's node enters the stage that has just become free.
  if (!s2_ && sk_) {
    s2_ = sk_;
    sk_.reset();
  }
}

void SegmenterModel::fire_s2(uint64_t c) {
  const CycleTaps& t = st_.taps;
  if (!s2_ || s2_->xfer != t.s2_node) {
    st_.fail(c, "stage 2 fires transfer " + std::to_string(t.s2_node) + ", model holds " +
                    (s2_ ? std::to_string(s2_->xfer) : std::string("nothing")));
    return;
  }
  const Plan p = plan();
  const unsigned x = s2_->xfer;
  if (t.s2_retx != s2_->retx) {
    st_.fail(c,
             std::string("stage 2 fires ") + (t.s2_retx ? "a re-issue" : "a queue node") +
                 ", model has " + (s2_->retx ? "a re-issue" : "a queue node"),
             "", int(x));
  }
  if (s2_->retx) {
    const Stalls s = stalls(p);
    if (s.pkt_full) st_.fail(c, "stage 2 re-issued into a full packet queue", "", int(x));
    if (s.blk_busy) st_.fail(c, "stage 2 re-issued a block while stage 3 was blocked", "", int(x));
    apply_retx(c, p);
    return;
  }
  if (s2_->first) {
    Xfer& X = st_.xf[x];
    X.issued = 0;
    X.resolved = 0;
    X.err = false;
    X.ctrl_sent = false;
  }
  if (s2_->first && !p.issue) {
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
  if (s.err_resolve) {
    st_.fail(c,
             "stage 2 fired in the cycle the Message Handler resolves a block of its transfer "
             "with an error (it decides without that resolve and must hold)",
             "", int(x));
  }
  if (s.axi_yield) {
    st_.fail(c,
             "stage 2 re-enqueued while the AXI slave's enqueue was starving (refused " +
                 std::to_string(st_.axi_wait) + " cycles in a row)",
             "", int(x));
  }
  observe_fire(c, p);
  apply(c, p);
}

void SegmenterModel::observe_fire(uint64_t c, const Plan& p) const {
  if (!st_.observer) return;
  using S2 = ModelObserver::S2;
  const Descriptor& d = st_.xf[s2_->xfer].d;
  auto obs = [&](S2 path) { st_.observe_s2(c, path, s2_->xfer, s2_->qid, d.kind, p.tid, st_.seq); };
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
    obs(s2_->first ? S2::IssueFirst : S2::IssueNext);
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
  const unsigned x = s2_->xfer;
  s2_.reset();
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
  const unsigned x = s2_->xfer;
  const bool first = s2_->first;
  s2_.reset();
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
