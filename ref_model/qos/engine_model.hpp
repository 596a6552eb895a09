// SPDX-License-Identifier: Apache-2.0
// Golden model of the whole QoS engine, in the style of ibex's cosim: the harness reports,
// cycle by cycle, what the DUT did at its ports and on its trace port; the model predicts
// every block descriptor, TID, FID, seq, packet, B/R response and status change from the
// rules of the ICD and docs/design.md, and checks each scheduling choice of the DUT (which
// queue it dequeued, when, enqueues, stage-2 stalls) against those rules.
//
// The DUT's timing choices are taken from the trace, never guessed; everything they imply is
// then checked. EngineModel runs its parts in the RTL's cycle order over the shared
// EngineState: CpuPortModel (AXI writes and reads, status registers), SchedModel (queues,
// stage 1), SegmenterModel (stage 2), MsgHandlerModel (M0-M2) and EngineScoreboard (the
// expected outputs). Plain C++: no Verilator types.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ref_model/common/block_desc.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/common/types.hpp"
#include "ref_model/qos/axi_slave_model.hpp"
#include "ref_model/qos/cpu_port_model.hpp"
#include "ref_model/qos/engine_observer.hpp"
#include "ref_model/qos/engine_scoreboard.hpp"
#include "ref_model/qos/engine_state.hpp"
#include "ref_model/qos/msg_handler_model.hpp"
#include "ref_model/qos/read_alloc_model.hpp"
#include "ref_model/qos/sched_model.hpp"
#include "ref_model/qos/segmenter_model.hpp"
#include "ref_model/qos/stats_model.hpp"

namespace ni {

class EngineModel {
 public:
  explicit EngineModel(const Config& cfg = Config{}, unsigned pkt_depth = 16);

  // ---- events of the current cycle, any order; then end_cycle() ----------------------------
  void taps(const CycleTaps& t) { st_.taps = t; }
  void aw(const AwFields& a) { cpu_.aw(a); }
  void w(const WBeat& b) { cpu_.w(b); }
  void b(uint8_t id, AxiResp resp) { sb_.b(id, resp); }
  void ar(const ArFields& a) { cpu_.ar(a); }
  void r(uint8_t id, uint64_t data, AxiResp resp, bool last) { sb_.r(id, data, resp, last); }
  void rsp(unsigned tid, unsigned seq, bool nack) { mh_.rsp(tid, seq, nack); }
  void block(unsigned tid, const Bits256& desc) { sb_.block(tid, desc); }
  void packet(const Bits512& data) { sb_.packet(data); }
  void status(unsigned wch, Status from, Status to) { cpu_.status(wch, from, to); }
  // ni_node only (ICD 16): a read request taken by the engine; a deferred response offered.
  void rreq(const Bits512& head) { rd_.rreq(head); }
  void drsp(bool taken, unsigned tid, unsigned seq, bool nack, unsigned node) {
    rd_.drsp(taken, tid, seq, nack, node);
  }
  // Checks and applies everything reported for `cycle`.
  void end_cycle(uint64_t cycle);

  // ---- results -------------------------------------------------------------------------------
  bool failed() const { return st_.failure.has_value(); }
  const ModelFailure& failure() const { return *st_.failure; }
  // End-of-run checks: nothing in flight, every ID back, every transfer finished.
  // Returns the problems found (empty = clean); also records the first as the failure.
  std::vector<std::string> final_check(uint64_t cycle);
  // True when the engine holds no live transfer and nothing is pending anywhere.
  bool quiescent() const;

  // Observers for the harness.
  using FinishHook = MsgHandlerModel::FinishHook;
  void on_finish(FinishHook h) { mh_.on_finish(std::move(h)); }
  using LiveHook = CpuPortModel::LiveHook;
  void on_live(LiveHook h) { cpu_.on_live(std::move(h)); }

  const StatsModel& stats() const { return st_.stats; }
  // Counters 27-29 of the read-channel allocator (ICD 16).
  const std::array<uint64_t, 3>& read_counters() const { return rd_.counters(); }
  using DecisionHook = ReadAllocModel::DecisionHook;
  void on_read_decision(DecisionHook h) { rd_.on_decision(std::move(h)); }
  const std::array<LatencyStats, 4>& latency() const { return st_.metrics.latency; }
  uint64_t transfers_live() const { return st_.metrics.live; }
  uint64_t transfers_done() const { return st_.metrics.done; }
  uint64_t transfers_error() const { return st_.metrics.error; }
  uint64_t writes_rejected() const { return st_.metrics.slverr; }
  uint64_t reads_done() const { return st_.metrics.reads; }
  unsigned max_queue_depth() const { return st_.metrics.max_queue_depth; }
  unsigned live_now() const { return st_.metrics.live_now; }
  const AxiSlaveModel& axi() const { return cpu_.axi(); }
  unsigned tid_fifo_size() const { return unsigned(st_.tid_fifo.size()); }

  // Read-only state and decisions for functional coverage (nullptr: none).
  void set_observer(ModelObserver* o) { st_.observer = o; }
  unsigned fid1_fifo_size() const { return unsigned(st_.fid1_fifo.size()); }
  unsigned fid4_fifo_size() const { return unsigned(st_.fid4_fifo.size()); }
  unsigned pkt_queue_count() const { return sb_.pkt_queue_count(); }
  unsigned pkt_queue_depth() const { return st_.pkt_depth; }
  unsigned fin_fifo_size() const { return unsigned(st_.fin_fifo.size()); }
  unsigned queue_count() const { return sched_.count(); }
  unsigned queue_depth(unsigned q) const { return sched_.depth(q); }
  // Queue q holds something but its IDs are not available (stage 1's last pick skipped it).
  bool queue_blocked(unsigned q) const { return sched_.blocked(q); }
  const Config& config() const { return st_.cfg; }

 private:
  static constexpr unsigned kAxiMaxWait = 2;
  // The timeout FSM (design.md 8.1): this cycle's timeout event, checked against the DUT's.
  void timer(uint64_t c);
  // Blocks and inline packets that left in this cycle: issue cycles and `sent` flags.
  void handshakes(uint64_t c);

  EngineState st_;
  EngineScoreboard sb_;
  CpuPortModel cpu_;
  SchedModel sched_;
  SegmenterModel seg_;
  MsgHandlerModel mh_;
  ReadAllocModel rd_;
};

}  // namespace ni
