// SPDX-License-Identifier: Apache-2.0
// The scheduling queues (docs/design.md section 5) and segmenter stage 1's choice
// (section 6): which queue is eligible, which node the DUT must dequeue, and which enqueue it
// must grant among those the other parts of the model expect this cycle.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "ref_model/qos/engine_state.hpp"

namespace ni {

class SchedModel {
 public:
  struct Entry {
    unsigned xfer;
    bool first;
  };
  // A node of stage 2 or of the skid: it reserves an ID of the queue it came from.
  struct Held {
    unsigned xfer;
    unsigned qid;
  };
  // The IDs that stage 2, the skid and stage 1's dequeue may still take from each ID FIFO.
  struct Reserve {
    unsigned tid = 0, fid1 = 0, fid4 = 0;
  };

  explicit SchedModel(EngineState& st) : st_(st), queues_(st.num_queues()) {}

  // Queue q holds something but its IDs are not available beside the reservations of the
  // last pick (stage 1 skips it).
  bool blocked(unsigned q) const { return !queues_.at(q).empty() && !ids_ok(q, res_); }
  // Stage 1 (design.md section 6): the DUT's dequeue, of the queue picked the cycle before
  // (`s1_free`: the skid is empty and no re-issue request goes first), then the pick for the
  // next cycle: the highest-priority queue that keeps a node after this dequeue and whose IDs
  // are available beside those stage 2 and the skid (`holders`) and this dequeue reserve.
  void check_dequeue(uint64_t c, bool s1_free, const std::vector<Held>& holders);
  // The granted enqueue against those expected this cycle (EngineState::exp_enq).
  void check_enqueue(uint64_t c);
  // Applies this cycle's dequeue and enqueues; returns the dequeued node.
  std::optional<Entry> apply(uint64_t c);

  unsigned count() const { return unsigned(queues_.size()); }
  unsigned depth(unsigned q) const { return unsigned(queues_.at(q).size()); }
  bool empty() const;
  // The queues, ID FIFOs and the pick, for a failure's context.
  std::string describe() const;

 private:
  bool is_1x_no(unsigned q) const;
  bool is_4x_no(unsigned q) const;
  bool ids_ok(unsigned q, const Reserve& r) const;
  void reserve(Reserve& r, unsigned qid) const;

  EngineState& st_;
  std::vector<std::deque<Entry>> queues_;
  std::optional<unsigned> pick_;  // the queue stage 1 dequeues in the next cycle
  Reserve res_;                   // ... picked beside these reservations
};

// "the Message Handler", "the segmenter", "the AXI slave".
const char* enqueue_source_name(unsigned src);

}  // namespace ni
