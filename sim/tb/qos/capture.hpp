// SPDX-License-Identifier: Apache-2.0
// Writes a CSV capture of the engine's top-level ports, one row per clock, in the layout a
// logic-analyzer export gives: a header row of signal names (buses as name[msb:lsb]), a radix
// row, then one row per sampled clock (values just before the rising edge, so a handshake is
// valid && ready in its row). scripts/csv2scenario.py turns such a capture back into a
// scenario; README "Hardware captures" documents the columns.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "sim/core/component.hpp"

class Vqos_engine;

namespace sim {

class CaptureWriter : public Component {
 public:
  CaptureWriter(Vqos_engine& dut, const std::string& path);
  ~CaptureWriter() override;
  CaptureWriter(const CaptureWriter&) = delete;
  CaptureWriter& operator=(const CaptureWriter&) = delete;

  void sample(uint64_t cycle) override;

 private:
  Vqos_engine& dut_;
  std::FILE* f_ = nullptr;
  std::string row_;
};

}  // namespace sim
