// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/queues.hpp"

#include <stdexcept>

namespace ni {

namespace {
unsigned log2_prios(unsigned intra_prios) {
  switch (intra_prios) {
    case 1:
      return 0;
    case 2:
      return 1;
    case 4:
      return 2;
    case 8:
      return 3;
    case 16:
      return 4;
    default:
      throw std::invalid_argument("IntraPrios must be 1, 2, 4, 8 or 16");
  }
}
}  // namespace

unsigned prio_level(uint8_t prio, unsigned intra_prios) {
  return (prio & 0xFu) >> (4 - log2_prios(intra_prios));
}

unsigned queue_index(Kind kind, uint8_t prio, bool have_fid, unsigned intra_prios) {
  const unsigned level = prio_level(prio, intra_prios);
  const unsigned l = intra_prios;
  switch (kind) {
    case Kind::OneFid:
      return 2 + (have_fid ? 0 : l) + level;
    case Kind::FourFid:
      return 2 + (have_fid ? 2 * l : 3 * l) + level;
    default:
      return QTid;
  }
}

std::string queue_name(unsigned q, unsigned intra_prios) {
  if (q == QCtrl) return "ctrl";
  if (q == QTid) return "tid";
  if (q >= num_queues(intra_prios)) return "q?" + std::to_string(q);
  const unsigned r = q - 2;
  static const char* const groups[4] = {"1x-have", "1x-no", "4x-have", "4x-no"};
  return std::string(groups[r / intra_prios]) + "[" + std::to_string(r % intra_prios) + "]";
}

}  // namespace ni
