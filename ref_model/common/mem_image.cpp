// SPDX-License-Identifier: Apache-2.0
#include "ref_model/common/mem_image.hpp"

#include <algorithm>

namespace ni {

uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint8_t pattern_byte(uint16_t node, uint64_t a) {
  const uint64_t w = splitmix64((uint64_t{node} << 48) ^ (a >> 3));
  return static_cast<uint8_t>(w >> (8 * (a & 7)));
}

MemImage::Line MemImage::pattern_line(uint64_t line_addr) const {
  Line l{};
  for (unsigned q = 0; q < kLine / 8; ++q) {
    const uint64_t w = splitmix64((uint64_t{node_} << 48) ^ ((line_addr >> 3) + q));
    for (unsigned b = 0; b < 8; ++b) l[8 * q + b] = static_cast<uint8_t>(w >> (8 * b));
  }
  return l;
}

MemImage::Line MemImage::line(uint64_t a) const {
  const uint64_t la = a & kAddrMask & ~uint64_t{kLine - 1};
  const auto it = lines_.find(la);
  return it != lines_.end() ? it->second : pattern_line(la);
}

std::array<uint64_t, MemImage::kLine / 8> MemImage::line_words(uint64_t a) const {
  const uint64_t la = a & kAddrMask & ~uint64_t{kLine - 1};
  std::array<uint64_t, kLine / 8> w;
  const auto it = lines_.find(la);
  if (it != lines_.end()) {
    for (unsigned q = 0; q < kLine / 8; ++q) {
      uint64_t v = 0;
      for (unsigned b = 0; b < 8; ++b) v |= uint64_t{it->second[8 * q + b]} << (8 * b);
      w[q] = v;
    }
  } else {
    for (unsigned q = 0; q < kLine / 8; ++q)
      w[q] = splitmix64((uint64_t{node_} << 48) ^ ((la >> 3) + q));
  }
  return w;
}

uint8_t MemImage::byte(uint64_t a) const {
  const auto it = lines_.find(a & kAddrMask & ~uint64_t{kLine - 1});
  return it != lines_.end() ? it->second[a % kLine] : pattern_byte(node_, a & kAddrMask);
}

void MemImage::read(uint64_t a, uint8_t* out, std::size_t n) const {
  while (n > 0) {
    const unsigned off = a % kLine;
    const std::size_t k = std::min<std::size_t>(n, kLine - off);
    const Line l = line(a);
    std::copy_n(l.begin() + off, k, out);
    out += k;
    a += k;
    n -= k;
  }
}

std::vector<uint8_t> MemImage::read(uint64_t a, std::size_t n) const {
  std::vector<uint8_t> v(n);
  read(a, v.data(), n);
  return v;
}

void MemImage::write_line(uint64_t line_addr, const uint8_t* data, uint64_t strb) {
  if (strb == 0) return;
  const uint64_t la = line_addr & kAddrMask & ~uint64_t{kLine - 1};
  auto it = lines_.find(la);
  if (it == lines_.end()) it = lines_.emplace(la, pattern_line(la)).first;
  for (unsigned i = 0; i < kLine; ++i)
    if ((strb >> i) & 1) it->second[i] = data[i];
}

void MemImage::write(uint64_t a, const uint8_t* data, std::size_t n) {
  while (n > 0) {
    const unsigned off = a % kLine;
    const std::size_t k = std::min<std::size_t>(n, kLine - off);
    Line buf{};
    std::copy_n(data, k, buf.begin() + off);
    const uint64_t strb = (k == 64 ? ~uint64_t{0} : ((uint64_t{1} << k) - 1)) << off;
    write_line(a - off, buf.data(), strb);
    data += k;
    a += k;
    n -= k;
  }
}

void MemImage::forget(uint64_t a, std::size_t n) {
  if (n == 0) return;
  const uint64_t first = (a & kAddrMask) / kLine;
  const uint64_t last = ((a & kAddrMask) + n - 1) / kLine;
  for (uint64_t l = first; l <= last; ++l) lines_.erase(l * kLine);
}

bool MemImage::untouched(uint64_t a, std::size_t n) const {
  if (n == 0) return true;
  const uint64_t first = (a & kAddrMask) / kLine;
  const uint64_t last = ((a & kAddrMask) + n - 1) / kLine;
  for (uint64_t l = first; l <= last; ++l)
    if (lines_.count(l * kLine)) return false;
  return true;
}

}  // namespace ni
