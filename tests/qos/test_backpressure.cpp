// SPDX-License-Identifier: Apache-2.0
// Back-pressure on the blk and pkt ports (ICD 2: AXI-Stream rules, ICD 8 counters 11/12):
// while ready is low, valid stays high and the data stays stable (checked every cycle by a
// component that reads the ports directly), nothing is lost or reordered, and the stall
// counters count exactly the cycles with valid && !ready.
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x0BADull << 48;

// Watches blk_* and pkt_* every cycle (after the drivers set ready): a valid that was not
// taken must still be there the next cycle with the same data.
class PortChecker : public sim::Component {
 public:
  explicit PortChecker(const sim::QosEnginePorts& io) : io_(io) {}
  void sample(uint64_t cycle) override {
    const bool bv = *io_.blk.valid, br = *io_.blk.ready;
    const bool pv = *io_.pkt.valid, pr = *io_.pkt.ready;
    const std::array<uint64_t, 4> bd = io_.blk.desc.get<4>();
    const std::array<uint64_t, 8> pd = io_.pkt.data.get<8>();
    const unsigned bt = *io_.blk.tid;
    if (blk_held_) {
      if (!bv)
        blk_errors.push_back("cycle " + std::to_string(cycle) +
                             ": blk_valid_o dropped while not taken");
      else if (bd != blk_desc_ || bt != blk_tid_)
        blk_errors.push_back("cycle " + std::to_string(cycle) +
                             ": blk data changed while not taken");
    }
    if (pkt_held_) {
      if (!pv)
        pkt_errors.push_back("cycle " + std::to_string(cycle) +
                             ": pkt_valid_o dropped while not taken");
      else if (pd != pkt_data_)
        pkt_errors.push_back("cycle " + std::to_string(cycle) +
                             ": pkt data changed while not taken");
    }
    blk_held_ = bv && !br;
    pkt_held_ = pv && !pr;
    blk_desc_ = bd;
    blk_tid_ = bt;
    pkt_data_ = pd;
    blk_stalled += blk_held_ ? 1 : 0;
    pkt_stalled += pkt_held_ ? 1 : 0;
    blk_taken += (bv && br) ? 1 : 0;
    pkt_taken += (pv && pr) ? 1 : 0;
  }
  uint64_t blk_stalled = 0, pkt_stalled = 0, blk_taken = 0, pkt_taken = 0;
  std::vector<std::string> blk_errors, pkt_errors;

 private:
  sim::QosEnginePorts io_;
  bool blk_held_ = false, pkt_held_ = false;
  std::array<uint64_t, 4> blk_desc_{};
  unsigned blk_tid_ = 0;
  std::array<uint64_t, 8> pkt_data_{};
};

void require_clean(const PortChecker& pc) {
  for (std::size_t i = 0; i < pc.blk_errors.size() && i < 5; ++i) FAIL_CHECK(pc.blk_errors[i]);
  for (std::size_t i = 0; i < pc.pkt_errors.size() && i < 5; ++i) FAIL_CHECK(pc.pkt_errors[i]);
  REQUIRE(pc.blk_errors.empty());
  REQUIRE(pc.pkt_errors.empty());
}

// The blocks of each transfer, in order, against ICD 5 geometry (IDs aside: transfers
// interleave, so the test checks block fields that do not depend on the issue order).
void check_geometry(Env& env, const std::vector<ni::Descriptor>& ds) {
  for (const ni::Descriptor& d : ds) {
    INFO(d.to_string());
    const std::vector<Block> got = env.col.blocks_of(d.xfer());
    const std::vector<ExpBlock> exp = expected_blocks(d, 0, 0);
    REQUIRE(got.size() == exp.size());
    for (std::size_t k = 0; k < exp.size(); ++k) {
      CHECK(got[k].src == exp[k].src);
      CHECK(got[k].dst == exp[k].dst);
      CHECK(got[k].len == exp[k].len);
      CHECK(got[k].block_idx == exp[k].idx);
      if (k > 0) CHECK(got[k].seq > got[k - 1].seq);
    }
  }
}

}  // namespace

TEST_CASE("backpressure: blk port stalled, forced and random", "[engine][backpressure]") {
  Env env;
  PortChecker pc(env.tb.ports());
  env.tb.ctrl().add(pc);
  std::vector<ni::Descriptor> ds;
  for (unsigned i = 0; i < 24; ++i) {
    const ni::Kind k = i % 3 == 0   ? ni::Kind::Tid
                       : i % 3 == 1 ? ni::Kind::OneFid
                                    : ni::Kind::FourFid;
    ds.push_back(mem_desc(i / 8, 2 * i % 64, k, 0x1000000ull * i,
                          kNode | (0x100000000ull * i + 0x3000 * i), 70000 * (1 + i % 5),
                          uint8_t(i % 16)));
  }
  // A long stall from the start: the first block waits in stage 3 (and stage 2 behind it).
  env.stall_blk(400);
  std::vector<sim::AxiWrite> ws;
  for (const auto& d : ds) ws.push_back(desc_writes(d).front());
  for (uint8_t r : env.write_all(ws)) REQUIRE(r == sim::kRespOkay);
  env.run(100);
  CHECK(env.col.blocks.empty());
  // Then random stalls until everything is done.
  env.random_blk_stalls(30, 1, 12);
  for (const auto& d : ds) env.wait_status(d.page, d.channel, kDone, 50000);
  env.random_blk_stalls(0);
  require_clean(pc);
  check_geometry(env, ds);
  uint64_t total = 0;
  for (const auto& d : ds) total += total_blocks(d.dst, d.size);
  CHECK(env.col.blocks.size() == total);
  CHECK(pc.blk_taken == total);
  CHECK(pc.blk_stalled >= 390);  // the forced stall, from the first block (a few cycles in)
  const Stats st = env.stats();
  CHECK(st[kBlkStall] == pc.blk_stalled);
  CHECK(st[kPktStall] == 0);
  CHECK(st[kBlocksIssued] == total);
  env.finish();
}

TEST_CASE("backpressure: pkt port stalled past the packet queue's depth",
          "[engine][backpressure]") {
  Env env;
  PortChecker pc(env.tb.ports());
  env.tb.ctrl().add(pc);
  // 48 inline transfers (3 x PktFifoDepth) and 8 notifying memory transfers (control packets).
  std::vector<ni::Descriptor> ds;
  for (unsigned i = 0; i < 48; ++i)
    ds.push_back(inline_desc(i / 32, (i % 32) * 2, 1 + i % 32, i % 32 >= 16, kNode | i));
  std::vector<ni::Descriptor> ms;
  for (unsigned i = 0; i < 8; ++i) {
    ms.push_back(notify_desc(3, 2 * i, ni::Kind::Tid, 0x100 * i, kNode | (0x10000 * i), 100 + i,
                             0xA000 + i, 0xB000 + i));
  }
  env.stall_pkt(600);
  std::vector<sim::AxiWrite> ws;
  for (const auto& d : ds) ws.push_back(desc_writes(d).front());
  for (const auto& d : ms) ws.push_back(desc_writes(d).front());
  for (uint8_t r : env.write_all(ws)) REQUIRE(r == sim::kRespOkay);
  env.run(150);
  CHECK(env.col.packets.empty());
  env.random_pkt_stalls(40, 1, 8);
  for (const auto& d : ds) env.wait_status(d.page, d.channel, kDone, 50000);
  for (const auto& d : ms) env.wait_status(d.page, d.channel, kDone, 50000);
  // DONE counts a control packet written to the queue (design.md 10): wait for it to leave.
  env.run_until([&] { return env.col.packets.size() == 48 + 8; }, 5000, "the last packets");
  env.random_pkt_stalls(0);
  require_clean(pc);
  REQUIRE(env.col.packets.size() == 48 + 8);
  CHECK(pc.pkt_taken == 48 + 8);
  // Every packet intact and in order: the transfers went live in write order, all in the
  // TID-only queue, and no TID came back before its packet left: inline transfer n takes TID
  // and seq n, memory transfer i TID and seq 48 + i (its control packet carries them).
  unsigned n = 0;
  for (const Packet& p : env.col.packets) {
    if (p.kind != 0) continue;
    INFO("inline packet " << n);
    REQUIRE(n < ds.size());
    CHECK(p.xfer == ds[n].xfer());
    check_inline_packet(p, ds[n], n, n);
    ++n;
  }
  CHECK(n == 48);
  for (unsigned i = 0; i < ms.size(); ++i) {
    REQUIRE(env.col.packets_of(ms[i].xfer()).size() == 1);
    check_block(env.col.blocks_of(ms[i].xfer()).at(0),
                expected_blocks(ms[i], 48 + i, 0, {48 + i}).front());
    check_ctrl_packet(env.col.packets_of(ms[i].xfer())[0], ms[i], 48 + i, 48 + i, 1);
  }
  const Stats st = env.stats();
  CHECK(st[kPktStall] == pc.pkt_stalled);
  CHECK(pc.pkt_stalled >= 590);  // the forced stall, from the first packet
  CHECK(st[kBlkStall] == 0);
  env.finish();
}

TEST_CASE("backpressure: both ports stalled at random, mixed traffic", "[engine][backpressure]") {
  Env env(/*auto_ack=*/true, /*seed=*/7);
  PortChecker pc(env.tb.ports());
  env.tb.ctrl().add(pc);
  env.random_blk_stalls(20, 1, 16);
  env.random_pkt_stalls(20, 1, 16);
  env.auto_mode(/*lat=*/5, /*reorder_window=*/4);
  std::vector<ni::Descriptor> ds;
  for (unsigned i = 0; i < 64; ++i) {
    const unsigned page = 8 + i / 32, ch = (i % 32) * 2;
    switch (i % 4) {
      case 0:
        ds.push_back(inline_desc(page, ch, 1 + i % 32, i % 32 >= 16, kNode | i));
        break;
      case 1:
        ds.push_back(mem_desc(page, ch, ni::Kind::Tid, 0x10000ull * i,
                              kNode | (0x1000000ull * i + 0x100), 3 * 65536));
        break;
      case 2:
        ds.push_back(notify_desc(page, ch, ni::Kind::OneFid, 0x10000ull * i,
                                 kNode | (0x1000000ull * i), 150000, i, i));
        break;
      default:
        ds.push_back(mem_desc(page, ch, ni::Kind::FourFid, 0x10000ull * i,
                              kNode | (0x1000000ull * i + 0x8000), 9 * 65536));
        break;
    }
  }
  std::vector<sim::AxiWrite> ws;
  for (const auto& d : ds) ws.push_back(desc_writes(d).front());
  for (uint8_t r : env.write_all(ws)) REQUIRE(r == sim::kRespOkay);
  for (const auto& d : ds) env.wait_status(d.page, d.channel, kDone, 50000);
  env.random_blk_stalls(0);
  env.random_pkt_stalls(0);
  require_clean(pc);
  std::vector<ni::Descriptor> mem;
  for (const auto& d : ds) {
    if (d.kind != ni::Kind::Inline) mem.push_back(d);
  }
  check_geometry(env, mem);
  const Stats st = env.stats();
  CHECK(st[kBlkStall] == pc.blk_stalled);
  CHECK(st[kPktStall] == pc.pkt_stalled);
  CHECK(pc.blk_stalled > 0);
  CHECK(pc.pkt_stalled > 0);
  env.finish();
}

}  // namespace engine_test
