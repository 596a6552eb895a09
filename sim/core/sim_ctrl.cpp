// SPDX-License-Identifier: Apache-2.0
#include "sim/core/sim_ctrl.hpp"

#include <chrono>
#include <csignal>
#include <stdexcept>

#include "sim/core/run_result.hpp"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

namespace sim {

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

namespace {
// The one piece of process-wide state: a signal handler can only talk through it.
volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_sigint(int) { g_interrupted = 1; }
}  // namespace

void SimCtrl::TraceDeleter::operator()(VerilatedFstC* t) const {
#if VM_TRACE
  delete t;
#else
  (void)t;  // never created without tracing
#endif
}

SimCtrl::SimCtrl(VerilatedContext& ctx) : ctx_(ctx) {}

SimCtrl::~SimCtrl() { close_trace(); }

void SimCtrl::install_sigint_handler() { std::signal(SIGINT, on_sigint); }
bool SimCtrl::interrupted() { return g_interrupted != 0; }

void SimCtrl::open_trace(const std::string& path, uint64_t from) {
#if VM_TRACE
  ctx_.traceEverOn(true);
  trace_.reset(new VerilatedFstC);
  for (Dut* d : duts_) d->trace(*trace_, 99);
  // One cycle = 10 ns of waveform time (see step()).
  trace_->set_time_unit("1ns");
  trace_->set_time_resolution("1ns");
  trace_->open(path.c_str());
  trace_from_ = from;
  apply_split();  // Verilator's trace dump needs the activity flag its own eval() sets
#else
  (void)path;
  (void)from;
  throw std::runtime_error("this binary was built without tracing (rebuild with TRACE=1)");
#endif
}

void SimCtrl::close_trace() {
#if VM_TRACE
  if (trace_) {
    trace_->close();
    trace_.reset();
  }
#endif
}

void SimCtrl::set_split_eval(bool on) {
  split_wanted_ = on;
  apply_split();
}

void SimCtrl::apply_split() {
  bool on = out_of_reset_ && split_wanted_ && !trace_;
#if VM_COVERAGE
  on = false;  // line coverage counts each evaluation of a line
#endif
  bool all = !duts_.empty();
  for (Dut* d : duts_) all = d->split_eval(on) && all;
  split_active_ = on && all;
}

void SimCtrl::dump(uint64_t t) {
#if VM_TRACE
  if (trace_ && cycle_ >= trace_from_) trace_->dump(t);
#else
  (void)t;
#endif
}

void SimCtrl::set_threads(unsigned n) {
  pool_.reset();
  if (n > 1 && duts_.size() > 1) pool_ = std::make_unique<EvalPool>(ctx_, duts_, n);
}

unsigned SimCtrl::threads() const { return pool_ ? pool_->threads() : 1; }
uint64_t SimCtrl::pool_phases() const { return pool_ ? pool_->phases() : 0; }
uint64_t SimCtrl::pool_serial_phases() const { return pool_ ? pool_->serial_phases() : 0; }

void SimCtrl::clock(bool high) {
  if (pool_) {
    pool_->eval_all(high);
    return;
  }
  for (Dut* d : duts_) {
    d->set_clk(high);
    d->eval();
  }
}

void SimCtrl::reset(unsigned cycles) {
  out_of_reset_ = false;  // rst_ni changes on the clock's low phase
  apply_split();
  for (Dut* d : duts_) {
    d->set_rst_n(false);
    d->set_clk(false);
  }
  for (Component* c : components_) c->on_reset();
  for (Dut* d : duts_) d->eval();
  // The reset cycles are not dumped: waveforms start at cycle 0 (see step()).
  for (unsigned i = 0; i < cycles; ++i) {
    clock(false);
    clock(true);
  }
  for (Dut* d : duts_) {
    d->set_clk(false);
    d->set_rst_n(true);
    d->eval();
  }
  out_of_reset_ = true;
  apply_split();
  cycle_ = 0;
}

void SimCtrl::step() {
  if (profiling_) {
    step_profiled();
    return;
  }
  for (Component* c : components_) c->drive(cycle_);
  clock(false);
  for (Component* c : components_) c->sample(cycle_);
  // Waveform time: cycle c spans 10c .. 10c+9, its rising edge at 10c+5, so a time of
  // t in GTKWave is cycle t/10 of the log.
  ctx_.timeInc(5);
  dump(10 * cycle_);
  clock(true);
  ctx_.timeInc(5);
  dump(10 * cycle_ + 5);
  for (Component* c : components_) c->post_edge(cycle_);
  ++cycle_;
}

// step() with a clock read between its phases; does exactly what step() does.
void SimCtrl::step_profiled() {
  using clk = std::chrono::steady_clock;
  auto secs = [](clk::time_point a, clk::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  const clk::time_point t0 = clk::now();
  for (Component* c : components_) c->drive(cycle_);
  const clk::time_point t1 = clk::now();
  clock(false);
  const clk::time_point t2 = clk::now();
  for (Component* c : components_) c->sample(cycle_);
  const clk::time_point t3 = clk::now();
  ctx_.timeInc(5);
  dump(10 * cycle_);
  const clk::time_point t4 = clk::now();
  clock(true);
  const clk::time_point t5 = clk::now();
  ctx_.timeInc(5);
  dump(10 * cycle_ + 5);
  const clk::time_point t6 = clk::now();
  for (Component* c : components_) c->post_edge(cycle_);
  const clk::time_point t7 = clk::now();
  profile_.drive_s += secs(t0, t1);
  profile_.eval_s += secs(t1, t2) + secs(t4, t5);
  profile_.sample_s += secs(t2, t3);
  profile_.dump_s += secs(t3, t4) + secs(t5, t6);
  profile_.post_edge_s += secs(t6, t7);
  ++profile_.cycles;
  ++cycle_;
}

bool SimCtrl::run_until(const std::function<bool()>& done, uint64_t max_cycles) {
  const uint64_t end = cycle_ + max_cycles;
  while (!done() && cycle_ < end && !interrupted()) step();
  return done();
}

}  // namespace sim
