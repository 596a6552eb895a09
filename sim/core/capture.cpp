// SPDX-License-Identifier: Apache-2.0
#include "sim/core/capture.hpp"

#include <cinttypes>
#include <stdexcept>

namespace sim {

namespace {
uint64_t narrow_value(const CaptureSignal& c) {
  if (c.width <= 8) return *static_cast<const uint8_t*>(c.p);
  if (c.width <= 16) return *static_cast<const uint16_t*>(c.p);
  if (c.width <= 32) return *static_cast<const uint32_t*>(c.p);
  return *static_cast<const uint64_t*>(c.p);
}
}  // namespace

CaptureWriter::CaptureWriter(std::vector<CaptureSignal> cols, const std::string& path)
    : cols_(std::move(cols)) {
  f_ = std::fopen(path.c_str(), "w");
  if (f_ == nullptr) throw std::runtime_error("cannot write capture file " + path);
  std::string head = "Sample", radix = "Radix";
  for (const CaptureSignal& c : cols_) {
    head += ",";
    head += c.name;
    if (c.width > 1) head += "[" + std::to_string(c.width - 1) + ":0]";
    radix += c.width > 1 ? ",hex" : ",bin";
  }
  std::fprintf(f_, "%s\n%s\n", head.c_str(), radix.c_str());
}

CaptureWriter::~CaptureWriter() {
  if (f_ != nullptr) std::fclose(f_);
}

void CaptureWriter::sample(uint64_t cycle) {
  row_.clear();
  row_ += std::to_string(cycle);
  char b[24];
  for (const CaptureSignal& c : cols_) {
    if (c.width == 1) {
      row_ += narrow_value(c) ? ",1" : ",0";
    } else if (c.width <= 64) {
      std::snprintf(b, sizeof b, ",%0*" PRIx64, int((c.width + 3) / 4), narrow_value(c));
      row_ += b;
    } else {
      // most significant word first
      const auto* w = static_cast<const uint32_t*>(c.p);
      row_ += ",";
      for (unsigned i = (c.width + 31) / 32; i-- > 0;) {
        std::snprintf(b, sizeof b, "%08" PRIx32, w[i]);
        row_ += b;
      }
    }
  }
  row_ += "\n";
  std::fputs(row_.c_str(), f_);
}

}  // namespace sim
