// SPDX-License-Identifier: Apache-2.0
// Status registers of the 1024 write channels (thesis 3.4, ICD section 3) and the long flags
// of the even channels.
//
// Writers: the AXI slave marks a channel BUSY when a descriptor goes live (IDLE -> BUSY) and
// clears DONE/ERROR to IDLE on status reads (single or 32-channel); the Message Handler
// finishes a channel (BUSY -> DONE or ERROR). The transitions need different current codes,
// so the writers never collide on one channel. Reads are combinational.
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

  wch_t pair_wch;
  assign pair_wch = {lk_wch_i[WchW-1:1], 1'b0};

  assign lk_status_o         = status_q[lk_wch_i];
  assign lk_pair_long_live_o = lk_wch_i[0] && long_q[lk_wch_i[WchW-1:1]] &&
                               (status_q[pair_wch] == StBusy);
  assign rd_single_o         = status_q[rd_single_wch_i];

  // The 32 channels of a collective read form one aligned group: channel {group, i}. Indexing
  // with the concatenation (not base + i) keeps each of the 32 selections a 32:1 multiplexer
  // of groups rather than a 1024:1 multiplexer behind an adder.
  logic [PageW:0] multi_grp;
  assign multi_grp = {rd_multi_page_i, rd_multi_half_i};

  always_comb begin
    for (int i = 0; i < 32; i++) begin
      rd_multi_o[2*i +: 2] = status_q[{multi_grp, 5'(i)}];
    end
  end

  function automatic logic finished(status_e s);
    return (s == StDone) || (s == StError);
  endfunction

  always_comb begin
    status_d = status_q;
    long_d   = long_q;
    if (rd_single_i && finished(status_q[rd_single_wch_i])) begin
      status_d[rd_single_wch_i] = StIdle;
    end
    if (rd_multi_i) begin
      for (int i = 0; i < 32; i++) begin
        if (finished(status_q[{multi_grp, 5'(i)}])) status_d[{multi_grp, 5'(i)}] = StIdle;
      end
    end
    if (set_busy_i) begin
      status_d[set_busy_wch_i] = StBusy;
      if (!set_busy_wch_i[0]) long_d[set_busy_wch_i[WchW-1:1]] = set_busy_long_i;
    end
    if (finish_i) status_d[finish_wch_i] = finish_err_i ? StError : StDone;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      status_q <= {NumWch{StIdle}};
      long_q   <= '0;
    end else begin
      status_q <= status_d;
      long_q   <= long_d;
    end
  end

  // One assign of the whole array (a per-channel loop here cost Verilator 1024 iterations per
  // evaluation, most of the simulator's time).
  assign status_o = status_q;

`ifndef SYNTHESIS
  // The checks read single codes through variables of their own, kept from being inlined
  // by public_flat_rd: Verilator 5.006 emits C++ that does not compile when a concurrent
  // assertion samples a vector of 64 words or more, as status_q (2048 bits) is.
  status_e busy_cur   /* verilator public_flat_rd */;
  status_e finish_cur /* verilator public_flat_rd */;
  assign busy_cur   = status_q[set_busy_wch_i];
  assign finish_cur = status_q[finish_wch_i];
  `NI_ASSERT(BusyFromIdle, set_busy_i -> busy_cur == StIdle)
  `NI_ASSERT(FinishFromBusy, finish_i -> finish_cur == StBusy)
`endif
  `NI_ASSERT(LongOnlyEven, set_busy_i && set_busy_long_i -> !set_busy_wch_i[0])

endmodule

`default_nettype wire
