// SPDX-License-Identifier: Apache-2.0
// Assertion macros of the RTL (after lowRISC's prim_assert.sv and PULP's assertions.svh).
// Every RTL module includes this file: `include "ni_assert.svh"`; the guard makes a second
// inclusion empty, and the NI_ prefix keeps the macros apart from those of a bigger design
// (OpenTitan's ASSERT, ASSUME, ...). The include directory is rtl/common: Verilator finds it
// through -y rtl/common (mk/rtl.mk RTL_YFLAGS), slang and Yosys through the directories of
// the files they read (scripts/slang_lint.py, scripts/synth.py), FuseSoC through the core
// (is_include_file), SymbiYosys through the .sby's [files] (copied next to the sources).
//
// Every macro checks on the rising edge of `clk`, outside reset (`rst_n` low), with the
// module's clk_i and rst_ni as defaults:
//   `NI_ASSERT(name, prop)                    prop holds in every cycle
//   `NI_ASSERT_NEXT(name, cond, prop)          cond in one cycle -> prop in the next
//   `NI_ASSERT_VALID_HELD(name, valid, ready, data)
//                                              valid stays high and data stable until ready
//   `NI_ASSERT_ONEHOT0(name, vec)              at most one bit of vec set
//   `NI_ASSERT_KNOWN(name, sig)                no X or Z on sig (2-state Verilator: always)
//   `NI_ASSUME(name, prop)                     prop is a promise of the NI's environment
//   `NI_COVER(name, prop)                      prop is reachable
// `prop` is a boolean expression (write an implication with `->`, not a sequence with |->):
// the same text is a concurrent assertion in simulation and an immediate one under FORMAL.
//
// Three views:
//   simulation (Verilator --assert, slang's simulation view): concurrent assertions,
//     `disable iff (!rst_n)`, a failure stops the run with the assertion's name;
//   FORMAL (SymbiYosys, yosys-slang: -DFORMAL): immediate assertions that yosys-slang reads.
//     One formal step is one clock cycle, so a single-cycle property is checked in an
//     always_comb block (as the harnesses of tests/formal/ check theirs: an assumption then
//     constrains the step it is about); NI_ASSERT_NEXT and NI_ASSERT_VALID_HELD compare with
//     the previous cycle through $past/$stable in an always @(posedge clk) block. A harness
//     reuses a module's properties: `chformal -assert2assume` turns the contract of the module
//     under proof (its input assertions, by name) into assumptions; the rest stay assertions;
//   SYNTHESIS (Yosys read_slang, synthesis tools): nothing. yosys-slang defines SYNTHESIS
//     also under FORMAL, so FORMAL is tested first; checker logic that is simulation-only
//     (shadow copies, `ifndef SYNTHESIS` blocks) is not part of a formal model.
`ifndef NI_ASSERT_SVH
`define NI_ASSERT_SVH

`ifdef FORMAL
// ------------------------------------------------------------------------------------------
// FORMAL: immediate assertions, assumptions and covers (yosys-slang, SymbiYosys)
// ------------------------------------------------------------------------------------------
`define NI_ASSERT(name, prop, clk = clk_i, rst_n = rst_ni) \
  always_comb begin \
    if (rst_n) name: assert (prop); \
  end

`define NI_ASSUME(name, prop, clk = clk_i, rst_n = rst_ni) \
  always_comb begin \
    if (rst_n) name: assume (prop); \
  end

`define NI_COVER(name, prop, clk = clk_i, rst_n = rst_ni) \
  always_comb begin \
    if (rst_n) name: cover (prop); \
  end

`define NI_ASSERT_NEXT(name, cond, prop, clk = clk_i, rst_n = rst_ni) \
  always @(posedge clk) begin \
    if ((rst_n) && $past((rst_n) && (cond))) name: assert (prop); \
  end

`define NI_ASSERT_VALID_HELD(name, valid, ready, data, clk = clk_i, rst_n = rst_ni) \
  always @(posedge clk) begin \
    if ((rst_n) && $past((rst_n) && (valid) && !(ready))) begin \
      name``_valid: assert (valid); \
      name``_data: assert ($stable(data)); \
    end \
  end

// 2-state models: nothing to check.
`define NI_ASSERT_KNOWN(name, sig, clk = clk_i, rst_n = rst_ni)

`elsif SYNTHESIS
// ------------------------------------------------------------------------------------------
// SYNTHESIS: no checks
// ------------------------------------------------------------------------------------------
`define NI_ASSERT(name, prop, clk = clk_i, rst_n = rst_ni)
`define NI_ASSUME(name, prop, clk = clk_i, rst_n = rst_ni)
`define NI_COVER(name, prop, clk = clk_i, rst_n = rst_ni)
`define NI_ASSERT_NEXT(name, cond, prop, clk = clk_i, rst_n = rst_ni)
`define NI_ASSERT_VALID_HELD(name, valid, ready, data, clk = clk_i, rst_n = rst_ni)
`define NI_ASSERT_KNOWN(name, sig, clk = clk_i, rst_n = rst_ni)

`else
// ------------------------------------------------------------------------------------------
// Simulation: concurrent assertions (Verilator --assert)
// ------------------------------------------------------------------------------------------
// SYNCASYNCNET: rst_ni is an asynchronous reset of the design and also the `disable iff`
// condition of the checker; the checker is not logic, so the mixed use is intended.
`define NI_ASSERT(name, prop, clk = clk_i, rst_n = rst_ni) \
  /* verilator lint_off SYNCASYNCNET */ \
  name: assert property (@(posedge clk) disable iff (!(rst_n)) (prop)) \
    else $error("[%0t] %m: assertion %s failed", $time, `"name`"); \
  /* verilator lint_on SYNCASYNCNET */

// In simulation an assumption about the environment is checked like any assertion.
`define NI_ASSUME(name, prop, clk = clk_i, rst_n = rst_ni) \
  /* verilator lint_off SYNCASYNCNET */ \
  name: assume property (@(posedge clk) disable iff (!(rst_n)) (prop)) \
    else $error("[%0t] %m: assumption %s failed", $time, `"name`"); \
  /* verilator lint_on SYNCASYNCNET */

`define NI_COVER(name, prop, clk = clk_i, rst_n = rst_ni) \
  /* verilator lint_off SYNCASYNCNET */ \
  name: cover property (@(posedge clk) disable iff (!(rst_n)) (prop)); \
  /* verilator lint_on SYNCASYNCNET */

`define NI_ASSERT_NEXT(name, cond, prop, clk = clk_i, rst_n = rst_ni) \
  /* verilator lint_off SYNCASYNCNET */ \
  name: assert property (@(posedge clk) disable iff (!(rst_n)) (cond) |=> (prop)) \
    else $error("[%0t] %m: assertion %s failed", $time, `"name`"); \
  /* verilator lint_on SYNCASYNCNET */

`define NI_ASSERT_VALID_HELD(name, valid, ready, data, clk = clk_i, rst_n = rst_ni) \
  `NI_ASSERT_NEXT(name``_valid, (valid) && !(ready), valid, clk, rst_n) \
  `NI_ASSERT_NEXT(name``_data, (valid) && !(ready), $stable(data), clk, rst_n)

`define NI_ASSERT_KNOWN(name, sig, clk = clk_i, rst_n = rst_ni) \
  `NI_ASSERT(name, !$isunknown(sig), clk, rst_n)

`endif

// At most one bit of `vec` set.
`define NI_ASSERT_ONEHOT0(name, vec, clk = clk_i, rst_n = rst_ni) \
  `NI_ASSERT(name, $onehot0(vec), clk, rst_n)

`endif  // NI_ASSERT_SVH
