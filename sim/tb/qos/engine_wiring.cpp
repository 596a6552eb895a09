// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/qos/engine_wiring.hpp"

#include <cinttypes>
#include <cstdio>

#include "ref_model/common/addr_map.hpp"

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

EngineWiring::EngineWiring(Env& env, bool random_cpu) : env_(env) {
  const EnvOptions& opt = env.options();
  const SimConfig& cfg = opt.cfg;
  const DutParams p = built_params();
  dut_ = std::make_unique<QosEngineDut>(env.context(), "qos_engine");
  const QosEnginePorts& io = dut_->ports();
  rng_ = env.stream(0);
  axi_rng_ = env.stream(1);
  rsp_rng_ = env.stream(2);
  blk_rng_ = env.stream(3);
  pkt_rng_ = env.stream(4);
  env.add_dut(*dut_);
  axi_ = std::make_unique<AxiMaster>(io.axi, *axi_rng_, cfg.axi);
  rsp_ = std::make_unique<Responder>(io.rsp, *rsp_rng_, cfg.responder);
  blk_stall_ = std::make_unique<StallInjector>(io.blk.ready, *blk_rng_, StallInjector::Port::Blk,
                                               cfg.blk_stall);
  pkt_stall_ = std::make_unique<StallInjector>(io.pkt.ready, *pkt_rng_, StallInjector::Port::Pkt,
                                               cfg.pkt_stall);
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
  env.add_checker(*checker_);
  if (opt.scenario != nullptr) {
    driver_ =
        std::make_unique<ScenarioDriver>(*opt.scenario, *axi_, *rsp_, *blk_stall_, *pkt_stall_);
    env.add_driver(*driver_);
  } else if (random_cpu) {
    cpu_ = std::make_unique<Cpu>(*axi_, *rng_, cfg.traffic, p.acc_sets);
  }
  if (Recorder* rec = env.recorder()) {
    env.record(*axi_, -1);
    rsp_->on_present(
        [rec](uint64_t c, uint16_t tid, uint16_t seq, bool nack) { rec->ack(c, tid, seq, nack); });
    blk_stall_->on_burst(
        [rec](uint64_t c, uint64_t n) { rec->stall(c, StallInjector::Port::Blk, n); });
    pkt_stall_->on_burst(
        [rec](uint64_t c, uint64_t n) { rec->stall(c, StallInjector::Port::Pkt, n); });
  }

  // Drivers first, then the monitors (they sample what the drivers set) in the order their
  // events reach the listeners (the log's order within a cycle), then the bus, which closes
  // the cycle after the monitors' post-edge events.
  SimCtrl& ctrl = env.ctrl();
  if (driver_) ctrl.add(*driver_);
  if (cpu_) ctrl.add(*cpu_);
  ctrl.add(*axi_);
  ctrl.add(*rsp_);
  ctrl.add(*blk_stall_);
  ctrl.add(*pkt_stall_);
  ctrl.add(*trace_mon_);
  ctrl.add(*axi_mon_);
  ctrl.add(*rsp_mon_);
  ctrl.add(*blk_mon_);
  ctrl.add(*pkt_mon_);
  ctrl.add(bus_);
  bus_.add(*checker_);
  bus_.add(*rsp_);
  if (LogWriter* log = env.log()) bus_.add(*log);
  if (!opt.coverage_path.empty()) {
    cov_ = std::make_unique<FunctionalCoverage>(*model_);
    cov_->attach(bus_, *model_);
  }
}

EngineWiring::~EngineWiring() = default;

void EngineWiring::configure() {
  // The configuration's control registers (ICD 15 "retx", also valid for the engine alone:
  // timeout and MaxRetries; RxIdle exists only in ni_node), before any descriptor: CPU
  // transactions like any other, so recorded; a scenario that writes them itself (a
  // recorded run) is not given them again.
  const EnvOptions& opt = env_.options();
  const RetxConfig& rc = opt.cfg.retx;
  const bool own = opt.scenario != nullptr && writes_ctrl_regs(*opt.scenario, 0);
  auto reg = [this](unsigned word, uint64_t v) {
    AxiWrite w;
    w.addr = ni::ctrl_addr(word);
    w.size = 3;
    w.beats.push_back(AxiBeat{v, 0, 0x00FF, true});
    axi_->write(std::move(w));
  };
  if (rc.timeout && !own) reg(0, *rc.timeout);
  if (rc.max_retries && !own) reg(1, *rc.max_retries);
}

bool EngineWiring::done() const {
  if (driver_) {
    return driver_->done() && !axi_->busy() && !rsp_->busy() && !blk_stall_->busy() &&
           !pkt_stall_->busy() && model_->quiescent();
  }
  return (cpu_ == nullptr || cpu_->done()) && !axi_->busy() && model_->quiescent();
}

uint64_t EngineWiring::cycle_budget() const {
  const EnvOptions& opt = env_.options();
  if (opt.scenario != nullptr) return scenario_budget(*opt.scenario);
  return 20000 + opt.cfg.traffic.transfers * 400;
}

std::string EngineWiring::timeout_message(uint64_t budget) const {
  if (driver_) {
    return "the engine did not become idle by cycle " + std::to_string(env_.cycle()) +
           (driver_->done() ? "" : " (scenario events left)");
  }
  const uint64_t live = cpu_ ? cpu_->transfers_live() : 0;
  const uint64_t seen = cpu_ ? cpu_->seen_done() + cpu_->seen_error() : 0;
  return "timeout: no completion after " + std::to_string(budget) + " cycles (" +
         std::to_string(live) + " transfers live, " + std::to_string(seen) + " seen finished)";
}

uint64_t EngineWiring::transfers_finished() const {
  return model_->transfers_done() + model_->transfers_error();
}

void EngineWiring::read_back() {
  // A replay is its scenario's events alone (a recorded random run carries its read-back).
  if (driver_) return;
  // Every statistics counter over AXI: the model checks each value.
  for (unsigned i = 0; i < ni::NumStats; ++i) {
    AxiRead rd;
    rd.addr = ni::stat_addr(i);
    axi_->read(rd);
  }
  env_.run_until([this] { return !axi_->busy() && model_->quiescent(); }, 10000);
}

void EngineWiring::report(const RunResult& r, nlohmann::json& j) const {
  const ni::EngineModel& m = *model_;
  j["transfers"] = m.transfers_live();
  j["completed"] = m.transfers_done();
  j["errors"] = m.transfers_error();
  j["mismatches"] = m.failed() ? 1 : 0;
  j["transfers_per_second"] =
      r.wall_seconds > 0 ? double(m.transfers_done() + m.transfers_error()) / r.wall_seconds : 0.0;
  j["blocks"] = m.stats().get(ni::Stat::BlocksIssued);
  j["packets"] = m.stats().get(ni::Stat::InlinePackets) + m.stats().get(ni::Stat::ControlPackets);
  j["inline_packets"] = m.stats().get(ni::Stat::InlinePackets);
  j["control_packets"] = m.stats().get(ni::Stat::ControlPackets);
  j["acks"] = m.stats().get(ni::Stat::AcksAccepted);
  j["nacks"] = m.stats().get(ni::Stat::Nacks);
  j["responses_dropped"] = m.stats().get(ni::Stat::RspDropped);
  j["retransmissions"] = m.stats().get(ni::Stat::Retransmissions);
  j["timeouts"] = m.stats().get(ni::Stat::Timeouts);
  j["writes_rejected"] = m.writes_rejected();
  j["reads"] = m.reads_done();
  j["blk_stall_cycles"] = m.stats().get(ni::Stat::BlkStallCycles);
  j["pkt_stall_cycles"] = m.stats().get(ni::Stat::PktStallCycles);
  j["ack_reorder_depth"] = rsp_->max_overtake();
  j["responses_injected"] = rsp_->injected();
  j["responses_lost"] = rsp_->lost();
  j["responses_late"] = rsp_->late();
  j["max_queue_depth"] = m.max_queue_depth();
  if (cpu_) {
    j["illegal_writes_sent"] = cpu_->illegal_sent();
    j["illegal_writes_rejected"] = cpu_->illegal_rejected();
    j["legal_writes_rejected"] = cpu_->unexpected_rejects();
  }
  nlohmann::json lat;
  for (unsigned k = 0; k < 4; ++k) {
    const ni::LatencyStats& s = m.latency()[k];
    lat[ni::to_string(ni::Kind(k))] = {{"count", s.count},
                                       {"min", s.count ? s.min : 0},
                                       {"mean", s.count ? double(s.sum) / double(s.count) : 0.0},
                                       {"max", s.max}};
  }
  j["latency_cycles"] = lat;
}

std::string EngineWiring::summary(const nlohmann::json& report) const {
  char b[512];
  std::snprintf(b, sizeof b,
                ": %" PRIu64 " transfers (%" PRIu64 " DONE, %" PRIu64 " ERROR), %" PRIu64
                " blocks, %" PRIu64 " inline + %" PRIu64 " control packets, %" PRIu64
                " writes rejected, %" PRIu64 " responses dropped, ACK reorder depth %u",
                report["transfers"].get<uint64_t>(), report["completed"].get<uint64_t>(),
                report["errors"].get<uint64_t>(), report["blocks"].get<uint64_t>(),
                report["inline_packets"].get<uint64_t>(), report["control_packets"].get<uint64_t>(),
                report["writes_rejected"].get<uint64_t>(),
                report["responses_dropped"].get<uint64_t>(),
                report["ack_reorder_depth"].get<unsigned>());
  return b;
}

std::string EngineWiring::progress_label(unsigned threads) const {
  (void)threads;  // one top: one thread
  return "engine";
}

std::vector<CaptureSignal> EngineWiring::capture_columns(unsigned node) const {
  (void)node;  // one top
  return dut_->capture_columns();
}

void EngineWiring::write_coverage(const std::string& path, const nlohmann::json& source) const {
  if (cov_) cov_->write(path, source);
}

Env::MakeWiring engine_wiring(bool random_cpu) {
  return [random_cpu](Env& env) { return std::make_unique<EngineWiring>(env, random_cpu); };
}

}  // namespace sim
