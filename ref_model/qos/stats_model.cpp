// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/stats_model.hpp"

namespace ni {

const char* to_string(Stat s) {
  static const char* const names[NumStats] = {
      "desc_accepted",    "write_rejected", "blocks_issued", "inline_packets",
      "control_packets",  "acks_accepted",  "nacks",         "rsp_dropped",
      "retransmissions",  "xfers_done",     "xfers_error",   "blk_stall_cycles",
      "pkt_stall_cycles", "timeouts"};
  const unsigned i = static_cast<unsigned>(s);
  return i < NumStats ? names[i] : "?";
}

void StatsModel::inc(Stat s, uint64_t n) {
  uint64_t& c = c_[static_cast<unsigned>(s)];
  c = (c > UINT64_MAX - n) ? UINT64_MAX : c + n;
}

}  // namespace ni
