// SPDX-License-Identifier: Apache-2.0
// The verification environment around one verilated qos_engine (ICD sections 1-9): simulation
// control, AXI master, random CPU or scenario driver, responder, stall injectors, one monitor
// per interface, the engine checker (golden model) and the optional log writer, recorder and
// capture. Used by ni_sim (--nodes 0) and by the directed tests of tests/qos/.
#pragma once

#include <cstdint>
#include <functional>
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
#include "sim/core/capture.hpp"
#include "sim/core/config.hpp"
#include "sim/core/log_writer.hpp"
#include "sim/core/progress.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/run_result.hpp"
#include "sim/core/scenario.hpp"
#include "sim/core/sim_ctrl.hpp"
#include "sim/tb/qos/qos_engine_dut.hpp"

class VerilatedContext;

namespace sim {

// Parameters the verilated model was built with (must match the RTL build).
struct DutParams {
  unsigned intra_prios = 8;
  unsigned max_outstanding = 2;
  unsigned acc_sets = 1;
  unsigned pkt_depth = 16;
};
DutParams built_params();

class Testbench {
 public:
  struct Options {
    SimConfig cfg;
    bool random_cpu = true;              // false: the caller drives the AXI master itself
    const Scenario* scenario = nullptr;  // replay this scenario (no random CPU)
    std::string record_path;             // --record: write the run's stimulus as a scenario
    std::string capture_path;            // --capture: CSV capture of the top-level ports
    std::string log_path;                // --log
    std::string trace_path;              // --trace (FST)
    uint64_t trace_from = 0;             // first traced cycle
    Progress::Mode progress = Progress::Mode::Off;  // progress on stderr
  };

  explicit Testbench(Options opt);
  ~Testbench();
  Testbench(const Testbench&) = delete;
  Testbench& operator=(const Testbench&) = delete;

  // Reset and wait for init_done_o.
  void start();
  // Random run to completion (random CPU): all transfers done, statistics read back and
  // checked, final checks. With a scenario: its events played, the engine idle, final checks.
  RunResult run();
  // Steps until `done()`, a failure or `max_cycles`; returns false on failure/timeout.
  bool run_until(const std::function<bool()>& done, uint64_t max_cycles);
  // Final statistics read-back and end-of-run checks; fills `r`.
  void finish(RunResult& r);

  SimCtrl& ctrl() { return *ctrl_; }
  VerilatedContext& context() { return *ctx_; }
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
  Checker& checker() { return *checker_; }
  Rng& rng() { return *rng_; }
  const Options& options() const { return opt_; }
  uint64_t cycle() const;
  bool failed() const { return checker_->failed(); }

 private:
  RunResult run_random();
  RunResult run_scenario();
  // Fills `r` after the run loop stopped: the first failure (checker, RTL assertion,
  // scenario driver, timeout or interrupt) or a pass when `ok` and the final checks are clean.
  void conclude(RunResult& r, bool ok, const std::string& timeout_msg);
  void save_record(const RunResult& r);

  Options opt_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<QosEngineDut> dut_;
  // One independent stream per stimulus source, so that a scenario replay (which has no
  // random CPU) reproduces the AXI master's, responder's and stall injectors' choices.
  std::unique_ptr<Rng> rng_;      // random CPU
  std::unique_ptr<Rng> axi_rng_;  // AXI master gaps and ready stalls
  std::unique_ptr<Rng> rsp_rng_;  // responder
  std::unique_ptr<Rng> blk_rng_;  // blk stall injector
  std::unique_ptr<Rng> pkt_rng_;  // pkt stall injector
  std::unique_ptr<SimCtrl> ctrl_;
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
  std::unique_ptr<LogWriter> log_;
  std::unique_ptr<ScenarioDriver> driver_;
  std::unique_ptr<Recorder> rec_;
  std::unique_ptr<CaptureWriter> capture_;
  bool recording_ = true;  // off while the configuration's register writes are queued
  double start_wall_ = 0;
  Progress progress_{Progress::Mode::Off, "engine"};  // set up by start()
};

}  // namespace sim
