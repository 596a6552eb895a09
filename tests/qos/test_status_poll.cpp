// SPDX-License-Identifier: Apache-2.0
// Status reads (ICD 3, design.md 3 and 4): the collective 32-channel read returns channel i
// of the half in bits 2i+1:2i and turns each DONE/ERROR it reports into IDLE (BUSY and IDLE
// stay); the single-channel read clears only its channel; halves and pages are independent.
#include "tests/qos/fixture.hpp"

namespace engine_test {
namespace {

constexpr uint64_t kNode = 0x0032ull << 48;

uint64_t code_at(unsigned i, unsigned code) { return uint64_t(code) << (2 * i); }

}  // namespace

TEST_CASE("status: 32-channel polling, bits per channel, clear-on-read of DONE/ERROR only",
          "[engine][status]") {
  Env env(/*auto_ack=*/false);
  env.set_max_retries(0);  // ICD 14: no re-issue, the first NACK ends the transfer ERROR
  struct Ch {
    unsigned page, ch, code;
  };
  const std::vector<Ch> setup = {{5, 0, kDone},   {5, 1, kError}, {5, 2, kBusy},  {5, 17, kBusy},
                                 {5, 30, kError}, {5, 31, kDone}, {5, 32, kDone}, {5, 33, kBusy},
                                 {5, 63, kError}, {6, 0, kDone},  {6, 40, kDone}};
  std::vector<ni::Descriptor> ds;
  for (const Ch& c : setup) {
    ds.push_back(
        mem_desc(c.page, c.ch, ni::Kind::Tid, 0x100 * c.ch, kNode | (0x10000 * c.ch), 50 + c.ch));
    REQUIRE(env.write_desc(ds.back()) == sim::kRespOkay);
  }
  env.wait_outputs(setup.size());
  for (std::size_t i = 0; i < setup.size(); ++i) {
    if (setup[i].code == kBusy) continue;
    const std::vector<Block> b = env.col.blocks_of(ds[i].xfer());
    REQUIRE(b.size() == 1);
    env.ack(b[0], setup[i].code == kError);
  }
  for (const Ch& c : setup) env.wait_status(c.page, c.ch, c.code);

  // Page 5, half 0: channels 0 DONE, 1 ERROR, 2 BUSY, 17 BUSY, 30 ERROR, 31 DONE.
  const uint64_t h0 = code_at(0, kDone) | code_at(1, kError) | code_at(2, kBusy) |
                      code_at(17, kBusy) | code_at(30, kError) | code_at(31, kDone);
  CHECK(h0 == 0xB00000040000001Eull);  // the same, written out
  const std::size_t ev0 = env.col.status.size();
  CHECK(env.status32(5, 0) == h0);
  // Exactly the four DONE/ERROR channels turned IDLE (BUSY ones untouched).
  std::vector<unsigned> cleared;
  for (std::size_t i = ev0; i < env.col.status.size(); ++i) {
    CHECK(env.col.status[i].to == kIdle);
    cleared.push_back(env.col.status[i].wch);
  }
  std::sort(cleared.begin(), cleared.end());
  CHECK(cleared == std::vector<unsigned>{wch_of(5, 0), wch_of(5, 1), wch_of(5, 30), wch_of(5, 31)});
  CHECK(env.status32(5, 0) == (code_at(2, kBusy) | code_at(17, kBusy)));
  // Half 1 untouched by the half-0 reads: 32 DONE, 33 BUSY, 63 ERROR.
  const uint64_t h1 = code_at(0, kDone) | code_at(1, kBusy) | code_at(31, kError);
  CHECK(env.status32(5, 1) == h1);
  CHECK(env.status32(5, 1) == code_at(1, kBusy));
  // Page 6 untouched by page 5's reads; a single read clears only its own channel.
  CHECK(env.status(6, 0) == kDone);
  CHECK(env.status32(6, 0) == 0);
  CHECK(env.status32(6, 1) == code_at(8, kDone));  // channel 40
  CHECK(env.status32(6, 1) == 0);
  // The BUSY ones finish; a single read of one leaves the other for the collective read.
  for (std::size_t i = 0; i < setup.size(); ++i) {
    if (setup[i].code == kBusy) env.ack(env.col.blocks_of(ds[i].xfer()).at(0));
  }
  for (unsigned ch : {2u, 17u, 33u}) env.wait_status(5, ch, kDone);
  CHECK(env.status(5, 17) == kDone);
  CHECK(env.status32(5, 0) == code_at(2, kDone));
  CHECK(env.status32(5, 0) == 0);
  CHECK(env.status32(5, 1) == code_at(1, kDone));
  CHECK(env.status32(5, 1) == 0);
  // Single-channel reads: the code in bits 1:0, zeros above (checked in Env::status).
  CHECK(env.status(5, 0) == kIdle);
  env.finish();
}

TEST_CASE("status: back-to-back 32-channel polls while transfers finish lose no DONE",
          "[engine][status]") {
  // A finish landing in the cycle of a collective read of its half must survive the clear of
  // the channels that read reported (design.md 3: sampled and cleared in the AR cycle).
  Env env(/*auto_ack=*/true, /*seed=*/3);
  env.auto_mode(/*lat=*/1, /*reorder_window=*/1);
  std::vector<ni::Descriptor> ds;
  for (unsigned ch = 0; ch < 32; ++ch) {
    // 1..8 blocks each, so they finish at scattered cycles.
    ds.push_back(mem_desc(9, 32 + ch, ni::Kind::Tid, 0, kNode | (uint64_t(ch) << 32),
                          (1 + ch % 8) * 65536u));
  }
  std::vector<sim::AxiWrite> ws;
  for (const auto& d : ds) ws.push_back(desc_writes(d).front());
  for (uint8_t r : env.write_all(ws)) REQUIRE(r == sim::kRespOkay);
  std::vector<unsigned> seen(32, 0);
  unsigned reads = 0;
  for (unsigned n = 0; n < 400 && std::count(seen.begin(), seen.end(), 1u) < 32; ++n) {
    const uint64_t v = env.status32(9, 1);
    ++reads;
    for (unsigned i = 0; i < 32; ++i) {
      const unsigned c = unsigned(v >> (2 * i)) & 3u;
      CHECK(c != kError);
      if (c == kDone) ++seen[i];
      if (c == kIdle) CHECK(seen[i] == 1);  // IDLE only once its DONE was reported
    }
  }
  for (unsigned i = 0; i < 32; ++i) {
    INFO("channel " << 32 + i);
    CHECK(seen[i] == 1);  // every DONE reported exactly once
  }
  CHECK(reads > 10);
  env.finish();
}

}  // namespace engine_test
