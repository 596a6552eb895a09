// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/read_alloc_model.hpp"

#include <string>

#include "ref_model/common/bits.hpp"
#include "ref_model/qos/queues.hpp"
#include "ref_model/qos/segmentation.hpp"

namespace ni {

namespace {

// 14-bit serial-number arithmetic: b is newer than a.
bool seq_newer(unsigned b, unsigned a) {
  const unsigned d = (b - a) & SeqMask;
  return d != 0 && (d & (1u << (SeqW - 1))) == 0;
}

const char* action_name(ReadAllocModel::Action a) {
  switch (a) {
    case ReadAllocModel::Action::Serve:
      return "serve";
    case ReadAllocModel::Action::Drop:
      return "drop";
    case ReadAllocModel::Action::Dup:
      return "dup";
  }
  return "?";
}

}  // namespace

unsigned ReadAllocModel::blk_check(const Req& r) {
  const uint64_t m = mask_bits(48);
  const uint64_t b = r.pl.local_dst & m;
  const uint64_t x = (r.h.dst_addr & m) ^ (((b & 0xFFFFFF) << 24) | (b >> 24));
  return unsigned((x ^ (x >> 16) ^ (x >> 32)) & 0xFFFF);
}

void ReadAllocModel::serve(uint64_t c, const Req& r, unsigned ch) {
  const unsigned page = r.h.pd;
  const unsigned x = xfer_id(page, WrChPerPage + ch);
  Xfer& X = st_.xf[x];
  if (X.where != Where::Idle) {
    st_.fail(c,
             "read channel " + std::to_string(WrChPerPage + ch) + " of page " +
                 std::to_string(page) + " served while its transfer is still active",
             "", int(x));
  }
  X = Xfer{};
  Descriptor& d = X.d;
  d.page = page;
  d.channel = WrChPerPage + ch;
  d.kind = Kind::Tid;  // whatever the request's kind (design.md 19: FIDs would deadlock)
  d.src = r.h.dst_addr & mask_bits(48);
  d.dst = r.pl.local_dst;
  d.size = r.pl.bytes;
  d.prio = r.pl.prio;
  d.notify = r.h.notify && r.pl.last;
  if (d.notify) {
    d.notify_addr = r.pl.notify_addr;
    d.notify_tag = r.pl.notify_tag;
  }
  const unsigned L = st_.cfg.intra_prios;
  X.total = total_blocks(d.dst, d.size);
  X.own_qid = queue_index(d.kind, d.prio, true, L);
  X.live_cycle = c;
  X.where = Where::Queued;
  e_.push_back(Enq{3, queue_index(d.kind, d.prio, false, L), x});
  Chan& k = ch_[rch_of(page, ch)];
  k.busy = true;
  ++nbusy_;
  k.src = r.h.src_node;
  k.tid = r.h.tid;
  k.blk = blk_check(r);
  k.aseq = r.h.seq;
}

void ReadAllocModel::cycle(uint64_t c) {
  const CycleTaps& t = st_.taps;
  // The oldest served transfer's enqueue: source 3 is granted when no other source asks.
  if (t.rd_enq_req != !e_.empty()) {
    st_.fail(c, std::string("read-channel allocator ") +
                    (t.rd_enq_req ? "requests an enqueue, none expected"
                                  : "requests no enqueue, one expected"));
  }
  e_full_ = e_.size() == kEnqEntries;  // a serve needs a free entry at the cycle's start
  granted_ = !e_.empty() && st_.exp_enq.empty() && !t.axi_enq_req;
  refused_ = !e_.empty() && !granted_;
  if (granted_) {
    st_.exp_enq.push_back(e_.front());
    e_.pop_front();
  }

  // The response offered: the oldest finished channel's, with the seq it answers now.
  std::optional<unsigned> popping;
  if (drsp_) {
    if (answers_.empty()) {
      st_.fail(c, "deferred response offered (tid " + std::to_string(drsp_->tid) + " seq " +
                      std::to_string(drsp_->seq) + "), none expected");
    } else {
      const Answer& a = answers_.front();
      const Chan& k = ch_[a.rch];
      if (drsp_->tid != k.tid || drsp_->seq != k.aseq || drsp_->nack != a.err ||
          drsp_->node != k.src) {
        st_.fail(c, "deferred response: expected " + std::string(a.err ? "NACK" : "ACK") + " tid " +
                        std::to_string(k.tid) + " seq " + std::to_string(k.aseq) + " to node " +
                        std::to_string(k.src) + ", offered " + (drsp_->nack ? "NACK" : "ACK") +
                        " tid " + std::to_string(drsp_->tid) + " seq " +
                        std::to_string(drsp_->seq) + " to node " + std::to_string(drsp_->node));
      }
      if (drsp_->taken) popping = a.rch;
    }
  }

  // Stage A's decision.
  bool decided = false;
  if (a_) {
    const Req& r = *a_;
    const unsigned page = r.h.pd;
    std::optional<unsigned> match, free;
    for (unsigned ch = 0; ch < RdChPerPage; ++ch) {
      const unsigned rc = rch_of(page, ch);
      const Chan& k = ch_[rc];
      // (the channel whose response is taken this cycle is still busy: matched, its seq
      // not taken, as while its response is offered)
      if (k.busy && k.src == r.h.src_node && k.tid == r.h.tid && k.blk == blk_check(r) && !match) {
        match = ch;
      }
      if (!k.busy && !free) free = ch;
    }
    Decision dn;
    dn.cycle = c;
    dn.from = r.h.src_node;
    dn.tid = r.h.tid;
    dn.seq = r.h.seq;
    const bool immediate = match || !free;
    if (match) {
      dn.action = Action::Dup;
      dn.channel = WrChPerPage + *match;
    } else if (!free) {
      dn.action = Action::Drop;
      dn.channel = 0;
    } else {
      dn.action = Action::Serve;
      dn.channel = WrChPerPage + *free;
    }
    if (immediate && !t.rd_dec) {
      st_.fail(c, "read request (node " + std::to_string(dn.from) + " tid " +
                      std::to_string(dn.tid) + " seq " + std::to_string(dn.seq) + ") not " +
                      "decided in its first cycle: expected " + action_name(dn.action));
    }
    if (t.rd_dec) {
      decided = true;
      const bool ch_ok = dn.action == Action::Drop || t.rd_ch + WrChPerPage == dn.channel;
      if (t.rd_action != static_cast<unsigned>(dn.action) || !ch_ok) {
        st_.fail(c, "read request (node " + std::to_string(dn.from) + " tid " +
                        std::to_string(dn.tid) + " seq " + std::to_string(dn.seq) + "): expected " +
                        action_name(dn.action) + " channel " + std::to_string(dn.channel) +
                        ", DUT action " + std::to_string(t.rd_action) + " channel " +
                        std::to_string(t.rd_ch + WrChPerPage));
      }
      if (dn.action == Action::Dup) {
        Chan& k = ch_[rch_of(page, *match)];
        const bool offered =
            drsp_ && !answers_.empty() && answers_.front().rch == rch_of(page, *match);
        if (seq_newer(r.h.seq, k.aseq) && !offered) k.aseq = r.h.seq;
        ++st_.rd_ctr[1];
      } else if (dn.action == Action::Drop) {
        ++st_.rd_ctr[0];
      } else {
        if (e_full_) st_.fail(c, "read request served while both enqueue entries are taken");
        serve(c, r, *free);
        ++st_.rd_ctr[2];
      }
      if (hook_) hook_(dn);
    }
  } else if (t.rd_dec) {
    st_.fail(c, "read-channel allocator decided with no request in stage A");
  }
  const bool served = decided && t.rd_action == 0;
  if (t.rd_tt_we != served) {
    st_.fail(c, std::string("read-channel allocator ") +
                    (t.rd_tt_we ? "writes the Transfer Table without a serve"
                                : "serves without writing the Transfer Table"));
  }
  if (decided) a_.reset();

  // The response taken: its channel returns to IDLE.
  if (popping) {
    ch_[*popping].busy = false;
    --nbusy_;
    answers_.pop_front();
  }
  // Read channels whose transfer finished in this cycle.
  for (const auto& [x, err] : st_.rd_finishes) {
    const unsigned rc = rch_of(xfer_page(x), xfer_channel(x) - WrChPerPage);
    if (!ch_[rc].busy)
      st_.fail(c, "read channel transfer " + std::to_string(x) + " finished on an idle channel");
    answers_.push_back(Answer{rc, err});
  }
}

void ReadAllocModel::end_cycle(uint64_t c) {
  // Stage N's request enters stage A when stage A is free at the end of the cycle; stage N
  // refills then (or when empty) from the skid, else from the port. The port is refused while
  // the skid is full (rreq_ready_o is its empty flag).
  const bool skid_full = skid_.has_value();
  if (!a_ && n_) {
    a_ = *n_;
    a_->since = c + 1;
    n_.reset();
  }
  if (!n_ && skid_) {
    n_ = *skid_;
    skid_.reset();
  }
  if (in_) {
    if (skid_full) st_.fail(c, "read request taken while the skid holds another");
    Req r;
    r.h = WireHead::unpack(*in_);
    r.pl = ReadReqPayload::unpack(r.h.payload);
    if (!n_) {
      n_ = r;
    } else {
      skid_ = r;
    }
  }
  in_.reset();
  drsp_.reset();
}

}  // namespace ni
