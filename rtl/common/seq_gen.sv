// SPDX-License-Identifier: Apache-2.0
// Sequence number generator (thesis 3.13, ICD section 5): one wrapping counter, 0 after
// reset; every issued block, inline packet and retransmission takes the next value.
`default_nettype none
`include "ni_assert.svh"

module seq_gen
  import ni_pkg::*;
(
  input  logic clk_i,
  input  logic rst_ni,
  input  logic take_i,
  output seq_t seq_o
);

  seq_t seq_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)     seq_q <= '0;
    else if (take_i) seq_q <= seq_q + 1'b1;
  end

  assign seq_o = seq_q;

endmodule

`default_nettype wire
