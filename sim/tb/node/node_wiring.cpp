// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/node/node_wiring.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "ref_model/common/addr_map.hpp"
#include "sim/agents/cpu.hpp"
#include "sim/agents/e2e_scoreboard.hpp"
#include "sim/agents/network.hpp"
#include "sim/tb/node/node_agents.hpp"
#include "sim/tb/node/node_coverage.hpp"

namespace sim {

namespace {
// Counters 16..26 (ICD 8).
enum NodeCounter : unsigned {
  kSent = 0,
  kReceived,
  kHcrcErr,
  kPcrcErr,
  kNoContext,
  kStale,
  kMisrouted,
  kAcksSent,
  kNacksSent,
  kNotifications,
  kReclaimed
};
// The counters the report lists by name: 16..26, and RDMA Read's 27..29 (ICD 8, 16), all read
// back at the end of a run (an index the RTL does not count reads 0).
constexpr unsigned kReportedCounters = 14;
static_assert(ni::NumNodeStats <= kReportedCounters, "every node counter has a report name");
const char* const kCounterNames[kReportedCounters] = {
    "packets_sent", "packets_received", "hcrc_errors",        "pcrc_errors",
    "no_context",   "stale_or_dup",     "misrouted",          "acks_sent",
    "nacks_sent",   "notifications",    "contexts_reclaimed", "rreq_dropped_no_channel",
    "rreq_dup",     "rreq_served"};

// What one node's bus shows of the counters' other side (ICD 15 "counters consistent across
// nodes"): the responses it put on the response network, the packets it took with a bad
// head CRC.
struct Tally : Listener {
  void on_tx(const TxEvent& e) override {
    if (e.net != Net::Rsp) return;
    const unsigned k = e.packet.head().kind;
    if (k == unsigned(ni::WireKind::Ack)) ++acks_tx;
    if (k == unsigned(ni::WireKind::Nack)) ++nacks_tx;
  }
  void on_rx(const RxEvent& e) override {
    if (!e.packet.hcrc_ok()) ++bad_hcrc_rx;
  }
  uint64_t acks_tx = 0, nacks_tx = 0, bad_hcrc_rx = 0;
};
}  // namespace

// Plays a scenario's "net" (a fault aimed at the next matching packet) and "packet" (raw
// beats into a node's rx port) events at their cycles.
class NodeWiring::NetScenarioDriver : public Component {
 public:
  NetScenarioDriver(const Scenario& sc, Network& req, Network& rsp, Recorder* rec)
      : sc_(sc), req_(req), rsp_(rsp), rec_(rec) {
    // One past the last net or packet event (done() is asked every cycle).
    for (std::size_t i = sc_.events.size(); i > 0 && end_ == 0; --i) {
      const auto op = sc_.events[i - 1].op;
      if (op == ScenarioEvent::Op::Net || op == ScenarioEvent::Op::Packet) end_ = i;
    }
  }
  void drive(uint64_t cycle) override {
    while (next_ < sc_.events.size() && sc_.events[next_].at <= cycle) {
      const ScenarioEvent& e = sc_.events[next_++];
      Network& net = e.rsp_net ? rsp_ : req_;
      if (e.op == ScenarioEvent::Op::Net) {
        net.arm(e.fault);
      } else if (e.op == ScenarioEvent::Op::Packet) {
        net.inject(e.node, ni::WirePacket{e.beats}, cycle);
      } else {
        continue;
      }
      if (rec_) {
        nlohmann::json j = e.raw;
        j["at"] = cycle;
        rec_->raw(j);
      }
    }
  }
  bool done() const { return next_ >= end_; }
  bool busy() const override { return !done(); }

 private:
  const Scenario& sc_;
  Network& req_;
  Network& rsp_;
  Recorder* rec_;
  std::size_t next_ = 0;
  std::size_t end_ = 0;
};

struct NodeWiring::Node {
  std::unique_ptr<Rng> cpu_rng, axi_rng, mem_rng;
  std::unique_ptr<NodeAgents> a;
  std::unique_ptr<Cpu> cpu;                // random runs
  std::unique_ptr<ScenarioDriver> driver;  // scenario replays
  std::unique_ptr<LogWriter> log;          // this node's writer on the --log file
  Tally tally;
  std::array<uint64_t, ni::NumNodeStats> counters{};
  std::array<uint64_t, kReportedCounters> reported{};  // counters 16..29, for the report
  uint64_t counters_cycle = 0;                         // when counter 26 was read
  std::array<uint64_t, 16> stats{};
};

NodeWiring::NodeWiring(Env& env) : env_(env) {
  const EnvOptions& opt = env.options();
  const SimConfig& cfg = opt.cfg;
  faulty_ = cfg.network.drop_pct > 0 || cfg.network.corrupt_pct > 0 || cfg.network.dup_pct > 0;
  if (opt.scenario != nullptr) {
    for (const ScenarioEvent& e : opt.scenario->events) {
      if (e.op == ScenarioEvent::Op::Net || e.op == ScenarioEvent::Op::Packet) faulty_ = true;
    }
  }
  for (unsigned i = 0; i < cfg.nodes; ++i) build_node(i);

  std::vector<Network::Port> req_ports, rsp_ports;
  for (const auto& n : nodes_) {
    req_ports.push_back(n->a->net_port(Net::Req));
    rsp_ports.push_back(n->a->net_port(Net::Rsp));
  }
  req_rng_ = env.stream(5);
  rsp_rng_ = env.stream(6);
  req_ = std::make_unique<Network>(Net::Req, req_ports, net_bus_, *req_rng_, cfg.network);
  rsp_ = std::make_unique<Network>(Net::Rsp, rsp_ports, net_bus_, *rsp_rng_, cfg.network);
  if (opt.scenario != nullptr)
    net_driver_ = std::make_unique<NetScenarioDriver>(*opt.scenario, *req_, *rsp_, env.recorder());

  std::vector<ni::MemImage*> images;
  for (auto& n : nodes_) images.push_back(&n->a->mem().image());
  e2e_ = std::make_unique<E2eScoreboard>(images);
  e2e_->allow_errors(faulty_);
  e2e_->allow_stray_writes(faulty_);
  // An open-loop run (a capture replay: the network drops everything the nodes send, the
  // captured traffic is injected) cannot compare a transfer's remote destination.
  e2e_->check_data(cfg.network.drop_pct < 100);

  // Who listens on each node's bus, after its own checkers and log writer: the end-to-end
  // scoreboard, the coverage, the counters' tally.
  if (!opt.coverage_path.empty()) {
    std::vector<const NiNodePorts*> ports;
    for (const auto& n : nodes_) ports.push_back(&n->a->ports());
    cov_ = std::make_unique<NodeCoverage>(ports, *req_, *rsp_);
  }
  for (auto& n : nodes_) {
    e2e_->attach(n->a->id(), n->a->bus());
    if (cov_) cov_->attach(n->a->id(), n->a->bus());
    n->a->bus().add(n->tally);
  }
  if (LogWriter* log = env.log()) net_bus_.add(*log);
  if (cov_) cov_->attach_networks(net_bus_);

  // Per cycle: stimulus of every node, the networks, then every node's monitors and bus.
  SimCtrl& ctrl = env.ctrl();
  if (net_driver_) ctrl.add(*net_driver_);
  if (cov_) ctrl.add(*cov_);
  for (auto& n : nodes_) {
    if (n->cpu) ctrl.add(*n->cpu);
    if (n->driver) ctrl.add(*n->driver);
    n->a->add_stimulus(ctrl);
  }
  ctrl.add(*req_);
  ctrl.add(*rsp_);
  for (auto& n : nodes_) n->a->add_monitors(ctrl);
  for (auto& n : nodes_) {
    for (Checker* c : n->a->checkers()) env.add_checker(*c);
  }
  env.add_checker(*e2e_);
}

NodeWiring::~NodeWiring() = default;

uint64_t NodeWiring::transfers_of(unsigned i) const {
  const uint64_t t = env_.options().cfg.traffic.transfers, n = env_.options().cfg.nodes;
  return t / n + (i < t % n ? 1 : 0);
}

void NodeWiring::build_node(unsigned i) {
  const EnvOptions& opt = env_.options();
  const SimConfig& cfg = opt.cfg;
  auto np = std::make_unique<Node>();
  Node& n = *np;
  n.cpu_rng = env_.stream(16 * (i + 1) + 0);
  n.axi_rng = env_.stream(16 * (i + 1) + 1);
  n.mem_rng = env_.stream(16 * (i + 1) + 2);
  NodeAgents::Options ao;
  ao.axi = cfg.axi;
  ao.memory = cfg.memory;
  ao.rx_idle = cfg.retx.rx_idle.value_or(65536);
  n.a = std::make_unique<NodeAgents>(env_.context(), i, *n.axi_rng, *n.mem_rng, ao);
  env_.add_dut(n.a->dut());
  TrafficConfig tc = cfg.traffic;
  tc.transfers = transfers_of(i);
  tc.nodes = cfg.nodes;
  tc.self_node = i;
  if (opt.scenario != nullptr) {
    n.driver = std::make_unique<ScenarioDriver>(*opt.scenario, n.a->axi(), i);
    env_.add_driver(*n.driver);
  } else {
    n.cpu =
        std::make_unique<Cpu>(n.a->axi(), *n.cpu_rng, tc, NodeAgents::engine_config(i).acc_sets);
  }
  env_.record(n.a->axi(), int(i));
  if (LogWriter* log = env_.log()) {
    n.log = std::make_unique<LogWriter>(*log, i);
    n.a->bus().add(*n.log);
  }
  nodes_.push_back(std::move(np));
}

void NodeWiring::configure() {
  // The configuration's control registers, before any descriptor (ICD 15 "retx"): CPU
  // transactions like any other, so recorded; a scenario that writes them itself (a recorded
  // run) is not given them again.
  const EnvOptions& opt = env_.options();
  const RetxConfig& rc = opt.cfg.retx;
  for (auto& n : nodes_) {
    if (opt.scenario != nullptr && writes_ctrl_regs(*opt.scenario, n->a->id())) continue;
    auto reg = [&](unsigned word, uint64_t v) {
      AxiWrite w;
      w.addr = ni::ctrl_addr(word);
      w.size = 3;
      w.beats.push_back(AxiBeat{v, 0, 0x00FF, true});
      n->a->axi().write(std::move(w));
    };
    if (rc.timeout) reg(0, *rc.timeout);
    if (rc.max_retries) reg(1, *rc.max_retries);
    if (rc.rx_idle) reg(2, *rc.rx_idle);
  }
}

bool NodeWiring::initialised() const {
  for (const auto& n : nodes_) {
    if (!*n->a->ports().init_done) return false;
  }
  return true;
}

bool NodeWiring::done() const {
  if (net_driver_ && !net_driver_->done()) return false;
  for (const auto& n : nodes_) {
    const NodeAgents& a = *n->a;
    if ((n->cpu && !n->cpu->done()) || (n->driver && !n->driver->done()) || a.axi().busy() ||
        !a.model().quiescent() || a.mem().busy() || !a.send().quiescent()) {
      return false;
    }
  }
  if (req_->busy() || rsp_->busy()) return false;
  if (!faulty_) {
    // Every block acknowledged means every receive context freed.
    for (const auto& n : nodes_) {
      if (*n->a->ports().rx_busy) return false;
    }
  }
  return true;
}

uint64_t NodeWiring::cycle_budget() const {
  const EnvOptions& opt = env_.options();
  uint64_t budget = opt.scenario != nullptr ? scenario_budget(*opt.scenario)
                                            : 50000 + opt.cfg.traffic.transfers * 4000;
  // Retransmission: a block the faults hit k times finishes k timeouts later, and one that
  // reaches MaxRetries ends its transfer ERROR after MaxRetries + 1 timeouts (ICD 13), so
  // the automatic bound leaves room for that many behind the last transfer.
  const RetxConfig& rc = opt.cfg.retx;
  if (rc.timeout && *rc.timeout != 0) budget += (rc.max_retries.value_or(3) + 1) * *rc.timeout;
  return budget;
}

std::string NodeWiring::timeout_message(uint64_t budget) const {
  uint64_t live = 0, fin = 0;
  for (const auto& n : nodes_) {
    live += n->a->model().transfers_live();
    fin += n->a->model().transfers_done() + n->a->model().transfers_error();
  }
  return "timeout: not finished after " + std::to_string(budget) + " cycles (" +
         std::to_string(live) + " transfers live, " + std::to_string(fin) + " seen finished, " +
         std::to_string(req_->in_flight() + rsp_->in_flight()) + " packets in the networks)";
}

uint64_t NodeWiring::transfers_finished() const {
  uint64_t fin = 0;
  for (const auto& n : nodes_)
    fin += n->a->model().transfers_done() + n->a->model().transfers_error();
  return fin;
}

void NodeWiring::read_back() {
  // The read-back is not stimulus (every run and replay does it) and the CPUs are done.
  env_.stop_recording();
  for (auto& n : nodes_) {
    if (n->cpu) n->cpu->stop();
  }
  for (auto& np : nodes_) {
    Node* n = np.get();
    for (unsigned i = 0; i < ni::NodeStatBase + kReportedCounters; ++i) {
      AxiRead rd;
      rd.addr = ni::stat_addr(i);
      n->a->axi().read(rd, [n, i](const AxiRead& r) {
        const uint64_t v = r.data.empty() ? 0 : r.data[0];
        if (i < 16) n->stats[i] = v;
        if (i >= ni::NodeStatBase) n->reported[i - ni::NodeStatBase] = v;
        if (i >= ni::NodeStatBase && i < ni::NodeStatBase + ni::NumNodeStats)
          n->counters[i - ni::NodeStatBase] = v;
        if (i + 1 == ni::NodeStatBase + ni::NumNodeStats) n->counters_cycle = r.r_cycle;
      });
    }
  }
  env_.run_until(
      [this] {
        for (const auto& n : nodes_) {
          if (n->a->axi().busy() || !n->a->model().quiescent()) return false;
        }
        return true;
      },
      20000);
  for (auto& n : nodes_) n->a->recv().check_counters(n->counters, n->counters_cycle);
}

// The receive units idle, and counters 16-26 against what the networks and memories saw
// (ICD 15 "counters consistent across nodes").
std::vector<std::string> NodeWiring::end_problems() const {
  std::vector<std::string> p;
  for (const auto& n : nodes_) {
    if (!faulty_ && *n->a->ports().rx_busy) {
      p.push_back("node" + std::to_string(n->a->id()) +
                  ": the receive unit still holds a context or a packet at the end");
    }
  }
  auto expect = [&](const Node& n, unsigned c, uint64_t want, const std::string& why) {
    if (n.counters[c] != want) {
      p.push_back("node" + std::to_string(n.a->id()) + " counter " +
                  std::to_string(ni::NodeStatBase + c) + " (" + kCounterNames[c] +
                  ") = " + std::to_string(n.counters[c]) + ", expected " + std::to_string(want) +
                  " (" + why + ")");
    }
  };
  for (const auto& np : nodes_) {
    const Node& n = *np;
    const unsigned id = n.a->id();
    expect(n, kSent, req_->sent_by(id) + rsp_->sent_by(id), "packets it put on both networks");
    expect(n, kReceived, req_->delivered_to(id) + rsp_->delivered_to(id),
           "packets both networks delivered to it");
    expect(n, kHcrcErr, n.tally.bad_hcrc_rx, "delivered packets with a bad hcrc");
    expect(n, kAcksSent, n.tally.acks_tx, "ACKs on the response network");
    expect(n, kNacksSent, n.tally.nacks_tx, "NACKs on the response network");
    if (!faulty_) {
      expect(n, kPcrcErr, 0, "fault-free network");
      expect(n, kMisrouted, 0, "fault-free network");
      expect(n, kNoContext, 0, "nothing to retransmit a dropped packet");
      expect(n, kStale, 0, "fault-free network");
    }
    // Every record the memory received, of a live transfer or of one that had ended (a
    // sender that gave up; a late duplicate of a control packet). Not in an open-loop replay
    // of a capture: its senders' transfers are not in this run.
    if (env_.options().cfg.network.drop_pct < 100) {
      expect(n, kNotifications, e2e_->node_stats(id).notifications,
             "notification records written into its memory");
    }
  }
  return p;
}

namespace {
// Per-kind latency summaries (ICD 9: cycles from a transfer going live to its DONE/ERROR).
nlohmann::json latency_json(const std::array<ni::LatencyStats, 4>& lat) {
  nlohmann::json j;
  for (unsigned k = 0; k < 4; ++k) {
    const ni::LatencyStats& s = lat[k];
    j[ni::to_string(ni::Kind(k))] = {{"count", s.count},
                                     {"min", s.count ? s.min : 0},
                                     {"mean", s.count ? double(s.sum) / double(s.count) : 0.0},
                                     {"max", s.max}};
  }
  return j;
}

// The faults a network injected into one node's packets (ICD 15 report, per node).
nlohmann::json faults_json(const Network::Counts& c) {
  return {{"dropped", c.dropped},
          {"dropped_no_node", c.no_node},
          {"corrupted", c.corrupted},
          {"duplicated", c.duplicated}};
}
}  // namespace

void NodeWiring::report(const RunResult& r, nlohmann::json& j) const {
  std::array<ni::LatencyStats, 4> lat_all{};
  uint64_t done = 0, err = 0, live = 0, blocks = 0, pkts = 0, bytes = 0;
  nlohmann::json per = nlohmann::json::array();
  for (const auto& np : nodes_) {
    const Node& n = *np;
    const unsigned id = n.a->id();
    const ni::EngineModel& m = n.a->model();
    const E2eScoreboard::NodeStats& es = e2e_->node_stats(id);
    done += m.transfers_done();
    err += m.transfers_error();
    live += m.transfers_live();
    blocks += m.stats().get(ni::Stat::BlocksIssued);
    pkts += req_->sent_by(id);
    bytes += es.bytes_delivered;
    nlohmann::json c;
    for (unsigned i = 0; i < kReportedCounters; ++i) c[kCounterNames[i]] = n.reported[i];
    for (unsigned k = 0; k < 4; ++k) {
      const ni::LatencyStats& l = m.latency()[k];
      ni::LatencyStats& a = lat_all[k];
      if (l.count == 0) continue;
      a.min = a.count ? std::min(a.min, l.min) : l.min;
      a.max = std::max(a.max, l.max);
      a.sum += l.sum;
      a.count += l.count;
    }
    per.push_back(
        {{"node", id},
         {"transfers", m.transfers_live()},
         {"completed", m.transfers_done()},
         {"errors", m.transfers_error()},
         {"bytes_delivered", es.bytes_delivered},
         {"goodput_bytes_per_cycle",
          r.cycles ? double(es.bytes_delivered) / double(r.cycles) : 0.0},
         {"packets_sent", {{"req", req_->sent_by(id)}, {"rsp", rsp_->sent_by(id)}}},
         {"packets_received", {{"req", req_->delivered_to(id)}, {"rsp", rsp_->delivered_to(id)}}},
         {"blocks", m.stats().get(ni::Stat::BlocksIssued)},
         {"retransmissions", n.stats[8]},
         {"timeouts", n.stats[13]},
         {"drops",
          {{"hcrc", n.counters[kHcrcErr]},
           {"pcrc", n.counters[kPcrcErr]},
           {"no_context", n.counters[kNoContext]},
           {"stale_or_dup", n.counters[kStale]},
           {"misrouted", n.counters[kMisrouted]}}},
         {"notifications", n.counters[kNotifications]},
         {"reads", es.reads},
         {"read_bytes", es.read_bytes},
         {"faults_injected",
          {{"req", faults_json(req_->counts_from(id))},
           {"rsp", faults_json(rsp_->counts_from(id))}}},
         {"latency_cycles", latency_json(m.latency())},
         {"stray_writes", es.stray_writes},
         {"memory", {{"reads", n.a->mem().reads()}, {"writes", n.a->mem().writes()}}},
         {"counters", c}});
  }
  auto net = [](const Network& w) {
    const Network::Counts& c = w.counts();
    return nlohmann::json{{"sent", c.sent},           {"delivered", c.delivered},
                          {"dropped", c.dropped},     {"dropped_no_node", c.no_node},
                          {"corrupted", c.corrupted}, {"duplicated", c.duplicated},
                          {"injected", c.injected},   {"full_stalls", c.full_stalls}};
  };
  j["nodes"] = nodes_.size();
  j["transfers"] = live;
  j["completed"] = done;
  j["errors"] = err;
  j["mismatches"] = r.passed ? 0 : 1;
  j["data_mismatches"] = e2e_->data_mismatches();
  j["blocks"] = blocks;
  j["packets"] = pkts;
  j["bytes_delivered"] = bytes;
  j["goodput_bytes_per_cycle"] = r.cycles ? double(bytes) / double(r.cycles) : 0.0;
  j["latency_cycles"] = latency_json(lat_all);
  j["faults_injected"] = {{"req", net(*req_)}, {"rsp", net(*rsp_)}};
  j["per_node"] = per;
}

std::string NodeWiring::summary(const nlohmann::json& report) const {
  char b[512];
  std::snprintf(
      b, sizeof b,
      ", %zu nodes: %" PRIu64 " transfers (%" PRIu64 " DONE, %" PRIu64 " ERROR), %" PRIu64
      " blocks, %" PRIu64 " request packets, %" PRIu64 " bytes delivered (%.2f bytes/cycle)",
      nodes_.size(), report["transfers"].get<uint64_t>(), report["completed"].get<uint64_t>(),
      report["errors"].get<uint64_t>(), report["blocks"].get<uint64_t>(),
      report["packets"].get<uint64_t>(), report["bytes_delivered"].get<uint64_t>(),
      report["goodput_bytes_per_cycle"].get<double>());
  return b;
}

std::string NodeWiring::random_run_name() const {
  return "a random run of " + std::to_string(nodes_.size()) + " nodes";
}

std::string NodeWiring::progress_label(unsigned threads) const {
  return std::to_string(nodes_.size()) + " node" + (nodes_.size() == 1 ? "" : "s") + ", " +
         std::to_string(threads) + " thread" + (threads == 1 ? "" : "s");
}

std::vector<CaptureSignal> NodeWiring::capture_columns(unsigned node) const {
  return nodes_.at(node)->a->dut().capture_columns();
}

void NodeWiring::write_coverage(const std::string& path, const nlohmann::json& source) const {
  if (cov_) cov_->write(path, source);
}

void NodeWiring::trace_closed(const std::string& fst) const {
  NiNodeDut::write_save_file(fst, unsigned(nodes_.size()));
}

Env::MakeWiring node_wiring() {
  return [](Env& env) { return std::make_unique<NodeWiring>(env); };
}

}  // namespace sim
