// SPDX-License-Identifier: Apache-2.0
// Adaptive two-way arbiter between the Transfer Segmenter and the Message Handler
// (thesis 3.12, "last served").
//
// When both request in the same cycle the one that was not served last wins; a lone request
// is always granted. The FSM remembers who was served last. The grant is combinational.
//
// In this engine the thesis's metadata table is split by writer (docs/design.md section 7),
// so its reads need no arbitration; the resource the two blocks do share is the Message
// Handler's update pipeline (status completion, ID return), which takes the network's
// responses and the segmenter's finish events one per cycle. This arbiter decides between
// them.
`default_nettype none
`include "ni_assert.svh"

module md_arbiter (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic seg_req_i,
  input  logic mh_req_i,
  output logic seg_gnt_o,
  output logic mh_gnt_o
);

  typedef enum logic {
    LastSeg = 1'b0,  // the segmenter was served last: the handler wins a tie
    LastMh  = 1'b1   // the handler was served last: the segmenter wins a tie
  } last_e;

  last_e last_q, last_d;

  always_comb begin
    seg_gnt_o = 1'b0;
    mh_gnt_o  = 1'b0;
    last_d    = last_q;
    unique case ({seg_req_i, mh_req_i})
      2'b10: seg_gnt_o = 1'b1;
      2'b01: mh_gnt_o  = 1'b1;
      2'b11: begin
        if (last_q == LastMh) seg_gnt_o = 1'b1;
        else                  mh_gnt_o  = 1'b1;
      end
      default: ;
    endcase
    if (seg_gnt_o) last_d = LastSeg;
    if (mh_gnt_o)  last_d = LastMh;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) last_q <= LastSeg;
    else         last_q <= last_d;
  end

  `NI_ASSERT(OneGrant, !(seg_gnt_o && mh_gnt_o))
  `NI_ASSERT(SegGrantOnRequest, seg_gnt_o -> seg_req_i)
  `NI_ASSERT(MhGrantOnRequest, mh_gnt_o -> mh_req_i)
  `NI_ASSERT(WorkConserving, (seg_req_i || mh_req_i) -> (seg_gnt_o || mh_gnt_o))

endmodule

`default_nettype wire
