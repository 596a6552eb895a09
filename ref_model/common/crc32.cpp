// SPDX-License-Identifier: Apache-2.0
#include "ref_model/common/crc32.hpp"

#include <zlib.h>

namespace ni {

// zlib's crc32 is this CRC (reflected polynomial 0xEDB88320, initial value and final XOR
// 0xFFFFFFFF) and computes it several bytes per step; crc32_update continues one.
uint32_t crc32(const uint8_t* data, std::size_t len) { return crc32_update(0, data, len); }

uint32_t crc32_update(uint32_t crc, const uint8_t* data, std::size_t len) {
  while (len > 0) {
    const uInt n = len > 0x40000000u ? 0x40000000u : uInt(len);
    crc = uint32_t(::crc32(crc, data, n));
    data += n;
    len -= n;
  }
  return crc;
}

}  // namespace ni
