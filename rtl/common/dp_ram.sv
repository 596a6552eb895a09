// SPDX-License-Identifier: Apache-2.0
// Simple dual-port RAM: one write port, one synchronous read port, one clock.
//
// Written in the form FPGA synthesis tools infer as block RAM (or distributed RAM for small
// sizes): the array has no reset and is written in a single always_ff. The read port is
// read-first: a read of the address written in the same cycle returns the old word, and
// callers that need the new word forward it themselves. `rdata_o` holds its value while
// `re_i` is low.
// With `AsyncRead` the read port is combinational instead (distributed RAM): `rdata_o` is
// the word at `raddr_i` as written up to the cycle before, and `re_i` is not used.
`default_nettype none
`include "ni_assert.svh"

module dp_ram #(
  parameter int unsigned Depth = 1024,
  parameter int unsigned Width = 32,
  parameter bit          AsyncRead = 1'b0,
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  // write port
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  // read port
  input  logic             re_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o
);

  logic [Width-1:0] mem_q [Depth];

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  if (AsyncRead) begin : g_async
    logic unused_re;
    assign unused_re = re_i;
    assign rdata_o   = mem_q[raddr_i];
  end else begin : g_sync
    logic [Width-1:0] rdata_q;
    always_ff @(posedge clk_i) begin
      if (re_i) rdata_q <= mem_q[raddr_i];
    end
    assign rdata_o = rdata_q;
  end

endmodule

`default_nettype wire
