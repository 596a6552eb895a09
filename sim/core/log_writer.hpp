// SPDX-License-Identifier: Apache-2.0
// Writes the --log file: one JSON object per event, in cycle order (ICD sections 9, 15). In
// the N-node simulator each node has a writer of its own on the one file, which adds the
// node's number to every event.
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>

#include "ref_model/common/wire.hpp"
#include "sim/agents/network.hpp"
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
  // Full-NI events (ICD 15): a packet's last beat left this node on network `net` ("req",
  // "rsp"); what a network did with a packet; a notification record written.
  void tx(uint64_t cycle, const char* net, const ni::WirePacket& p);
  void net(const NetEvent& e);
  void notify(uint64_t cycle, uint64_t addr, uint64_t tag, unsigned src_node);

 private:
  void head(uint64_t cycle, const char* ev);

  std::FILE* f_ = nullptr;
  bool own_ = false;
  int node_ = -1;                   // -1: the engine alone, no "node" field
  std::deque<uint32_t> read_addr_;  // AR addresses waiting for their R beats
};

}  // namespace sim
