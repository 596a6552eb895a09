// SPDX-License-Identifier: Apache-2.0
// One verilated top under SimCtrl's clock. Each top's adapter (sim/tb/<top>/) implements it
// for its verilated class; SimCtrl and every agent see only this interface and the port
// bundles of ports.hpp, so any top, and several instances of one, plug in.
#pragma once

#include <string>

class VerilatedFstC;

namespace sim {

class Dut {
 public:
  virtual ~Dut() = default;
  virtual void set_clk(bool high) = 0;
  virtual void set_rst_n(bool high) = 0;
  virtual void eval() = 0;
  // From the next eval() on, evaluate on each clock phase only the scheduling regions that
  // phase needs (docs/design.md section 18): with the clock low, the input-combinational
  // region (the inputs changed) but not the sampling of assertion operands; with it high,
  // the sampling and the clocked regions but not the input-combinational region again (the
  // inputs are those of the low phase). Holds only while nothing changes an input between
  // the two phases of a cycle, and no waveform or code coverage is recorded. Returns whether
  // the top does it; a top that does not keeps evaluating everything on every eval().
  virtual bool split_eval(bool on) {
    (void)on;
    return false;
  }
  // Adds the model's signals to an open FST file (under the scope of its instance name).
  virtual void trace(VerilatedFstC& fst, int levels) = 0;
  // End of simulation (Verilator's final blocks, coverage).
  virtual void final() = 0;
  virtual const std::string& name() const = 0;
};

}  // namespace sim
