// SPDX-License-Identifier: Apache-2.0
// The Message Handler (docs/design.md section 9), pipelined like the RTL: M0 arbitrates
// between a network response and the segmenter's finish FIFO (adaptive arbiter), M1 checks a
// response against the Pending Transactions Table, M2 resolves it (returns the TID, wakes a
// parked transfer, or finishes it) or finishes a transfer for the segmenter; a wake is
// enqueued from a register in the next cycle (M3). A timeout event
// of the timeout FSM (EngineState::tmo) takes M0 ahead of both and travels as a NACK; a NACK
// or timeout with retries left requests a re-issue instead of resolving (design.md 8.1).
// A re-check (design.md section 20, "The resolve seen a cycle later") takes M0 ahead of all
// of them in the cycle after M2 resolved a block of a transfer that stage 2 parked in the same
// cycle; in M2 it applies a resolve's wake and finish decisions without counting one.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ref_model/qos/engine_state.hpp"

namespace ni {

class MsgHandlerModel {
 public:
  explicit MsgHandlerModel(EngineState& st) : st_(st) {}

  // A response handshake of the current cycle.
  void rsp(unsigned tid, unsigned seq, bool nack) { rsp_.push_back({tid, seq, nack}); }
  // The stages, in this order each cycle (each sees its input of the previous cycle).
  void m2(uint64_t c);
  void m1(uint64_t c);
  void m0(uint64_t c);
  void end_cycle() { rsp_.clear(); }
  // Stage 2 parked transfer `xfer` in the cycle M2 resolved one of its blocks: a re-check
  // takes M0 in the next cycle.
  void recheck(unsigned xfer) { rc_ = xfer; }
  // The segmenter re-issues TID `tid` in this cycle with seq `seq` (M1 sees the new seq).
  using RetxNow = std::function<std::optional<unsigned>(unsigned tid)>;
  void on_retx_now(RetxNow f) { retx_now_ = std::move(f); }
  bool idle() const { return !m1_ && !m2_ && !m3_ && !rc_; }

  using FinishHook = std::function<void(unsigned xfer, Status st, uint64_t cycle)>;
  void on_finish(FinishHook h) { finish_hook_ = std::move(h); }

 private:
  struct RspIn {
    unsigned tid, seq;
    bool nack;
    bool tmo = false;  // a timeout event (nack is set too)
  };
  struct M1 {
    bool is_fin = false;
    bool is_rc = false;  // a re-check of transfer `rc_xfer`
    unsigned rc_xfer = 0;
    RspIn r{};
    Fin f{};
  };
  struct M2 {
    bool is_fin = false;
    bool is_rc = false;
    RspIn r{};
    Fin f{};
    unsigned xfer = 0;
    PttEntry e{};
    bool left = false;  // re-issues left: compared in M1, against MaxRetries then
  };
  void finish(unsigned x, bool err, uint64_t c);
  void recheck_m2(uint64_t c, unsigned x);
  void wake_or_finish(uint64_t c, unsigned x, bool recheck);

  EngineState& st_;
  std::vector<RspIn> rsp_;
  std::optional<M1> m1_;
  std::optional<M2> m2_;
  std::optional<Enq> m3_;       // a wake decided in M2, enqueued in the next cycle
  std::optional<unsigned> rc_;  // a re-check waiting for M0 (set in the cycle before)
  bool arb_last_mh_ = false;    // md_arbiter: the handler was served last
  FinishHook finish_hook_;
  RetxNow retx_now_;
};

}  // namespace ni
