// SPDX-License-Identifier: Apache-2.0
// Formal harness of fifo_ram with Bypass: against a sync_fifo of the same capacity (RAM depth
// + the two-entry output stage), driven by the same pushes and pops, its valid_o/head_o must
// be the sync_fifo's !empty_o/head_o in every cycle (the engine's re-issue queue relies on
// it: a request pushed into the empty queue is at the head the next cycle). Bounded model
// check from reset (tests/formal/fifo_ram.sby): a RAM of 2 entries fills and drains twice
// within the depth.
//
// Contract: no pop when empty, no push when full. Reset in the first cycle.
`default_nettype none

module fv_fifo_ram #(
  parameter int unsigned Depth = 3,
  parameter int unsigned Width = 3,
  localparam int unsigned CntW = $clog2(Depth + 3)
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             push_i,
  input logic [Width-1:0] push_data_i,
  input logic             pop_i
);

  logic             valid, full;
  logic [Width-1:0] head;
  logic [CntW-1:0]  count;

  fifo_ram #(
    .Depth (Depth),
    .Width (Width),
    .Bypass(1'b1)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (push_i),
    .push_data_i(push_data_i),
    .full_o     (full),
    .pop_i      (pop_i),
    .valid_o    (valid),
    .head_o     (head),
    .count_o    (count)
  );

  localparam int unsigned RefDepth = Depth + 2;
  logic             ref_empty, ref_full;
  logic [Width-1:0] ref_head;
  logic [$clog2(RefDepth + 1)-1:0] ref_count;

  sync_fifo #(
    .Depth(RefDepth),
    .Width(Width)
  ) u_ref (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (push_i),
    .push_data_i(push_data_i),
    .pop_i      (pop_i),
    .head_o     (ref_head),
    .empty_o    (ref_empty),
    .full_o     (ref_full),
    .count_o    (ref_count)
  );

  logic first_cycle_q = 1'b1;
  always_ff @(posedge clk_i) first_cycle_q <= 1'b0;

  always_comb begin
    if (first_cycle_q) m_reset : assume (!rst_ni);
    if (rst_ni) begin
      m_no_pop_empty : assume (!(pop_i && ref_empty));
      m_no_push_full : assume (!(push_i && (ref_full || full)));
    end
  end

  always_comb begin
    if (rst_ni && !first_cycle_q) begin
      a_valid : assert (valid == !ref_empty);
      a_head  : assert (!valid || head == ref_head);
      a_count : assert (32'(count) == 32'(ref_count));
      // the fifo_ram is only full when the reference is: the contract loses no state
      a_full  : assert (!full || ref_full);
    end
  end

  always_comb begin
    if (rst_ni) begin
      c_bypass   : cover (u_dut.byp);
      c_ram_path : cover (u_dut.rd_q && pop_i);
      c_full     : cover (ref_full);
    end
  end

endmodule

`default_nettype wire
