// SPDX-License-Identifier: Apache-2.0
// The memory of one node (ICD 15): an AXI4 slave on the node's memory master port
// (AxiMemPorts, 512-bit data). Memory starts as the SplitMix64 pattern of the node
// (ni::MemImage); writes overlay it when their B response is sent. Read and write latencies
// are drawn from ranges, AR/AW/W are back-pressured at random, responses of different IDs
// may return out of order (per ID in order, as AXI requires). It checks the master's
// protocol (ICD 10: INCR bursts of 64-byte beats, at most 16 beats, never across 4 KiB,
// WLAST on the last beat, a strobe on every beat) and reports a violation as a check
// failure. Every completed write is reported to the listeners (on_memwr).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "ref_model/common/mem_image.hpp"
#include "sim/core/checker.hpp"
#include "sim/core/component.hpp"
#include "sim/core/events.hpp"
#include "sim/core/ports.hpp"
#include "sim/core/rng.hpp"

namespace sim {

struct MemOptions {
  unsigned rd_lat_min = 1, rd_lat_max = 1;  // AR handshake -> first R beat, cycles
  unsigned wr_lat_min = 1, wr_lat_max = 1;  // last W beat -> B, cycles
  bool ooo = false;                         // responses of different IDs out of order
  unsigned ar_stall_pct = 0;                // chance of ARREADY low in a cycle
  unsigned aw_stall_pct = 0;
  unsigned w_stall_pct = 0;
};

class MemModel : public Component, public Checker {
 public:
  MemModel(const AxiMemPorts& port, Rng& rng, MemOptions opt, uint16_t node, EventBus& bus);

  ni::MemImage& image() { return mem_; }
  const ni::MemImage& image() const { return mem_; }

  // Component
  void on_reset() override;
  void drive(uint64_t cycle) override;
  void sample(uint64_t cycle) override;
  bool busy() const override;

  // Checker: protocol violations of the master.
  std::string name() const override { return "node " + std::to_string(node_) + " memory"; }
  const std::vector<CheckFailure>& errors() const override { return errors_; }
  bool quiescent() const override { return !busy(); }
  std::vector<std::string> final_check(uint64_t cycle) override;

  uint64_t reads() const { return n_reads_; }
  uint64_t writes() const { return n_writes_; }

 private:
  struct Burst {
    uint8_t id;
    uint64_t addr;  // AxADDR
    unsigned beats;
    uint64_t ready;             // earliest cycle of the response
    uint64_t order;             // arrival order
    unsigned done = 0;          // beats sent (R) / received (W)
    std::vector<uint8_t> data;  // W: the beats' data, 64 bytes each
    std::vector<uint64_t> strb;
  };
  void fail(uint64_t cycle, const std::string& what);
  std::vector<int> cand_;  // pick()'s candidates (kept: no allocation per call)
  bool check_burst(uint64_t cycle, const char* ch, uint64_t addr, unsigned len, unsigned size,
                   unsigned burst);
  // The oldest-per-ID ready burst to answer (random among them with ooo).
  int pick(const std::deque<Burst>& q, uint64_t cycle);
  void complete_write(uint64_t cycle, const Burst& w);

  AxiMemPorts p_;
  Rng& rng_;
  MemOptions opt_;
  uint16_t node_;
  EventBus& bus_;
  ni::MemImage mem_;
  std::vector<CheckFailure> errors_;
  std::deque<Burst> rd_;       // accepted reads, not yet fully answered
  std::deque<Burst> wr_data_;  // accepted AWs waiting for their W beats, in AW order
  std::deque<Burst> wr_resp_;  // writes with all beats, waiting for B
  int r_cur_ = -1;             // read burst being answered (index into rd_)
  int b_cur_ = -1;             // write whose B is presented
  uint64_t order_ = 0;
  bool arready_ = false, awready_ = false, wready_ = false;
  uint64_t n_reads_ = 0, n_writes_ = 0;
};

}  // namespace sim
