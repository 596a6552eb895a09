// Assertion macros for the QoS engine RTL.
//
// Every macro expects `clk_i` and `rst_ni` in scope (the module's clock and asynchronous
// active-low reset). Synthesis defines SYNTHESIS and sees nothing; Verilator checks them when
// run with --assert.
`ifndef NI_ASSERT_SVH
`define NI_ASSERT_SVH

`ifndef SYNTHESIS
// Concurrent assertion checked on every rising clock edge outside reset.
// SYNCASYNCNET: rst_ni is an asynchronous reset of the design and also the `disable iff`
// condition of the checker; the checker is not logic, so the mixed use is intended.
`define ASSERT(name, prop) \
  /* verilator lint_off SYNCASYNCNET */ \
  name: assert property (@(posedge clk_i) disable iff (!rst_ni) (prop)) \
    else $error("[%0t] %m: assertion %s failed", $time, `"name`"); \
  /* verilator lint_on SYNCASYNCNET */

// valid must stay high, and data stable, until ready.
`define ASSERT_VALID_HELD(name, valid, ready, data) \
  `ASSERT(name``_valid, (valid) && !(ready) |=> (valid)) \
  `ASSERT(name``_data, (valid) && !(ready) |=> $stable(data))

// The vector has at most one bit set.
`define ASSERT_ONEHOT0(name, vec) \
  `ASSERT(name, $onehot0(vec))
`else
`define ASSERT(name, prop)
`define ASSERT_VALID_HELD(name, valid, ready, data)
`define ASSERT_ONEHOT0(name, vec)
`endif

`endif  // NI_ASSERT_SVH
