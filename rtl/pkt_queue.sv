// Packet queue (ICD section 7): the segmenter writes whole packets (header + payload); the
// send unit reads one packet per beat from `pkt_*`. The CRC-32 footer is computed from the
// queue's output word, so the CRC logic is off the segmenter's path.
`include "ni_assert.svh"
`default_nettype none

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

  pkt_body_t              head;
  logic                   empty;
  logic [$clog2(Depth+1)-1:0] unused_count;
  logic      pop;

  assign pop = pkt_valid_o && pkt_ready_i;

  sync_fifo #(
    .Depth(Depth),
    .Width($bits(pkt_body_t))
  ) u_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (wr_i),
    .push_data_i(wr_body_i),
    .pop_i      (pop),
    .head_o     (head),
    .empty_o    (empty),
    .full_o     (full_o),
    .count_o    (unused_count)
  );

  assign pkt_valid_o = !empty;
  assign pkt_data_o  = {96'd0, crc32_packet(head), head};

  `ASSERT(NoWriteWhenFull, wr_i |-> !full_o)
  `ASSERT_VALID_HELD(PktHeld, pkt_valid_o, pkt_ready_i, pkt_data_o)

endmodule

`default_nettype wire
