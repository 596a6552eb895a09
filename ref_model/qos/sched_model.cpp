// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/sched_model.hpp"

#include <algorithm>
#include <sstream>

#include "ref_model/qos/engine_observer.hpp"
#include "ref_model/qos/queues.hpp"

namespace ni {

const char* enqueue_source_name(unsigned src) {
  static const char* const kNames[] = {"the Message Handler", "the segmenter", "the AXI slave",
                                       "the read-channel allocator"};
  return src < 4 ? kNames[src] : "an unknown source";
}

bool SchedModel::is_1x_no(unsigned q) const {
  const unsigned L = st_.cfg.intra_prios;
  return q >= 2 + L && q < 2 + 2 * L;
}

bool SchedModel::is_4x_no(unsigned q) const {
  const unsigned L = st_.cfg.intra_prios;
  return q >= 2 + 3 * L && q < 2 + 4 * L;
}

void SchedModel::reserve(Reserve& r, unsigned qid) const {
  if (qid == 1) ++r.tid;
  if (is_1x_no(qid)) ++r.fid1;
  if (is_4x_no(qid)) ++r.fid4;
}

// Whether queue q's IDs are available beside the reservations `r` (docs/design.md section 6,
// stage 1), from the ID FIFOs' fill at the start of the cycle.
bool SchedModel::ids_ok(unsigned q, const Reserve& r) const {
  if (q == 1) return st_.tid_fifo.size() > r.tid;
  if (is_1x_no(q)) return st_.fid1_fifo.size() > r.fid1;
  if (is_4x_no(q)) return st_.fid4_fifo.size() > r.fid4;
  return true;
}

bool SchedModel::empty() const {
  return std::all_of(queues_.begin(), queues_.end(), [](const auto& q) { return q.empty(); });
}

std::string SchedModel::describe() const {
  std::ostringstream os;
  for (unsigned q = 0; q < queues_.size(); ++q) {
    if (queues_[q].empty()) continue;
    os << "  " << queue_name(q, st_.cfg.intra_prios) << " (" << q << "):";
    unsigned n = 0;
    for (const auto& e : queues_[q]) {
      if (++n > 8) {
        os << " ...(" << queues_[q].size() << ")";
        break;
      }
      os << " " << e.xfer << (e.first ? "*" : "");
    }
    os << (ids_ok(q, res_) ? "" : "  [IDs not available]") << "\n";
  }
  os << "  TID FIFO " << st_.tid_fifo.size() << ", 1xFID FIFO " << st_.fid1_fifo.size()
     << ", 4xFID FIFO " << st_.fid4_fifo.size()
     << "; reserved by stage 2, the skid and stage 1: " << res_.tid << " / " << res_.fid1 << " / "
     << res_.fid4 << "; picked for the next cycle: "
     << (pick_ ? queue_name(*pick_, st_.cfg.intra_prios) : std::string("nothing")) << "\n";
  return os.str();
}

void SchedModel::check_dequeue(uint64_t c, bool s1_free, const std::vector<Held>& holders) {
  const CycleTaps& t = st_.taps;
  const unsigned L = st_.cfg.intra_prios;
  // The dequeue: the queue picked the cycle before, when stage 1 is free.
  const std::optional<unsigned> deq = s1_free ? pick_ : std::nullopt;
  if (deq) {
    if (queues_[*deq].empty()) {
      st_.fail(c, "model: queue " + queue_name(*deq, L) + " picked the cycle before is empty",
               describe());
      return;
    }
    const Entry& e = queues_[*deq].front();
    if (!t.deq) {
      st_.fail(
          c, "segmenter idle although it picked queue " + queue_name(*deq, L) + " the cycle before",
          describe(), int(e.xfer));
    } else if (t.deq_qid != *deq || t.deq_node != e.xfer || t.deq_first != e.first) {
      st_.fail(c,
               "dequeue choice: expected transfer " + std::to_string(e.xfer) +
                   (e.first ? "*" : "") + " from " + queue_name(*deq, L) + ", DUT took " +
                   std::to_string(t.deq_node) + (t.deq_first ? "*" : "") + " from queue " +
                   std::to_string(t.deq_qid),
               describe(), int(e.xfer));
    }
  } else if (t.deq) {
    st_.fail(c,
             "dequeue of transfer " + std::to_string(t.deq_node) + " from queue " +
                 std::to_string(t.deq_qid) +
                 (s1_free ? " although no queue was picked the cycle before"
                          : " while the skid is full or a re-issue request goes first"),
             describe(), int(t.deq_node));
  }
  // The pick for the next cycle, from the queues as this dequeue leaves them, beside every
  // reservation that can last into it.
  auto remains = [&](unsigned q) { return queues_[q].size() > (deq && *deq == q ? 1u : 0u); };
  res_ = Reserve{};
  for (const Held& h : holders) reserve(res_, h.qid);
  const Reserve no_deq = res_;
  if (deq) reserve(res_, *deq);
  pick_.reset();
  for (unsigned q = 0; q < queues_.size(); ++q) {
    if (remains(q) && ids_ok(q, res_)) {
      pick_ = q;
      break;
    }
  }
  if (ModelObserver* o = st_.observer) {
    // Coverage: a queue left out by a reservation other than stage 2's (the skid holds a
    // node only behind stage 2's, so the first holder is stage 2's).
    using P = ModelObserver::Pick;
    Reserve s2_only;
    if (!holders.empty()) reserve(s2_only, holders.front().qid);
    if (deq && !remains(*deq)) o->on_pick(c, P::LastNodeLeft);
    for (unsigned q = 0; q < queues_.size(); ++q) {
      if (!remains(q) || ids_ok(q, res_)) continue;
      if (ids_ok(q, no_deq)) o->on_pick(c, P::ReservedByDequeue);
      if (!ids_ok(q, no_deq) && ids_ok(q, s2_only)) o->on_pick(c, P::ReservedBySkid);
    }
  }
}

void SchedModel::check_enqueue(uint64_t c) {
  const CycleTaps& t = st_.taps;
  std::vector<Enq>& exp = st_.exp_enq;
  const unsigned L = st_.cfg.intra_prios;
  if (exp.empty()) {
    if (t.enq) {
      st_.fail(c,
               "unexpected enqueue of transfer " + std::to_string(t.enq_node) + " into queue " +
                   std::to_string(t.enq_qid) + " by " + enqueue_source_name(t.enq_src),
               describe(), int(t.enq_node));
    }
    return;
  }
  // One enqueue per cycle: the highest-priority source (lowest number) is the one expected;
  // the others should have waited (and then their events would not have happened).
  std::sort(exp.begin(), exp.end(), [](const Enq& a, const Enq& b) { return a.src < b.src; });
  const Enq& e = exp.front();
  std::string others;
  for (std::size_t i = 1; i < exp.size(); ++i) {
    others += "  also expected in this cycle: transfer " + std::to_string(exp[i].xfer) + " into " +
              queue_name(exp[i].qid, L) + " by " + enqueue_source_name(exp[i].src) + "\n";
  }
  if (!t.enq || t.enq_src != e.src || t.enq_qid != e.qid || t.enq_node != e.xfer) {
    st_.fail(c,
             "enqueue: expected transfer " + std::to_string(e.xfer) + " into " +
                 queue_name(e.qid, L) + " by " + enqueue_source_name(e.src) +
                 (t.enq ? "; DUT enqueued transfer " + std::to_string(t.enq_node) + " into queue " +
                              std::to_string(t.enq_qid) + " by " + enqueue_source_name(t.enq_src)
                        : "; DUT enqueued nothing"),
             others, int(e.xfer));
    return;
  }
  if (exp.size() > 1) {
    st_.fail(c,
             std::string("enqueue by ") + enqueue_source_name(exp[1].src) +
                 " in the cycle of an enqueue by " + enqueue_source_name(e.src) +
                 " (it should have waited)",
             others, int(exp[1].xfer));
  }
}

std::optional<SchedModel::Entry> SchedModel::apply(uint64_t c) {
  std::optional<Entry> out;
  const CycleTaps& t = st_.taps;
  if (t.deq) {
    auto& q = queues_.at(t.deq_qid);
    if (q.empty()) {
      st_.fail(c, "dequeue from an empty queue");
      return out;
    }
    out = q.front();
    q.pop_front();
  }
  for (const Enq& e : st_.exp_enq) {
    queues_.at(e.qid).push_back(Entry{e.xfer, e.src >= 2});
    st_.metrics.max_queue_depth =
        std::max(st_.metrics.max_queue_depth, unsigned(queues_[e.qid].size()));
  }
  return out;
}

}  // namespace ni
