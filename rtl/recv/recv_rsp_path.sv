// SPDX-License-Identifier: Apache-2.0
// Response path of the receive unit (ICD 13): ACK/NACK packets from the response network to
// the QoS engine. A head beat is taken into an input register whenever that register is
// empty or its beat leaves (`rsp_rx_ready_o` is made of registers only: the network's
// response stream and the engine's acceptance, decided in the Message Handler, are on two
// sides of a register, docs/design.md section 20). A head beat with a good hcrc, addressed
// to this node and of kind ACK or NACK is decoded into the FIFO, whose head is the engine's
// rsp port; anything else is dropped (counter 18 for a bad hcrc, 22 otherwise: misrouted or
// not a response). It never depends on req_rx or req_tx.
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

  // Every beat is taken into a one-beat input register together with its verdict, computed
  // on the way in (node, kind, and the hcrc syndrome: the received hcrc XOR the computed one,
  // zero when it holds): the hcrc's XOR trees end at a register and the FIFO's push starts
  // at one (docs/design.md section 20: one cycle of latency). The hcrc is
  // computed at the clock edge that takes the beat (in simulation, once per response).
  wire_head_t rh;
  logic       rsp_rx_hs;
  assign rh = wire_head_t'(rsp_rx_data_i);
  logic unused_rh;  // a response is its header; the rest only feeds hcrc
  assign unused_rh = ^{rh.payload, rh.src_node, rh.xfer_id, rh.rsvd};

  logic        s_v_q, s_ok, s_mine_q, s_resp_q;
  logic [31:0] s_syn_q;  // the received hcrc XOR the computed one: zero when it holds
  rsp_t s_rsp_q;
  logic s_fwd, s_go;  // the registered beat is for the engine / leaves the register now

  // The decoded response waits in a two-entry FIFO: one response a cycle while the engine
  // takes one a cycle, and the network sees a ready made of registers only.
  logic       fifo_full, fifo_empty, push, pop;
  logic [1:0] unused_count;

  assign s_ok           = s_syn_q == '0;
  assign s_fwd          = s_ok && s_mine_q && s_resp_q;
  assign s_go           = s_v_q && (!s_fwd || !fifo_full);
  assign rsp_rx_ready_o = !s_v_q || !s_fwd || !fifo_full;
  assign rsp_rx_hs      = rsp_rx_valid_i && rsp_rx_ready_o;
  assign push           = s_v_q && s_fwd && !fifo_full;
  assign rsp_valid_o    = !fifo_empty;
  assign pop            = rsp_valid_o && rsp_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_v_q    <= 1'b0;
      s_syn_q  <= '0;
      s_mine_q <= 1'b0;
      s_resp_q <= 1'b0;
      s_rsp_q  <= '0;
    end else begin
      s_v_q <= rsp_rx_hs || (s_v_q && !s_go);
      if (rsp_rx_hs) begin
        s_syn_q      <= rh.hcrc ^ wire_hcrc(rsp_rx_data_i[383:0], rsp_rx_data_i[511:416]);
        s_mine_q     <= rh.hdr.dst_addr[63:48] == node_id_i;
        s_resp_q     <= (rh.hdr.kind == WkAck) || (rh.hdr.kind == WkNack);
        s_rsp_q.seq  <= rh.hdr.seq;
        s_rsp_q.tid  <= rh.hdr.tid;
        s_rsp_q.nack <= rh.hdr.kind == WkNack;
      end
    end
  end

  sync_fifo #(
    .Depth(2),
    .Width($bits(rsp_t))
  ) u_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (push),
    .push_data_i(s_rsp_q),
    .pop_i      (pop),
    .head_o     (rsp_o),
    .empty_o    (fifo_empty),
    .full_o     (fifo_full),
    .count_o    (unused_count)
  );

  assign stat_rx_o       = s_go;
  assign stat_hcrc_o     = s_go && !s_ok;
  assign stat_misroute_o = s_go && s_ok && !(s_mine_q && s_resp_q);

  // Every packet taken has one outcome: queued for the engine, dropped for its hcrc, or
  // dropped as misrouted.
  `NI_ASSERT_ONEHOT0(OneOutcome, {push, stat_hcrc_o, stat_misroute_o})
  `NI_ASSERT(OutcomeWhenTaken, s_go -> push || stat_hcrc_o || stat_misroute_o)
  // The input register never drops a beat: it is refilled only as it empties.
  `NI_ASSERT(NoStageOverwrite, rsp_rx_hs -> !s_v_q || s_go)

endmodule

`default_nettype wire
