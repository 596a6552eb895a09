// SPDX-License-Identifier: Apache-2.0
// What the monitors see at a top's ports and trace port, one struct per event kind; the
// listener interface through which checkers, the log writer, the responder and the coverage
// collector receive them; and the event bus that delivers them. The bus is the one way
// anything in the environment learns what happened: monitors and agents emit, checkers and
// writers subscribe to the events they need.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/component.hpp"

namespace ni {
struct Descriptor;
struct RxBurst;
struct WirePacket;
}  // namespace ni

namespace sim {

struct AwEvent {
  uint64_t cycle;
  uint8_t id;
  uint32_t addr;
  uint8_t len, size, burst;
};
struct WEvent {
  uint64_t cycle;
  uint64_t lo, hi;
  uint16_t strb;
  bool last;
};
struct BEvent {
  uint64_t cycle;
  uint8_t id;
  uint8_t resp;
};
struct ArEvent {
  uint64_t cycle;
  uint8_t id;
  uint32_t addr;
  uint8_t len, size, burst;
};
struct REvent {
  uint64_t cycle;
  uint8_t id;
  uint64_t data;
  uint8_t resp;
  bool last;
};
struct BlockEvent {
  uint64_t cycle;
  uint16_t tid;
  std::array<uint64_t, 4> desc;
};
struct PacketEvent {
  uint64_t cycle;
  std::array<uint64_t, 8> data;
};
struct RspEvent {
  uint64_t cycle;
  uint16_t tid;
  uint16_t seq;
  bool nack;
};
// A read request handed from the receive unit to the engine (ICD 16): its READ_REQ head beat.
struct RreqEvent {
  uint64_t cycle;
  std::array<uint64_t, 8> head;
};
// The engine's deferred response to a read request, offered (taken: handshake) this cycle.
struct DrspEvent {
  uint64_t cycle;
  bool taken;
  uint16_t tid;
  uint16_t seq;
  bool nack;
  uint16_t node;  // the node it goes to
};
struct StatusEvent {
  uint64_t cycle;
  uint16_t wch;  // page * 64 + channel
  uint8_t from, to;
};
// A write to a node's memory, reported when the memory model sends its B response: the
// strobed bytes in address order, as runs of consecutive addresses.
struct MemWrEvent {
  struct Run {
    uint64_t addr;
    std::vector<uint8_t> data;
  };
  uint64_t cycle;
  uint64_t awaddr;        // the burst's address
  uint64_t addr;          // the lowest strobed byte
  uint64_t bytes;         // strobed bytes
  std::vector<Run> runs;  // the strobed bytes, in address order, as contiguous runs
};
// qos_engine's trace port (qos_trace_t) and port handshake bits, sampled every cycle.
struct TapEvent {
  uint64_t cycle;
  bool deq;
  uint8_t deq_qid;
  uint16_t deq_node;
  bool deq_first;
  bool enq;         // an enqueue was granted
  uint8_t enq_src;  // 0 ACK handler, 1 segmenter, 2 AXI slave, 3 read-channel allocator
  uint8_t enq_qid;
  uint16_t enq_node;
  bool s2_fire;  // segmenter stage 2 completed its node
  uint16_t s2_node;
  bool s2_hold;  // stage 2 holds a node and does not fire
  bool blk_valid, blk_ready;
  bool pkt_valid, pkt_ready;
  bool rsp_valid, rsp_ready;
  bool init_done;
  bool axi_enq_req, axi_starving;
  bool tmo;       // the timeout FSM offers a timeout event
  bool retx_pop;  // stage 1 takes a re-issue request
  bool s2_retx;   // stage 2 holds a re-issue request
  // the read-channel allocator (ICD 16)
  bool rd_enq_req;    // requests an enqueue (source 3)
  bool rd_dec;        // decides on a read request
  uint8_t rd_action;  // 0 serve, 1 drop (no channel), 2 re-issue matched
  uint8_t rd_ch;      // read channel - 64
  bool rd_tt_we;      // writes the Transfer Table
  bool recheck;       // the Message Handler's M2 makes a re-check (design.md section 20)
};

// ---- the full NI (ICD 15) ------------------------------------------------------------------
// The two networks that join the nodes: requests (data, inline, control packets) and
// responses (ACK, NACK).
enum class Net : uint8_t { Req, Rsp };
inline const char* to_string(Net n) { return n == Net::Req ? "req" : "rsp"; }

// A packet's last beat left a node's tx port of network `net` (the network took it whole,
// before any fault is applied).
struct TxEvent {
  uint64_t cycle;
  Net net;
  const ni::WirePacket& packet;
};
// A packet's last beat entered a node's rx port of network `net` (valid && ready), as the
// port carried it.
struct RxEvent {
  uint64_t cycle;
  Net net;
  const ni::WirePacket& packet;
};
// What a network did with a packet (the log's "net" event).
struct NetEvent {
  enum class Action : uint8_t { Deliver, Drop, Corrupt, Dup };
  uint64_t cycle = 0;
  Action action = Action::Deliver;
  unsigned from = 0, to = 0;
  unsigned kind = 0, tid = 0, seq = 0;
};
inline const char* to_string(NetEvent::Action a) {
  switch (a) {
    case NetEvent::Action::Deliver:
      return "deliver";
    case NetEvent::Action::Drop:
      return "drop";
    case NetEvent::Action::Corrupt:
      return "corrupt";
    case NetEvent::Action::Dup:
      return "dup";
  }
  return "?";
}
// The receive unit's decisions as its ports show them: a response offered on rsp_tx (once,
// at the first cycle RSP_TX_VALID shows it), a write burst on the memory master complete (AW
// paired with its W beats, in order), a B handshake of the memory master.
struct RspOfferEvent {
  uint64_t cycle;
  const ni::WirePacket& packet;
};
struct WrBurstEvent {
  uint64_t cycle;
  const ni::RxBurst& burst;
};
struct MemBEvent {
  uint64_t cycle;
};
// A transfer of the node's engine went live or finished, as its golden model decided (the
// cycle the engine decided).
struct XferEvent {
  enum class What : uint8_t { Live, Done, Error };
  uint64_t cycle;
  unsigned xfer;
  What what;
  const ni::Descriptor* desc;  // Live: the transfer's descriptor
};
// The read-channel allocator's decision on a read request (ICD 16; the log's "rreq" event),
// as the engine model predicted and checked it.
enum class RreqAction : uint8_t { Serve, Drop, Dup };
inline const char* to_string(RreqAction a) {
  return a == RreqAction::Serve ? "serve" : a == RreqAction::Drop ? "drop" : "dup";
}
struct RreqDecisionEvent {
  uint64_t cycle;
  uint16_t from;
  unsigned tid, seq;
  RreqAction action;
  int channel;  // 64..127 served or matched; -1 for a drop
};
// A complete notification record landed in a node's memory (the log's "notify" event).
struct NotifyEvent {
  uint64_t cycle;
  uint64_t addr;
  uint64_t tag;
  unsigned src_node;
};

class Listener {
 public:
  virtual ~Listener() = default;
  virtual void on_aw(const AwEvent&) {}
  virtual void on_w(const WEvent&) {}
  virtual void on_b(const BEvent&) {}
  virtual void on_ar(const ArEvent&) {}
  virtual void on_r(const REvent&) {}
  virtual void on_block(const BlockEvent&) {}
  virtual void on_packet(const PacketEvent&) {}
  virtual void on_rsp(const RspEvent&) {}
  virtual void on_status(const StatusEvent&) {}
  virtual void on_rreq(const RreqEvent&) {}
  virtual void on_drsp(const DrspEvent&) {}
  virtual void on_rreq_decision(const RreqDecisionEvent&) {}
  virtual void on_tap(const TapEvent&) {}
  virtual void on_memwr(const MemWrEvent&) {}
  virtual void on_tx(const TxEvent&) {}
  virtual void on_rx(const RxEvent&) {}
  virtual void on_net(const NetEvent&) {}
  virtual void on_rsp_offer(const RspOfferEvent&) {}
  virtual void on_wr_burst(const WrBurstEvent&) {}
  virtual void on_mem_b(const MemBEvent&) {}
  virtual void on_xfer(const XferEvent&) {}
  virtual void on_notify(const NotifyEvent&) {}
  // Called once per cycle after every event of the cycle was delivered.
  virtual void end_of_cycle(uint64_t cycle) { (void)cycle; }
};

// Delivers the events of one top instance to its listeners, in registration order. The
// monitors of the instance emit through it; registered with SimCtrl after them, it closes
// each cycle (end_of_cycle) once every event of the cycle, including the post-edge ones, has
// been delivered. A listener may emit on the bus while it is handed an event (the engine
// checker announces a transfer its model finished): the nested event reaches every listener
// at that point, before the outer one goes on. A bus of events that belong to no top (what a
// network did) is not registered with SimCtrl: it has no cycle to close.
class EventBus : public Component {
 public:
  void add(Listener& l) { listeners_.push_back(&l); }
  template <typename F>
  void emit(F&& f) {
    for (Listener* l : listeners_) f(*l);
  }
  void post_edge(uint64_t cycle) override {
    for (Listener* l : listeners_) l->end_of_cycle(cycle);
  }

 private:
  std::vector<Listener*> listeners_;
};

}  // namespace sim
