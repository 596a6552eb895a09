// SPDX-License-Identifier: Apache-2.0
// The response network's output of one node (ICD 10, 16): the receive unit's ACK/NACK beats
// and the QoS engine's deferred responses to read requests share rsp_tx. Round robin when
// both wait; a beat offered and not taken keeps its grant (AXI-Stream: data holds while
// valid && !ready). The engine's response {tid, seq, nack} to `node` is sealed here into an
// ACK/NACK head beat (ICD 11) from this node.
`default_nettype none
`include "ni_assert.svh"

module rsp_tx_arb
  import ni_pkg::*;
(
  input  logic         clk_i,
  input  logic         rst_ni,
  input  node_t        node_id_i,
  // the receive unit's responses (head beats)
  input  logic         rx_valid_i,
  output logic         rx_ready_o,
  input  logic [511:0] rx_data_i,
  // the engine's deferred responses
  input  logic         eng_valid_i,
  output logic         eng_ready_o,
  input  rsp_t         eng_i,
  input  node_t        eng_node_i,
  // response network out
  output logic         tx_valid_o,
  input  logic         tx_ready_i,
  output logic [511:0] tx_data_o,
  output logic         eng_sel_o  // the beat offered on tx is the engine's (trace)
);

  logic lock_q, sel_q, pref_q;  // grant held; its choice; engine preferred next
  logic sel;                    // 1: the engine's response

  always_comb begin
    if (lock_q) sel = sel_q;
    else        sel = eng_valid_i && (!rx_valid_i || pref_q);
  end

  assign tx_valid_o  = sel ? eng_valid_i : rx_valid_i;
  assign tx_data_o   = sel ? wire_response(eng_i.nack, eng_i.tid, eng_i.seq, eng_node_i, node_id_i)
                         : rx_data_i;
  assign rx_ready_o  = !sel && tx_ready_i;
  assign eng_ready_o = sel && tx_ready_i;
  assign eng_sel_o   = sel;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lock_q <= 1'b0;
      sel_q  <= 1'b0;
      pref_q <= 1'b0;
    end else begin
      lock_q <= tx_valid_o && !tx_ready_i;
      sel_q  <= sel;
      if (tx_valid_o && tx_ready_i) pref_q <= !sel;
    end
  end

  `NI_ASSERT_VALID_HELD(TxHeld, tx_valid_o, tx_ready_i, tx_data_o)

endmodule

`default_nettype wire
