// SPDX-License-Identifier: Apache-2.0
// Packet queue (ICD section 7): the segmenter writes whole packets (header + payload); the
// send unit reads one packet per beat from `pkt_*`, with its CRC-32 footer. The CRC is split
// in two (ni_pkg): the XOR trees over the packet's bytes when it is written (stored with the
// packet), the take-back over the bytes past the packet and the final XOR at the output. Each
// side gets about half of the CRC's logic depth.
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
  input  logic         wr_offer_i,  // wr_i may come this cycle (decided earlier than wr_i)
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

  entry_t                 wr_entry;
  entry_t                 head;
  logic                   empty;
  logic [$clog2(Depth+1)-1:0] unused_count;
  logic      pop;

  assign pop = pkt_valid_o && pkt_ready_i;

  sync_fifo #(
    .Depth(Depth),
    .Width($bits(entry_t))
  ) u_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (wr_i),
    .push_data_i(wr_entry),
    .pop_i      (pop),
    .head_o     (head),
    .empty_o    (empty),
    .full_o     (full_o),
    .count_o    (unused_count)
  );

  // The XOR trees of a packet that may be written: what is offered without wr_i is not
  // stored. In simulation the trees are evaluated only then; in the netlist the gate is
  // `wr_offer_i`, decided from stage 2's registers, not `wr_i`, the end of stage 2's decision
  // (the trees and the queue's RAM inputs do not wait for it).
  always_comb begin
    wr_entry = '{crc_partial: '0, body: wr_body_i};
    if (wr_offer_i) wr_entry.crc_partial = crc32_partial(wr_body_i);
  end
  assign pkt_valid_o = !empty;
  assign pkt_data_o  = {96'd0, crc32_finish(head.crc_partial, head.body.hdr.len), head.body};

  `NI_ASSERT(NoWriteWhenFull, wr_i -> !full_o)
  `NI_ASSERT(WriteOffered, wr_i -> wr_offer_i)
  `NI_ASSERT_VALID_HELD(PktHeld, pkt_valid_o, pkt_ready_i, pkt_data_o)

endmodule

`default_nettype wire
