// SPDX-License-Identifier: Apache-2.0
// Transaction and flow IDs (thesis 3.8, ICD 5): the worked example of the thesis, 1xFID TIDs
// cycling through their flow's four TIDs, the TID FIFO's order and the return of TIDs to its
// tail, FIDs back to their FIFO's tail when a transfer ends, and the rule that a
// congestion-managed TID is never reused while its previous block is unacknowledged.
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x0308ull << 48;

std::vector<unsigned> tids_of(const std::vector<Block>& bs) {
  std::vector<unsigned> v;
  for (const Block& b : bs) v.push_back(b.tid);
  return v;
}

}  // namespace

TEST_CASE("ids: thesis 3.8 example, 16-block 4xFID transfer after reset; 1xFID TIDs cycle",
          "[engine][ids]") {
  Env env;  // immediate ACKs
  // 16 blocks of 64 KiB from an aligned dst.
  const ni::Descriptor m =
      mem_desc(0, 0, ni::Kind::FourFid, 0x100000, kNode | 0x1000000, 16 * 65536);
  REQUIRE(env.write_desc(m) == sim::kRespOkay);
  env.wait_status(0, 0, kDone);
  const std::vector<Block> b = env.col.blocks_of(m.xfer());
  REQUIRE(b.size() == 16);
  const std::vector<unsigned> thesis = {768, 772, 776, 780, 769, 773, 777, 781,
                                        770, 774, 778, 782, 771, 775, 779, 783};
  CHECK(tids_of(b) == thesis);
  for (unsigned k = 0; k < 16; ++k) {
    INFO("block " << k);
    CHECK(b[k].fid == 192 + k % 4);
    CHECK(b[k].seq == k);
    CHECK(b[k].block_idx == k);
    CHECK(b[k].dst == (kNode | (0x1000000 + 0x10000ull * k)));
    CHECK(b[k].src == 0x100000 + 0x10000ull * k);
  }

  // A 10-block unipath transfer: FID 128, TIDs 512,513,514,515,512,...
  const ni::Descriptor u = mem_desc(0, 1, ni::Kind::OneFid, 0x0, kNode | 0x2000000, 10 * 65536);
  REQUIRE(env.write_desc(u) == sim::kRespOkay);
  env.wait_status(0, 1, kDone);
  const std::vector<Block> ub = env.col.blocks_of(u.xfer());
  CHECK(tids_of(ub) == std::vector<unsigned>{512, 513, 514, 515, 512, 513, 514, 515, 512, 513});
  for (const Block& x : ub) CHECK(x.fid == 128);
  CHECK(ub.front().seq == 16);
  CHECK(ub.back().seq == 25);

  // The FIDs went back to their FIFO tails: the next transfers get 4xFID base 196 and FID 129.
  const ni::Descriptor m2 = mem_desc(0, 2, ni::Kind::FourFid, 0x0, kNode | 0x3000000, 5 * 65536);
  const ni::Descriptor u2 = mem_desc(0, 3, ni::Kind::OneFid, 0x0, kNode | 0x4000000, 2 * 65536);
  REQUIRE(env.write_desc(m2) == sim::kRespOkay);
  env.wait_status(0, 2, kDone);
  REQUIRE(env.write_desc(u2) == sim::kRespOkay);
  env.wait_status(0, 3, kDone);
  CHECK(tids_of(env.col.blocks_of(m2.xfer())) == std::vector<unsigned>{784, 788, 792, 796, 785});
  CHECK(tids_of(env.col.blocks_of(u2.xfer())) == std::vector<unsigned>{516, 517});
  env.finish();
}

TEST_CASE("ids: TID-only blocks take TIDs in FIFO order; returned TIDs go to the tail",
          "[engine][ids]") {
  Env env(/*auto_ack=*/false);
  // Three 1-block TID-only transfers: TIDs 0, 1, 2.
  std::vector<ni::Descriptor> abc;
  for (unsigned i = 0; i < 3; ++i) {
    abc.push_back(mem_desc(1, i, ni::Kind::Tid, 0x1000 * i, kNode | (0x10000 * i), 10 + i));
    REQUIRE(env.write_desc(abc.back()) == sim::kRespOkay);
  }
  env.wait_outputs(3);
  REQUIRE(tids_of(env.col.blocks) == std::vector<unsigned>{0, 1, 2});
  // Answered in the order C, A, B: the FIFO is then 3..511, 2, 0, 1.
  env.ack(env.col.blocks[2]);
  env.ack(env.col.blocks[0]);
  env.ack(env.col.blocks[1]);
  for (unsigned i = 0; i < 3; ++i) env.wait_status(1, i, kDone);
  // A 515-block TID-only transfer with immediate ACKs: TIDs 3..511 (509 blocks), then 2, 0, 1,
  // then 3, 4, 5 (returned by this transfer's own first ACKs, behind 2, 0, 1).
  env.auto_mode();
  const ni::Descriptor big =
      mem_desc(1, 10, ni::Kind::Tid, 0x0, kNode | 0x100000000ull, 515 * 65536u);
  REQUIRE(env.write_desc(big) == sim::kRespOkay);
  env.wait_status(1, 10, kDone, 20000);
  const std::vector<Block> b = env.col.blocks_of(big.xfer());
  REQUIRE(b.size() == 515);
  std::vector<unsigned> want;
  for (unsigned t = 3; t <= 511; ++t) want.push_back(t);
  for (unsigned t : {2u, 0u, 1u, 3u, 4u, 5u}) want.push_back(t);
  CHECK(tids_of(b) == want);
  for (unsigned k = 0; k < 515; ++k) {
    if (b[k].seq != 3 + k)
      FAIL_CHECK("block " << k << ": seq " << b[k].seq << ", expected " << 3 + k);
  }
  env.finish();
}

TEST_CASE(
    "ids: a congestion-managed TID still in flight is not reused; the transfer waits without "
    "blocking others",
    "[engine][ids]") {
  Env env(/*auto_ack=*/false);
  // Unipath, 6 blocks: FID 128, TIDs 512,513,514,515,512,513. MaxOutstanding = 2.
  const ni::Descriptor u = mem_desc(2, 0, ni::Kind::OneFid, 0x0, kNode, 6 * 65536, 4);
  REQUIRE(env.write_desc(u) == sim::kRespOkay);
  env.wait_outputs(2);
  auto blk = [&](unsigned k) { return env.col.blocks_of(u.xfer()).at(k); };
  REQUIRE(blk(0).tid == 512);
  REQUIRE(blk(1).tid == 513);
  env.run(30);
  REQUIRE(env.col.blocks.size() == 2);  // two in flight: waits for an ACK
  // ACK blocks 1, 2, 3 as they come; block 0 (TID 512) stays unacknowledged.
  env.ack(blk(1));
  env.wait_outputs(3);
  CHECK(blk(2).tid == 514);
  env.ack(blk(2));
  env.wait_outputs(4);
  CHECK(blk(3).tid == 515);
  env.ack(blk(3));
  // Block 4 needs TID 512 again, whose block 0 is unacknowledged: nothing is issued...
  env.run(50);
  CHECK(env.col.blocks_of(u.xfer()).size() == 4);
  // ...while another unipath transfer of the same priority goes ahead: FID 129, TIDs 516, 517.
  const ni::Descriptor v = mem_desc(2, 1, ni::Kind::OneFid, 0x0, kNode | 0x100000, 2 * 65536, 4);
  REQUIRE(env.write_desc(v) == sim::kRespOkay);
  env.run_until([&] { return env.col.blocks_of(v.xfer()).size() == 2; }, 200,
                "the other transfer's blocks");
  CHECK(tids_of(env.col.blocks_of(v.xfer())) == std::vector<unsigned>{516, 517});
  CHECK(env.col.blocks_of(v.xfer())[0].seq == 4);  // u's blocks 0..3 took seqs 0..3
  CHECK(env.col.blocks_of(v.xfer())[1].seq == 5);
  CHECK(env.col.blocks_of(u.xfer()).size() == 4);
  // The ACK of block 0 releases TID 512: block 4 goes with it, then block 5 with 513.
  env.ack(blk(0));
  env.run_until([&] { return env.col.blocks_of(u.xfer()).size() == 6; }, 200, "blocks 4 and 5");
  CHECK(blk(4).tid == 512);
  CHECK(blk(5).tid == 513);
  CHECK(blk(4).seq == 6);
  CHECK(blk(5).seq == 7);
  env.ack(blk(4));
  env.ack(blk(5));
  for (const Block& x : env.col.blocks_of(v.xfer())) env.ack(x);
  env.wait_status(2, 0, kDone);
  env.wait_status(2, 1, kDone);
  env.finish();
}

TEST_CASE("ids: a 4xFID transfer's block 16 waits for block 0's ACK (same TID)", "[engine][ids]") {
  Env env(/*auto_ack=*/false);
  // 18 blocks, base 192: block k's TID is ((192 + k%4) << 2) + (k/4)%4, so block 16 reuses
  // block 0's TID 768. Block 0 stays unacknowledged; every other block is ACKed as it comes.
  const ni::Descriptor m = mem_desc(3, 0, ni::Kind::FourFid, 0x0, kNode, 18 * 65536, 6);
  REQUIRE(env.write_desc(m) == sim::kRespOkay);
  auto blocks = [&] { return env.col.blocks_of(m.xfer()); };
  env.run_until([&] { return blocks().size() == 2; }, 100, "blocks 0 and 1");
  for (unsigned k = 1; k <= 14; ++k) {
    env.ack(blocks().at(k));  // frees a slot: block k+1 goes
    env.run_until([&] { return blocks().size() == k + 2; }, 100, "next block");
  }
  REQUIRE(blocks().size() == 16);
  CHECK(blocks()[15].tid == 783);
  env.ack(blocks()[15]);  // a slot is free, but block 16 needs TID 768: it waits
  env.run(50);
  CHECK(blocks().size() == 16);
  env.ack(blocks()[0]);  // TID 768 free: blocks 16 (768) and 17 (772) go
  env.run_until([&] { return blocks().size() == 18; }, 100, "blocks 16 and 17");
  CHECK(blocks()[16].tid == 768);
  CHECK(blocks()[16].fid == 192);
  CHECK(blocks()[17].tid == 772);
  CHECK(blocks()[16].seq == 16);
  env.ack(blocks()[16]);
  env.ack(blocks()[17]);
  env.wait_status(3, 0, kDone);
  env.finish();
}

TEST_CASE(
    "ids: a queue whose IDs have run out waits; the others go on; returned IDs are taken at once",
    "[engine][ids]") {
  // ICD 5: "A queue is eligible only when the IDs it needs are available."
  Env env(/*auto_ack=*/false);
  // 256 TID-only transfers of 2 blocks, ACKs withheld: all 512 TIDs in flight.
  std::vector<sim::AxiWrite> ws;
  for (unsigned i = 0; i < 256; ++i) {
    ws.push_back(desc_writes(mem_desc(i / 64, i % 64, ni::Kind::Tid, 0x0,
                                      kNode | (uint64_t(i) << 24), 2 * 65536))
                     .front());
  }
  for (uint8_t r : env.write_all(ws)) REQUIRE(r == sim::kRespOkay);
  env.wait_outputs(512, 20000);
  // A TID-only transfer and an inline one wait; a unipath transfer goes (FID 128, TID 512).
  const ni::Descriptor w = mem_desc(4, 0, ni::Kind::Tid, 0x0, kNode | 0x7700000000ull, 100);
  const ni::Descriptor i = inline_desc(4, 2, 8, false, kNode);
  const ni::Descriptor u =
      mem_desc(4, 4, ni::Kind::OneFid, 0x0, kNode | 0x7800000000ull, 2 * 65536);
  for (uint8_t r :
       env.write_all({desc_writes(w).front(), desc_writes(i).front(), desc_writes(u).front()})) {
    REQUIRE(r == sim::kRespOkay);
  }
  env.run_until([&] { return env.col.blocks_of(u.xfer()).size() == 2; }, 200,
                "the unipath transfer's blocks");
  CHECK(env.col.blocks_of(u.xfer())[0].tid == 512);
  env.run(50);
  CHECK(env.col.blocks_of(w.xfer()).empty());
  CHECK(env.col.packets_of(i.xfer()).empty());
  // The TIDs went out in FIFO order 0..511, so the k-th block out has TID k. One back
  // (201): w takes it; the next one back (14) goes to the inline transfer.
  REQUIRE(env.col.blocks[201].tid == 201);
  env.ack(env.col.blocks[201]);
  env.run_until([&] { return env.col.blocks_of(w.xfer()).size() == 1; }, 100, "w's block");
  CHECK(env.col.blocks_of(w.xfer())[0].tid == 201);
  env.run(30);
  CHECK(env.col.packets_of(i.xfer()).empty());
  REQUIRE(env.col.blocks[14].tid == 14);
  env.ack(env.col.blocks[14]);
  env.run_until([&] { return env.col.packets_of(i.xfer()).size() == 1; }, 100, "the inline packet");
  CHECK(env.col.packets_of(i.xfer())[0].tid == 14);

  // 1xFID: u holds FID 128; 63 more unipath transfers take 129..191; the next one waits while
  // a multipath transfer goes; when one unipath transfer ends its FID goes to the waiting one.
  ws.clear();
  std::vector<ni::Descriptor> us;
  for (unsigned k = 0; k < 63; ++k) {
    us.push_back(mem_desc(5 + k / 32, 2 * (k % 32), ni::Kind::OneFid, 0x0,
                          kNode | (uint64_t(k) << 24), 65536));
    ws.push_back(desc_writes(us.back()).front());
  }
  const ni::Descriptor v = mem_desc(7, 0, ni::Kind::OneFid, 0x0, kNode | 0x7900000000ull, 100);
  const ni::Descriptor m = mem_desc(7, 2, ni::Kind::FourFid, 0x0, kNode | 0x7A00000000ull, 100);
  ws.push_back(desc_writes(v).front());
  ws.push_back(desc_writes(m).front());
  for (uint8_t r : env.write_all(ws)) REQUIRE(r == sim::kRespOkay);
  env.run_until([&] { return env.col.blocks_of(m.xfer()).size() == 1; }, 1000,
                "the multipath transfer's block");
  CHECK(env.col.blocks_of(m.xfer())[0].tid == 768);
  for (unsigned k = 0; k < 63; ++k) {
    REQUIRE(env.col.blocks_of(us[k].xfer()).size() == 1);
    CHECK(env.col.blocks_of(us[k].xfer())[0].fid == 129 + k);
  }
  env.run(50);
  CHECK(env.col.blocks_of(v.xfer()).empty());
  env.ack(env.col.blocks_of(us[40].xfer())[0]);  // FID 169's transfer ends
  env.run_until([&] { return env.col.blocks_of(v.xfer()).size() == 1; }, 100, "v's block");
  CHECK(env.col.blocks_of(v.xfer())[0].fid == 169);
  CHECK(env.col.blocks_of(v.xfer())[0].tid == 169 * 4);
  // Everything else answered.
  for (const Block& b : env.col.blocks) {
    if (b.tid != 201 && b.tid != 14 && b.xfer != us[40].xfer()) env.ack(b);
  }
  env.ack(env.col.blocks_of(w.xfer())[0]);
  env.ack(env.col.packets_of(i.xfer())[0]);
  env.run_until([&] { return env.tb.model().live_now() == 0; }, 5000, "all transfers finished");
  env.finish();
}

}  // namespace engine_test
