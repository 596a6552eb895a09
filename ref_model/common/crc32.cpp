// SPDX-License-Identifier: Apache-2.0
#include "ref_model/common/crc32.hpp"

#include <boost/crc.hpp>

namespace ni {

uint32_t crc32(const uint8_t* data, std::size_t len) {
  boost::crc_32_type c;
  c.process_bytes(data, len);
  return c.checksum();
}

}  // namespace ni
