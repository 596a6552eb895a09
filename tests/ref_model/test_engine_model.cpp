// SPDX-License-Identifier: Apache-2.0
// Unit tests of the golden engine model alone (no RTL): hand-built cycle-by-cycle event
// streams of one inline transfer and one two-block transfer, as the RTL's timing of
// docs/design.md section 12 produces them. The model must accept the right stream and reject
// each deliberately wrong variant with the right message.
#include <catch2/catch.hpp>
#include <functional>
#include <string>

#include "ref_model/common/block_desc.hpp"
#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/qos/engine_model.hpp"

namespace {

using namespace ni;

// One cycle's events.
struct Cycle {
  CycleTaps taps;
  std::function<void(EngineModel&)> events;
};

// An 8-byte inline transfer on page 0 channel 0, written as one 2-beat 128-bit burst with W
// in the cycle of AW (cycle 0): live in cycle 1, enqueued from the AXI slave's register in
// cycle 2 (TID-only queue 1), dequeued in cycle 3, packet written by stage 2 in cycle 4,
// through the packet queue's stage in cycle 5 and out of the port in cycle 6 (TID 0, seq 0),
// B in cycle 2, ACK handshake in cycle 10, DONE at the edge of cycle 12.
struct InlineRun {
  Descriptor d;
  std::vector<uint64_t> w;
  InlineRun() {
    d.page = 0;
    d.channel = 0;
    d.kind = Kind::Inline;
    d.dst = 0x0001000000001000ull;
    d.size = 8;
    d.payload = {1, 2, 3, 4, 5, 6, 7, 8};
    w = d.encode();
  }
  Bits512 packet(uint16_t tid = 0, uint16_t seq = 0) const {
    return make_inline_packet(d, tid, seq).pack();
  }
};

CycleTaps idle_taps() {
  CycleTaps t;
  t.blk_ready = t.pkt_ready = true;
  return t;
}

struct Rsp {
  uint64_t cycle;
  unsigned tid, seq;
};

// The event stream of InlineRun for cycles 0..15: `rsps` are the response handshakes (the
// real ACK of TID 0 seq 0 at cycle 10 by default), `done_at` the cycle the DONE status change
// is reported, `tweak(cycle, taps, send_pkt)` may change a cycle's taps and whether the packet
// leaves in cycle 8, `pkt` replaces the packet. Stops at the first failure. The transfer is
// enqueued in cycle 2, its queue picked in cycle 3 and dequeued in cycle 4; stage 2a plans in
// cycle 5, stage 2b writes the packet in cycle 6, and it leaves the packet queue in cycle 8.
std::unique_ptr<EngineModel> run_inline(
    const std::function<void(uint64_t, CycleTaps&, bool&)>& tweak = nullptr,
    const Bits512* pkt = nullptr, const std::vector<Rsp>& rsps = {{10, 0, 0}},
    uint64_t done_at = 12) {
  InlineRun r;
  auto m = std::make_unique<EngineModel>();
  for (uint64_t c = 0; c < 16 && !m->failed(); ++c) {
    CycleTaps t = idle_taps();
    bool send_pkt = c == 8;
    if (c == 2) {
      t.axi_enq_req = true;
      t.enq = true;
      t.enq_src = 2;
      t.enq_qid = 1;
      t.enq_node = 0;
    }
    if (c == 4) {
      t.deq = true;
      t.deq_qid = 1;
      t.deq_node = 0;
      t.deq_first = true;
    }
    if (c == 6) {
      t.s2_fire = true;
      t.s2_node = 0;
    }
    if (c == 8) t.pkt_valid = true;
    for (const Rsp& x : rsps) {
      if (x.cycle == c) t.rsp_valid = t.rsp_ready = true;
    }
    if (tweak) tweak(c, t, send_pkt);
    m->taps(t);
    if (c == 0) {
      m->aw(AwFields{0, 1, 4, AxiBurstIncr, 0});
      m->w(WBeat{r.w[0], r.w[1], 0xFFFF, false});
    }
    if (c == 1) {
      m->w(WBeat{r.w[2], r.w[3], 0xFFFF, true});
      m->status(0, Status::Idle, Status::Busy);
    }
    if (c == 2) m->b(0, AxiResp::Okay);
    if (send_pkt) m->packet(pkt ? *pkt : r.packet());
    for (const Rsp& x : rsps) {
      if (x.cycle == c) m->rsp(x.tid, x.seq, false);
    }
    if (c == done_at) m->status(0, Status::Busy, Status::Done);
    m->end_cycle(c);
  }
  return m;
}

// A TID-only memory transfer of two blocks on page 0 channel 0: 65,636 bytes from 0x1000 to
// node 2 address 0 (block 0: 65,536 bytes, block 1: 100 bytes from 0x11000 to 0x10000),
// written like InlineRun (live in cycle 1, enqueued into the TID-only queue in cycle 2, B in
// cycle 2). Stage 1 picks its queue in cycle 3 and dequeues it in cycle 4; stage 2a plans in
// cycle 5 and stage 2b issues block 0 (TID 0, seq 0) in cycle 6 on the stage-3 bypass and
// re-enqueues it (in flight 1 < MaxOutstanding 2); stage 1 picks it again in cycle 7 and
// dequeues it in cycle 8; stage 2b issues block 1 (TID 1, seq 1) in cycle 10, which leaves
// stage 3 in cycle 11; the transfer parks (WAIT). ACKs of TID 0 and TID 1 in cycles 12 and 13
// resolve it in M2 at cycles 14 and 15: DONE reported in cycle 15.
struct TwoBlockRun {
  Descriptor d;
  std::vector<uint64_t> w;
  TwoBlockRun() {
    d.kind = Kind::Tid;
    d.src = 0x1000;
    d.dst = 0x0002000000000000ull;
    d.size = 65536 + 100;
    w = d.encode();
  }
  // The block descriptors of ICD section 6, worked out by hand.
  static BlockDesc block(unsigned k) {
    BlockDesc b;
    b.src_addr = k == 0 ? 0x1000 : 0x11000;
    b.dst_addr = k == 0 ? 0x0002000000000000ull : 0x0002000000010000ull;
    b.seq = uint16_t(k);
    b.len_m1 = k == 0 ? 65535 : 99;
    b.block_idx = uint16_t(k);
    return b;  // pd 0, not CM, fid 0, no notify / chained / has_next, xfer 0
  }
};

// The event stream of TwoBlockRun for cycles 0..17; `tweak(cycle, taps)` may change a cycle's
// taps, `blk1` replaces block 1, `done_at` is the cycle DONE is reported.
std::unique_ptr<EngineModel> run_two_blocks(
    const std::function<void(uint64_t, CycleTaps&)>& tweak = nullptr,
    const BlockDesc& blk1 = TwoBlockRun::block(1), uint64_t done_at = 15) {
  TwoBlockRun r;
  auto m = std::make_unique<EngineModel>();
  for (uint64_t c = 0; c < 18 && !m->failed(); ++c) {
    CycleTaps t = idle_taps();
    auto enq = [&](unsigned src) {
      t.enq = true;
      t.enq_src = src;
      t.enq_qid = 1;
      t.enq_node = 0;
    };
    auto deq = [&](bool first) {
      t.deq = true;
      t.deq_qid = 1;
      t.deq_node = 0;
      t.deq_first = first;
    };
    if (c == 2) {
      t.axi_enq_req = true;
      enq(2);  // AXI slave: the register's enqueue of the transfer made live in cycle 1
    }
    if (c == 4) deq(true);
    if (c == 6) {
      t.s2_fire = true;
      enq(1);  // segmenter: re-enqueue
      t.blk_valid = true;
    }
    if (c == 8) deq(false);
    if (c == 10) t.s2_fire = true;
    if (c == 11) t.blk_valid = true;
    if (c == 12 || c == 13) t.rsp_valid = t.rsp_ready = true;
    if (tweak) tweak(c, t);
    m->taps(t);
    if (c == 0) {
      m->aw(AwFields{0, 1, 4, AxiBurstIncr, 0});
      m->w(WBeat{r.w[0], r.w[1], 0xFFFF, false});
    }
    if (c == 1) {
      m->w(WBeat{r.w[2], r.w[3], 0xFFFF, true});
      m->status(0, Status::Idle, Status::Busy);
    }
    if (c == 2) m->b(0, AxiResp::Okay);
    if (c == 6 && t.blk_valid) m->block(0, TwoBlockRun::block(0).pack());
    if (c == 11 && t.blk_valid) m->block(1, blk1.pack());
    if (c == 12) m->rsp(0, 0, false);
    if (c == 13) m->rsp(1, 1, false);
    if (c == done_at) m->status(0, Status::Busy, Status::Done);
    m->end_cycle(c);
  }
  return m;
}

}  // namespace

TEST_CASE("engine model accepts a correct two-block transfer", "[engine_model]") {
  auto m = run_two_blocks();
  INFO((m->failed() ? m->failure().what + "\n" + m->failure().detail : std::string()));
  REQUIRE_FALSE(m->failed());
  REQUIRE(m->final_check(18).empty());
  CHECK(m->transfers_done() == 1);
  CHECK(m->stats().get(Stat::BlocksIssued) == 2);
  CHECK(m->stats().get(Stat::AcksAccepted) == 2);
  CHECK(m->tid_fifo_size() == TidOnlyIds);
}

TEST_CASE("engine model rejects wrong variants of the two-block stream", "[engine_model]") {
  SECTION("block 1 with the wrong length") {
    BlockDesc b = TwoBlockRun::block(1);
    b.len_m1 = 100;
    auto m = run_two_blocks(nullptr, b);
    REQUIRE(m->failed());
    CHECK(m->failure().cycle == 11);
    CHECK(m->failure().what.find("block descriptor mismatch") != std::string::npos);
    CHECK(m->failure().detail.find("len_m1") != std::string::npos);
  }
  SECTION("no re-enqueue after block 0 (below MaxOutstanding)") {
    auto m = run_two_blocks([](uint64_t c, CycleTaps& t) {
      if (c == 6) t.enq = false;
    });
    REQUIRE(m->failed());
    CHECK(m->failure().cycle == 6);
    CHECK(m->failure().what.find("enqueue: expected transfer 0") != std::string::npos);
  }
  SECTION("block 0 held in stage 3 while blk is ready") {
    auto m = run_two_blocks([](uint64_t c, CycleTaps& t) {
      if (c == 6) t.blk_valid = false;
    });
    REQUIRE(m->failed());
  }
  SECTION("DONE after the first ACK") {
    auto m = run_two_blocks(nullptr, TwoBlockRun::block(1), 14);
    REQUIRE(m->failed());
    CHECK(m->failure().cycle == 14);
    CHECK(m->failure().what.find("status changes differ") != std::string::npos);
  }
}

TEST_CASE("engine model accepts a correct inline transfer", "[engine_model]") {
  auto m = run_inline();
  INFO((m->failed() ? m->failure().what : std::string()));
  REQUIRE_FALSE(m->failed());
  REQUIRE(m->final_check(16).empty());
  REQUIRE(m->transfers_done() == 1);
  REQUIRE(m->stats().get(Stat::InlinePackets) == 1);
  REQUIRE(m->stats().get(Stat::AcksAccepted) == 1);
  // TID 0 went back to the tail of the TID FIFO.
  REQUIRE(m->tid_fifo_size() == TidOnlyIds);
}

TEST_CASE("engine model rejects a packet with the wrong TID or payload", "[engine_model]") {
  InlineRun r;
  const Bits512 bad_tid = r.packet(1, 0);
  auto m = run_inline(nullptr, &bad_tid);
  REQUIRE(m->failed());
  CHECK(m->failure().cycle == 8);
  CHECK(m->failure().what.find("packet mismatch") != std::string::npos);
  CHECK(m->failure().detail.find("tid") != std::string::npos);

  Bits512 bad_payload = r.packet();
  bad_payload[2] ^= 0x100;  // payload byte 1
  m = run_inline(nullptr, &bad_payload);
  REQUIRE(m->failed());
  CHECK(m->failure().detail.find("crc32") != std::string::npos);
}

TEST_CASE("engine model rejects scheduling the RTL did not do as the rules say", "[engine_model]") {
  SECTION("no dequeue although the TID-only queue was picked") {
    auto m = run_inline([](uint64_t c, CycleTaps& t, bool&) {
      if (c == 4) t.deq = false;
    });
    REQUIRE(m->failed());
    CHECK(m->failure().cycle == 4);
    CHECK(m->failure().what.find("segmenter idle") != std::string::npos);
  }
  SECTION("dequeue in the cycle the queue becomes non-empty, before its pick") {
    auto m = run_inline([](uint64_t c, CycleTaps& t, bool&) {
      if (c == 3) {
        t.deq = true;
        t.deq_qid = 1;
        t.deq_node = 0;
        t.deq_first = true;
      }
    });
    REQUIRE(m->failed());
    CHECK(m->failure().cycle == 3);
    CHECK(m->failure().what.find("no queue was picked the cycle before") != std::string::npos);
  }
  SECTION("dequeue from the wrong queue") {
    auto m = run_inline([](uint64_t c, CycleTaps& t, bool&) {
      if (c == 4) t.deq_qid = 0;
    });
    REQUIRE(m->failed());
    CHECK(m->failure().what.find("dequeue choice") != std::string::npos);
  }
  SECTION("enqueue into the wrong queue") {
    auto m = run_inline([](uint64_t c, CycleTaps& t, bool&) {
      if (c == 2) t.enq_qid = 2;
    });
    REQUIRE(m->failed());
    CHECK(m->failure().cycle == 2);
    CHECK(m->failure().what.find("enqueue") != std::string::npos);
  }
  SECTION("the AXI slave enqueues in the cycle of the beat, not from its register") {
    auto m = run_inline([](uint64_t c, CycleTaps& t, bool&) {
      if (c == 1) {
        t.axi_enq_req = t.enq = true;
        t.enq_src = 2;
        t.enq_qid = 1;
      }
    });
    REQUIRE(m->failed());
    CHECK(m->failure().cycle == 1);
    CHECK(m->failure().what.find("AXI slave requests an enqueue, none expected") !=
          std::string::npos);
  }
  SECTION("the AXI slave's enqueue not granted although no other source enqueues") {
    auto m = run_inline([](uint64_t c, CycleTaps& t, bool&) {
      if (c == 2) t.enq = false;
    });
    REQUIRE(m->failed());
    CHECK(m->failure().cycle == 2);
    CHECK(m->failure().what.find("enqueue: expected transfer 0") != std::string::npos);
  }
  SECTION("stage 2b stalls without a reason") {
    auto m = run_inline([](uint64_t c, CycleTaps& t, bool& pkt) {
      if (c == 6) {
        t.s2_fire = false;
        t.s2_hold = true;
      }
      if (c == 8) pkt = false;
    });
    REQUIRE(m->failed());
    CHECK(m->failure().cycle == 6);
    CHECK(m->failure().what.find("without a reason") != std::string::npos);
  }
  SECTION("packet never leaves the port") {
    auto m = run_inline([](uint64_t, CycleTaps&, bool& pkt) { pkt = false; });
    REQUIRE_FALSE(m->failed());
    const auto problems = m->final_check(16);
    REQUIRE_FALSE(problems.empty());
    CHECK(m->failed());
  }
}

TEST_CASE("engine model drops a stale-seq ACK and counts it", "[engine_model]") {
  // A stale ACK (seq 5) for TID 0 at cycle 8, before the real one at cycle 10.
  auto m = run_inline(nullptr, nullptr, {{8, 0, 5}, {10, 0, 0}});
  INFO((m->failed() ? m->failure().what : std::string()));
  REQUIRE_FALSE(m->failed());
  CHECK(m->stats().get(Stat::RspDropped) == 1);
  CHECK(m->stats().get(Stat::AcksAccepted) == 1);
}

TEST_CASE("engine model predicts DONE two cycles after the ACK, not earlier", "[engine_model]") {
  // DONE reported at cycle 11 instead of 12: the status comparison must catch it.
  auto m = run_inline(nullptr, nullptr, {{10, 0, 0}}, 11);
  REQUIRE(m->failed());
  CHECK(m->failure().cycle == 11);
  CHECK(m->failure().what.find("status changes differ") != std::string::npos);
}
