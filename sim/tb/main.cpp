// SPDX-License-Identifier: Apache-2.0
// ni_sim: random and scenario runs of the verilated QoS engine (--nodes 0) or of N full NIs
// on a network (--nodes N) against the golden models. Command line, log and report formats:
// ICD sections 9 and 15; `ni_sim --help` lists the flags.
#include <CLI/CLI.hpp>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/sim_ctrl.hpp"
#include "sim/env/env.hpp"
#include "sim/env/scenario.hpp"
#include "sim/env/shrink.hpp"
#include "sim/tb/qos/engine_wiring.hpp"
#ifndef NI_SIM_QOS_ONLY
#include "sim/tb/node/node_wiring.hpp"
#endif

#if VM_COVERAGE
#include "verilated.h"
#include "verilated_cov.h"
#endif

namespace {

struct CliError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Cli {
  bool have_seed = false;
  uint64_t seed = 1;
  bool have_transfers = false;
  uint64_t transfers = 0;
  bool have_max_size = false;
  uint64_t max_size = 0;
  bool have_max_cycles = false;
  uint64_t max_cycles = 0;
  std::string scenario, record, log, report, trace, config, shrink, capture;
  std::string coverage, code_coverage;
  unsigned capture_node = 0;
  bool have_nodes = false;
  unsigned nodes = 0;
  bool have_trace_window = false;
  uint64_t trace_window = 0;
  bool quiet = false;
  bool profile = false;
  unsigned threads = 1;
  bool full_eval = false;
  std::vector<std::string> argv;
};

const char* kAbout =
    "ni_sim: random and scenario runs of the verilated RDMA NI against its golden models.\n"
    "Exit status: 0 when every check passed and every transfer reached its final status;\n"
    "1 on a failure (printed with a command that reproduces it); 2 on bad input.";

// The command line (ICD section 9). CLI11 parses it; every error is a CliError (exit 2).
Cli parse(int argc, char** argv) {
  Cli c;
  for (int i = 0; i < argc; ++i) c.argv.push_back(argv[i]);
  CLI::App app{kAbout, "ni_sim"};
  app.get_formatter()->column_width(24);
  app.allow_extras();  // +verilator+... runtime options are accepted and ignored
  auto* seed = app.add_option("--seed", c.seed,
                              "random seed (default 1); the same seed, config and binary give "
                              "the same run, byte for byte");
  auto* transfers =
      app.add_option("--transfers", c.transfers, "legal transfers to complete (default 1000)");
  auto* max_size =
      app.add_option("--max-size", c.max_size, "largest memory transfer, bytes (default 1048576)")
          ->check(CLI::Range(uint64_t{1}, uint64_t{0xFFFFFFFF}));
  app.add_option("--config", c.config, "JSON configuration (see docs/simulator.md)");
  auto* nodes = app.add_option("--nodes", c.nodes,
                               "0: the QoS engine alone (ICD 9); N >= 1: N ni_nodes on a network "
                               "(ICD 15; 1 = loopback). Default: the configuration's \"nodes\", "
                               "else 0")
                    ->check(CLI::Range(0u, 64u));
  app.add_option("--scenario", c.scenario, "replay a scenario (ni-scenario/1)");
  app.add_option("--record", c.record, "write this run's stimulus as a scenario");
  app.add_option("--log", c.log, "JSON Lines event log (ICD section 9)");
  app.add_option("--capture", c.capture,
                 "CSV capture of the top-level ports, one row per clock (logic-analyzer layout; "
                 "scripts/csv2scenario.py reads it)");
  app.add_option("--capture-node", c.capture_node,
                 "with --nodes N: the node whose ports --capture records (default 0)");
  app.add_option("--report", c.report, "JSON report of the run");
  app.add_option("--trace", c.trace, "FST waveform of the whole run");
  auto* window = app.add_option("--trace-window", c.trace_window,
                                "on a failure, rerun and dump only the last N cycles before it "
                                "(to --trace FILE, default build/fail.fst)")
                     ->check(CLI::PositiveNumber);
  auto* max_cycles = app.add_option("--max-cycles", c.max_cycles, "stop with a failure at cycle N");
  app.add_option("--shrink", c.shrink,
                 "on a failing --scenario, write the smallest scenario that still fails the "
                 "same way to OUT");
  app.add_option("--coverage", c.coverage, "write the run's functional coverage (JSON)");
  app.add_option("--code-coverage", c.code_coverage,
                 "write Verilator's line/toggle coverage (binaries built with COVERAGE=1)");
  app.add_option("--threads", c.threads,
                 "with --nodes N: evaluate the nodes on this many threads (default 1, at most "
                 "N); the run is the same, byte for byte, for every count")
      ->check(CLI::Range(1u, 64u));
  app.add_flag("--full-eval", c.full_eval,
               "evaluate every scheduling region of the models on both clock phases (Verilator's "
               "eval()) instead of only those each phase needs; the run is the same, byte for "
               "byte, only slower");
  app.add_flag("--profile", c.profile,
               "with --nodes N: at the end, print where the wall time went (models' eval, test "
               "bench phases); costs a few per cent");
  app.add_flag("--quiet", c.quiet,
               "no progress (otherwise a live line on a terminal, a line every 30 s elsewhere)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    std::exit(0);
  } catch (const CLI::ParseError& e) {
    throw CliError(std::string(e.what()) + " (see ni_sim --help)");
  }
  for (const std::string& x : app.remaining()) {
    if (x.rfind("+verilator+", 0) != 0) {
      throw CliError("unknown flag '" + x + "' (see ni_sim --help)");
    }
  }
  c.have_seed = seed->count() > 0;
  c.have_nodes = nodes->count() > 0;
  c.have_transfers = transfers->count() > 0;
  c.have_max_size = max_size->count() > 0;
  c.have_max_cycles = max_cycles->count() > 0;
  c.have_trace_window = window->count() > 0;
#if !VM_COVERAGE
  if (!c.code_coverage.empty()) {
    throw CliError("--code-coverage needs a binary built with COVERAGE=1 (make coverage)");
  }
#endif
  return c;
}

std::string reproduce_command(const Cli& c, const sim::SimConfig& cfg, uint64_t window) {
  std::ostringstream os;
  os << c.argv[0];
  if (!c.scenario.empty()) os << " --scenario " << c.scenario;
  if (c.have_nodes) os << " --nodes " << c.nodes;
  if (!c.config.empty()) os << " --config " << c.config;
  if (c.scenario.empty()) {
    os << " --seed " << cfg.seed << " --transfers " << cfg.traffic.transfers;
    if (c.have_max_size) os << " --max-size " << c.max_size;
  }
  if (c.have_max_cycles) os << " --max-cycles " << c.max_cycles;
  os << " --trace-window " << window << " --trace "
     << (c.trace.empty() ? "build/fail.fst" : c.trace);
  return os.str();
}

// The Env of a run: the engine alone (--nodes 0) or N nodes on the network model.
std::unique_ptr<sim::Env> make_env(const sim::EnvOptions& opt) {
#ifndef NI_SIM_QOS_ONLY
  if (opt.cfg.nodes != 0) return std::make_unique<sim::Env>(opt, sim::node_wiring());
#endif
  return std::make_unique<sim::Env>(opt, sim::engine_wiring());
}

// The end of a failed run: the first failure and its reproduce command, then on request the
// shrunk scenario and the trace window (a deterministic rerun from reset, dumping only the
// cycles before the failure).
int report_failure(const Cli& cli, const sim::SimConfig& cfg, const sim::RunResult& r,
                   sim::EnvOptions opt, const sim::Scenario* scenario) {
  const uint64_t window = cli.have_trace_window ? cli.trace_window : 2000;
  std::printf("FAIL seed %" PRIu64 " at cycle %" PRIu64 ": %s\n", cfg.seed, r.fail_cycle,
              r.failure.c_str());
  if (!r.detail.empty()) std::printf("%s", r.detail.c_str());
  std::printf("reproduce: %s\n", reproduce_command(cli, cfg, window).c_str());
  opt.record_path.clear();
  opt.log_path.clear();
  opt.progress = sim::Progress::Mode::Off;
  if (!cli.shrink.empty() && scenario != nullptr) {
    const std::string sig = sim::failure_signature(r.failure);
    sim::EnvOptions sopt = opt;
    sopt.trace_path.clear();
    auto fails = [&](const sim::Scenario& cand) -> std::string {
      sopt.scenario = &cand;
      const sim::RunResult rr = make_env(sopt)->run();
      return rr.passed ? std::string() : rr.failure;
    };
    auto progress = [&](const std::string& m) {
      if (!cli.quiet) std::fprintf(stderr, "[shrink] %s\n", m.c_str());
    };
    const sim::ShrinkResult sr = sim::shrink_scenario(*scenario, sig, fails, 2000, progress);
    sim::save_scenario(
        sr.scenario, cli.shrink,
        "shrunk from " + cli.scenario + " (" + std::to_string(scenario->events.size()) + " -> " +
            std::to_string(sr.scenario.events.size()) + " events); first failure: " + r.failure);
    std::printf("shrink: %zu -> %zu events in %zu runs%s, written to %s\n", scenario->events.size(),
                sr.scenario.events.size(), sr.runs, sr.hit_limit ? " (run limit reached)" : "",
                cli.shrink.c_str());
  }
  if (cli.have_trace_window && !r.timeout && !r.interrupted) {
    const std::string path = cli.trace.empty() ? "build/fail.fst" : cli.trace;
    opt.trace_path = path;
    opt.trace_from = r.fail_cycle > window ? r.fail_cycle - window : 0;
    opt.cfg.max_cycles = r.fail_cycle + 2;
    try {
      make_env(opt)->run();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ni_sim: trace rerun failed: %s\n", e.what());
    }
    std::printf("trace: %s holds cycles %" PRIu64 "..%" PRIu64 "\n", path.c_str(), opt.trace_from,
                r.fail_cycle);
  }
  return 1;
}

nlohmann::json coverage_source(const Cli& cli, const sim::SimConfig& cfg,
                               const nlohmann::json& report, const sim::RunResult& r) {
  nlohmann::json s = {{"seed", cfg.seed},         {"config", cli.config},
                      {"scenario", cli.scenario}, {"transfers", report["transfers"]},
                      {"cycles", r.cycles},       {"passed", r.passed}};
  if (cfg.nodes != 0) s["nodes"] = cfg.nodes;
  return s;
}

void write_report(const Cli& cli, const nlohmann::json& report) {
  if (cli.report.empty()) return;
  std::ofstream out(cli.report);
  out << report.dump(2) << "\n";
}

// One run of either system: the report, the PASS line or the failure.
int run(const Cli& cli, const sim::SimConfig& cfg, const sim::Scenario* scenario) {
  sim::EnvOptions opt;
  opt.cfg = cfg;
  opt.scenario = scenario;
  opt.record_path = cli.record;
  opt.coverage_path = cli.coverage;
  opt.capture_path = cli.capture;
  opt.capture_node = cli.capture_node;
  opt.log_path = cli.log;
  opt.progress = sim::Progress::mode_for_stderr(cli.quiet);
  opt.profile = cli.profile;
  opt.threads = cli.threads;
  opt.full_eval = cli.full_eval;
  if (!cli.trace.empty() && !cli.have_trace_window) opt.trace_path = cli.trace;
  sim::RunResult r;
  nlohmann::json report;
  std::string pass_line;
  try {
    const std::unique_ptr<sim::Env> env = make_env(opt);
    r = env->run();
    report = env->report(r);
    pass_line = env->pass_line(r, report);
    if (cli.profile) env->print_profile();
    if (!cli.coverage.empty()) {
      env->write_coverage(cli.coverage, coverage_source(cli, cfg, report, r));
    }
#if VM_COVERAGE
    if (!cli.code_coverage.empty()) env->context().coveragep()->write(cli.code_coverage.c_str());
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ni_sim: error: %s\n", e.what());
    return 2;
  }
  write_report(cli, report);
  if (r.passed) {
    if (!cli.quiet) std::printf("%s\n", pass_line.c_str());
    return 0;
  }
  return report_failure(cli, cfg, r, opt, scenario);
}

}  // namespace

int main(int argc, char** argv) {
  Cli cli;
  sim::SimConfig cfg;
  sim::Scenario scenario;
  try {
    cli = parse(argc, argv);
    // Precedence: the scenario's "config", then --config, then the command line.
    nlohmann::json scen_json;
    if (!cli.scenario.empty()) {
      scen_json = sim::read_json_file(cli.scenario);
      if (scen_json.is_object() && scen_json.contains("config") &&
          scen_json["config"].is_object()) {
        cfg.apply(scen_json["config"], cli.scenario + " (\"config\")");
      }
    }
    if (!cli.config.empty()) cfg.apply(sim::read_json_file(cli.config), cli.config);
    if (cli.have_seed) cfg.seed = cli.seed;
    if (cli.have_transfers) cfg.traffic.transfers = cli.transfers;
    if (cli.have_max_size) cfg.traffic.max_size = uint32_t(cli.max_size);
    if (cli.have_max_cycles) cfg.max_cycles = cli.max_cycles;
    if (!cli.scenario.empty())
      scenario = sim::parse_scenario(scen_json, cli.scenario, cfg.responder);
    if (cli.have_nodes) cfg.nodes = cli.nodes;
    if (!cli.scenario.empty()) sim::check_scenario_nodes(scenario, cfg.nodes);
    if (!cli.shrink.empty() && cli.scenario.empty()) throw CliError("--shrink needs --scenario");
#ifdef NI_SIM_QOS_ONLY
    if (cfg.nodes != 0) throw CliError("this binary simulates the QoS engine alone (--nodes 0)");
#endif
    if (cfg.nodes != 0) {
      // Not yet available for the full NI: say so rather than run something else.
      if (cli.capture_node >= cfg.nodes) {
        throw CliError("--capture-node " + std::to_string(cli.capture_node) + ": the run has " +
                       std::to_string(cfg.nodes) + " node(s)");
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ni_sim: error: %s\n", e.what());
    return 2;
  }

  sim::SimCtrl::install_sigint_handler();
  return run(cli, cfg, cli.scenario.empty() ? nullptr : &scenario);
}
