// SPDX-License-Identifier: Apache-2.0
// Cycle figures of the RTL (thesis 4.2.1, docs/design.md section 12), measured at the ports of
// the verilated engine in the harness (golden model attached): deterministic cycle counts.
#include "bench/figures.hpp"

#include <algorithm>
#include <memory>

#include "bench/common.hpp"

namespace bench {

namespace {

constexpr uint64_t kDst = 0x0001000000000000ull;  // node 1, block aligned

struct Env {
  explicit Env(bool auto_ack) : tb(tb_options(auto_ack)) {
    tb.bus().add(probe);
    tb.start();
  }
  sim::Testbench tb;
  Probe probe;
};

// Cycle of the first AW handshake at or after `from`.
uint64_t aw_cycle(const Probe& p, uint64_t from) {
  for (const sim::AwEvent& e : p.aws) {
    if (e.cycle >= from) return e.cycle;
  }
  throw BenchError("no AW handshake");
}

nlohmann::json timeline(const Probe& p, uint64_t aw) {
  auto rel = [&](uint64_t c) {
    return c == kNone ? nlohmann::json(nullptr) : nlohmann::json(c - aw);
  };
  return {{"aw", 0},
          {"enqueue", rel(p.first_enq)},
          {"dequeue", rel(p.first_deq)},
          {"stage2", rel(p.first_s2_fire)},
          {"blk_valid", rel(p.first_blk_valid)},
          {"pkt_valid", rel(p.first_pkt_valid)}};
}

// One 8-byte inline transfer, one 2-beat 128-bit burst with W alongside AW:
// first AW handshake -> pkt_valid_o.
nlohmann::json inline_latency() {
  Env e(true);
  const uint64_t t0 = e.tb.cycle();
  e.probe.arm();
  e.tb.axi().write(descriptor_burst(inline_desc(0, 0, 8, kDst)));
  run_until(
      e.tb, [&] { return e.probe.packets.size() == 1; }, 1000, "inline latency");
  const uint64_t aw = aw_cycle(e.probe, t0);
  const nlohmann::json tl = timeline(e.probe, aw);
  finish(e.tb, "inline latency");
  return {{"cycles", e.probe.first_pkt_valid - aw}, {"timeline", tl}};
}

// One single-block TID-only transfer: first AW handshake -> blk_valid_o.
nlohmann::json block_latency() {
  Env e(true);
  const uint64_t t0 = e.tb.cycle();
  e.probe.arm();
  e.tb.axi().write(descriptor_burst(memory_desc(0, 0, 4096, kDst)));
  run_until(
      e.tb, [&] { return e.probe.blocks.size() == 1; }, 1000, "block latency");
  const uint64_t aw = aw_cycle(e.probe, t0);
  const nlohmann::json tl = timeline(e.probe, aw);
  finish(e.tb, "block latency");
  return {{"cycles", e.probe.first_blk_valid - aw}, {"timeline", tl}};
}

// 64 back-to-back 8-byte inline transfers to channels 0..63 (each one 2-beat burst): the
// spacing of their packets in steady state (packets 8..63).
nlohmann::json inline_rate() {
  Env e(true);
  for (unsigned ch = 0; ch < 64; ++ch)
    e.tb.axi().write(descriptor_burst(inline_desc(0, ch, 8, kDst)));
  run_until(
      e.tb, [&] { return e.probe.packets.size() == 64; }, 5000, "inline rate");
  finish(e.tb, "inline rate");
  const auto& p = e.probe.packets;
  uint64_t lo = kNone, hi = 0;
  for (std::size_t i = 9; i < p.size(); ++i) {
    lo = std::min(lo, p[i].cycle - p[i - 1].cycle);
    hi = std::max(hi, p[i].cycle - p[i - 1].cycle);
  }
  const double mean = double(p[63].cycle - p[8].cycle) / 55.0;
  const double mean_all = double(p[63].cycle - p[0].cycle) / 63.0;
  return {{"cycles_per_packet", mean},
          {"min_spacing", lo},
          {"max_spacing", hi},
          {"cycles_per_packet_all_64", mean_all},
          {"first_packet_cycle", p[0].cycle},
          {"last_packet_cycle", p[63].cycle}};
}

// Many queued multi-block transfers (64 TID-only transfers of 192 blocks), every block ACKed
// one cycle after its handshake (responder latency 1, window 1): blocks issued per cycle over
// 10,000 cycles of steady state (from the 256th block on).
nlohmann::json segmenter_rate() {
  constexpr uint32_t kBlocksPerXfer = 192;
  constexpr uint64_t kWindow = 10000;
  Env e(true);
  for (unsigned ch = 0; ch < 64; ++ch) {
    e.tb.axi().write(descriptor_burst(
        memory_desc(0, ch, kBlocksPerXfer * 65536u, kDst + uint64_t(ch) * (1ull << 24))));
  }
  run_until(
      e.tb, [&] { return e.probe.blocks.size() >= 256 + kWindow; }, 100000, "segmenter rate");
  const uint64_t w0 = e.probe.blocks[255].cycle;
  uint64_t n = 0;
  for (const auto& b : e.probe.blocks) n += (b.cycle >= w0 && b.cycle < w0 + kWindow) ? 1 : 0;
  finish(e.tb, "segmenter rate");
  const uint64_t total = e.probe.blocks.size();
  // While the 64 descriptors are still being written, the AXI slave's enqueues compete with the
  // segmenter's re-enqueues for the scheduling queues' one enqueue port.
  const uint64_t first = e.probe.blocks.front().cycle, last_aw = e.probe.aws.back().cycle;
  uint64_t during = 0;
  for (const auto& b : e.probe.blocks) during += (b.cycle >= first && b.cycle <= last_aw) ? 1 : 0;
  return {{"blocks_per_cycle", double(n) / double(kWindow)},
          {"blocks_while_writing", during},
          {"writing_cycles_after_first_block", last_aw - first + 1},
          {"blocks_per_cycle_while_writing", double(during) / double(last_aw - first + 1)},
          {"window_cycles", kWindow},
          {"window_start_cycle", w0},
          {"blocks_in_window", n},
          {"blocks_total", total},
          {"first_block_cycle", e.probe.blocks.front().cycle},
          {"last_block_cycle", e.probe.blocks.back().cycle}};
}

// Response handshake -> status register DONE (the register's update, seen by the monitor after
// the clock edge), and the first AR handshake, counted from the response handshake, whose
// single-channel status read returns DONE (measured by reading at +1, +2, ... on fresh
// transfers).
nlohmann::json ack_to_done() {
  Env e(false);
  nlohmann::json reads = nlohmann::json::array();
  uint64_t reg = kNone, first_read = kNone;
  for (unsigned k = 1; k <= 5; ++k) {
    const unsigned ch = k;
    e.tb.axi().write(descriptor_burst(memory_desc(0, ch, 4096, kDst)));
    const std::size_t nb = e.probe.blocks.size();
    run_until(
        e.tb, [&] { return e.probe.blocks.size() > nb; }, 1000, "ack to done: block");
    const Probe::Block b = e.probe.blocks.back();
    const uint64_t at = e.tb.cycle() + 2;
    const std::size_t nr = e.probe.rsps.size();
    e.tb.responder().script(at, uint16_t(b.tid), uint16_t(b.seq), false);
    // Present the status read at cycle at + k.
    run_until(
        e.tb, [&] { return e.tb.cycle() == at + k; }, 100, "ack to done: wait");
    sim::AxiRead got;
    bool have = false;
    e.tb.axi().read(read_at(status_addr(0, ch)), [&](const sim::AxiRead& t) {
      got = t;
      have = true;
    });
    run_until(
        e.tb, [&] { return have; }, 100, "ack to done: read");
    if (e.probe.rsps.size() <= nr || e.probe.rsps[nr].cycle != at)
      throw BenchError("ack to done: response not taken at once");
    if (got.ar_cycle != at + k) throw BenchError("ack to done: status read not taken at once");
    const uint64_t st = e.probe.status_cycle(ch, 2, at);
    if (st == kNone) throw BenchError("ack to done: no DONE");
    reg = std::min(reg, st - at);
    const unsigned code = unsigned(got.data.at(0) & 3);
    if (code == 2) first_read = std::min<uint64_t>(first_read, k);
    reads.push_back({{"read_at", k}, {"status", code}});
    if (code != 2) {  // clear the DONE
      bool done = false;
      e.tb.axi().read(read_at(status_addr(0, ch)), [&](const sim::AxiRead&) { done = true; });
      run_until(
          e.tb, [&] { return done; }, 100, "ack to done: clear");
    }
  }
  finish(e.tb, "ack to done");
  return {{"register_cycles", reg}, {"first_read_cycles", first_read}, {"reads", reads}};
}

}  // namespace

nlohmann::json cycle_figures() {
  const nlohmann::json il = inline_latency();
  const nlohmann::json bl = block_latency();
  const nlohmann::json ir = inline_rate();
  const nlohmann::json sr = segmenter_rate();
  const nlohmann::json ad = ack_to_done();
  return {{"inline_latency_cycles", il["cycles"]},
          {"block_latency_cycles", bl["cycles"]},
          {"inline_cycles_per_packet", ir["cycles_per_packet"]},
          {"segmenter_blocks_per_cycle", sr["blocks_per_cycle"]},
          {"ack_to_done_cycles", ad["register_cycles"]},
          {"ack_to_done_read_cycles", ad["first_read_cycles"]},
          {"details",
           {{"inline_latency", il},
            {"block_latency", bl},
            {"inline_rate", ir},
            {"segmenter_rate", sr},
            {"ack_to_done", ad}}}};
}

}  // namespace bench
