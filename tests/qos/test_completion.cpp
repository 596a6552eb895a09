// SPDX-License-Identifier: Apache-2.0
// Completion (ICD 5 and 7, design.md 6, 9 and 10, thesis 3.9.2 / 3.11): the control packet
// of a notifying transfer (kind 1, the last block's TID and seq, len 32, payload = notify
// address, tag, size, total blocks; CRC-32 checked with the test's own bitwise CRC), emitted
// once the last block is issued and total-1 ACKs have arrived, also when the last block's ACK
// comes first; DONE only after every ACK and the control packet. Stale-seq, unknown-TID and
// duplicate responses are dropped and counted with no other effect. With MaxRetries 0 a NACK
// turns the transfer to ERROR once its other blocks have resolved, and every ID comes back
// (re-issues: test_retx.cpp).
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x0ACEull << 48;
constexpr uint64_t kNaddr = 0x00000F00DBEEF000ull;
constexpr uint64_t kNtag = 0x5A5A5A5A12345678ull;

// The control packets and blocks of transfer x.
std::vector<Packet> ctrl_of(Env& env, unsigned x) {
  std::vector<Packet> v;
  for (const Packet& p : env.col.packets_of(x)) {
    if (p.kind == 1) v.push_back(p);
  }
  return v;
}

}  // namespace

TEST_CASE("completion: control packet of a 1-block transfer leaves right behind its block",
          "[engine][completion]") {
  Env env(/*auto_ack=*/false);
  const ni::Descriptor d =
      notify_desc(0, 2, ni::Kind::OneFid, 0x1234, kNode | 0xABCD00, 777, kNaddr, kNtag, 3);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_outputs(2);
  REQUIRE(env.col.blocks.size() == 1);
  const Block b = env.col.blocks[0];
  CHECK(b.tid == 512);  // FID 128
  CHECK(b.notify);
  const std::vector<Packet> c = ctrl_of(env, d.xfer());
  REQUIRE(c.size() == 1);
  check_ctrl_packet(c[0], d, 512, 0, 1);
  // Stage 2 writes block (stage-3 bypass) and control packet in one cycle (design.md 6); the
  // packet enters the packet queue's stage, then its FIFO: it leaves two cycles after the
  // block (design.md 10).
  CHECK(c[0].cycle == b.cycle + 2);
  env.run(20);
  CHECK(env.tb.status(d.wch()) == kBusy);  // the ACK is still missing
  env.ack(b);
  env.wait_status(0, 2, kDone);
  CHECK(env.col.status_cycle(d.wch(), kDone) > env.col.rsps.back().cycle);
  // The CRC again, over bytes laid out by hand: header (16) + notify address, tag, size,
  // total (the 32-byte payload).
  std::vector<uint8_t> bytes;
  const uint64_t h0 = 1u | (512ull << 4) | (0ull << 14) | (32ull << 28) | (1ull << 34) |
                      (0ull << 35) | (uint64_t(d.xfer()) << 39);
  const uint64_t words[6] = {h0, d.dst, kNaddr, kNtag, 777u | (1ull << 32), 0};
  for (uint64_t w : words) {
    for (unsigned i = 0; i < 8; ++i) bytes.push_back(uint8_t(w >> (8 * i)));
  }
  CHECK(c[0].raw[0] == h0);
  CHECK(c[0].crc == crc32_bitwise(bytes));
  env.finish();
}

TEST_CASE("completion: control packet after total-1 ACKs, whichever block is acknowledged first",
          "[engine][completion]") {
  Env env(/*auto_ack=*/false);
  SECTION("2 blocks, ACKs in order") {
    const ni::Descriptor d =
        notify_desc(1, 4, ni::Kind::Tid, 0x10, kNode | 0x18000, 0x10000, kNaddr, kNtag);
    REQUIRE(env.write_desc(d) == sim::kRespOkay);
    env.wait_outputs(2);  // both blocks (MaxOutstanding 2), no control packet yet
    const std::vector<Block> b = env.col.blocks_of(d.xfer());
    REQUIRE(b.size() == 2);
    env.run(20);
    CHECK(ctrl_of(env, d.xfer()).empty());
    env.ack(b[0]);
    env.run_until([&] { return !ctrl_of(env, d.xfer()).empty(); }, 50, "control packet");
    check_ctrl_packet(ctrl_of(env, d.xfer())[0], d, b[1].tid, b[1].seq, 2);
    env.run(20);
    CHECK(env.tb.status(d.wch()) == kBusy);
    env.ack(b[1]);
    env.wait_status(1, 4, kDone);
    CHECK(env.col.status_cycle(d.wch(), kDone) > ctrl_of(env, d.xfer())[0].cycle);
  }
  SECTION("2 blocks, the last block's ACK first") {
    const ni::Descriptor d =
        notify_desc(1, 6, ni::Kind::FourFid, 0x10, kNode | 0x18000, 0x10000, kNaddr, kNtag);
    REQUIRE(env.write_desc(d) == sim::kRespOkay);
    env.wait_outputs(2);
    const std::vector<Block> b = env.col.blocks_of(d.xfer());
    REQUIRE(b.size() == 2);
    CHECK(b[0].tid == 768);
    CHECK(b[1].tid == 772);
    env.ack(b[1]);
    env.run_until([&] { return !ctrl_of(env, d.xfer()).empty(); }, 50, "control packet");
    check_ctrl_packet(ctrl_of(env, d.xfer())[0], d, 772, b[1].seq, 2);
    env.run(20);
    CHECK(env.tb.status(d.wch()) == kBusy);  // block 0 still unacknowledged
    env.ack(b[0]);
    env.wait_status(1, 6, kDone);
    CHECK(env.col.status_cycle(d.wch(), kDone) > env.col.rsps.back().cycle);
  }
  SECTION("3 blocks, the last block's ACK before block 0's") {
    const ni::Descriptor d =
        notify_desc(1, 8, ni::Kind::OneFid, 0x10, kNode | 0x10000, 0x20001, kNaddr, kNtag);
    REQUIRE(env.write_desc(d) == sim::kRespOkay);
    env.wait_outputs(2);
    env.ack(env.col.blocks_of(d.xfer())[1]);  // frees an outstanding slot: block 2 goes
    env.run_until([&] { return env.col.blocks_of(d.xfer()).size() == 3; }, 50, "block 2");
    const std::vector<Block> b = env.col.blocks_of(d.xfer());
    CHECK(b[2].len == 1);
    env.run(20);
    CHECK(ctrl_of(env, d.xfer()).empty());  // 1 of 3 ACKs
    env.ack(b[2]);                          // the last block's: 2 of 3
    env.run_until([&] { return !ctrl_of(env, d.xfer()).empty(); }, 50, "control packet");
    check_ctrl_packet(ctrl_of(env, d.xfer())[0], d, b[2].tid, b[2].seq, 3);
    CHECK(b[2].tid == 514);
    env.run(20);
    CHECK(env.tb.status(d.wch()) == kBusy);
    env.ack(b[0]);
    env.wait_status(1, 8, kDone);
    CHECK(env.col.status_cycle(d.wch(), kDone) > env.col.rsps.back().cycle);
    CHECK(env.col.status_cycle(d.wch(), kDone) > ctrl_of(env, d.xfer())[0].cycle);
  }
  CHECK(env.stat(kCtrlPackets) == 1);
  env.finish();
}

TEST_CASE("completion: the control packet counts as emitted when written to the packet queue",
          "[engine][completion]") {
  // design.md 10: with the pkt port stalled, DONE may come while the control packet still
  // waits in the packet queue, never before it was made (pkt_valid_o high at DONE).
  Env env;
  struct PktValid : sim::Listener {
    std::vector<bool> at;  // pkt_valid per cycle
    void on_tap(const sim::TapEvent& t) override {
      if (at.size() <= t.cycle) at.resize(t.cycle + 1);
      at[t.cycle] = t.pkt_valid;
    }
  } pv;
  env.tb.bus().add(pv);
  const ni::Descriptor d = notify_desc(2, 0, ni::Kind::Tid, 0x10, kNode, 100, kNaddr, kNtag);
  env.stall_pkt(200);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_status(2, 0, kDone);
  const uint64_t done = env.col.status_cycle(d.wch(), kDone);
  CHECK(env.col.packets.empty());  // still stalled
  REQUIRE(done < pv.at.size());
  CHECK(pv.at[done]);
  env.run_until([&] { return env.col.packets.size() == 1; }, 300, "control packet");
  check_ctrl_packet(env.col.packets[0], d, 0, 0, 1);
  env.finish();
}

TEST_CASE("completion: stale-seq, unknown-TID and duplicate responses are dropped and counted",
          "[engine][completion]") {
  Env env(/*auto_ack=*/false);
  const ni::Descriptor d = mem_desc(3, 5, ni::Kind::Tid, 0x10, kNode, 100);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_outputs(1);
  const Block b = env.col.blocks[0];
  REQUIRE(b.tid == 0);
  REQUIRE(b.seq == 0);
  const std::size_t st0 = env.col.status.size();
  env.ack(0, 1);             // stale seq
  env.ack(0, 0x3FFF, true);  // stale seq, NACK: no error either
  env.ack(700, 0);           // 4xFID range, nothing pending
  env.ack(1, 0);             // TID-only TID not handed out
  env.ack(512, 0, true);     // 1xFID range, nothing pending
  env.run(10);
  CHECK(env.col.status.size() == st0);  // no status change
  CHECK(env.tb.status(d.wch()) == kBusy);
  Stats s = env.stats();
  CHECK(s[kDropped] == 5);
  CHECK(s[kAcks] == 0);
  CHECK(s[kNacks] == 0);
  CHECK(s[kXfersError] == 0);
  env.ack(b);  // the real one
  env.wait_status(3, 5, kDone);
  env.ack(b);  // duplicate: the entry is gone
  env.run(10);
  CHECK(env.tb.status(d.wch()) == kDone);
  CHECK(env.col.status.size() == st0 + 1);
  s = env.stats();
  CHECK(s[kDropped] == 6);
  CHECK(s[kAcks] == 1);
  CHECK(s[kXfersDone] == 1);
  // TID 0 went back to the TID FIFO once (not once per response): a 514-block transfer takes
  // 1..511, 0, then 1, 2 (returned by its own first ACKs).
  env.auto_mode();
  const ni::Descriptor big = mem_desc(3, 6, ni::Kind::Tid, 0x0, kNode | 0x1000000, 514 * 65536u);
  REQUIRE(env.write_desc(big) == sim::kRespOkay);
  env.wait_status(3, 6, kDone, 20000);
  const std::vector<Block> bb = env.col.blocks_of(big.xfer());
  REQUIRE(bb.size() == 514);
  CHECK(bb[510].tid == 511);
  CHECK(bb[511].tid == 0);
  CHECK(bb[512].tid == 1);
  CHECK(bb[513].tid == 2);
  env.finish();
}

// With MaxRetries 0 (ICD 14) a NACK re-issues nothing: the block resolves as an error at once
// and the transfer ends ERROR once its other blocks resolve. (With retries, test_retx.cpp.)
TEST_CASE(
    "completion: MaxRetries 0: NACK -> ERROR once the other blocks resolve; every ID "
    "comes back",
    "[engine][completion]") {
  Env env(/*auto_ack=*/false);
  env.set_max_retries(0);
  // TID-only, 4 blocks: NACK block 0 while block 1 is in flight -> no further block, ERROR at
  // block 1's ACK.
  const ni::Descriptor t = mem_desc(4, 0, ni::Kind::Tid, 0x0, kNode, 4 * 65536);
  REQUIRE(env.write_desc(t) == sim::kRespOkay);
  env.wait_outputs(2);
  env.ack(env.col.blocks[0], /*nack=*/true);
  env.run(30);
  CHECK(env.col.blocks.size() == 2);
  CHECK(env.tb.status(t.wch()) == kBusy);
  env.ack(env.col.blocks[1]);
  env.wait_status(4, 0, kError);
  env.run(30);
  CHECK(env.col.blocks_of(t.xfer()).size() == 2);  // blocks 2 and 3 never issued
  CHECK(env.status(4, 0) == kError);
  CHECK(env.status(4, 0) == kIdle);

  // 1xFID, 6 blocks: NACK block 1, ACK block 0 -> ERROR; FID 128 back to the 1xFID FIFO.
  const ni::Descriptor u = mem_desc(4, 2, ni::Kind::OneFid, 0x0, kNode, 6 * 65536);
  REQUIRE(env.write_desc(u) == sim::kRespOkay);
  env.run_until([&] { return env.col.blocks_of(u.xfer()).size() == 2; }, 100, "blocks");
  env.ack(env.col.blocks_of(u.xfer())[1], true);
  env.run(20);
  CHECK(env.tb.status(u.wch()) == kBusy);
  env.ack(env.col.blocks_of(u.xfer())[0]);
  env.wait_status(4, 2, kError);
  CHECK(env.col.blocks_of(u.xfer()).size() == 2);

  // 4xFID with notify, 2 blocks: NACK the last block first, then ACK block 0 -> ERROR and no
  // control packet; base 192 back to the 4xFID FIFO.
  const ni::Descriptor m =
      notify_desc(4, 4, ni::Kind::FourFid, 0x0, kNode | 0x8000, 0x10000, kNaddr, kNtag);
  REQUIRE(env.write_desc(m) == sim::kRespOkay);
  env.run_until([&] { return env.col.blocks_of(m.xfer()).size() == 2; }, 100, "blocks");
  env.ack(env.col.blocks_of(m.xfer())[1], true);
  env.run(20);
  env.ack(env.col.blocks_of(m.xfer())[0]);
  env.wait_status(4, 4, kError);
  env.run(20);
  CHECK(env.col.packets_of(m.xfer()).empty());

  // Notifying, 2 blocks: the last block's ACK first -> control packet; then a NACK of block
  // 0 -> ERROR all the same (the packet has gone: design.md 6 only suppresses it when the
  // error is known first).
  const ni::Descriptor n2 =
      notify_desc(4, 8, ni::Kind::Tid, 0x0, kNode | 0x8000, 0x10000, kNaddr, kNtag);
  REQUIRE(env.write_desc(n2) == sim::kRespOkay);
  env.run_until([&] { return env.col.blocks_of(n2.xfer()).size() == 2; }, 100, "blocks");
  env.ack(env.col.blocks_of(n2.xfer())[1]);
  env.run_until([&] { return env.col.packets_of(n2.xfer()).size() == 1; }, 100, "control packet");
  env.ack(env.col.blocks_of(n2.xfer())[0], true);
  env.wait_status(4, 8, kError);

  // Inline: NACK -> ERROR at once.
  const ni::Descriptor i = inline_desc(4, 6, 8, false, kNode);
  REQUIRE(env.write_desc(i) == sim::kRespOkay);
  env.run_until([&] { return env.col.packets_of(i.xfer()).size() == 1; }, 100, "inline packet");
  env.ack(env.col.packets_of(i.xfer())[0], true);
  env.wait_status(4, 6, kError);

  Stats s = env.stats();
  CHECK(s[kNacks] == 5);
  CHECK(s[kAcks] == 4);
  CHECK(s[kXfersError] == 5);
  CHECK(s[kXfersDone] == 0);
  CHECK(s[kCtrlPackets] == 1);
  CHECK(s[kBlocksIssued] == 8);

  // Every FID is reused: 64 unipath and 16 multipath transfers at once (immediate ACKs) take
  // the FIFO heads in the order they went live: 1xFID 129..191 then 128, 4xFID bases 196..252
  // then 192.
  env.auto_mode();
  std::vector<ni::Descriptor> ds;
  for (unsigned ch = 0; ch < 64; ++ch)
    ds.push_back(mem_desc(5, ch, ni::Kind::OneFid, 0x0, kNode | (ch << 16), 100));
  for (unsigned ch = 0; ch < 16; ++ch)
    ds.push_back(mem_desc(6, ch, ni::Kind::FourFid, 0x0, kNode | (ch << 16), 100));
  std::vector<sim::AxiWrite> ws;
  for (const auto& d : ds) ws.push_back(desc_writes(d).front());
  for (uint8_t r : env.write_all(ws)) REQUIRE(r == sim::kRespOkay);
  for (const auto& d : ds) env.wait_status(d.page, d.channel, kDone);
  for (unsigned ch = 0; ch < 64; ++ch) {
    INFO("1xFID transfer " << ch);
    const unsigned f = ch < 63 ? 129 + ch : 128;
    REQUIRE(env.col.blocks_of(ds[ch].xfer()).size() == 1);
    CHECK(env.col.blocks_of(ds[ch].xfer())[0].fid == f);
    CHECK(env.col.blocks_of(ds[ch].xfer())[0].tid == f << 2);
  }
  for (unsigned ch = 0; ch < 16; ++ch) {
    INFO("4xFID transfer " << ch);
    const unsigned g = ch < 15 ? 196 + 4 * ch : 192;
    REQUIRE(env.col.blocks_of(ds[64 + ch].xfer()).size() == 1);
    CHECK(env.col.blocks_of(ds[64 + ch].xfer())[0].fid == g);
  }
  // Every TID-only TID is reused: t took 0 and 1 (returned by the NACK and the ACK), n2 took
  // 2 and 3 (returned by the ACK of block 1, then the NACK of block 0), the inline packet 4
  // (returned by its NACK), so the TID FIFO holds 5..511, 0, 1, 3, 2, 4.
  const ni::Descriptor big = mem_desc(7, 0, ni::Kind::Tid, 0x0, kNode, 512 * 65536u);
  REQUIRE(env.write_desc(big) == sim::kRespOkay);
  env.wait_status(7, 0, kDone, 20000);
  const std::vector<Block> bb = env.col.blocks_of(big.xfer());
  REQUIRE(bb.size() == 512);
  CHECK(bb[0].tid == 5);
  CHECK(bb[506].tid == 511);
  CHECK(bb[507].tid == 0);
  CHECK(bb[508].tid == 1);
  CHECK(bb[509].tid == 3);
  CHECK(bb[510].tid == 2);
  CHECK(bb[511].tid == 4);
  env.finish();
}

}  // namespace engine_test
