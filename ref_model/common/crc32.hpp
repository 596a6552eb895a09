// SPDX-License-Identifier: Apache-2.0
// CRC-32 (IEEE 802.3: reflected, polynomial 0x04C11DB7, init and final XOR 0xFFFFFFFF).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ni {

uint32_t crc32(const uint8_t* data, std::size_t len);
// The CRC of the bytes so far (crc32 of them, or 0 for none) continued over `len` more.
uint32_t crc32_update(uint32_t crc, const uint8_t* data, std::size_t len);

}  // namespace ni
