// SPDX-License-Identifier: Apache-2.0
// Writes the --log file: one JSON object per event, in cycle order (ICD sections 9, 15): a
// listener on the event bus, so the log is what the monitors and agents reported, in the
// order they reported it. In the N-node simulator each node has a writer of its own on the
// one file (on the node's bus), which adds the node's number to every event; the file's own
// writer takes the networks' events.
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>

#include "sim/core/events.hpp"

namespace sim {

class LogWriter : public Listener {
 public:
  explicit LogWriter(const std::string& path);
  // A writer on `file`'s file for node `node` (events carry "node").
  LogWriter(LogWriter& file, unsigned node);
  ~LogWriter() override;
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  void on_aw(const AwEvent& e) override;
  void on_b(const BEvent& e) override;
  void on_ar(const ArEvent& e) override;
  void on_r(const REvent& e) override;
  void on_block(const BlockEvent& e) override;
  void on_packet(const PacketEvent& e) override;
  void on_rsp(const RspEvent& e) override;
  void on_status(const StatusEvent& e) override;
  void on_memwr(const MemWrEvent& e) override;
  // Full-NI events (ICD 15): a packet's last beat left this node; what a network did with a
  // packet (written without a node); a notification record written.
  void on_tx(const TxEvent& e) override;
  void on_net(const NetEvent& e) override;
  void on_notify(const NotifyEvent& e) override;
  // The engine's decision on a read request (ICD 16), written by rreq() for this node.
  void on_rreq_decision(const RreqDecisionEvent& e) override;
  // ICD 16, at the responder: node `node`'s engine took read request (`tid`, `seq`) of node
  // `from`: {"cycle":C,"ev":"rreq","node":N,"from":F,"tid":T,"seq":S,"channel":CH,
  // "action":"serve"|"drop"|"dup"}; `channel` is the read channel (64..127) served or
  // matched, -1 for a drop. Always carries "node" (the argument; on a node's own writer it is
  // that node).
  void rreq(uint64_t cycle, unsigned node, unsigned from, unsigned tid, unsigned seq, int channel,
            RreqAction action);

 private:
  void head(uint64_t cycle, const char* ev);

  std::FILE* f_ = nullptr;
  bool own_ = false;
  int node_ = -1;                   // -1: the engine alone, no "node" field
  std::deque<uint32_t> read_addr_;  // AR addresses waiting for their R beats
};

}  // namespace sim
