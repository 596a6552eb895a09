// SPDX-License-Identifier: Apache-2.0
// Writes a CSV capture of a top's ports, one row per clock, in the layout a logic-analyzer
// export gives: a header row of signal names (buses as name[msb:lsb]), a radix row, then one
// row per sampled clock (values just before the rising edge, so a handshake is valid && ready
// in its row). scripts/csv2scenario.py turns such a capture back into a scenario; docs/simulator.md
// "Hardware captures" documents the columns. The columns come from the top's adapter.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/core/component.hpp"

namespace sim {

// One column: a port of `width` bits stored as Verilator stores it (uint8_t up to 8 bits,
// uint16_t up to 16, uint32_t up to 32, uint64_t up to 64, else 32-bit words LSB first).
struct CaptureSignal {
  std::string name;
  unsigned width;
  const void* p;
};

class CaptureWriter : public Component {
 public:
  CaptureWriter(std::vector<CaptureSignal> cols, const std::string& path);
  ~CaptureWriter() override;
  CaptureWriter(const CaptureWriter&) = delete;
  CaptureWriter& operator=(const CaptureWriter&) = delete;

  void sample(uint64_t cycle) override;

 private:
  std::vector<CaptureSignal> cols_;
  std::FILE* f_ = nullptr;
  std::string row_;
};

}  // namespace sim
