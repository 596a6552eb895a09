// SPDX-License-Identifier: Apache-2.0
// Formal harness of stat_counters: the DUT against a shadow that counts the plain way (the
// saturating add of ICD 8: count + events, or 2^64 - 1 where that passes it), compared
// counter by counter every cycle through the DUT's state (hierarchical reference: its count
// with its registered events added the plain way), so the induction step starts from any
// count, near saturation included. The read port returns, the cycle after a read's index,
// the indexed counter with every event of the cycles before the read, 0 past the last.
//
// Environment: reset asserted in the first cycle, free at any time after; any read index.
// Contract: stat_counters' own input assertion IncAtMostTwo (0..2 events a counter a cycle),
// made an assumption by stat_counters.sby (`chformal -assert2assume`).
`default_nettype none

module fv_stat_counters #(
  parameter int unsigned NumCnt = 2
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic [NumCnt-1:0][1:0] inc_i,
  input logic [5:0]             rd_idx_i
);

  logic [63:0] rd_val;

  stat_counters #(
    .NumCnt(NumCnt)
  ) u_dut (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .inc_i   (inc_i),
    .rd_idx_i(rd_idx_i),
    .rd_val_o(rd_val)
  );

  logic first_cycle_q = 1'b1;
  always_ff @(posedge clk_i) first_cycle_q <= 1'b0;
  always_comb begin
    if (first_cycle_q) m_reset : assume (!rst_ni);
  end

  // ---------------------------------------------------------------------------------------
  // The shadow counters
  // ---------------------------------------------------------------------------------------
  logic [NumCnt-1:0][63:0] shadow_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shadow_q <= '0;
    end else begin
      for (int i = 0; i < NumCnt; i++) begin
        logic [64:0] sum;
        sum = {1'b0, shadow_q[i]} + 65'(inc_i[i]);
        shadow_q[i] <= sum[64] ? '1 : sum[63:0];
      end
    end
  end

  for (genvar i = 0; i < NumCnt; i++) begin : gen_count
    logic [64:0] dut_sum;
    assign dut_sum = {1'b0, u_dut.cnt_q[i]} + 65'(u_dut.inc_q[i]);
    always_comb begin
      if (rst_ni) begin
        a_pending : assert (u_dut.inc_q[i] != 2'd3);
        a_count : assert ((dut_sum[64] ? 64'hFFFF_FFFF_FFFF_FFFF : dut_sum[63:0]) == shadow_q[i]);
      end
    end
  end
  // What a read of this cycle must return in the next.
  logic [63:0] rd_exp_q;
  logic        rd_exp_valid_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_exp_q       <= '0;
      rd_exp_valid_q <= 1'b0;
    end else begin
      rd_exp_q       <= (32'(rd_idx_i) < NumCnt) ? shadow_q[rd_idx_i[0]] : 64'd0;
      rd_exp_valid_q <= 1'b1;
    end
  end
  always_comb begin
    if (rst_ni && rd_exp_valid_q) a_read : assert (rd_val == rd_exp_q);
  end

  // ---------------------------------------------------------------------------------------
  // Covers: two events in one cycle counted, a read of each counter (one of events still
  // pending) and past the last
  // ---------------------------------------------------------------------------------------
  always_comb begin
    if (rst_ni) begin
      c_two : cover (shadow_q[0] == 64'd2 && shadow_q[1] == 64'd3);
      c_read1 : cover (u_dut.rd_idx_q == 6'd1 && rd_val != '0);
      // a read in the cycle after the counter's first events: the registered events count
      c_read_pending : cover (rd_idx_i == 6'd0 && u_dut.cnt_q[0] == '0 && u_dut.inc_q[0] == 2'd2);
      c_read_past : cover (u_dut.rd_idx_q == 6'd5);
    end
  end

endmodule

`default_nettype wire
