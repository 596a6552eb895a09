// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/engine_model.hpp"

#include <algorithm>

namespace ni {

void LatencyStats::add(uint64_t v) {
  ++count;
  sum += v;
  min = std::min(min, v);
  max = std::max(max, v);
}

EngineState::EngineState(const Config& c, unsigned depth)
    : cfg(c),
      pkt_depth(depth),
      xf(NumXfers),
      tid_fifo(IdFifo::tid_fifo()),
      fid1_fifo(IdFifo::fid1_fifo()),
      fid4_fifo(IdFifo::fid4_fifo()) {}

void EngineState::fail(uint64_t cycle, std::string what, std::string detail, int xfer) {
  if (failure) return;
  failure = ModelFailure{cycle, std::move(what), std::move(detail), xfer};
}

EngineModel::EngineModel(const Config& cfg, unsigned pkt_depth)
    : st_(cfg, pkt_depth),
      sb_(st_),
      cpu_(st_, sb_),
      sched_(st_),
      seg_(st_, sb_),
      mh_(st_),
      rd_(st_) {
  mh_.on_retx_now([this](unsigned tid) { return seg_.retx_now(tid); });
}

// In cycle c the FSM decides on the entry it read in c-1, TID (c-1) mod 1024 (its cycle
// counter starts at 0 in cycle 0): a timeout when the entry is pending, has left the engine,
// has no re-issue pending and left more than `timeout` cycles ago.
void EngineModel::timer(uint64_t c) {
  st_.tmo.reset();
  const uint64_t to = st_.timeout;
  if (c >= 1 && to != 0 && to < (uint64_t{1} << 31)) {
    const unsigned tid = unsigned((c - 1) % NumTids);
    const PttEntry& e = st_.ptt[tid];
    if (e.valid && e.sent && !e.rp && c - e.stamp > to) st_.tmo = tid;
  }
  if (st_.taps.tmo != st_.tmo.has_value()) {
    st_.fail(c, st_.tmo ? "timeout of TID " + std::to_string(*st_.tmo) + " expected, none offered"
                        : "timeout event offered, none expected (TID " +
                              std::to_string((c - 1) % NumTids) + ")");
  }
}

// Any handshake records the TID's issue cycle; it has left unless the TID was (re-)issued in
// this cycle by another block than the one leaving (a block that bypassed stage 3 has left).
void EngineModel::handshakes(uint64_t c) {
  for (const EngineScoreboard::Left& l : sb_.left()) {
    PttEntry& e = st_.ptt[l.tid];
    e.stamp = c;
    if (e.written == c && !l.bypass) continue;
    e.sent = true;
  }
}

// One cycle, in the order the RTL's blocks see each other's results.
void EngineModel::end_cycle(uint64_t c) {
  if (!st_.failure) {
    st_.exp_enq.clear();
    st_.res_now.reset();
    st_.finishes.clear();
    st_.rd_finishes.clear();
    // The segmenter sees the finish FIFO's registered fill level: a pop by the Message Handler
    // in this cycle does not make room for this cycle's push (as for the packet queue).
    st_.fin_fifo_start = unsigned(st_.fin_fifo.size());
    st_.axi_starving = st_.axi_wait >= kAxiMaxWait;
    const CycleTaps& t = st_.taps;
    st_.timeout = cpu_.axi().ctrl().timeout();
    st_.max_retries = cpu_.axi().ctrl().max_retries();
    timer(c);
    if (t.axi_starving != st_.axi_starving) {
      st_.fail(c, std::string("AXI starvation flag: expected ") +
                      (st_.axi_starving ? "set" : "clear") + " after " +
                      std::to_string(st_.axi_wait) + " refused enqueue requests in a row");
    }
    cpu_.reads(c);
    // Stage 1 takes the oldest re-issue request ahead of the queues, whenever its skid is
    // empty.
    const bool s1_free = !seg_.skid_full();
    const bool retx_pop = s1_free && !st_.rq.empty();
    if (t.retx_pop != retx_pop) {
      st_.fail(c, std::string("stage 1 ") + (t.retx_pop ? "took" : "did not take") +
                      " a re-issue request; model: " + std::to_string(st_.rq.size()) +
                      " waiting, the skid " + (s1_free ? "empty" : "full"));
    }
    sched_.check_dequeue(c, s1_free && !retx_pop, seg_.holders());
    mh_.m2(c);
    mh_.m1(c);
    mh_.m0(c);
    if (t.s2_fire) {
      // Stage 2b parked, on a plan made before, a transfer a block of which resolved since
      // (or in this cycle): the handler re-checks it (design.md section 20).
      if (seg_.fire(c)) mh_.recheck(t.s2_node);
    } else if (t.s2_hold) {
      seg_.check_hold(c);
    } else if (seg_.b_busy()) {
      st_.fail(c, "segmenter stage 2b holds transfer " + std::to_string(seg_.held()->xfer) +
                      " but reports neither fire nor hold");
    }
    seg_.advance();
    cpu_.writes(c);
    rd_.cycle(c);
    sched_.check_enqueue(c);
    if (const auto e = sched_.apply(c)) seg_.load(*e, t.deq_qid);
    if (retx_pop) {
      seg_.load_retx(st_.rq.front());
      st_.rq.pop_front();
    }
    sb_.check(c);
    handshakes(c);
    cpu_.apply_status(c);
    // The AXI slave's refused enqueue requests in a row (the RTL's axi_wait_q, saturating).
    // The allocator's refused requests count the same way (source 3, below the AXI slave).
    const bool axi_granted = t.enq && t.enq_src == 2;
    if ((t.axi_enq_req && !axi_granted) || rd_.refused()) {
      st_.axi_wait = std::min(st_.axi_wait + 1, 3u);
    } else {
      st_.axi_wait = 0;
    }
    if (t.blk_valid && !t.blk_ready) st_.stats.inc(Stat::BlkStallCycles);
    if (t.pkt_valid && !t.pkt_ready) st_.stats.inc(Stat::PktStallCycles);
  }
  if (!st_.failure) rd_.end_cycle(c);
  cpu_.end_cycle();
  sb_.end_cycle();
  mh_.end_cycle();
  st_.taps = CycleTaps{};
}

bool EngineModel::quiescent() const {
  return seg_.idle() && mh_.idle() && !cpu_.enq_pending() && st_.fin_fifo.empty() &&
         st_.rq.empty() && sb_.idle() && st_.metrics.live_now == 0 && sched_.empty() &&
         rd_.quiescent() && rd_.busy_channels() == 0;
}

std::vector<std::string> EngineModel::final_check(uint64_t cycle) {
  std::vector<std::string> p;
  if (st_.failure) p.push_back("first failure: " + st_.failure->what);
  for (unsigned x = 0; x < NumXfers; ++x) {
    const Xfer& X = st_.xf[x];
    if (X.where != Where::Idle) {
      p.push_back("transfer " + std::to_string(x) + " (" + X.d.to_string() +
                  ") never finished: issued " + std::to_string(X.issued) + "/" +
                  std::to_string(X.total) + ", resolved " + std::to_string(X.resolved));
      if (p.size() > 20) break;
    }
  }
  for (unsigned t = 0; t < NumTids; ++t) {
    if (st_.ptt[t].valid) p.push_back("TID " + std::to_string(t) + " still pending");
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
  check_fifo(st_.tid_fifo, IdFifo::tid_fifo(), "TID FIFO");
  check_fifo(st_.fid1_fifo, IdFifo::fid1_fifo(), "1xFID FIFO");
  check_fifo(st_.fid4_fifo, IdFifo::fid4_fifo(), "4xFID FIFO");
  sb_.final_problems(p);
  if (!p.empty() && !st_.failure) {
    std::string all;
    for (const auto& l : p) all += "  " + l + "\n";
    st_.fail(cycle, "end of run: " + p.front(), all);
  }
  return p;
}

}  // namespace ni
