// SPDX-License-Identifier: Apache-2.0
// Bit-field helpers for the LSB-first packed formats of the ICD: a field of `width` bits at
// bit `lsb` of a little-endian array of 64-bit words (word 0 holds bits 63:0).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ni_pkg_gen.hpp"  // generated from rtl/common/ni_pkg.sv (scripts/gen_pkg.py)

namespace ni {

// Mask of the low `width` bits (width 0..64).
constexpr uint64_t mask_bits(unsigned width) {
  return width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
}

// Field [lsb + width - 1 : lsb] of a single word.
constexpr uint64_t get_bits(uint64_t word, unsigned lsb, unsigned width) {
  return (word >> lsb) & mask_bits(width);
}

// Field of a multi-word vector; the field may straddle two words. width <= 64.
template <std::size_t N>
uint64_t get_field(const std::array<uint64_t, N>& v, unsigned lsb, unsigned width) {
  const unsigned w = lsb / 64;
  const unsigned b = lsb % 64;
  uint64_t r = v[w] >> b;
  if (b != 0 && b + width > 64 && w + 1 < N) r |= v[w + 1] << (64 - b);
  return r & mask_bits(width);
}

// Writes `value` (masked to `width` bits) into the field; other bits are kept.
template <std::size_t N>
void set_field(std::array<uint64_t, N>& v, unsigned lsb, unsigned width, uint64_t value) {
  value &= mask_bits(width);
  const unsigned w = lsb / 64;
  const unsigned b = lsb % 64;
  const uint64_t m = mask_bits(width);
  v[w] = (v[w] & ~(m << b)) | (value << b);
  if (b != 0 && b + width > 64 && w + 1 < N) {
    const unsigned hi = b + width - 64;  // bits that land in the next word
    v[w + 1] = (v[w + 1] & ~mask_bits(hi)) | (value >> (64 - b));
  }
}

// Byte `i` (byte 0 = bits 7:0 of word 0) of a little-endian word vector.
template <std::size_t N>
uint8_t get_byte(const std::array<uint64_t, N>& v, std::size_t i) {
  return static_cast<uint8_t>(v[i / 8] >> (8 * (i % 8)));
}

template <std::size_t N>
void set_byte(std::array<uint64_t, N>& v, std::size_t i, uint8_t b) {
  const unsigned sh = 8 * (i % 8);
  v[i / 8] = (v[i / 8] & ~(uint64_t{0xFF} << sh)) | (uint64_t{b} << sh);
}

// Bytes [at, at + n) of a little-endian word vector, from / into a byte array (byte 0 = bits
// 7:0 of word 0). On a little-endian host that is the vector's own memory, one copy.
template <std::size_t N>
void get_bytes(const std::array<uint64_t, N>& v, std::size_t at, uint8_t* out, std::size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(out, reinterpret_cast<const uint8_t*>(v.data()) + at, n);
#else
  for (std::size_t i = 0; i < n; ++i) out[i] = get_byte(v, at + i);
#endif
}

template <std::size_t N>
void set_bytes(std::array<uint64_t, N>& v, std::size_t at, const uint8_t* in, std::size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(reinterpret_cast<uint8_t*>(v.data()) + at, in, n);
#else
  for (std::size_t i = 0; i < n; ++i) set_byte(v, at + i, in[i]);
#endif
}

// The same, with a field layout of the package (ni_pkg_gen.hpp: one source of truth).
using PkgField = ni_pkg::Field;

// Field `f` of a single word (f.lsb + f.width <= 64).
constexpr uint64_t take_bits(uint64_t word, PkgField f) { return get_bits(word, f.lsb, f.width); }
// `word` with field `f` set to `value`.
constexpr uint64_t put_bits(uint64_t word, PkgField f, uint64_t value) {
  const uint64_t m = mask_bits(f.width) << f.lsb;
  return (word & ~m) | ((value << f.lsb) & m);
}
template <std::size_t N>
uint64_t get_field(const std::array<uint64_t, N>& v, PkgField f) {
  return get_field(v, f.lsb, f.width);
}
template <std::size_t N>
void set_field(std::array<uint64_t, N>& v, PkgField f, uint64_t value) {
  set_field(v, f.lsb, f.width, value);
}

}  // namespace ni
