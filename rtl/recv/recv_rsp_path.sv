// SPDX-License-Identifier: Apache-2.0
// Response path of the receive unit (ICD 13): ACK/NACK packets from the response network to
// the QoS engine, decoded combinationally. A head beat with a good hcrc, addressed to this
// node and of kind ACK or NACK goes to the engine's rsp port (rsp_rx_ready = rsp_ready);
// anything else is taken and dropped at once (counter 18 for a bad hcrc, 22 otherwise:
// misrouted or not a response). It never depends on req_rx or req_tx.
`default_nettype none
`include "ni_assert.svh"

module recv_rsp_path
  import ni_pkg::*;
(
  input  logic         clk_i,   // assertions only
  input  logic         rst_ni,  // assertions only
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

  assign rsp_valid_o    = rsp_rx_valid_i && rh_fwd;
  assign rsp_o.seq      = rh.hdr.seq;
  assign rsp_o.tid      = rh.hdr.tid;
  assign rsp_o.nack     = rh.hdr.kind == WkNack;
  assign rsp_rx_ready_o = rh_fwd ? rsp_ready_i : 1'b1;  // anything else is dropped at once
  assign rsp_rx_hs      = rsp_rx_valid_i && rsp_rx_ready_o;

  assign stat_rx_o       = rsp_rx_hs;
  assign stat_hcrc_o     = rsp_rx_hs && !rh_ok;
  assign stat_misroute_o = rsp_rx_hs && rh_ok && !(rh_mine && rh_resp);

  // Only a packet the engine can take waits for it; every packet taken has one outcome:
  // forwarded, dropped for its hcrc, or dropped as misrouted.
  `NI_ASSERT(OnlyResponsesWait, rsp_rx_valid_i && !rsp_rx_ready_o -> rsp_valid_o)
  `NI_ASSERT_ONEHOT0(OneOutcome, {rsp_valid_o && rsp_ready_i, stat_hcrc_o, stat_misroute_o})
  `NI_ASSERT(OutcomeWhenTaken, rsp_rx_hs -> (rsp_valid_o && rsp_ready_i) || stat_hcrc_o ||
                                             stat_misroute_o)

endmodule

`default_nettype wire
