// SPDX-License-Identifier: Apache-2.0
#include "bench/send_unit.hpp"

#include <algorithm>

#include "ref_model/common/bits.hpp"

namespace bench {

void SendUnit::on_block(const sim::BlockEvent& e) {
  namespace f = ni::ni_pkg::blk_desc_t;
  const unsigned seq = unsigned(ni::get_field(e.desc, f::seq));
  const uint32_t len = uint32_t(ni::get_field(e.desc, f::len_m1)) + 1;
  blks_.push_back(Blk{e.tid, seq, len});
}

void SendUnit::on_packet(const sim::PacketEvent& e) {
  namespace f = ni::ni_pkg::pkt_hdr_t;
  const uint64_t h = e.data[0];  // header bits 63:0
  pkts_.push_back(Pkt{unsigned(ni::take_bits(h, f::tid)), unsigned(ni::take_bits(h, f::seq)),
                      ni::take_bits(h, f::kind) == ni::ni_pkg::PktKindInline});
}

void SendUnit::on_reset() {
  blks_.clear();
  pkts_.clear();
  cur_ = Cur::None;
  have_blk_ = false;
  left_ = 0;
  set_ready();
}

void SendUnit::set_ready() {
  *blk_ready_ = blks_.size() < opt_.blk_queue;
  *pkt_ready_ = pkts_.size() < opt_.pkt_queue;
}

void SendUnit::drive(uint64_t cycle) {
  if (cur_ == Cur::None) {
    if (!pkts_.empty()) {
      pkt_ = pkts_.front();
      pkts_.pop_front();
      cur_ = Cur::SmallPacket;
      left_ = 1;
    } else {
      if (!have_blk_ && !blks_.empty()) {
        blk_ = blks_.front();
        blks_.pop_front();
        have_blk_ = true;
        blk_left_ = blk_.len;
      }
      if (have_blk_) {
        const uint32_t p = std::min<uint32_t>(blk_left_, opt_.max_payload);
        blk_left_ -= p;
        left_ = opt_.overhead + (p + opt_.word_bytes - 1) / opt_.word_bytes;
        cur_ = Cur::BlockPacket;
      }
    }
  }
  if (cur_ != Cur::None) {
    ++busy_cycles_;
    if (--left_ == 0) {  // this cycle carries the item's last word
      if (cur_ == Cur::SmallPacket) {
        if (pkt_.acked)
          rsp_.script(cycle + opt_.net_delay, uint16_t(pkt_.tid), uint16_t(pkt_.seq), false);
      } else if (blk_left_ == 0) {
        have_blk_ = false;
        rsp_.script(cycle + opt_.net_delay, uint16_t(blk_.tid), uint16_t(blk_.seq), false);
      }
      cur_ = Cur::None;
    }
  }
  set_ready();
}

}  // namespace bench
