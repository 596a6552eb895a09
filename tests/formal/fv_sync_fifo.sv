// SPDX-License-Identifier: Apache-2.0
// Formal harness of sync_fifo: the DUT and the shadow checker (fv_fifo_shadow) fed with the
// DUT's state by hierarchical reference.
//
// Contract: sync_fifo's own assertions NoPopWhenEmpty (no pop when empty) and NoPushWhenFull
// (no push when full unless there is a pop in the same cycle), made assumptions by
// sync_fifo.sby (`chformal -assert2assume`), not restated here. Reset is asserted in the
// first cycle and may be asserted again at any time.
`default_nettype none

module fv_sync_fifo #(
  parameter int unsigned Depth = 4,
  parameter int unsigned Width = 4,
  parameter bit          RegHead = 1'b0,
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             push_i,
  input logic [Width-1:0] push_data_i,
  input logic             pop_i
);

  logic [Width-1:0] head;
  logic             empty, full;
  logic [CntW-1:0]  count;

  sync_fifo #(
    .Depth  (Depth),
    .Width  (Width),
    .RegHead(RegHead)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (push_i),
    .push_data_i(push_data_i),
    .pop_i      (pop_i),
    .head_o     (head),
    .empty_o    (empty),
    .full_o     (full),
    .count_o    (count)
  );

  // ---------------------------------------------------------------------------------------
  // Environment
  // ---------------------------------------------------------------------------------------
  logic first_cycle_q = 1'b1;
  always_ff @(posedge clk_i) first_cycle_q <= 1'b0;

  always_comb begin
    if (first_cycle_q) m_reset : assume (!rst_ni);
  end

  // ---------------------------------------------------------------------------------------
  // Checker
  // ---------------------------------------------------------------------------------------
  logic [Depth-1:0][Width-1:0] mem;
  for (genvar i = 0; i < Depth; i++) begin : g_mem
    assign mem[i] = u_dut.mem_q[i];
  end

  fv_fifo_shadow #(
    .Depth(Depth),
    .Width(Width)
  ) u_chk (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (push_i),
    .push_data_i(push_data_i),
    .pop_i      (pop_i),
    .head_i     (head),
    .empty_i    (empty),
    .full_i     (full),
    .count_i    (count),
    .mem_i      (mem),
    .rd_ptr_i   (u_dut.rd_ptr_q),
    .wr_ptr_i   (u_dut.wr_ptr_q)
  );

endmodule

`default_nettype wire
