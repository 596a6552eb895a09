// SPDX-License-Identifier: Apache-2.0
// The engine model's decisions, for functional coverage (sim/tb/qos/coverage.*).
#pragma once

#include <cstdint>

#include "ref_model/common/types.hpp"
#include "ref_model/qos/axi_slave_model.hpp"

namespace ni {

// Read-only view of the model's decisions, for functional coverage (sim/coverage.*). The
// model calls it after it has checked and applied each decision; an observer must not change
// anything. All callbacks are optional.
class ModelObserver {
 public:
  // Message Handler paths (docs/design.md section 9).
  enum class Mh : uint8_t {
    RspAck,             // M1: valid ACK
    RspNack,            // M1: valid NACK
    RspDropStale,       // M1: entry valid, seq differs: dropped
    RspDropUnknown,     // M1: no valid entry for the TID: dropped
    ResolveActive,      // M2: resolve of a transfer queued / in the segmenter: only counted
    WakeMore,           // M2: parked MORE -> own queue
    WakeCtrl,           // M2: parked NEED_CTRL, one block left -> control queue
    NeedCtrlWait,       // M2: parked NEED_CTRL, more than one block left: stays parked
    NeedCtrlErrWait,    // M2: parked NEED_CTRL with an error, blocks left: stays parked
    NeedCtrlErrFinish,  // M2: parked NEED_CTRL with an error, last resolve: finish ERROR
    WaitMore,           // M2: parked WAIT, blocks left: stays parked
    FinishM2Done,       // M2: parked WAIT, last resolve: DONE
    FinishM2Error,      // M2: parked WAIT, last resolve, error: ERROR
    FinishFifoDone,     // M2: finish event from the segmenter's FIFO: DONE
    FinishFifoError,    // M2: finish event from the segmenter's FIFO: ERROR
    ArbTieSeg,          // M0: both request, the segmenter's finish event wins
    ArbTieMh,           // M0: both request, the network response wins
    RecheckNone,        // M2: re-check of a transfer no longer parked: nothing
    RecheckWake,        // M2: re-check, parked MORE -> own queue
    RecheckCtrl,        // M2: re-check, parked NEED_CTRL with one block left -> control queue
    RecheckFinish,      // M2: re-check, parked WAIT (or NEED_CTRL with an error), all resolved
    RecheckStay,        // M2: re-check, parked, blocks still in flight: stays parked
  };
  // Segmenter stage-2 paths (docs/design.md section 6). One decision may report several.
  enum class S2 : uint8_t {
    IssueFirst,      // block 0 of a memory transfer
    IssueNext,       // block k >= 1
    IssueInline,     // inline packet
    ReEnqueue,       // not the last block, below MaxOutstanding: back to its own queue
    ParkMoreLimit,   // not the last block, MaxOutstanding reached: park MORE
    TidBusy,         // congestion-managed TID still in flight: nothing issued, park MORE
    ParkNeedCtrl,    // last block with notify, others in flight: park NEED_CTRL
    ParkWaitLast,    // last block (no notify, or inline): park WAIT
    CtrlDirect,      // last block with notify, nothing else in flight: control packet now
    CtrlFromQueue,   // control queue: control packet made
    CtrlError,       // control queue, transfer has an error: no packet
    CtrlFinish,      // control queue, nothing in flight: finish event
    CtrlWait,        // control queue, a block still in flight: park WAIT
    ErrFinish,       // error, nothing in flight: finish ERROR event
    ErrPark,         // error, blocks in flight: park MORE (error drain)
    HoldPktFull,     // stage 2 holds: packet queue full
    HoldBlkBusy,     // stage 2 holds: stage 3 occupied and not draining
    HoldFinFull,     // stage 2 holds: finish FIFO full
    HoldEnqLost,     // stage 2 holds: its re-enqueue lost to the Message Handler's
    HoldAxiYield,    // stage 2 holds its re-enqueue: the AXI slave's enqueue is starving
    ReadNotifyWait,  // last block of a notifying read, others in flight: nothing issued, park MORE
    ParkPassed,      // stage 2b parks on a plan a resolve of its transfer passed: re-check
  };
  // Stage 1's pick for the next cycle (docs/design.md section 6), where it differs from a
  // pick made after this cycle's dequeue with stage 2's reservation alone.
  enum class Pick : uint8_t {
    LastNodeLeft,       // this cycle's dequeue takes its queue's last node: not picked again
    ReservedByDequeue,  // a queue's IDs are taken by the reservation of this cycle's dequeue
    ReservedBySkid,     // ... by the reservation of the skid's node
  };
  struct S2Event {
    S2 path;
    unsigned xfer = 0;
    unsigned qid = 0;  // queue the node came from
    unsigned tid = 0;  // issues: TID and seq of the block / inline packet
    unsigned seq = 0;
    Kind kind = Kind::Tid;
  };
  virtual ~ModelObserver() = default;
  // Every W beat the model applied (in the DUT's order).
  virtual void on_beat(uint64_t cycle, const WriteBeatOutcome& o) { (void)cycle, (void)o; }
  virtual void on_mh(uint64_t cycle, Mh path, unsigned xfer) {
    (void)cycle, (void)path, (void)xfer;
  }
  virtual void on_s2(uint64_t cycle, const S2Event& e) { (void)cycle, (void)e; }
  virtual void on_pick(uint64_t cycle, Pick p) { (void)cycle, (void)p; }
};

}  // namespace ni
