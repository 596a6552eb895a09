// SPDX-License-Identifier: Apache-2.0
// Random runs of the AccSets = 16 engine against the golden model (the random CPU of ni_sim:
// descriptors of every form, intruding word writes within a page, illegal writes, polling),
// in the configurations `make test` runs the default engine with (sim/configs/*.json,
// repeated here so the binary runs from any directory).
#include "tests/qos/fixture.hpp"

namespace engine_test {

TEST_CASE("acc16: random runs against the golden model", "[engine][acc16][random]") {
  REQUIRE(sim::built_params().acc_sets == 16);
  struct Cfg {
    const char* name;
    uint64_t seed;
    const char* json;
  };
  const Cfg cfgs[] = {
      {"default", 11, "{}"},
      {"heavy-illegal", 12,
       R"({"traffic": {"illegal_pct": 40, "illegal_read_pct": 20, "stat_read_pct": 10,
                       "pages": [0, 1], "multi_pct": 70, "poll_interval": 2},
           "responder": {"latency": [1, 32], "reorder_window": 8, "nack_pct": 1}})"},
      {"heavy-reorder", 13,
       R"({"traffic": {"max_live": 1024, "notify_pct": 40},
           "responder": {"latency": [1, 400], "reorder_window": 64, "nack_pct": 0.2,
                         "dup_pct": 3, "stale_pct": 3, "unknown_pct": 3, "idle_pct": 10}})"},
      {"heavy-stall", 14,
       R"({"traffic": {"mix": {"tid": 20, "1x": 20, "4x": 20, "inline": 40}, "notify_pct": 50},
           "axi": {"w_gap_pct": 20, "aw_gap_pct": 20, "bready_low_pct": 30, "rready_low_pct": 30},
           "responder": {"latency": [1, 16], "reorder_window": 4},
           "stalls": {"blk": {"start_pct": 10, "len": [1, 40]},
                      "pkt": {"start_pct": 10, "len": [1, 40]}}})"},
  };
  for (const Cfg& c : cfgs) {
    sim::Testbench::Options o;
    o.cfg.seed = c.seed;
    o.cfg.apply(nlohmann::json::parse(c.json), c.name);
    o.cfg.traffic.transfers = 2000;
    o.random_cpu = true;
    sim::Testbench tb(o);
    const sim::RunResult r = tb.run();
    INFO(c.name << " seed " << c.seed << ": " << r.failure << " (cycle " << r.fail_cycle << ")\n"
                << r.detail);
    CHECK(r.passed);
    CHECK(tb.cpu()->illegal_rejected() == tb.cpu()->illegal_sent());
    CHECK(tb.cpu()->unexpected_rejects() == 0);
  }
}

}  // namespace engine_test
