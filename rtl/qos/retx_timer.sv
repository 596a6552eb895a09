// SPDX-License-Identifier: Apache-2.0
// Timeout FSM of the Pending Transactions Table (thesis 2 and 3.5, ICD 14, docs/design.md
// section 8.1).
//
// Each pending entry remembers when it left the engine (the cycle of its blk or pkt
// handshake). The FSM scans the table one entry per cycle, in TID order, without ever
// stopping: in cycle t it reads entry now[9:0] (its flags and a copy of its seq), in t+1
// it decides. The issue cycles are read a cycle ahead of the rest (in t-1), so that the
// entry's age is a register when the decision compares it with the timeout. An entry that is valid, has left the engine, has no re-issue pending and has
// been out for longer than the timeout (`now - issue > timeout`) becomes a timeout event for
// the Message Handler, which takes it in the cycle it is offered unless a re-check takes M0
// then (docs/design.md section 9): the event vanishes and is offered again on the next round.
// The handler re-issues the block or, with its retries used up, ends it ERROR. Timeout 0 is
// off; so is any timeout of 2^31 cycles or more (the issue cycles are 32 bits wide).
`default_nettype none
`include "ni_assert.svh"

module retx_timer
  import ni_pkg::*;
(
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [63:0]        timeout_i,
  // Pending Transactions Table state (the Message Handler's flip-flops)
  // (as stored; the segmenter's set of a valid bit and clear of a pending flag in the
  // previous cycle are not in them yet: `ptt_set_*`, `rp_clr_*`)
  input  logic [NumTids-1:0] ptt_valid_i,
  input  logic               ptt_set_i,
  input  tid_t               ptt_set_tid_i,
  input  logic [NumTids-1:0] retx_pend_i,    // a re-issue is pending for the entry
  input  logic               rp_clr_i,
  input  tid_t               rp_clr_tid_i,
  // the handler's own updates of this cycle (in the bits from the next): an entry resolved
  // (valid and pending cleared), a re-issue request pushed (pending set)
  input  logic               ptt_clr_i,
  input  tid_t               ptt_clr_tid_i,
  input  logic               rp_set_i,
  input  tid_t               rp_set_tid_i,
  // the segmenter writes an entry (fresh issue or re-issue)
  input  logic               ptt_we_i,
  input  tid_t               ptt_waddr_i,
  input  seq_t               ptt_wseq_i,
  input  logic               ptt_we_left_i,  // ... and that block leaves on blk at once
  // handshakes: a block on blk, an inline packet on pkt
  input  logic               blk_hs_i,
  input  tid_t               blk_tid_i,
  input  logic               pkt_hs_i,
  input  tid_t               pkt_tid_i,
  // the timeout event to the Message Handler
  output logic               tmo_valid_o,
  output tid_t               tmo_tid_o,
  output seq_t               tmo_seq_o
);

  localparam int unsigned StampW = 32;
  typedef logic [StampW-1:0] stamp_t;

  // =======================================================================================
  // Cycle counter and scan pointer
  // =======================================================================================
  stamp_t now_q;
  stamp_t now1_q;  // now_q + 1: the next cycle's count, and the next entry of the scan
  tid_t   ptr, ptr_ahead;

  assign ptr       = now_q[TidW-1:0];
  assign ptr_ahead = now1_q[TidW-1:0];

  // Timeout 0 is off, and so is any timeout the 32-bit issue cycles cannot measure.
  logic scan_on;
  assign scan_on = (timeout_i != '0) && (timeout_i[63:StampW-1] == '0);

  // =======================================================================================
  // Per-entry state: left the engine (flip-flops), which port, issue cycles (RAMs)
  // =======================================================================================
  // The flags are updated a cycle after the handshakes and writes that set them, from
  // registers (`up_*`): the handshakes and the segmenter's PTT write end late in the cycle
  // (stage 2's decision, the block leaving at once), and the flags are 2 x 1,024 flops. The
  // decision of a cycle reads an entry whose flags miss only that register's update, and an
  // update of that entry in that cycle (a handshake: `ev_hs_q`; a write: `ev_seqw_q`) rules
  // the entry out of a timeout anyway (`FlagsBehind` checks this against flags written at
  // once).
  logic [NumTids-1:0] sent_q, sent_d;
  logic [NumTids-1:0] via_pkt_q, via_pkt_d;
  logic               up_blk_q, up_pkt_q, up_we_q, up_left_q;
  tid_t               up_blk_tid_q, up_pkt_tid_q, up_waddr_q;

  always_comb begin
    sent_d    = sent_q;
    via_pkt_d = via_pkt_q;
    if (up_blk_q) begin
      sent_d[up_blk_tid_q]    = 1'b1;
      via_pkt_d[up_blk_tid_q] = 1'b0;
    end
    if (up_pkt_q) begin
      sent_d[up_pkt_tid_q]    = 1'b1;
      via_pkt_d[up_pkt_tid_q] = 1'b1;
    end
    // A (re-)issue starts the entry afresh: it has not left unless it leaves now (stage-2
    // bypass). A handshake of the entry's previous block in the same cycle does not count.
    if (up_we_q) sent_d[up_waddr_q] = up_left_q;
  end

  // The issue cycles are read one entry ahead of the scan pointer (`ptr_ahead`): in cycle t-1
  // for the entry read at t, so that its ages are registers (`age_*_q`) by the decision.
  stamp_t stamp_blk, stamp_pkt;
  seq_t   seq_copy;

  dp_ram #(
    .Depth(NumTids),
    .Width(StampW)
  ) u_stamp_blk (
    .clk_i  (clk_i),
    .we_i   (blk_hs_i),
    .waddr_i(blk_tid_i),
    .wdata_i(now_q),
    .re_i   (1'b1),
    .raddr_i(ptr_ahead),
    .rdata_o(stamp_blk)
  );

  dp_ram #(
    .Depth(NumTids),
    .Width(StampW)
  ) u_stamp_pkt (
    .clk_i  (clk_i),
    .we_i   (pkt_hs_i),
    .waddr_i(pkt_tid_i),
    .wdata_i(now_q),
    .re_i   (1'b1),
    .raddr_i(ptr_ahead),
    .rdata_o(stamp_pkt)
  );

  // The FSM's copy of the entries' seq (the Message Handler owns the PTT's read port).
  dp_ram #(
    .Depth(NumTids),
    .Width(SeqW)
  ) u_seq (
    .clk_i  (clk_i),
    .we_i   (ptt_we_i),
    .waddr_i(ptt_waddr_i),
    .wdata_i(ptt_wseq_i),
    .re_i   (1'b1),
    .raddr_i(ptr),
    .rdata_o(seq_copy)
  );

  // =======================================================================================
  // Decide (the entry read in the previous cycle)
  // =======================================================================================
  logic   ev_q;        // an entry was read in the previous cycle
  tid_t   ev_tid_q;
  logic   ev_hs_q;     // it left the engine in that cycle: its issue-cycle read is stale
  logic   ev_seqw_q;   // its seq was written in that cycle
  seq_t   ev_seq_q;
  seq_t   ev_seq;
  // The entry's flags, picked by the scan pointer when it is read (four 1,024-way picks
  // a cycle ahead of the decision), as they are from the next cycle: the valid and pending
  // bits with the handler's updates of the cycle of the read, the sent and port flags with
  // theirs (`sent_d`, `via_pkt_d`), each compared beside the pick.
  logic   ev_valid_q, ev_pend_q, ev_sent_q, ev_via_q;
  logic   late_blk, late_pkt, late;

  assign ev_seq = ev_seqw_q ? ev_seq_q : seq_copy;
  // The entry's ages by both of its stamps, as they are in the decision's cycle, computed in
  // the cycle the entry's flags are read (from the stamps read in the cycle before, the
  // handshake of that cycle forwarded: the RAMs read first) and registered: the decision
  // compares a register with the timeout, one carry chain where it was two in a row. A
  // stamp written in the cycle before the read is two cycles old at the decision.
  stamp_t age_blk_q, age_pkt_q;
  logic   fwd_blk_q, fwd_pkt_q;  // the entry read ahead was stamped in the cycle of its read
  stamp_t age_blk_d, age_pkt_d;
  assign age_blk_d = fwd_blk_q ? stamp_t'(2) : now1_q - stamp_blk;
  assign age_pkt_d = fwd_pkt_q ? stamp_t'(2) : now1_q - stamp_pkt;

  // The one of the way it left is picked by the port flag picked a cycle ahead (`ev_via_q`,
  // not a 1,024-way pick).
  assign late_blk = age_blk_q > timeout_i[StampW-1:0];
  assign late_pkt = age_pkt_q > timeout_i[StampW-1:0];
  assign late     = ev_via_q ? late_pkt : late_blk;

  // The entry's valid and pending bits with the Message Handler's registered writes in
  // (compared beside the picks), the bits picked in the cycle before (`PickedAhead`).
  logic ev_valid, ev_pend;
  assign ev_valid = ev_valid_q || (ptt_set_i && ptt_set_tid_i == ev_tid_q);
  assign ev_pend  = ev_pend_q && !(rp_clr_i && rp_clr_tid_i == ev_tid_q);

  assign tmo_valid_o = ev_q && scan_on && ev_valid &&
                       ev_sent_q && !ev_pend && !ev_hs_q && !ev_seqw_q &&
                       late;
  assign tmo_tid_o   = ev_tid_q;
  assign tmo_seq_o   = ev_seq;

  // =======================================================================================
  // Registers
  // =======================================================================================
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      now_q        <= '0;
      now1_q       <= stamp_t'(1);
      sent_q       <= '0;
      via_pkt_q    <= '0;
      up_blk_q     <= 1'b0;
      up_pkt_q     <= 1'b0;
      up_we_q      <= 1'b0;
      up_left_q    <= 1'b0;
      up_blk_tid_q <= '0;
      up_pkt_tid_q <= '0;
      up_waddr_q   <= '0;
      ev_q      <= 1'b0;
      ev_tid_q  <= '0;
      ev_hs_q   <= 1'b0;
      ev_seqw_q <= 1'b0;
      ev_seq_q  <= '0;
      ev_valid_q <= 1'b0;
      ev_pend_q  <= 1'b0;
      ev_sent_q  <= 1'b0;
      ev_via_q   <= 1'b0;
      age_blk_q  <= '0;
      age_pkt_q  <= '0;
      fwd_blk_q  <= 1'b0;
      fwd_pkt_q  <= 1'b0;
    end else begin
      now_q        <= now1_q;
      now1_q       <= now1_q + stamp_t'(1);
      sent_q       <= sent_d;
      via_pkt_q    <= via_pkt_d;
      up_blk_q     <= blk_hs_i;
      up_pkt_q     <= pkt_hs_i;
      up_we_q      <= ptt_we_i;
      up_left_q    <= ptt_we_left_i;
      up_blk_tid_q <= blk_tid_i;
      up_pkt_tid_q <= pkt_tid_i;
      up_waddr_q   <= ptt_waddr_i;
      ev_q      <= 1'b1;
      ev_tid_q  <= ptr;
      ev_hs_q   <= (blk_hs_i && blk_tid_i == ptr) || (pkt_hs_i && pkt_tid_i == ptr);
      ev_seqw_q <= ptt_we_i && ptt_waddr_i == ptr;
      ev_seq_q  <= ptt_wseq_i;
      ev_valid_q <= (ptt_valid_i[ptr] || (ptt_set_i && ptt_set_tid_i == ptr)) &&
                    !(ptt_clr_i && ptt_clr_tid_i == ptr);
      ev_pend_q  <= pend_next(retx_pend_i[ptr], ptr, rp_clr_i, rp_clr_tid_i, ptt_clr_i,
                              ptt_clr_tid_i, rp_set_i, rp_set_tid_i);
      ev_sent_q  <= (up_we_q && up_waddr_q == ptr) ? up_left_q :
                    (sent_q[ptr] || (up_blk_q && up_blk_tid_q == ptr) ||
                     (up_pkt_q && up_pkt_tid_q == ptr));
      ev_via_q   <= (up_pkt_q && up_pkt_tid_q == ptr) ||
                    (via_pkt_q[ptr] && !(up_blk_q && up_blk_tid_q == ptr));
      age_blk_q  <= age_blk_d;
      age_pkt_q  <= age_pkt_d;
      fwd_blk_q  <= blk_hs_i && blk_tid_i == ptr_ahead;
      fwd_pkt_q  <= pkt_hs_i && pkt_tid_i == ptr_ahead;
    end
  end

  // =======================================================================================
  // Assertions
  // =======================================================================================
  `NI_ASSERT(EventIsPending, tmo_valid_o -> ev_valid)
  `NI_ASSERT(PickedAhead, ev_q -> ev_valid_q == ptt_valid_i[ev_tid_q] &&
                                  ev_pend_q == retx_pend_i[ev_tid_q] &&
                                  ev_sent_q == sent_q[ev_tid_q] && ev_via_q == via_pkt_q[ev_tid_q])
  `NI_ASSERT(NowAhead, now1_q == now_q + stamp_t'(1))
  `NI_ASSERT(BypassLeaves, ptt_we_left_i -> ptt_we_i && blk_hs_i && blk_tid_i == ptt_waddr_i)

`ifndef SYNTHESIS
  // The flags as they were written at once (in the cycle of the handshake or write): the
  // decision's timeout is the one they give.
  logic [NumTids-1:0] now_sent_q, now_via_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      now_sent_q <= '0;
      now_via_q  <= '0;
    end else begin
      if (blk_hs_i) begin
        now_sent_q[blk_tid_i] <= 1'b1;
        now_via_q[blk_tid_i]  <= 1'b0;
      end
      if (pkt_hs_i) begin
        now_sent_q[pkt_tid_i] <= 1'b1;
        now_via_q[pkt_tid_i]  <= 1'b1;
      end
      if (ptt_we_i) now_sent_q[ptt_waddr_i] <= ptt_we_left_i;
    end
  end
  // The issue cycles as they were written, read with the entry's flags: the age the decision
  // compares is the entry's age by them in the decision's cycle.
  stamp_t ref_blk_q [NumTids];
  stamp_t ref_pkt_q [NumTids];
  stamp_t ref_sblk_q, ref_spkt_q;
  always_ff @(posedge clk_i) begin
    if (blk_hs_i) ref_blk_q[blk_tid_i] <= now_q;
    if (pkt_hs_i) ref_pkt_q[pkt_tid_i] <= now_q;
    ref_sblk_q <= ref_blk_q[ptr];
    ref_spkt_q <= ref_pkt_q[ptr];
  end
  // (an entry that has left by a port has that port's stamp written since the reset)
  `NI_ASSERT(LateIsAge, ev_q && ev_sent_q ->
      late == ((now_q - (via_pkt_q[ev_tid_q] ? ref_spkt_q : ref_sblk_q)) > timeout_i[StampW-1:0]))

  logic now_tmo, now_late;
  assign now_late = now_via_q[ev_tid_q] ? late_pkt : late_blk;
  assign now_tmo  = ev_q && scan_on && ev_valid && now_sent_q[ev_tid_q] &&
                    !ev_pend && !ev_hs_q && now_late;
  `NI_ASSERT(FlagsBehind, tmo_valid_o == now_tmo)
`endif

endmodule

`default_nettype wire
