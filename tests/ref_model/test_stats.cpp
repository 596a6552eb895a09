// SPDX-License-Identifier: Apache-2.0
// Statistics counters (ICD section 8, docs/design.md section 11).
#include <catch2/catch.hpp>
#include <cstdint>

#include "ref_model/qos/stats_model.hpp"

using namespace ni;

TEST_CASE("counters count, saturate and read 0 above index 12", "[stats]") {
  StatsModel s;
  for (unsigned i = 0; i < 16; ++i) CHECK(s.read(i) == 0);
  s.inc(Stat::BlocksIssued);
  s.inc(Stat::BlocksIssued, 4);
  CHECK(s.get(Stat::BlocksIssued) == 5);
  CHECK(s.read(2) == 5);
  s.set(Stat::PktStallCycles, UINT64_MAX - 1);
  s.inc(Stat::PktStallCycles, 5);
  CHECK(s.read(12) == UINT64_MAX);
  s.inc(Stat::PktStallCycles);
  CHECK(s.read(12) == UINT64_MAX);
  CHECK(s.read(13) == 0);
  CHECK(s.read(63) == 0);
  CHECK(std::string(to_string(Stat::RspDropped)) == "rsp_dropped");
  s.reset();
  CHECK(s.read(2) == 0);
}
