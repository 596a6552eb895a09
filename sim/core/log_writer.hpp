// SPDX-License-Identifier: Apache-2.0
// Writes the --log file: one JSON object per event, in cycle order (ICD section 9).
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

 private:
  std::FILE* f_ = nullptr;
  std::deque<uint32_t> read_addr_;  // AR addresses waiting for their R beats
};

}  // namespace sim
