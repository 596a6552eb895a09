// SPDX-License-Identifier: Apache-2.0
// First-word-fall-through FIFO with its storage in a dp_ram (block RAM), for wide and deep
// buffers: the send unit's line buffer and the receive unit's packet buffer. One push and
// one pop per cycle at full rate; `head_o` is valid whenever `valid_o` is high.
//
// The RAM's read is registered, so the head lives in a two-entry output stage fed from the
// RAM: an entry is read as soon as the output stage (with the read in flight) has room, so a
// pop every cycle never starves. A word pushed in cycle t is in the RAM after the edge and
// can be popped from cycle t+2 on. `count_o` counts every entry (RAM and output stage).
//
// With Bypass, a word pushed while the RAM is empty goes straight into the output stage
// when it has room (behind a RAM read arriving in the same cycle): it can be popped from
// cycle t+1 on, as from a sync_fifo, and `valid_o`/`head_o` behave exactly as a sync_fifo's
// !empty_o/head_o (tests/formal/fifo_ram.sby): the engine's re-issue queue keeps its
// NACK-to-re-issue figure with its storage in block RAM.
`default_nettype none
`include "ni_assert.svh"

module fifo_ram #(
  parameter int unsigned Depth = 128,  // RAM entries; the FIFO holds Depth + 2
  parameter int unsigned Width = 512,
  parameter bit          Bypass = 1'b0,  // see above
  parameter bit          RegHead = 1'b0,  // without Bypass: the output stage's head and
                                          // empty flag from registers (sync_fifo RegHead)
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntW  = $clog2(Depth + 3)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [Width-1:0] push_data_i,
  output logic             full_o,   // no room for a push this cycle
  input  logic             pop_i,
  output logic             valid_o,  // head_o holds the oldest entry
  output logic [Width-1:0] head_o,
  output logic [CntW-1:0]  count_o
);

  localparam int unsigned RamCntW = $clog2(Depth + 1);

  logic [AddrW-1:0]   wr_ptr_q, rd_ptr_q;
  logic [RamCntW-1:0] ram_cnt_q, ram_cnt_d;   // entries in the RAM, not yet read
  logic               rd_q;                   // a RAM read is in flight (data next cycle)
  logic               rd;
  logic [Width-1:0]   ram_rdata;
  logic [1:0]         out_cnt;
  logic               out_full, out_empty;
  logic               byp;                    // this push goes straight to the output stage
  logic               ram_push;               // this push goes into the RAM

  function automatic logic [AddrW-1:0] ptr_inc(logic [AddrW-1:0] p);
    if (32'(p) == Depth - 1) return '0;
    return p + 1'b1;
  endfunction

  dp_ram #(
    .Depth(Depth),
    .Width(Width)
  ) u_ram (
    .clk_i  (clk_i),
    .we_i   (ram_push),
    .waddr_i(wr_ptr_q),
    .wdata_i(push_data_i),
    .re_i   (rd),
    .raddr_i(rd_ptr_q),
    .rdata_o(ram_rdata)
  );

  // The output stage: two registered entries, fed by the RAM read of the previous cycle
  // (and, with Bypass, by a push).
  if (!Bypass) begin : gen_out
    sync_fifo #(
      .Depth  (2),
      .Width  (Width),
      .RegHead(RegHead)
    ) u_out (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .push_i     (rd_q),
      .push_data_i(ram_rdata),
      .pop_i      (pop_i),
      .head_o     (head_o),
      .empty_o    (out_empty),
      .full_o     (out_full),
      .count_o    (out_cnt)
    );
    assign byp = 1'b0;
  end else begin : gen_out_bypass
    // Two entries that take, after this cycle's pop, the RAM read arriving (older) and a
    // bypassed push (newer) in the same cycle. A push bypasses the RAM when the RAM holds
    // nothing (everything older is here or arriving) and there is room after the arrival.
    // The next stage is made for both outcomes of the pop (which the consumer decides late
    // in the cycle) and picked by it: the pop is one choice before the registers, not the
    // select of where the arrivals go.
    logic [1:0][Width-1:0]      st_q, st_d;  // [0]: the head
    logic [1:0]                 cnt_q, cnt_d;
    logic [1:0][1:0][Width-1:0] st_if;       // [p]: the stage if pop_i == p
    logic [1:0][1:0]            cnt_if;
    logic [1:0]                 byp_if;
    always_comb begin
      for (int unsigned p = 0; p < 2; p++) begin
        byp_if[p] = push_i && (ram_cnt_q == '0) &&
                    ((32'(cnt_q) - p + (rd_q ? 32'd1 : 32'd0)) < 32'd2);
        st_if[p]  = st_q;
        cnt_if[p] = cnt_q;
        if (p == 1) begin
          st_if[p][0] = st_q[1];
          cnt_if[p]   = cnt_if[p] - 2'd1;
        end
        if (rd_q) begin
          st_if[p][cnt_if[p][0]] = ram_rdata;
          cnt_if[p]              = cnt_if[p] + 2'd1;
        end
        if (byp_if[p]) begin
          st_if[p][cnt_if[p][0]] = push_data_i;
          cnt_if[p]              = cnt_if[p] + 2'd1;
        end
      end
    end
    assign byp   = pop_i ? byp_if[1] : byp_if[0];
    assign st_d  = pop_i ? st_if[1] : st_if[0];
    assign cnt_d = pop_i ? cnt_if[1] : cnt_if[0];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) cnt_q <= '0;
      else         cnt_q <= cnt_d;
    end
    always_ff @(posedge clk_i) st_q <= st_d;
    assign head_o    = st_q[0];
    assign out_cnt   = cnt_q;
    assign out_empty = (cnt_q == '0);
    assign out_full  = (cnt_q == 2'd2);
    `NI_ASSERT(StageNoOverflow, 32'(cnt_q) - (pop_i ? 32'd1 : 32'd0) + (rd_q ? 32'd1 : 32'd0) +
                             (byp ? 32'd1 : 32'd0) <= 32'd2)
  end
  assign ram_push = push_i && !byp;

  // Read the RAM when it holds an entry and the output stage will have room for it next
  // cycle: its entries after this cycle's pop, plus the read in flight, below 2. Both
  // outcomes of the pop (decided late by the consumer) are compared from the registers and
  // the pop picks one.
  logic [2:0] out_next;  // entries of the output stage next cycle without a pop, 0..3
  logic       room_nopop, room_pop;
  assign out_next   = 3'(out_cnt) + 3'(rd_q);
  assign room_nopop = out_next < 3'd2;
  assign room_pop   = out_next < 3'd3;
  assign rd = (ram_cnt_q != '0) && (pop_i ? room_pop : room_nopop);

  // The next RAM count picked by an AND-OR (as sync_fifo's count: no adder behind the pick).
  logic ram_up, ram_dn;
  assign ram_up    = ram_push && !rd;
  assign ram_dn    = rd && !ram_push;
  assign ram_cnt_d = ({RamCntW{ram_up}} & (ram_cnt_q + 1'b1)) |
                     ({RamCntW{ram_dn}} & (ram_cnt_q - 1'b1)) |
                     ({RamCntW{!ram_up && !ram_dn}} & ram_cnt_q);
  `NI_ASSERT(RdIsRoom, rd == ((ram_cnt_q != '0) &&
                              ((32'(out_cnt) - (pop_i ? 32'd1 : 32'd0) + (rd_q ? 32'd1 : 32'd0)) <
                               32'd2)))

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q  <= '0;
      rd_ptr_q  <= '0;
      ram_cnt_q <= '0;
      rd_q      <= 1'b0;
    end else begin
      if (ram_push) wr_ptr_q <= ptr_inc(wr_ptr_q);
      if (rd)     rd_ptr_q <= ptr_inc(rd_ptr_q);
      ram_cnt_q <= ram_cnt_d;
      rd_q      <= rd;
    end
  end

  assign valid_o = !out_empty;
  assign full_o  = (32'(ram_cnt_q) == Depth);
  assign count_o = CntW'(32'(ram_cnt_q) + 32'(out_cnt) + 32'(rd_q));

  logic unused_out_full;
  assign unused_out_full = out_full;

  `NI_ASSERT(NoPushWhenFull, push_i -> !full_o)
  `NI_ASSERT(NoPopWhenEmpty, pop_i -> valid_o)
  // The output stage never overflows: a read is only issued when its entry will fit.
  `NI_ASSERT(OutNoOverflow, rd_q -> (!out_full || pop_i))
  // A bypass never overtakes: nothing older is in the RAM.
  `NI_ASSERT(BypassInOrder, byp -> ram_cnt_q == '0)

endmodule

`default_nettype wire
