// SPDX-License-Identifier: Apache-2.0
// Packet queue (ICD section 7): the segmenter writes whole packets (header + payload); the
// send unit reads one packet per beat from `pkt_*`, with its CRC-32 footer. The CRC is split
// (ni_pkg): the XOR trees over the packet's bytes (zeroed past the packet's length by the
// segmenter: no mask) and the take-back's first product, then the take-back's second
// product and the final XOR at the output. A written packet first enters a stage register;
// the trees and the first product are computed from there in the next cycle, as it enters
// the FIFO with them (docs/design.md section 10): the segmenter's body and the trees are in
// different cycles, and the FIFO's head reaches `pkt_data_o` through one product. The stage
// counts as one of the queue's `Depth` entries.
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
    logic [31:0] crc_low;  // the trees and the take-back's first product
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

  // The XOR trees and the first product of the staged packet (evaluated in simulation only
  // when the stage changes).
  always_comb begin
    stg_entry = '{crc_low: '0, body: stg_body_q};
    if (stg_q) stg_entry.crc_low = crc32_back_low(crc32_trees(stg_body_q), stg_body_q.hdr.len);
  end
  assign pkt_valid_o = !empty;
  assign pkt_data_o  = {96'd0, crc32_back_high(head.crc_low, head.body.hdr.len), head.body};

  `NI_ASSERT(NoWriteWhenFull, wr_i -> !full_o)
  // The segmenter zeroes an inline packet's payload past its length (the other packets carry
  // 32 bytes), so the trees need no mask: crc32_trees is crc32_partial here.
  `NI_ASSERT(PayloadPastLenZero, wr_i -> crc32_covered(wr_body_i) == wr_body_i)
  `NI_ASSERT(StageHasRoom, stg_q -> !unused_fifo_full)
  `NI_ASSERT_VALID_HELD(PktHeld, pkt_valid_o, pkt_ready_i, pkt_data_o)

endmodule

`default_nettype wire
