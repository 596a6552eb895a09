// SPDX-License-Identifier: Apache-2.0
// Response path of the receive unit (ICD 13): ACK/NACK packets from the response network to
// the QoS engine. A head beat is taken whenever the two-entry response FIFO has room
// (`rsp_rx_ready_o` is a register: the network's response stream and the engine's
// acceptance, decided in the Message Handler, are on two sides of a register,
// docs/design.md section 20). A head beat with a good hcrc, addressed to this node and of kind
// ACK or NACK is decoded into the FIFO, whose head is the engine's rsp port; anything else
// is dropped (counter 18 for a bad hcrc, 22 otherwise: misrouted or not a response). It
// never depends on req_rx or req_tx.
`default_nettype none
`include "ni_assert.svh"

module recv_rsp_path
  import ni_pkg::*;
(
  input  logic         clk_i,
  input  logic         rst_ni,
  input  node_t        node_id_i,
  // response network in
  input  logic         rsp_rx_valid_i,
  output logic         rsp_rx_ready_o,
  input  logic [511:0] rsp_rx_data_i,
  // responses to the QoS engine
  output logic         rsp_valid_o,
  input  logic         rsp_ready_i,
  output rsp_t         rsp_o,
  // statistics events (ICD 8)
  output logic         stat_rx_o,        // 17: a packet arrived
  output logic         stat_hcrc_o,      // 18: dropped, bad hcrc
  output logic         stat_misroute_o   // 22: dropped, not for this node or not a response
);

  wire_head_t rh;
  logic       rh_ok, rh_mine, rh_resp, rh_fwd, rsp_rx_hs;
  assign rh = wire_head_t'(rsp_rx_data_i);
  // The hcrc check only while a beat is offered (what an idle port holds is not checked; in
  // simulation the XOR trees are then not evaluated at all).
  always_comb begin
    rh_ok = 1'b0;
    if (rsp_rx_valid_i) rh_ok = rh.hcrc == wire_hcrc(rsp_rx_data_i[383:0], rsp_rx_data_i[511:416]);
  end
  assign rh_mine = rh.hdr.dst_addr[63:48] == node_id_i;
  assign rh_resp = (rh.hdr.kind == WkAck) || (rh.hdr.kind == WkNack);
  assign rh_fwd  = rh_ok && rh_mine && rh_resp;
  logic unused_rh;  // a response is its header; the rest only feeds hcrc
  assign unused_rh = ^{rh.payload, rh.src_node, rh.xfer_id, rh.rsvd};

  // The decoded response waits in a two-entry FIFO: one response a cycle while the engine
  // takes one a cycle, and the network sees a registered ready.
  rsp_t       rx_rsp;
  logic       fifo_full, fifo_empty, push, pop;
  logic [1:0] unused_count;

  assign rx_rsp.seq     = rh.hdr.seq;
  assign rx_rsp.tid     = rh.hdr.tid;
  assign rx_rsp.nack    = rh.hdr.kind == WkNack;
  assign rsp_rx_ready_o = !fifo_full;
  assign rsp_rx_hs      = rsp_rx_valid_i && rsp_rx_ready_o;
  assign push           = rsp_rx_hs && rh_fwd;
  assign rsp_valid_o    = !fifo_empty;
  assign pop            = rsp_valid_o && rsp_ready_i;

  sync_fifo #(
    .Depth(2),
    .Width($bits(rsp_t))
  ) u_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (push),
    .push_data_i(rx_rsp),
    .pop_i      (pop),
    .head_o     (rsp_o),
    .empty_o    (fifo_empty),
    .full_o     (fifo_full),
    .count_o    (unused_count)
  );

  assign stat_rx_o       = rsp_rx_hs;
  assign stat_hcrc_o     = rsp_rx_hs && !rh_ok;
  assign stat_misroute_o = rsp_rx_hs && rh_ok && !(rh_mine && rh_resp);

  // Every packet taken has one outcome: queued for the engine, dropped for its hcrc, or
  // dropped as misrouted.
  `NI_ASSERT_ONEHOT0(OneOutcome, {push, stat_hcrc_o, stat_misroute_o})
  `NI_ASSERT(OutcomeWhenTaken, rsp_rx_hs -> push || stat_hcrc_o || stat_misroute_o)

endmodule

`default_nettype wire
