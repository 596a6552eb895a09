// SPDX-License-Identifier: Apache-2.0
// Packet queue (ICD section 7): the segmenter writes whole packets (header + payload); the
// send unit reads one packet per beat from `pkt_*`, with its CRC-32 footer. The CRC is split
// in two (ni_pkg): the XOR trees over the packet's bytes, and the take-back over the bytes
// past the packet and the final XOR at the output. A written packet first enters a stage
// register and its XOR trees are computed from there in the next cycle, as it enters the
// FIFO with them (docs/design.md section 10): the segmenter's body and the trees are in
// different cycles. The stage counts as one of the queue's `Depth` entries.
`default_nettype none
`include "ni_assert.svh"

module pkt_queue
  import ni_pkg::*;
#(
  parameter int unsigned Depth = 16
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         wr_i,
  input  pkt_body_t    wr_body_i,
  output logic         full_o,
  output logic         pkt_valid_o,
  input  logic         pkt_ready_i,
  output logic [511:0] pkt_data_o
);

  typedef struct packed {
    logic [31:0] crc_partial;
    pkt_body_t   body;
  } entry_t;

  logic                       stg_q;       // the stage holds a packet written last cycle
  pkt_body_t                  stg_body_q;
  entry_t                     stg_entry;
  entry_t                     head;
  logic                       empty;
  logic                       unused_fifo_full;
  logic [$clog2(Depth+1)-1:0] count;
  logic                       pop;

  assign pop = pkt_valid_o && pkt_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stg_q      <= 1'b0;
      stg_body_q <= '0;
    end else begin
      stg_q <= wr_i;
      if (wr_i) stg_body_q <= wr_body_i;
    end
  end

  // The stage enters the FIFO in the cycle after its write, always: the stage and the FIFO
  // together hold at most `Depth` packets (`full_o`), so the FIFO has room for it.
  sync_fifo #(
    .Depth(Depth),
    .Width($bits(entry_t))
  ) u_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (stg_q),
    .push_data_i(stg_entry),
    .pop_i      (pop),
    .head_o     (head),
    .empty_o    (empty),
    .full_o     (unused_fifo_full),
    .count_o    (count)
  );

  assign full_o = (32'(count) + 32'(stg_q)) >= Depth;

  // The XOR trees of the staged packet (evaluated in simulation only when the stage changes).
  always_comb begin
    stg_entry = '{crc_partial: '0, body: stg_body_q};
    if (stg_q) stg_entry.crc_partial = crc32_partial(stg_body_q);
  end
  assign pkt_valid_o = !empty;
  assign pkt_data_o  = {96'd0, crc32_finish(head.crc_partial, head.body.hdr.len), head.body};

  `NI_ASSERT(NoWriteWhenFull, wr_i -> !full_o)
  `NI_ASSERT(StageHasRoom, stg_q -> !unused_fifo_full)
  `NI_ASSERT_VALID_HELD(PktHeld, pkt_valid_o, pkt_ready_i, pkt_data_o)

endmodule

`default_nettype wire
