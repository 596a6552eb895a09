// SPDX-License-Identifier: Apache-2.0
// The state the parts of the engine model share (docs/design.md sections 5-9): the transfers,
// the Pending Transactions Table, the ID FIFOs, the sequence counter, the statistics, the
// DUT's taps of the current cycle, the enqueues expected in it, and the first failure. Each
// part of the model (CpuPortModel, SchedModel, SegmenterModel, MsgHandlerModel,
// EngineScoreboard) works on it; EngineModel owns it and runs the parts in cycle order.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/types.hpp"
#include "ref_model/qos/engine_observer.hpp"
#include "ref_model/qos/id_fifo.hpp"
#include "ref_model/qos/stats_model.hpp"

namespace ni {

// The DUT's trace port and port handshake bits of one cycle.
struct CycleTaps {
  bool deq = false;
  unsigned deq_qid = 0;
  unsigned deq_node = 0;
  bool deq_first = false;
  bool enq = false;
  unsigned enq_src = 0;  // 0 ACK handler, 1 segmenter, 2 AXI slave, 3 read-channel allocator
  unsigned enq_qid = 0;
  unsigned enq_node = 0;
  bool s2_fire = false;
  bool s2_hold = false;
  unsigned s2_node = 0;
  bool blk_valid = false, blk_ready = false;
  bool pkt_valid = false, pkt_ready = false;
  bool rsp_valid = false, rsp_ready = false;
  bool init_done = true;
  bool axi_enq_req = false;   // the AXI slave requests an enqueue this cycle
  bool axi_starving = false;  // ... and has been refused AxiMaxWait cycles in a row
  bool tmo = false;           // the timeout FSM offers a timeout event to M0
  bool retx_pop = false;      // stage 1 takes a re-issue request
  bool s2_retx = false;       // stage 2 holds a re-issue request
  // the read-channel allocator (ICD 16)
  bool rd_enq_req = false;  // requests an enqueue (source 3)
  bool rd_dec = false;      // decides on a read request
  unsigned rd_action = 0;   // 0 serve, 1 drop (no channel), 2 re-issue matched
  unsigned rd_ch = 0;       // read channel - 64
  bool rd_tt_we = false;    // writes the Transfer Table
  bool recheck = false;     // the Message Handler's M2 makes a re-check
};

struct ModelFailure {
  uint64_t cycle = 0;
  std::string what;    // one line
  std::string detail;  // field-by-field diff, context
  int xfer = -1;       // transfer concerned, when known
};

// Per-kind latency summary (transfer live -> DONE/ERROR), cycles.
struct LatencyStats {
  uint64_t count = 0;
  uint64_t sum = 0;
  uint64_t min = ~uint64_t{0};
  uint64_t max = 0;
  void add(uint64_t v);
};

// Counts and latencies of a run (for the report).
struct EngineMetrics {
  std::array<LatencyStats, 4> latency{};
  uint64_t live = 0, done = 0, error = 0, slverr = 0, reads = 0;
  unsigned live_now = 0;
  unsigned max_queue_depth = 0;
};

// Where a transfer is (docs/design.md section 6) and why it is parked.
enum class Where { Idle, Queued, InS2, Parked, Finishing };
enum class Park { More, NeedCtrl, Wait };

struct Xfer {
  Where where = Where::Idle;
  Park park = Park::More;
  Descriptor d;
  uint32_t total = 0;
  uint32_t issued = 0;
  uint32_t resolved = 0;
  bool err = false;
  unsigned flow = 0;  // FID (1x) or group base (4x)
  unsigned last_tid = 0;
  unsigned last_seq = 0;
  bool ctrl_sent = false;  // the control packet has been emitted
  unsigned own_qid = 0;
  uint64_t live_cycle = 0;
};

// A Pending Transactions Table entry and the timeout FSM's view of it (docs/design.md 8.1).
struct PttEntry {
  bool valid = false;
  unsigned seq = 0;
  unsigned xfer = 0;
  uint32_t blk = 0;                 // block index (0 for an inline packet)
  unsigned retries = 0;             // re-issues so far, saturating at 255
  bool rp = false;                  // a re-issue is pending
  bool sent = false;                // left the engine (blk/pkt handshake) since its last (re-)issue
  uint64_t stamp = 0;               // cycle of the TID's last handshake
  uint64_t written = ~uint64_t{0};  // cycle of the last (re-)issue
};

// A re-issue request: the TID and its entry when the NACK or timeout was accepted.
struct RetxReq {
  unsigned tid;
  PttEntry e;
  uint64_t pushed;  // cycle of the push (stage 1 sees it from the next cycle)
};

// An enqueue into the scheduling queues; sources: 0 Message Handler, 1 segmenter, 2 AXI slave,
// 3 read-channel allocator.
struct Enq {
  unsigned src, qid, xfer;
};

// Segmenter -> Message Handler: finish a transfer with nothing in flight.
struct Fin {
  unsigned xfer;
  bool err;
};

struct EngineState {
  EngineState(const Config& c, unsigned depth);

  Config cfg;
  unsigned pkt_depth;  // packet queue depth
  std::vector<Xfer> xf;
  std::array<PttEntry, NumTids> ptt{};
  IdFifo tid_fifo, fid1_fifo, fid4_fifo;
  unsigned seq = 0;      // the sequence counter
  uint64_t timeout = 0;  // control registers 0 and 1 as the RTL sees them this cycle
  uint64_t max_retries = 3;
  StatsModel stats;
  EngineMetrics metrics;
  CycleTaps taps;               // this cycle's DUT taps
  std::vector<Enq> exp_enq;     // enqueues the model expects this cycle
  std::deque<Fin> fin_fifo;     // segmenter -> Message Handler (2 entries)
  std::deque<RetxReq> rq;       // re-issue requests (Message Handler -> segmenter stage 1)
  std::optional<unsigned> tmo;  // this cycle's timeout event (TID), from the timeout FSM
  // This cycle's resolve in M2 (design.md section 20, "The resolve seen a cycle later"):
  // stage 2 decides on its transfer as it was before it, and holds for one with an error.
  struct ResolveNow {
    unsigned xfer, tid;
    bool err_before;  // the transfer's error flag before the resolve
    bool err;         // the resolve sets the error (a NACK or timeout without retries left)
  };
  std::optional<ResolveNow> res_now;
  unsigned fin_fifo_start = 0;  // its size at the start of the cycle (the RTL's full flag)
  std::vector<std::pair<unsigned, Status>> finishes;   // status changes of this cycle's finishes
  std::vector<std::pair<unsigned, bool>> rd_finishes;  // read channels' transfers (xfer, err)
  std::array<uint64_t, 3> rd_ctr{};  // counters 27-29 (ni_node): no channel, re-issue, served
  unsigned axi_wait = 0;             // cycles the AXI slave's enqueue has been refused in a row
  bool axi_starving = false;         // axi_wait >= AxiMaxWait at the start of this cycle
  std::optional<ModelFailure> failure;
  ModelObserver* observer = nullptr;

  unsigned num_queues() const { return 2 + 4 * cfg.intra_prios; }
  // Records the first failure; later ones are ignored.
  void fail(uint64_t cycle, std::string what, std::string detail = {}, int xfer = -1);
  void observe_mh(uint64_t c, ModelObserver::Mh p, unsigned x) const {
    if (observer) observer->on_mh(c, p, x);
  }
  void observe_s2(uint64_t c, ModelObserver::S2 p, unsigned x, unsigned qid, Kind k,
                  unsigned tid = 0, unsigned sq = 0) const {
    if (observer) observer->on_s2(c, ModelObserver::S2Event{p, x, qid, tid, sq, k});
  }
};

}  // namespace ni
