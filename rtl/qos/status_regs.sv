// SPDX-License-Identifier: Apache-2.0
// Status registers of the 1024 write channels (thesis 3.4, ICD section 3) and the long flags
// of the even channels.
//
// Writers: the AXI slave marks a channel BUSY when a descriptor goes live (IDLE -> BUSY) and
// clears DONE/ERROR to IDLE on status reads (single or 32-channel); the Message Handler
// finishes a channel (BUSY -> DONE or ERROR). The transitions need different current codes,
// so the writers never collide on one channel. Reads are combinational.
//
// A BUSY mark is written one cycle late (write-behind, docs/design.md section 20): the AXI
// slave decides it late in its cycle (its W handshake waits for the scheduling queues'
// enqueue grant), so it is registered as it is and written in the next cycle, and every read
// in that cycle sees it (`PendingBusySeen`): the codes read are those of an immediate
// write, cycle for cycle. A finish is written one cycle late in the same way (the Message
// Handler decides it late in its M2 stage, on the metadata it read): it is registered as it
// is, every read in the next cycle sees it, and it is written first in that cycle's update, so
// that a read in that cycle clears it as it would clear a code already stored.
`default_nettype none
`include "ni_assert.svh"

module status_regs
  import ni_pkg::*;
(
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // descriptor goes live
  input  logic                 set_busy_i,
  input  wch_t                 set_busy_wch_i,
  input  logic                 set_busy_long_i,
  // AXI slave lookups while validating a line (channel c; pair = channel c-1 when c is odd):
  // whether c is not IDLE (rule R2), whether c-1 holds a live long descriptor (R3)
  input  wch_t                 lk_wch_i,
  output logic                 lk_busy_o,
  output logic                 lk_pair_long_live_o,
  // status reads of channel `rd_wch_i` (single: its code) or of its group of 32 channels, a
  // page half (multi: the group's codes, channel {rd_wch_i[9:5], i} in bits 2i+1:2i); the
  // read clears DONE/ERROR to IDLE when `rd_single_i` / `rd_multi_i` (never both)
  input  logic                 rd_single_i,
  input  logic                 rd_multi_i,
  input  wch_t                 rd_wch_i,
  output status_e              rd_single_o,
  output logic [63:0]          rd_multi_o,
  // Message Handler finishes a transfer
  input  logic                 finish_i,
  input  wch_t                 finish_wch_i,
  input  logic                 finish_err_i,
  // for monitors: every stored code, and the BUSY mark and the finish not yet stored (see
  // below; never of one channel)
  output status_e [NumWch-1:0]   status_o,
  output logic                 pend_busy_o,
  output wch_t                 pend_busy_wch_o,
  output logic                 pend_fin_o,
  output wch_t                 pend_fin_wch_o,
  output status_e              pend_fin_code_o
);

  status_e [NumWch-1:0]   status_q, status_d;
  logic    [NumWch/2-1:0] long_q;

  // The BUSY mark of the previous cycle, not yet in status_q/long_q, and the codes and flags
  // with it (what an immediate write would have stored).
  logic                   pb_q;
  wch_t                   pb_wch_q;
  logic                   pb_long_q;
  logic    [NumWch/2-1:0] long_cur;
  // The finish of the previous cycle, not yet in status_q (of a channel BUSY until then).
  logic                   pf_q;
  wch_t                   pf_wch_q;
  logic                   pf_err_q;

  // The updates are written group by group: 32 groups of 32 channels, each group one 64-bit
  // word of two bits per channel. A write selects its channel with two one-hot decodes (its
  // group and its place in the group), and a clear tests each channel's own code, so no
  // update reads a code through a 1,024-way multiplexer first (that read and write made the
  // module's longest paths, 12 levels, and most of its LUTs).
  localparam int unsigned Groups = NumWch / 32;
  localparam logic [63:0] HiBits = {32{2'b10}};  // the high bit of each channel's code
  localparam logic [Groups-1:0] OneGrp = {{(Groups-1){1'b0}}, 1'b1};

  // The two bits of each of a group's 32 channels, selected by a 5-bit place.
  function automatic logic [63:0] place2(logic [4:0] place);
    return 64'(2'b11) << {place, 1'b0};
  endfunction

  logic [Groups-1:0] pb_grp;
  logic [63:0]       pb_place;
  assign pb_grp   = pb_q ? OneGrp << pb_wch_q[WchW-1:5] : '0;
  assign pb_place = place2(pb_wch_q[4:0]);

  logic [Groups-1:0] pf_grp;
  logic [63:0]       pf_place, pf_code;
  status_e           pf_status;
  assign pf_grp    = pf_q ? OneGrp << pf_wch_q[WchW-1:5] : '0;
  assign pf_place  = place2(pf_wch_q[4:0]);
  assign pf_code   = pf_err_q ? {32{StError}} : {32{StDone}};
  assign pf_status = pf_err_q ? StError : StDone;

  always_comb begin
    long_cur = long_q;
    if (pb_q && !pb_wch_q[0]) long_cur[pb_wch_q[WchW-1:1]] = pb_long_q;
  end

  // Reads take the stored codes and put BUSY where the pending mark is and DONE or ERROR
  // where the pending finish is (the compares beside the multiplexer, not in front of it).
  // The lookup reads channel c and its pair c-1 as one 4-bit entry of 512; the status reads,
  // single or of 32 channels, read one 64-bit group of 32 and the single one picks its place
  // in it. The lookup's R2 needs only "not IDLE", which a pending finish does not change (its
  // channel is BUSY in status_q, DONE or ERROR as read): only the pair's "live" takes it in,
  // and the AXI slave's deepest path, which ends at the lookup, gains no input.
  wch_t pair_wch;
  assign pair_wch = {lk_wch_i[WchW-1:1], 1'b0};

  status_e [1:0] pair_codes;
  logic          pair_busy;
  assign pair_codes = status_q[pair_wch +: 2];
  assign lk_busy_o  = (pb_q && pb_wch_q == lk_wch_i) || (pair_codes[lk_wch_i[0]] != StIdle);
  assign pair_busy  = (pb_q && pb_wch_q == pair_wch) ||
                      (pair_codes[0] == StBusy && !(pf_q && pf_wch_q == pair_wch));

  logic pair_long;
  assign pair_long = (pb_q && !pb_wch_q[0] && pb_wch_q[WchW-1:1] == lk_wch_i[WchW-1:1]) ?
                     pb_long_q : long_q[lk_wch_i[WchW-1:1]];
  assign lk_pair_long_live_o = lk_wch_i[0] && pair_long && pair_busy;

  logic [4:0]  rd_grp;
  logic [63:0] rd_word, rd_pb, rd_pf;
  assign rd_grp   = rd_wch_i[WchW-1:5];
  assign rd_pb    = (pb_q && pb_wch_q[WchW-1:5] == rd_grp) ? pb_place : '0;
  assign rd_pf    = (pf_q && pf_wch_q[WchW-1:5] == rd_grp) ? pf_place : '0;
  assign rd_word  = (64'(status_q[{rd_grp, 5'd0} +: 32]) & ~rd_pb & ~rd_pf) |
                    (rd_pb & ~HiBits) | (rd_pf & pf_code);
  assign rd_multi_o  = rd_word;
  assign rd_single_o = status_e'(rd_word[{rd_wch_i[4:0], 1'b0} +: 2]);

  // The writers' selects: a single read (sg), a 32-channel read (mh), the pending finish
  // (pf, above). This cycle's BUSY mark and finish wait in pb_q and pf_q.
  logic [Groups-1:0] sg_grp, mh_grp;
  logic [63:0]       sg_place;
  assign sg_grp   = rd_single_i ? OneGrp << rd_grp : '0;
  assign sg_place = place2(rd_wch_i[4:0]);
  assign mh_grp   = rd_multi_i ? OneGrp << rd_grp : '0;

  // The pending finish (of a channel BUSY until then) is written first, so that a read in
  // this cycle, which saw it, clears it; the BUSY mark is of an IDLE channel (BusyFromIdle),
  // so it sets the low bit and nothing else.
  // Only the groups a write selects are computed (the others keep their codes: the same
  // function, and a simulator skips the idle groups).
  logic [Groups-1:0] grp_act;
  assign grp_act = pb_grp | sg_grp | mh_grp | pf_grp;

  always_comb begin
    logic [63:0] q, fin, clr, nxt;
    status_d = status_q;
    for (int g = 0; g < Groups; g++) begin
      if (!grp_act[g]) continue;
      q   = 64'(status_q[g*32 +: 32]);
      if (pf_grp[g]) q = (q & ~pf_place) | (pf_code & pf_place);
      // DONE and ERROR have the high bit set: a read clears those of its channels to IDLE.
      fin = (q & HiBits) | ((q & HiBits) >> 1);
      clr = ((sg_grp[g] ? sg_place : '0) | {64{mh_grp[g]}}) & fin;
      nxt = (q & ~clr) | (pb_grp[g] ? pb_place & ~HiBits : '0);
      status_d[g*32 +: 32] = nxt;  // channel i's code in bits 2i+1:2i
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      status_q  <= {NumWch{StIdle}};
      long_q    <= '0;
      pb_q      <= 1'b0;
      pb_wch_q  <= '0;
      pb_long_q <= 1'b0;
      pf_q      <= 1'b0;
      pf_wch_q  <= '0;
      pf_err_q  <= 1'b0;
    end else begin
      status_q  <= status_d;
      long_q    <= long_cur;
      pb_q      <= set_busy_i;
      pb_wch_q  <= set_busy_wch_i;
      pb_long_q <= set_busy_long_i;
      pf_q      <= finish_i;
      pf_wch_q  <= finish_wch_i;
      pf_err_q  <= finish_err_i;
    end
  end

  // The stored codes and the pending mark and finish, for monitors (the trace puts them in).
  assign status_o        = status_q;
  assign pend_busy_o     = pb_q;
  assign pend_busy_wch_o = pb_wch_q;
  assign pend_fin_o      = pf_q;
  assign pend_fin_wch_o  = pf_wch_q;
  assign pend_fin_code_o = pf_status;

`ifndef SYNTHESIS
  // The codes with the pending mark and finish in (what immediate writes would have stored).
  status_e [NumWch-1:0] status_cur;
  always_comb begin
    status_cur = status_q;
    if (pf_q) status_cur[pf_wch_q] = pf_status;
    if (pb_q) status_cur[pb_wch_q] = StBusy;
  end

  // The checks read single codes through variables of their own, kept from being inlined
  // by public_flat_rd: Verilator 5.006 emits C++ that does not compile when a concurrent
  // assertion samples a vector of 64 words or more, as status_q (2048 bits) is.
  status_e busy_cur   /* verilator public_flat_rd */;
  status_e finish_cur /* verilator public_flat_rd */;
  assign busy_cur   = status_cur[set_busy_wch_i];
  assign finish_cur = status_cur[finish_wch_i];
  `NI_ASSERT(BusyFromIdle, set_busy_i -> busy_cur == StIdle)
  `NI_ASSERT(FinishFromBusy, finish_i -> finish_cur == StBusy)
  // The reads see the pending mark (the codes of an immediate write).
  status_e lk_cur      /* verilator public_flat_rd */;
  status_e single_cur  /* verilator public_flat_rd */;
  status_e pair_cur    /* verilator public_flat_rd */;
  logic    pair_long_cur /* verilator public_flat_rd */;
  assign lk_cur        = status_cur[lk_wch_i];
  assign single_cur    = status_cur[rd_wch_i];
  assign pair_cur      = status_cur[pair_wch];
  assign pair_long_cur = long_cur[lk_wch_i[WchW-1:1]];
  `NI_ASSERT(PendingBusySeen, lk_busy_o == (lk_cur != StIdle) && rd_single_o == single_cur &&
                              (!lk_wch_i[0] || lk_pair_long_live_o ==
                               (pair_long_cur && pair_cur == StBusy)))
  // The group-wise update writes what the plain one would at each channel written: the
  // finished code, IDLE for a read channel that was DONE or ERROR (else its code as it is),
  // BUSY for the pending mark; a 32-channel read's whole group channel by channel (computed
  // only in the cycle of such a read).
  function automatic status_e read_clears(status_e c);
    return (c == StDone || c == StError) ? StIdle : c;
  endfunction
  status_e     d_fin  /* verilator public_flat_rd */;
  status_e     fin_q_code /* verilator public_flat_rd */;
  status_e     d_rd   /* verilator public_flat_rd */;
  status_e     d_pb   /* verilator public_flat_rd */;
  logic [63:0] d_grp  /* verilator public_flat_rd */;
  logic [63:0] e_grp  /* verilator public_flat_rd */;
  assign d_fin = status_d[pf_wch_q];
  assign fin_q_code = status_q[pf_wch_q];
  assign d_rd  = status_d[rd_wch_i];
  assign d_pb  = status_d[pb_wch_q];
  always_comb begin
    d_grp = '0;
    e_grp = '0;
    if (rd_multi_i) begin
      d_grp = 64'(status_d[{rd_grp, 5'd0} +: 32]);
      for (int i = 0; i < 32; i++) e_grp[2*i +: 2] = read_clears(status_cur[{rd_grp, 5'(i)}]);
    end
  end
  // The pending finish is of a channel still BUSY in status_q and never meets the BUSY mark.
  `NI_ASSERT(PendingFinishOfBusy, pf_q -> fin_q_code == StBusy && !(pb_q && pb_wch_q == pf_wch_q))
  `NI_ASSERT(UpdateFinish, pf_q && !(rd_single_i && rd_wch_i == pf_wch_q) &&
                           !(rd_multi_i && rd_grp == pf_wch_q[WchW-1:5]) -> d_fin == pf_status)
  `NI_ASSERT(UpdateRead, (rd_single_i || rd_multi_i) -> d_rd == read_clears(single_cur))
  `NI_ASSERT(UpdateMark, pb_q -> d_pb == StBusy)
  `NI_ASSERT(UpdateGroup, rd_multi_i -> d_grp == e_grp)
`endif
  `NI_ASSERT(LongOnlyEven, set_busy_i && set_busy_long_i -> !set_busy_wch_i[0])

endmodule

`default_nettype wire
