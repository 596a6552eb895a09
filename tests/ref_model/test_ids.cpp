// SPDX-License-Identifier: Apache-2.0
// TID / FID assignment (ICD section 5, thesis 3.8), ID FIFOs and queue indices.
#include <catch2/catch.hpp>
#include <vector>

#include "ref_model/qos/id_fifo.hpp"
#include "ref_model/qos/queues.hpp"
#include "ref_model/qos/segmentation.hpp"

using namespace ni;

TEST_CASE("thesis 3.8: a 16-block 4xFID transfer from base 192", "[ids]") {
  // Block k: FID 192 + k%4, TID ((192 + k%4) << 2) + (k/4)%4
  const std::vector<unsigned> expected = {768, 772, 776, 780, 769, 773, 777, 781,
                                          770, 774, 778, 782, 771, 775, 779, 783};
  for (uint32_t k = 0; k < 16; ++k) {
    INFO("k = " << k);
    CHECK(tid_4x(192, k) == expected[k]);
    CHECK(cm_block_tid(Kind::FourFid, 192, k) == expected[k]);
    CHECK(block_fid(Kind::FourFid, 192, k) == 192 + k % 4);
  }
  CHECK(tid_4x(192, 16) == 768);              // wraps after 16 blocks
  CHECK(tid_4x(252, 15) == (255u << 2) + 3);  // 1023, the last TID
}

TEST_CASE("1xFID 128 cycles 512..515", "[ids]") {
  const std::vector<unsigned> expected = {512, 513, 514, 515, 512, 513, 514, 515, 512};
  for (uint32_t k = 0; k < expected.size(); ++k) {
    CHECK(tid_1x(128, k) == expected[k]);
    CHECK(block_fid(Kind::OneFid, 128, k) == 128);
  }
  CHECK(tid_1x(191, 3) == 767);
}

TEST_CASE("TID-only and inline take no flow IDs", "[ids]") {
  CHECK_FALSE(cm_block_tid(Kind::Tid, 130, 0).has_value());
  CHECK_FALSE(cm_block_tid(Kind::Inline, 130, 0).has_value());
  CHECK(block_fid(Kind::Tid, 130, 5) == 0);
}

TEST_CASE("ID FIFO reset fill order", "[ids]") {
  IdFifo t = IdFifo::tid_fifo();
  CHECK(t.size() == 512);
  CHECK(t.contents().front() == 0);
  CHECK(t.contents().back() == 511);
  CHECK(t.pop() == 0);
  CHECK(t.pop() == 1);
  t.push(0);  // returned to the tail
  CHECK(t.contents().back() == 0);
  CHECK(t.front() == 2);

  IdFifo f1 = IdFifo::fid1_fifo();
  CHECK(f1.size() == 64);
  CHECK(f1.front() == 128);
  CHECK(f1.contents().back() == 191);

  IdFifo f4 = IdFifo::fid4_fifo();
  const std::vector<unsigned> bases = {192, 196, 200, 204, 208, 212, 216, 220,
                                       224, 228, 232, 236, 240, 244, 248, 252};
  CHECK(std::vector<unsigned>(f4.contents().begin(), f4.contents().end()) == bases);
  CHECK(f4.contains(252));
  CHECK_FALSE(f4.contains(193));

  IdFifo e;
  CHECK_THROWS_AS(e.pop(), std::logic_error);
}

TEST_CASE("queue indices (design.md section 5)", "[queues]") {
  // IntraPrios 8: level = prio >> 1; 1x-have 2..9, 1x-no 10..17, 4x-have 18..25, 4x-no 26..33
  CHECK(num_queues(8) == 34);
  CHECK(prio_level(5, 8) == 2);
  CHECK(queue_index(Kind::Inline, 15, false, 8) == QTid);
  CHECK(queue_index(Kind::Tid, 0, false, 8) == 1);
  CHECK(queue_index(Kind::OneFid, 0, true, 8) == 2);
  CHECK(queue_index(Kind::OneFid, 15, true, 8) == 9);
  CHECK(queue_index(Kind::OneFid, 0, false, 8) == 10);
  CHECK(queue_index(Kind::OneFid, 15, false, 8) == 17);
  CHECK(queue_index(Kind::FourFid, 0, true, 8) == 18);
  CHECK(queue_index(Kind::FourFid, 5, true, 8) == 20);
  CHECK(queue_index(Kind::FourFid, 0, false, 8) == 26);
  CHECK(queue_index(Kind::FourFid, 15, false, 8) == 33);
  // IntraPrios 1: one level
  CHECK(num_queues(1) == 6);
  CHECK(queue_index(Kind::OneFid, 15, true, 1) == 2);
  CHECK(queue_index(Kind::OneFid, 15, false, 1) == 3);
  CHECK(queue_index(Kind::FourFid, 15, true, 1) == 4);
  CHECK(queue_index(Kind::FourFid, 15, false, 1) == 5);
  // IntraPrios 4: level = prio >> 2; IntraPrios 16: level = prio
  CHECK(prio_level(13, 4) == 3);
  CHECK(queue_index(Kind::OneFid, 13, false, 4) == 2 + 4 + 3);
  CHECK(num_queues(16) == 66);
  CHECK(queue_index(Kind::FourFid, 15, false, 16) == 65);
  CHECK(queue_name(0, 8) == "ctrl");
  CHECK(queue_name(1, 8) == "tid");
  CHECK(queue_name(9, 8) == "1x-have[7]");
  CHECK(queue_name(26, 8) == "4x-no[0]");
  CHECK_THROWS(prio_level(1, 3));
}
