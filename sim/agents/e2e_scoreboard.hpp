// SPDX-License-Identifier: Apache-2.0
// The end-to-end scoreboard of the full-NI simulator (ICD 15), transaction level, behind the
// checker interface: every transfer a CPU put live ends DONE (ERROR only where the
// configuration injects faults); a DONE transfer's destination bytes, in the destination
// node's memory, equal its source bytes (the source node's memory pattern, or the inline
// payload); its notification record (tag, size, src_node, 0x0001) is in memory and was
// written after the transfer's last data byte; every memory write lands inside a live
// transfer's destination or notification range. It subscribes to every node's event bus:
// the transfers the node's engine model decided (XferEvent: live, finished; random and
// scenario runs alike) and the writes its memory completed (MemWrEvent). Every complete
// notification record a memory receives it announces on that node's bus (NotifyEvent).
//
// RDMA Read (ICD 16). A live transfer whose descriptor is a read (control bit 40; from the
// engine model's XferEvent: its descriptor's `read`) is checked at its issuer: its bytes
// land in the issuer's memory at dst_addr[47:0] and must equal the responder's (node
// src_addr[63:48]) memory at src_addr[47:0] when it turns DONE; a notifying read's record is
// in the issuer's memory at the notification address, written after the last data byte and
// before DONE, and holds the read's tag, the bytes of its last block (the size of the write
// transfer the responder served that block with, the one that carries the notification),
// the responder as src_node, 0x0001. A transfer on a read channel (64..127: the responder's
// engine serving one block of a read) is checked as a write when it turns DONE (its bytes at
// node dst_addr[63:48] equal its source); its destination and record lie inside the read's
// ranges, so it adds none of its own, counts in no statistics, and leaves the memory to the
// read's check.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/mem_image.hpp"
#include "sim/core/checker.hpp"

namespace sim {

class E2eScoreboard : public Checker {
 public:
  // images[n]: node n's memory.
  explicit E2eScoreboard(std::vector<ni::MemImage*> images);
  ~E2eScoreboard() override;

  // ERROR endings allowed (faults injected or a NACKing configuration).
  void allow_errors(bool on) { allow_errors_ = on; }
  // Writes outside every live transfer allowed (late duplicates of a faulty network).
  void allow_stray_writes(bool on) { allow_stray_ = on; }
  // Off: DONE transfers are not compared with their destination (open-loop runs).
  void check_data(bool on) { check_data_ = on; }

  // Subscribes to node `n`'s event bus, where its notification records are also announced.
  void attach(unsigned n, EventBus& bus);
  // What the bus of node `node` delivers, by hand (the unit tests): transfer `xfer` (the
  // node's engine's transfer index, page * 128 + channel) went live / finished, a write
  // completed (an RDMA Read that node issued: the descriptor's `read`, ICD 16).
  void on_live(unsigned node, unsigned xfer, const ni::Descriptor& d, uint64_t cycle);
  void on_finish(unsigned node, unsigned xfer, bool error, uint64_t cycle);
  void on_node_memwr(unsigned node, const MemWrEvent& e);

  std::string name() const override { return "end to end"; }
  const std::vector<CheckFailure>& errors() const override { return errors_; }
  bool quiescent() const override { return xfers_.empty(); }
  std::vector<std::string> final_check(uint64_t cycle) override;

  struct NodeStats {
    uint64_t done = 0, error = 0;  // transfers this node issued (writes and reads)
    uint64_t reads = 0;            // of them: RDMA Reads that ended DONE (ICD 16)
    uint64_t read_bytes = 0;       // their bytes
    uint64_t bytes_delivered = 0;  // destination bytes of DONE transfers into this node
    uint64_t notifications = 0;    // records written into this node
    uint64_t stray_writes = 0;     // writes outside every live range (allowed with faults)
  };
  const NodeStats& node_stats(unsigned n) const { return stats_.at(n); }
  uint64_t data_mismatches() const { return data_mismatches_; }

 private:
  struct Xfer {
    ni::Descriptor d;
    unsigned issuer = 0;  // the node whose engine holds the transfer
    unsigned src = 0;     // the node whose memory holds the source bytes
    unsigned dst = 0;     // the node whose memory receives them (and the record)
    bool read = false;    // an RDMA Read (ICD 16): src the responder, dst the issuer
    bool served = false;  // on a read channel: a block of a read served as a write
    uint64_t live_cycle = 0;
    uint64_t notify_writes = 0;     // complete records written
    uint64_t notify_bytes = 0;      // bytes of the record being written (it may take 2 bursts)
    bool data_ok_at_notify = true;  // the destination held every data byte at the first record
  };
  struct Range {
    uint64_t end;
    uint64_t xfer;
    bool notify;
  };
  // The notification record of a transfer that has ended: the receive unit may still write
  // it (a sender that gave up, ERROR; a late duplicate of a control packet), and every record
  // memory receives is a notify event. No transfer of the run writes there again.
  struct EndedRecord {
    uint64_t end;
    unsigned bytes = 0;  // of the record being written
  };
  struct Tap;
  void fail(uint64_t cycle, std::string what, std::string detail = "");
  void add_range(unsigned node, uint64_t a, uint64_t n, uint64_t id, bool notify);
  void check_done(const Xfer& x, uint64_t cycle);
  // A complete record at `addr` of node `node`: counted, and announced (NotifyEvent): every
  // record, of a live transfer or of one that has ended.
  void record_written(unsigned node, uint64_t cycle, uint64_t addr);
  // A write into the record of an ended transfer (false: not one).
  bool ended_record(unsigned node, uint64_t cycle, const MemWrEvent::Run& r);
  // The first data byte of [dst, dst+size) that differs from the source (-1: none).
  long first_difference(const Xfer& x) const;
  // The record a notifying transfer's receiver writes (ICD 13): tag, size, src_node, 0x0001.
  static std::vector<uint8_t> expected_record(const Xfer& x);
  static std::string describe(const Xfer& x);
  static uint64_t key(unsigned src, unsigned xfer) { return (uint64_t{src} << 16) | xfer; }

  std::vector<ni::MemImage*> mem_;
  std::vector<std::unique_ptr<Tap>> taps_;
  std::vector<EventBus*> buses_;                                // per node, once attached
  std::vector<std::map<uint64_t, Range>> ranges_;               // per node: start -> range
  std::map<uint64_t, Xfer> xfers_;                              // live transfers by (node, xfer)
  std::vector<std::map<uint64_t, EndedRecord>> ended_records_;  // per node: address -> record
  std::vector<NodeStats> stats_;
  std::vector<CheckFailure> errors_;
  uint64_t data_mismatches_ = 0;
  bool allow_errors_ = false, allow_stray_ = false, check_data_ = true;
};

}  // namespace sim
