// SPDX-License-Identifier: Apache-2.0
// The CPU address map (ICD section 3) and the control registers (ICD 14): the one place the
// harness, the golden model, the tests and the benchmarks encode and decode CPU addresses.
// Region codes and register words come from the package (ni_pkg_gen.hpp).
#pragma once

#include <cstdint>

#include "ni_pkg_gen.hpp"

namespace ni {

// Regions, addr[19:16].
constexpr unsigned RegionDesc = ni_pkg::RegionDesc;
constexpr unsigned RegionStatus1 = ni_pkg::RegionStatus1;
constexpr unsigned RegionStatus32 = ni_pkg::RegionStatus32;
constexpr unsigned RegionStats = ni_pkg::RegionStats;
constexpr unsigned RegionCtrl = ni_pkg::RegionCtrl;
constexpr unsigned region_of(uint32_t addr) { return (addr >> 16) & 0xF; }

// Control register words (region 4, addr[15:4]).
constexpr unsigned CtrlRetxTimeout = ni_pkg::CtrlRetxTimeout;
constexpr unsigned CtrlMaxRetries = ni_pkg::CtrlMaxRetries;
constexpr unsigned CtrlRxIdle = ni_pkg::CtrlRxIdle;
constexpr unsigned CtrlNodeId = ni_pkg::CtrlNodeId;

constexpr uint32_t region_base(unsigned region) { return uint32_t(region) << 16; }
// Word `word` (0..3) of the descriptor line of (page, channel).
constexpr uint32_t desc_addr(unsigned page, unsigned channel, unsigned word = 0) {
  return region_base(RegionDesc) | (page << 12) | (channel << 5) | (word << 3);
}
// Status of one write channel (channel 0..63).
constexpr uint32_t status_addr(unsigned page, unsigned channel) {
  return region_base(RegionStatus1) | (page << 12) | (channel << 5);
}
// Status of 32 write channels: half 0 = channels 0..31, 1 = 32..63.
constexpr uint32_t status32_addr(unsigned page, unsigned half) {
  return region_base(RegionStatus32) | (page << 12) | (half << 10);
}
// Statistics counter `index` (ICD 8).
constexpr uint32_t stat_addr(unsigned index) { return region_base(RegionStats) | (index << 4); }
// Control register `word` (ICD 14).
constexpr uint32_t ctrl_addr(unsigned word) { return region_base(RegionCtrl) | (word << 4); }

}  // namespace ni
