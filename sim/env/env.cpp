// SPDX-License-Identifier: Apache-2.0
#include "sim/env/env.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "sim/agents/axi_master.hpp"
#include "verilated.h"

namespace sim {

uint64_t scenario_budget(const Scenario& sc) {
  uint64_t last_at = 0;
  for (const ScenarioEvent& e : sc.events) last_at = std::max(last_at, e.at);
  return last_at + 200000;
}

Env::Env(EnvOptions opt, const MakeWiring& make) : opt_(std::move(opt)) {
  ctx_ = std::make_unique<VerilatedContext>();
  // Verilator's own randomisation (x-initial) follows the run's seed, so a seed is a run.
  const std::string seed_arg =
      "+verilator+seed+" + std::to_string((opt_.cfg.seed % 0x7FFFFFFF) + 1);
  const char* argv[] = {"ni_sim", seed_arg.c_str()};
  ctx_->commandArgs(2, argv);
  ctx_->fatalOnError(false);
  ctrl_ = std::make_unique<SimCtrl>(*ctx_);
  if (!opt_.log_path.empty()) log_ = std::make_unique<LogWriter>(opt_.log_path);
  if (!opt_.record_path.empty()) rec_ = std::make_unique<Recorder>();
  wiring_ = make(*this);
  // After everything the wiring registered: the capture samples the settled ports of a cycle.
  if (!opt_.capture_path.empty()) {
    capture_ = std::make_unique<CaptureWriter>(wiring_->capture_columns(opt_.capture_node),
                                               opt_.capture_path);
    ctrl_->add(*capture_);
  }
  if (!opt_.trace_path.empty()) ctrl_->open_trace(opt_.trace_path, opt_.trace_from);
  ctrl_->set_threads(opt_.threads);
  ctrl_->set_split_eval(!opt_.full_eval);
  ctrl_->set_profiling(opt_.profile);
  progress_ = std::make_unique<Progress>(opt_.progress, wiring_->progress_label(ctrl_->threads()));
}

Env::~Env() {
  ctrl_->close_trace();
  if (!opt_.trace_path.empty()) wiring_->trace_closed(opt_.trace_path);
  for (Dut* d : duts_) d->final();
}

std::unique_ptr<Rng> Env::stream(uint64_t k) const {
  return std::make_unique<Rng>(opt_.cfg.seed * 0x9E3779B97F4A7C15ull + k * 0xC2B2AE3D27D4EB4Full);
}

void Env::add_dut(Dut& d) {
  duts_.push_back(&d);
  ctrl_->add_dut(d);
}

void Env::record(AxiMaster& axi, int node) {
  if (!rec_) return;
  axi.on_submit(
      [this, node](const AxiWrite& w) {
        if (recording_) rec_->write(ctrl_->cycle(), w, node);
      },
      [this, node](const AxiRead& r) {
        if (recording_) rec_->read(ctrl_->cycle(), r, node);
      });
}

void Env::start() {
  ctrl_->reset(4);
  wiring_->configure();
  ctrl_->run_until([this] { return wiring_->initialised(); }, 10000);
  start_wall_ = now_seconds();
  progress_->start(start_wall_);
}

bool Env::failed() const { return first_failure() != nullptr || ctx_->gotError(); }

bool Env::run_until(const std::function<bool()>& done, uint64_t max_cycles) {
  const uint64_t end = ctrl_->cycle() + max_cycles;
  while (!done()) {
    if (failed() || ctrl_->cycle() >= end || SimCtrl::interrupted()) return false;
    ctrl_->step();
    if (progress_->on() && (ctrl_->cycle() & 0x3FFF) == 0) {
      progress_->update(now_seconds(), wiring_->transfers_finished(), opt_.cfg.traffic.transfers,
                        ctrl_->cycle());
    }
  }
  return !failed();
}

RunResult Env::run() {
  RunResult r;
  start();
  // --max-cycles is an absolute cycle number; otherwise the wiring's generous bound.
  uint64_t budget = wiring_->cycle_budget();
  if (opt_.cfg.max_cycles != 0) {
    budget = opt_.cfg.max_cycles > cycle() ? opt_.cfg.max_cycles - cycle() : 0;
  }
  const bool ok = run_until([this] { return wiring_->done(); }, budget);
  progress_->finish();
  if (ok) wiring_->read_back();
  conclude(r, ok, ok ? std::string() : wiring_->timeout_message(budget));
  if (rec_) save_record(r);
  return r;
}

void Env::finish(RunResult& r) {
  if (!failed()) wiring_->read_back();
  conclude(r, true, "");
}

const Checker* Env::first_failure() const {
  const Checker* first = nullptr;
  for (const Checker* c : checkers_) {
    if (c->failed() && (first == nullptr || c->first_error().cycle < first->first_error().cycle))
      first = c;
  }
  return first;
}

bool Env::expectation_failed(RunResult& r) const {
  for (const ScenarioDriver* d : drivers_) {
    if (d->failed()) {
      r.passed = false;
      r.failure = d->failure();
      r.fail_cycle = d->failure_cycle();
      return true;
    }
  }
  return false;
}

void Env::conclude(RunResult& r, bool ok, const std::string& timeout_msg) {
  r.cycles = ctrl_->cycle();
  r.wall_seconds = now_seconds() - start_wall_;
  if (wiring_->expectations_first() && expectation_failed(r)) return;
  // One checker speaks for itself; several name the one that failed.
  const bool alone = checkers_.size() == 1;
  auto label = [alone](const Checker& c, const std::string& s) {
    return alone ? s : c.name() + ": " + s;
  };
  const bool assertion = ctx_->gotError();
  const Checker* first = first_failure();
  if (!ok && first == nullptr && !assertion) {
    r.interrupted = SimCtrl::interrupted();
    r.timeout = !r.interrupted;
    r.failure = r.interrupted ? "interrupted" : timeout_msg;
    r.fail_cycle = ctrl_->cycle();
    std::size_t lines = 0;
    for (Checker* c : checkers_) {
      for (const std::string& s : c->final_check(ctrl_->cycle())) {
        // What was still pending, within reason.
        if (alone ? lines < 10 : r.detail.size() < 4000) r.detail += "  " + label(*c, s) + "\n";
        ++lines;
      }
    }
    return;
  }
  std::vector<std::string> problems;
  if (alone) {
    // The checker's own end-of-run verdict (it records its problems as its failure).
    for (const std::string& s : checkers_.front()->final_check(ctrl_->cycle()))
      problems.push_back(s);
    first = first_failure();
  }
  if (assertion && first == nullptr) {
    r.failure = "an RTL assertion failed (see the $error message above)";
    r.fail_cycle = ctrl_->cycle();
    return;
  }
  if (first != nullptr) {
    const CheckFailure& f = first->first_error();
    r.failure = label(*first, f.what);
    r.detail = f.detail;
    r.fail_cycle = f.cycle;
    return;
  }
  if (!alone) {
    for (Checker* c : checkers_) {
      for (const std::string& s : c->final_check(ctrl_->cycle())) problems.push_back(label(*c, s));
    }
  }
  for (const std::string& s : wiring_->end_problems()) problems.push_back(s);
  if (!problems.empty()) {
    r.failure = problems.front();
    for (std::size_t i = 1; i < problems.size() && i < 10; ++i)
      r.detail += "  " + problems[i] + "\n";
    r.fail_cycle = ctrl_->cycle();
    return;
  }
  r.passed = true;
  if (!wiring_->expectations_first()) expectation_failed(r);
}

void Env::save_record(const RunResult& r) {
  std::string d = opt_.scenario != nullptr ? "recorded from a replay of " + opt_.scenario->path
                                           : "recorded from " + wiring_->random_run_name() +
                                                 ", seed " + std::to_string(opt_.cfg.seed);
  d += r.passed ? " (passed)" : " (failed: " + r.failure + ")";
  rec_->save(opt_.record_path, opt_.cfg.to_json(), d);
}

nlohmann::json Env::report(const RunResult& r) const {
  nlohmann::json j;
  j["seed"] = opt_.cfg.seed;
  j["passed"] = r.passed;
  j["failure"] = r.failure;
  j["cycles"] = r.cycles;
  j["wall_seconds"] = r.wall_seconds;
  j["cycles_per_second"] = r.wall_seconds > 0 ? double(r.cycles) / r.wall_seconds : 0.0;
  j["config"] = opt_.cfg.to_json();
  wiring_->report(r, j);
  return j;
}

std::string Env::pass_line(const RunResult& r, const nlohmann::json& report) const {
  char tail[128];
  std::snprintf(tail, sizeof tail, "; %" PRIu64 " cycles in %.1f s (%.0f cycles/s)", r.cycles,
                r.wall_seconds, report["cycles_per_second"].get<double>());
  return "PASS seed " + std::to_string(opt_.cfg.seed) + wiring_->summary(report) + tail;
}

void Env::print_profile() const {
  const SimCtrl::Profile& p = ctrl_->profile();
  const double total = now_seconds() - start_wall_;
  const double steps = p.eval_s + p.drive_s + p.sample_s + p.post_edge_s + p.dump_s;
  auto row = [total](const char* what, double s) {
    std::fprintf(stderr, "[profile] %-34s %9.2f s %6.1f %%\n", what, s,
                 total > 0 ? 100.0 * s / total : 0.0);
  };
  std::fprintf(stderr, "[profile] %" PRIu64 " cycles, %u thread(s), %.2f s of run loop\n", p.cycles,
               ctrl_->threads(), total);
  row(ctrl_->split_eval() ? "models' eval (both phases, split)"
                          : "models' eval (both phases, whole)",
      p.eval_s);
  row("components: drive", p.drive_s);
  row("components: sample (checkers)", p.sample_s);
  row("components: post_edge", p.post_edge_s);
  row("waveform dump", p.dump_s);
  row("run loop, read-back, final checks", total - steps);
  if (ctrl_->pool_phases() != 0) {
    const uint64_t n = ctrl_->pool_phases(), s = ctrl_->pool_serial_phases();
    std::fprintf(stderr,
                 "[profile] clock phases on one thread (cores taken): %" PRIu64 " of %" PRIu64
                 " (%.1f %%)\n",
                 s, n, 100.0 * double(s) / double(n));
  }
}

}  // namespace sim
