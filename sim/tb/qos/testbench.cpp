// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/qos/testbench.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "ref_model/common/addr_map.hpp"
#include "ref_model/qos/axi_rules.hpp"
#include "verilated.h"

namespace sim {

DutParams built_params() {
  DutParams p;
#ifdef NI_INTRA_PRIOS
  p.intra_prios = NI_INTRA_PRIOS;
#endif
#ifdef NI_MAX_OUTSTANDING
  p.max_outstanding = NI_MAX_OUTSTANDING;
#endif
#ifdef NI_ACC_SETS
  p.acc_sets = NI_ACC_SETS;
#endif
#ifdef NI_PKT_DEPTH
  p.pkt_depth = NI_PKT_DEPTH;
#endif
  return p;
}

Testbench::Testbench(Options opt) : opt_(std::move(opt)) {
  const DutParams p = built_params();
  ctx_ = std::make_unique<VerilatedContext>();
  // Verilator's own randomisation (x-initial) follows the run's seed, so a seed is a run.
  const std::string seed_arg =
      "+verilator+seed+" + std::to_string((opt_.cfg.seed % 0x7FFFFFFF) + 1);
  const char* argv[] = {"ni_sim", seed_arg.c_str()};
  ctx_->commandArgs(2, argv);
  ctx_->fatalOnError(false);
  dut_ = std::make_unique<QosEngineDut>(*ctx_, "qos_engine");
  const QosEnginePorts& io = dut_->ports();
  // Independent streams so that, e.g., more polling does not change the responder's choices.
  auto stream = [&](uint64_t k) {
    return std::make_unique<Rng>(opt_.cfg.seed * 0x9E3779B97F4A7C15ull + k * 0xC2B2AE3D27D4EB4Full);
  };
  rng_ = stream(0);
  axi_rng_ = stream(1);
  rsp_rng_ = stream(2);
  blk_rng_ = stream(3);
  pkt_rng_ = stream(4);
  ctrl_ = std::make_unique<SimCtrl>(*ctx_);
  ctrl_->add_dut(*dut_);
  axi_ = std::make_unique<AxiMaster>(io.axi, *axi_rng_, opt_.cfg.axi);
  rsp_ = std::make_unique<Responder>(io.rsp, *rsp_rng_, opt_.cfg.responder);
  blk_stall_ = std::make_unique<StallInjector>(io.blk.ready, *blk_rng_, StallInjector::Port::Blk,
                                               opt_.cfg.blk_stall);
  pkt_stall_ = std::make_unique<StallInjector>(io.pkt.ready, *pkt_rng_, StallInjector::Port::Pkt,
                                               opt_.cfg.pkt_stall);
  trace_mon_ = std::make_unique<QosTraceMonitor>(
      QosTraceMonitor::Ports{io.trace, io.blk, io.pkt, io.rsp, io.init_done}, bus_);
  axi_mon_ = std::make_unique<AxiSlaveMonitor>(io.axi, bus_);
  rsp_mon_ = std::make_unique<RspInMonitor>(io.rsp, bus_);
  blk_mon_ = std::make_unique<BlkMonitor>(io.blk, bus_);
  pkt_mon_ = std::make_unique<PktMonitor>(io.pkt, bus_);
  ni::Config mc;
  mc.intra_prios = p.intra_prios;
  mc.max_outstanding = p.max_outstanding;
  mc.acc_sets = p.acc_sets;
  model_ = std::make_unique<ni::EngineModel>(mc, p.pkt_depth);
  checker_ = std::make_unique<EngineChecker>(*model_);
  if (opt_.scenario != nullptr) {
    driver_ =
        std::make_unique<ScenarioDriver>(*opt_.scenario, *axi_, *rsp_, *blk_stall_, *pkt_stall_);
  } else if (opt_.random_cpu) {
    cpu_ = std::make_unique<Cpu>(*axi_, *rng_, opt_.cfg.traffic, p.acc_sets);
  }
  if (!opt_.log_path.empty()) log_ = std::make_unique<LogWriter>(opt_.log_path);
  if (!opt_.record_path.empty()) {
    rec_ = std::make_unique<Recorder>();
    axi_->on_submit(
        [this](const AxiWrite& w) {
          if (recording_) rec_->write(ctrl_->cycle(), w);
        },
        [this](const AxiRead& r) {
          if (recording_) rec_->read(ctrl_->cycle(), r);
        });
    rsp_->on_present([this](uint64_t c, uint16_t tid, uint16_t seq, bool nack) {
      rec_->ack(c, tid, seq, nack);
    });
    blk_stall_->on_burst(
        [this](uint64_t c, uint64_t n) { rec_->stall(c, StallInjector::Port::Blk, n); });
    pkt_stall_->on_burst(
        [this](uint64_t c, uint64_t n) { rec_->stall(c, StallInjector::Port::Pkt, n); });
  }

  // Drivers first, then the monitors (they sample what the drivers set) in the order their
  // events reach the listeners (the log's order within a cycle), then the bus, which closes
  // the cycle after the monitors' post-edge events.
  if (driver_) ctrl_->add(*driver_);
  if (cpu_) ctrl_->add(*cpu_);
  ctrl_->add(*axi_);
  ctrl_->add(*rsp_);
  ctrl_->add(*blk_stall_);
  ctrl_->add(*pkt_stall_);
  ctrl_->add(*trace_mon_);
  ctrl_->add(*axi_mon_);
  ctrl_->add(*rsp_mon_);
  ctrl_->add(*blk_mon_);
  ctrl_->add(*pkt_mon_);
  ctrl_->add(bus_);
  if (!opt_.capture_path.empty()) {
    capture_ = std::make_unique<CaptureWriter>(dut_->capture_columns(), opt_.capture_path);
    ctrl_->add(*capture_);
  }
  bus_.add(*checker_);
  bus_.add(*rsp_);
  if (log_) bus_.add(*log_);
  if (!opt_.trace_path.empty()) ctrl_->open_trace(opt_.trace_path, opt_.trace_from);
}

Testbench::~Testbench() {
  ctrl_->close_trace();
  dut_->final();
}

uint64_t Testbench::cycle() const { return ctrl_->cycle(); }

void Testbench::start() {
  ctrl_->reset(4);
  // The configuration's control registers (ICD 15 "retx", also valid for the engine alone:
  // timeout and MaxRetries; RxIdle exists only in ni_node), before any descriptor: CPU
  // transactions like any other, so recorded; a scenario that writes them itself (a
  // recorded run) is not given them again.
  const RetxConfig& rc = opt_.cfg.retx;
  const bool own = opt_.scenario != nullptr && writes_ctrl_regs(*opt_.scenario, 0);
  auto reg = [this](unsigned word, uint64_t v) {
    AxiWrite w;
    w.addr = ni::ctrl_addr(word);
    w.size = 3;
    w.beats.push_back(AxiBeat{v, 0, 0x00FF, true});
    axi_->write(std::move(w));
  };
  if (rc.timeout && !own) reg(0, *rc.timeout);
  if (rc.max_retries && !own) reg(1, *rc.max_retries);
  ctrl_->run_until([this] { return bool(*dut_->ports().init_done); }, 10000);
  start_wall_ = now_seconds();
  progress_ = Progress(opt_.progress, "engine");
  progress_.start(start_wall_);
}

bool Testbench::run_until(const std::function<bool()>& done, uint64_t max_cycles) {
  const uint64_t end = ctrl_->cycle() + max_cycles;
  while (!done()) {
    if (checker_->failed() || ctrl_->cycle() >= end || SimCtrl::interrupted()) return false;
    if (ctx_->gotError()) return false;
    ctrl_->step();
    if (progress_.on() && (ctrl_->cycle() & 0x3FFF) == 0) {
      progress_.update(now_seconds(), model_->transfers_done() + model_->transfers_error(),
                       opt_.cfg.traffic.transfers, ctrl_->cycle());
    }
  }
  return !checker_->failed() && !ctx_->gotError();
}

void Testbench::finish(RunResult& r) {
  // Read every statistics counter back over AXI: the model checks each value.
  if (!checker_->failed()) {
    for (unsigned i = 0; i < ni::NumStats; ++i) {
      AxiRead rd;
      rd.addr = ni::stat_addr(i);
      axi_->read(rd);
    }
    run_until([this] { return !axi_->busy() && model_->quiescent(); }, 10000);
  }
  conclude(r, true, "");
}

void Testbench::conclude(RunResult& r, bool ok, const std::string& timeout_msg) {
  r.cycles = ctrl_->cycle();
  r.wall_seconds = now_seconds() - start_wall_;
  if (driver_ && driver_->failed()) {
    r.failure = driver_->failure();
    r.fail_cycle = driver_->failure_cycle();
    return;
  }
  const bool assertion = ctx_->gotError();
  if (!ok && !checker_->failed() && !assertion) {
    r.interrupted = SimCtrl::interrupted();
    r.timeout = !r.interrupted;
    r.failure = r.interrupted ? "interrupted" : timeout_msg;
    r.fail_cycle = ctrl_->cycle();
    const std::vector<std::string> problems = checker_->final_check(ctrl_->cycle());
    for (std::size_t i = 0; i < problems.size() && i < 10; ++i) {
      r.detail += "  " + problems[i] + "\n";
    }
    return;
  }
  const std::vector<std::string> problems = checker_->final_check(ctrl_->cycle());
  if (assertion && !checker_->failed()) {
    r.failure = "an RTL assertion failed (see the $error message above)";
    r.fail_cycle = ctrl_->cycle();
    return;
  }
  if (checker_->failed()) {
    const CheckFailure& f = checker_->first_error();
    r.failure = f.what;
    r.detail = f.detail;
    r.fail_cycle = f.cycle;
    return;
  }
  r.passed = problems.empty();
}

RunResult Testbench::run() {
  RunResult r = driver_ ? run_scenario() : run_random();
  if (rec_) save_record(r);
  return r;
}

void Testbench::save_record(const RunResult& r) {
  nlohmann::json cfg = opt_.cfg.to_json();
  std::string d = opt_.scenario != nullptr
                      ? "recorded from a replay of " + opt_.scenario->path
                      : "recorded from a random run, seed " + std::to_string(opt_.cfg.seed);
  d += r.passed ? " (passed)" : " (failed: " + r.failure + ")";
  rec_->save(opt_.record_path, cfg, d);
}

RunResult Testbench::run_scenario() {
  RunResult r;
  start();
  uint64_t last_at = 0;
  for (const ScenarioEvent& e : opt_.scenario->events) last_at = std::max(last_at, e.at);
  uint64_t budget = last_at + 200000;
  if (opt_.cfg.max_cycles != 0) {
    budget = opt_.cfg.max_cycles > cycle() ? opt_.cfg.max_cycles - cycle() : 0;
  }
  const bool ok = run_until(
      [this] {
        return driver_->done() && !axi_->busy() && !rsp_->busy() && !blk_stall_->busy() &&
               !pkt_stall_->busy() && model_->quiescent();
      },
      budget);
  conclude(r, ok,
           "the engine did not become idle by cycle " + std::to_string(ctrl_->cycle()) +
               (driver_->done() ? "" : " (scenario events left)"));
  return r;
}

RunResult Testbench::run_random() {
  RunResult r;
  start();
  // --max-cycles is an absolute cycle number; otherwise a generous bound.
  uint64_t budget = 20000 + opt_.cfg.traffic.transfers * 400;
  if (opt_.cfg.max_cycles != 0) {
    budget = opt_.cfg.max_cycles > cycle() ? opt_.cfg.max_cycles - cycle() : 0;
  }
  const bool ok =
      run_until([this] { return cpu_->done() && !axi_->busy() && model_->quiescent(); }, budget);
  progress_.finish();
  if (ok) {
    finish(r);
    return r;
  }
  conclude(r, false,
           "timeout: no completion after " + std::to_string(budget) + " cycles (" +
               std::to_string(cpu_->transfers_live()) + " transfers live, " +
               std::to_string(cpu_->seen_done() + cpu_->seen_error()) + " seen finished)");
  return r;
}

}  // namespace sim
