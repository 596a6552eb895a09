// SPDX-License-Identifier: Apache-2.0
// Scheduling order (ICD 5, design.md 5-6): with IntraPrios = 8, level = prio >> 1; the
// segmenter serves TID-only first, then 1xFID-have-FID[0..7], 1xFID-no-FID[0..7],
// 4xFID-have-FID[0..7], 4xFID-no-FID[0..7], FIFO within a queue.
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x5C4Eull << 48;

}  // namespace

TEST_CASE("sched: queue priority order of transfers waiting together", "[engine][sched]") {
  REQUIRE(sim::built_params().intra_prios == 8);
  Env env;
  // Hold blk_ready low: the first transfer's block waits in stage 3, the second transfer
  // waits in stage 2b, the third in stage 2a, the fourth in stage 1's skid; everything written
  // after them waits in the queues.
  env.hold_blk(true);
  struct T {
    const char* name;
    ni::Kind kind;
    uint8_t prio;
  };
  // Written in this order (single-block transfers: no re-enqueue into a have-FID queue).
  const std::vector<T> ts = {
      {"A tid (absorbed by stage 3)", ni::Kind::Tid, 9},
      {"B tid (absorbed by stage 2b)", ni::Kind::Tid, 3},
      {"B2 tid (absorbed by stage 2a)", ni::Kind::Tid, 5},
      {"B3 tid (absorbed by the skid)", ni::Kind::Tid, 7},
      {"C 4x prio 15", ni::Kind::FourFid, 15},
      {"D 4x prio 0", ni::Kind::FourFid, 0},
      {"E 1x prio 15", ni::Kind::OneFid, 15},
      {"F 1x prio 1", ni::Kind::OneFid, 1},
      {"G tid prio 15", ni::Kind::Tid, 15},
      {"H 1x prio 2", ni::Kind::OneFid, 2},
      {"I 1x prio 0", ni::Kind::OneFid, 0},
      {"J 4x prio 14", ni::Kind::FourFid, 14},
  };
  std::vector<ni::Descriptor> ds;
  for (unsigned i = 0; i < ts.size(); ++i) {
    ds.push_back(mem_desc(7, i, ts[i].kind, 0x1000 * i, kNode | (0x10000ull * i), 100, ts[i].prio));
    REQUIRE(env.write_desc(ds.back()) == sim::kRespOkay);
  }
  env.run(20);
  env.hold_blk(false);
  for (const auto& d : ds) env.wait_status(d.page, d.channel, kDone);
  // Expected: A, B, B2, B3 (already taken), G (TID-only), then 1xFID-no-FID by level: F and
  // I (level 0, FIFO: F written first), H (level 1), E (level 7); then 4xFID-no-FID: D
  // (level 0), then C and J (level 7, FIFO).
  const std::vector<unsigned> want = {0, 1, 2, 3, 8, 7, 10, 9, 6, 5, 4, 11};
  std::vector<unsigned> got;
  for (const Block& b : env.col.blocks) got.push_back(b.xfer - xfer_of(7, 0));
  CHECK(got == want);
  // FIDs in the same order: 1xFID 128, 129, 130, 131 for F, I, H, E; 4xFID 192, 196, 200.
  CHECK(env.col.blocks_of(ds[7].xfer()).at(0).fid == 128);
  CHECK(env.col.blocks_of(ds[10].xfer()).at(0).fid == 129);
  CHECK(env.col.blocks_of(ds[9].xfer()).at(0).fid == 130);
  CHECK(env.col.blocks_of(ds[6].xfer()).at(0).fid == 131);
  CHECK(env.col.blocks_of(ds[5].xfer()).at(0).fid == 192);
  CHECK(env.col.blocks_of(ds[4].xfer()).at(0).fid == 196);
  CHECK(env.col.blocks_of(ds[11].xfer()).at(0).fid == 200);
  env.finish();
}

TEST_CASE("sched: a 1xFID transfer that has its FID goes before new 1xFID transfers of any level",
          "[engine][sched]") {
  Env env(/*auto_ack=*/false);
  // X: 1xFID prio 15 (level 7), 4 blocks. Its first two blocks go; ACKs withheld, it parks.
  const ni::Descriptor x = mem_desc(8, 0, ni::Kind::OneFid, 0x0, kNode, 4 * 65536, 15);
  REQUIRE(env.write_desc(x) == sim::kRespOkay);
  env.wait_outputs(2);
  // With blk_ready low, five new 1xFID prio 0 (level 0) transfers: y1's block waits in
  // stage 3, y2 in stage 2b, y3 in stage 2a, y4 in stage 1's skid, y5 in 1xFID-no-FID[0].
  // Then the ACK of X's block 0 wakes X into 1xFID-have-FID[7].
  env.hold_blk(true);
  const ni::Descriptor y1 = mem_desc(8, 1, ni::Kind::OneFid, 0x0, kNode | 0x100000, 100, 0);
  const ni::Descriptor y2 = mem_desc(8, 2, ni::Kind::OneFid, 0x0, kNode | 0x200000, 100, 0);
  const ni::Descriptor y3 = mem_desc(8, 3, ni::Kind::OneFid, 0x0, kNode | 0x300000, 100, 0);
  REQUIRE(env.write_desc(y1) == sim::kRespOkay);
  REQUIRE(env.write_desc(y2) == sim::kRespOkay);
  REQUIRE(env.write_desc(y3) == sim::kRespOkay);
  const ni::Descriptor y4 = mem_desc(8, 4, ni::Kind::OneFid, 0x0, kNode | 0x400000, 100, 0);
  REQUIRE(env.write_desc(y4) == sim::kRespOkay);
  const ni::Descriptor y5 = mem_desc(8, 5, ni::Kind::OneFid, 0x0, kNode | 0x500000, 100, 0);
  REQUIRE(env.write_desc(y5) == sim::kRespOkay);
  env.ack(env.col.blocks[0]);
  env.run(20);
  env.hold_blk(false);
  env.run_until([&] { return env.col.blocks.size() == 8; }, 200, "blocks");
  // After y1, y2, y3, y4 (already in the pipeline): X's block 2 (have-FID[7]) before y5
  // (no-FID[0]).
  std::vector<unsigned> got;
  for (std::size_t i = 2; i < env.col.blocks.size(); ++i)
    got.push_back(env.col.blocks[i].xfer - xfer_of(8, 0));
  CHECK(got == std::vector<unsigned>{1, 2, 3, 4, 0, 5});
  CHECK(env.col.blocks[6].block_idx == 2);
  for (std::size_t i = 1; i < env.col.blocks.size(); ++i) env.ack(env.col.blocks[i]);
  env.ack_until_finished(8, 0);
  for (unsigned ch = 1; ch <= 5; ++ch) env.wait_status(8, ch, kDone);
  env.finish();
}

}  // namespace engine_test
