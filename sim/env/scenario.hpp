// SPDX-License-Identifier: Apache-2.0
// Scenario files (ICD section 9, "ni-scenario/1"): loading with strict validation, the
// driver that plays a scenario's events into the test bench, and the recorder that writes
// any run's stimulus as a scenario whose replay gives the same --log, byte for byte.
//
// Events beyond the ICD's minimum (documented in docs/simulator.md "Scenarios"): a write may give
// its beats raw ("beats": [{"lo","hi","strb","last"}]) instead of "data", and "burst",
// "len", "id"; a read may give "len", "size", "burst", "id".
//
// The full NI (ICD 15): every event may name a "node" (default 0); "net" aims a fault at the
// next packet that matches, "packet" injects raw beats into a node's req_rx or rsp_rx.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ref_model/common/descriptor.hpp"
#include "sim/agents/axi_master.hpp"
#include "sim/agents/network.hpp"
#include "sim/agents/responder.hpp"
#include "sim/agents/stall_injector.hpp"
#include "sim/core/component.hpp"

namespace sim {

struct ScenarioError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ScenarioEvent {
  enum class Op { Write, Read, Descriptor, Ack, Stall, Responder, Net, Packet };
  std::size_t index = 0;  // position in the file's "events" list
  nlohmann::json raw;     // the event as written in the file
  uint64_t at = 0;
  Op op = Op::Write;
  // write / read / descriptor
  AxiWrite write;
  AxiRead read;
  std::optional<uint8_t> expect_resp;
  std::optional<uint64_t> expect;  // read data
  ni::Descriptor desc;
  unsigned width = 16;
  // ack
  uint16_t tid = 0, seq = 0;
  bool nack = false;
  // stall
  StallInjector::Port port = StallInjector::Port::Blk;
  uint64_t cycles = 0;
  // responder
  bool have_resp_opts = false;
  ResponderOptions resp;
  // full NI: the node the event is for ("node"; 0 when absent)
  unsigned node = 0;
  bool has_node = false;
  // net: the fault, and on which network (responses: the response network)
  NetFault fault;
  bool rsp_net = false;
  // packet: the beats, into rsp_rx (else req_rx)
  std::vector<std::array<uint64_t, 8>> beats;
  std::string what() const;  // "event #3 (write at 0x100)"
};

struct Scenario {
  std::string path;
  std::string description;
  nlohmann::json config;  // null when absent
  std::vector<ScenarioEvent> events;
};

// Parses and validates a scenario file. Every error names the file, the event index and
// the field. `base_resp` is the responder configuration "responder" events start from.
Scenario load_scenario(const std::string& path, const ResponderOptions& base_resp);
Scenario parse_scenario(const nlohmann::json& j, const std::string& where,
                        const ResponderOptions& base_resp);
// Checks the events against the simulated system: with `nodes` = 0 (the engine alone) no
// event may name a node or use "net"/"packet"; with N >= 1 every "node" must be < N and the
// engine-port ops ("ack", "stall", "responder") do not apply. Errors name file, event, field.
void check_scenario_nodes(const Scenario& sc, unsigned nodes);

// True when the scenario writes node `node`'s control registers itself (a write event into
// the control region, ICD 3): a recorded run's events carry the configuration's register
// writes, so the harness does not write them again from "config".
bool writes_ctrl_regs(const Scenario& sc, unsigned node);

// Plays a scenario: hands each event to its port at its cycle (AXI transactions to the
// master, acks and responder changes to the responder, stalls to the stall injectors) and
// checks the expectations it carries.
class ScenarioDriver : public Component {
 public:
  ScenarioDriver(const Scenario& sc, AxiMaster& axi, Responder& rsp, StallInjector& blk,
                 StallInjector& pkt);
  // Full NI: plays the CPU-port events (write, read, descriptor) of node `node` only.
  ScenarioDriver(const Scenario& sc, AxiMaster& axi, unsigned node);
  void drive(uint64_t cycle) override;
  bool busy() const override { return !done(); }
  bool done() const;
  bool failed() const { return !failure_.empty(); }
  const std::string& failure() const { return failure_; }
  uint64_t failure_cycle() const { return failure_cycle_; }

 private:
  bool mine(const ScenarioEvent& e) const;
  // One past the last event this driver plays (done() is asked every cycle).
  std::size_t end_of_mine() const;

  const Scenario& sc_;
  AxiMaster& axi_;
  Responder* rsp_ = nullptr;
  StallInjector* blk_ = nullptr;
  StallInjector* pkt_ = nullptr;
  int node_ = -1;  // >= 0: only this node's CPU-port events
  std::size_t next_ = 0;
  std::size_t end_ = 0;  // end_of_mine()
  std::string failure_;
  uint64_t failure_cycle_ = 0;
};

// AXI writes of a descriptor event: one burst per descriptor, in word order (an RDMA Read,
// ICD 16: the descriptor's `read` sets control bit 40).
AxiWrite descriptor_write(const ni::Descriptor& d, unsigned width);

// Collects a run's stimulus and writes it as a scenario.
class Recorder {
 public:
  Recorder() = default;
  // `node` >= 0: the event names its node (full NI).
  void write(uint64_t at, const AxiWrite& w, int node = -1);
  void read(uint64_t at, const AxiRead& r, int node = -1);
  void ack(uint64_t at, uint16_t tid, uint16_t seq, bool nack);
  void stall(uint64_t at, StallInjector::Port port, uint64_t cycles);
  // An event kept as written (a replayed scenario's "net" and "packet" events).
  void raw(const nlohmann::json& e) { events_.push_back(e); }
  // `config`: the SimConfig of the run as JSON; the recorder turns the responder to script
  // mode and removes random stalls (they are recorded as events).
  void save(const std::string& path, nlohmann::json config, const std::string& description) const;

 private:
  std::vector<nlohmann::json> events_;
};

}  // namespace sim
