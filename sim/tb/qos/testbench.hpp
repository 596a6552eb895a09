// SPDX-License-Identifier: Apache-2.0
// The engine alone as the directed tests of tests/qos and the benchmarks drive it: an Env
// wired with EngineWiring, and typed access to its parts. It adds no behaviour of its own:
// the run loop, the read-back and the verdict are the Env's.
#pragma once

#include <cstdint>
#include <functional>

#include "sim/env/env.hpp"
#include "sim/tb/qos/engine_wiring.hpp"

namespace sim {

class Testbench {
 public:
  struct Options : EnvOptions {
    bool random_cpu = true;  // false: the caller drives the AXI master itself
  };

  explicit Testbench(Options opt);

  // Reset and wait for init_done_o.
  void start() { env_.start(); }
  // Random run to completion (random CPU): all transfers done, statistics read back and
  // checked, final checks. With a scenario: its events played, the engine idle, final checks.
  RunResult run() { return env_.run(); }
  // Steps until `done()`, a failure or `max_cycles`; returns false on failure/timeout.
  bool run_until(const std::function<bool()>& done, uint64_t max_cycles) {
    return env_.run_until(done, max_cycles);
  }
  // Final statistics read-back and end-of-run checks; fills `r`.
  void finish(RunResult& r) { env_.finish(r); }

  Env& env() { return env_; }
  SimCtrl& ctrl() { return env_.ctrl(); }
  VerilatedContext& context() { return env_.context(); }
  const QosEnginePorts& ports() const { return w_.ports(); }
  EventBus& bus() { return w_.bus(); }
  AxiMaster& axi() { return w_.axi(); }
  Cpu* cpu() { return w_.cpu(); }
  Responder& responder() { return w_.responder(); }
  StallInjector& blk_stall() { return w_.blk_stall(); }
  StallInjector& pkt_stall() { return w_.pkt_stall(); }
  // A write channel's status as the engine holds it (from the trace port).
  uint8_t status(unsigned wch) const { return w_.status(wch); }
  ni::EngineModel& model() { return w_.model(); }
  Checker& checker() { return w_.checker(); }
  Rng& rng() { return w_.rng(); }
  const Options& options() const { return opt_; }
  uint64_t cycle() const { return env_.cycle(); }
  // The golden model found a mismatch.
  bool failed() const { return w_.checker().failed(); }

 private:
  Options opt_;
  Env env_;
  EngineWiring& w_;
};

}  // namespace sim
