// SPDX-License-Identifier: Apache-2.0
// Segmenter stage 2 (docs/design.md section 6): the node dequeued by stage 1 (straight, or
// through the skid it waits in while stage 2a holds) is planned in stage 2a: issue a block or
// an inline packet, make a control packet, re-enqueue, park, or finish. The plan moves into
// stage 2b when 2b is free, and 2b applies it (TID, FID and seq taken there, Pending
// Transactions Table entry) or holds for a stall. The DUT says when stage 2b fires or holds
// (trace port); the model plans each node when it moves into 2b, checks that a hold has a
// reason and that a firing has none, and predicts its outputs.
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

  // The node stage 2b holds, with the queue it came from.
  std::optional<SchedModel::Held> held() const;
  // The nodes of stages 2b and 2a and the skid, each reserving an ID of the queue it came
  // from (a re-issue request's queue is the control queue's: it reserves nothing).
  std::vector<SchedModel::Held> holders() const;
  // Stage 1 dequeued `e` from queue `qid`.
  void load(const SchedModel::Entry& e, unsigned qid);
  // Stage 1 took the re-issue request `r` (design.md 8.1).
  void load_retx(const RetxReq& r);
  // The seq a re-issue of `tid` takes when stage 2 fires it in this cycle, if it does.
  std::optional<unsigned> retx_now(unsigned tid) const;
  // The DUT's stage 2b fired / held this cycle. `fire` says whether the handler must
  // re-check the transfer it parked (a resolve of one of its blocks passed the plan).
  bool fire(uint64_t c);
  void check_hold(uint64_t c);
  // End of the cycle: 2a's node moves into a free 2b (planned now), the skid's into 2a.
  void advance();
  bool idle() const { return !b_ && !s2_ && !sk_; }
  bool b_busy() const { return b_.has_value(); }
  // Stage 1 takes a re-issue request or dequeues only while the skid is empty.
  bool skid_full() const { return sk_.has_value(); }

 public:
  // What stage 2 must do with its node: one plan for a firing and for a hold's reasons.
  struct Plan {
    bool is_ctrl = false, err = false, issue = false, busy = false;
    bool read_hold = false;  // the last block of a notifying read waits for the others
    bool need_pkt = false, need_blk = false, need_fin = false, need_enq = false;
    bool direct_ctrl = false, is_last = false;
    bool retx = false, live = false, retx_ctrl = false;  // a re-issue, still current
    bool parks = false;  // it parks the transfer (no re-enqueue, no finish)
    uint32_t k = 0, inflight = 0;
    unsigned tid = 0, flow = 0;
  };

 private:
  // The stall conditions of a plan (each one a reason to hold).
  struct Stalls {
    bool pkt_full = false, fin_full = false, blk_busy = false, enq_lost = false;
    bool axi_yield = false;
    bool any() const { return pkt_full || fin_full || blk_busy || enq_lost || axi_yield; }
  };
  Plan plan() const;
  // The plan in stage 2b as it is applied now: the IDs taken, a re-issue's liveness and its
  // repeated control packet on the state as it is.
  Plan applied() const;
  Stalls stalls(const Plan& p) const;
  // A resolve of the transfer in 2b's node now: one more resolve the plan did not see.
  void note_resolve();
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
  // What stage 1 took while stage 2a held (design.md section 6, stage 1).
  std::optional<Slot> sk_;
  // Stage 2b: the node, its plan, and whether a block of its transfer resolved since the
  // plan's view.
  struct B {
    Slot s;
    Plan p;
    bool since = false;
  };
  std::optional<B> b_;
};

}  // namespace ni
