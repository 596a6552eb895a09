// SPDX-License-Identifier: Apache-2.0
// The memory of one node as the simulator sees it (ICD 15): every byte starts as the
// SplitMix64 pattern of the node and written bytes overlay it. The overlay is sparse, one
// 64-byte line at a time, so a 48-bit address space costs only what was written.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ni {

// The SplitMix64 finaliser (ICD 15): z = x + golden gamma, then two xor-shift-multiply
// rounds and a final xor-shift.
uint64_t splitmix64(uint64_t x);

// Byte at address `a` of node `node` before anything is written: byte (a mod 8) of
// splitmix64((node << 48) ^ (a >> 3)), little-endian.
uint8_t pattern_byte(uint16_t node, uint64_t a);

class MemImage {
 public:
  static constexpr unsigned kLine = 64;
  using Line = std::array<uint8_t, kLine>;

  explicit MemImage(uint16_t node = 0) : node_(node) {}

  uint16_t node() const { return node_; }

  // Bytes [a, a+n) into `out` (pattern where never written). Addresses are 48-bit: bits
  // 63:48 of `a` are ignored (ICD 10).
  void read(uint64_t a, uint8_t* out, std::size_t n) const;
  std::vector<uint8_t> read(uint64_t a, std::size_t n) const;
  uint8_t byte(uint64_t a) const;
  // The 64-byte line holding `a` (a is rounded down).
  Line line(uint64_t a) const;
  // The same line as eight little-endian 64-bit words (an AXI data beat).
  std::array<uint64_t, kLine / 8> line_words(uint64_t a) const;

  void write(uint64_t a, const uint8_t* data, std::size_t n);
  // Bytes of line `line_addr` (64-aligned) whose bit is set in `strb` (bit i = byte i).
  void write_line(uint64_t line_addr, const uint8_t* data, uint64_t strb);

  // True when no line that [a, a+n) touches was ever written.
  bool untouched(uint64_t a, std::size_t n) const;
  // Every line that [a, a+n) touches goes back to the pattern (a checked transfer's lines,
  // so that a long run's memory stays bounded).
  void forget(uint64_t a, std::size_t n);
  std::size_t lines_written() const { return lines_.size(); }

 private:
  static constexpr uint64_t kAddrMask = (uint64_t{1} << 48) - 1;
  Line pattern_line(uint64_t line_addr) const;

  uint16_t node_;
  std::unordered_map<uint64_t, Line> lines_;  // line address -> contents
};

}  // namespace ni
