// SPDX-License-Identifier: Apache-2.0
// Formal checker of a first-word-fall-through FIFO (sync_fifo, and id_fifo which wraps it):
// a shadow reference list, the properties of the interface, and the invariants that tie the
// DUT's storage to the shadow (they make the properties inductive).
//
// Shadow: `ref_q[0 .. ref_cnt_q-1]`, oldest first. At a rising edge a pop drops ref_q[0]
// (the list shifts down), then a push appends. Proven, outside reset:
//   count_o == the shadow's length               (count matches contents)
//   empty_o / full_o exact
//   head_o == ref_q[0] whenever the FIFO is not empty        (data out in order)
//   invariants: count <= Depth, pointers in range, wr_ptr == rd_ptr + count (mod Depth),
//               mem[rd_ptr + i] == ref_q[i] for every i < count
// The interface contract (no pop when empty, no push when full) is the harness's to assume.
`default_nettype none

module fv_fifo_shadow #(
  parameter int unsigned Depth = 4,
  parameter int unsigned Width = 4,
  // the FIFO takes a push while full when it pops in the same cycle (sync_fifo; id_fifo never)
  parameter bit          PushPopWhenFull = 1'b1,
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input logic                        clk_i,
  input logic                        rst_ni,
  // the FIFO's ports
  input logic                        push_i,
  input logic [Width-1:0]            push_data_i,
  input logic                        pop_i,
  input logic [Width-1:0]            head_i,
  input logic                        empty_i,
  input logic                        full_i,
  input logic [CntW-1:0]             count_i,
  // the FIFO's state (read by hierarchical reference in the harness)
  input logic [Depth-1:0][Width-1:0] mem_i,
  input logic [PtrW-1:0]             rd_ptr_i,
  input logic [PtrW-1:0]             wr_ptr_i
);

  // ---------------------------------------------------------------------------------------
  // Shadow list
  // ---------------------------------------------------------------------------------------
  logic [Depth-1:0][Width-1:0] ref_q, ref_d;
  logic [CntW-1:0]             ref_cnt_q, ref_cnt_d;

  always_comb begin
    ref_d     = ref_q;
    ref_cnt_d = ref_cnt_q;
    if (pop_i) begin
      for (int i = 0; i + 1 < Depth; i++) ref_d[i] = ref_q[i+1];
      ref_cnt_d = ref_cnt_d - 1'b1;
    end
    if (push_i) begin
      for (int i = 0; i < Depth; i++) begin
        if (32'(ref_cnt_d) == i) ref_d[i] = push_data_i;
      end
      ref_cnt_d = ref_cnt_d + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ref_q     <= '0;
      ref_cnt_q <= '0;
    end else begin
      ref_q     <= ref_d;
      ref_cnt_q <= ref_cnt_d;
    end
  end

  // Entry i of the FIFO in the DUT's storage: mem[(rd_ptr + i) mod Depth].
  function automatic logic [Width-1:0] dut_entry(int unsigned i);
    return mem_i[(32'(rd_ptr_i) + i) % Depth];
  endfunction

  // ---------------------------------------------------------------------------------------
  // Properties
  // ---------------------------------------------------------------------------------------
  always_comb begin
    if (rst_ni) begin
      // interface
      a_count : assert (count_i == ref_cnt_q);
      a_empty : assert (empty_i == (ref_cnt_q == '0));
      a_full  : assert (full_i == (32'(ref_cnt_q) == Depth));
      if (ref_cnt_q != '0) a_head : assert (head_i == ref_q[0]);
      // invariants of the implementation
      a_cnt_range : assert (32'(ref_cnt_q) <= Depth);
      a_rd_range  : assert (32'(rd_ptr_i) < Depth);
      a_wr_range  : assert (32'(wr_ptr_i) < Depth);
      a_wr_ptr    : assert (32'(wr_ptr_i) == (32'(rd_ptr_i) + 32'(ref_cnt_q)) % Depth);
      for (int unsigned i = 0; i < Depth; i++) begin
        if (i < 32'(ref_cnt_q)) assert (dut_entry(i) == ref_q[i]);  // a_contents (no label: a loop)
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Reachability
  // ---------------------------------------------------------------------------------------
  always_comb begin
    if (rst_ni) begin
      c_full          : cover (full_i);
      if (PushPopWhenFull) c_push_pop_full : cover (full_i && push_i && pop_i);
      c_push_pop_one  : cover (32'(ref_cnt_q) == 1 && push_i && pop_i);
      // both pointers wrapped: the FIFO went round its storage
      c_wrap          : cover (32'(rd_ptr_i) == Depth - 1 && pop_i && 32'(ref_cnt_q) == Depth);
    end
  end

endmodule

`default_nettype wire
