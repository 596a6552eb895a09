// SPDX-License-Identifier: Apache-2.0
// The unit throughput benchmarks of `make bench` (build/bench/ni_unit_bench): the send unit
// alone on its own verilated model (issue 12) and the receive unit inside one ni_node
// (issue 13), each on the memory model (sim/agents/mem_model) and checked by its golden model
// while it runs; a run that fails a check fails the bench. Cycle figures only, deterministic
// for a given seed; never a wall-time check.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace unit_bench {

struct BenchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Cycles per 1 KiB packet on req_tx for back-to-back blocks of consecutive source addresses,
// per source alignment, block size and read latency.
nlohmann::json send_rate();
// Beats per cycle accepted on req_rx for back-to-back 1 KiB data packets, per write latency;
// and req_rx stalling while rsp_tx is held off, then recovering.
nlohmann::json recv_rate();

}  // namespace unit_bench
