// SPDX-License-Identifier: Apache-2.0
// The end-to-end scoreboard of the full-NI simulator (sim/agents/e2e_scoreboard, ICD 15) alone:
// transfers are announced through on_live/on_finish as the engine models would, node memory is
// written directly (MemImage::write, as the memory model does) and each write is reported
// on the node's event bus (on_memwr), where the scoreboard announces notification records. Expected
// records and messages are worked out from ICD 13 (notification: tag, size, src_node, 0x0001,
// little-endian) and ICD 15.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "ref_model/common/descriptor.hpp"
#include "sim/agents/e2e_scoreboard.hpp"
#include "tests/agents/e2e_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

constexpr uint64_t kDst = uint64_t{1} << 47;  // destinations at or above 2^47 (ICD 15)

using e2e_test::at;

// A notification record announced on node `node`'s bus: (cycle, node, addr, tag, src_node).
using Notify = std::tuple<uint64_t, unsigned, uint64_t, uint64_t, unsigned>;
struct NotifyLog : sim::Listener {
  NotifyLog(std::vector<Notify>& s, unsigned n) : seen(s), node(n) {}
  void on_notify(const sim::NotifyEvent& e) override {
    seen.emplace_back(e.cycle, node, e.addr, e.tag, e.src_node);
  }
  std::vector<Notify>& seen;
  unsigned node;
};

// The shared fixture with every node's notification records logged.
struct Fixture : e2e_test::Fixture {
  std::vector<Notify> seen;
  NotifyLog logs[3] = {{seen, 0}, {seen, 1}, {seen, 2}};
  Fixture() {
    for (unsigned n = 0; n < 3; ++n) bus[n].add(logs[n]);
  }
};

// A 200-byte memory transfer from node `src` 0x1000 to node `dst` kDst + 0x40.
ni::Descriptor mem_xfer(unsigned dst, uint64_t dst_off = 0x40, uint32_t size = 200) {
  ni::Descriptor d;
  d.page = 1;
  d.channel = 2;
  d.kind = ni::Kind::Tid;
  d.src = 0x1000;
  d.dst = at(dst, kDst + dst_off);
  d.size = size;
  return d;
}

// The same with a notification record at kDst + 0x10000 of the destination.
ni::Descriptor notify_xfer(unsigned dst) {
  ni::Descriptor d = mem_xfer(dst);
  d.notify = true;
  d.notify_addr = at(dst, kDst + 0x10000);
  d.notify_tag = 0x1122334455667788ull;
  return d;
}

// ICD 13 worked by hand for notify_xfer from node 2: tag 0x1122334455667788, size 200 (0xc8),
// src_node 2, then 0x0001, each little-endian.
std::vector<uint8_t> record_from_node2() {
  return {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
          0xc8, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00};
}

}  // namespace

TEST_CASE("e2e: a DONE transfer whose destination equals its source passes", "[e2e]") {
  Fixture f;
  const ni::Descriptor d = mem_xfer(1);
  f.sb.on_live(0, 3, d, 10);
  CHECK_FALSE(f.sb.quiescent());
  f.copy(0, d, 64);  // bursts of 64: the last one 8 bytes
  f.sb.on_finish(0, 3, false, 50);
  CHECK_FALSE(f.sb.failed());
  CHECK(f.sb.quiescent());
  CHECK(f.sb.final_check(60).empty());
  CHECK_FALSE(f.sb.failed());
  CHECK(f.sb.node_stats(0).done == 1);
  CHECK(f.sb.node_stats(1).bytes_delivered == 200);
  CHECK(f.sb.node_stats(1).stray_writes == 0);
  CHECK(f.sb.data_mismatches() == 0);
  // a checked transfer's lines go back to the pattern
  CHECK(f.m1.untouched(kDst + 0x40, 200));
}

TEST_CASE("e2e: an inline transfer is compared with its payload", "[e2e]") {
  Fixture f;
  ni::Descriptor d;
  d.kind = ni::Kind::Inline;
  d.dst = at(2, kDst + 3);
  d.size = 20;
  for (unsigned i = 0; i < 20; ++i) d.payload.push_back(uint8_t(0xa0 + i));
  f.sb.on_live(1, 0, d, 1);
  std::vector<uint8_t> got = d.payload;
  const bool bad = GENERATE(false, true);
  if (bad) got[19] = 0;
  f.write(2, kDst + 3, got);
  f.sb.on_finish(1, 0, false, 9);
  CHECK(f.sb.failed() == bad);
  if (bad) CHECK_THAT(f.sb.first_error().detail, Contains("byte 19 at node 2 0x800000000016"));
}

TEST_CASE("e2e: one wrong destination byte fails and names the byte", "[e2e]") {
  Fixture f;
  const ni::Descriptor d = mem_xfer(1);
  f.sb.on_live(0, 3, d, 10);
  f.copy(0, d, 200, 57);
  f.sb.on_finish(0, 3, false, 50);
  REQUIRE(f.sb.failed());
  CHECK(f.sb.first_error().cycle == 50);
  CHECK_THAT(f.sb.first_error().what, Contains("destination bytes differ"));
  // byte 57 at kDst + 0x40 + 57 = 0x800000000079; the source byte is node 0's pattern
  const uint8_t want = ni::pattern_byte(0, 0x1000 + 57);
  char line[96];
  std::snprintf(line, sizeof line,
                "byte 57 at node 1 0x800000000079: expected %02x, memory holds %02x", want,
                uint8_t(want ^ 0xff));
  CHECK_THAT(f.sb.first_error().detail, Contains(line));
  CHECK(f.sb.data_mismatches() == 1);
  CHECK(f.sb.node_stats(1).bytes_delivered == 0);
}

TEST_CASE("e2e: a DONE transfer that wrote nothing fails", "[e2e]") {
  Fixture f;
  const ni::Descriptor d = mem_xfer(2);
  f.sb.on_live(0, 0, d, 0);
  f.sb.on_finish(0, 0, false, 5);
  REQUIRE(f.sb.failed());
  CHECK_THAT(f.sb.first_error().what, Contains("destination bytes differ"));
}

TEST_CASE("e2e: the notification record after the data passes", "[e2e]") {
  Fixture f;
  const ni::Descriptor d = notify_xfer(1);
  const std::vector<Notify>& seen = f.seen;
  f.sb.on_live(2, 7, d, 0);
  f.copy(2, d);
  const std::vector<uint8_t> rec = record_from_node2();
  // the record in two bursts of 8 bytes is one record
  f.write(1, kDst + 0x10000, std::vector<uint8_t>(rec.begin(), rec.begin() + 8), 30);
  CHECK(seen.empty());
  f.write(1, kDst + 0x10008, std::vector<uint8_t>(rec.begin() + 8, rec.end()), 31);
  f.sb.on_finish(2, 7, false, 40);
  CHECK_FALSE(f.sb.failed());
  CHECK(f.sb.node_stats(1).notifications == 1);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0] == std::make_tuple(uint64_t{31}, 1u, kDst + 0x10000, 0x1122334455667788ull, 2u));
}

TEST_CASE("e2e: a missing notification record fails", "[e2e]") {
  Fixture f;
  const ni::Descriptor d = notify_xfer(1);
  f.sb.on_live(2, 7, d, 0);
  f.copy(2, d);
  SECTION("never written") {}
  SECTION("only half written") {
    const std::vector<uint8_t> rec = record_from_node2();
    f.write(1, kDst + 0x10000, std::vector<uint8_t>(rec.begin(), rec.begin() + 8));
  }
  f.sb.on_finish(2, 7, false, 40);
  REQUIRE(f.sb.failed());
  CHECK_THAT(f.sb.first_error().what,
             Contains("notification record at node 1 0x800000010000 is missing"));
}

TEST_CASE("e2e: a wrong notification record fails", "[e2e]") {
  Fixture f;
  const ni::Descriptor d = notify_xfer(1);
  f.sb.on_live(2, 7, d, 0);
  f.copy(2, d);
  std::vector<uint8_t> rec = record_from_node2();
  // any one field wrong: tag, size, src_node, the 0x0001 constant
  const unsigned byte = GENERATE(0u, 7u, 8u, 11u, 12u, 13u, 14u, 15u);
  rec[byte] ^= 0x01;
  f.write(1, kDst + 0x10000, rec);
  f.sb.on_finish(2, 7, false, 40);
  REQUIRE(f.sb.failed());
  CHECK_THAT(f.sb.first_error().what,
             Contains("notification record at node 1 0x800000010000 is wrong"));
  CHECK_THAT(f.sb.first_error().detail, Contains("expected record 88 77 66 55 44 33 22 11 c8"));
}

TEST_CASE("e2e: a record written before all of the data fails", "[e2e]") {
  Fixture f;
  const ni::Descriptor d = notify_xfer(1);
  f.sb.on_live(2, 7, d, 0);
  // the first 192 bytes, the record, then the last 8 bytes
  std::vector<uint8_t> b = f.m2.read(d.src, d.size);
  f.write(1, kDst + 0x40, std::vector<uint8_t>(b.begin(), b.begin() + 192));
  f.write(1, kDst + 0x10000, record_from_node2());
  f.write(1, kDst + 0x40 + 192, std::vector<uint8_t>(b.begin() + 192, b.end()));
  f.sb.on_finish(2, 7, false, 40);
  REQUIRE(f.sb.failed());
  CHECK_THAT(f.sb.first_error().what, Contains("written before all of the transfer's data"));
  CHECK(f.sb.data_mismatches() == 0);
}

TEST_CASE("e2e: a late duplicate record after the data does not fail", "[e2e]") {
  Fixture f;
  const ni::Descriptor d = notify_xfer(1);
  f.sb.on_live(2, 7, d, 0);
  f.copy(2, d);
  f.write(1, kDst + 0x10000, record_from_node2());
  f.copy(2, d);  // a duplicated block rewrites the same data
  f.write(1, kDst + 0x10000, record_from_node2());
  f.sb.on_finish(2, 7, false, 40);
  CHECK_FALSE(f.sb.failed());
  CHECK(f.sb.node_stats(1).notifications == 2);
}

TEST_CASE("e2e: ERROR fails unless errors are allowed", "[e2e]") {
  Fixture f;
  const bool allow = GENERATE(false, true);
  f.sb.allow_errors(allow);
  const ni::Descriptor d = mem_xfer(1);
  f.sb.on_live(0, 1, d, 0);
  f.sb.on_finish(0, 1, true, 20);  // nothing written: ERROR data are not compared
  CHECK(f.sb.failed() == !allow);
  if (!allow) CHECK_THAT(f.sb.first_error().what, Contains("ended ERROR"));
  CHECK(f.sb.node_stats(0).error == 1);
  CHECK(f.sb.node_stats(0).done == 0);
  CHECK(f.sb.quiescent());
}

TEST_CASE("e2e: a write outside every live range fails unless stray writes are allowed", "[e2e]") {
  Fixture f;
  const bool allow = GENERATE(false, true);
  f.sb.allow_stray_writes(allow);
  const ni::Descriptor d = mem_xfer(1);  // [kDst + 0x40, kDst + 0x108)
  f.sb.on_live(0, 1, d, 0);
  SECTION("before the range") { f.write(1, kDst + 0x3f, {1}); }
  SECTION("across its end") { f.write(1, kDst + 0x100, std::vector<uint8_t>(9, 1)); }
  SECTION("another node") { f.write(2, kDst + 0x40, {1}); }
  SECTION("after the transfer finished") {
    f.copy(0, d);
    f.sb.on_finish(0, 1, false, 10);
    REQUIRE_FALSE(f.sb.failed());
    f.write(1, kDst + 0x40, {1});
  }
  CHECK(f.sb.failed() == !allow);
  if (!allow) CHECK_THAT(f.sb.first_error().what, Contains("outside every live transfer"));
  CHECK(f.sb.node_stats(0).stray_writes + f.sb.node_stats(1).stray_writes +
            f.sb.node_stats(2).stray_writes ==
        1);
}

TEST_CASE("e2e: writes inside the range, to its last byte, are not stray", "[e2e]") {
  Fixture f;
  const ni::Descriptor d = mem_xfer(1);
  f.sb.on_live(0, 1, d, 0);
  f.write(1, kDst + 0x107, {1});
  f.write(1, kDst + 0x40, {1});
  CHECK_FALSE(f.sb.failed());
  CHECK(f.sb.node_stats(1).stray_writes == 0);
}

TEST_CASE("e2e: final_check lists the unfinished transfers", "[e2e]") {
  Fixture f;
  f.sb.on_live(0, 1, mem_xfer(1, 0x000), 7);
  f.sb.on_live(0, 2, mem_xfer(1, 0x400), 8);
  f.sb.on_live(1, 1, mem_xfer(2, 0x000), 9);
  f.copy(0, mem_xfer(1, 0x400));
  f.sb.on_finish(0, 2, false, 20);
  REQUIRE_FALSE(f.sb.failed());
  CHECK_FALSE(f.sb.quiescent());
  const std::vector<std::string> p = f.sb.final_check(100);
  REQUIRE(p.size() == 2);
  CHECK_THAT(p[0],
             Contains("never finished") && Contains("node 0") && Contains("live since cycle 7"));
  CHECK_THAT(p[1],
             Contains("never finished") && Contains("node 1") && Contains("live since cycle 9"));
  REQUIRE(f.sb.failed());
  CHECK(f.sb.first_error().what == "2 transfer(s) never finished");
  CHECK(f.sb.first_error().cycle == 100);
}

TEST_CASE("e2e: harness mistakes are reported", "[e2e]") {
  Fixture f;
  SECTION("destination node does not exist") {
    f.sb.on_live(0, 1, mem_xfer(3), 0);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what, Contains("names a node that does not exist"));
  }
  SECTION("live twice") {
    f.sb.on_live(0, 1, mem_xfer(1), 0);
    f.sb.on_live(0, 1, mem_xfer(1, 0x1000), 0);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what, Contains("went live twice"));
  }
  SECTION("finished, never live") {
    f.sb.on_finish(0, 1, false, 0);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what, Contains("never went live"));
  }
  SECTION("overlapping destinations") {
    // [0x40, 0x108) live; the second range starts at, inside, or ends inside it
    f.sb.on_live(0, 1, mem_xfer(1, 0x40), 0);
    const uint64_t off = GENERATE(0x40u, 0x100u, 0x0u);
    f.sb.on_live(2, 1, mem_xfer(1, off, 0x41), 0);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what, Contains("overlap"));
  }
  SECTION("a notification record inside another transfer's destination") {
    f.sb.on_live(0, 1, mem_xfer(1, 0x10000 - 0x40), 0);  // [kDst + 0xffc0, kDst + 0x10088)
    f.sb.on_live(2, 1, notify_xfer(1), 0);               // record at kDst + 0x10000
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what, Contains("overlap"));
  }
  SECTION("adjacent ranges do not overlap") {
    f.sb.on_live(0, 1, mem_xfer(1, 0x40), 0);   // [0x40, 0x108)
    f.sb.on_live(2, 1, mem_xfer(1, 0x108), 0);  // [0x108, 0x1d0)
    f.sb.on_live(1, 1, mem_xfer(1, 0x0, 0x40), 0);
    CHECK_FALSE(f.sb.failed());
  }
}

TEST_CASE("e2e: final_check lists at most 10 unfinished transfers, counts them all", "[e2e]") {
  Fixture f;
  for (unsigned i = 0; i < 12; ++i) f.sb.on_live(0, i, mem_xfer(1, 0x1000 * i), i);
  const std::vector<std::string> p = f.sb.final_check(100);
  CHECK(p.size() == 10);
  REQUIRE(f.sb.failed());
  CHECK(f.sb.first_error().what == "12 transfer(s) never finished");
}
