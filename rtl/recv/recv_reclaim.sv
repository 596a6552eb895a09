// SPDX-License-Identifier: Apache-2.0
// Idle reclaim of the receive unit (RxIdle, ICD 14; docs/design.md section 15): every
// context taking a packet is stamped with the cycle count (a RAM, u_seen, written by the
// table), and a scanner visits one context per cycle, its stamp read the cycle before: a
// context the table says may go (live, no write pending, not being checked) whose last packet
// is at least RxIdle cycles old is freed (counter 26), unless the decision of this cycle
// writes it (the table keeps it then: recv_ctx_table's rc_eff). A context stamped in
// the cycle its stamp was read is skipped this round (it was just seen). RxIdle 0 = off.
`default_nettype none
`include "ni_assert.svh"

module recv_reclaim #(
  parameter int unsigned RxContexts = 64,
  localparam int unsigned CtxW      = $clog2(RxContexts)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [63:0]     rx_idle_i,    // control word 2 (0 = never reclaim)
  // stamps: a packet of context touch_idx_i is taken this cycle
  input  logic            touch_i,
  input  logic [CtxW-1:0] touch_idx_i,
  // the scan
  output logic [CtxW-1:0] scan_idx_o,   // the context looked at this cycle
  input  logic            scan_ok_i,    // the table lets it go
  output logic            reclaim_o     // it is idle: freed unless the decision writes it now
);

  logic [CtxW-1:0] scan_q, scan_d, scan_rd_q;
  logic            seen_fresh_q, seen_fresh_d;  // scan_rd_q's stamp was not written as read
  logic [31:0]     now_q, now_d;
  logic [31:0]     seen_rd, idle;

  dp_ram #(
    .Depth(RxContexts),
    .Width(32)
  ) u_seen (
    .clk_i  (clk_i),
    .we_i   (touch_i),
    .waddr_i(touch_idx_i),
    .wdata_i(now_q),
    .re_i   (1'b1),
    .raddr_i(scan_q),
    .rdata_o(seen_rd)
  );

  assign idle       = now_q - seen_rd;
  assign reclaim_o  = scan_ok_i && (rx_idle_i != '0) && seen_fresh_q &&
                      ({32'd0, idle} >= rx_idle_i);
  assign scan_idx_o = scan_rd_q;

  always_comb begin
    now_d        = now_q + 32'd1;
    scan_d       = scan_q + 1'b1;
    seen_fresh_d = !(touch_i && touch_idx_i == scan_q);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      now_q        <= '0;
      scan_q       <= '0;
      scan_rd_q    <= '0;
      seen_fresh_q <= 1'b0;
    end else begin
      now_q        <= now_d;
      scan_q       <= scan_d;
      scan_rd_q    <= scan_q;
      seen_fresh_q <= seen_fresh_d;
    end
  end

  // The stamp compared is the scanned context's, read the cycle before and not overwritten
  // since (a context stamped as it was read is not freed this round).
  `NI_ASSERT(ReclaimOnlyAllowed, reclaim_o -> scan_ok_i && seen_fresh_q && rx_idle_i != '0)
  // (A context is never freed in the cycle a packet of it is taken: the table keeps a
  // context written in the cycle it is offered, recv_ctx_table's NotFreedWhenWritten.)

endmodule

`default_nettype wire
