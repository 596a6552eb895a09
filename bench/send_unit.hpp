// SPDX-License-Identifier: Apache-2.0
// Timing model of the RDMA send unit behind the QoS engine (thesis 4.2-4.3, figure 4.2), for
// the bench's reproduction of the thesis's figures 4.4-4.6. Cycle accurate at its ports:
//
//  - It takes block descriptors from the blk port and packets from the pkt port into two
//    small queues and drives blk_ready_i / pkt_ready_i from their room: a port is ready while
//    its queue holds fewer than `blk_queue` / `pkt_queue` entries (the entry being sent does
//    not count).
//  - One 512-bit network datapath serialises everything. A block leaves as data packets of
//    at most `max_payload` bytes (1 KiB); a data packet of p bytes costs
//    `overhead + ceil(p / word_bytes)` cycles (header, payload words, footer: 18 cycles for a
//    full 1 KiB packet). An inline or control packet is one beat (ICD 7: the whole packet
//    fits one 512-bit beat), one cycle.
//  - Order: at every packet boundary a waiting inline/control packet goes first (the small
//    messages the QoS engine prioritises), then the rest of the current block, then the next
//    waiting block. Packets of a block are never interleaved with another block's.
//  - `net_delay` cycles after the last cycle of a block's last packet (of an inline packet),
//    the receiver's ACK is offered on rsp_i, through the harness's responder in script mode
//    (valid/ready rules kept: it waits for rsp_ready_o). Control packets are not ACKed.
//
// It is a Component (drives the ready inputs; register it after the Testbench's own
// components so that its values win over the idle stall injectors) and a Listener on the
// monitor (learns blocks and packets at their handshakes).
#pragma once

#include <cstdint>
#include <deque>

#include "sim/agents/responder.hpp"
#include "sim/core/component.hpp"
#include "sim/core/events.hpp"
#include "sim/tb/qos/qos_engine_dut.hpp"

namespace bench {

struct SendUnitOptions {
  unsigned blk_queue = 2;       // block descriptors waiting
  unsigned pkt_queue = 2;       // inline / control packets waiting
  unsigned net_delay = 50;      // cycles from a block's (inline packet's) last word to its ACK
  unsigned max_payload = 1024;  // payload bytes per data packet
  unsigned word_bytes = 64;     // datapath width, bytes
  unsigned overhead = 2;        // header + footer cycles per data packet
};

class SendUnit : public sim::Component, public sim::Listener {
 public:
  SendUnit(const sim::QosEnginePorts& io, sim::Responder& rsp, SendUnitOptions opt)
      : blk_ready_(io.blk.ready), pkt_ready_(io.pkt.ready), rsp_(rsp), opt_(opt) {}

  void on_block(const sim::BlockEvent& e) override;
  void on_packet(const sim::PacketEvent& e) override;
  void on_reset() override;
  void drive(uint64_t cycle) override;
  bool busy() const override {
    return cur_ != Cur::None || have_blk_ || !blks_.empty() || !pkts_.empty();
  }

  // Cycles the datapath carried something.
  uint64_t busy_cycles() const { return busy_cycles_; }

 private:
  struct Blk {
    unsigned tid, seq;
    uint32_t len;
  };
  struct Pkt {
    unsigned tid, seq;
    bool acked;  // inline (ACKed) or control (not)
  };
  enum class Cur { None, BlockPacket, SmallPacket };
  void set_ready();

  uint8_t* blk_ready_;
  uint8_t* pkt_ready_;
  sim::Responder& rsp_;
  SendUnitOptions opt_;
  std::deque<Blk> blks_;
  std::deque<Pkt> pkts_;
  Cur cur_ = Cur::None;
  uint64_t left_ = 0;      // cycles left of the item on the datapath, this cycle included
  bool have_blk_ = false;  // a block is being sent (between two of its packets, too)
  Blk blk_{};
  uint32_t blk_left_ = 0;  // bytes of blk_ not yet packetised
  Pkt pkt_{};
  uint64_t busy_cycles_ = 0;
};

}  // namespace bench
