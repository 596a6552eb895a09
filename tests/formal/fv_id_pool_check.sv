// SPDX-License-Identifier: Apache-2.0
// Formal checker of one ID pool: an id_fifo used as a free list, filled by id_init after reset
// and refilled by a client that returns the IDs it took (fv_id_pool wires three of them as
// qos_engine does).
//
// The pool's universe is Count IDs: Base + Step * k for k = 0 .. Count-1. The client is free:
// it pops whenever the FIFO is not empty (also during initialisation) and, once `done` is
// high, returns any ID it holds (`ret_i`, `ret_k_i` = the ID's index k). The checker keeps
// which IDs the client holds (`out_q`) and proves, outside reset, for every ID k:
//   occurrences of ID k in the FIFO <= 1                         (never held twice)
//   occurrences + held by the client + not yet pushed by id_init == 1   (never lost)
//   the FIFO's count == the number of universe IDs in it         (nothing else in it)
//   id_init pushes index k while its counter is k
// The RTL's own assertions are proven too: id_fifo's NoPushWhenFull (the pool never pushes
// into a full FIFO: it follows from the above), sync_fifo's and id_init's (DoneStays).
// Assumed: a return is of an ID the client holds; no pop of an empty FIFO (id_fifo's
// NoPopWhenEmpty, made an assumption by id_pool.sby).
`default_nettype none

module fv_id_pool_check #(
  parameter int unsigned Base     = 0,
  parameter int unsigned Step     = 1,
  parameter int unsigned Count    = 4,
  parameter int unsigned Width    = 3,
  parameter int unsigned MaxCount = 4,  // id_init's counter range (its largest pool)
  localparam int unsigned PtrW    = (Count > 1) ? $clog2(Count) : 1,
  localparam int unsigned CntW    = $clog2(Count + 1),
  localparam int unsigned InitW   = $clog2(MaxCount + 1),
  localparam int unsigned KW      = (Count > 1) ? $clog2(Count) : 1
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // id_init's state
  input  logic                        done_i,
  input  logic [InitW-1:0]            init_cnt_i,
  // the pool's ports
  input  logic                        push_i,
  input  logic [Width-1:0]            push_id_i,
  input  logic                        pop_i,
  input  logic [Width-1:0]            head_i,
  input  logic                        empty_i,
  input  logic                        full_i,
  // the client's returns
  input  logic                        ret_i,
  input  logic [KW-1:0]               ret_k_i,
  output logic [Width-1:0]            ret_id_o,
  // the FIFO's state (read by hierarchical reference in the harness)
  input  logic [Count-1:0][Width-1:0] mem_i,
  input  logic [PtrW-1:0]             rd_ptr_i,
  input  logic [PtrW-1:0]             wr_ptr_i,
  input  logic [CntW-1:0]             count_i
);

  function automatic logic [Width-1:0] id_of(int unsigned k);
    return Width'(Base + Step * k);
  endfunction

  assign ret_id_o = id_of(32'(ret_k_i));

  // ---------------------------------------------------------------------------------------
  // The client: which IDs it holds
  // ---------------------------------------------------------------------------------------
  logic [Count-1:0] out_q, out_d;

  always_comb begin
    out_d = out_q;
    for (int unsigned k = 0; k < Count; k++) begin
      if (pop_i && head_i == id_of(k)) out_d[k] = 1'b1;
      if (ret_i && 32'(ret_k_i) == k)  out_d[k] = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) out_q <= '0;
    else         out_q <= out_d;
  end

  always_comb begin
    if (rst_ni) begin
      if (ret_i) begin
        m_ret_after_init : assume (done_i);
        m_ret_in_range   : assume (32'(ret_k_i) < Count);
        m_ret_held       : assume (out_q[ret_k_i]);
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Where each ID is
  // ---------------------------------------------------------------------------------------
  // in_fifo[k]: how many of the FIFO's entries hold ID k; pending[k]: id_init has yet to push
  // it (id_init pushes index k while its counter is k).
  logic [Count-1:0][CntW-1:0] in_fifo;
  logic [Count-1:0]           pending;
  logic [CntW+KW:0]           ids_in_fifo;

  always_comb begin
    ids_in_fifo = '0;
    for (int unsigned k = 0; k < Count; k++) begin
      in_fifo[k] = '0;
      for (int unsigned i = 0; i < Count; i++) begin
        if (i < 32'(count_i) && mem_i[(32'(rd_ptr_i) + i) % Count] == id_of(k)) begin
          in_fifo[k] = in_fifo[k] + 1'b1;
        end
      end
      pending[k]  = !done_i && 32'(init_cnt_i) <= k;
      ids_in_fifo = ids_in_fifo + in_fifo[k];
    end
  end

  // ---------------------------------------------------------------------------------------
  // Properties
  // ---------------------------------------------------------------------------------------
  always_comb begin
    if (rst_ni) begin
      for (int unsigned k = 0; k < Count; k++) begin
        assert (in_fifo[k] <= 1);                                        // never twice
        assert (32'(in_fifo[k]) + 32'(out_q[k]) + 32'(pending[k]) == 1);  // never lost
      end
      a_only_universe     : assert (32'(ids_in_fifo) == 32'(count_i));
      a_init_counter      : assert (done_i || 32'(init_cnt_i) < MaxCount);
      if (push_i && !done_i) a_init_order : assert (push_id_i == id_of(32'(init_cnt_i)));
      // the FIFO's own invariants (sync_fifo's proof), needed here for induction
      a_count_range       : assert (32'(count_i) <= Count);
      a_rd_range          : assert (32'(rd_ptr_i) < Count);
      a_wr_ptr            : assert (32'(wr_ptr_i) == (32'(rd_ptr_i) + 32'(count_i)) % Count);
    end
  end

  // ---------------------------------------------------------------------------------------
  // Reachability
  // ---------------------------------------------------------------------------------------
  // Every ID has been out at once since reset.
  logic all_out_seen_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)               all_out_seen_q <= 1'b0;
    else if (done_i && &out_q) all_out_seen_q <= 1'b1;
  end

  always_comb begin
    if (rst_ni) begin
      c_pop_during_init : cover (!done_i && pop_i);
      c_all_out         : cover (done_i && &out_q);
      c_all_back        : cover (all_out_seen_q && full_i);
      c_ret_and_pop     : cover (ret_i && pop_i);
      c_last_comes_back : cover (done_i && pop_i && 32'(count_i) == 1 && ret_i);
    end
  end

endmodule

`default_nettype wire
