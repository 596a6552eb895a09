// SPDX-License-Identifier: Apache-2.0
// Scheduling queue indices (ICD section 5, docs/design.md section 5).
//
// Order = priority (lowest index first): 0 control, 1 TID-only, then
// 1xFID-have-FID[0..L-1], 1xFID-no-FID[0..L-1], 4xFID-have-FID[0..L-1], 4xFID-no-FID[0..L-1],
// L = IntraPrios.
#pragma once

#include <cstdint>
#include <string>

#include "ref_model/common/types.hpp"

namespace ni {

constexpr unsigned QCtrl = 0;
constexpr unsigned QTid = 1;

constexpr unsigned num_queues(unsigned intra_prios) { return 2 + 4 * intra_prios; }

// level = prio >> (4 - log2(IntraPrios)); intra_prios is 1, 2, 4, 8 or 16.
unsigned prio_level(uint8_t prio, unsigned intra_prios);

// The queue of a transfer: inline and TID-only -> QTid; 1x/4x -> have-FID or no-FID queue of
// its level. A new transfer goes to have_fid = false (its initial queue).
unsigned queue_index(Kind kind, uint8_t prio, bool have_fid, unsigned intra_prios);

// "ctrl", "tid", "1x-have[3]", "1x-no[0]", "4x-have[7]", "4x-no[2]".
std::string queue_name(unsigned q, unsigned intra_prios);

}  // namespace ni
