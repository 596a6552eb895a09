// SPDX-License-Identifier: Apache-2.0
// Small formatting helpers shared by the pretty-printers (internal to ref_model).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace ni {
namespace detail {

// Hex for fields wider than 16 bits, decimal otherwise.
inline std::string fmt_field(uint64_t v, unsigned width) {
  char buf[32];
  if (width > 16) {
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  } else {
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  }
  return buf;
}

inline std::string hex64(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace detail
}  // namespace ni
