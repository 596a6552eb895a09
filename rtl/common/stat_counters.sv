// SPDX-License-Identifier: Apache-2.0
// Statistics counters (ICD section 8): NumStats 64-bit saturating event counters, read by the
// AXI slave. Reads never clear them.
`default_nettype none

module stat_counters
  import ni_pkg::*;
(
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [NumStats-1:0] inc_i,
  input  logic [5:0]          rd_idx_i,
  output logic [63:0]         rd_val_o
);

  logic [NumStats-1:0][63:0] cnt_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else begin
      for (int i = 0; i < NumStats; i++) begin
        if (inc_i[i] && (cnt_q[i] != '1)) cnt_q[i] <= cnt_q[i] + 64'd1;
      end
    end
  end

  assign rd_val_o = (32'(rd_idx_i) < NumStats) ? cnt_q[rd_idx_i[3:0]] : 64'd0;

endmodule

`default_nettype wire
