// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/engine_model.hpp"

#include <algorithm>
#include <sstream>

#include "ref_model/common/format_util.hpp"
#include "ref_model/qos/queues.hpp"

namespace ni {

void LatencyStats::add(uint64_t v) {
  ++count;
  sum += v;
  min = std::min(min, v);
  max = std::max(max, v);
}

namespace {
std::string hex(uint64_t v) { return detail::hex64(v); }

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += "  " + l + "\n";
  return s;
}
}  // namespace

EngineModel::EngineModel(const Config& cfg, unsigned pkt_depth)
    : cfg_(cfg),
      pkt_depth_(pkt_depth),
      axi_(cfg),
      xf_(NumXfers),
      queues_(2 + 4 * cfg.intra_prios),
      tid_fifo_(IdFifo::tid_fifo()),
      fid1_fifo_(IdFifo::fid1_fifo()),
      fid4_fifo_(IdFifo::fid4_fifo()) {
  axi_.status().set_listener([this](unsigned wch, Status from, Status to) {
    model_changes_.push_back(StIn{wch, from, to});
  });
}

void EngineModel::fail(uint64_t cycle, std::string what, std::string detail, int xfer) {
  if (failure_) return;
  failure_ = ModelFailure{cycle, std::move(what), std::move(detail), xfer};
}

bool EngineModel::is_1x_no(unsigned q) const {
  const unsigned L = cfg_.intra_prios;
  return q >= 2 + L && q < 2 + 2 * L;
}

bool EngineModel::is_4x_no(unsigned q) const {
  const unsigned L = cfg_.intra_prios;
  return q >= 2 + 3 * L && q < 2 + 4 * L;
}

// Eligibility at the start of the cycle (docs/design.md section 6, stage 1).
bool EngineModel::eligible(unsigned q) const {
  if (queues_[q].empty()) return false;
  if (q == 1) {
    const bool reserved = s2_ && s2_qid_ == 1;
    return tid_fifo_.size() > (reserved ? 1u : 0u);
  }
  if (is_1x_no(q)) {
    const bool reserved = s2_ && is_1x_no(s2_qid_);
    return fid1_fifo_.size() > (reserved ? 1u : 0u);
  }
  if (is_4x_no(q)) {
    const bool reserved = s2_ && is_4x_no(s2_qid_);
    return fid4_fifo_.size() > (reserved ? 1u : 0u);
  }
  return true;
}

std::string EngineModel::queue_state() const {
  std::ostringstream os;
  for (unsigned q = 0; q < queues_.size(); ++q) {
    if (queues_[q].empty()) continue;
    os << "  " << queue_name(q, cfg_.intra_prios) << " (" << q << "):";
    unsigned n = 0;
    for (const auto& e : queues_[q]) {
      if (++n > 8) {
        os << " ...(" << queues_[q].size() << ")";
        break;
      }
      os << " " << e.xfer << (e.first ? "*" : "");
    }
    os << (eligible(q) ? "  [eligible]" : "  [not eligible]") << "\n";
  }
  os << "  TID FIFO " << tid_fifo_.size() << ", 1xFID FIFO " << fid1_fifo_.size() << ", 4xFID FIFO "
     << fid4_fifo_.size() << ", stage 2 "
     << (s2_ ? std::to_string(s2_->xfer) + " from queue " + std::to_string(s2_qid_) : "empty")
     << "\n";
  return os.str();
}

void EngineModel::expect_enqueue(unsigned src, unsigned qid, unsigned x, uint64_t c) {
  (void)c;
  exp_enq_.push_back(Enq{src, qid, x});
}

// ---------------------------------------------------------------------------------------------
// One cycle
// ---------------------------------------------------------------------------------------------
void EngineModel::end_cycle(uint64_t c) {
  if (!failure_) {
    exp_enq_.clear();
    status_changes_.clear();
    read_clears_.clear();
    stat_inc_.fill(false);
    model_changes_.clear();

    // The segmenter sees the finish FIFO's registered fill level: a pop by the Message Handler
    // in this cycle does not make room for this cycle's push (as for the packet queue).
    fin_fifo_start_ = unsigned(fin_fifo_.size());
    axi_starving_ = axi_wait_ >= kAxiMaxWait;
    if (taps_.axi_starving != axi_starving_) {
      fail(c, std::string("AXI starvation flag: expected ") + (axi_starving_ ? "set" : "clear") +
                  " after " + std::to_string(axi_wait_) + " refused enqueue requests in a row");
    }
    do_reads(c);
    check_dequeue(c);
    stage_m2(c);
    stage_m1(c);
    stage_m0(c);
    if (taps_.s2_fire) {
      stage_s2(c);
    } else if (taps_.s2_hold) {
      check_s2_hold(c);
    } else if (s2_) {
      fail(c, "segmenter stage 2 holds transfer " + std::to_string(s2_->xfer) +
                  " but reports neither fire nor hold");
    }
    do_writes(c);
    check_enqueue(c);
    apply_queues(c);
    check_outputs(c);
    apply_status(c);
    // The AXI slave's refused enqueue requests in a row (the RTL's axi_wait_q, saturating).
    const bool axi_granted = taps_.enq && taps_.enq_src == 2;
    if (taps_.axi_enq_req && !axi_granted) {
      axi_wait_ = std::min(axi_wait_ + 1, 3u);
    } else {
      axi_wait_ = 0;
    }
    if (taps_.blk_valid && !taps_.blk_ready) stats_.inc(Stat::BlkStallCycles);
    if (taps_.pkt_valid && !taps_.pkt_ready) stats_.inc(Stat::PktStallCycles);
  }
  aw_.clear();
  w_.clear();
  b_.clear();
  ar_.clear();
  r_.clear();
  rsp_.clear();
  blk_.clear();
  pkt_.clear();
  st_.clear();
  taps_ = CycleTaps{};
}

// AR handshakes: values are sampled from the state at the start of the cycle; clears of
// DONE/ERROR are applied at the end of the cycle, before this cycle's finishes.
void EngineModel::do_reads(uint64_t c) {
  (void)c;
  for (const ArFields& a : ar_) {
    ++reads_count_;
    if (!read_is_legal(a)) {
      for (unsigned i = 0; i <= a.len; ++i) {
        exp_r_.push_back(ExpR{a.id, 0, AxiResp::Slverr, i == a.len, "illegal read " + hex(a.addr)});
      }
      continue;
    }
    const unsigned region = region_of(a.addr);
    const unsigned page = (a.addr >> 12) & 0xF;
    uint64_t v = 0;
    std::string what;
    if (region == RegionStatus1) {
      const unsigned ch = (a.addr >> 5) & 0x3F;
      const unsigned wch = wch_index(page, ch);
      v = static_cast<uint64_t>(axi_.status().get(wch));
      read_clears_.push_back(ReadClear{true, page, ch});
      what = "status of page " + std::to_string(page) + " channel " + std::to_string(ch);
    } else if (region == RegionStatus32) {
      const unsigned half = (a.addr >> 10) & 1;
      v = axi_.status().peek32(page, half);
      read_clears_.push_back(ReadClear{false, page, half});
      what = "32-channel status of page " + std::to_string(page) + " half " + std::to_string(half);
    } else if (region == RegionStats) {
      const unsigned idx = (a.addr >> 4) & 0x3F;
      v = stats_.read(idx);
      what = "statistics counter " + std::to_string(idx) +
             (idx < NumStats ? std::string(" (") + to_string(Stat(idx)) + ")" : "");
    } else {
      v = axi_.ctrl().read(a.addr);
      what = "control register " + hex(a.addr);
    }
    exp_r_.push_back(ExpR{a.id, v, AxiResp::Okay, true, what});
  }
}

// Stage 1: the DUT's dequeue choice against the queues at the start of the cycle.
void EngineModel::check_dequeue(uint64_t c) {
  const bool s2_free = !s2_ || taps_.s2_fire;
  int pick = -1;
  for (unsigned q = 0; q < queues_.size(); ++q) {
    if (eligible(q)) {
      pick = int(q);
      break;
    }
  }
  if (s2_free && pick >= 0) {
    const QEntry& e = queues_[unsigned(pick)].front();
    if (!taps_.deq) {
      fail(c,
           "segmenter idle although queue " + queue_name(unsigned(pick), cfg_.intra_prios) +
               " is eligible",
           queue_state(), int(e.xfer));
    } else if (taps_.deq_qid != unsigned(pick) || taps_.deq_node != e.xfer ||
               taps_.deq_first != e.first) {
      fail(c,
           "dequeue choice: expected transfer " + std::to_string(e.xfer) + (e.first ? "*" : "") +
               " from " + queue_name(unsigned(pick), cfg_.intra_prios) + ", DUT took " +
               std::to_string(taps_.deq_node) + (taps_.deq_first ? "*" : "") + " from queue " +
               std::to_string(taps_.deq_qid),
           queue_state(), int(e.xfer));
    }
  } else if (taps_.deq) {
    fail(c,
         "dequeue of transfer " + std::to_string(taps_.deq_node) + " from queue " +
             std::to_string(taps_.deq_qid) +
             (s2_free ? " although no queue is eligible" : " while stage 2 is busy"),
         queue_state(), int(taps_.deq_node));
  }
}

// ---------------------------------------------------------------------------------------------
// Message Handler: M2 (resolve / finish), M1 (check), M0 (arbitration)
// ---------------------------------------------------------------------------------------------
void EngineModel::finish(unsigned x, bool err, uint64_t c) {
  Xfer& X = xf_[x];
  X.where = Where::Idle;
  status_changes_.push_back({wch_of_xfer(x), err ? Status::Error : Status::Done});
  if (X.d.kind == Kind::OneFid) fid1_fifo_.push(X.flow);
  if (X.d.kind == Kind::FourFid) fid4_fifo_.push(X.flow);
  stats_.inc(err ? Stat::XfersError : Stat::XfersDone);
  (err ? error_count_ : done_count_)++;
  latency_[static_cast<unsigned>(X.d.kind)].add(c - X.live_cycle);
  --live_now_;
  if (finish_hook_) finish_hook_(x, err ? Status::Error : Status::Done, c);
}

void EngineModel::stage_m2(uint64_t c) {
  if (!m2_) return;
  const M2 m = *m2_;
  m2_.reset();
  using Mh = ModelObserver::Mh;
  if (m.is_fin) {
    observe_mh(c, m.f.err ? Mh::FinishFifoError : Mh::FinishFifoDone, m.f.xfer);
    finish(m.f.xfer, m.f.err, c);
    return;
  }
  const unsigned x = m.xfer;
  Xfer& X = xf_[x];
  ptt_[m.r.tid].valid = false;
  if (!is_cm(X.d.kind)) tid_fifo_.push(m.r.tid);
  ++X.resolved;
  if (m.r.nack) X.err = true;
  stats_.inc(m.r.nack ? Stat::Nacks : Stat::AcksAccepted);
  if (X.where != Where::Parked) {  // queued or in stage 2: the segmenter decides
    observe_mh(c, Mh::ResolveActive, x);
    return;
  }
  switch (X.park) {
    case Park::More:
      observe_mh(c, Mh::WakeMore, x);
      expect_enqueue(0, X.own_qid, x, c);
      X.where = Where::Queued;
      break;
    case Park::NeedCtrl:
      if (X.err) {
        observe_mh(c, X.resolved == X.total ? Mh::NeedCtrlErrFinish : Mh::NeedCtrlErrWait, x);
        if (X.resolved == X.total) finish(x, true, c);
      } else if (X.resolved + 1 == X.total) {
        observe_mh(c, Mh::WakeCtrl, x);
        expect_enqueue(0, 0, x, c);
        X.where = Where::Queued;
      } else {
        observe_mh(c, Mh::NeedCtrlWait, x);
      }
      break;
    case Park::Wait:
      if (X.resolved == X.total) {
        observe_mh(c, X.err ? Mh::FinishM2Error : Mh::FinishM2Done, x);
        finish(x, X.err, c);
      } else {
        observe_mh(c, Mh::WaitMore, x);
      }
      break;
  }
}

void EngineModel::stage_m1(uint64_t c) {
  if (!m1_) return;
  const M1 m = *m1_;
  m1_.reset();
  if (m.is_fin) {
    M2 n;
    n.is_fin = true;
    n.f = m.f;
    m2_ = n;
    return;
  }
  const PttEntry& e = ptt_[m.r.tid];
  if (!e.valid || e.seq != m.r.seq) {
    observe_mh(c, e.valid ? ModelObserver::Mh::RspDropStale : ModelObserver::Mh::RspDropUnknown,
               e.valid ? e.xfer : 0);
    stats_.inc(Stat::RspDropped);
    return;
  }
  observe_mh(c, m.r.nack ? ModelObserver::Mh::RspNack : ModelObserver::Mh::RspAck, e.xfer);
  M2 n;
  n.r = m.r;
  n.xfer = e.xfer;
  m2_ = n;
}

void EngineModel::stage_m0(uint64_t c) {
  const bool seg_req = !fin_fifo_.empty();
  const bool mh_req = taps_.rsp_valid && taps_.init_done;  // responses wait for init_done_o
  const bool rsp_hs = !rsp_.empty();
  if (rsp_.size() > 1) fail(c, "more than one response handshake in a cycle");
  bool seg_gnt = false;
  if (seg_req && mh_req) {
    seg_gnt = arb_last_mh_;
    observe_mh(c, seg_gnt ? ModelObserver::Mh::ArbTieSeg : ModelObserver::Mh::ArbTieMh,
               fin_fifo_.front().xfer);
  } else {
    seg_gnt = seg_req;
  }
  if (mh_req && !seg_gnt && !rsp_hs) {
    fail(c, "response not accepted although the Message Handler's arbiter grants it");
  }
  if (rsp_hs && seg_gnt) {
    fail(c, "response accepted although the arbiter grants the segmenter's finish event");
  }
  if (seg_gnt) {
    M1 m;
    m.is_fin = true;
    m.f = fin_fifo_.front();
    fin_fifo_.pop_front();
    m1_ = m;
    arb_last_mh_ = false;
  } else if (rsp_hs) {
    M1 m;
    m.r = rsp_.front();
    m1_ = m;
    arb_last_mh_ = true;
  }
}

// ---------------------------------------------------------------------------------------------
// Segmenter stage 2
// ---------------------------------------------------------------------------------------------
namespace {
struct S2Plan {
  bool is_ctrl = false, err = false, issue = false, busy = false;
  bool need_pkt = false, need_blk = false, need_fin = false, need_enq = false;
  bool direct_ctrl = false, is_last = false;
  uint32_t k = 0, inflight = 0;
  unsigned tid = 0, flow = 0;
};
}  // namespace

void EngineModel::check_s2_hold(uint64_t c) {
  if (!s2_ || s2_->xfer != taps_.s2_node) {
    fail(c, "stage 2 holds transfer " + std::to_string(taps_.s2_node) + ", model has " +
                (s2_ ? std::to_string(s2_->xfer) : std::string("nothing")));
    return;
  }
  // A hold needs a reason: recompute what stage 2 needs (no side effects).
  const Xfer& X = xf_[s2_->xfer];
  const bool first = s2_->first;
  const uint32_t inflight = first ? 0 : X.issued - X.resolved;
  const bool err = !first && X.err;
  const bool is_ctrl = s2_qid_ == 0;
  bool need_pkt = false, need_blk = false, need_fin = false, need_enq = false;
  if (is_ctrl) {
    need_pkt = !err;
    need_fin = inflight == 0;
  } else if (err) {
    need_fin = inflight == 0;
  } else {
    const uint32_t k = first ? 0 : X.issued;
    const unsigned flow = first ? (X.d.kind == Kind::OneFid    ? fid1_fifo_.front()
                                   : X.d.kind == Kind::FourFid ? fid4_fifo_.front()
                                                               : 0)
                                : X.flow;
    const auto cm_tid = cm_block_tid(X.d.kind, flow, k);
    const bool busy = cm_tid && ptt_[*cm_tid].valid;
    if (!busy) {
      const bool is_last = k + 1 == X.total;
      need_pkt = X.d.kind == Kind::Inline || (is_last && X.d.notify && inflight == 0);
      need_blk = X.d.kind != Kind::Inline;
      need_enq = X.d.kind != Kind::Inline && !is_last && inflight + 1 < cfg_.max_outstanding;
    }
  }
  const bool s3_busy = !exp_blk_.empty() && blk_.empty();
  const bool m2_enq =
      std::any_of(exp_enq_.begin(), exp_enq_.end(), [](const Enq& e) { return e.src == 0; });
  const bool pkt_full = need_pkt && pkt_count_ >= pkt_depth_;
  const bool fin_full = need_fin && fin_fifo_start_ >= 2;
  const bool blk_busy = need_blk && s3_busy;
  const bool enq_lost = need_enq && m2_enq;
  const bool axi_yield = need_enq && axi_starving_;
  const bool reason = pkt_full || fin_full || blk_busy || enq_lost || axi_yield;
  if (observer_) {
    using S2 = ModelObserver::S2;
    if (pkt_full) observe_s2(c, S2::HoldPktFull, s2_->xfer, s2_qid_, X.d.kind);
    if (fin_full) observe_s2(c, S2::HoldFinFull, s2_->xfer, s2_qid_, X.d.kind);
    if (blk_busy) observe_s2(c, S2::HoldBlkBusy, s2_->xfer, s2_qid_, X.d.kind);
    if (enq_lost) observe_s2(c, S2::HoldEnqLost, s2_->xfer, s2_qid_, X.d.kind);
    if (axi_yield && !enq_lost) observe_s2(c, S2::HoldAxiYield, s2_->xfer, s2_qid_, X.d.kind);
  }
  if (!reason) {
    fail(c, "segmenter stage 2 stalls transfer " + std::to_string(s2_->xfer) + " without a reason",
         "packet queue " + std::to_string(pkt_count_) + "/" + std::to_string(pkt_depth_) +
             ", finish FIFO " + std::to_string(fin_fifo_start_) + "/2, blocks waiting " +
             std::to_string(exp_blk_.size()) + ", needs pkt=" + std::to_string(need_pkt) +
             " blk=" + std::to_string(need_blk) + " fin=" + std::to_string(need_fin) +
             " enq=" + std::to_string(need_enq),
         int(s2_->xfer));
  }
}

void EngineModel::stage_s2(uint64_t c) {
  if (!s2_ || s2_->xfer != taps_.s2_node) {
    fail(c, "stage 2 fires transfer " + std::to_string(taps_.s2_node) + ", model holds " +
                (s2_ ? std::to_string(s2_->xfer) : std::string("nothing")));
    return;
  }
  const unsigned x = s2_->xfer;
  const bool first = s2_->first;
  const unsigned qid = s2_qid_;
  s2_.reset();
  Xfer& X = xf_[x];
  const Descriptor& d = X.d;
  if (first) {
    X.issued = 0;
    X.resolved = 0;
    X.err = false;
  }
  S2Plan p;
  p.is_ctrl = qid == 0;
  p.k = X.issued;
  p.inflight = X.issued - X.resolved;
  p.err = X.err;
  if (p.is_ctrl) {
    p.need_pkt = !p.err;
    p.need_fin = p.inflight == 0;
  } else if (p.err) {
    p.need_fin = p.inflight == 0;
  } else {
    if (first && d.kind == Kind::OneFid)
      p.flow = fid1_fifo_.front();
    else if (first && d.kind == Kind::FourFid)
      p.flow = fid4_fifo_.front();
    else
      p.flow = X.flow;
    const auto cm_tid = cm_block_tid(d.kind, p.flow, p.k);
    if (cm_tid) {
      p.tid = *cm_tid;
      p.busy = ptt_[p.tid].valid;
    } else {
      p.tid = tid_fifo_.front();
    }
    p.issue = !p.busy;
    if (p.issue) {
      p.is_last = p.k + 1 == X.total;
      p.need_blk = d.kind != Kind::Inline;
      p.direct_ctrl = p.need_blk && p.is_last && d.notify && p.inflight == 0;
      p.need_pkt = d.kind == Kind::Inline || p.direct_ctrl;
      p.need_enq = p.need_blk && !p.is_last && p.inflight + 1 < cfg_.max_outstanding;
    }
  }
  if (first && !p.issue)
    fail(c, "first block of transfer " + std::to_string(x) + " not issued", "", int(x));

  // The DUT fired: no stall condition may hold.
  const bool s3_busy = !exp_blk_.empty() && blk_.empty();
  const bool m2_enq =
      std::any_of(exp_enq_.begin(), exp_enq_.end(), [](const Enq& e) { return e.src == 0; });
  if (p.need_pkt && pkt_count_ >= pkt_depth_)
    fail(c, "stage 2 wrote a packet into a full packet queue", "", int(x));
  if (p.need_fin && fin_fifo_start_ >= 2)
    fail(c, "stage 2 pushed into a full finish FIFO", "", int(x));
  if (p.need_blk && s3_busy)
    fail(c, "stage 2 issued a block while stage 3 was blocked", "", int(x));
  if (p.need_enq && m2_enq)
    fail(c, "stage 2 re-enqueued in the cycle of a Message Handler enqueue", "", int(x));
  if (p.need_enq && axi_starving_) {
    fail(c,
         "stage 2 re-enqueued while the AXI slave's enqueue was starving (refused " +
             std::to_string(axi_wait_) + " cycles in a row)",
         "", int(x));
  }
  if (observer_) {
    using S2 = ModelObserver::S2;
    auto obs = [&](S2 path) { observe_s2(c, path, x, qid, d.kind, p.tid, seq_); };
    if (p.is_ctrl) {
      obs(p.err ? S2::CtrlError : S2::CtrlFromQueue);
      obs(p.need_fin ? S2::CtrlFinish : S2::CtrlWait);
    } else if (p.err) {
      obs(p.need_fin ? S2::ErrFinish : S2::ErrPark);
    } else if (p.busy) {
      obs(S2::TidBusy);
    } else if (d.kind == Kind::Inline) {
      obs(S2::IssueInline);
    } else {
      obs(first ? S2::IssueFirst : S2::IssueNext);
      if (!p.is_last)
        obs(p.need_enq ? S2::ReEnqueue : S2::ParkMoreLimit);
      else if (p.direct_ctrl)
        obs(S2::CtrlDirect);
      else
        obs(d.notify ? S2::ParkNeedCtrl : S2::ParkWaitLast);
    }
  }

  Park park = Park::More;
  bool parks = true;
  if (p.is_ctrl) {
    if (!p.err) {
      Packet pk = make_control_packet(d, uint16_t(X.last_tid), uint16_t(X.last_seq));
      exp_pkt_.push_back(ExpPacket{pk, x});
      ++pkt_count_;
      stats_.inc(Stat::ControlPackets);
    }
    park = Park::Wait;
  } else if (p.issue) {
    const unsigned seq = seq_;
    seq_ = (seq_ + 1) & SeqMask;
    if (d.kind == Kind::Tid || d.kind == Kind::Inline) {
      tid_fifo_.pop();
    } else if (first) {
      (d.kind == Kind::OneFid ? fid1_fifo_ : fid4_fifo_).pop();
    }
    ptt_[p.tid] = PttEntry{true, seq, x};
    X.issued = p.k + 1;
    if (first) X.flow = p.flow;
    if (d.kind == Kind::Inline) {
      exp_pkt_.push_back(ExpPacket{make_inline_packet(d, uint16_t(p.tid), uint16_t(seq)), x});
      ++pkt_count_;
      stats_.inc(Stat::InlinePackets);
      park = Park::Wait;
    } else {
      exp_blk_.push_back(ExpBlock{p.tid, expected_block_desc(d, p.k, X.flow, uint16_t(seq)), x});
      stats_.inc(Stat::BlocksIssued);
      if (p.is_last) {
        X.last_tid = p.tid;
        X.last_seq = seq;
        if (p.direct_ctrl) {
          exp_pkt_.push_back(ExpPacket{make_control_packet(d, uint16_t(p.tid), uint16_t(seq)), x});
          ++pkt_count_;
          stats_.inc(Stat::ControlPackets);
          park = Park::Wait;
        } else {
          park = d.notify ? Park::NeedCtrl : Park::Wait;
        }
      } else if (p.need_enq) {
        parks = false;
        expect_enqueue(1, X.own_qid, x, c);
        X.where = Where::Queued;
      } else {
        park = Park::More;
      }
    }
  }
  if (p.need_fin) {
    parks = false;
    fin_fifo_.push_back(Fin{x, p.err});
    X.where = Where::Finishing;
  }
  if (parks) {
    X.where = Where::Parked;
    X.park = park;
  }
}

// ---------------------------------------------------------------------------------------------
// AXI writes
// ---------------------------------------------------------------------------------------------
void EngineModel::do_writes(uint64_t c) {
  for (const AwFields& a : aw_) axi_.write_address(a);
  if (w_.size() > 1) fail(c, "more than one W beat in a cycle");
  for (const WBeat& wb : w_) {
    if (!axi_.write_open()) {
      fail(c, "W beat accepted without an open write address");
      return;
    }
    const WriteBeatOutcome out = axi_.write_beat(wb);
    if (observer_) observer_->on_beat(c, out);
    for (unsigned x : out.desc.live) {
      Xfer& X = xf_[x];
      if (X.where != Where::Idle) {
        fail(c, "transfer " + std::to_string(x) + " went live while still active", "", int(x));
      }
      X = Xfer{};
      X.d = axi_.desc().table_descriptor(x);
      X.total = X.d.kind == Kind::Inline ? 1 : total_blocks(X.d.dst, X.d.size);
      X.own_qid = queue_index(X.d.kind, X.d.prio, true, cfg_.intra_prios);
      X.live_cycle = c;
      expect_enqueue(2, queue_index(X.d.kind, X.d.prio, false, cfg_.intra_prios), x, c);
      X.where = Where::Queued;
      stats_.inc(Stat::DescAccepted);
      ++live_count_;
      ++live_now_;
      if (live_hook_) live_hook_(x, X.d, c);
    }
    if (out.txn_done) {
      exp_b_.push_back(ExpB{out.id, out.resp});
      if (out.resp == AxiResp::Slverr) {
        stats_.inc(Stat::WriteRejected);
        ++slverr_count_;
      }
    }
  }
}

namespace {
const char* source_name(unsigned src) {
  static const char* const kNames[] = {"the Message Handler", "the segmenter", "the AXI slave",
                                       "the remote-read source"};
  return src < 4 ? kNames[src] : "an unknown source";
}
}  // namespace

void EngineModel::check_enqueue(uint64_t c) {
  if (exp_enq_.empty()) {
    if (taps_.enq) {
      fail(c,
           "unexpected enqueue of transfer " + std::to_string(taps_.enq_node) + " into queue " +
               std::to_string(taps_.enq_qid) + " by " + source_name(taps_.enq_src),
           queue_state(), int(taps_.enq_node));
    }
    return;
  }
  // One enqueue per cycle: the highest-priority source (lowest number) is the one expected;
  // the others should have waited (and then their events would not have happened).
  std::sort(exp_enq_.begin(), exp_enq_.end(),
            [](const Enq& a, const Enq& b) { return a.src < b.src; });
  const Enq& e = exp_enq_.front();
  std::string others;
  for (std::size_t i = 1; i < exp_enq_.size(); ++i) {
    others += "  also expected in this cycle: transfer " + std::to_string(exp_enq_[i].xfer) +
              " into " + queue_name(exp_enq_[i].qid, cfg_.intra_prios) + " by " +
              source_name(exp_enq_[i].src) + "\n";
  }
  if (!taps_.enq || taps_.enq_src != e.src || taps_.enq_qid != e.qid || taps_.enq_node != e.xfer) {
    fail(c,
         "enqueue: expected transfer " + std::to_string(e.xfer) + " into " +
             queue_name(e.qid, cfg_.intra_prios) + " by " + source_name(e.src) +
             (taps_.enq
                  ? "; DUT enqueued transfer " + std::to_string(taps_.enq_node) + " into queue " +
                        std::to_string(taps_.enq_qid) + " by " + source_name(taps_.enq_src)
                  : "; DUT enqueued nothing"),
         others, int(e.xfer));
    return;
  }
  if (exp_enq_.size() > 1) {
    fail(c,
         std::string("enqueue by ") + source_name(exp_enq_[1].src) +
             " in the cycle of an enqueue by " + source_name(e.src) + " (it should have waited)",
         others, int(exp_enq_[1].xfer));
  }
}

void EngineModel::apply_queues(uint64_t c) {
  if (taps_.deq) {
    auto& q = queues_.at(taps_.deq_qid);
    if (q.empty()) {
      fail(c, "dequeue from an empty queue");
      return;
    }
    s2_ = q.front();
    s2_qid_ = taps_.deq_qid;
    q.pop_front();
    xf_[s2_->xfer].where = Where::InS2;
  }
  for (const Enq& e : exp_enq_) {
    queues_.at(e.qid).push_back(QEntry{e.xfer, e.src == 2});
    max_queue_depth_ = std::max(max_queue_depth_, unsigned(queues_[e.qid].size()));
  }
}

// ---------------------------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------------------------
void EngineModel::check_outputs(uint64_t c) {
  for (const BlkIn& b : blk_) {
    if (exp_blk_.empty()) {
      fail(c, "unexpected block descriptor, tid " + std::to_string(b.tid),
           to_string(BlockDesc::unpack(b.desc)));
      return;
    }
    const ExpBlock e = exp_blk_.front();
    exp_blk_.pop_front();
    if (e.tid == b.tid && e.bits == b.desc) continue;  // the common case: identical
    const BlockDesc act = BlockDesc::unpack(b.desc);
    std::vector<std::string> d = diff(e.desc, act);
    if (e.tid != b.tid)
      d.insert(d.begin(),
               "tid: expected " + std::to_string(e.tid) + ", actual " + std::to_string(b.tid));
    if (!d.empty()) {
      fail(c,
           "block descriptor mismatch (transfer " + std::to_string(e.xfer) + ", block " +
               std::to_string(e.desc.block_idx) + ")",
           join(d) + "  transfer: " + xf_[e.xfer].d.to_string(), int(e.xfer));
      return;
    }
  }
  for (const Bits512& raw : pkt_) {
    if (exp_pkt_.empty()) {
      fail(c, "unexpected packet", to_string(Packet::unpack(raw)));
      return;
    }
    const ExpPacket e = exp_pkt_.front();
    exp_pkt_.pop_front();
    --pkt_count_;
    // Identical to the expected packet (whose CRC the model computed with Boost.CRC over the
    // expected header and payload) means every field and the CRC are right.
    if (e.bits == raw) continue;
    const Packet act = Packet::unpack(raw);
    std::vector<std::string> d = diff(e.pkt, act);
    if (!check_crc(raw)) d.push_back("crc32: footer does not match the header and payload");
    if (!d.empty()) {
      fail(c, "packet mismatch (transfer " + std::to_string(e.xfer) + ")",
           join(d) + "  transfer: " + xf_[e.xfer].d.to_string(), int(e.xfer));
      return;
    }
  }
  for (const BIn& b : b_) {
    if (exp_b_.empty()) {
      fail(c, "unexpected B response");
      return;
    }
    const ExpB e = exp_b_.front();
    exp_b_.pop_front();
    if (e.id != b.id || e.resp != b.resp) {
      fail(c, std::string("B response: expected id ") + std::to_string(e.id) + " " +
                  to_string(e.resp) + ", actual id " + std::to_string(b.id) + " " +
                  to_string(b.resp));
      return;
    }
  }
  for (const RIn& r : r_) {
    if (exp_r_.empty()) {
      fail(c, "unexpected R beat");
      return;
    }
    const ExpR e = exp_r_.front();
    exp_r_.pop_front();
    if (e.id != r.id || e.data != r.data || e.resp != r.resp || e.last != r.last) {
      fail(c, "read of " + e.what + ": expected " + hex(e.data) + " " + to_string(e.resp) +
                  (e.last ? " last" : "") + ", actual " + hex(r.data) + " " + to_string(r.resp) +
                  (r.last ? " last" : ""));
      return;
    }
  }
}

void EngineModel::apply_status(uint64_t c) {
  StatusRegs& st = axi_.status();
  // Go-live changes were made by the AXI model in do_writes; reads clear what they reported
  // (DONE/ERROR at the start of the cycle), then the handler's finishes land. The status
  // listener collects every change in model_changes_.
  for (const ReadClear& r : read_clears_) {
    if (r.single) {
      st.read_single(r.page, r.index);
    } else {
      st.read32(r.page, r.index);
    }
  }
  for (const auto& [wch, to] : status_changes_) {
    if (!st.finish(wch, to == Status::Error)) {
      fail(c, "finish of write channel " + std::to_string(wch) + " that is not BUSY");
      return;
    }
  }
  if (model_changes_.empty() && st_.empty()) return;  // most cycles
  std::vector<StIn>& model = model_changes_;
  auto key = [](const StIn& s) { return s.wch; };
  std::sort(model.begin(), model.end(),
            [&](const StIn& a, const StIn& b) { return key(a) < key(b); });
  std::vector<StIn>& act = st_;
  std::sort(act.begin(), act.end(), [&](const StIn& a, const StIn& b) { return key(a) < key(b); });
  bool same = model.size() == act.size();
  for (std::size_t i = 0; same && i < model.size(); ++i) {
    same = model[i].wch == act[i].wch && model[i].from == act[i].from && model[i].to == act[i].to;
  }
  if (!same) {
    std::string d = "  expected:";
    for (const auto& s : model) {
      d += " ch" + std::to_string(s.wch) + " " + to_string(s.from) + "->" + to_string(s.to);
    }
    d += "\n  actual:  ";
    for (const auto& s : act) {
      d += " ch" + std::to_string(s.wch) + " " + to_string(s.from) + "->" + to_string(s.to);
    }
    fail(c, "status changes differ", d + "\n");
  }
}

// ---------------------------------------------------------------------------------------------
// End of run
// ---------------------------------------------------------------------------------------------
bool EngineModel::quiescent() const {
  if (s2_ || m1_ || m2_ || !fin_fifo_.empty() || !exp_blk_.empty() || !exp_pkt_.empty() ||
      !exp_b_.empty() || !exp_r_.empty() || live_now_ != 0) {
    return false;
  }
  for (const auto& q : queues_) {
    if (!q.empty()) return false;
  }
  return true;
}

std::vector<std::string> EngineModel::final_check(uint64_t cycle) {
  std::vector<std::string> p;
  if (failure_) p.push_back("first failure: " + failure_->what);
  for (unsigned x = 0; x < NumXfers; ++x) {
    if (xf_[x].where != Where::Idle) {
      p.push_back("transfer " + std::to_string(x) + " (" + xf_[x].d.to_string() +
                  ") never finished: issued " + std::to_string(xf_[x].issued) + "/" +
                  std::to_string(xf_[x].total) + ", resolved " + std::to_string(xf_[x].resolved));
      if (p.size() > 20) break;
    }
  }
  for (unsigned t = 0; t < NumTids; ++t) {
    if (ptt_[t].valid) p.push_back("TID " + std::to_string(t) + " still pending");
  }
  auto check_fifo = [&](const IdFifo& f, const IdFifo& ref, const char* name) {
    if (f.size() != ref.size()) {
      p.push_back(std::string(name) + " holds " + std::to_string(f.size()) + " IDs, expected " +
                  std::to_string(ref.size()));
      return;
    }
    for (unsigned id : ref.contents()) {
      if (!f.contains(id)) p.push_back(std::string(name) + " lacks ID " + std::to_string(id));
    }
  };
  check_fifo(tid_fifo_, IdFifo::tid_fifo(), "TID FIFO");
  check_fifo(fid1_fifo_, IdFifo::fid1_fifo(), "1xFID FIFO");
  check_fifo(fid4_fifo_, IdFifo::fid4_fifo(), "4xFID FIFO");
  if (!exp_blk_.empty())
    p.push_back(std::to_string(exp_blk_.size()) + " block(s) never left the blk port");
  if (!exp_pkt_.empty())
    p.push_back(std::to_string(exp_pkt_.size()) + " packet(s) never left the pkt port");
  if (!exp_b_.empty()) p.push_back(std::to_string(exp_b_.size()) + " B response(s) missing");
  if (!exp_r_.empty()) p.push_back(std::to_string(exp_r_.size()) + " R beat(s) missing");
  if (!p.empty() && !failure_) fail(cycle, "end of run: " + p.front(), join(p));
  return p;
}

}  // namespace ni
