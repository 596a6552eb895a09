// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/sched_model.hpp"

#include <algorithm>
#include <sstream>

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

// Eligibility at the start of the cycle (docs/design.md section 6, stage 1).
bool SchedModel::eligible(unsigned q, const std::optional<Held>& held) const {
  if (queues_[q].empty()) return false;
  if (q == 1) {
    const bool reserved = held && held->qid == 1;
    return st_.tid_fifo.size() > (reserved ? 1u : 0u);
  }
  if (is_1x_no(q)) {
    const bool reserved = held && is_1x_no(held->qid);
    return st_.fid1_fifo.size() > (reserved ? 1u : 0u);
  }
  if (is_4x_no(q)) {
    const bool reserved = held && is_4x_no(held->qid);
    return st_.fid4_fifo.size() > (reserved ? 1u : 0u);
  }
  return true;
}

bool SchedModel::empty() const {
  return std::all_of(queues_.begin(), queues_.end(), [](const auto& q) { return q.empty(); });
}

std::string SchedModel::describe(const std::optional<Held>& held) const {
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
    os << (eligible(q, held) ? "  [eligible]" : "  [not eligible]") << "\n";
  }
  os << "  TID FIFO " << st_.tid_fifo.size() << ", 1xFID FIFO " << st_.fid1_fifo.size()
     << ", 4xFID FIFO " << st_.fid4_fifo.size() << ", stage 2 "
     << (held ? std::to_string(held->xfer) + " from queue " + std::to_string(held->qid) : "empty")
     << "\n";
  return os.str();
}

void SchedModel::check_dequeue(uint64_t c, bool s1_free, const std::optional<Held>& held) {
  const CycleTaps& t = st_.taps;
  const unsigned L = st_.cfg.intra_prios;
  int pick = -1;
  for (unsigned q = 0; q < queues_.size(); ++q) {
    if (eligible(q, held)) {
      pick = int(q);
      break;
    }
  }
  if (s1_free && pick >= 0) {
    const Entry& e = queues_[unsigned(pick)].front();
    if (!t.deq) {
      st_.fail(c, "segmenter idle although queue " + queue_name(unsigned(pick), L) + " is eligible",
               describe(held), int(e.xfer));
    } else if (t.deq_qid != unsigned(pick) || t.deq_node != e.xfer || t.deq_first != e.first) {
      st_.fail(c,
               "dequeue choice: expected transfer " + std::to_string(e.xfer) +
                   (e.first ? "*" : "") + " from " + queue_name(unsigned(pick), L) + ", DUT took " +
                   std::to_string(t.deq_node) + (t.deq_first ? "*" : "") + " from queue " +
                   std::to_string(t.deq_qid),
               describe(held), int(e.xfer));
    }
  } else if (t.deq) {
    st_.fail(c,
             "dequeue of transfer " + std::to_string(t.deq_node) + " from queue " +
                 std::to_string(t.deq_qid) +
                 (s1_free ? " although no queue is eligible" : " while the skid is full"),
             describe(held), int(t.deq_node));
  }
}

void SchedModel::check_enqueue(uint64_t c, const std::optional<Held>& held) {
  const CycleTaps& t = st_.taps;
  std::vector<Enq>& exp = st_.exp_enq;
  const unsigned L = st_.cfg.intra_prios;
  if (exp.empty()) {
    if (t.enq) {
      st_.fail(c,
               "unexpected enqueue of transfer " + std::to_string(t.enq_node) + " into queue " +
                   std::to_string(t.enq_qid) + " by " + enqueue_source_name(t.enq_src),
               describe(held), int(t.enq_node));
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
