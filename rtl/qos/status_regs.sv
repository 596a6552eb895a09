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
// write, cycle for cycle.
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
  // AXI slave lookups while validating a line (channel c; pair = channel c-1 when c is odd)
  input  wch_t                 lk_wch_i,
  output status_e              lk_status_o,
  output logic                 lk_pair_long_live_o,
  // status read, single channel: returns the code, clears DONE/ERROR when `rd_single_i`
  input  logic                 rd_single_i,
  input  wch_t                 rd_single_wch_i,
  output status_e              rd_single_o,
  // status read, 32 channels of a page half
  input  logic                 rd_multi_i,
  input  logic [PageW-1:0]     rd_multi_page_i,
  input  logic                 rd_multi_half_i,
  output logic [63:0]          rd_multi_o,
  // Message Handler finishes a transfer
  input  logic                 finish_i,
  input  wch_t                 finish_wch_i,
  input  logic                 finish_err_i,
  // every code, for monitors
  output status_e [NumWch-1:0]   status_o
);

  status_e [NumWch-1:0]   status_q, status_d;
  logic    [NumWch/2-1:0] long_q, long_d;

  // The BUSY mark of the previous cycle, not yet in status_q/long_q, and the codes and flags
  // with it (what an immediate write would have stored).
  logic                   pb_q;
  wch_t                   pb_wch_q;
  logic                   pb_long_q;
  status_e [NumWch-1:0]   status_cur;
  logic    [NumWch/2-1:0] long_cur;

  always_comb begin
    status_cur = status_q;
    long_cur   = long_q;
    if (pb_q) begin
      status_cur[pb_wch_q] = StBusy;
      if (!pb_wch_q[0]) long_cur[pb_wch_q[WchW-1:1]] = pb_long_q;
    end
  end

  // A read of one code: the stored one, or BUSY when the pending mark is its channel (the
  // compare beside the 1,024-way pick, not in front of it).
  function automatic status_e code_of(status_e [NumWch-1:0] st, wch_t w, logic pend,
                                      wch_t pend_wch);
    return (pend && pend_wch == w) ? StBusy : st[w];
  endfunction

  wch_t pair_wch;
  assign pair_wch = {lk_wch_i[WchW-1:1], 1'b0};

  logic pair_long;
  assign pair_long = (pb_q && !pb_wch_q[0] && pb_wch_q[WchW-1:1] == lk_wch_i[WchW-1:1]) ?
                     pb_long_q : long_q[lk_wch_i[WchW-1:1]];
  assign lk_status_o         = code_of(status_q, lk_wch_i, pb_q, pb_wch_q);
  assign lk_pair_long_live_o = lk_wch_i[0] && pair_long &&
                               (code_of(status_q, pair_wch, pb_q, pb_wch_q) == StBusy);
  assign rd_single_o         = code_of(status_q, rd_single_wch_i, pb_q, pb_wch_q);

  // The 32 channels of a collective read form one aligned group: channel {group, i}. Indexing
  // with the concatenation (not base + i) keeps each of the 32 selections a 32:1 multiplexer
  // of groups rather than a 1024:1 multiplexer behind an adder.
  logic [PageW:0] multi_grp;
  assign multi_grp = {rd_multi_page_i, rd_multi_half_i};

  always_comb begin
    for (int i = 0; i < 32; i++) begin
      rd_multi_o[2*i +: 2] = code_of(status_q, {multi_grp, 5'(i)}, pb_q, pb_wch_q);
    end
  end

  function automatic logic finished(status_e s);
    return (s == StDone) || (s == StError);
  endfunction

  always_comb begin
    // This cycle's BUSY mark waits in pb_q: it is of an IDLE channel, which neither a read
    // (it clears DONE/ERROR) nor a finish (of a BUSY channel) touches in this cycle.
    status_d = status_cur;
    long_d   = long_cur;
    if (rd_single_i && finished(status_cur[rd_single_wch_i])) begin
      status_d[rd_single_wch_i] = StIdle;
    end
    if (rd_multi_i) begin
      for (int i = 0; i < 32; i++) begin
        if (finished(status_cur[{multi_grp, 5'(i)}])) status_d[{multi_grp, 5'(i)}] = StIdle;
      end
    end
    if (finish_i) status_d[finish_wch_i] = finish_err_i ? StError : StDone;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      status_q  <= {NumWch{StIdle}};
      long_q    <= '0;
      pb_q      <= 1'b0;
      pb_wch_q  <= '0;
      pb_long_q <= 1'b0;
    end else begin
      status_q  <= status_d;
      long_q    <= long_d;
      pb_q      <= set_busy_i;
      pb_wch_q  <= set_busy_wch_i;
      pb_long_q <= set_busy_long_i;
    end
  end

  // One assign of the whole array (a per-channel loop here cost Verilator 1024 iterations per
  // evaluation, most of the simulator's time).
  assign status_o = status_cur;

`ifndef SYNTHESIS
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
  assign single_cur    = status_cur[rd_single_wch_i];
  assign pair_cur      = status_cur[pair_wch];
  assign pair_long_cur = long_cur[lk_wch_i[WchW-1:1]];
  `NI_ASSERT(PendingBusySeen, lk_status_o == lk_cur && rd_single_o == single_cur &&
                              (!lk_wch_i[0] || lk_pair_long_live_o ==
                               (pair_long_cur && pair_cur == StBusy)))
`endif
  `NI_ASSERT(LongOnlyEven, set_busy_i && set_busy_long_i -> !set_busy_wch_i[0])

endmodule

`default_nettype wire
