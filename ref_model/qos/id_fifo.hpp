// SPDX-License-Identifier: Apache-2.0
// An ID FIFO (TID, 1xFID or 4xFID) with the reset fill order of ICD section 1.
#pragma once

#include <cstddef>
#include <deque>
#include <stdexcept>

namespace ni {

class IdFifo {
 public:
  IdFifo() = default;

  // TID FIFO after reset: 0, 1, ..., 511.
  static IdFifo tid_fifo();
  // 1xFID FIFO after reset: 128, ..., 191.
  static IdFifo fid1_fifo();
  // 4xFID FIFO after reset: 192, 196, ..., 252 (group bases).
  static IdFifo fid4_fifo();

  bool empty() const { return q_.empty(); }
  std::size_t size() const { return q_.size(); }
  unsigned front() const;
  // Pops the head; throws std::logic_error when empty.
  unsigned pop();
  // Returns an ID to the tail.
  void push(unsigned id) { q_.push_back(id); }
  bool contains(unsigned id) const;
  const std::deque<unsigned>& contents() const { return q_; }

 private:
  std::deque<unsigned> q_;
};

}  // namespace ni
