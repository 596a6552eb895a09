// SPDX-License-Identifier: Apache-2.0
// The verification environment of ni_sim (ICD 9, 15): one life cycle for every system it
// simulates. Env owns the Verilator context (seeded from the run's seed), the clock
// (SimCtrl), the --log file, the recorder, the capture and the waveform file; it runs a run
// from reset to its verdict (run loop with failure checks, cycle budget, progress and Ctrl-C,
// then the read-back and the verdict: the first failure among the checkers, an RTL assertion,
// a scenario expectation or the timeout) and writes the report. What differs between the
// QoS engine alone (sim/tb/qos) and N ni_nodes on a network (sim/tb/node) is a Wiring: the
// tops, agents, monitors and checkers it builds on the Env, when a run is over, what it reads
// back and what its report adds.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/core/capture.hpp"
#include "sim/core/checker.hpp"
#include "sim/core/dut.hpp"
#include "sim/core/progress.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/run_result.hpp"
#include "sim/core/sim_ctrl.hpp"
#include "sim/env/config.hpp"
#include "sim/env/log_writer.hpp"
#include "sim/env/scenario.hpp"

class VerilatedContext;

namespace sim {

// What a run is asked for (ni_sim's command line, ICD 9 and 15), whichever system it runs.
struct EnvOptions {
  SimConfig cfg;                       // cfg.nodes: 0 the engine alone, N the N-node system
  const Scenario* scenario = nullptr;  // replay this scenario (no random CPU)
  std::string record_path;             // --record: write the run's stimulus as a scenario
  std::string log_path;                // --log
  std::string trace_path;              // --trace (FST, one scope per top)
  uint64_t trace_from = 0;             // first traced cycle
  std::string capture_path;            // --capture: CSV of one top's ports
  unsigned capture_node = 0;           // --capture-node
  std::string coverage_path;           // --coverage: functional coverage collected
  Progress::Mode progress = Progress::Mode::Off;  // progress on stderr
  bool profile = false;    // --profile: SimCtrl's phase timers, printed by print_profile()
  unsigned threads = 1;    // evaluate the tops on this many threads (SimCtrl::set_threads)
  bool full_eval = false;  // every region on every eval() (SimCtrl::set_split_eval(false))
};

// One system under the Env: built by its constructor on the Env it is given (tops with
// add_dut, components with ctrl().add in the order they run each cycle, checkers with
// add_checker, scenario drivers with add_driver, recorder hooks), it answers the Env's
// questions about the run.
class Wiring {
 public:
  virtual ~Wiring() = default;
  // After reset, before the first descriptor: the configuration's control registers.
  virtual void configure() = 0;
  // Every top raised init_done_o.
  virtual bool initialised() const = 0;
  // The stimulus is played out and everything is idle: the run may end.
  virtual bool done() const = 0;
  // The automatic cycle budget from the start of the run (--max-cycles overrides it).
  virtual uint64_t cycle_budget() const = 0;
  // The failure of a run that was not done within `budget` cycles.
  virtual std::string timeout_message(uint64_t budget) const = 0;
  // Transfers finished so far (DONE or ERROR), for the progress line.
  virtual uint64_t transfers_finished() const = 0;
  // After a run that ended in time and clean: the statistics read back over the CPU port
  // (the golden models check them), until the system is idle again.
  virtual void read_back() = 0;
  // End-of-run problems beyond the checkers' own (the counters' balance, ...).
  virtual std::vector<std::string> end_problems() const { return {}; }
  // A scenario's failed expectation outranks every other failure (the engine's vectors are
  // directed tests); otherwise it fails only a run that passed every other check.
  virtual bool expectations_first() const { return false; }
  // The report's fields beyond those of every run (ICD 9, 15).
  virtual void report(const RunResult& r, nlohmann::json& j) const = 0;
  // The PASS line between "PASS seed N" and "; C cycles in ...".
  virtual std::string summary(const nlohmann::json& report) const = 0;
  // How the recorder describes a random run of this system ("a random run").
  virtual std::string random_run_name() const = 0;
  // The progress line's label.
  virtual std::string progress_label(unsigned threads) const = 0;
  // The ports --capture records (of top `node` where there are several).
  virtual std::vector<CaptureSignal> capture_columns(unsigned node) const = 0;
  // --coverage: writes the functional coverage the wiring collected.
  virtual void write_coverage(const std::string& path, const nlohmann::json& source) const = 0;
  // The waveform file `fst` was closed: a GTKWave save file beside it, where there is one.
  virtual void trace_closed(const std::string& fst) const { (void)fst; }
};

class Env {
 public:
  using MakeWiring = std::function<std::unique_ptr<Wiring>(Env&)>;
  Env(EnvOptions opt, const MakeWiring& make);
  ~Env();
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  // ---- for the wiring, while it builds ------------------------------------------------------
  const EnvOptions& options() const { return opt_; }
  VerilatedContext& context() { return *ctx_; }
  SimCtrl& ctrl() { return *ctrl_; }
  // Random stream `k` of the run: one per stimulus source, so that a choice of one (more
  // polling, a scenario replay without a random CPU) does not shift the others.
  std::unique_ptr<Rng> stream(uint64_t k) const;
  // A top under the clock, in evaluation order (its final() runs when the Env ends).
  void add_dut(Dut& d);
  // A checker asked for failures every cycle and judged at the end (in this order).
  void add_checker(Checker& c) { checkers_.push_back(&c); }
  // A scenario driver whose expectations (read data, responses) judge the run too.
  void add_driver(const ScenarioDriver& d) { drivers_.push_back(&d); }
  // The --log file's writer (null without --log).
  LogWriter* log() { return log_.get(); }
  // The recorder (null without --record), and whether it records now.
  Recorder* recorder() { return rec_.get(); }
  bool recording() const { return rec_ != nullptr && recording_; }
  // Records every transaction handed to `axi` (node >= 0: the events name it).
  void record(AxiMaster& axi, int node);
  // Stops recording: what follows is not stimulus (the read-back every run does).
  void stop_recording() { recording_ = false; }

  // ---- running --------------------------------------------------------------------------
  // Reset, the configuration's control registers, every top initialised; the run's clock
  // starts.
  void start();
  // A whole run: start(), the stimulus to completion within the cycle budget, the
  // read-back, the verdict; the recorder's scenario written.
  RunResult run();
  // Steps until `done()`, a failure or `max_cycles`; false on a failure or timeout.
  bool run_until(const std::function<bool()>& done, uint64_t max_cycles);
  // The end of a run the caller drove (the directed tests): the read-back unless a check
  // failed, then the verdict.
  void finish(RunResult& r);
  // The verdict: `r` gets the first failure (see Wiring::expectations_first) or a pass;
  // `ok` = the run loop ended because the run was done.
  void conclude(RunResult& r, bool ok, const std::string& timeout_msg);
  bool failed() const;
  uint64_t cycle() const { return ctrl_->cycle(); }

  // ---- results ----------------------------------------------------------------------------
  // The --report (ICD 9, 15).
  nlohmann::json report(const RunResult& r) const;
  // "PASS seed N...; C cycles in S s (R cycles/s)"
  std::string pass_line(const RunResult& r, const nlohmann::json& report) const;
  void write_coverage(const std::string& path, const nlohmann::json& source) const {
    wiring_->write_coverage(path, source);
  }
  // --profile: where the run's wall time went (the models' eval, the components' phases).
  void print_profile() const;
  Wiring& wiring() { return *wiring_; }

 private:
  // The first scenario expectation that failed, into `r` (false: none failed).
  bool expectation_failed(RunResult& r) const;
  const Checker* first_failure() const;
  void save_record(const RunResult& r);

  EnvOptions opt_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<SimCtrl> ctrl_;
  std::unique_ptr<LogWriter> log_;  // owns the file; per-top writers share it
  std::unique_ptr<Recorder> rec_;
  bool recording_ = true;
  std::unique_ptr<CaptureWriter> capture_;
  std::vector<Dut*> duts_;
  std::vector<Checker*> checkers_;
  std::vector<const ScenarioDriver*> drivers_;
  double start_wall_ = 0;
  std::unique_ptr<Progress> progress_;
  std::unique_ptr<Wiring> wiring_;  // last: built on everything above, destroyed first
};

// The automatic cycle budget of a scenario replay: its last event, then room to finish.
uint64_t scenario_budget(const Scenario& sc);

}  // namespace sim
