// SPDX-License-Identifier: Apache-2.0
// Multi-priority scheduling FIFO queues in one shared space (thesis 3.7).
//
// NumQueues FIFOs share NumNodes nodes; node n is transfer n, so a transfer is in at most
// one queue at a time. Each queue has head, tail and empty registers; the links live in a
// dual-port RAM (one port for enqueues, one for dequeues). Each link also carries the
// `first` flag of the node it points to (the thesis's extra head bit, section 3.9.1).
//
// Per cycle: one enqueue, granted among NumSrc sources by fixed priority (source 0 highest;
// the engine wires ACK handler, segmenter, AXI slave, remote read), and one dequeue from any
// queue. The dequeue output is combinational: `deq_node_o`/`deq_first_o` are the head of
// queue `deq_qid_i`. A dequeue reads the next link from the RAM; its result arrives one cycle
// later and is forwarded as the head when the same queue is dequeued again in that cycle, so
// back-to-back dequeues from one queue work at full rate.
//
// The enqueue is written behind: the granted node is held in a pending register for a cycle
// and enters its queue's head, tail and link registers in the next, so the grant (decided
// late, by every source's request) drives only that register and the empty flags, not the
// 34 heads or the link RAM's write address. The dequeue side reads the queues as if the
// pending node were in (the effective head and tail), so what the ports show is cycle for
// cycle what it was with the enqueue written at once (the proof and the lockstep test
// compare with that model). A dequeue that reads the link of the node the pending one is
// linked behind, in the cycle that link is written, takes the pending node instead of the
// RAM's old word.
`default_nettype none
`include "ni_assert.svh"

module sched_queues #(
  parameter int unsigned NumQueues = 34,
  parameter int unsigned NumNodes  = 2048,
  parameter int unsigned NumSrc    = 4,
  localparam int unsigned NodeW    = $clog2(NumNodes),
  localparam int unsigned QidW     = $clog2(NumQueues)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // enqueue sources (valid/ready), source 0 has the highest priority
  input  logic [NumSrc-1:0]           enq_valid_i,
  output logic [NumSrc-1:0]           enq_ready_o,
  input  logic [NumSrc-1:0][QidW-1:0] enq_qid_i,
  input  logic [NumSrc-1:0][NodeW-1:0] enq_node_i,
  input  logic [NumSrc-1:0]           enq_first_i,
  // dequeue
  output logic [NumQueues-1:0]        nonempty_o,
  input  logic                        deq_i,
  input  logic [QidW-1:0]             deq_qid_i,
  output logic [NodeW-1:0]            deq_node_o,
  output logic                        deq_first_o
);

  typedef struct packed {
    logic             first;
    logic [NodeW-1:0] node;
  } entry_t;

  // ---------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------
  entry_t [NumQueues-1:0]            head_q, head_d;
  logic   [NumQueues-1:0][NodeW-1:0] tail_q, tail_d;
  logic   [NumQueues-1:0]            empty_q, empty_d;
  logic                              fwd_valid_q, fwd_valid_d;  // a link read is in flight
  logic   [QidW-1:0]                 fwd_qid_q, fwd_qid_d;      // ... for this queue
  entry_t                            link_rdata;                // the link read last cycle
  entry_t                            link_eff;                  // ... or the node it met
  // The pending enqueue (granted last cycle, entering head/tail/link this cycle)
  logic                              pend_q;
  logic   [QidW-1:0]                 pend_qid_q;
  entry_t                            pend_entry_q;
  logic   [NumQueues-1:0]            pend_here_q;   // one-hot of pend_qid_q, 0 if none
  logic   [NumQueues-1:0]            pend_first_q, pend_first_d;  // queue had no node before
  logic                              lfwd_q;        // the link read met the pending link write
  entry_t                            lfwd_entry_q;  // ... which wrote this entry

  // ---------------------------------------------------------------------------------------
  // Enqueue arbitration: fixed priority, lowest source index first
  // ---------------------------------------------------------------------------------------
  logic             enq_valid;
  logic [QidW-1:0]  enq_qid;
  entry_t           enq_entry;

  always_comb begin
    enq_ready_o = '0;
    enq_valid   = 1'b0;
    enq_qid     = '0;
    enq_entry   = '0;
    for (int s = NumSrc - 1; s >= 0; s--) begin
      if (enq_valid_i[s]) begin
        enq_valid       = 1'b1;
        enq_qid         = enq_qid_i[s];
        enq_entry.node  = enq_node_i[s];
        enq_entry.first = enq_first_i[s];
      end
    end
    for (int s = 0; s < NumSrc; s++) begin
      enq_ready_o[s] = 1'b1;
      for (int h = 0; h < s; h++) begin
        if (enq_valid_i[h]) enq_ready_o[s] = 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Dequeue: effective head (forwarded link or head register)
  // ---------------------------------------------------------------------------------------
  // The pending node is the head of its queue when the queue had none before it, and always
  // its tail.
  entry_t               deq_head;
  logic   [NodeW-1:0]   deq_tail;
  logic                 deq_last;
  logic   [NumQueues-1:0] pend_head;  // the pending node is queue q's head

  assign link_eff  = lfwd_q ? lfwd_entry_q : link_rdata;
  assign pend_head = pend_here_q & pend_first_q;

  always_comb begin
    deq_head = head_q[deq_qid_i];
    if (pend_head[deq_qid_i]) deq_head = pend_entry_q;
    if (fwd_valid_q && fwd_qid_q == deq_qid_i) deq_head = link_eff;
    deq_tail = pend_here_q[deq_qid_i] ? pend_entry_q.node : tail_q[deq_qid_i];
  end

  assign deq_last    = (deq_head.node == deq_tail);
  assign deq_node_o  = deq_head.node;
  assign deq_first_o = deq_head.first;
  assign nonempty_o  = ~empty_q;

  // ---------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------
  logic             link_we;
  logic [NodeW-1:0] link_waddr;
  logic             link_re;
  logic [NodeW-1:0] link_raddr;

  // Each queue's registers are updated from its own select lines: whether this cycle's
  // enqueue is into it (every source's queue id decoded side by side with the grant, so
  // the decode does not wait for the grant and the id's mux) and whether the dequeue is
  // from it, instead of decoding the granted id and reading `empty_q` back through it
  // (`EnqHereIsGrant` keeps the decoded form). Written as vector operations: a simulation
  // model evaluates them as a few word operations, not as a loop over the queues.
  logic [NumSrc-1:0]    enq_grant;
  logic [NumQueues-1:0] enq_here, deq_here;
  always_comb begin
    enq_grant = enq_valid_i & enq_ready_o;
    enq_here  = '0;
    for (int unsigned s = 0; s < NumSrc; s++) begin
      enq_here = enq_here | (enq_grant[s] ? NumQueues'(1'b1) << enq_qid_i[s] : '0);
    end
    deq_here = deq_i ? NumQueues'(1'b1) << deq_qid_i : '0;
  end

  // Queues with no node at the end of this cycle but for this cycle's enqueue: the one
  // entering one of them is its head (an empty queue, or the one whose last node leaves now).
  assign pend_first_d = empty_q | (deq_here & {NumQueues{deq_last}});

  always_comb begin
    head_d      = head_q;
    tail_d      = tail_q;
    fwd_valid_d = deq_i && !deq_last;
    fwd_qid_d   = (deq_i && !deq_last) ? deq_qid_i : fwd_qid_q;
    // the pending node is linked behind its queue's tail unless it is the queue's head
    link_we     = |(pend_here_q & ~pend_first_q);
    link_waddr  = tail_q[pend_qid_q];
    link_re     = deq_i && !deq_last;
    link_raddr  = deq_head.node;

    // The link read by last cycle's dequeue becomes that queue's head register.
    if (fwd_valid_q) head_d[fwd_qid_q] = link_eff;
    // The pending node enters its queue: its tail, and its head if it had none.
    for (int unsigned q = 0; q < NumQueues; q++) begin
      if (pend_head[q])   head_d[q] = pend_entry_q;
      if (pend_here_q[q]) tail_d[q] = pend_entry_q.node;
    end
    // The empty flags are exact at once: the queue whose last node leaves is empty unless
    // one enters.
    empty_d = pend_first_d & ~enq_here;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q       <= '0;
      tail_q       <= '0;
      empty_q      <= '1;
      fwd_valid_q  <= 1'b0;
      fwd_qid_q    <= '0;
      pend_q       <= 1'b0;
      pend_qid_q   <= '0;
      pend_entry_q <= '0;
      pend_here_q  <= '0;
      pend_first_q <= '0;
      lfwd_q       <= 1'b0;
      lfwd_entry_q <= '0;
    end else begin
      head_q       <= head_d;
      tail_q       <= tail_d;
      empty_q      <= empty_d;
      fwd_valid_q  <= fwd_valid_d;
      fwd_qid_q    <= fwd_qid_d;
      pend_q       <= enq_valid;
      pend_qid_q   <= enq_qid;
      pend_entry_q <= enq_entry;
      pend_here_q  <= enq_here;
      pend_first_q <= pend_first_d;
      if (link_re) begin
        lfwd_q       <= link_we && (link_waddr == link_raddr);
        lfwd_entry_q <= pend_entry_q;
      end
    end
  end

  dp_ram #(
    .Depth(NumNodes),
    .Width(NodeW + 1)
  ) u_links (
    .clk_i  (clk_i),
    .we_i   (link_we),
    .waddr_i(link_waddr),
    .wdata_i(pend_entry_q),
    .re_i   (link_re),
    .raddr_i(link_raddr),
    .rdata_o(link_rdata)
  );

  // ---------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------
  `NI_ASSERT(DeqNotEmpty, deq_i -> !empty_q[deq_qid_i])
  `NI_ASSERT(DeqQidInRange, deq_i -> (32'(deq_qid_i) < NumQueues))
  `NI_ASSERT(EnqQidInRange, enq_valid -> (32'(enq_qid) < NumQueues))
  `NI_ASSERT_ONEHOT0(OneGrant, enq_ready_o & enq_valid_i)
  `NI_ASSERT(EnqHereIsGrant, enq_here == (enq_valid ? NumQueues'(1'b1) << enq_qid : '0) &&
                             deq_here == (deq_i ? NumQueues'(1'b1) << deq_qid_i : '0))
  // The pending enqueue: its one-hot is its queue id, and its queue counts it (not empty); a
  // queue whose link read is in flight had two nodes or more when it was read, so the
  // pending node is not its head.
  `NI_ASSERT(PendHereIsQid, pend_here_q == (pend_q ? NumQueues'(1'b1) << pend_qid_q : '0))
  `NI_ASSERT(PendQueueNotEmpty, pend_q -> !empty_q[pend_qid_q])
  `NI_ASSERT(FwdNotPendHead, fwd_valid_q -> !pend_head[fwd_qid_q])

`ifndef SYNTHESIS
  // Shadow membership: a node is never enqueued while it is already in some queue.
  // The assertions read the shadow through two 1-bit nets kept as variables (public_flat_rd
  // stops Verilator from inlining them): Verilator 5.006 emits C++ that does not compile
  // (undeclared `__Vilp`) when a concurrent assertion samples a packed vector as wide as
  // `queued_q` with NumNodes = 2048 (its copy becomes a loop; 1024 bits are still unrolled).
  logic [NumNodes-1:0] queued_q;
  logic                enq_node_queued /* verilator public_flat_rd */;
  logic                deq_node_queued /* verilator public_flat_rd */;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      queued_q <= '0;
    end else begin
      if (deq_i)     queued_q[deq_head.node]  <= 1'b0;
      if (enq_valid) queued_q[enq_entry.node] <= 1'b1;
    end
  end
  assign enq_node_queued = queued_q[enq_entry.node];
  assign deq_node_queued = queued_q[deq_head.node];
  `NI_ASSERT(NoDoubleEnqueue,
          enq_valid -> (!enq_node_queued || (deq_i && deq_head.node == enq_entry.node)))
  `NI_ASSERT(DeqNodeQueued, deq_i -> deq_node_queued)
`endif

endmodule

`default_nettype wire
