// SPDX-License-Identifier: Apache-2.0
// First-word-fall-through FIFO: one push and one pop per cycle, `head_o` is the oldest entry.
// The storage is an array written in one always_ff and read asynchronously (distributed RAM
// on an FPGA): the AW, B and finish FIFOs of the engine and, through id_fifo, its three ID
// FIFOs (512, 64 and 16 entries); the read allocator's enqueue FIFO; the receive unit's
// response FIFO. A pop of an empty FIFO or a push into a full one without a simultaneous pop
// is an error (asserted).
//
// With `RegHead`, the head and the empty flag are registers (`head_q`, `empty_q`) loaded with
// what `mem_q[rd_ptr_q]` and `count_q == 0` will be: a consumer's logic then starts at a
// register instead of the pointer's read of the array and the count's compare; the pop (and
// push) of a cycle go through one more choice before the registers. The ports behave the
// same cycle for cycle (`HeadIsOldest`, `EmptyIsCount`).
`default_nettype none
`include "ni_assert.svh"

module sync_fifo #(
  parameter int unsigned Depth = 8,
  parameter int unsigned Width = 8,
  parameter bit          RegHead = 1'b0,  // head and empty flag from registers
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [Width-1:0] push_data_i,
  input  logic             pop_i,
  output logic [Width-1:0] head_o,
  output logic             empty_o,
  output logic             full_o,
  output logic [CntW-1:0]  count_o
);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  rd_ptr_q, wr_ptr_q;
  logic [CntW-1:0]  count_q;

  function automatic logic [PtrW-1:0] ptr_inc(logic [PtrW-1:0] p);
    if (32'(p) == Depth - 1) return '0;
    return p + 1'b1;
  endfunction

  // The next count is picked from the count plus one, minus one and as it is by an AND-OR,
  // not a multiplexer: Yosys (opt_share) merges a multiplexer of two additions into one
  // addition behind the multiplexer, and a push or pop decided late in the cycle would then
  // go through the carry chain; picked, it goes through one LUT.
  logic             cnt_up, cnt_dn;
  logic [CntW-1:0]  count_d;
  assign cnt_up  = push_i && !pop_i;
  assign cnt_dn  = pop_i && !push_i;
  assign count_d = ({CntW{cnt_up}} & (count_q + 1'b1)) | ({CntW{cnt_dn}} & (count_q - 1'b1)) |
                   ({CntW{!cnt_up && !cnt_dn}} & count_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      if (push_i) wr_ptr_q <= ptr_inc(wr_ptr_q);
      if (pop_i)  rd_ptr_q <= ptr_inc(rd_ptr_q);
      count_q <= count_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[wr_ptr_q] <= push_data_i;
  end

  if (RegHead) begin : g_reg_head
    logic [Width-1:0] head_q;
    logic             empty_q;
    logic             last;  // the FIFO holds one entry or none before this cycle's push
    assign last = (count_q == '0) || (count_q == CntW'(1'b1) && pop_i);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        head_q  <= '0;
        empty_q <= 1'b1;
      end else begin
        // (a pop of the last entry with no push leaves the head as it was: unread)
        if (push_i && last) head_q <= push_data_i;
        else if (pop_i)     head_q <= mem_q[ptr_inc(rd_ptr_q)];
        empty_q <= last && !push_i;
      end
    end
    assign head_o  = head_q;
    assign empty_o = empty_q;
    `NI_ASSERT(HeadIsOldest, !empty_q -> head_q == mem_q[rd_ptr_q])
    `NI_ASSERT(EmptyIsCount, empty_q == (count_q == '0))
  end else begin : g_ram_head
    assign head_o  = mem_q[rd_ptr_q];
    assign empty_o = (count_q == '0);
  end
  assign full_o  = (32'(count_q) == Depth);
  assign count_o = count_q;

  `NI_ASSERT(NoPopWhenEmpty, pop_i -> !empty_o)
  `NI_ASSERT(NoPushWhenFull, push_i -> (!full_o || pop_i))

endmodule

`default_nettype wire
