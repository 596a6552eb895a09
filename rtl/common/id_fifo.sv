// SPDX-License-Identifier: Apache-2.0
// First-word-fall-through FIFO of IDs (thesis 3.8): the TID FIFO, the 1xFID FIFO and the
// 4xFID FIFO. One push and one pop per cycle; `head_o` is the next ID to hand out.
//
// A sync_fifo (array storage with an asynchronous read: distributed RAM on an FPGA, as in the
// thesis's Table 4.1 where the ID FIFOs use no block RAM) plus the checks an ID pool needs.
// Its head and empty flag come from registers (sync_fifo's `RegHead`): the segmenter's block
// takes its TID or FID from the head, and that read of the array at the read pointer was
// the first level of the engine's deepest paths (into the Message Handler's response check
// and the metadata writes, docs/design.md section 20).
`default_nettype none
`include "ni_assert.svh"

module id_fifo #(
  parameter int unsigned Depth = 512,
  parameter int unsigned Width = 10,
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [Width-1:0] push_id_i,
  input  logic             pop_i,
  output logic [Width-1:0] head_o,
  output logic [CntW-1:0]  count_o,
  output logic             empty_o,
  output logic             full_o
);

  sync_fifo #(
    .Depth  (Depth),
    .Width  (Width),
    .RegHead(1'b1)
  ) u_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (push_i),
    .push_data_i(push_id_i),
    .pop_i      (pop_i),
    .head_o     (head_o),
    .empty_o    (empty_o),
    .full_o     (full_o),
    .count_o    (count_o)
  );

  // ---------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------
  // Every ID exists once, so a full pool is never pushed (not even with a pop).
  // The contract of the pool's client (fv_id_fifo and fv_id_pool assume these two).
  `NI_ASSERT(NoPopWhenEmpty, pop_i -> !empty_o)
  `NI_ASSERT(NoPushWhenFull, push_i -> !full_o)

`ifndef SYNTHESIS
  // Shadow of which IDs the FIFO holds: an ID is never pushed while it is already inside,
  // so no ID can be handed out twice.
  logic [(1 << Width)-1:0] held_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_q <= '0;
    end else begin
      if (pop_i)  held_q[head_o]    <= 1'b0;
      if (push_i) held_q[push_id_i] <= 1'b1;
    end
  end
  `NI_ASSERT(NoDuplicateId, push_i -> (!held_q[push_id_i] || (pop_i && head_o == push_id_i)))
`endif

endmodule

`default_nettype wire
