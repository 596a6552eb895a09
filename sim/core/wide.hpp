// SPDX-License-Identifier: Apache-2.0
// Conversions between Verilator's wide signals (arrays of 32-bit words) and arrays of
// 64-bit words, LSB first.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "verilated.h"

namespace sim {

template <std::size_t N64, std::size_t W32>
std::array<uint64_t, N64> from_wide(const VlWide<W32>& w) {
  static_assert(W32 == 2 * N64, "width mismatch");
  std::array<uint64_t, N64> out{};
  for (std::size_t i = 0; i < N64; ++i) {
    out[i] = static_cast<uint64_t>(w[2 * i]) | (static_cast<uint64_t>(w[2 * i + 1]) << 32);
  }
  return out;
}

template <std::size_t N64, std::size_t W32>
void to_wide(VlWide<W32>& w, const std::array<uint64_t, N64>& v) {
  static_assert(W32 == 2 * N64, "width mismatch");
  for (std::size_t i = 0; i < N64; ++i) {
    w[2 * i] = static_cast<uint32_t>(v[i]);
    w[2 * i + 1] = static_cast<uint32_t>(v[i] >> 32);
  }
}

}  // namespace sim
