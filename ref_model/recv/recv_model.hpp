// SPDX-License-Identifier: Apache-2.0
// Golden model of the receive unit (ICD 11, 13; counters 16-26 of ICD 8; RxIdle of ICD 14):
// from the packets that enter req_rx it predicts every memory write, ACK, NACK, notification
// record and drop, and checks what a node did at its ports.
//
// The receive unit decides one thing at a time (rtl/recv/recv_unit.sv, docs/design.md 15):
// a packet (in req_rx order), a block's ACK, a notification record, an inline packet's ACK.
// Writes and responses are visible at the ports; drops, control packets and idle reclaims
// are not, and when they happened relative to the visible decisions depends on timing. The
// checker therefore keeps the model states that explain everything seen so far (usually
// one, a few only while timing leaves a choice open: docs/design.md section 15.x) and
// reports a mismatch when none does.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ref_model/common/packet.hpp"
#include "ref_model/common/wire.hpp"

namespace ni {

// One memory write burst as the node's AXI master issued it: AW, then its W beats.
struct RxBurst {
  uint64_t aw_cycle = 0;    // first cycle AWVALID showed this burst
  uint64_t done_cycle = 0;  // cycle of its last handshake (AW or the last W beat)
  uint64_t addr = 0;        // AWADDR (48 bit)
  unsigned len = 0;         // AWLEN
  unsigned size = 6;        // AWSIZE
  unsigned burst = 1;       // AWBURST (1 = INCR)
  std::vector<Bits512> data;
  std::vector<uint64_t> strb;
  bool wlast_ok = true;  // WLAST on the last beat and only there
};

// Statistics counters 16-26 (ICD 8) as far as the receive unit drives them.
enum RxCounter : unsigned {
  kCtrRspSent = 16,  // the receive unit's share: ACKs and NACKs on rsp_tx
  kCtrRx = 17,
  kCtrHcrc = 18,
  kCtrPcrc = 19,
  kCtrNoCtx = 20,
  kCtrDup = 21,
  kCtrMisroute = 22,
  kCtrAck = 23,
  kCtrNack = 24,
  kCtrNotify = 25,
  kCtrReclaim = 26,
};

// The state of one receive unit under one explanation of what was observed: contexts,
// packets waiting for their decision, writes awaiting B, counters. Copyable: the checker
// keeps one per open timing choice.
class RecvModel {
 public:
  RecvModel(uint16_t node, unsigned contexts, uint64_t rx_idle);

  void set_rx_idle(uint64_t cycles) { rx_idle_ = cycles; }
  uint64_t rx_idle() const { return rx_idle_; }

  // A packet accepted on req_rx, its last beat at `cycle`: ingress checks (hcrc, node, kind,
  // data packet sanity and pcrc). A packet that passes the head checks waits for its
  // decision (taken in arrival order, at the earliest in the next cycle).
  void arrive(const WirePacket& p, uint64_t cycle);

  // Explanations of one observation; each returns the successor states (none: this state
  // cannot explain it, `why` says why).
  std::vector<RecvModel> explain_burst(const RxBurst& b, std::string& why) const;
  std::vector<RecvModel> explain_rsp(const WirePacket& p, uint64_t first_valid,
                                     std::string& why) const;
  // A B response (in AW order: one AXI ID). False when no write awaits one.
  bool on_b(uint64_t cycle);

  // Decides every waiting packet whose decision is invisible (a drop, a control packet)
  // by cycle `now`; stops at one that would write or NACK. Applies certain idle reclaims.
  std::vector<RecvModel> settle(uint64_t now) const;
  // Everything still expected at `now`: undecided packets, writes, B, ACKs.
  std::vector<std::string> leftovers(uint64_t now) const;

  // Counter `idx` (16-26): the range [lo, hi] the node may show at `now` (only 26 is a
  // range, while reclaims may or may not have happened).
  std::array<uint64_t, 2> counter(unsigned idx, uint64_t now) const;

  std::size_t live_contexts() const { return ctx_.size(); }

  // The same state: everything a later observation is explained from (not the scratch
  // outputs of apply(), which are read only right after the apply() that sets them). Two
  // explanations often lead to the same state (an idle reclaim that may or may not have come
  // first, once it certainly has); RecvChecker keeps one of each.
  bool operator==(const RecvModel& o) const;
  bool operator!=(const RecvModel& o) const { return !(*this == o); }
  std::size_t waiting_packets() const { return queue_.size(); }
  bool quiet() const;  // nothing waiting, nothing in flight, nothing to ACK

  // 14-bit serial-number arithmetic: b is newer than a (ICD 13).
  static bool seq_newer(uint16_t b, uint16_t a);

 private:
  struct Context {
    uint16_t src = 0, tid = 0, seq = 0;
    unsigned npkts = 0, cnt = 0;  // packets in the block (0 until a data packet), slots set
    uint64_t bitmap = 0;
    bool notify = false, have_ctrl = false, nf_issued = false;
    uint64_t naddr = 0, ntag = 0;
    uint32_t nsize = 0;
    unsigned pend = 0;                  // writes decided, B not back
    uint64_t seen_lo = 0, seen_hi = 0;  // decision cycle of its last packet, bounds
    uint64_t last_b = 0;                // cycle of the B that brought pend to 0
    bool operator==(const Context& o) const;
  };
  enum class TagKind { Ctx, Inline, InlineLast };
  struct Tag {
    TagKind kind = TagKind::Ctx;
    uint32_t key = 0;
    uint16_t src = 0, tid = 0, seq = 0;
    bool operator==(const Tag& o) const {
      return kind == o.kind && key == o.key && src == o.src && tid == o.tid && seq == o.seq;
    }
  };
  struct Expected {  // one burst a decision will issue
    uint64_t addr = 0;
    std::vector<Bits512> data;
    std::vector<uint64_t> strb;
    Tag tag;
    bool operator==(const Expected& o) const {
      return addr == o.addr && tag == o.tag && strb == o.strb && data == o.data;
    }
  };
  struct Waiting {  // a packet past the head checks, awaiting its decision
    WireHead head;
    // Shared by the states' copies of the queue: never changed once the packet arrived.
    std::shared_ptr<const std::vector<Bits512>> payload;
    bool good = false;
    uint64_t arrived = 0;
    bool operator==(const Waiting& o) const {
      return arrived == o.arrived && good == o.good && head == o.head &&
             (payload == o.payload || (payload && o.payload && *payload == *o.payload));
    }
  };

 public:
  // What the ingress checks make of an accepted packet, the same in every state: computed
  // once per packet (the payload CRC over 1 KiB) and applied to each state by admit().
  struct Arrival {
    enum class Verdict { Hcrc, Handed, Misroute, Waits } verdict = Verdict::Hcrc;
    Waiting w;
  };
  static Arrival ingress(const WirePacket& p, uint16_t node, uint64_t cycle);
  void admit(const Arrival& a);

 private:
  enum class Outcome { Silent, Write, Nack };

  static uint32_t key_of(uint16_t src, uint16_t tid) { return uint32_t{src} << 16 | tid; }
  // A context is done when its block is whole and no write is out; it then needs its
  // notification record (notify, control packet there) or its ACK.
  bool block_done(const Context& c) const;
  bool needs_record(const Context& c) const;
  bool needs_ack(const Context& c) const;
  // [earliest, latest] cycle at which the unit reclaims context c; latest is UINT64_MAX when
  // it cannot be reclaimed (RxIdle 0, writes out, or it waits for its ACK).
  std::array<uint64_t, 2> reclaim_window(const Context& c) const;
  void reclaim_certain(uint64_t before);

  // Decides the oldest waiting packet at a cycle in [lo, hi]: one or two successors (two
  // when an idle reclaim may or may not have come first). `out` gets each one's outcome.
  // A good data packet that is written may also have been decided into the writer's slot,
  // from next_wr_lo_ on.
  std::vector<RecvModel> decide_next(uint64_t hi, std::vector<Outcome>& out) const;
  void decide_from(uint64_t lo, uint64_t hi, std::vector<RecvModel>& v,
                   std::vector<Outcome>& out) const;
  Outcome apply(const Waiting& w, uint64_t lo, uint64_t hi);
  // The bursts of a short write (inline payload, notification record): `len` bytes at `a`.
  static std::vector<Expected> short_write(uint64_t a, const uint8_t* bytes, unsigned len,
                                           const Tag& tag);
  // Issues the bursts of the decision: the first must match `b`; returns mismatch text.
  // `slot`: a data packet's write, behind which the next one may wait in the writer's slot.
  std::string start_write(std::vector<Expected> bursts, const RxBurst& b, bool slot);
  static std::string match(const Expected& e, const RxBurst& b);

  uint16_t node_;
  unsigned cap_;
  uint64_t rx_idle_;
  std::map<uint32_t, Context> ctx_;
  std::deque<Waiting> queue_;
  uint64_t next_lo_ = 0;      // a packet decision is never earlier than this
  uint64_t next_wr_lo_ = 0;   // ... nor a data packet's write (into the slot) earlier than this
  uint64_t last_done_ = 0;    // the last burst's last handshake
  std::deque<Expected> cur_;  // bursts of the decision in progress, still to come
  std::deque<Tag> tags_;      // bursts issued, awaiting B
  std::deque<Tag> ackq_;      // inline packets whose write completed: ACK due
  std::array<uint64_t, 27> ctr_{};
  std::vector<Expected> last_writes_;  // bursts of the last Write outcome of apply()
  WirePacket last_nack_;               // the NACK of the last Nack outcome of apply()
};

// Checks one node's receive unit against the model. The harness reports, in cycle order:
// each response offered on rsp_tx (at the first cycle RSP_TX_VALID shows it), each write
// burst once its AW and all W beats were seen, each B, each packet accepted on req_rx or
// rsp_rx (at its last beat) and each response the engine takes. Every call returns the
// mismatches it found (empty when the observation was expected).
class RecvChecker {
 public:
  static constexpr unsigned kMaxStates = 16;

  explicit RecvChecker(uint16_t node, unsigned contexts = 64, uint64_t rx_idle = 65536);

  // Control register 2 (RxIdle) written.
  void set_rx_idle(uint64_t cycles);

  std::vector<std::string> on_req_rx(const WirePacket& p, uint64_t cycle);
  std::vector<std::string> on_rsp_tx(const WirePacket& p, uint64_t first_valid);
  std::vector<std::string> on_burst(const RxBurst& b);
  std::vector<std::string> on_b(uint64_t cycle);
  std::vector<std::string> on_rsp_rx(const WirePacket& p, uint64_t cycle);
  std::vector<std::string> on_engine_rsp(uint16_t tid, uint16_t seq, bool nack);
  // A read request handed to the engine on rreq (its head beat).
  std::vector<std::string> on_rreq(const Bits512& head);
  // The engine's deferred response to a read request left on rsp_tx (counters 23, 24 count
  // every ACK and NACK the node sends).
  void on_engine_drsp_sent(bool nack) { ++drsp_[nack ? 1 : 0]; }

  // True when the node should be quiet: no packet undecided, no write or ACK outstanding.
  bool idle() const;
  // At the end (the node quiet at `now`): everything expected was seen.
  std::vector<std::string> finish(uint64_t now);
  // Counters 17-26 as read from the node at `now` (read(idx) returns the register).
  template <class Read>
  std::vector<std::string> check_counters(uint64_t now, Read read) {
    std::array<uint64_t, 11> v{};
    for (unsigned i = kCtrRx; i <= kCtrReclaim; ++i) v[i - 16] = read(i);
    return compare_counters(now, v);
  }
  std::vector<std::string> compare_counters(uint64_t now, const std::array<uint64_t, 11>& v);

  uint64_t responses_sent() const { return rsp_sent_; }
  std::size_t states() const { return states_.size(); }
  const RecvModel& model() const { return states_.front(); }

 private:
  // Keeps the successors that explain an observation; on none, the mismatch.
  std::vector<std::string> keep(std::vector<RecvModel> next, const std::string& why,
                                const std::string& what);

  uint16_t node_;
  std::vector<RecvModel> states_;
  std::deque<std::array<unsigned, 3>> to_engine_;  // (tid, seq, nack) forwarded from rsp_rx
  std::deque<Bits512> rreq_;        // read requests to hand to the engine (ICD 16), in order
  std::array<uint64_t, 2> drsp_{};  // the engine's deferred ACKs, NACKs sent on rsp_tx
  uint64_t rsp_rx_ = 0, rsp_hcrc_ = 0, rsp_misroute_ = 0;
  uint64_t rsp_sent_ = 0;
};

}  // namespace ni
