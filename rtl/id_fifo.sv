// First-word-fall-through FIFO of IDs (thesis 3.8): the TID FIFO, the 1xFID FIFO and the
// 4xFID FIFO. One push and one pop per cycle; `head_o` is the next ID to hand out.
//
// The storage is an array with an asynchronous read (distributed RAM on an FPGA, as in the
// thesis's Table 4.1 where the ID FIFOs use no block RAM).
`include "ni_assert.svh"
`default_nettype none

module id_fifo #(
  parameter int unsigned Depth = 512,
  parameter int unsigned Width = 10,
  localparam int unsigned PtrW = $clog2(Depth),
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [Width-1:0] push_id_i,
  input  logic             pop_i,
  output logic [Width-1:0] head_o,
  output logic [CntW-1:0]  count_o,
  output logic             empty_o,
  output logic             full_o
);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  rd_ptr_q, rd_ptr_d;
  logic [PtrW-1:0]  wr_ptr_q, wr_ptr_d;
  logic [CntW-1:0]  count_q, count_d;

  function automatic logic [PtrW-1:0] ptr_inc(logic [PtrW-1:0] p);
    if (32'(p) == Depth - 1) return '0;
    return p + 1'b1;
  endfunction

  always_comb begin
    rd_ptr_d = rd_ptr_q;
    wr_ptr_d = wr_ptr_q;
    count_d  = count_q;
    if (push_i) wr_ptr_d = ptr_inc(wr_ptr_q);
    if (pop_i)  rd_ptr_d = ptr_inc(rd_ptr_q);
    unique case ({push_i, pop_i})
      2'b10:   count_d = count_q + 1'b1;
      2'b01:   count_d = count_q - 1'b1;
      default: count_d = count_q;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
      count_q  <= count_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[wr_ptr_q] <= push_id_i;
  end

  assign head_o  = mem_q[rd_ptr_q];
  assign count_o = count_q;
  assign empty_o = (count_q == '0);
  assign full_o  = (32'(count_q) == Depth);

  // ---------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------
  `ASSERT(NoPopWhenEmpty, pop_i |-> !empty_o)
  `ASSERT(NoPushWhenFull, push_i |-> !full_o)

`ifndef SYNTHESIS
  // Shadow of which IDs the FIFO holds: an ID is never pushed while it is already inside,
  // so no ID can be handed out twice.
  logic [(1 << Width)-1:0] held_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_q <= '0;
    end else begin
      if (pop_i)  held_q[head_o]    <= 1'b0;
      if (push_i) held_q[push_id_i] <= 1'b1;
    end
  end
  `ASSERT(NoDuplicateId, push_i |-> (!held_q[push_id_i] || (pop_i && head_o == push_id_i)))
`endif

endmodule

`default_nettype wire
