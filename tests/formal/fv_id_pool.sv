// SPDX-License-Identifier: Apache-2.0
// Formal harness of the engine's ID pools: id_init and three id_fifo free lists wired as in
// qos_engine (the FIFO's push comes from id_init until `done`, then from the client's
// returns), each with an fv_id_pool_check (shadow of the IDs the client holds, and the
// never-twice / never-lost properties).
//
// Small parameters, same shape as the engine's: TIDs 0..TidCount-1 in a TidW-bit field with
// spare codes, 1xFIDs Fid1Base.., 4xFID bases Fid4Base + Fid4Step * k.
`default_nettype none

module fv_id_pool #(
  parameter int unsigned TidCount  = 5,
  parameter int unsigned TidW      = 3,
  parameter int unsigned Fid1Base  = 8,
  parameter int unsigned Fid1Count = 3,
  parameter int unsigned Fid4Base  = 12,
  parameter int unsigned Fid4Count = 2,
  parameter int unsigned Fid4Step  = 4,
  parameter int unsigned FidW      = 5,
  localparam int unsigned MaxCount = (TidCount > Fid1Count) ?
                                     ((TidCount > Fid4Count) ? TidCount : Fid4Count) :
                                     ((Fid1Count > Fid4Count) ? Fid1Count : Fid4Count),
  localparam int unsigned TidKW    = (TidCount > 1) ? $clog2(TidCount) : 1,
  localparam int unsigned Fid1KW   = (Fid1Count > 1) ? $clog2(Fid1Count) : 1,
  localparam int unsigned Fid4KW   = (Fid4Count > 1) ? $clog2(Fid4Count) : 1
) (
  input logic              clk_i,
  input logic              rst_ni,
  // the client: pops, and returns of the ID with index *_ret_k_i
  input logic              tid_pop_i,
  input logic              fid1_pop_i,
  input logic              fid4_pop_i,
  input logic              tid_ret_i,
  input logic [TidKW-1:0]  tid_ret_k_i,
  input logic              fid1_ret_i,
  input logic [Fid1KW-1:0] fid1_ret_k_i,
  input logic              fid4_ret_i,
  input logic [Fid4KW-1:0] fid4_ret_k_i
);

  logic            done;
  logic            ini_tid_push, ini_fid1_push, ini_fid4_push;
  logic [TidW-1:0] ini_tid;
  logic [FidW-1:0] ini_fid1, ini_fid4;

  id_init #(
    .TidCount (TidCount),
    .TidW     (TidW),
    .Fid1Base (Fid1Base),
    .Fid1Count(Fid1Count),
    .Fid4Base (Fid4Base),
    .Fid4Count(Fid4Count),
    .Fid4Step (Fid4Step),
    .FidW     (FidW)
  ) u_init (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .tid_push_o (ini_tid_push),
    .tid_o      (ini_tid),
    .fid1_push_o(ini_fid1_push),
    .fid1_o     (ini_fid1),
    .fid4_push_o(ini_fid4_push),
    .fid4_o     (ini_fid4),
    .done_o     (done)
  );

  logic first_cycle_q = 1'b1;
  always_ff @(posedge clk_i) first_cycle_q <= 1'b0;
  always_comb begin
    if (first_cycle_q) m_reset : assume (!rst_ni);
  end

  // One pool: the FIFO, its push multiplexer (as in qos_engine) and its checker.
  `define FV_POOL(name, count, width, base, step, kw)                                       \
    logic [width-1:0]                       name``_head, name``_ret_id;                     \
    logic                                   name``_push, name``_empty, name``_full;         \
    logic [width-1:0]                       name``_push_id;                                 \
    logic [$clog2(count + 1)-1:0]           name``_count;                                   \
    logic [count-1:0][width-1:0]            name``_mem;                                     \
    assign name``_push    = done ? name``_ret_i : ini_``name``_push;                        \
    assign name``_push_id = done ? name``_ret_id : ini_``name;                              \
    id_fifo #(.Depth(count), .Width(width)) u_``name``_fifo (                               \
      .clk_i(clk_i), .rst_ni(rst_ni), .push_i(name``_push), .push_id_i(name``_push_id),    \
      .pop_i(name``_pop_i), .head_o(name``_head), .count_o(name``_count),                  \
      .empty_o(name``_empty), .full_o(name``_full));                                        \
    for (genvar i = 0; i < count; i++) begin : g_``name``_mem                               \
      assign name``_mem[i] = u_``name``_fifo.u_fifo.mem_q[i];                               \
    end                                                                                     \
    fv_id_pool_check #(.Base(base), .Step(step), .Count(count), .Width(width),              \
                       .MaxCount(MaxCount)) u_``name``_chk (                                \
      .clk_i(clk_i), .rst_ni(rst_ni), .done_i(done), .init_cnt_i(u_init.cnt_q),            \
      .push_i(name``_push), .push_id_i(name``_push_id), .pop_i(name``_pop_i),              \
      .head_i(name``_head), .empty_i(name``_empty), .full_i(name``_full),                  \
      .ret_i(name``_ret_i), .ret_k_i(name``_ret_k_i), .ret_id_o(name``_ret_id),            \
      .mem_i(name``_mem), .rd_ptr_i(u_``name``_fifo.u_fifo.rd_ptr_q),                      \
      .wr_ptr_i(u_``name``_fifo.u_fifo.wr_ptr_q), .count_i(name``_count));

  `FV_POOL(tid, TidCount, TidW, 0, 1, TidKW)
  `FV_POOL(fid1, Fid1Count, FidW, Fid1Base, 1, Fid1KW)
  `FV_POOL(fid4, Fid4Count, FidW, Fid4Base, Fid4Step, Fid4KW)

  `undef FV_POOL

endmodule

`default_nettype wire
