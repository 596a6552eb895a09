// SPDX-License-Identifier: Apache-2.0
// Transaction/Flow ID FIFO initialiser (thesis 3.14).
//
// After reset it pushes every ID into its FIFO in ascending order, the three FIFOs side by
// side (one push per FIFO per cycle): TIDs 0..TidCount-1, 1xFIDs Fid1Base.., 4xFID bases
// Fid4Base, Fid4Base+Fid4Step, ... `done_o` rises in the cycle after the last push and stays
// high until the next reset.
`default_nettype none
`include "ni_assert.svh"

module id_init #(
  parameter int unsigned TidCount  = 512,
  parameter int unsigned TidW      = 10,
  parameter int unsigned Fid1Base  = 128,
  parameter int unsigned Fid1Count = 64,
  parameter int unsigned Fid4Base  = 192,
  parameter int unsigned Fid4Count = 16,
  parameter int unsigned Fid4Step  = 4,
  parameter int unsigned FidW      = 8
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  output logic            tid_push_o,
  output logic [TidW-1:0] tid_o,
  output logic            fid1_push_o,
  output logic [FidW-1:0] fid1_o,
  output logic            fid4_push_o,
  output logic [FidW-1:0] fid4_o,
  output logic            done_o
);

  localparam int unsigned MaxCount = (TidCount > Fid1Count) ?
                                     ((TidCount > Fid4Count) ? TidCount : Fid4Count) :
                                     ((Fid1Count > Fid4Count) ? Fid1Count : Fid4Count);
  localparam int unsigned CntW = $clog2(MaxCount + 1);

  logic [CntW-1:0] cnt_q, cnt_d;
  logic            done_q, done_d;

  always_comb begin
    cnt_d  = cnt_q;
    done_d = done_q;
    if (!done_q) begin
      if (32'(cnt_q) == MaxCount - 1) done_d = 1'b1;
      else                            cnt_d  = cnt_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q  <= '0;
      done_q <= 1'b0;
    end else begin
      cnt_q  <= cnt_d;
      done_q <= done_d;
    end
  end

  assign tid_push_o  = !done_q && (32'(cnt_q) < TidCount);
  assign fid1_push_o = !done_q && (32'(cnt_q) < Fid1Count);
  assign fid4_push_o = !done_q && (32'(cnt_q) < Fid4Count);
  assign tid_o       = TidW'(cnt_q);
  assign fid1_o      = FidW'(Fid1Base + 32'(cnt_q));
  assign fid4_o      = FidW'(Fid4Base + Fid4Step * 32'(cnt_q));
  assign done_o      = done_q;

  `NI_ASSERT_NEXT(DoneStays, done_o, done_o)

endmodule

`default_nettype wire
