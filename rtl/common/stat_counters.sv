// SPDX-License-Identifier: Apache-2.0
// Statistics counters (ICD section 8): NumCnt 64-bit saturating event counters, read by the
// AXI slave. Each counts 0, 1 or 2 events a cycle (ni_node's counters of both networks).
// Reads never clear them; indices at or above NumCnt read 0.
`default_nettype none
`include "ni_assert.svh"

module stat_counters
  import ni_pkg::*;
#(
  parameter int unsigned NumCnt = NumStats
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [NumCnt-1:0][1:0] inc_i,  // events this cycle (0..2)
  input  logic [5:0]          rd_idx_i,
  output logic [63:0]         rd_val_o
);

  logic [NumCnt-1:0][63:0] cnt_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else begin
      for (int i = 0; i < NumCnt; i++) begin
        if (cnt_q[i] > ~64'(inc_i[i])) cnt_q[i] <= '1;  // saturates
        else                           cnt_q[i] <= cnt_q[i] + 64'(inc_i[i]);
      end
    end
  end

  always_comb begin
    rd_val_o = '0;
    for (int unsigned i = 0; i < NumCnt; i++) begin
      if (32'(rd_idx_i) == i) rd_val_o = cnt_q[i];
    end
  end

  if (NumCnt > 64) begin : gen_bad_num_cnt
    $error("stat_counters: at most 64 counters (a 6-bit index)");
  end

endmodule

`default_nettype wire
