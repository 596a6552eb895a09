// SPDX-License-Identifier: Apache-2.0
// Golden model of the send unit (ICD 12): what a block descriptor and an engine packet
// become on the request network.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "ref_model/common/block_desc.hpp"
#include "ref_model/common/mem_image.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/common/wire.hpp"

namespace ni {

// One packet of a block: destination range [dst, dst+len) (48-bit addresses) and the
// source bytes it is read from, src + (dst - block dst).
struct PacketSpan {
  unsigned idx = 0;  // p = 0..npkts-1
  uint64_t dst = 0;
  uint64_t src = 0;
  unsigned len = 0;
};

// Packets of a block at destination `dst` (48-bit) of `len` bytes:
// ((dst+len-1)>>10) - (dst>>10) + 1.
unsigned block_npkts(uint64_t dst, uint32_t len);
// The block's destination range cut at 1 KiB-aligned destination addresses.
std::vector<PacketSpan> block_spans(const BlockDesc& b);

// The wire packets of block `b` (transaction id `tid`) sent by node `src_node`, its source
// bytes read from `mem` (the sender's memory).
std::vector<WirePacket> block_packets(const BlockDesc& b, uint16_t tid, uint16_t src_node,
                                      const MemImage& mem);

// Checks one node's req_tx stream against the blocks and engine packets the send unit
// accepted: data packets leave block by block in acceptance order, each block's packets in
// order; engine packets leave in acceptance order, each as one head beat; the two streams
// interleave only at packet boundaries (the stream is observed packet by packet).
class SendChecker {
 public:
  SendChecker(uint16_t node, const MemImage& mem) : node_(node), mem_(mem) {}

  void on_block(const BlockDesc& b, uint16_t tid);
  void on_engine_packet(const Packet& p);
  // A packet left on req_tx; returns the mismatches (empty when it was expected).
  std::vector<std::string> on_tx(const WirePacket& p);

  bool idle() const { return data_.empty() && heads_.empty(); }
  std::size_t pending() const { return data_.size() + heads_.size(); }
  uint64_t packets_checked() const { return checked_; }

 private:
  uint16_t node_;
  const MemImage& mem_;
  std::deque<WirePacket> data_;   // expected data packets, in order
  std::deque<WirePacket> heads_;  // expected inline/control head beats, in order
  uint64_t checked_ = 0;
};

}  // namespace ni
