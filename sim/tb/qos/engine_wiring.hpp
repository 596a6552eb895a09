// SPDX-License-Identifier: Apache-2.0
// The QoS engine alone (ICD sections 1-9) as a wiring of the Env: one verilated qos_engine,
// the AXI master with the random CPU or the scenario driver, the responder and the stall
// injectors on its block, packet and response ports, one monitor per interface on its event
// bus, and the engine checker (golden model); the log writer and the functional coverage
// subscribe to the bus. Used by ni_sim (--nodes 0), and through Testbench by the directed
// tests of tests/qos and the benchmarks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ref_model/qos/engine_model.hpp"
#include "sim/agents/axi_master.hpp"
#include "sim/agents/cpu.hpp"
#include "sim/agents/engine_checker.hpp"
#include "sim/agents/monitors.hpp"
#include "sim/agents/responder.hpp"
#include "sim/agents/stall_injector.hpp"
#include "sim/env/env.hpp"
#include "sim/tb/qos/coverage.hpp"
#include "sim/tb/qos/qos_engine_dut.hpp"

namespace sim {

// Parameters the verilated model was built with (must match the RTL build).
struct DutParams {
  unsigned intra_prios = 8;
  unsigned max_outstanding = 2;
  unsigned acc_sets = 1;
  unsigned pkt_depth = 16;
};
DutParams built_params();

class EngineWiring : public Wiring {
 public:
  // `random_cpu` = false: no random CPU even without a scenario (the caller drives the AXI
  // master itself).
  EngineWiring(Env& env, bool random_cpu);
  ~EngineWiring() override;

  // Wiring
  void configure() override;
  bool initialised() const override { return *dut_->ports().init_done != 0; }
  bool done() const override;
  uint64_t cycle_budget() const override;
  std::string timeout_message(uint64_t budget) const override;
  uint64_t transfers_finished() const override;
  void read_back() override;
  bool expectations_first() const override { return true; }
  void report(const RunResult& r, nlohmann::json& j) const override;
  std::string summary(const nlohmann::json& report) const override;
  std::string random_run_name() const override { return "a random run"; }
  std::string progress_label(unsigned threads) const override;
  std::vector<CaptureSignal> capture_columns(unsigned node) const override;
  void write_coverage(const std::string& path, const nlohmann::json& source) const override;

  const QosEnginePorts& ports() const { return dut_->ports(); }
  EventBus& bus() { return bus_; }
  AxiMaster& axi() { return *axi_; }
  Cpu* cpu() { return cpu_.get(); }
  Responder& responder() { return *rsp_; }
  StallInjector& blk_stall() { return *blk_stall_; }
  StallInjector& pkt_stall() { return *pkt_stall_; }
  // A write channel's status as the engine holds it (from the trace port).
  uint8_t status(unsigned wch) const { return trace_mon_->status(wch); }
  ni::EngineModel& model() { return *model_; }
  const ni::EngineModel& model() const { return *model_; }
  EngineChecker& checker() { return *checker_; }
  const EngineChecker& checker() const { return *checker_; }
  Rng& rng() { return *rng_; }

 private:
  Env& env_;
  std::unique_ptr<QosEngineDut> dut_;
  // One independent stream per stimulus source, so that a scenario replay (which has no
  // random CPU) reproduces the AXI master's, responder's and stall injectors' choices.
  std::unique_ptr<Rng> rng_;      // random CPU
  std::unique_ptr<Rng> axi_rng_;  // AXI master gaps and ready stalls
  std::unique_ptr<Rng> rsp_rng_;  // responder
  std::unique_ptr<Rng> blk_rng_;  // blk stall injector
  std::unique_ptr<Rng> pkt_rng_;  // pkt stall injector
  EventBus bus_;
  std::unique_ptr<AxiMaster> axi_;
  std::unique_ptr<Cpu> cpu_;
  std::unique_ptr<Responder> rsp_;
  std::unique_ptr<StallInjector> blk_stall_;
  std::unique_ptr<StallInjector> pkt_stall_;
  std::unique_ptr<QosTraceMonitor> trace_mon_;
  std::unique_ptr<AxiSlaveMonitor> axi_mon_;
  std::unique_ptr<RspInMonitor> rsp_mon_;
  std::unique_ptr<BlkMonitor> blk_mon_;
  std::unique_ptr<PktMonitor> pkt_mon_;
  std::unique_ptr<ni::EngineModel> model_;
  std::unique_ptr<EngineChecker> checker_;
  std::unique_ptr<ScenarioDriver> driver_;
  std::unique_ptr<FunctionalCoverage> cov_;  // --coverage
};

// ni_sim --nodes 0: the Env's wiring for the engine alone.
Env::MakeWiring engine_wiring(bool random_cpu = true);

}  // namespace sim
