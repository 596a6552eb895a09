// SPDX-License-Identifier: Apache-2.0
// Statistics counters (ICD section 8, docs/design.md section 11): 13 saturating 64-bit
// counters, never cleared by reads.
#pragma once

#include <array>
#include <cstdint>

#include "ref_model/common/types.hpp"

namespace ni {

enum class Stat : uint8_t {
  DescAccepted = 0,   // transfers made live (short descriptor or line 1 accepted)
  WriteRejected = 1,  // write transactions answered SLVERR
  BlocksIssued = 2,
  InlinePackets = 3,
  ControlPackets = 4,
  AcksAccepted = 5,  // valid ACKs
  Nacks = 6,         // valid NACKs
  RspDropped = 7,
  Retransmissions = 8,
  XfersDone = 9,
  XfersError = 10,
  BlkStallCycles = 11,  // blk_valid_o && !blk_ready_i
  PktStallCycles = 12,  // pkt_valid_o && !pkt_ready_i
  Timeouts = 13,        // timeout events accepted by the Message Handler
};
const char* to_string(Stat s);

class StatsModel {
 public:
  void reset() { c_.fill(0); }
  // Adds n, saturating at 2^64-1.
  void inc(Stat s, uint64_t n = 1);
  uint64_t get(Stat s) const { return c_[static_cast<unsigned>(s)]; }
  // Counter by index; 0 for indices above 13 (the region-3 read rule).
  uint64_t read(unsigned index) const { return index < NumStats ? c_[index] : 0; }
  // For tests of saturation and for restoring a snapshot.
  void set(Stat s, uint64_t v) { c_[static_cast<unsigned>(s)] = v; }

 private:
  std::array<uint64_t, NumStats> c_{};
};

}  // namespace ni
