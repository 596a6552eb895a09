// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/id_fifo.hpp"

#include <algorithm>

#include "ref_model/common/types.hpp"

namespace ni {

IdFifo IdFifo::tid_fifo() {
  IdFifo f;
  for (unsigned i = 0; i < TidOnlyIds; ++i) f.push(i);
  return f;
}

IdFifo IdFifo::fid1_fifo() {
  IdFifo f;
  for (unsigned i = 0; i < Fid1Count; ++i) f.push(Fid1Base + i);
  return f;
}

IdFifo IdFifo::fid4_fifo() {
  IdFifo f;
  for (unsigned i = 0; i < Fid4Count; ++i) f.push(Fid4Base + Fid4Stride * i);
  return f;
}

unsigned IdFifo::front() const {
  if (q_.empty()) throw std::logic_error("IdFifo::front on empty FIFO");
  return q_.front();
}

unsigned IdFifo::pop() {
  const unsigned id = front();
  q_.pop_front();
  return id;
}

bool IdFifo::contains(unsigned id) const { return std::find(q_.begin(), q_.end(), id) != q_.end(); }

}  // namespace ni
