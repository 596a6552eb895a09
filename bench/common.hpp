// SPDX-License-Identifier: Apache-2.0
// Shared plumbing of the benchmarks (build/bench/ni_bench): the address map, descriptor
// stores, a probe that records what the monitor saw, and the bench's failure handling.
//
// Every benchmark runs the verilated engine inside the verification harness (sim::Testbench
// with random_cpu = false), so the golden model checks every cycle of a benchmark exactly as
// it checks a random run; a benchmark whose run fails a check fails the bench.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "ref_model/common/addr_map.hpp"
#include "ref_model/common/descriptor.hpp"
#include "sim/core/events.hpp"
#include "sim/tb/qos/testbench.hpp"

namespace bench {

// Clock of the thesis's measurements (thesis 4.3) and the line rate of its send unit: a
// 512-bit datapath, 16 payload words out of the 18 cycles of a full 1 KiB packet.
constexpr double kClockMHz = 150.0;
constexpr double kDatapathBytes = 64.0;
constexpr double kLineRateBytesPerCycle = kDatapathBytes * 16.0 / 18.0;
constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

struct BenchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using ni::status32_addr;
using ni::status_addr;

// A memory TID-only transfer, short descriptor, destination aligned to a block.
ni::Descriptor memory_desc(unsigned page, unsigned ch, uint32_t size, uint64_t dst);
// An inline transfer (short up to 16 bytes, long up to 32).
ni::Descriptor inline_desc(unsigned page, unsigned ch, uint32_t size, uint64_t dst);

// The descriptor as the CPU writes it: one single-beat 128-bit store per two words.
std::vector<sim::AxiWrite> descriptor_stores(const ni::Descriptor& d);
// The descriptor as one INCR burst of 128-bit beats.
sim::AxiWrite descriptor_burst(const ni::Descriptor& d);
// A single-beat 128-bit read.
sim::AxiRead read_at(uint32_t addr);

// Testbench options of a benchmark: no random CPU, no random stalls; the responder in auto
// mode (every block and inline packet ACKed `ack_latency` cycles after its handshake, in
// order) or in script mode (only what the bench scripts).
sim::Testbench::Options tb_options(bool auto_ack, unsigned ack_latency = 1);

// Throws BenchError with the golden model's first failure, if any.
void check(sim::Testbench& tb, const std::string& what);
// Steps until `done()`; throws when it does not happen within `max_cycles` or a check fails.
void run_until(sim::Testbench& tb, const std::function<bool()>& done, uint64_t max_cycles,
               const std::string& what);
// Drains the engine, reads the statistics back (the model checks them) and runs the model's
// end-of-run checks; throws unless the run passed.
void finish(sim::Testbench& tb, const std::string& what);

// What the monitor saw, with cycles.
class Probe : public sim::Listener {
 public:
  struct Block {
    uint64_t cycle;
    unsigned tid, seq;
    uint32_t len;
  };
  struct Pkt {
    uint64_t cycle;
    unsigned kind, tid, seq;
  };
  std::vector<sim::AwEvent> aws;
  std::vector<Block> blocks;
  std::vector<Pkt> packets;
  std::vector<sim::RspEvent> rsps;
  std::vector<sim::StatusEvent> status;
  // First cycle (at or after arm()) of each tap.
  uint64_t first_enq = kNone, first_deq = kNone, first_s2_fire = kNone;
  uint64_t first_blk_valid = kNone, first_pkt_valid = kNone;

  void arm() { first_enq = first_deq = first_s2_fire = first_blk_valid = first_pkt_valid = kNone; }
  void on_aw(const sim::AwEvent& e) override { aws.push_back(e); }
  void on_block(const sim::BlockEvent& e) override;
  void on_packet(const sim::PacketEvent& e) override;
  void on_rsp(const sim::RspEvent& e) override { rsps.push_back(e); }
  void on_status(const sim::StatusEvent& e) override { status.push_back(e); }
  void on_tap(const sim::TapEvent& t) override;
  // Cycle of the first change of `wch` to `code` at or after `from` (kNone when none).
  uint64_t status_cycle(unsigned wch, unsigned code, uint64_t from = 0) const;
};

}  // namespace bench
