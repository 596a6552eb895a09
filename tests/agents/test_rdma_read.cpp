// SPDX-License-Identifier: Apache-2.0
// The simulator's side of RDMA Read (ICD 16) without a verilated model: traffic.read_pct in
// the configuration, "read" in scenario descriptor events, the random CPU's reads, the log
// writer's read kinds and rreq event, and the end-to-end scoreboard's read check. Expected
// words, messages and records are worked out from ICD 4, 7, 11, 13, 15 and 16.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/mem_image.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/common/wire.hpp"
#include "sim/agents/axi_master.hpp"
#include "sim/agents/cpu.hpp"
#include "sim/agents/e2e_scoreboard.hpp"
#include "sim/env/config.hpp"
#include "sim/env/log_writer.hpp"
#include "sim/env/scenario.hpp"
#include "tests/agents/e2e_fixture.hpp"

using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

constexpr uint64_t kBit40 = uint64_t{1} << 40;
constexpr uint64_t kMask48 = (uint64_t{1} << 48) - 1;
constexpr uint64_t kHalf = uint64_t{1} << 47;  // sources below, destinations at or above

using e2e_test::at;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------
TEST_CASE("config: traffic.read_pct is read, defaults to 0 and is dumped", "[rdma_read][config]") {
  sim::SimConfig c;
  CHECK(c.traffic.read_pct == 0);
  CHECK(c.to_json()["traffic"]["read_pct"] == 0);
  c.apply(json{{"traffic", {{"read_pct", 35}}}}, "c.json");
  CHECK(c.traffic.read_pct == 35);
  CHECK(c.to_json()["traffic"]["read_pct"] == 35);
  // the dump reads back to the same value
  sim::SimConfig d;
  d.apply(c.to_json(), "dump.json");
  CHECK(d.traffic.read_pct == 35);
  c.apply(json{{"traffic", {{"read_pct", 100}}}}, "c.json");
  CHECK(c.traffic.read_pct == 100);
}

TEST_CASE("config: a bad traffic.read_pct names the file and the key", "[rdma_read][config]") {
  sim::SimConfig c;
  CHECK_THROWS_WITH(c.apply(json{{"traffic", {{"read_pct", 101}}}}, "c.json"),
                    "c.json: key 'traffic.read_pct' = 101 is out of range [0, 100]");
  CHECK_THROWS_WITH(c.apply(json{{"traffic", {{"read_pct", -1}}}}, "c.json"),
                    Contains("c.json: key 'traffic.read_pct' must be a non-negative integer"));
  CHECK_THROWS_WITH(c.apply(json{{"traffic", {{"read_pct", "5"}}}}, "c.json"),
                    Contains("traffic.read_pct") && Contains("non-negative integer"));
  CHECK_THROWS_WITH(c.apply(json{{"traffic", {{"reads_pct", 5}}}}, "c.json"),
                    Contains("traffic.reads_pct") && Contains("read_pct"));
  CHECK(c.traffic.read_pct == 0);
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------
namespace {

json desc_event(json extra) {
  json e = {{"at", 0},
            {"op", "descriptor"},
            {"page", 2},
            {"channel", 6},
            {"kind", "1x"},
            {"src", "0x3000000000040"},
            {"dst", "0x800000000100"},
            {"size", 300},
            {"prio", 5}};
  for (auto it = extra.begin(); it != extra.end(); ++it) e[it.key()] = it.value();
  return e;
}

sim::Scenario one_event(const json& e) {
  return sim::parse_scenario(json{{"format", "ni-scenario/1"}, {"events", json::array({e})}},
                             "s.json", sim::ResponderOptions{});
}

// The words of a descriptor write, in word order (the burst's strobed halves).
std::vector<uint64_t> words_of(const sim::AxiWrite& w) {
  std::vector<uint64_t> out;
  for (const sim::AxiBeat& b : w.beats) {
    if (b.strb & 0x00FF) out.push_back(b.lo);
    if (b.strb & 0xFF00) out.push_back(b.hi);
  }
  return out;
}

}  // namespace

TEST_CASE("scenario: \"read\": true sets control bit 40, nothing else changes",
          "[rdma_read][scenario]") {
  const bool notify = GENERATE(false, true);
  const unsigned width = GENERATE(8u, 16u);
  json extra = {{"read", true}, {"width", width}};
  if (notify)
    extra.update({{"notify", true}, {"notify_addr", "0x800000020000"}, {"notify_tag", 7}});
  const sim::Scenario sc = one_event(desc_event(extra));
  REQUIRE(sc.events.size() == 1);
  const sim::ScenarioEvent& e = sc.events[0];
  CHECK(e.desc.read);
  const std::vector<uint64_t> got = words_of(e.write);
  REQUIRE(got.size() == (notify ? 8u : 4u));
  // ICD 4 by hand: size 300, prio 5 << 32, kind 1 << 36, notify << 38, long << 39, read << 40,
  // last << 63 (on line 0 of a short descriptor, on w7 of a long one)
  const uint64_t w3 = 300 | (uint64_t{5} << 32) | (uint64_t{1} << 36) |
                      (notify ? (uint64_t{3} << 38) : (uint64_t{1} << 63)) | kBit40;
  CHECK(got[0] == 0x3000000000040ull);
  CHECK(got[1] == 0x800000000100ull);
  CHECK(got[2] == 0);
  CHECK(got[3] == w3);
  if (notify) {
    CHECK(got[4] == 0x800000020000ull);
    CHECK(got[5] == 7);
    CHECK(got[6] == 0);
    CHECK(got[7] == uint64_t{1} << 63);
  }
  // the same event as a write: only bit 40 differs
  extra["read"] = false;
  const sim::Scenario w = one_event(desc_event(extra));
  CHECK_FALSE(w.events[0].desc.read);
  std::vector<uint64_t> want = got;
  want[3] &= ~kBit40;
  CHECK(words_of(w.events[0].write) == want);
}

TEST_CASE("scenario: \"read\" defaults to false; a read of kind inline is encoded as given",
          "[rdma_read][scenario]") {
  const sim::Scenario sc = one_event(desc_event(json::object()));
  CHECK_FALSE(sc.events[0].desc.read);
  CHECK((words_of(sc.events[0].write)[3] & kBit40) == 0);
  // illegal (ICD 16), but a scenario may write it to check the SLVERR
  const sim::Scenario il = one_event(json{{"at", 0},
                                          {"op", "descriptor"},
                                          {"page", 0},
                                          {"channel", 0},
                                          {"kind", "inline"},
                                          {"dst", "0x40"},
                                          {"payload", "0a0b"},
                                          {"read", 1u},
                                          {"expect_resp", "SLVERR"}});
  CHECK(il.events[0].desc.read);
  const std::vector<uint64_t> w = words_of(il.events[0].write);
  REQUIRE(w.size() == 4);
  CHECK(w[3] == (2 | (uint64_t{3} << 36) | kBit40 | (uint64_t{1} << 63)));
  CHECK(w[0] == 0x0b0a);
}

TEST_CASE("scenario: a bad \"read\" names the file, the event and the field",
          "[rdma_read][scenario]") {
  const json bad = GENERATE(json("yes"), json(2), json::array());
  const json s = {{"format", "ni-scenario/1"},
                  {"events", json::array({desc_event(json::object()),
                                          desc_event(json{{"at", 4}, {"read", bad}})})}};
  CHECK_THROWS_WITH(sim::parse_scenario(s, "s.json", sim::ResponderOptions{}),
                    "s.json: event #1 (descriptor): field 'read': must be true/false (or 0/1), "
                    "got " +
                        bad.dump());
}

TEST_CASE("scenario: net events match kind rreq on the request network", "[rdma_read][scenario]") {
  const sim::Scenario r =
      one_event(json{{"at", 0}, {"op", "net"}, {"action", "drop"}, {"kind", "rreq"}});
  REQUIRE(r.events[0].fault.kind.has_value());
  CHECK(*r.events[0].fault.kind == 5);  // READ_REQ, ICD 11
  CHECK_FALSE(r.events[0].rsp_net);
  const sim::Scenario a =
      one_event(json{{"at", 0}, {"op", "net"}, {"action", "drop"}, {"kind", "nack"}});
  CHECK(*a.events[0].fault.kind == 4);
  CHECK(a.events[0].rsp_net);
  // a raw READ_REQ head goes into req_rx, an ACK head into rsp_rx
  const sim::Scenario p =
      one_event(json{{"at", 0}, {"op", "packet"}, {"beats", json::array({"0x5"})}});
  CHECK_FALSE(p.events[0].rsp_net);
  const sim::Scenario q =
      one_event(json{{"at", 0}, {"op", "packet"}, {"beats", json::array({"0x3"})}});
  CHECK(q.events[0].rsp_net);
}

// ---------------------------------------------------------------------------------------------
// The random CPU
// ---------------------------------------------------------------------------------------------
namespace {

// A CPU on an AXI master that is never clocked: random_descriptor() only draws.
struct CpuRig {
  sim::Rng axi_rng{1};
  sim::AxiSlavePorts ports{};
  sim::AxiMaster axi{ports, axi_rng};
  sim::Rng rng;
  sim::Cpu cpu;
  CpuRig(uint64_t seed, sim::TrafficConfig t) : rng(seed), cpu(axi, rng, std::move(t), 1) {}
};

// Node 1 of 3, transfers up to 200,000 bytes (several blocks).
sim::TrafficConfig node_traffic(unsigned read_pct) {
  sim::TrafficConfig t;
  t.nodes = 3;
  t.self_node = 1;
  t.read_pct = read_pct;
  t.max_size = 200000;
  return t;
}

// FNV-1a over the words of `n` descriptors as random_descriptor() draws them.
uint64_t stream_digest(sim::Cpu& cpu, unsigned n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned i = 0; i < n; ++i) {
    for (uint64_t w : cpu.random_descriptor(0, 0).encode()) {
      for (unsigned b = 0; b < 8; ++b) h = (h ^ ((w >> (8 * b)) & 0xFF)) * 0x100000001b3ull;
    }
  }
  return h;
}

}  // namespace

TEST_CASE("cpu: read_pct 0 draws no read", "[rdma_read][cpu]") {
  CpuRig r(5, node_traffic(0));
  for (unsigned i = 0; i < 3000; ++i) {
    const ni::Descriptor x = r.cpu.random_descriptor(0, 0);
    REQUIRE_FALSE(x.read);
    REQUIRE((x.encode()[3] & kBit40) == 0);
  }
}

TEST_CASE("cpu: read_pct 0 draws the stream of the CPU before reads", "[rdma_read][cpu]") {
  // Digests of the first 500 descriptors (seed 11) as the CPU drew them before RDMA Read
  // existed (computed with that commit's cpu.cpp): the read decision must not draw a number
  // when read_pct is 0, so that every recorded seed replays.
  sim::TrafficConfig full = node_traffic(0);
  CpuRig a(11, full);
  CHECK(stream_digest(a.cpu, 500) == 0x04b945450224ab07ull);
  sim::TrafficConfig alone;  // the engine alone (nodes 0)
  CpuRig b(11, alone);
  CHECK(stream_digest(b.cpu, 500) == 0x1d7d4b334846237aull);
}

TEST_CASE("cpu: reads are legal memory transfers from any node into the issuer",
          "[rdma_read][cpu]") {
  CpuRig r(7, node_traffic(40));
  std::map<unsigned, unsigned> responders;
  unsigned reads = 0, memory = 0, notifying = 0;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // [a, a+n) of every destination
  for (unsigned i = 0; i < 3000; ++i) {
    const ni::Descriptor d = r.cpu.random_descriptor(0, 0);
    const std::vector<uint64_t> w = d.encode();
    REQUIRE(((w[3] & kBit40) != 0) == d.read);
    ranges.emplace_back(d.dst & kMask48, d.size);
    if (d.is_memory() && d.notify) ranges.emplace_back(d.notify_addr & kMask48, 16);
    if (d.is_memory()) ++memory;
    if (!d.read) continue;
    ++reads;
    INFO(d.to_string());
    REQUIRE(d.kind != ni::Kind::Inline);
    const unsigned responder = unsigned(d.src >> 48);
    REQUIRE(responder < 3);
    ++responders[responder];
    REQUIRE((d.src & kMask48) + d.size <= kHalf);  // the pattern region, no 2^48 crossing
    REQUIRE((d.dst >> 48) == 1);                   // the issuer's own node
    REQUIRE((d.dst & kMask48) >= kHalf);
    REQUIRE((d.dst & kMask48) + d.size <= uint64_t{1} << 48);
    REQUIRE(d.is_long() == d.notify);
    if (d.notify) {
      ++notifying;
      REQUIRE((d.notify_addr & kMask48) >= kHalf);
      REQUIRE(w.size() == 8);
      REQUIRE(w[4] == d.notify_addr);
    }
  }
  // about 40 % of the memory transfers; every node, the issuer included, is a responder
  CHECK(reads > memory * 30 / 100);
  CHECK(reads < memory * 50 / 100);
  CHECK(responders.size() == 3);
  CHECK(notifying > 0);
  // never a byte written twice: the destinations and records of all draws are disjoint
  std::sort(ranges.begin(), ranges.end());
  for (std::size_t i = 1; i < ranges.size(); ++i) {
    INFO("range " << i);
    REQUIRE(ranges[i - 1].first + ranges[i - 1].second <= ranges[i].first);
  }
}

TEST_CASE("cpu: engine-alone reads keep their source below 2^48", "[rdma_read][cpu]") {
  sim::TrafficConfig t;
  t.read_pct = 100;
  t.max_size = 0xFFFFFFFF;
  t.w_edge = 100;  // sizes up to 4 GiB
  CpuRig r(3, t);
  unsigned reads = 0;
  for (unsigned i = 0; i < 2000; ++i) {
    const ni::Descriptor x = r.cpu.random_descriptor(0, 0);
    REQUIRE(x.read == x.is_memory());  // 100 %: every memory transfer, never an inline one
    if (!x.read) continue;
    ++reads;
    REQUIRE((x.src & kMask48) + x.size <= uint64_t{1} << 48);
    REQUIRE((x.dst & kMask48) + x.size <= uint64_t{1} << 48);
  }
  CHECK(reads > 1000);
}

// ---------------------------------------------------------------------------------------------
// The log
// ---------------------------------------------------------------------------------------------
namespace {

struct TmpLog {
  std::string path = "/tmp/test_rdma_read_" + std::to_string(getpid()) + ".jsonl";
  ~TmpLog() { std::remove(path.c_str()); }
  std::string text() const {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

}  // namespace

TEST_CASE("log: the rreq event, exactly", "[rdma_read][log]") {
  TmpLog t;
  {
    sim::LogWriter file(t.path);
    sim::LogWriter node1(file, 1);
    node1.rreq(120, 1, 0, 513, 77, 64, sim::RreqAction::Serve);
    node1.rreq(121, 1, 2, 5, 16383, 127, sim::RreqAction::Dup);
    file.rreq(122, 0, 1, 9, 3, 70, sim::RreqAction::Drop);  // a drop's channel is -1
    file.rreq(123, 0, 1, 9, 3, -1, sim::RreqAction::Drop);
  }
  CHECK(t.text() ==
        "{\"cycle\":120,\"ev\":\"rreq\",\"node\":1,\"from\":0,\"tid\":513,\"seq\":77,"
        "\"channel\":64,\"action\":\"serve\"}\n"
        "{\"cycle\":121,\"ev\":\"rreq\",\"node\":1,\"from\":2,\"tid\":5,\"seq\":16383,"
        "\"channel\":127,\"action\":\"dup\"}\n"
        "{\"cycle\":122,\"ev\":\"rreq\",\"node\":0,\"from\":1,\"tid\":9,\"seq\":3,"
        "\"channel\":-1,\"action\":\"drop\"}\n"
        "{\"cycle\":123,\"ev\":\"rreq\",\"node\":0,\"from\":1,\"tid\":9,\"seq\":3,"
        "\"channel\":-1,\"action\":\"drop\"}\n");
  // every line is one JSON object
  std::istringstream lines(t.text());
  for (std::string l; std::getline(lines, l);) CHECK(json::parse(l)["ev"] == "rreq");
}

TEST_CASE("log: engine packet kind 2 is \"read\", wire kind 5 is \"rreq\"", "[rdma_read][log]") {
  TmpLog t;
  {
    sim::LogWriter w(t.path);
    for (uint8_t k : {0, 1, 2}) {
      ni::Packet p;
      p.hdr.kind = k;
      p.hdr.tid = 3;
      p.hdr.seq = 4;
      p.hdr.len = 32;
      p.seal();
      w.on_packet(sim::PacketEvent{10u + k, p.pack()});
    }
    const ni::WirePacket rreq = ni::make_response(ni::WireKind(5), 3, 4, 1, 0);
    w.on_tx(sim::TxEvent{20, sim::Net::Req, rreq});
    w.on_net(sim::NetEvent{21, sim::NetEvent::Action::Drop, 0, 1, 5, 3, 4});
  }
  std::istringstream lines(t.text());
  std::vector<json> ev;
  for (std::string l; std::getline(lines, l);) ev.push_back(json::parse(l));
  REQUIRE(ev.size() == 5);
  CHECK(ev[0]["kind"] == "inline");
  CHECK(ev[1]["kind"] == "control");
  CHECK(ev[2]["kind"] == "read");
  CHECK(ev[2]["ev"] == "packet");
  CHECK(ev[3]["ev"] == "tx");
  CHECK(ev[3]["kind"] == "rreq");
  CHECK(ev[4]["ev"] == "net");
  CHECK(ev[4]["kind"] == "rreq");
}

// ---------------------------------------------------------------------------------------------
// The end-to-end scoreboard
// ---------------------------------------------------------------------------------------------
namespace {

// Three nodes' memories and buses and a scoreboard over them.
using Sb = e2e_test::Fixture;

constexpr unsigned kReadXfer = 3 * 128 + 4;  // page 3 channel 4

// Node 0 reads `size` bytes of node 2's memory at 0x3000 into its own kHalf + dst_off; the
// node bits of dst_addr are ignored (ICD 16): 0x7777 names no node.
ni::Descriptor read_desc(uint64_t dst_off = 0x40, uint32_t size = 200) {
  ni::Descriptor d;
  d.page = 3;
  d.channel = 4;
  d.kind = ni::Kind::Tid;
  d.src = at(2, 0x3000);
  d.dst = at(0x7777, kHalf + dst_off);
  d.size = size;
  d.read = true;
  return d;
}

ni::Descriptor notify_read(uint64_t dst_off, uint32_t size) {
  ni::Descriptor d = read_desc(dst_off, size);
  d.notify = true;
  d.notify_addr = at(5, kHalf + 0x20000);  // node bits ignored: the issuer's memory
  d.notify_tag = 0x0102030405060708ull;
  return d;
}

// ICD 13 by hand: tag 0x0102030405060708, `size`, src_node 2 (the responder), 0x0001.
std::vector<uint8_t> record(uint32_t size, unsigned src_node = 2) {
  return {0x08,
          0x07,
          0x06,
          0x05,
          0x04,
          0x03,
          0x02,
          0x01,
          uint8_t(size),
          uint8_t(size >> 8),
          uint8_t(size >> 16),
          uint8_t(size >> 24),
          uint8_t(src_node),
          uint8_t(src_node >> 8),
          0x01,
          0x00};
}

}  // namespace

TEST_CASE("e2e read: the issuer's bytes equal the responder's pattern: DONE passes",
          "[rdma_read][e2e]") {
  Sb f;
  const ni::Descriptor d = read_desc();
  f.sb.on_live(0, kReadXfer, d, 10);
  CHECK_FALSE(f.sb.failed());  // dst_addr[63:48] = 0x7777 is no node, and is ignored
  CHECK_FALSE(f.sb.quiescent());
  f.put(0, kHalf + 0x40, f.m2.read(0x3000, 200), 0, 200);
  f.sb.on_finish(0, kReadXfer, false, 50);
  CHECK_FALSE(f.sb.failed());
  CHECK(f.sb.quiescent());
  CHECK(f.sb.final_check(60).empty());
  CHECK(f.sb.node_stats(0).done == 1);
  CHECK(f.sb.node_stats(0).reads == 1);
  CHECK(f.sb.node_stats(0).read_bytes == 200);
  CHECK(f.sb.node_stats(0).bytes_delivered == 200);
  CHECK(f.sb.node_stats(2).done == 0);
  CHECK(f.sb.node_stats(2).reads == 0);
  CHECK(f.m0.untouched(kHalf + 0x40, 200));  // checked, forgotten
}

TEST_CASE("e2e read: wrong bytes at the issuer fail", "[rdma_read][e2e]") {
  Sb f;
  const ni::Descriptor d = read_desc();
  f.sb.on_live(0, kReadXfer, d, 10);
  std::vector<uint8_t> want = f.m2.read(0x3000, 200);
  SECTION("one byte flipped") {
    std::vector<uint8_t> b = want;
    b[57] ^= 0xff;
    f.put(0, kHalf + 0x40, b, 0, 200);
    f.sb.on_finish(0, kReadXfer, false, 50);
    REQUIRE(f.sb.failed());
    CHECK(f.sb.first_error().what ==
          "DONE but destination bytes differ from the source: tid read of node 0 (page 3 "
          "channel 4, 200 bytes from node 2 0x3000 to 0x800000000040)");
    char line[96];
    std::snprintf(
        line, sizeof line, "byte 57 at node 0 0x800000000079: expected %02x, memory holds %02x",
        ni::pattern_byte(2, 0x3000 + 57), uint8_t(ni::pattern_byte(2, 0x3000 + 57) ^ 0xff));
    CHECK_THAT(f.sb.first_error().detail, Contains(line));
    CHECK(f.sb.data_mismatches() == 1);
    CHECK(f.sb.node_stats(0).bytes_delivered == 0);
  }
  SECTION("the issuer's own pattern instead of the responder's") {
    f.put(0, kHalf + 0x40, f.m0.read(0x3000, 200), 0, 200);
    f.sb.on_finish(0, kReadXfer, false, 50);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what, Contains("destination bytes differ"));
  }
  SECTION("nothing written") {
    f.sb.on_finish(0, kReadXfer, false, 50);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what, Contains("destination bytes differ"));
  }
  SECTION("written into the responder's memory, as a write would be") {
    f.put(2, kHalf + 0x40, want, 0, 200);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what, Contains("node 2 memory written at 0x800000000040") &&
                                            Contains("outside every live transfer"));
  }
}

TEST_CASE("e2e read: a responder that does not exist is a harness error", "[rdma_read][e2e]") {
  Sb f;
  ni::Descriptor d = read_desc();
  d.src = at(3, 0x3000);
  f.sb.on_live(0, kReadXfer, d, 0);
  REQUIRE(f.sb.failed());
  CHECK_THAT(f.sb.first_error().what,
             Contains("read of node 0") && Contains("names a node that does not exist"));
}

TEST_CASE("e2e read: the notification record at the issuer", "[rdma_read][e2e]") {
  // one block of 200 bytes, or two blocks across a 64 KiB boundary (0x100 + 0x100 bytes):
  // the record's size is that of the last block, the responder's last write transfer
  const auto [off, size, last] = GENERATE(std::make_tuple(uint64_t{0x40}, 200u, 200u),
                                          std::make_tuple(uint64_t{0xFF00}, 0x200u, 0x100u));
  Sb f;
  const ni::Descriptor d = notify_read(off, size);
  const std::vector<uint8_t> src = f.m2.read(0x3000, size);
  const uint64_t na = kHalf + 0x20000;
  f.sb.on_live(0, kReadXfer, d, 0);
  SECTION("after the data, before DONE: passes") {
    f.put(0, kHalf + off, src, 0, size);
    f.write(0, na, record(last), 30);
    f.sb.on_finish(0, kReadXfer, false, 40);
    CHECK_FALSE(f.sb.failed());
    CHECK(f.sb.node_stats(0).notifications == 1);
    CHECK(f.sb.node_stats(0).reads == 1);
  }
  SECTION("before the last data byte: fails") {
    f.put(0, kHalf + off, src, 0, size - 8);
    f.write(0, na, record(last), 30);
    f.put(0, kHalf + off + size - 8, src, size - 8, 8);
    f.sb.on_finish(0, kReadXfer, false, 40);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what, Contains("written before all of the transfer's data"));
  }
  SECTION("missing at DONE: fails") {
    f.put(0, kHalf + off, src, 0, size);
    f.sb.on_finish(0, kReadXfer, false, 40);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what,
               Contains("notification record at node 0 0x800000020000 is missing"));
  }
  SECTION("naming the issuer as src_node: fails") {
    f.put(0, kHalf + off, src, 0, size);
    f.write(0, na, record(last, 0), 30);
    f.sb.on_finish(0, kReadXfer, false, 40);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what,
               Contains("notification record at node 0 0x800000020000 is wrong"));
  }
  SECTION("written in the responder's memory: fails") {
    f.put(0, kHalf + off, src, 0, size);
    f.write(2, na, record(last), 30);
    f.sb.on_finish(0, kReadXfer, false, 40);
    REQUIRE(f.sb.failed());
    CHECK_THAT(f.sb.first_error().what, Contains("outside every live transfer"));
  }
}

TEST_CASE("e2e read: the size of a multi-block read's record is its last block's",
          "[rdma_read][e2e]") {
  Sb f;
  const ni::Descriptor d = notify_read(0xFF00, 0x200);
  f.sb.on_live(0, kReadXfer, d, 0);
  f.put(0, kHalf + 0xFF00, f.m2.read(0x3000, 0x200), 0, 0x200);
  f.write(0, kHalf + 0x20000, record(0x200), 30);  // the whole read's size: not what ICD 16 gives
  f.sb.on_finish(0, kReadXfer, false, 40);
  REQUIRE(f.sb.failed());
  CHECK_THAT(f.sb.first_error().what, Contains("is wrong"));
  CHECK_THAT(f.sb.first_error().detail,
             Contains("expected record 8 7 6 5 4 3 2 1 0 1 0 0 2 0 1 0"));
}

TEST_CASE("e2e read: the responder's read-channel transfers are checked as writes",
          "[rdma_read][e2e]") {
  // Node 0 reads 0x200 bytes of node 2 across a 64 KiB boundary with a notification; node 2's
  // engine serves the two blocks on read channels 64 and 65 of page 3 (ICD 16: src the
  // request's dst_addr[47:0], dst the issuer's block, the last with the notification).
  Sb f;
  const ni::Descriptor rd = notify_read(0xFF00, 0x200);
  f.sb.on_live(0, kReadXfer, rd, 0);
  ni::Descriptor b0;
  b0.page = 3;
  b0.channel = 64;
  b0.kind = ni::Kind::Tid;
  b0.src = 0x3000;
  b0.dst = at(0, kHalf + 0xFF00);
  b0.size = 0x100;
  ni::Descriptor b1 = b0;
  b1.channel = 65;
  b1.src = 0x3100;
  b1.dst = at(0, kHalf + 0x10000);
  b1.notify = true;
  b1.notify_addr = rd.notify_addr;
  b1.notify_tag = rd.notify_tag;
  const unsigned x0 = 3 * 128 + 64, x1 = 3 * 128 + 65;
  f.sb.on_live(2, x1, b1, 5);  // inside the read's ranges: no overlap
  f.sb.on_live(2, x0, b0, 6);
  REQUIRE_FALSE(f.sb.failed());
  const std::vector<uint8_t> src = f.m2.read(0x3000, 0x200);
  SECTION("served, then the read DONE: passes, counted once, at the issuer") {
    f.put(0, kHalf + 0x10000, src, 0x100, 0x100);
    f.sb.on_finish(2, x1, false, 20);  // before the record: the read checks the record
    f.put(0, kHalf + 0xFF00, src, 0, 0x100);
    f.sb.on_finish(2, x0, false, 21);
    f.write(0, kHalf + 0x20000, record(0x100), 22);
    REQUIRE_FALSE(f.sb.failed());
    CHECK_FALSE(f.sb.quiescent());
    f.sb.on_finish(0, kReadXfer, false, 30);
    CHECK_FALSE(f.sb.failed());
    CHECK(f.sb.quiescent());
    CHECK(f.sb.node_stats(2).done == 0);
    CHECK(f.sb.node_stats(2).bytes_delivered == 0);
    CHECK(f.sb.node_stats(0).done == 1);
    CHECK(f.sb.node_stats(0).reads == 1);
    CHECK(f.sb.node_stats(0).bytes_delivered == 0x200);
  }
  SECTION("a served block with wrong bytes fails when it turns DONE") {
    std::vector<uint8_t> bad = src;
    bad[0x1ff] ^= 1;
    f.put(0, kHalf + 0x10000, bad, 0x100, 0x100);
    f.sb.on_finish(2, x1, false, 20);
    REQUIRE(f.sb.failed());
    CHECK(f.sb.first_error().what ==
          "DONE but destination bytes differ from the source: tid transfer of node 2 on a read "
          "channel (page 3 channel 65, 256 bytes to node 0 0x800000010000)");
    CHECK_THAT(f.sb.first_error().detail, Contains("byte 255 at node 0 0x8000000100ff"));
  }
  SECTION("a read channel that never finishes is reported") {
    f.put(0, kHalf + 0xFF00, src, 0, 0x200);
    f.write(0, kHalf + 0x20000, record(0x100), 22);
    f.sb.on_finish(2, x1, false, 20);
    f.sb.on_finish(0, kReadXfer, false, 30);
    REQUIRE_FALSE(f.sb.failed());
    const std::vector<std::string> p = f.sb.final_check(100);
    REQUIRE(p.size() == 1);
    CHECK_THAT(p[0], Contains("never finished") && Contains("node 2 on a read channel") &&
                         Contains("channel 64"));
  }
  SECTION("a read channel's ERROR fails unless errors are allowed") {
    const bool allow = GENERATE(false, true);
    f.sb.allow_errors(allow);
    f.sb.on_finish(2, x0, true, 20);
    CHECK(f.sb.failed() == !allow);
    CHECK(f.sb.node_stats(2).error == 0);
  }
}

// ---------------------------------------------------------------------------------------------
// Read channels and the READ_REQ kind's name
// ---------------------------------------------------------------------------------------------
TEST_CASE("read channels are 64..127 of a page; READ_REQ is named rreq", "[rdma_read]") {
  CHECK(ni::is_read_channel(3 * 128 + 64));
  CHECK(ni::is_read_channel(3 * 128 + 127));
  CHECK_FALSE(ni::is_read_channel(3 * 128 + 63));
  CHECK_FALSE(ni::is_read_channel(4 * 128));
  CHECK(std::string(ni::to_string(ni::WireKind::ReadReq)) == "rreq");
  CHECK(std::string(ni::to_string(ni::WireKind(6))) == "?");
}
