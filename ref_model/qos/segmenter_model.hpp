// SPDX-License-Identifier: Apache-2.0
// Segmenter stage 2 (docs/design.md section 6): the node dequeued by stage 1 (straight, or
// through the skid it waits in while stage 2 holds) is decided in one cycle: issue a block
// or an inline packet (TID, seq, Pending Transactions Table entry), make a control packet,
// re-enqueue, park, or finish; or it holds for a stall. The DUT says when stage 2 fires or
// holds (trace port); the model decides what it must do, checks that a hold has a reason and
// that a firing has none, and predicts its outputs.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ref_model/qos/engine_scoreboard.hpp"
#include "ref_model/qos/engine_state.hpp"
#include "ref_model/qos/sched_model.hpp"

namespace ni {

class SegmenterModel {
 public:
  SegmenterModel(EngineState& st, EngineScoreboard& sb) : st_(st), sb_(sb) {}

  // The node stage 2 holds, with the queue it came from.
  std::optional<SchedModel::Held> held() const;
  // The nodes of stage 2 and the skid, each reserving an ID of the queue it came from (a
  // re-issue request's queue is the control queue's: it reserves nothing).
  std::vector<SchedModel::Held> holders() const;
  // Stage 1 dequeued `e` from queue `qid`.
  void load(const SchedModel::Entry& e, unsigned qid);
  // Stage 1 took the re-issue request `r` (design.md 8.1).
  void load_retx(const RetxReq& r);
  // The seq a re-issue of `tid` takes when stage 2 fires it in this cycle, if it does.
  std::optional<unsigned> retx_now(unsigned tid) const;
  // The DUT's stage 2 fired / held this cycle.
  void fire(uint64_t c);
  void check_hold(uint64_t c);
  bool idle() const { return !s2_ && !sk_; }
  // Stage 1 takes a re-issue request or dequeues only while the skid is empty.
  bool skid_full() const { return sk_.has_value(); }

 private:
  // What stage 2 must do with its node: one plan for a firing and for a hold's reasons.
  struct Plan {
    bool is_ctrl = false, err = false, issue = false, busy = false;
    bool read_hold = false;  // the last block of a notifying read waits for the others
    bool need_pkt = false, need_blk = false, need_fin = false, need_enq = false;
    bool direct_ctrl = false, is_last = false;
    bool retx = false, live = false, retx_ctrl = false;  // a re-issue, still current
    uint32_t k = 0, inflight = 0;
    unsigned tid = 0, flow = 0;
  };
  // The stall conditions of a plan (each one a reason to hold).
  struct Stalls {
    bool pkt_full = false, fin_full = false, blk_busy = false, enq_lost = false;
    bool axi_yield = false;
    bool err_resolve = false;  // M2 resolves a block of the transfer with an error now
    bool any() const {
      return pkt_full || fin_full || blk_busy || enq_lost || axi_yield || err_resolve;
    }
  };
  Plan plan() const;
  Stalls stalls(const Plan& p) const;
  void fire_s2(uint64_t c);
  void observe_fire(uint64_t c, const Plan& p) const;
  void apply(uint64_t c, const Plan& p);
  void apply_retx(uint64_t c, const Plan& p);

  struct Slot {
    unsigned xfer;
    bool first;
    unsigned qid;
    bool retx = false;
    RetxReq rq{};
  };
  EngineState& st_;
  EngineScoreboard& sb_;
  void enter(const Slot& s);
  std::optional<Slot> s2_;
  // What stage 1 took while stage 2 held (design.md section 6, stage 1).
  std::optional<Slot> sk_;
};

}  // namespace ni
