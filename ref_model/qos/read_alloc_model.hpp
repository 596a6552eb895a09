// SPDX-License-Identifier: Apache-2.0
// Golden model of the read-channel allocator (ICD 16, rtl/qos/read_alloc.sv, docs/design.md
// section 19): the read channels 64..127 of each page, the request held in stage A (and the
// ones behind it in stage N and the skid), the served transfers waiting for their enqueue
// (source 3, two entries) and the answers of finished channels.
//
// The DUT's timing choices are taken from its trace (when a serve happens: the Transfer
// Table port and a free entry of the enqueue FIFO decide), everything else is predicted and
// checked: a re-issue or a drop is decided in the request's first cycle in stage A; the
// action and the channel (the lowest-numbered IDLE one of the page, or the busy one whose key
// matches); the one-block write transfer a serve installs; the enqueue into its kind's and
// prio's queue; and each deferred response (tid, seq, ACK/NACK, node) in finish order.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>

#include "ref_model/common/packet.hpp"
#include "ref_model/common/wire.hpp"
#include "ref_model/qos/engine_state.hpp"

namespace ni {

class ReadAllocModel {
 public:
  enum class Action : uint8_t { Serve = 0, Drop = 1, Dup = 2 };
  // One decision, for the log and the statistics.
  struct Decision {
    uint64_t cycle = 0;
    uint16_t from = 0;
    unsigned tid = 0, seq = 0;
    Action action = Action::Serve;
    unsigned channel = 0;  // 64..127 (served or matched)
  };
  using DecisionHook = std::function<void(const Decision&)>;

  explicit ReadAllocModel(EngineState& st) : st_(st) {}

  // ---- events of the current cycle --------------------------------------------------------
  void rreq(const Bits512& head) { in_ = head; }
  void drsp(bool taken, unsigned tid, unsigned seq, bool nack, unsigned node) {
    drsp_ = Drsp{taken, tid, seq, nack, node};
  }

  // The allocator's part of cycle c, after the Message Handler (its finishes are in
  // st_.rd_finishes) and before the enqueue check: decides, serves (installing the transfer
  // and expecting nothing more this cycle), expects the pending enqueue, checks responses.
  void cycle(uint64_t c);
  // After the enqueue check: the enqueue, the starvation count, the request taken this cycle.
  void end_cycle(uint64_t c);

  bool quiescent() const { return !a_ && !n_ && !skid_ && e_.empty() && answers_.empty(); }
  bool refused() const { return refused_; }  // its enqueue request was refused this cycle
  void on_decision(DecisionHook h) { hook_ = std::move(h); }
  unsigned busy_channels() const { return nbusy_; }
  // Counters 27, 28, 29: requests dropped for lack of a channel, re-issues matched, served.
  const std::array<uint64_t, 3>& counters() const { return st_.rd_ctr; }

 private:
  struct Chan {
    bool busy = false;
    uint16_t src = 0;
    unsigned tid = 0;
    unsigned blk = 0;  // 16-bit check of the block read (blk_check)
    unsigned aseq = 0;
  };
  struct Req {
    WireHead h;
    ReadReqPayload pl;
    uint64_t since;  // first cycle in stage A
  };
  struct Drsp {
    bool taken;
    unsigned tid, seq;
    bool nack;
    unsigned node;
  };
  struct Answer {
    unsigned rch;
    bool err;
  };

  static unsigned rch_of(unsigned page, unsigned ch) { return page * RdChPerPage + ch; }
  // The RTL's check of a request's block: its remote source and local destination folded.
  static unsigned blk_check(const Req& r);
  void serve(uint64_t c, const Req& r, unsigned ch);

  EngineState& st_;
  std::array<Chan, NumPages * RdChPerPage> ch_{};
  std::optional<Req> a_;     // stage A
  std::optional<Req> n_;     // stage N: the request stage A takes next
  std::optional<Req> skid_;  // a request taken while stage N held another
  static constexpr size_t kEnqEntries = 2;
  std::deque<Enq> e_;           // served transfers waiting for their enqueue (stage E)
  bool e_full_ = false;         // stage E was full at the start of this cycle
  std::deque<Answer> answers_;  // finished channels, in order
  std::optional<Bits512> in_;   // the request taken this cycle (stage N next cycle)
  std::optional<Drsp> drsp_;    // the response offered this cycle
  bool granted_ = false;
  bool refused_ = false;
  DecisionHook hook_;
  unsigned nbusy_ = 0;
};

}  // namespace ni
