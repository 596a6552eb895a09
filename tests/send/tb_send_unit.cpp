// SPDX-License-Identifier: Apache-2.0
// The send unit alone (ICD 11-12): block descriptors and engine packets driven straight into
// its blk/pkt inputs, its AR/R port on the memory model (sim/agents/mem_model: latency,
// AR back-pressure, protocol checks), req_tx collected packet by packet and compared with
// the golden model (ref_model/send/send_model: every head field, payload lane and CRC).
// Alignments are swept exhaustively over the interesting offsets; random runs add read
// latency up to 128 cycles, back-pressure on AR and req_tx and engine packets in between;
// the line-rate test checks one 1 KiB packet per 18 cycles at read latency 128, from the
// first packet on, for blocks of 1, 4 and 16 KiB at any source offset.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vsend_unit.h"
#include "ref_model/common/bits.hpp"
#include "ref_model/send/send_model.hpp"
#include "sim/agents/mem_model.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/sim_ctrl.hpp"
#include "sim/tb/bind.hpp"

namespace {

using ni::BlockDesc;
using ni::Packet;
using ni::WirePacket;

constexpr uint16_t kNode = 3;

struct Options {
  sim::MemOptions mem;
  unsigned tx_stall_pct = 0;
  uint64_t seed = 1;
};

// Drives blk/pkt from queues, collects req_tx; one per test.
class Bench : public sim::Component {
 public:
  explicit Bench(const Options& o)
      : opt_(o),
        rng_(o.seed),
        dut_(ctx_, "send_unit"),
        m_(dut_.model()),
        mem_(sim::bind_axi_mem_read(m_, tie_), rng_, o.mem, kNode, bus_),
        chk_(kNode, mem_.image()),
        ctrl_(ctx_) {
    ctrl_.add_dut(dut_);
    ctrl_.add(*this);
    ctrl_.add(mem_);
    m_.node_id_i = kNode;
    ctrl_.reset();
  }

  void block(const BlockDesc& b, uint16_t tid) { blks_.push_back({b, tid}); }
  void packet(const Packet& p) { pkts_.push_back(p); }
  // An engine packet offered from cycle `at` on.
  void packet_at(uint64_t at, const Packet& p) { later_.push_back({at, p}); }

  // Runs until everything queued has left (or `limit` cycles).
  bool run(uint64_t limit = 2000000) {
    return ctrl_.run_until(
        [&] {
          return blks_.empty() && pkts_.empty() && later_.empty() && chk_.idle() && !mem_.busy() &&
                 cur_.beats.empty();
        },
        limit);
  }

  const std::vector<std::string>& errors() const { return errors_; }
  std::vector<std::string> mem_errors() const {
    std::vector<std::string> v;
    for (const auto& e : mem_.errors()) v.push_back(e.what);
    return v;
  }
  uint64_t packets() const { return n_pkts_; }
  const std::vector<uint64_t>& last_beat_cycles() const { return last_cycles_; }
  // Kinds of the packets that left, in order (2 = data, 0/1 = inline/control).
  const std::vector<unsigned>& kinds() const { return kinds_; }
  uint64_t pkt_sent_pulses() const { return n_stat_; }
  uint64_t cycle() const { return ctrl_.cycle(); }
  const sim::MemModel& mem() const { return mem_; }

  void on_reset() override {
    m_.blk_valid_i = 0;
    m_.pkt_valid_i = 0;
    m_.req_tx_ready_i = 0;
  }

  void drive(uint64_t cycle) override {
    while (!later_.empty() && later_.front().first <= cycle) {
      pkts_.push_back(later_.front().second);
      later_.pop_front();
    }
    m_.blk_valid_i = !blks_.empty();
    if (!blks_.empty()) {
      const auto w = blks_.front().first.pack();
      for (unsigned i = 0; i < 8; ++i) m_.blk_desc_i[i] = uint32_t(w[i / 2] >> (32 * (i % 2)));
      m_.blk_tid_i = blks_.front().second;
    }
    m_.pkt_valid_i = !pkts_.empty();
    if (!pkts_.empty()) {
      const auto w = pkts_.front().pack();
      for (unsigned i = 0; i < 16; ++i) m_.pkt_data_i[i] = uint32_t(w[i / 2] >> (32 * (i % 2)));
    }
    m_.req_tx_ready_i = !(opt_.tx_stall_pct && rng_.range(0, 99) < opt_.tx_stall_pct);
  }

  void sample(uint64_t cycle) override {
    if (m_.blk_valid_i && m_.blk_ready_o) {
      chk_.on_block(blks_.front().first, blks_.front().second);
      blks_.pop_front();
    }
    if (m_.pkt_valid_i && m_.pkt_ready_o) {
      chk_.on_engine_packet(pkts_.front());
      pkts_.pop_front();
    }
    n_stat_ += m_.stat_pkt_sent_o;
    if (m_.req_tx_valid_o && m_.req_tx_ready_i) {
      cur_.beats.push_back(sim::wide_out(m_.req_tx_data_o).get<8>());
      if (m_.req_tx_last_o) {
        ++n_pkts_;
        last_cycles_.push_back(cycle);
        kinds_.push_back(cur_.head().kind);
        for (auto& e : chk_.on_tx(cur_))
          errors_.push_back("cycle " + std::to_string(cycle) + ": " + e);
        cur_.beats.clear();
      }
    }
  }

 private:
  Options opt_;
  sim::Rng rng_;
  VerilatedContext ctx_;
  sim::VerilatedDut<Vsend_unit> dut_;
  Vsend_unit& m_;
  sim::AxiTie tie_;  // the write channels the send unit does not have
  sim::EventBus bus_;
  sim::MemModel mem_;
  ni::SendChecker chk_;
  sim::SimCtrl ctrl_;
  std::deque<std::pair<BlockDesc, uint16_t>> blks_;
  std::deque<Packet> pkts_;
  std::deque<std::pair<uint64_t, Packet>> later_;
  std::vector<unsigned> kinds_;
  WirePacket cur_;
  std::vector<std::string> errors_;
  std::vector<uint64_t> last_cycles_;
  uint64_t n_pkts_ = 0, n_stat_ = 0;
};

BlockDesc make_block(uint64_t src, uint64_t dst, uint32_t len, uint16_t seq = 1) {
  BlockDesc b;
  b.src_addr = src;
  b.dst_addr = dst;
  b.len_m1 = static_cast<uint16_t>(len - 1);
  b.seq = seq;
  b.pd_id = seq % 16;
  b.xfer_id = seq % 2048;
  b.notify = seq % 3 == 0;
  b.retx = seq % 5 == 0;
  return b;
}

Packet make_engine_packet(sim::Rng& r, uint16_t seq) {
  Packet p;
  p.hdr.kind = static_cast<uint8_t>(r.range(0, 1));
  p.hdr.tid = static_cast<uint16_t>(r.range(0, 1023));
  p.hdr.seq = seq;
  p.hdr.len = p.hdr.kind == 1 ? 32 : static_cast<uint8_t>(r.range(1, 32));
  p.hdr.notify = r.range(0, 1);
  p.hdr.pd = static_cast<uint8_t>(r.range(0, 15));
  p.hdr.xfer_id = static_cast<uint16_t>(r.range(0, 2047));
  p.hdr.dst_addr = (r.range(0, 7) << 48) | (uint64_t{1} << 47) | r.range(0, (1u << 20));
  for (unsigned i = 0; i < p.hdr.len; ++i) p.payload[i] = static_cast<uint8_t>(r.range(0, 255));
  p.seal();
  return p;
}

void expect_clean(const Bench& b) {
  for (const auto& e : b.errors()) FAIL_CHECK(e);
  for (const auto& e : b.mem_errors()) FAIL_CHECK(e);
  CHECK(b.errors().empty());
  CHECK(b.mem_errors().empty());
  CHECK(b.pkt_sent_pulses() == b.packets());
}

}  // namespace

TEST_CASE("send unit: every source/destination alignment and length", "[send]") {
  Options o;
  Bench b(o);
  const unsigned offs[] = {0, 1, 31, 63};
  const unsigned lens[] = {1, 2, 63, 64, 65, 127, 1023, 1024, 1025, 2100};
  uint16_t seq = 0;
  unsigned expected = 0;
  for (unsigned so : offs)
    for (unsigned dof : offs)
      for (unsigned len : lens) {
        // destinations inside one 64 KiB window, sources 1 KiB-staggered
        const uint64_t dst = (uint64_t{1} << 48) | (uint64_t{1} << 47) | 0x20000 | (0x400 + dof);
        const uint64_t src = 0x100000 + 0x4000 * seq + so;
        ++seq;
        b.block(make_block(src, dst, len, seq), seq % 1024);
        expected += ni::block_npkts(dst, len);
      }
  REQUIRE(b.run());
  expect_clean(b);
  CHECK(b.packets() == expected);
}

TEST_CASE("send unit: bursts never cross 4 KiB; a packet's source may", "[send]") {
  Options o;
  Bench b(o);
  // source crosses 4 KiB inside one packet (src - dst alignment differs)
  b.block(make_block(0x1FF0, (uint64_t{1} << 47) | 0x400, 1024, 1), 1);
  b.block(make_block(0x3FFF, (uint64_t{1} << 47) | 0x10000, 4097, 2), 2);
  b.block(make_block(0xFFF, (uint64_t{1} << 47) | 0x23C00, 1, 3), 3);
  // a whole 64 KiB block
  b.block(make_block(0x50001, (uint64_t{2} << 48) | (uint64_t{1} << 47) | 0x30000, 65536, 4), 4);
  REQUIRE(b.run());
  expect_clean(b);
  CHECK(b.packets() == 1 + 5 + 1 + 64);
}

TEST_CASE("send unit: random blocks and engine packets, latency and back-pressure", "[send]") {
  const unsigned stall = GENERATE(0u, 30u);
  const unsigned lat = GENERATE(1u, 128u);
  Options o;
  o.seed = 7 + stall + lat;
  o.mem.rd_lat_min = 1;
  o.mem.rd_lat_max = lat;
  o.mem.ar_stall_pct = stall;
  o.tx_stall_pct = stall;
  Bench b(o);
  sim::Rng r(o.seed * 31);
  unsigned expected = 0;
  for (uint16_t i = 1; i <= 120; ++i) {
    const unsigned kind = r.range(0, 9);
    if (kind < 3) {
      b.packet(make_engine_packet(r, i));
      ++expected;
      continue;
    }
    const uint32_t len = kind < 6 ? uint32_t(r.range(1, 300)) : uint32_t(r.range(1, 16384));
    // a destination range inside one 64 KiB window (blocks never cross one)
    const uint64_t win = (uint64_t{1} << 47) | (r.range(0, 255) << 16);
    const uint64_t off = r.range(0, 65536 - len);
    const uint64_t src = r.range(0, (uint64_t{1} << 40));
    b.block(make_block(src, (r.range(0, 3) << 48) | win | off, len, i), i % 1024);
    expected += ni::block_npkts(win | off, len);
  }
  REQUIRE(b.run());
  expect_clean(b);
  CHECK(b.packets() == expected);
}

TEST_CASE(
    "send unit: line rate, one 1 KiB packet per 18 cycles at read latency 128, from the first",
    "[send]") {
  const unsigned src_off = GENERATE(0u, 1u, 37u, 63u);
  const unsigned block_bytes = GENERATE(16384u, 4096u, 1024u);
  Options o;
  o.mem.rd_lat_min = 128;
  o.mem.rd_lat_max = 128;
  Bench b(o);
  // consecutive sources, destinations 1 KiB aligned: 128 packets
  const unsigned per_block = block_bytes / 1024;
  const unsigned blocks = 128 / per_block;
  for (unsigned i = 0; i < blocks; ++i)
    b.block(make_block(0x100000 + uint64_t{block_bytes} * i + src_off,
                       (uint64_t{1} << 47) | (uint64_t{i} << 16), block_bytes, uint16_t(i + 1)),
            uint16_t(i));
  REQUIRE(b.run());
  expect_clean(b);
  const auto& c = b.last_beat_cycles();
  REQUIRE(c.size() == 128);
  INFO(block_bytes << " B blocks, source +" << src_off);
  // the first packet once its lines are back (latency 128, the head, 16 beats): every later
  // one 18 cycles after the one before, from the second packet on (no fill-up stalls)
  CHECK(c[0] <= 128 + 24);
  for (std::size_t i = 1; i < c.size(); ++i) {
    INFO("packet " << i);
    CHECK(c[i] - c[i - 1] == 18);
  }
}

TEST_CASE("send unit: a waiting engine packet goes first at the next packet boundary", "[send]") {
  Options o;
  o.mem.rd_lat_min = o.mem.rd_lat_max = 4;
  Bench b(o);
  sim::Rng r(5);
  // 4 packets of one block; the engine packet arrives while packet 0 is on the wire
  b.block(make_block(0x8000, (uint64_t{1} << 47) | 0x1000, 4096, 1), 1);
  b.packet_at(12, make_engine_packet(r, 2));
  // and two more while packet 2 is on the wire: both before packet 3, in order
  b.packet_at(50, make_engine_packet(r, 3));
  b.packet_at(51, make_engine_packet(r, 4));
  REQUIRE(b.run());
  expect_clean(b);
  const auto& k = b.kinds();
  REQUIRE(k.size() == 7);
  const auto& c = b.last_beat_cycles();
  INFO("packet ends at cycles " << c[0] << " " << c[1] << " " << c[2] << " " << c[3]);
  // packet 0 ends after cycle 12: the head packet follows it at once
  REQUIRE(c[0] > 12);
  CHECK(k[0] == 2);
  CHECK(k[1] <= 1);
  CHECK(c[1] == c[0] + 1);
  CHECK(k[2] == 2);
  CHECK(k[3] == 2);
  REQUIRE(c[3] > 51);
  CHECK(k[4] <= 1);
  CHECK(k[5] <= 1);
  CHECK(k[6] == 2);
}
