// SPDX-License-Identifier: Apache-2.0
// Every legal descriptor form (ICD 4, design.md 3): short and long, memory (TID-only, 1xFID,
// 4xFID) and inline (1..16 bytes short, 17..32 long, <= 16 written long), 64- and 128-bit
// beats, single-beat writes and bursts, every word order within a line, line 1 after line 0.
// Each transfer: B = OKAY for every write, status BUSY (read over AXI while its ACKs are
// withheld), DONE after the ACKs, and its blocks / packets field by field, worked out by hand
// from ICD 5-7 (one transfer at a time, so blocks take consecutive seqs and the TID FIFO
// hands out 0, 1, 2, ... in order).
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

// The engine's ID state as the test works it out: the next seq, the TID FIFO head (TID-only
// TIDs come back to the tail in issue order, so the FIFO hands out 0, 1, ..., 511, 0, ...),
// the 1xFID and 4xFID FIFO heads (each transfer returns its FID to the tail when it ends).
struct Ids {
  unsigned seq = 0;
  unsigned tid = 0;
  unsigned fid1 = 128;
  unsigned g4 = 192;
  std::vector<unsigned> take_tids(unsigned n) {
    std::vector<unsigned> v;
    for (unsigned i = 0; i < n; ++i) v.push_back((tid + i) % 512);
    return v;
  }
};

// Writes `d` with shape `s`, checks it end to end, updates `ids`.
void run_transfer(Env& env, Ids& ids, const ni::Descriptor& d, const Shape& s) {
  INFO(d.to_string() << ", width " << s.width << (s.bursts ? ", burst" : ", single-beat writes"));
  const std::size_t b0 = env.col.blocks.size();
  const std::size_t p0 = env.col.packets.size();
  const std::size_t s0 = env.col.status.size();
  const std::size_t r0 = env.col.rsps.size();
  for (uint8_t r : env.write_all(desc_writes(d, s))) REQUIRE(r == sim::kRespOkay);
  env.wait_outputs(b0 + p0 + 1);
  REQUIRE(env.status(d.page, d.channel) == kBusy);  // ACKs withheld: still BUSY
  env.ack_until_finished(d.page, d.channel);

  const std::vector<Block> blocks(env.col.blocks.begin() + std::ptrdiff_t(b0),
                                  env.col.blocks.end());
  const std::vector<Packet> pkts(env.col.packets.begin() + std::ptrdiff_t(p0),
                                 env.col.packets.end());
  if (d.kind == ni::Kind::Inline) {
    REQUIRE(blocks.empty());
    REQUIRE(pkts.size() == 1);  // no control packet for inline transfers, even with notify
    check_inline_packet(pkts[0], d, ids.tid, ids.seq);
    ids.tid = (ids.tid + 1) % 512;
    ids.seq += 1;
  } else {
    unsigned flow = 0;
    std::vector<unsigned> tids;
    const uint32_t total = total_blocks(d.dst, d.size);
    if (d.kind == ni::Kind::OneFid) flow = ids.fid1;
    if (d.kind == ni::Kind::FourFid) flow = ids.g4;
    if (d.kind == ni::Kind::Tid) tids = ids.take_tids(total);
    const std::vector<ExpBlock> exp = expected_blocks(d, ids.seq, flow, tids);
    REQUIRE(blocks.size() == exp.size());
    for (std::size_t k = 0; k < exp.size(); ++k) check_block(blocks[k], exp[k]);
    if (d.notify) {
      REQUIRE(pkts.size() == 1);
      check_ctrl_packet(pkts[0], d, exp.back().tid, exp.back().seq, total);
    } else {
      REQUIRE(pkts.empty());
    }
    ids.seq += total;
    if (d.kind == ni::Kind::Tid) ids.tid = (ids.tid + total) % 512;
    if (d.kind == ni::Kind::OneFid) ids.fid1 = ids.fid1 == 191 ? 128 : ids.fid1 + 1;
    if (d.kind == ni::Kind::FourFid) ids.g4 = ids.g4 == 252 ? 192 : ids.g4 + 4;
  }
  // Status: IDLE -> BUSY at the write, BUSY -> DONE only after the last response.
  std::vector<sim::StatusEvent> st;
  for (std::size_t i = s0; i < env.col.status.size(); ++i) st.push_back(env.col.status[i]);
  REQUIRE(st.size() == 2);
  CHECK(st[0].wch == d.wch());
  CHECK(st[0].from == kIdle);
  CHECK(st[0].to == kBusy);
  CHECK(st[1].wch == d.wch());
  CHECK(st[1].to == kDone);
  REQUIRE(env.col.rsps.size() > r0);
  CHECK(st[1].cycle > env.col.rsps.back().cycle);
  // The read returns DONE and clears it.
  CHECK(env.status(d.page, d.channel) == kDone);
  CHECK(env.status(d.page, d.channel) == kIdle);
}

constexpr uint64_t kNode = 0x00A5ull << 48;

}  // namespace

TEST_CASE("forms: memory descriptors, every kind, short and long, every beat width and write shape",
          "[engine][forms]") {
  Env env(/*auto_ack=*/false);
  Ids ids;
  const unsigned p = 2;
  const Shape burst16{16, true, {}};
  const Shape burst8{8, true, {}};
  const Shape single16{16, false, {}};
  const Shape single8{8, false, {}};
  uint64_t accepted = 0, blocks = 0, ctrl = 0;

  // Short TID-only, 4 blocks from an aligned dst: 3 x 64 KiB + 5 bytes, one 128-bit burst.
  // TIDs 0,1,2,3 (FIFO order after reset), seqs 0..3.
  {
    const ni::Descriptor d = mem_desc(p, 4, ni::Kind::Tid, 0x0000700000001000ull,
                                      kNode | 0x0000001234560000ull, 3 * 65536 + 5, 3);
    run_transfer(env, ids, d, burst16);
    const std::vector<Block> b = env.col.blocks_of(d.xfer());
    REQUIRE(b.size() == 4);
    // Spot-check the arithmetic literally as well.
    CHECK(b[0].tid == 0);
    CHECK(b[3].tid == 3);
    CHECK(b[3].seq == 3);
    CHECK(b[1].src == 0x0000700000011000ull);
    CHECK(b[3].dst == (kNode | 0x0000001234590000ull));
    CHECK(b[3].len == 5);
    CHECK(b[3].xfer == 2 * 128 + 4);
    accepted += 1;
    blocks += 4;
  }
  // Short 1xFID, 5 blocks, one 64-bit burst: FID 128, TIDs 512,513,514,515,512.
  {
    const ni::Descriptor d =
        mem_desc(p, 6, ni::Kind::OneFid, 0x10000, kNode | 0x50000, 5 * 65536, 9);
    run_transfer(env, ids, d, burst8);
    const std::vector<Block> b = env.col.blocks_of(d.xfer());
    REQUIRE(b.size() == 5);
    CHECK(b[0].tid == 512);
    CHECK(b[4].tid == 512);
    CHECK(b[4].fid == 128);
    CHECK(b[4].has_next == false);
    CHECK(b[4].chained == true);
    accepted += 1;
    blocks += 5;
  }
  // Short 4xFID, 6 blocks, two single-beat 128-bit writes: base 192, TIDs 768,772,776,780,769,773.
  {
    const ni::Descriptor d =
        mem_desc(p, 8, ni::Kind::FourFid, 0x2000000, kNode | 0x7770000, 6 * 65536, 15);
    run_transfer(env, ids, d, single16);
    const std::vector<Block> b = env.col.blocks_of(d.xfer());
    REQUIRE(b.size() == 6);
    CHECK(b[4].tid == 769);
    CHECK(b[5].tid == 773);
    CHECK(b[5].fid == 193);
    accepted += 1;
    blocks += 6;
  }
  // Long TID-only with notify, 2 blocks (dst 0x8000 into a block), eight single 64-bit writes:
  // control packet with block 1's TID and seq.
  {
    const ni::Descriptor d =
        notify_desc(p, 10, ni::Kind::Tid, 0x123456789A0ull, kNode | 0x0000000000ab8000ull, 0x9000,
                    0xFEEDFACECAFEBEEFull, 0x0123456789ABCDEFull, 5);
    run_transfer(env, ids, d, single8);
    accepted += 1;
    blocks += 2;
    ctrl += 1;
  }
  // Long 1xFID with notify, 1 block, one 4-beat 128-bit burst over both lines: FID 129 (128
  // went back to the tail), TID 516; the control packet leaves with the block.
  {
    const ni::Descriptor d =
        notify_desc(p, 12, ni::Kind::OneFid, 0x40, kNode | 0x10, 100, 0x1000, 0x2000, 7);
    run_transfer(env, ids, d, burst16);
    const std::vector<Block> b = env.col.blocks_of(d.xfer());
    REQUIRE(b.size() == 1);
    CHECK(b[0].tid == 516);
    CHECK(b[0].fid == 129);
    CHECK(b[0].notify);
    CHECK_FALSE(b[0].has_next);
    CHECK_FALSE(b[0].chained);
    accepted += 1;
    blocks += 1;
    ctrl += 1;
  }
  // Long 4xFID with notify, 3 blocks, one 8-beat 64-bit burst: base 196 -> TIDs 784,788,792.
  {
    const ni::Descriptor d =
        notify_desc(p, 14, ni::Kind::FourFid, 0xABC0000, kNode | 0xFFFF0000ull + 0x100,
                    2 * 65536 + 1, 0x5555, 0xAAAA, 12);
    run_transfer(env, ids, d, burst8);
    const std::vector<Block> b = env.col.blocks_of(d.xfer());
    REQUIRE(b.size() == 3);
    CHECK(b[0].tid == 784);
    CHECK(b[1].tid == 788);
    CHECK(b[2].tid == 792);
    CHECK(b[2].fid == 198);
    accepted += 1;
    blocks += 3;
    ctrl += 1;
  }
  // Long memory descriptor without notify (legal: R6 only forbids notify on a short one),
  // single 128-bit writes: no control packet.
  {
    ni::Descriptor d = mem_desc(p, 16, ni::Kind::Tid, 0x777, kNode | 0x123, 64, 1);
    d.long_mode = ni::LongMode::Long;
    d.notify_addr = 0x9999;  // carried, unused
    run_transfer(env, ids, d, single16);
    accepted += 1;
    blocks += 1;
  }
  // 1-byte TID-only transfer, each word a one-lane 16-byte beat.
  {
    const ni::Descriptor d =
        mem_desc(p, 17, ni::Kind::Tid, 0xDEAD0000BEEFull, kNode | 0xFFFF, 1, 0);
    std::vector<sim::AxiWrite> ws;
    const std::vector<uint64_t> w = d.encode();
    for (unsigned i = 0; i < 4; ++i) ws.push_back(word_write(word_addr(p, 17, i), w[i], 16));
    for (uint8_t r : env.write_all(ws)) REQUIRE(r == sim::kRespOkay);
    env.wait_outputs(env.col.outputs() + 1);
    env.ack_until_finished(p, 17);
    const Block b = env.col.blocks.back();
    ExpBlock e = expected_blocks(d, ids.seq, 0, ids.take_tids(1)).front();
    check_block(b, e);
    CHECK(b.len == 1);
    ids.seq += 1;
    ids.tid += 1;
    CHECK(env.status(p, 17) == kDone);
    accepted += 1;
    blocks += 1;
  }
  // A 16-byte burst that starts on an odd word (upper-lane-only first beat): w1..w3 of the
  // line after w0 written alone.
  {
    const ni::Descriptor d = mem_desc(p, 19, ni::Kind::OneFid, 0x5000, kNode | 0x20000, 70000, 2);
    const std::vector<uint64_t> w = d.encode();
    for (uint8_t r : env.write_all({word_write(word_addr(p, 19, 0), w[0]),
                                    burst(word_addr(p, 19, 1), {w[1], w[2], w[3]}, 16)})) {
      REQUIRE(r == sim::kRespOkay);
    }
    env.wait_outputs(env.col.outputs() + 1);
    env.ack_until_finished(p, 19);
    const std::vector<Block> b = env.col.blocks_of(d.xfer());
    const std::vector<ExpBlock> e = expected_blocks(d, ids.seq, ids.fid1);
    REQUIRE(b.size() == 2);
    check_block(b[0], e[0]);
    check_block(b[1], e[1]);
    CHECK(b[1].len == 70000 - 65536);
    ids.seq += 2;
    ids.fid1 += 1;
    CHECK(env.status(p, 19) == kDone);
    accepted += 1;
    blocks += 2;
  }

  const Stats st = env.stats();
  CHECK(st[kDescAccepted] == accepted);
  CHECK(st[kWritesRejected] == 0);
  CHECK(st[kBlocksIssued] == blocks);
  CHECK(st[kCtrlPackets] == ctrl);
  CHECK(st[kInlinePackets] == 0);
  CHECK(st[kAcks] == blocks);
  CHECK(st[kXfersDone] == accepted);
  CHECK(st[kXfersError] == 0);
  env.finish();
}

TEST_CASE("forms: inline descriptors of 1..32 bytes, short, long and <= 16 written long",
          "[engine][forms]") {
  Env env(/*auto_ack=*/false);
  Ids ids;
  unsigned n = 0;
  const Shape shapes[] = {{16, true, {}}, {8, true, {}}, {16, false, {}}, {8, false, {}}};
  auto one = [&](uint32_t size, bool is_long, bool notify) {
    const unsigned page = 5 + n % 3;
    const unsigned ch = (2 * n) % 64;  // even: long ones need it
    const ni::Descriptor d =
        inline_desc(page, ch, size, is_long, (uint64_t(0x1000 + n) << 48) | (0x100 * n), notify);
    run_transfer(env, ids, d, shapes[n % 4]);
    ++n;
  };
  for (uint32_t s = 1; s <= 16; ++s) one(s, false, s % 5 == 0);
  for (uint32_t s = 17; s <= 32; ++s) one(s, true, s % 7 == 0);
  for (uint32_t s = 1; s <= 16; ++s) one(s, true, s == 16);

  const Stats st = env.stats();
  CHECK(st[kDescAccepted] == n);
  CHECK(st[kInlinePackets] == n);
  CHECK(st[kBlocksIssued] == 0);
  CHECK(st[kCtrlPackets] == 0);
  CHECK(st[kAcks] == n);
  CHECK(st[kXfersDone] == n);
  env.finish();
}

TEST_CASE("forms: all 24 word orders of a line, with 64-bit and 128-bit beats", "[engine][forms]") {
  Env env(/*auto_ack=*/false);
  Ids ids;
  std::vector<unsigned> perm = {0, 1, 2, 3};
  unsigned n = 0;
  do {
    // Inline (the payload words show where each word landed) and memory, alternately; each
    // word an 8-byte single-beat write, or a one-lane 16-byte write.
    const unsigned ch = n % 64;
    ni::Descriptor d = (n % 2 == 0) ? inline_desc(1, ch, 16, false, kNode | n)
                                    : mem_desc(1, ch, ni::Kind::Tid, 0x1000 * n,
                                               kNode | (0x10000 * n + 0x40 * n), 100 + n);
    const std::vector<uint64_t> w = d.encode();
    INFO("word order " << perm[0] << perm[1] << perm[2] << perm[3]);
    const std::size_t p0 = env.col.packets.size(), b0 = env.col.blocks.size();
    for (unsigned j = 0; j < 4; ++j) {
      REQUIRE(env.write(word_write(word_addr(1, ch, perm[j]), w[perm[j]], n % 3 == 0 ? 16 : 8)) ==
              sim::kRespOkay);
      // The transfer goes live with the fourth word only.
      CHECK(env.tb.status(d.wch()) == (j < 3 ? kIdle : kBusy));
    }
    env.wait_outputs(p0 + b0 + 1);
    env.ack_until_finished(1, ch);
    if (d.kind == ni::Kind::Inline) {
      REQUIRE(env.col.packets.size() == p0 + 1);
      check_inline_packet(env.col.packets.back(), d, ids.tid, ids.seq);
    } else {
      REQUIRE(env.col.blocks.size() == b0 + 1);
      check_block(env.col.blocks.back(), expected_blocks(d, ids.seq, 0, ids.take_tids(1)).front());
    }
    ids.seq += 1;
    ids.tid += 1;
    CHECK(env.status(1, ch) == kDone);
    ++n;
  } while (std::next_permutation(perm.begin(), perm.end()));
  REQUIRE(n == 24);

  // 128-bit beats: both window orders, for a short and (each line) a long descriptor.
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned ch = 40 + 2 * k;
    const bool is_long = k >= 2;
    const ni::Descriptor d = inline_desc(3, ch, is_long ? 29 : 13, is_long, kNode | k);
    const std::vector<unsigned> order =
        !is_long ? (k == 0 ? std::vector<unsigned>{1, 0} : std::vector<unsigned>{0, 1})
                 : (k == 2 ? std::vector<unsigned>{1, 0, 3, 2} : std::vector<unsigned>{0, 1, 3, 2});
    run_transfer(env, ids, d, Shape{16, false, order});
  }
  // Long descriptors, 64-bit words: line 0 in one order, then line 1 in another.
  const std::vector<std::vector<unsigned>> long_orders = {{3, 2, 1, 0, 7, 6, 5, 4},
                                                          {1, 3, 0, 2, 6, 4, 7, 5},
                                                          {2, 0, 3, 1, 4, 7, 5, 6},
                                                          {0, 1, 2, 3, 7, 4, 6, 5}};
  for (unsigned k = 0; k < long_orders.size(); ++k) {
    const unsigned ch = 50 + 2 * k;
    const ni::Descriptor d = k % 2 == 0
                                 ? inline_desc(3, ch, 17 + k, true, kNode | (k << 8))
                                 : notify_desc(3, ch, ni::Kind::Tid, 0x10 * k,
                                               kNode | (0x30000 + k), 1000 * k, 0xA0 + k, 0xB0 + k);
    run_transfer(env, ids, d, Shape{8, false, long_orders[k]});
  }
  CHECK(env.stat(kWritesRejected) == 0);
  env.finish();
}

TEST_CASE("forms: the last page and write channels (xfer 1982/1983, write channels 1022/1023)",
          "[engine][forms]") {
  Env env(/*auto_ack=*/false);
  const ni::Descriptor l =
      notify_desc(15, 62, ni::Kind::FourFid, 0xF00, kNode | 0xF0000, 65537, 0xAB, 0xCD, 15);
  REQUIRE(env.write_desc(l) == sim::kRespOkay);
  env.wait_outputs(2);
  const ni::Descriptor s63 = inline_desc(15, 63, 16, false, kNode | 0xF);
  REQUIRE(env.write_desc(s63) == sim::kRespSlverr);  // R3: (15,62) holds a live long descriptor
  const std::vector<Block> b = env.col.blocks_of(1982);
  REQUIRE(b.size() == 2);
  CHECK(b[0].xfer == 15 * 128 + 62);
  CHECK(b[0].pd == 15);
  CHECK(env.status32(15, 1) == (uint64_t{kBusy} << 60));  // channel 62 = bit pair 30 of half 1
  env.ack_until_finished(15, 62);
  REQUIRE(env.col.packets_of(1982).size() == 1);
  check_ctrl_packet(env.col.packets_of(1982)[0], l, b[1].tid, b[1].seq, 2);
  REQUIRE(env.write_desc(s63) == sim::kRespOkay);
  env.wait_outputs(4);
  env.ack_until_finished(15, 63);
  REQUIRE(env.col.packets_of(1983).size() == 1);
  CHECK(env.col.packets_of(1983)[0].pd == 15);
  CHECK(env.col.packets_of(1983)[0].xfer == 1983);
  CHECK(env.status32(15, 1) == ((uint64_t{kDone} << 62) | (uint64_t{kDone} << 60)));
  CHECK(env.status32(15, 1) == 0);
  env.finish();
}

}  // namespace engine_test
