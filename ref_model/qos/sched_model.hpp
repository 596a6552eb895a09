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
  // Stage 2's node: it reserves an ID of the queue it came from.
  struct Held {
    unsigned xfer;
    unsigned qid;
  };

  explicit SchedModel(EngineState& st) : st_(st), queues_(st.num_queues()) {}

  // Queue q holds something and its IDs are available (stage 2 holding `held`).
  bool eligible(unsigned q, const std::optional<Held>& held) const;
  // Stage 1: the DUT's dequeue against the queues at the start of the cycle (`s1_free`: its
  // skid is empty and no re-issue request goes first).
  void check_dequeue(uint64_t c, bool s1_free, const std::optional<Held>& held);
  // The granted enqueue against those expected this cycle (EngineState::exp_enq).
  void check_enqueue(uint64_t c, const std::optional<Held>& held);
  // Applies this cycle's dequeue and enqueues; returns the dequeued node.
  std::optional<Entry> apply(uint64_t c);

  unsigned count() const { return unsigned(queues_.size()); }
  unsigned depth(unsigned q) const { return unsigned(queues_.at(q).size()); }
  bool empty() const;
  // The queues and ID FIFOs, for a failure's context.
  std::string describe(const std::optional<Held>& held) const;

 private:
  bool is_1x_no(unsigned q) const;
  bool is_4x_no(unsigned q) const;

  EngineState& st_;
  std::vector<std::deque<Entry>> queues_;
};

// "the Message Handler", "the segmenter", "the AXI slave".
const char* enqueue_source_name(unsigned src);

}  // namespace ni
