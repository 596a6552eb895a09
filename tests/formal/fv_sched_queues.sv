// SPDX-License-Identifier: Apache-2.0
// Formal harness of sched_queues: the DUT, its input contract, a shadow
// reference model (one list of (node, first) entries per queue, as in the lockstep test
// tests/prim/tb_sched_queues.cpp), and the invariants that tie the DUT's head/tail/empty
// registers, forwarding register and link RAM to the shadow.
//
// Shadow step at a rising edge (the lockstep model's): the dequeue first (the head of queue
// deq_qid_i leaves), then the enqueue of the granted source (lowest valid index) at the tail.
//
// Contract, assumed outside reset: a dequeue only of an in-range non-empty queue and the
// granted source's qid in range are sched_queues' own assertions DeqQidInRange, DeqNotEmpty
// and EnqQidInRange, made assumptions by sched_queues.sby (`chformal -assert2assume`); here:
// the granted node in range (it matters only when NumNodes is not a power of two) and a node
// enqueued only when it is in no queue, or is the node dequeued in the same cycle (the RTL
// checks this one against a simulation-only shadow). Non-granted sources present anything.
// Reset is asserted in the first cycle and may be asserted again at any time.
//
// Proven outside reset:
//   enq_ready_o exact (fixed priority), at most one grant (the RTL's OneGrant)
//   nonempty_o[q] == the shadow queue q is not empty                     (empty flags exact)
//   remain_o[q] == the same, less a queue whose one node the dequeue takes   (the next pick's)
//   deq_node_o / deq_first_o == the shadow head of queue deq_qid_i       (contents, in order)
//   `where`, a second shadow fed by the DUT's own outputs (a node joins the queue it is
//   enqueued to, and leaves when the DUT presents it on deq_node_o): a dequeued node is one
//   that is in that queue, and a queue the DUT calls empty holds no node    (no node lost,
//   none returned twice or from another queue)
//   every node is in at most one shadow list, exactly when `where` says it is queued
//                                                                        (no node in two queues)
//   invariants: the effective empty flags, the effective tail (tail_q or the pending node), the effective head
//   (head_q, the pending node, or the forwarded link) and every link between two queued
//   nodes (the RAM's, or the pending link write's) equal the shadow; the pending node is
//   its queue's last, the first when its queue had no other, and tail_q is the node before
//   it otherwise; the forwarding register names a non-empty queue.
`default_nettype none

module fv_sched_queues #(
  parameter int unsigned NumQueues = 3,
  parameter int unsigned NumNodes  = 4,
  parameter int unsigned NumSrc    = 2,
  localparam int unsigned NodeW    = $clog2(NumNodes),
  localparam int unsigned QidW     = $clog2(NumQueues),
  localparam int unsigned LenW     = $clog2(NumNodes + 1),
  localparam int unsigned EntW     = NodeW + 1  // {first, node}, as the DUT's entry_t
) (
  input logic                         clk_i,
  input logic                         rst_ni,
  input logic [NumSrc-1:0]            enq_valid_i,
  input logic [NumSrc-1:0][QidW-1:0]  enq_qid_i,
  input logic [NumSrc-1:0][NodeW-1:0] enq_node_i,
  input logic [NumSrc-1:0]            enq_first_i,
  input logic                         deq_i,
  input logic [QidW-1:0]              deq_qid_i
);

  logic [NumSrc-1:0]    enq_ready;
  logic [NumQueues-1:0] nonempty, remain;
  logic [NodeW-1:0]     deq_node;
  logic                 deq_first;

  sched_queues #(
    .NumQueues(NumQueues),
    .NumNodes (NumNodes),
    .NumSrc   (NumSrc)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .enq_valid_i(enq_valid_i),
    .enq_ready_o(enq_ready),
    .enq_qid_i  (enq_qid_i),
    .enq_node_i (enq_node_i),
    .enq_first_i(enq_first_i),
    .nonempty_o (nonempty),
    .remain_o   (remain),
    .deq_i      (deq_i),
    .deq_qid_i  (deq_qid_i),
    .deq_node_o (deq_node),
    .deq_first_o(deq_first)
  );

  // The DUT's state, by hierarchical reference.
  logic [NumQueues-1:0][EntW-1:0]  dut_head;
  logic [NumQueues-1:0][NodeW-1:0] dut_tail;
  logic [NumQueues-1:0]            dut_empty;
  logic                            dut_fwd_valid;
  logic [QidW-1:0]                 dut_fwd_qid;
  logic [EntW-1:0]                 dut_link_rdata;
  logic [NumNodes-1:0][EntW-1:0]   dut_link;
  logic                            dut_pend;
  logic [QidW-1:0]                 dut_pend_qid;
  logic [EntW-1:0]                 dut_pend_entry;
  logic [NumQueues-1:0]            dut_pend_here, dut_pend_head;
  logic                            dut_link_we;
  logic [NodeW-1:0]                dut_link_waddr;

  assign dut_head       = u_dut.head_q;
  assign dut_tail       = u_dut.tail_q;
  assign dut_empty      = u_dut.empty_eff;  // (the registers less the pending node)
  assign dut_fwd_valid  = u_dut.fwd_valid_q;
  assign dut_fwd_qid    = u_dut.fwd_qid_q;
  assign dut_link_rdata = u_dut.link_eff;  // the RAM's read, or the pending write it met
  assign dut_pend       = u_dut.pend;
  assign dut_pend_qid   = u_dut.pend_qid;
  assign dut_pend_entry = u_dut.pend_entry;
  assign dut_pend_here  = u_dut.pend_here;
  assign dut_pend_head  = u_dut.pend_head;
  assign dut_link_we    = u_dut.link_we;
  assign dut_link_waddr = u_dut.link_waddr;
  // A node's link: the RAM's word, or the pending node's link write of this cycle.
  for (genvar n = 0; n < NumNodes; n++) begin : g_link
    assign dut_link[n] = (dut_link_we && 32'(dut_link_waddr) == n) ? dut_pend_entry
                                                                   : u_dut.u_links.mem_q[n];
  end

  // ---------------------------------------------------------------------------------------
  // The granted enqueue (lowest valid source)
  // ---------------------------------------------------------------------------------------
  logic             enq;
  logic [QidW-1:0]  enq_qid;
  logic [EntW-1:0]  enq_entry;
  logic [NumSrc-1:0] want_ready;

  always_comb begin
    enq       = 1'b0;
    enq_qid   = '0;
    enq_entry = '0;
    for (int s = 0; s < NumSrc; s++) begin
      want_ready[s] = !enq;
      if (enq_valid_i[s] && !enq) begin
        enq       = 1'b1;
        enq_qid   = enq_qid_i[s];
        enq_entry = {enq_first_i[s], enq_node_i[s]};
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Shadow reference model: one list per queue
  // ---------------------------------------------------------------------------------------
  logic [NumQueues-1:0][NumNodes-1:0][EntW-1:0] ref_q, ref_d;
  logic [NumQueues-1:0][LenW-1:0]               len_q, len_d;
  // `where` (below): the nodes in a queue, and which queue
  logic [NumNodes-1:0]                          in_q, in_d;
  logic [NumNodes-1:0][QidW-1:0]                where_q, where_d;

  always_comb begin
    ref_d = ref_q;
    len_d = len_q;
    for (int unsigned q = 0; q < NumQueues; q++) begin
      if (deq_i && 32'(deq_qid_i) == q) begin
        for (int unsigned i = 0; i + 1 < NumNodes; i++) ref_d[q][i] = ref_q[q][i+1];
        len_d[q] = len_d[q] - 1'b1;
      end
      if (enq && 32'(enq_qid) == q) begin
        for (int unsigned i = 0; i < NumNodes; i++) begin
          if (32'(len_d[q]) == i) ref_d[q][i] = enq_entry;
        end
        len_d[q] = len_d[q] + 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ref_q <= '0;
      len_q <= '0;
    end else begin
      ref_q <= ref_d;
      len_q <= len_d;
    end
  end

  // Shadow-derived views. `listed[n]`: node n is in some list. No counting of entries here:
  // sums over the lists make the induction step a pigeonhole problem for the solver, so the
  // invariants below use pairwise distinctness, `listed` and one popcount instead.
  function automatic logic [NodeW-1:0] node_of(logic [EntW-1:0] e);
    return e[NodeW-1:0];
  endfunction

  logic [NumNodes-1:0]  listed;
  logic [NumQueues-1:0] ref_nonempty;
  logic [LenW+QidW:0]   total_len;
  logic [LenW-1:0]      queued_nodes;

  always_comb begin
    listed       = '0;
    total_len    = '0;
    queued_nodes = '0;
    for (int unsigned q = 0; q < NumQueues; q++) begin
      ref_nonempty[q] = len_q[q] != '0;
      total_len       = total_len + len_q[q];
      for (int unsigned i = 0; i < NumNodes; i++) begin
        if (i < 32'(len_q[q])) listed[node_of(ref_q[q][i])] = 1'b1;
      end
    end
    for (int unsigned n = 0; n < NumNodes; n++) queued_nodes = queued_nodes + in_q[n];
  end

  logic [EntW-1:0] deq_ref_head;
  assign deq_ref_head = ref_q[deq_qid_i][0];

  // ---------------------------------------------------------------------------------------
  // `where`: membership as seen through the DUT's outputs
  // ---------------------------------------------------------------------------------------
  always_comb begin
    in_d    = in_q;
    where_d = where_q;
    if (deq_i) in_d[deq_node] = 1'b0;
    if (enq) begin
      in_d[node_of(enq_entry)]    = 1'b1;
      where_d[node_of(enq_entry)] = enq_qid;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_q    <= '0;
      where_q <= '0;
    end else begin
      in_q    <= in_d;
      where_q <= where_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Environment
  // ---------------------------------------------------------------------------------------
  logic first_cycle_q = 1'b1;
  always_ff @(posedge clk_i) first_cycle_q <= 1'b0;

  always_comb begin
    if (first_cycle_q) m_reset : assume (!rst_ni);
    if (rst_ni) begin
      if (enq) begin
        m_enq_node     : assume (32'(node_of(enq_entry)) < NumNodes);
        m_enq_free     : assume (!listed[node_of(enq_entry)] ||
                                 (deq_i && node_of(enq_entry) == node_of(deq_ref_head)));
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Properties
  // ---------------------------------------------------------------------------------------
  // The effective head of queue q: the link read by last cycle's dequeue, the pending node
  // when its queue had no other, or the register; the effective tail: the pending node, or
  // the register.
  function automatic logic [EntW-1:0] eff_head(int unsigned q);
    if (dut_fwd_valid && 32'(dut_fwd_qid) == q) return dut_link_rdata;
    if (dut_pend_head[q]) return dut_pend_entry;
    return dut_head[q];
  endfunction
  function automatic logic [NodeW-1:0] eff_tail(int unsigned q);
    if (dut_pend_here[q]) return node_of(dut_pend_entry);
    return dut_tail[q];
  endfunction

  always_comb begin
    if (rst_ni) begin
      // ports
      a_ready     : assert (enq_ready == want_ready);
      a_nonempty  : assert (nonempty == ref_nonempty);
      a_remain    : assert (remain == (ref_nonempty & ~((deq_i && len_q[deq_qid_i] == LenW'(1)) ?
                                                        NumQueues'(1'b1) << deq_qid_i : '0)));
      if (32'(deq_qid_i) < NumQueues && len_q[deq_qid_i] != '0) begin
        a_deq_node  : assert (deq_node == node_of(deq_ref_head));
        a_deq_first : assert (deq_first == deq_ref_head[EntW-1]);
      end
      // `where`
      if (deq_i) a_deq_where : assert (in_q[deq_node] && where_q[deq_node] == deq_qid_i);
      for (int unsigned q = 0; q < NumQueues; q++) begin
        for (int unsigned n = 0; n < NumNodes; n++) begin
          if (!nonempty[q] && in_q[n]) assert (32'(where_q[n]) != q);  // a_none_lost
        end
      end
      // every node in at most one list and at most once, and listed where `where` has it
      for (int unsigned q = 0; q < NumQueues; q++) begin
        for (int unsigned i = 0; i < NumNodes; i++) begin
          for (int unsigned r = q; r < NumQueues; r++) begin
            for (int unsigned j = (r == q) ? i + 1 : 0; j < NumNodes; j++) begin
              if (i < 32'(len_q[q]) && j < 32'(len_q[r])) begin
                assert (node_of(ref_q[q][i]) != node_of(ref_q[r][j]));  // a_one_queue
              end
            end
          end
        end
      end
      a_listed : assert (listed == in_q);
      for (int unsigned n = 0; n < NumNodes; n++) begin
        if (in_q[n]) assert (32'(where_q[n]) < NumQueues);
      end
      a_total : assert (32'(total_len) == 32'(queued_nodes));
      // invariants of the implementation
      for (int unsigned q = 0; q < NumQueues; q++) begin
        assert (dut_empty[q] == (len_q[q] == '0));                      // i_empty
        assert (32'(len_q[q]) <= NumNodes);
        if (len_q[q] != '0) begin
          assert (eff_head(q) == ref_q[q][0]);                          // i_head
          for (int unsigned i = 0; i < NumNodes; i++) begin
            if (i + 1 == 32'(len_q[q])) assert (eff_tail(q) == node_of(ref_q[q][i]));  // i_tail
            if (i + 1 < 32'(len_q[q])) begin
              assert (dut_link[node_of(ref_q[q][i])] == ref_q[q][i+1]);  // i_link
            end
            // `where` puts every listed node in its list's queue
            if (i < 32'(len_q[q])) assert (32'(where_q[node_of(ref_q[q][i])]) == q);
          end
        end
      end
      if (dut_fwd_valid) begin
        a_fwd_qid : assert (32'(dut_fwd_qid) < NumQueues && len_q[dut_fwd_qid] != '0);
      end
      // the pending node: its queue's last entry, its first when alone, and the register
      // tail the node before it otherwise (the link write's address)
      if (dut_pend) begin
        i_pend_qid : assert (32'(dut_pend_qid) < NumQueues && len_q[dut_pend_qid] != '0);
        for (int unsigned i = 0; i < NumNodes; i++) begin
          if (i + 1 == 32'(len_q[dut_pend_qid])) begin
            assert (ref_q[dut_pend_qid][i] == dut_pend_entry);              // i_pend_last
          end
          if (i + 2 == 32'(len_q[dut_pend_qid])) begin
            assert (!dut_pend_head[dut_pend_qid] &&
                    dut_tail[dut_pend_qid] == node_of(ref_q[dut_pend_qid][i]));  // i_pend_link
          end
        end
        if (len_q[dut_pend_qid] == LenW'(1)) assert (dut_pend_head[dut_pend_qid]);  // i_pend_first
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Reachability of the hazards (the lockstep test's coverage, and more)
  // ---------------------------------------------------------------------------------------
  // fwd_hit: a back-to-back dequeue whose head is the link forwarded from the RAM.
  logic fwd_hit, fwd_hit_q, enq_same, deq_one, reenq;
  assign fwd_hit  = deq_i && dut_fwd_valid && dut_fwd_qid == deq_qid_i;
  assign enq_same = deq_i && enq && enq_qid == deq_qid_i;
  assign deq_one  = deq_i && 32'(len_q[deq_qid_i]) == 1;
  assign reenq    = deq_i && enq && node_of(enq_entry) == node_of(deq_ref_head);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fwd_hit_q <= 1'b0;
    else         fwd_hit_q <= fwd_hit;
  end

  always_comb begin
    if (rst_ni) begin
      c_b2b               : cover (fwd_hit);
      c_b2b_three         : cover (fwd_hit && fwd_hit_q);
      c_b2b_enq_same      : cover (fwd_hit && enq_same && !deq_one);
      c_last_and_enq      : cover (deq_one && enq_same && !fwd_hit);
      c_b2b_last_and_enq  : cover (fwd_hit && deq_one && enq_same);
      c_reenq_tail        : cover (reenq && enq_same && !deq_one);
      c_reenq_last_itself : cover (reenq && enq_same && deq_one);
      c_reenq_other_queue : cover (reenq && !enq_same);
      c_empty_enq_other   : cover (deq_i && enq && len_q[enq_qid] == '0 && enq_qid != deq_qid_i);
      c_contention        : cover (enq && $countones(enq_valid_i) >= 2);
      c_pend_head_deq     : cover (deq_i && dut_pend_head[deq_qid_i]);
      c_pend_tail_deq     : cover (deq_i && dut_pend_here[deq_qid_i] && !dut_pend_head[deq_qid_i]);
      c_link_meet         : cover (fwd_hit && u_dut.lfwd_q);
      c_all_queued        : cover (32'(total_len) == NumNodes);
      c_all_in_one_queue  : cover (32'(len_q[NumQueues-1]) == NumNodes);
    end
  end

endmodule

`default_nettype wire
