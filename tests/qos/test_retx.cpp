// SPDX-License-Identifier: Apache-2.0
// Retransmission (ICD 5 and 14, design.md 8.1): the timeout FSM scans the Pending
// Transactions Table one entry per cycle and re-issues a block unacknowledged for longer than
// the timeout; a NACK re-issues at once. A re-issue keeps the TID, takes the next seq and sets
// `retx`; the last block of a notifying transfer repeats its control packet; after MaxRetries
// re-issues of one block the transfer ends ERROR once its other blocks resolve, every ID back;
// responses to an old seq are stale. The golden model checks every cycle; the tests also
// check the timing the design note promises.
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x0BEEull << 48;
constexpr uint64_t kNaddr = 0x00000F00DBEEF000ull;
constexpr uint64_t kNtag = 0x0123456789ABCDEFull;

// The cycle the timeout FSM offers the timeout of a block of TID `tid` that left in cycle
// `left` (design.md 8.1): in cycle c it decides on TID (c-1) mod 1024, and fires when
// c - left > timeout.
uint64_t timeout_cycle(unsigned tid, uint64_t left, uint64_t timeout) {
  uint64_t c = left + timeout + 1;
  while ((c - 1) % ni::NumTids != tid) ++c;
  return c;
}

// The blocks of transfer x with `retx` set.
std::vector<Block> retx_blocks(const Env& env, unsigned x) {
  std::vector<Block> v;
  for (const Block& b : env.col.blocks_of(x)) {
    if (b.retx) v.push_back(b);
  }
  return v;
}

}  // namespace

TEST_CASE("retx: a timeout fires exactly at its cycle and re-issues the block", "[engine][retx]") {
  Env env(/*auto_ack=*/false);
  const uint64_t kTimeout = 300;
  env.set_timeout(kTimeout);
  const ni::Descriptor d = mem_desc(2, 3, ni::Kind::Tid, 0x1000, kNode | 0x20000, 5000);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_outputs(1);
  const Block b0 = env.col.blocks.at(0);
  CHECK_FALSE(b0.retx);
  const uint64_t tc = timeout_cycle(b0.tid, b0.cycle, kTimeout);
  // Nothing before the timeout: timeout event in tc, M1 tc+1, M2 tc+2 (re-issue request),
  // stage 1 tc+3, stage 2a tc+4, stage 2b (bypass to blk) tc+5.
  env.run_until([&] { return env.col.blocks.size() == 2; }, tc + 5 + 10 - env.cycle(), "re-issue");
  const Block b1 = env.col.blocks.at(1);
  CHECK(b1.cycle == tc + 5);
  CHECK(b1.retx);
  CHECK(b1.tid == b0.tid);
  CHECK(b1.seq == ((b0.seq + 1) & ni::SeqMask));
  CHECK(b1.src == b0.src);
  CHECK(b1.dst == b0.dst);
  CHECK(b1.len == b0.len);
  // The old seq is stale now; the new one completes the transfer.
  env.ack(b0);
  env.ack(b1);
  env.wait_status(2, 3, kDone);
  Stats s = env.stats();
  CHECK(s[kTimeouts] == 1);
  CHECK(s[kRetx] == 1);
  CHECK(s[kBlocksIssued] == 1);
  CHECK(s[kDropped] == 1);
  CHECK(s[kAcks] == 1);
  CHECK(s[kXfersDone] == 1);
  env.finish();
}

TEST_CASE("retx: the timeout keeps firing until MaxRetries, then ERROR", "[engine][retx]") {
  Env env(/*auto_ack=*/false);
  env.set_timeout(50);
  env.set_max_retries(2);
  const ni::Descriptor d = mem_desc(2, 4, ni::Kind::OneFid, 0x1000, kNode | 0x30000, 100);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  // The first block and 2 re-issues, then the third timeout ends it ERROR; FID back.
  env.wait_status(2, 4, kError, 10000);
  const std::vector<Block> bs = env.col.blocks_of(d.xfer());
  REQUIRE(bs.size() == 3);
  for (unsigned i = 0; i < 3; ++i) {
    CHECK(bs[i].tid == bs[0].tid);
    CHECK(bs[i].retx == (i > 0));
    // the first timeout when the scan next reaches the TID; then one scan (1024 cycles)
    // between two timeouts, as 50 < 1024
    if (i == 1) CHECK(bs[1].cycle == timeout_cycle(bs[0].tid, bs[0].cycle, 50) + 5);
    if (i == 2) CHECK(bs[2].cycle - bs[1].cycle == 1024);
  }
  Stats s = env.stats();
  CHECK(s[kTimeouts] == 3);
  CHECK(s[kRetx] == 2);
  CHECK(s[kXfersError] == 1);
  env.finish();
}

TEST_CASE("retx: NACK then ACK (block and inline packet)", "[engine][retx]") {
  Env env(/*auto_ack=*/false);
  // 2-block TID-only transfer: NACK block 1, it is re-issued at once with the next seq.
  const ni::Descriptor d = mem_desc(3, 0, ni::Kind::Tid, 0x40, kNode | 0x1FFF0, 0x20);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_outputs(2);
  const Block b0 = env.col.blocks.at(0), b1 = env.col.blocks.at(1);
  CHECK(b1.block_idx == 1);
  const std::size_t before = env.col.rsps.size();
  env.ack(b1, /*nack=*/true);
  const uint64_t nack_cycle = env.col.rsps.at(before).cycle;
  env.wait_outputs(3);
  const Block r = env.col.blocks.at(2);
  // response handshake t, M1 t+1, M2 t+2, stage 1 t+3, stage 2a t+4, 2b t+5 -> stage 3 t+6
  // (block 1)
  CHECK(r.cycle == nack_cycle + 6);
  CHECK(r.retx);
  CHECK(r.tid == b1.tid);
  CHECK(r.seq == ((b1.seq + 1) & ni::SeqMask));
  CHECK(r.block_idx == 1);
  CHECK(r.src == b1.src);
  CHECK(r.dst == b1.dst);
  CHECK(r.len == b1.len);
  env.ack(b1);  // the NACKed seq: stale
  env.ack(r);
  env.run(20);
  CHECK(env.tb.status(d.wch()) == kBusy);
  env.ack(b0);
  env.wait_status(3, 0, kDone);

  // Inline: NACK -> the packet again on pkt, same TID, next seq.
  const ni::Descriptor i = inline_desc(3, 1, 12, false, kNode | 0x500);
  REQUIRE(env.write_desc(i) == sim::kRespOkay);
  env.run_until([&] { return env.col.packets_of(i.xfer()).size() == 1; }, 100, "inline");
  const Packet p0 = env.col.packets_of(i.xfer())[0];
  env.ack(p0, true);
  env.run_until([&] { return env.col.packets_of(i.xfer()).size() == 2; }, 100, "re-issue");
  const Packet p1 = env.col.packets_of(i.xfer())[1];
  CHECK(p1.kind == 0);
  CHECK(p1.tid == p0.tid);
  CHECK(p1.seq == ((p0.seq + 1) & ni::SeqMask));
  CHECK(p1.payload == p0.payload);
  env.ack(p1);
  env.wait_status(3, 1, kDone);
  Stats s = env.stats();
  CHECK(s[kNacks] == 2);
  CHECK(s[kRetx] == 2);
  CHECK(s[kDropped] == 1);
  CHECK(s[kAcks] == 3);
  CHECK(s[kXfersDone] == 2);
  CHECK(s[kTimeouts] == 0);
  env.finish();
}

TEST_CASE("retx: NACK x MaxRetries -> ERROR with every ID back", "[engine][retx]") {
  Env env(/*auto_ack=*/false);
  // Default MaxRetries = 3: the first block, 3 re-issues, the 4th NACK ends the block.
  REQUIRE(env.read(ni::ctrl_addr(1)) == 3);
  SECTION("TID-only, 3 blocks: block 0 keeps failing, blocks 1 and 2 are ACKed") {
    const ni::Descriptor d = mem_desc(4, 5, ni::Kind::Tid, 0x0, kNode, 3 * kBlock);
    REQUIRE(env.write_desc(d) == sim::kRespOkay);
    env.wait_outputs(2);
    for (unsigned n = 0; n < 4; ++n) {
      const std::vector<Block> b0s = [&] {
        std::vector<Block> v;
        for (const Block& b : env.col.blocks_of(d.xfer()))
          if (b.block_idx == 0) v.push_back(b);
        return v;
      }();
      REQUIRE(b0s.size() == n + 1);
      CHECK(b0s.back().retx == (n > 0));
      env.ack(b0s.back(), true);
      env.run(10);
    }
    // Block 0 is gone as an error: block 1 resolves, no block 2 is issued, ERROR.
    CHECK(env.tb.status(d.wch()) == kBusy);
    env.ack_outstanding();
    env.wait_status(4, 5, kError);
    unsigned fresh = 0;
    for (const Block& b : env.col.blocks_of(d.xfer())) fresh += b.retx ? 0 : 1;
    CHECK(fresh == 2);
    Stats s = env.stats();
    CHECK(s[kNacks] == 4);
    CHECK(s[kRetx] == 3);
    CHECK(s[kXfersError] == 1);
  }
  SECTION("4xFID with notify: the last block keeps failing; base FID back") {
    const ni::Descriptor d =
        notify_desc(4, 6, ni::Kind::FourFid, 0x0, kNode | 0x8000, 0x10000, kNaddr, kNtag);
    REQUIRE(env.write_desc(d) == sim::kRespOkay);
    env.wait_outputs(2);
    const Block first = env.col.blocks_of(d.xfer())[0];
    env.ack(first);
    // the control packet follows the last block once block 0 is ACKed
    env.run_until([&] { return env.col.packets_of(d.xfer()).size() == 1; }, 100, "ctrl");
    for (unsigned n = 0; n < 4; ++n) {
      const Block last = env.col.blocks_of(d.xfer()).back();
      CHECK(last.block_idx == 1);
      env.ack(last, true);
      env.run(10);
    }
    env.wait_status(4, 6, kError);
    // every re-issue repeated the control packet with the block's new seq
    const std::vector<Packet> ps = env.col.packets_of(d.xfer());
    const std::vector<Block> rs = retx_blocks(env, d.xfer());
    REQUIRE(rs.size() == 3);
    REQUIRE(ps.size() == 4);
    for (unsigned n = 0; n < 3; ++n) {
      CHECK(ps[n + 1].kind == 1);
      CHECK(ps[n + 1].tid == rs[n].tid);
      CHECK(ps[n + 1].seq == rs[n].seq);
    }
  }
  env.finish();
}

TEST_CASE("retx: the last ACK lost -> block and control packet re-emitted", "[engine][retx]") {
  Env env(/*auto_ack=*/false);
  const uint64_t kTimeout = 200;
  env.set_timeout(kTimeout);
  const ni::Descriptor d =
      notify_desc(5, 2, ni::Kind::Tid, 0x0, kNode | 0x8000, 0x10000, kNaddr, kNtag);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_outputs(2);
  env.ack(env.col.blocks_of(d.xfer())[0]);
  env.run_until([&] { return env.col.packets_of(d.xfer()).size() == 1; }, 100, "ctrl");
  const Block last = env.col.blocks_of(d.xfer())[1];
  const Packet c0 = env.col.packets_of(d.xfer())[0];
  CHECK(c0.seq == last.seq);
  // The last block's ACK is lost: after the timeout, block and control packet again.
  const uint64_t tc = timeout_cycle(last.tid, last.cycle, kTimeout);
  env.run_until([&] { return env.col.packets_of(d.xfer()).size() == 2; }, tc + 50 - env.cycle(),
                "control packet again");
  const std::vector<Block> rs = retx_blocks(env, d.xfer());
  REQUIRE(rs.size() == 1);
  CHECK(rs[0].cycle == tc + 6);  // block 1: through stage 3
  CHECK(rs[0].tid == last.tid);
  CHECK(rs[0].notify);
  const Packet c1 = env.col.packets_of(d.xfer())[1];
  CHECK(c1.kind == 1);
  CHECK(c1.tid == last.tid);
  CHECK(c1.seq == rs[0].seq);
  CHECK(c1.payload == c0.payload);
  env.ack(rs[0]);
  env.wait_status(5, 2, kDone);
  Stats s = env.stats();
  CHECK(s[kTimeouts] == 1);
  CHECK(s[kRetx] == 1);
  CHECK(s[kCtrlPackets] == 1);  // first emissions; the repeat counts as part of the re-issue
  env.finish();
}

TEST_CASE("retx: a timeout racing an arriving ACK", "[engine][retx]") {
  Env env(/*auto_ack=*/false);
  const uint64_t kTimeout = 100;
  env.set_timeout(kTimeout);
  const ni::Descriptor d = mem_desc(6, 1, ni::Kind::Tid, 0x0, kNode | 0x40000, 64);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_outputs(1);
  const Block b = env.col.blocks.at(0);
  const uint64_t tc = timeout_cycle(b.tid, b.cycle, kTimeout);
  uint64_t timeouts = 0, retx = 0, dropped = 0;

  SECTION("ACK first: taken the cycle before the timeout event, which then vanishes") {
    env.run(tc - 1 - env.cycle());
    env.ack(b);  // offered from tc-1 on: handshake in tc-1
    CHECK(env.col.rsps.back().cycle == tc - 1);
  }
  SECTION("timeout first, ACK (old seq) before the re-issue: the ACK resolves the block") {
    // the timeout event takes M0 in tc (the response waits), the ACK follows in tc+1: it is
    // still valid (same seq), resolves the block and cancels the pending re-issue
    env.run(tc - 1 - env.cycle());
    env.tb.responder().script(env.cycle() + 1, uint16_t(b.tid), uint16_t(b.seq), false);
    env.run(3);
    REQUIRE(!env.col.rsps.empty());
    CHECK(env.col.rsps.back().cycle == tc + 1);
    timeouts = 1;
  }
  SECTION("timeout first, ACK after the re-issue: stale, the new seq completes") {
    env.run_until([&] { return env.col.blocks.size() == 2; }, tc + 10 - env.cycle(), "re-issue");
    CHECK(env.col.blocks[1].retx);
    env.ack(b);  // old seq
    env.ack(env.col.blocks[1]);
    timeouts = retx = dropped = 1;
  }
  env.wait_status(6, 1, kDone);
  env.run(2 * 1024);  // no late timeout of a resolved block
  CHECK(retx_blocks(env, d.xfer()).size() == retx);
  Stats s = env.stats();
  CHECK(s[kTimeouts] == timeouts);
  CHECK(s[kRetx] == retx);
  CHECK(s[kDropped] == dropped);
  CHECK(s[kAcks] == 1);
  env.finish();
}

TEST_CASE("retx: a re-issue held in stage 2b is dropped when its block resolves meanwhile",
          "[engine][retx]") {
  // Stage 2b re-checks a held re-issue against the resolves and clears of its entry in every
  // cycle it holds (design.md section 20, "The decision's split, built"): X's block is
  // NACKed while Y's block waits in stage 3 (blk_ready low), so X's re-issue waits in 2b; the
  // ACK of X's block (old seq, before the re-issue took a new one) resolves it and cancels
  // the re-issue, which must not leave when blk_ready returns.
  Env env(/*auto_ack=*/false);
  const ni::Descriptor x = mem_desc(6, 2, ni::Kind::Tid, 0x0, kNode | 0x50000, 64);
  REQUIRE(env.write_desc(x) == sim::kRespOkay);
  env.wait_outputs(1);
  const Block bx = env.col.blocks.at(0);
  env.hold_blk(true);
  const ni::Descriptor y = mem_desc(6, 3, ni::Kind::Tid, 0x1000, kNode | 0x60000, 64);
  REQUIRE(env.write_desc(y) == sim::kRespOkay);
  env.run(20);  // Y's block waits in stage 3
  REQUIRE(env.col.blocks.size() == 1);
  env.ack(bx, /*nack=*/true);
  env.run(8);   // the re-issue request has reached stage 2b, which holds it
  env.ack(bx);  // old seq, still the entry's: resolves the block
  env.run(10);  // 2b still holds the (now stale) re-issue
  env.hold_blk(false);
  env.run_until([&] { return env.col.blocks.size() == 2; }, 100, "Y's block");
  env.run(20);
  REQUIRE(env.col.blocks.size() == 2);
  CHECK(env.col.blocks[1].xfer == y.xfer());
  env.ack(env.col.blocks[1]);
  env.wait_status(6, 2, kDone);
  env.wait_status(6, 3, kDone);
  CHECK(retx_blocks(env, x.xfer()).empty());
  Stats s = env.stats();
  CHECK(s[kRetx] == 0);
  CHECK(s[kAcks] == 2);
  CHECK(s[kDropped] == 0);
  env.finish();
}

TEST_CASE("retx: a re-issue held in stage 2a is dropped when its block resolves meanwhile",
          "[engine][retx]") {
  // Stage 2a keeps a held re-issue request's pending flag current with the resolves and
  // clears of its own TID (design.md section 20): Y's block waits in stage 3 (blk_ready low),
  // Z's first block waits in stage 2b, so the re-issue request of X's NACKed block waits in
  // 2a; the ACK of X's block (old seq) resolves it there. X's TID is not 0 (W took TID 0
  // first and returned it), so a flag that followed another TID's clears would keep the
  // re-issue alive and it would leave when blk_ready returns.
  Env env(/*auto_ack=*/false);
  const ni::Descriptor w = mem_desc(6, 0, ni::Kind::Tid, 0x3000, kNode | 0x40000, 64);
  REQUIRE(env.write_desc(w) == sim::kRespOkay);
  env.wait_outputs(1);
  env.ack(env.col.blocks.at(0));
  env.wait_status(6, 0, kDone);
  const ni::Descriptor x = mem_desc(6, 1, ni::Kind::Tid, 0x0, kNode | 0x50000, 64);
  REQUIRE(env.write_desc(x) == sim::kRespOkay);
  env.wait_outputs(2);
  const Block bx = env.col.blocks.at(1);
  REQUIRE(bx.xfer == x.xfer());
  REQUIRE(bx.tid != 0);
  env.hold_blk(true);
  const ni::Descriptor y = mem_desc(6, 2, ni::Kind::Tid, 0x1000, kNode | 0x60000, 64);
  REQUIRE(env.write_desc(y) == sim::kRespOkay);
  const ni::Descriptor z = mem_desc(6, 3, ni::Kind::Tid, 0x2000, kNode | 0x70000, 64);
  REQUIRE(env.write_desc(z) == sim::kRespOkay);
  env.run(20);  // Y's block waits in stage 3, Z's in stage 2b
  REQUIRE(env.col.blocks.size() == 2);
  env.ack(bx, /*nack=*/true);
  env.run(8);   // the re-issue request has reached stage 2a, which holds it behind Z
  env.ack(bx);  // old seq, still the entry's: resolves the block
  env.run(10);  // 2a still holds the (now stale) re-issue
  env.hold_blk(false);
  env.run_until([&] { return env.col.blocks.size() == 4; }, 100, "Y's and Z's blocks");
  env.run(20);
  REQUIRE(env.col.blocks.size() == 4);
  CHECK(env.col.blocks[2].xfer == y.xfer());
  CHECK(env.col.blocks[3].xfer == z.xfer());
  env.ack(env.col.blocks[2]);
  env.ack(env.col.blocks[3]);
  env.wait_status(6, 1, kDone);
  env.wait_status(6, 2, kDone);
  env.wait_status(6, 3, kDone);
  CHECK(retx_blocks(env, x.xfer()).empty());
  Stats s = env.stats();
  CHECK(s[kRetx] == 0);
  CHECK(s[kAcks] == 4);
  CHECK(s[kDropped] == 0);
  env.finish();
}

TEST_CASE("retx: timeout 0 is off", "[engine][retx]") {
  Env env(/*auto_ack=*/false);
  REQUIRE(env.read(ni::ctrl_addr(0)) == 0);  // reset value: off
  const ni::Descriptor d = mem_desc(7, 7, ni::Kind::Tid, 0x0, kNode, 100);
  REQUIRE(env.write_desc(d) == sim::kRespOkay);
  env.wait_outputs(1);
  env.run(5000);
  CHECK(env.col.blocks.size() == 1);
  // switched on and off again before it could fire: still nothing
  env.set_timeout(3000);
  env.set_timeout(0);
  env.run(5000);
  CHECK(env.col.blocks.size() == 1);
  env.ack_outstanding();
  env.wait_status(7, 7, kDone);
  Stats s = env.stats();
  CHECK(s[kTimeouts] == 0);
  CHECK(s[kRetx] == 0);
  env.finish();
}

}  // namespace engine_test
