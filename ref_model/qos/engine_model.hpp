// SPDX-License-Identifier: Apache-2.0
// Golden model of the whole QoS engine, in the style of ibex's cosim: the harness reports,
// cycle by cycle, what the DUT did at its ports and at its scheduling taps; the model
// predicts every block descriptor, TID, FID, seq, packet, B/R response and status change
// from the rules of the ICD and docs/design.md, and checks each scheduling choice of the
// DUT (which queue it dequeued, when, enqueues, stage-2 stalls) against those rules.
//
// The DUT's timing choices are taken from the taps, never guessed; everything they imply is
// then checked. The model is plain C++: no Verilator types.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ref_model/common/block_desc.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/common/types.hpp"
#include "ref_model/qos/axi_slave_model.hpp"
#include "ref_model/qos/id_fifo.hpp"
#include "ref_model/qos/segmentation.hpp"
#include "ref_model/qos/stats_model.hpp"

namespace ni {

// The DUT's internal taps and port handshake bits of one cycle.
struct CycleTaps {
  bool deq = false;
  unsigned deq_qid = 0;
  unsigned deq_node = 0;
  bool deq_first = false;
  bool enq = false;
  unsigned enq_src = 0;  // 0 ACK handler, 1 segmenter, 2 AXI slave
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
};

struct ModelFailure {
  uint64_t cycle = 0;
  std::string what;    // one line
  std::string detail;  // field-by-field diff, context
  int xfer = -1;       // transfer concerned, when known
};

// Read-only view of the model's decisions, for functional coverage (sim/coverage.*). The
// model calls it after it has checked and applied each decision; an observer must not change
// anything. All callbacks are optional.
class ModelObserver {
 public:
  // Message Handler paths (docs/design.md section 9).
  enum class Mh : uint8_t {
    RspAck,             // M1: valid ACK
    RspNack,            // M1: valid NACK
    RspDropStale,       // M1: entry valid, seq differs: dropped
    RspDropUnknown,     // M1: no valid entry for the TID: dropped
    ResolveActive,      // M2: resolve of a transfer queued / in the segmenter: only counted
    WakeMore,           // M2: parked MORE -> own queue
    WakeCtrl,           // M2: parked NEED_CTRL, one block left -> control queue
    NeedCtrlWait,       // M2: parked NEED_CTRL, more than one block left: stays parked
    NeedCtrlErrWait,    // M2: parked NEED_CTRL with an error, blocks left: stays parked
    NeedCtrlErrFinish,  // M2: parked NEED_CTRL with an error, last resolve: finish ERROR
    WaitMore,           // M2: parked WAIT, blocks left: stays parked
    FinishM2Done,       // M2: parked WAIT, last resolve: DONE
    FinishM2Error,      // M2: parked WAIT, last resolve, error: ERROR
    FinishFifoDone,     // M2: finish event from the segmenter's FIFO: DONE
    FinishFifoError,    // M2: finish event from the segmenter's FIFO: ERROR
    ArbTieSeg,          // M0: both request, the segmenter's finish event wins
    ArbTieMh,           // M0: both request, the network response wins
  };
  // Segmenter stage-2 paths (docs/design.md section 6). One decision may report several.
  enum class S2 : uint8_t {
    IssueFirst,     // block 0 of a memory transfer
    IssueNext,      // block k >= 1
    IssueInline,    // inline packet
    ReEnqueue,      // not the last block, below MaxOutstanding: back to its own queue
    ParkMoreLimit,  // not the last block, MaxOutstanding reached: park MORE
    TidBusy,        // congestion-managed TID still in flight: nothing issued, park MORE
    ParkNeedCtrl,   // last block with notify, others in flight: park NEED_CTRL
    ParkWaitLast,   // last block (no notify, or inline): park WAIT
    CtrlDirect,     // last block with notify, nothing else in flight: control packet now
    CtrlFromQueue,  // control queue: control packet made
    CtrlError,      // control queue, transfer has an error: no packet
    CtrlFinish,     // control queue, nothing in flight: finish event
    CtrlWait,       // control queue, a block still in flight: park WAIT
    ErrFinish,      // error, nothing in flight: finish ERROR event
    ErrPark,        // error, blocks in flight: park MORE (error drain)
    HoldPktFull,    // stage 2 holds: packet queue full
    HoldBlkBusy,    // stage 2 holds: stage 3 occupied and not draining
    HoldFinFull,    // stage 2 holds: finish FIFO full
    HoldEnqLost,    // stage 2 holds: its re-enqueue lost to the Message Handler's
    HoldAxiYield,   // stage 2 holds its re-enqueue: the AXI slave's enqueue is starving
  };
  struct S2Event {
    S2 path;
    unsigned xfer = 0;
    unsigned qid = 0;  // queue the node came from
    unsigned tid = 0;  // issues: TID and seq of the block / inline packet
    unsigned seq = 0;
    Kind kind = Kind::Tid;
  };
  virtual ~ModelObserver() = default;
  // Every W beat the model applied (in the DUT's order).
  virtual void on_beat(uint64_t cycle, const WriteBeatOutcome& o) { (void)cycle, (void)o; }
  virtual void on_mh(uint64_t cycle, Mh path, unsigned xfer) {
    (void)cycle, (void)path, (void)xfer;
  }
  virtual void on_s2(uint64_t cycle, const S2Event& e) { (void)cycle, (void)e; }
};

// Per-kind latency summary (transfer live -> DONE/ERROR), cycles.
struct LatencyStats {
  uint64_t count = 0;
  uint64_t sum = 0;
  uint64_t min = ~uint64_t{0};
  uint64_t max = 0;
  void add(uint64_t v);
};

class EngineModel {
 public:
  explicit EngineModel(const Config& cfg = Config{}, unsigned pkt_depth = 16);

  // ---- events of the current cycle, any order; then end_cycle() ----------------------------
  void taps(const CycleTaps& t) { taps_ = t; }
  void aw(const AwFields& a) { aw_.push_back(a); }
  void w(const WBeat& b) { w_.push_back(b); }
  void b(uint8_t id, AxiResp resp) { b_.push_back({id, resp}); }
  void ar(const ArFields& a) { ar_.push_back(a); }
  void r(uint8_t id, uint64_t data, AxiResp resp, bool last) {
    r_.push_back({id, data, resp, last});
  }
  void rsp(unsigned tid, unsigned seq, bool nack) { rsp_.push_back({tid, seq, nack}); }
  void block(unsigned tid, const Bits256& desc) { blk_.push_back({tid, desc}); }
  void packet(const Bits512& data) { pkt_.push_back(data); }
  void status(unsigned wch, Status from, Status to) { st_.push_back({wch, from, to}); }
  // Checks and applies everything reported for `cycle`.
  void end_cycle(uint64_t cycle);

  // ---- results -------------------------------------------------------------------------------
  bool failed() const { return failure_.has_value(); }
  const ModelFailure& failure() const { return *failure_; }
  // End-of-run checks: nothing in flight, every ID back, every transfer finished.
  // Returns the problems found (empty = clean); also records the first as the failure.
  std::vector<std::string> final_check(uint64_t cycle);
  // True when the engine holds no live transfer and nothing is pending anywhere.
  bool quiescent() const;

  // Observers for the harness.
  using FinishHook = std::function<void(unsigned xfer, Status st, uint64_t cycle)>;
  void on_finish(FinishHook h) { finish_hook_ = std::move(h); }
  using LiveHook = std::function<void(unsigned xfer, const Descriptor& d, uint64_t cycle)>;
  void on_live(LiveHook h) { live_hook_ = std::move(h); }

  const StatsModel& stats() const { return stats_; }
  const std::array<LatencyStats, 4>& latency() const { return latency_; }
  uint64_t transfers_live() const { return live_count_; }
  uint64_t transfers_done() const { return done_count_; }
  uint64_t transfers_error() const { return error_count_; }
  uint64_t writes_rejected() const { return slverr_count_; }
  uint64_t reads_done() const { return reads_count_; }
  unsigned max_queue_depth() const { return max_queue_depth_; }
  unsigned live_now() const { return live_now_; }
  Status channel_status(unsigned wch) const { return axi_.status().get(wch); }
  const AxiSlaveModel& axi() const { return axi_; }
  unsigned tid_fifo_size() const { return unsigned(tid_fifo_.size()); }

  // Read-only state and decisions for functional coverage (nullptr: none).
  void set_observer(ModelObserver* o) { observer_ = o; }
  unsigned fid1_fifo_size() const { return unsigned(fid1_fifo_.size()); }
  unsigned fid4_fifo_size() const { return unsigned(fid4_fifo_.size()); }
  unsigned pkt_queue_count() const { return pkt_count_; }
  unsigned pkt_queue_depth() const { return pkt_depth_; }
  unsigned fin_fifo_size() const { return unsigned(fin_fifo_.size()); }
  unsigned queue_count() const { return unsigned(queues_.size()); }
  unsigned queue_depth(unsigned q) const { return unsigned(queues_.at(q).size()); }
  // Queue q holds something but its IDs are not available (stage 1 must skip it).
  bool queue_blocked(unsigned q) const { return !queues_.at(q).empty() && !eligible(q); }
  const Config& config() const { return cfg_; }

 private:
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
    unsigned own_qid = 0;
    uint64_t live_cycle = 0;
  };
  struct QEntry {
    unsigned xfer;
    bool first;
  };
  struct PttEntry {
    bool valid = false;
    unsigned seq = 0;
    unsigned xfer = 0;
  };
  struct RspIn {
    unsigned tid, seq;
    bool nack;
  };
  struct Fin {
    unsigned xfer;
    bool err;
  };
  struct M1 {
    bool is_fin = false;
    RspIn r{};
    Fin f{};
  };
  struct M2 {
    bool is_fin = false;
    RspIn r{};
    Fin f{};
    unsigned xfer = 0;
  };
  // Expected outputs keep their packed form too: a match is one array comparison, and
  // only a mismatch is decoded field by field.
  struct ExpBlock {
    unsigned tid;
    BlockDesc desc;
    unsigned xfer;
    Bits256 bits;
    ExpBlock(unsigned t, const BlockDesc& d, unsigned x)
        : tid(t), desc(d), xfer(x), bits(d.pack()) {}
  };
  struct ExpPacket {
    Packet pkt;
    unsigned xfer;
    Bits512 bits;
    ExpPacket(const Packet& p, unsigned x) : pkt(p), xfer(x), bits(p.pack()) {}
  };
  struct ExpB {
    uint8_t id;
    AxiResp resp;
  };
  struct ExpR {
    uint8_t id;
    uint64_t data;
    AxiResp resp;
    bool last;
    std::string what;
  };
  struct BIn {
    uint8_t id;
    AxiResp resp;
  };
  struct RIn {
    uint8_t id;
    uint64_t data;
    AxiResp resp;
    bool last;
  };
  struct BlkIn {
    unsigned tid;
    Bits256 desc;
  };
  struct StIn {
    unsigned wch;
    Status from, to;
  };
  struct Enq {
    unsigned src, qid, xfer;
  };

  void fail(uint64_t cycle, std::string what, std::string detail = {}, int xfer = -1);
  unsigned num_queues() const { return 2 + 4 * cfg_.intra_prios; }
  bool is_1x_no(unsigned q) const;
  bool is_4x_no(unsigned q) const;
  bool eligible(unsigned q) const;
  std::string queue_state() const;

  void do_reads(uint64_t c);
  void check_dequeue(uint64_t c);
  void stage_m2(uint64_t c);
  void stage_m1(uint64_t c);
  void stage_m0(uint64_t c);
  void stage_s2(uint64_t c);
  void check_s2_hold(uint64_t c);
  void do_writes(uint64_t c);
  void check_enqueue(uint64_t c);
  void apply_queues(uint64_t c);
  void check_outputs(uint64_t c);
  void apply_status(uint64_t c);
  void finish(unsigned x, bool err, uint64_t c);
  void expect_enqueue(unsigned src, unsigned qid, unsigned x, uint64_t c);

  Config cfg_;
  unsigned pkt_depth_;
  AxiSlaveModel axi_;
  StatsModel stats_;
  std::vector<Xfer> xf_;
  std::vector<std::deque<QEntry>> queues_;
  IdFifo tid_fifo_, fid1_fifo_, fid4_fifo_;
  std::array<PttEntry, NumTids> ptt_{};
  unsigned seq_ = 0;

  // pipeline state
  std::optional<QEntry> s2_;  // node held by segmenter stage 2
  unsigned s2_qid_ = 0;
  std::optional<M1> m1_;
  std::optional<M2> m2_;
  std::deque<Fin> fin_fifo_;
  unsigned fin_fifo_start_ = 0;  // its size at the start of the cycle (the RTL's full flag)
  bool arb_last_mh_ = false;     // md_arbiter: the handler was served last
  unsigned axi_wait_ = 0;        // cycles the AXI slave's enqueue has been refused in a row
  bool axi_starving_ = false;    // axi_wait_ >= AxiMaxWait at the start of this cycle
  static constexpr unsigned kAxiMaxWait = 2;
  unsigned pkt_count_ = 0;         // packets in the packet queue
  std::deque<ExpBlock> exp_blk_;   // issued, not yet out of the blk port
  std::deque<ExpPacket> exp_pkt_;  // written, not yet out of the pkt port
  std::deque<ExpB> exp_b_;
  std::deque<ExpR> exp_r_;

  // events of the current cycle
  CycleTaps taps_{};
  std::vector<AwFields> aw_;
  std::vector<WBeat> w_;
  std::vector<BIn> b_;
  std::vector<ArFields> ar_;
  std::vector<RIn> r_;
  std::vector<RspIn> rsp_;
  std::vector<BlkIn> blk_;
  std::vector<Bits512> pkt_;
  std::vector<StIn> st_;

  // derived within a cycle
  std::vector<Enq> exp_enq_;
  std::vector<std::pair<unsigned, Status>> status_changes_;  // applied at the end of the cycle
  struct ReadClear {
    bool single;
    unsigned page, index;  // channel (single) or half (32 channels)
  };
  std::vector<ReadClear> read_clears_;  // status reads of this cycle
  std::vector<StIn> model_changes_;     // every status change the model made
  std::array<bool, NumStats> stat_inc_{};

  std::optional<ModelFailure> failure_;
  ModelObserver* observer_ = nullptr;
  void observe_mh(uint64_t c, ModelObserver::Mh p, unsigned x) {
    if (observer_) observer_->on_mh(c, p, x);
  }
  void observe_s2(uint64_t c, ModelObserver::S2 p, unsigned x, unsigned qid, Kind k,
                  unsigned tid = 0, unsigned seq = 0) {
    if (observer_) observer_->on_s2(c, ModelObserver::S2Event{p, x, qid, tid, seq, k});
  }
  FinishHook finish_hook_;
  LiveHook live_hook_;
  std::array<LatencyStats, 4> latency_{};
  uint64_t live_count_ = 0, done_count_ = 0, error_count_ = 0, slverr_count_ = 0;
  uint64_t reads_count_ = 0;
  unsigned live_now_ = 0;
  unsigned max_queue_depth_ = 0;
};

}  // namespace ni
