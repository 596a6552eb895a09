// SPDX-License-Identifier: Apache-2.0
// Cycle figures of the RTL (thesis 4.2.1): latencies and rates measured at the engine's ports.
#pragma once

#include <nlohmann/json.hpp>

namespace bench {

// inline_latency_cycles, block_latency_cycles, inline_cycles_per_packet,
// segmenter_blocks_per_cycle, ack_to_done_cycles (+ ack_to_done_read_cycles) and the details of
// each measurement. Throws BenchError when a run fails a check.
nlohmann::json cycle_figures();

}  // namespace bench
