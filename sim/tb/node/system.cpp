// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/node/system.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "ref_model/common/addr_map.hpp"
#include "ref_model/qos/engine_model.hpp"
#include "sim/agents/axi_master.hpp"
#include "sim/agents/cpu.hpp"
#include "sim/agents/e2e_scoreboard.hpp"
#include "sim/agents/engine_checker.hpp"
#include "sim/agents/mem_model.hpp"
#include "sim/agents/monitors.hpp"
#include "sim/agents/network.hpp"
#include "sim/agents/recv_unit_checker.hpp"
#include "sim/agents/send_checker.hpp"
#include "sim/core/log_writer.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/sim_ctrl.hpp"
#include "sim/tb/node/ni_node_dut.hpp"
#include "sim/tb/node/node_coverage.hpp"
#include "verilated.h"

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
const char* const kCounterNames[ni::NumNodeStats] = {
    "packets_sent", "packets_received", "hcrc_errors",       "pcrc_errors",
    "no_context",   "stale_or_dup",     "misrouted",         "acks_sent",
    "nacks_sent",   "notifications",    "contexts_reclaimed"};
}  // namespace

// Plays a scenario's "net" (a fault aimed at the next matching packet) and "packet" (raw
// beats into a node's rx port) events at their cycles.
class NetScenarioDriver : public Component {
 public:
  NetScenarioDriver(const Scenario& sc, Network& req, Network& rsp, Recorder* rec)
      : sc_(sc), req_(req), rsp_(rsp), rec_(rec) {}
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
  bool done() const {
    for (std::size_t i = next_; i < sc_.events.size(); ++i) {
      const auto op = sc_.events[i].op;
      if (op == ScenarioEvent::Op::Net || op == ScenarioEvent::Op::Packet) return false;
    }
    return true;
  }
  bool busy() const override { return !done(); }

 private:
  const Scenario& sc_;
  Network& req_;
  Network& rsp_;
  Recorder* rec_;
  std::size_t next_ = 0;
};

struct NodeSystem::Node {
  unsigned id = 0;
  std::unique_ptr<NiNodeDut> dut;
  std::unique_ptr<Rng> cpu_rng, axi_rng, mem_rng;
  EventBus bus;
  std::unique_ptr<AxiMaster> axi;
  std::unique_ptr<Cpu> cpu;                // random runs
  std::unique_ptr<ScenarioDriver> driver;  // scenario replays
  std::unique_ptr<MemModel> mem;
  std::unique_ptr<QosTraceMonitor> trace_mon;
  std::unique_ptr<AxiSlaveMonitor> axi_mon;
  std::unique_ptr<RspInMonitor> rsp_mon;
  std::unique_ptr<BlkMonitor> blk_mon;
  std::unique_ptr<PktMonitor> pkt_mon;
  std::unique_ptr<ni::EngineModel> model;
  std::unique_ptr<EngineChecker> checker;
  std::unique_ptr<SendUnitChecker> send;
  std::unique_ptr<RecvUnitChecker> recv;
  std::unique_ptr<LogWriter> log;
  std::array<uint64_t, ni::NumNodeStats> counters{};
  uint64_t counters_cycle = 0;  // when counter 26 was read
  std::array<uint64_t, 16> stats{};
  // What the networks saw of this node.
  uint64_t acks_tx = 0, nacks_tx = 0, bad_hcrc_rx = 0;
};

struct NodeSystem::Impl {
  Options opt;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<SimCtrl> ctrl;
  std::vector<std::unique_ptr<Node>> nodes;
  std::unique_ptr<Rng> req_rng, rsp_rng;
  std::unique_ptr<Network> req, rsp;
  std::unique_ptr<E2eScoreboard> e2e;
  std::unique_ptr<LogWriter> log;  // owns the file; the nodes' writers share it
  std::unique_ptr<Recorder> rec;
  bool recording = true;  // off while the final read-back is submitted (every run does it)
  std::unique_ptr<NetScenarioDriver> net_driver;
  std::unique_ptr<NodeCoverage> cov;  // --coverage
  // Feeds the coverage with each node's memory writes and, per cycle, the rx ports'
  // back-pressure and the networks' flow-control stalls.
  class CoverageTap : public Component {
   public:
    explicit CoverageTap(Impl& s) : s_(s) {
      for (unsigned i = 0; i < s.nodes.size(); ++i) taps_.push_back(std::make_unique<Mem>(s, i));
    }
    Listener* node(unsigned i) { return taps_[i].get(); }
    void sample(uint64_t) override {
      for (const auto& n : s_.nodes) {
        const NiNodePorts& io = n->dut->ports();
        if (*io.req_rx.valid && !*io.req_rx.ready) s_.cov->on_rx_stall(false);
        if (*io.rsp_rx.valid && !*io.rsp_rx.ready) s_.cov->on_rx_stall(true);
      }
      const uint64_t f = s_.req->counts().full_stalls + s_.rsp->counts().full_stalls;
      if (f != full_) s_.cov->on_tx_full_stall();
      full_ = f;
    }

   private:
    struct Mem : Listener {
      Mem(Impl& s, unsigned i) : s_(s), i_(i) {}
      void on_memwr(const MemWrEvent& e) override { s_.cov->on_memwr(i_, e); }
      Impl& s_;
      unsigned i_;
    };
    Impl& s_;
    std::vector<std::unique_ptr<Mem>> taps_;
    uint64_t full_ = 0;
  };
  std::unique_ptr<CoverageTap> cov_tap;
  std::unique_ptr<CaptureWriter> capture;  // --capture
  std::vector<Checker*> checkers;
  bool faulty = false;  // faults injected: ERROR endings and stray writes allowed
  double start_wall = 0;
  std::unique_ptr<Progress> progress;

  explicit Impl(Options o);
  void build_node(unsigned i);
  uint64_t transfers_of(unsigned i) const;
  bool any_failed() const;
  bool done() const;
  bool run_until(const std::function<bool()>& until, uint64_t max_cycles);
  void show_progress();
  void read_back();
  std::vector<std::string> balance() const;
  void conclude(RunResult& r, bool ok, const std::string& timeout_msg);
};

NodeSystem::Impl::Impl(Options o) : opt(std::move(o)) {
  const SimConfig& cfg = opt.cfg;
  ctx = std::make_unique<VerilatedContext>();
  const std::string seed_arg = "+verilator+seed+" + std::to_string((cfg.seed % 0x7FFFFFFF) + 1);
  const char* argv[] = {"ni_sim", seed_arg.c_str()};
  ctx->commandArgs(2, argv);
  ctx->fatalOnError(false);
  ctrl = std::make_unique<SimCtrl>(*ctx);
  faulty = cfg.network.drop_pct > 0 || cfg.network.corrupt_pct > 0 || cfg.network.dup_pct > 0;
  if (opt.scenario != nullptr) {
    for (const ScenarioEvent& e : opt.scenario->events) {
      if (e.op == ScenarioEvent::Op::Net || e.op == ScenarioEvent::Op::Packet) faulty = true;
    }
  }
  if (!opt.log_path.empty()) log = std::make_unique<LogWriter>(opt.log_path);
  if (!opt.record_path.empty()) rec = std::make_unique<Recorder>();
  if (!opt.coverage_path.empty()) cov = std::make_unique<NodeCoverage>();
  for (unsigned i = 0; i < cfg.nodes; ++i) build_node(i);

  std::vector<StreamTxPorts> req_tx, rsp_tx;
  std::vector<StreamRxPorts> req_rx, rsp_rx;
  for (const auto& n : nodes) {
    req_tx.push_back(n->dut->ports().req_tx);
    req_rx.push_back(n->dut->ports().req_rx);
    rsp_tx.push_back(n->dut->ports().rsp_tx);
    rsp_rx.push_back(n->dut->ports().rsp_rx);
  }
  auto stream = [&](uint64_t k) {
    return std::make_unique<Rng>(cfg.seed * 0x9E3779B97F4A7C15ull + k * 0xC2B2AE3D27D4EB4Full);
  };
  req_rng = stream(5);
  rsp_rng = stream(6);
  req = std::make_unique<Network>("req", req_tx, req_rx, *req_rng, cfg.network);
  rsp = std::make_unique<Network>("rsp", rsp_tx, rsp_rx, *rsp_rng, cfg.network);
  if (opt.scenario != nullptr)
    net_driver = std::make_unique<NetScenarioDriver>(*opt.scenario, *req, *rsp, rec.get());

  std::vector<ni::MemImage*> images;
  for (auto& n : nodes) images.push_back(&n->mem->image());
  e2e = std::make_unique<E2eScoreboard>(images);
  e2e->allow_errors(faulty);
  e2e->allow_stray_writes(faulty);
  // An open-loop run (a capture replay: the network drops everything the nodes send, the
  // captured traffic is injected) cannot compare a transfer's remote destination.
  e2e->check_data(cfg.network.drop_pct < 100);

  for (auto& np : nodes) {
    Node& n = *np;
    n.bus.add(e2e->node_listener(n.id));
    n.model->on_live([this, &n](unsigned x, const ni::Descriptor& d, uint64_t c) {
      e2e->on_live(n.id, x, d, c);
    });
    n.model->on_finish([this, &n](unsigned x, ni::Status st, uint64_t c) {
      e2e->on_finish(n.id, x, st == ni::Status::Error, c);
    });
  }
  req->on_tx = [this](unsigned from, const ni::WirePacket& p, uint64_t c) {
    Node& n = *nodes[from];
    if (n.log) n.log->tx(c, "req", p);
    if (cov) cov->on_tx(false, from, p);
    n.send->on_tx(p, c);
  };
  rsp->on_tx = [this](unsigned from, const ni::WirePacket& p, uint64_t c) {
    Node& n = *nodes[from];
    if (n.log) n.log->tx(c, "rsp", p);
    if (cov) cov->on_tx(true, from, p);
    const unsigned k = p.head().kind;
    if (k == unsigned(ni::WireKind::Ack)) ++n.acks_tx;
    if (k == unsigned(ni::WireKind::Nack)) ++n.nacks_tx;
  };
  for (bool is_rsp : {false, true}) {
    (is_rsp ? rsp : req)->on_rx = [this, is_rsp](unsigned to, const ni::WirePacket& p, uint64_t c) {
      if (!p.hcrc_ok()) ++nodes[to]->bad_hcrc_rx;
      if (cov) cov->on_rx(is_rsp, to, p, c);
    };
  }
  if (log || cov) {
    auto net_ev = [this](const NetEvent& e) {
      if (log) log->net(e);
      if (cov) cov->on_net(e);
    };
    req->on_net = net_ev;
    rsp->on_net = net_ev;
  }
  if (cov) {
    cov_tap = std::make_unique<CoverageTap>(*this);
    for (auto& n : nodes) n->bus.add(*cov_tap->node(n->id));
  }
  if (log) {
    e2e->on_notify = [this](uint64_t c, unsigned node, uint64_t a, uint64_t tag, unsigned src) {
      nodes[node]->log->notify(c, a, tag, src);
    };
  }

  // Per cycle: stimulus of every node, the networks, then every node's monitors and bus.
  if (net_driver) ctrl->add(*net_driver);
  if (cov_tap) ctrl->add(*cov_tap);
  for (auto& n : nodes) {
    if (n->cpu) ctrl->add(*n->cpu);
    if (n->driver) ctrl->add(*n->driver);
    ctrl->add(*n->axi);
    ctrl->add(*n->mem);
  }
  ctrl->add(*req);
  ctrl->add(*rsp);
  for (auto& n : nodes) {
    ctrl->add(*n->trace_mon);
    ctrl->add(*n->axi_mon);
    ctrl->add(*n->rsp_mon);
    ctrl->add(*n->blk_mon);
    ctrl->add(*n->pkt_mon);
    ctrl->add(*n->recv);
    ctrl->add(n->bus);
  }
  if (!opt.capture_path.empty()) {
    capture = std::make_unique<CaptureWriter>(nodes.at(opt.capture_node)->dut->capture_columns(),
                                              opt.capture_path);
    ctrl->add(*capture);
  }
  for (auto& n : nodes) {
    checkers.push_back(n->checker.get());
    checkers.push_back(n->send.get());
    checkers.push_back(n->mem.get());
    checkers.push_back(n->recv.get());
  }
  checkers.push_back(e2e.get());
  if (!opt.trace_path.empty()) ctrl->open_trace(opt.trace_path, opt.trace_from);
  ctrl->set_threads(opt.threads);
  ctrl->set_profiling(opt.profile);
  progress = std::make_unique<Progress>(
      opt.progress, std::to_string(nodes.size()) + " node" + (nodes.size() == 1 ? "" : "s") + ", " +
                        std::to_string(ctrl->threads()) + " thread" +
                        (ctrl->threads() == 1 ? "" : "s"));
}

uint64_t NodeSystem::Impl::transfers_of(unsigned i) const {
  const uint64_t t = opt.cfg.traffic.transfers, n = opt.cfg.nodes;
  return t / n + (i < t % n ? 1 : 0);
}

void NodeSystem::Impl::build_node(unsigned i) {
  const SimConfig& cfg = opt.cfg;
  auto np = std::make_unique<Node>();
  Node& n = *np;
  n.id = i;
  n.dut = std::make_unique<NiNodeDut>(*ctx, "node" + std::to_string(i));
  const NiNodePorts& io = n.dut->ports();
  *io.node_id = uint16_t(i);
  auto stream = [&](uint64_t k) {
    return std::make_unique<Rng>(cfg.seed * 0x9E3779B97F4A7C15ull +
                                 (16 * (i + 1) + k) * 0xC2B2AE3D27D4EB4Full);
  };
  n.cpu_rng = stream(0);
  n.axi_rng = stream(1);
  n.mem_rng = stream(2);
  ctrl->add_dut(*n.dut);
  n.axi = std::make_unique<AxiMaster>(io.axi, *n.axi_rng, cfg.axi);
  TrafficConfig tc = cfg.traffic;
  tc.transfers = transfers_of(i);
  tc.nodes = cfg.nodes;
  tc.self_node = i;
  ni::Config mc;  // the parameters ni_node is built with (its defaults)
  mc.node_regs = true;
  mc.node_id = uint16_t(i);
  if (opt.scenario != nullptr) {
    n.driver = std::make_unique<ScenarioDriver>(*opt.scenario, *n.axi, i);
  } else {
    n.cpu = std::make_unique<Cpu>(*n.axi, *n.cpu_rng, tc, mc.acc_sets);
  }
  if (rec) {
    n.axi->on_submit(
        [this, i](const AxiWrite& w) {
          if (recording) rec->write(ctrl->cycle(), w, int(i));
        },
        [this, i](const AxiRead& r) {
          if (recording) rec->read(ctrl->cycle(), r, int(i));
        });
  }
  n.mem = std::make_unique<MemModel>(io.mem, *n.mem_rng, cfg.memory, uint16_t(i), n.bus);
  n.recv = std::make_unique<RecvUnitChecker>(
      RecvUnitChecker::Ports{io.mem, io.req_rx, io.rsp_rx, io.rsp_tx, io.rsp}, uint16_t(i), 64,
      cfg.retx.rx_idle.value_or(65536));
  n.trace_mon = std::make_unique<QosTraceMonitor>(
      QosTraceMonitor::Ports{io.trace, io.blk, io.pkt, io.rsp, io.init_done}, n.bus);
  n.axi_mon = std::make_unique<AxiSlaveMonitor>(io.axi, n.bus);
  n.rsp_mon = std::make_unique<RspInMonitor>(io.rsp, n.bus);
  n.blk_mon = std::make_unique<BlkMonitor>(io.blk, n.bus);
  n.pkt_mon = std::make_unique<PktMonitor>(io.pkt, n.bus);
  n.model = std::make_unique<ni::EngineModel>(mc, 16);
  n.checker = std::make_unique<EngineChecker>(*n.model, "node" + std::to_string(i) + " engine");
  n.send = std::make_unique<SendUnitChecker>(uint16_t(i), n.mem->image());
  n.bus.add(*n.checker);
  n.bus.add(*n.send);
  if (log) {
    n.log = std::make_unique<LogWriter>(*log, i);
    n.bus.add(*n.log);
  }
  nodes.push_back(std::move(np));
}

bool NodeSystem::Impl::any_failed() const {
  for (const Checker* c : checkers) {
    if (c->failed()) return true;
  }
  return ctx->gotError();
}

bool NodeSystem::Impl::done() const {
  if (net_driver && !net_driver->done()) return false;
  for (const auto& n : nodes) {
    if ((n->cpu && !n->cpu->done()) || (n->driver && !n->driver->done()) || n->axi->busy() ||
        !n->model->quiescent() || n->mem->busy() || !n->send->quiescent()) {
      return false;
    }
  }
  if (req->busy() || rsp->busy()) return false;
  if (!faulty) {
    // Every block acknowledged means every receive context freed.
    for (const auto& n : nodes) {
      if (*n->dut->ports().rx_busy) return false;
    }
  }
  return true;
}

void NodeSystem::Impl::show_progress() {
  uint64_t fin = 0;
  for (const auto& n : nodes) fin += n->model->transfers_done() + n->model->transfers_error();
  progress->update(now_seconds(), fin, opt.cfg.traffic.transfers, ctrl->cycle());
}

bool NodeSystem::Impl::run_until(const std::function<bool()>& until, uint64_t max_cycles) {
  const uint64_t end = ctrl->cycle() + max_cycles;
  while (!until()) {
    if (any_failed() || ctrl->cycle() >= end || SimCtrl::interrupted()) return false;
    ctrl->step();
    if (progress->on() && (ctrl->cycle() & 0x3FFF) == 0) show_progress();
  }
  return !any_failed();
}

void NodeSystem::Impl::read_back() {
  // Every statistics counter of every node over its CPU port: 0-15 the engine model checks,
  // 16-26 are balanced across the nodes and networks below.
  // The read-back is not stimulus (every run and replay does it) and the CPUs are done.
  recording = false;
  for (auto& n : nodes) {
    if (n->cpu) n->cpu->stop();
  }
  for (auto& np : nodes) {
    Node* n = np.get();
    for (unsigned i = 0; i < ni::NodeStatBase + ni::NumNodeStats; ++i) {
      AxiRead rd;
      rd.addr = ni::stat_addr(i);
      n->axi->read(rd, [n, i](const AxiRead& r) {
        const uint64_t v = r.data.empty() ? 0 : r.data[0];
        if (i < 16) n->stats[i] = v;
        if (i >= ni::NodeStatBase) n->counters[i - ni::NodeStatBase] = v;
        if (i + 1 == ni::NodeStatBase + ni::NumNodeStats) n->counters_cycle = r.r_cycle;
      });
    }
  }
  run_until(
      [this] {
        for (const auto& n : nodes) {
          if (n->axi->busy() || !n->model->quiescent()) return false;
        }
        return true;
      },
      20000);
}

// Counters 16-26 against what the networks and memories saw (ICD 15 "counters consistent
// across nodes").
std::vector<std::string> NodeSystem::Impl::balance() const {
  std::vector<std::string> p;
  auto expect = [&](const Node& n, unsigned c, uint64_t want, const std::string& why) {
    if (n.counters[c] != want) {
      p.push_back("node" + std::to_string(n.id) + " counter " +
                  std::to_string(ni::NodeStatBase + c) + " (" + kCounterNames[c] +
                  ") = " + std::to_string(n.counters[c]) + ", expected " + std::to_string(want) +
                  " (" + why + ")");
    }
  };
  for (const auto& np : nodes) {
    const Node& n = *np;
    expect(n, kSent, req->sent_by(n.id) + rsp->sent_by(n.id), "packets it put on both networks");
    expect(n, kReceived, req->delivered_to(n.id) + rsp->delivered_to(n.id),
           "packets both networks delivered to it");
    expect(n, kHcrcErr, n.bad_hcrc_rx, "delivered packets with a bad hcrc");
    expect(n, kAcksSent, n.acks_tx, "ACKs on the response network");
    expect(n, kNacksSent, n.nacks_tx, "NACKs on the response network");
    if (!faulty) {
      expect(n, kPcrcErr, 0, "fault-free network");
      expect(n, kMisrouted, 0, "fault-free network");
      expect(n, kNoContext, 0, "nothing to retransmit a dropped packet");
      expect(n, kStale, 0, "fault-free network");
    }
    // Every record the memory received, of a live transfer or of one that had ended (a
    // sender that gave up; a late duplicate of a control packet). Not in an open-loop replay
    // of a capture: its senders' transfers are not in this run.
    if (opt.cfg.network.drop_pct < 100) {
      expect(n, kNotifications, e2e->node_stats(n.id).notifications,
             "notification records written into its memory");
    }
  }
  return p;
}

void NodeSystem::Impl::conclude(RunResult& r, bool ok, const std::string& timeout_msg) {
  r.cycles = ctrl->cycle();
  r.wall_seconds = now_seconds() - start_wall;
  const bool assertion = ctx->gotError();
  const Checker* first = nullptr;
  for (const Checker* c : checkers) {
    if (c->failed() && (first == nullptr || c->first_error().cycle < first->first_error().cycle))
      first = c;
  }
  if (!ok && first == nullptr && !assertion) {
    r.interrupted = SimCtrl::interrupted();
    r.timeout = !r.interrupted;
    r.failure = r.interrupted ? "interrupted" : timeout_msg;
    r.fail_cycle = ctrl->cycle();
    for (Checker* c : checkers) {
      for (const std::string& s : c->final_check(ctrl->cycle())) {
        if (r.detail.size() < 4000) r.detail += "  " + c->name() + ": " + s + "\n";
      }
    }
    return;
  }
  if (assertion && first == nullptr) {
    r.failure = "an RTL assertion failed (see the $error message above)";
    r.fail_cycle = ctrl->cycle();
    return;
  }
  if (first != nullptr) {
    r.failure = first->name() + ": " + first->first_error().what;
    r.detail = first->first_error().detail;
    r.fail_cycle = first->first_error().cycle;
    return;
  }
  std::vector<std::string> problems;
  for (Checker* c : checkers) {
    for (const std::string& s : c->final_check(ctrl->cycle()))
      problems.push_back(c->name() + ": " + s);
  }
  for (const auto& n : nodes) {
    if (!faulty && *n->dut->ports().rx_busy) {
      problems.push_back("node" + std::to_string(n->id) +
                         ": the receive unit still holds a context or a packet at the end");
    }
  }
  for (const std::string& s : balance()) problems.push_back(s);
  if (!problems.empty()) {
    r.failure = problems.front();
    for (std::size_t i = 1; i < problems.size() && i < 10; ++i)
      r.detail += "  " + problems[i] + "\n";
    r.fail_cycle = ctrl->cycle();
    return;
  }
  r.passed = true;
}

// The GTKWave save file of an N-node trace: per node, groups for its CPU port, send unit
// (blocks and engine packets in, memory reads, req_tx), receive unit (req_rx, memory writes,
// rsp_tx, responses to the engine) and links, all from ni_node's ports and trace taps.
static void write_gtkw(const std::string& fst, unsigned nodes) {
  std::string path = fst;
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".fst") == 0)
    path.resize(path.size() - 4);
  path += ".gtkw";
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return;
  std::fprintf(f,
               "[*] GTKWave save file of an ni_sim --nodes %u trace (written by ni_sim)\n"
               "[*] Time: cycle c of the log spans 10c .. 10c+9; its rising edge is at 10c+5.\n"
               "[dumpfile] \"%s\"\n[timestart] 0\n[size] 1800 1000\n[sst_width] 260\n"
               "[signals_width] 360\n",
               nodes, fst.c_str());
  struct Sig {
    const char* name;
    unsigned width;
  };
  auto group = [f](const std::string& title, const std::string& n, std::vector<Sig> sigs,
                   bool closed) {
    std::fprintf(f, "@%s\n-%s\n", closed ? "c00200" : "800200", title.c_str());
    for (const Sig& s : sigs) {
      if (s.width == 1) {
        std::fprintf(f, "@28\n%s.%s\n", n.c_str(), s.name);
      } else {
        std::fprintf(f, "@22\n%s.%s[%u:0]\n", n.c_str(), s.name, s.width - 1);
      }
    }
    std::fprintf(f, "@%s\n-%s\n", closed ? "1401200" : "1000200", title.c_str());
  };
  for (unsigned i = 0; i < nodes; ++i) {
    const std::string n = "node" + std::to_string(i);
    std::fprintf(f, "@28\n%s.clk_i\n%s.rst_ni\n%s.init_done_o\n", n.c_str(), n.c_str(), n.c_str());
    group(n + " CPU port", n,
          {{"s_axi_awvalid_i", 1},
           {"s_axi_awready_o", 1},
           {"s_axi_awaddr_i", 32},
           {"s_axi_wvalid_i", 1},
           {"s_axi_wready_o", 1},
           {"s_axi_wdata_i", 128},
           {"s_axi_bvalid_o", 1},
           {"s_axi_bresp_o", 2},
           {"s_axi_arvalid_i", 1},
           {"s_axi_arready_o", 1},
           {"s_axi_araddr_i", 32},
           {"s_axi_rvalid_o", 1},
           {"s_axi_rdata_o", 128}},
          i != 0);
    group(n + " send unit", n,
          {{"trace_blk_valid_o", 1},
           {"trace_blk_ready_o", 1},
           {"trace_blk_tid_o", 10},
           {"trace_pkt_valid_o", 1},
           {"trace_pkt_ready_o", 1},
           {"m_axi_arvalid_o", 1},
           {"m_axi_arready_i", 1},
           {"m_axi_araddr_o", 48},
           {"m_axi_arlen_o", 8},
           {"m_axi_rvalid_i", 1},
           {"m_axi_rready_o", 1},
           {"m_axi_rlast_i", 1},
           {"req_tx_valid_o", 1},
           {"req_tx_ready_i", 1},
           {"req_tx_last_o", 1}},
          false);
    group(n + " receive unit", n,
          {{"req_rx_valid_i", 1},
           {"req_rx_ready_o", 1},
           {"req_rx_last_i", 1},
           {"m_axi_awvalid_o", 1},
           {"m_axi_awready_i", 1},
           {"m_axi_awaddr_o", 48},
           {"m_axi_awlen_o", 8},
           {"m_axi_wvalid_o", 1},
           {"m_axi_wready_i", 1},
           {"m_axi_wlast_o", 1},
           {"m_axi_wstrb_o", 64},
           {"m_axi_bvalid_i", 1},
           {"m_axi_bready_o", 1},
           {"rsp_tx_valid_o", 1},
           {"rsp_tx_ready_i", 1},
           {"trace_rsp_valid_o", 1},
           {"trace_rsp_ready_o", 1},
           {"trace_rx_busy_o", 1}},
          false);
    group(n + " links", n,
          {{"req_tx_data_o", 512},
           {"req_rx_data_i", 512},
           {"rsp_tx_data_o", 512},
           {"rsp_rx_valid_i", 1},
           {"rsp_rx_ready_o", 1},
           {"rsp_rx_data_i", 512}},
          true);
  }
  std::fclose(f);
}

NodeSystem::NodeSystem(Options opt) : impl_(std::make_unique<Impl>(std::move(opt))) {}

NodeSystem::~NodeSystem() {
  impl_->ctrl->close_trace();
  if (!impl_->opt.trace_path.empty())
    write_gtkw(impl_->opt.trace_path, unsigned(impl_->nodes.size()));
  for (auto& n : impl_->nodes) n->dut->final();
}

VerilatedContext& NodeSystem::context() { return *impl_->ctx; }

void NodeSystem::print_profile() const {
  const SimCtrl::Profile& p = impl_->ctrl->profile();
  const double total = now_seconds() - impl_->start_wall;
  const double steps = p.eval_s + p.drive_s + p.sample_s + p.post_edge_s + p.dump_s;
  auto row = [total](const char* what, double s) {
    std::fprintf(stderr, "[profile] %-34s %9.2f s %6.1f %%\n", what, s,
                 total > 0 ? 100.0 * s / total : 0.0);
  };
  std::fprintf(stderr, "[profile] %" PRIu64 " cycles, %u thread(s), %.2f s of run loop\n", p.cycles,
               impl_->ctrl->threads(), total);
  row("models' eval (both clock phases)", p.eval_s);
  row("components: drive", p.drive_s);
  row("components: sample (checkers)", p.sample_s);
  row("components: post_edge", p.post_edge_s);
  row("waveform dump", p.dump_s);
  row("run loop, read-back, final checks", total - steps);
}

void NodeSystem::write_coverage(const std::string& path, const nlohmann::json& source) const {
  if (impl_->cov) impl_->cov->write(path, source);
}

RunResult NodeSystem::run() {
  Impl& s = *impl_;
  RunResult r;
  s.ctrl->reset(4);
  // The configuration's control registers, before any descriptor (ICD 15 "retx"): CPU
  // transactions like any other, so recorded; a scenario that writes them itself (a recorded
  // run) is not given them again.
  const RetxConfig& rc = s.opt.cfg.retx;
  for (auto& n : s.nodes) {
    if (s.opt.scenario != nullptr && writes_ctrl_regs(*s.opt.scenario, n->id)) continue;
    auto reg = [&](unsigned word, uint64_t v) {
      AxiWrite w;
      w.addr = ni::ctrl_addr(word);
      w.size = 3;
      w.beats.push_back(AxiBeat{v, 0, 0x00FF, true});
      n->axi->write(std::move(w));
    };
    if (rc.timeout) reg(0, *rc.timeout);
    if (rc.max_retries) reg(1, *rc.max_retries);
    if (rc.rx_idle) reg(2, *rc.rx_idle);
  }
  s.ctrl->run_until(
      [&s] {
        for (const auto& n : s.nodes) {
          if (!*n->dut->ports().init_done) return false;
        }
        return true;
      },
      10000);
  s.start_wall = now_seconds();
  s.progress->start(s.start_wall);
  uint64_t budget = 50000 + s.opt.cfg.traffic.transfers * 4000;
  if (s.opt.scenario != nullptr) {
    uint64_t last_at = 0;
    for (const ScenarioEvent& e : s.opt.scenario->events) last_at = std::max(last_at, e.at);
    budget = last_at + 200000;
  }
  // Retransmission: a block the faults hit k times finishes k timeouts later, and one that
  // reaches MaxRetries ends its transfer ERROR after MaxRetries + 1 timeouts (ICD 13), so
  // the automatic bound leaves room for that many behind the last transfer.
  if (rc.timeout && *rc.timeout != 0) budget += (rc.max_retries.value_or(3) + 1) * *rc.timeout;
  if (s.opt.cfg.max_cycles != 0) {
    budget = s.opt.cfg.max_cycles > s.ctrl->cycle() ? s.opt.cfg.max_cycles - s.ctrl->cycle() : 0;
  }
  const bool ok = s.run_until([&s] { return s.done(); }, budget);
  s.progress->finish();
  if (ok) {
    s.read_back();
    for (auto& n : s.nodes) n->recv->check_counters(n->counters, n->counters_cycle);
  }
  uint64_t live = 0, fin = 0;
  for (const auto& n : s.nodes) {
    live += n->model->transfers_live();
    fin += n->model->transfers_done() + n->model->transfers_error();
  }
  s.conclude(r, ok,
             "timeout: not finished after " + std::to_string(budget) + " cycles (" +
                 std::to_string(live) + " transfers live, " + std::to_string(fin) +
                 " seen finished, " + std::to_string(s.req->in_flight() + s.rsp->in_flight()) +
                 " packets in the networks)");
  for (const auto& n : s.nodes) {
    if (n->driver && n->driver->failed() && r.passed) {
      r.passed = false;
      r.failure = n->driver->failure();
      r.fail_cycle = n->driver->failure_cycle();
    }
  }
  if (s.rec) {
    std::string d = s.opt.scenario != nullptr
                        ? "recorded from a replay of " + s.opt.scenario->path
                        : "recorded from a random run of " + std::to_string(s.nodes.size()) +
                              " nodes, seed " + std::to_string(s.opt.cfg.seed);
    d += r.passed ? " (passed)" : " (failed: " + r.failure + ")";
    s.rec->save(s.opt.record_path, s.opt.cfg.to_json(), d);
  }
  return r;
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

nlohmann::json NodeSystem::report(const RunResult& r) const {
  const Impl& s = *impl_;
  nlohmann::json j;
  std::array<ni::LatencyStats, 4> lat_all{};
  uint64_t done = 0, err = 0, live = 0, blocks = 0, pkts = 0, bytes = 0;
  nlohmann::json per = nlohmann::json::array();
  for (const auto& np : s.nodes) {
    const Node& n = *np;
    const ni::EngineModel& m = *n.model;
    const E2eScoreboard::NodeStats& es = s.e2e->node_stats(n.id);
    done += m.transfers_done();
    err += m.transfers_error();
    live += m.transfers_live();
    blocks += m.stats().get(ni::Stat::BlocksIssued);
    pkts += s.req->sent_by(n.id);
    bytes += es.bytes_delivered;
    nlohmann::json c;
    for (unsigned i = 0; i < ni::NumNodeStats; ++i) c[kCounterNames[i]] = n.counters[i];
    for (unsigned k = 0; k < 4; ++k) {
      const ni::LatencyStats& l = m.latency()[k];
      ni::LatencyStats& a = lat_all[k];
      if (l.count == 0) continue;
      a.min = a.count ? std::min(a.min, l.min) : l.min;
      a.max = std::max(a.max, l.max);
      a.sum += l.sum;
      a.count += l.count;
    }
    per.push_back({{"node", n.id},
                   {"transfers", m.transfers_live()},
                   {"completed", m.transfers_done()},
                   {"errors", m.transfers_error()},
                   {"bytes_delivered", es.bytes_delivered},
                   {"goodput_bytes_per_cycle",
                    r.cycles ? double(es.bytes_delivered) / double(r.cycles) : 0.0},
                   {"packets_sent", {{"req", s.req->sent_by(n.id)}, {"rsp", s.rsp->sent_by(n.id)}}},
                   {"packets_received",
                    {{"req", s.req->delivered_to(n.id)}, {"rsp", s.rsp->delivered_to(n.id)}}},
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
                   {"faults_injected",
                    {{"req", faults_json(s.req->counts_from(n.id))},
                     {"rsp", faults_json(s.rsp->counts_from(n.id))}}},
                   {"latency_cycles", latency_json(m.latency())},
                   {"stray_writes", es.stray_writes},
                   {"memory", {{"reads", n.mem->reads()}, {"writes", n.mem->writes()}}},
                   {"counters", c}});
  }
  auto net = [](const Network& w) {
    const Network::Counts& c = w.counts();
    return nlohmann::json{{"sent", c.sent},           {"delivered", c.delivered},
                          {"dropped", c.dropped},     {"dropped_no_node", c.no_node},
                          {"corrupted", c.corrupted}, {"duplicated", c.duplicated},
                          {"injected", c.injected},   {"full_stalls", c.full_stalls}};
  };
  j["seed"] = s.opt.cfg.seed;
  j["nodes"] = s.nodes.size();
  j["transfers"] = live;
  j["completed"] = done;
  j["errors"] = err;
  j["mismatches"] = r.passed ? 0 : 1;
  j["data_mismatches"] = s.e2e->data_mismatches();
  j["passed"] = r.passed;
  j["failure"] = r.failure;
  j["cycles"] = r.cycles;
  j["wall_seconds"] = r.wall_seconds;
  j["cycles_per_second"] = r.wall_seconds > 0 ? double(r.cycles) / r.wall_seconds : 0.0;
  j["blocks"] = blocks;
  j["packets"] = pkts;
  j["bytes_delivered"] = bytes;
  j["goodput_bytes_per_cycle"] = r.cycles ? double(bytes) / double(r.cycles) : 0.0;
  j["latency_cycles"] = latency_json(lat_all);
  j["faults_injected"] = {{"req", net(*s.req)}, {"rsp", net(*s.rsp)}};
  j["per_node"] = per;
  j["config"] = s.opt.cfg.to_json();
  return j;
}

}  // namespace sim
