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
// back-to-back dequeues from one queue work at full rate. `remain_o` is `nonempty_o` less the
// queue whose last node this cycle's dequeue takes: the segmenter picks the next cycle's
// queue from it.
//
// The enqueue is written behind: each source's grant and request are registered as they
// come, and the granted node enters its queue's head, tail, link and empty flag in the next
// cycle, picked from those registers. The grant (decided late, by every source's request)
// then drives one gate before a register, not the 34 heads, the empty flags or the link
// RAM's write address. The dequeue side and `nonempty_o` read the queues as if the pending
// node were in (the effective head, tail and empty flags), so what the ports show is cycle
// for cycle what it was with the enqueue written at once (the proof and the lockstep test
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
  // the queues that still hold a node once this cycle's dequeue is done (this cycle's enqueue
  // not counted: it enters in the next cycle's `nonempty_o`)
  output logic [NumQueues-1:0]        remain_o,
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
  logic   [NumQueues-1:0]            empty_q, empty_d;  // (without the pending node)
  logic                              fwd_valid_q, fwd_valid_d;  // a link read is in flight
  logic   [QidW-1:0]                 fwd_qid_q, fwd_qid_d;      // ... for this queue
  entry_t                            link_rdata;                // the link read last cycle
  entry_t                            link_eff;                  // ... or the node it met
  // The pending enqueue (granted last cycle, entering head/tail/link this cycle): each
  // source's grant and request registered as they came (the grant is one gate after the
  // sources' valids; the request is the source's own), picked from the registers here.
  logic   [NumSrc-1:0]                 pg_q;    // source s was granted last cycle
  logic   [NumSrc-1:0][NumQueues-1:0]  phot_q;  // ... into queue q (0 when not granted)
  logic   [NumSrc-1:0][QidW-1:0]       pqid_q;
  entry_t [NumSrc-1:0]                 pent_q;
  logic                              pend;          // a node is pending
  logic   [QidW-1:0]                 pend_qid;      // ... for this queue
  entry_t                            pend_entry;
  logic   [NumQueues-1:0]            pend_here;     // one-hot of pend_qid, 0 if none
  logic   [NumQueues-1:0]            pend_first_q, pend_first_d;  // queue had no node before
  // Whether each queue's head register is its tail register (one node, while not empty),
  // kept as they change, so that a dequeue's "last node" is a pick of one bit by the queue
  // id instead of a compare after the pick of the head and the tail (`LastIsCompare`).
  logic   [NumQueues-1:0]            one_q, one_d;
  logic                              lfwd_q;        // the link read met the pending link write
  entry_t                            lfwd_entry_q;  // ... which wrote this entry

  // ---------------------------------------------------------------------------------------
  // Enqueue arbitration: fixed priority, lowest source index first. The granted source's
  // request is picked only from the pending registers (next cycle); `enq_valid`, `enq_qid`
  // and `enq_node` (this cycle's pick) serve the assertions.
  // ---------------------------------------------------------------------------------------
  logic             enq_valid;
  logic [QidW-1:0]  enq_qid;
  logic [NodeW-1:0] enq_node;

  always_comb begin
    enq_ready_o = '0;
    enq_valid   = 1'b0;
    enq_qid     = '0;
    enq_node    = '0;
    for (int s = NumSrc - 1; s >= 0; s--) begin
      if (enq_valid_i[s]) begin
        enq_valid = 1'b1;
        enq_qid   = enq_qid_i[s];
        enq_node  = enq_node_i[s];
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
  // Dequeue: effective head (forwarded link, pending node or head register) and tail
  // ---------------------------------------------------------------------------------------
  // The pending node is the head of its queue when the queue had none before it, and always
  // its tail.
  always_comb begin
    pend       = |pg_q;
    pend_qid   = '0;
    pend_entry = '0;
    pend_here  = '0;
    for (int unsigned s = 0; s < NumSrc; s++) begin
      pend_qid   = pend_qid | (pg_q[s] ? pqid_q[s] : '0);
      pend_entry = pend_entry | (pg_q[s] ? pent_q[s] : entry_t'('0));
      pend_here  = pend_here | phot_q[s];
    end
  end

  entry_t               deq_head;
  logic   [NodeW-1:0]   deq_tail;
  logic                 deq_last;
  logic   [NumQueues-1:0] pend_head;  // the pending node is queue q's head

  assign link_eff  = lfwd_q ? lfwd_entry_q : link_rdata;
  assign pend_head = pend_here & pend_first_q;

  always_comb begin
    deq_head = head_q[deq_qid_i];
    if (pend_head[deq_qid_i]) deq_head = pend_entry;
    if (fwd_valid_q && fwd_qid_q == deq_qid_i) deq_head = link_eff;
    deq_tail = pend_here[deq_qid_i] ? pend_entry.node : tail_q[deq_qid_i];
  end

  // The queue read by last cycle's dequeue has the link as its head. It is the queue's last
  // node when it is the tail that queue had after that dequeue (`fwd_tail_q`, picked then) and
  // no node has entered behind it since (the pending node, in this cycle's `pend_here`): the
  // link's compare needs no pick of the 34 tails behind the RAM's output.
  logic       fwd_last;
  logic [NodeW-1:0] fwd_tail_q;
  logic [NumQueues-1:0] last_vec;  // per queue: its (non-forwarded) head is its last node
  assign fwd_last = !pend_here[fwd_qid_q] && link_eff.node == fwd_tail_q;
  assign last_vec = (pend_here & pend_first_q) | (~pend_here & one_q);
  assign deq_last = (fwd_valid_q && fwd_qid_q == deq_qid_i) ? fwd_last : last_vec[deq_qid_i];
  assign deq_node_o  = deq_head.node;
  assign deq_first_o = deq_head.first;
  // Exact empty flags: the registers, less the pending node's queue.
  logic [NumQueues-1:0] empty_eff;
  assign empty_eff   = empty_q & ~pend_here;
  assign nonempty_o  = ~empty_eff;

  // ---------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------
  logic             link_we;
  logic [NodeW-1:0] link_waddr;
  logic             link_re;
  logic [NodeW-1:0] link_raddr;

  // Each queue's registers are updated from its own select lines: whether the pending node
  // enters it (each source's queue id decoded into its pending register, `phot_q`) and
  // whether the dequeue is from it. Written as vector operations: a simulation model
  // evaluates them as a few word operations, not as a loop over the queues.
  logic [NumSrc-1:0]    enq_grant;
  logic [NumQueues-1:0] deq_here;
  assign enq_grant = enq_valid_i & enq_ready_o;
  assign deq_here  = deq_i ? NumQueues'(1'b1) << deq_qid_i : '0;

  // Queues with no node at the end of this cycle but for this cycle's enqueue: the one
  // entering one of them is its head (an empty queue, or the one whose last node leaves now).
  // Each queue's own last-node flag is taken under its own dequeue select, not the dequeued
  // queue's picked one (`deq_last`): the pick that stage 1 makes from `remain_o` then has no
  // 34-way choice in front of it (`LastPerQueue` asserts it is `deq_last` where it counts).
  logic [NumQueues-1:0] last_here;  // per queue: its head is its last node
  always_comb begin
    last_here = last_vec;
    if (fwd_valid_q) last_here[fwd_qid_q] = fwd_last;
  end
  assign pend_first_d = empty_eff | (deq_here & last_here);
  assign remain_o     = ~pend_first_d;

  always_comb begin
    head_d      = head_q;
    tail_d      = tail_q;
    fwd_valid_d = deq_i && !deq_last;
    fwd_qid_d   = (deq_i && !deq_last) ? deq_qid_i : fwd_qid_q;
    // the pending node is linked behind its queue's tail unless it is the queue's head
    link_we     = |(pend_here & ~pend_first_q);
    link_waddr  = tail_q[pend_qid];
    link_re     = deq_i && !deq_last;
    link_raddr  = deq_head.node;

    // The link read by last cycle's dequeue becomes that queue's head register.
    if (fwd_valid_q) head_d[fwd_qid_q] = link_eff;
    // The pending node enters its queue: its tail, and its head if it had none.
    for (int unsigned q = 0; q < NumQueues; q++) begin
      if (pend_head[q]) head_d[q] = pend_entry;
      if (pend_here[q]) tail_d[q] = pend_entry.node;
    end
    // The pending node counts in the registers from the next cycle (in `empty_eff` in this
    // one); this cycle's enqueue is pending then.
    empty_d = pend_first_d;
    for (int unsigned q = 0; q < NumQueues; q++) one_d[q] = (head_d[q].node == tail_d[q]);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q       <= '0;
      tail_q       <= '0;
      empty_q      <= '1;
      one_q        <= '1;
      fwd_valid_q  <= 1'b0;
      fwd_qid_q    <= '0;
      pg_q         <= '0;
      phot_q       <= '0;
      pqid_q       <= '0;
      pent_q       <= '0;
      pend_first_q <= '0;
      lfwd_q       <= 1'b0;
      lfwd_entry_q <= '0;
      fwd_tail_q   <= '0;
    end else begin
      head_q       <= head_d;
      tail_q       <= tail_d;
      empty_q      <= empty_d;
      one_q        <= one_d;
      fwd_valid_q  <= fwd_valid_d;
      fwd_qid_q    <= fwd_qid_d;
      pg_q         <= enq_grant;
      for (int unsigned s = 0; s < NumSrc; s++) begin
        phot_q[s] <= enq_grant[s] ? NumQueues'(1'b1) << enq_qid_i[s] : '0;
        pqid_q[s] <= enq_qid_i[s];
        pent_q[s] <= '{first: enq_first_i[s], node: enq_node_i[s]};
      end
      pend_first_q <= pend_first_d;
      if (link_re) begin
        lfwd_q       <= link_we && (link_waddr == link_raddr);
        lfwd_entry_q <= pend_entry;
        fwd_tail_q   <= deq_tail;
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
    .wdata_i(pend_entry),
    .re_i   (link_re),
    .raddr_i(link_raddr),
    .rdata_o(link_rdata)
  );

  // ---------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------
  `NI_ASSERT(DeqNotEmpty, deq_i -> !empty_eff[deq_qid_i])
  `NI_ASSERT(DeqQidInRange, deq_i -> (32'(deq_qid_i) < NumQueues))
  `NI_ASSERT(EnqQidInRange, enq_valid -> (32'(enq_qid) < NumQueues))
  `NI_ASSERT_ONEHOT0(OneGrant, enq_ready_o & enq_valid_i)
  // The pending enqueue: one source's, its one-hot is its queue id; a queue whose link read
  // is in flight had two nodes or more when it was read, so the pending node is not its head.
  `NI_ASSERT_ONEHOT0(PendOneSource, pg_q)
  // The kept head-is-tail bits, and the dequeue's last node from them, are the compares.
  logic [NumQueues-1:0] one_cmp;
  always_comb begin
    for (int unsigned q = 0; q < NumQueues; q++) one_cmp[q] = (head_q[q].node == tail_q[q]);
  end
  `NI_ASSERT(OneIsCompare, one_q == one_cmp)
  `NI_ASSERT(LastIsCompare, deq_i -> deq_last == (deq_head.node == deq_tail))
  `NI_ASSERT(LastPerQueue, deq_i -> last_here[deq_qid_i] == deq_last)
  `NI_ASSERT(PendHereIsQid, pend_here == (pend ? NumQueues'(1'b1) << pend_qid : '0))
  `NI_ASSERT(FwdNotPendHead, fwd_valid_q -> !pend_head[fwd_qid_q])
  // The tail kept for the forwarded head's compare is its queue's tail register.
  `NI_ASSERT(FwdTailIsTail, fwd_valid_q -> fwd_tail_q == tail_q[fwd_qid_q])

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
      if (enq_valid) queued_q[enq_node] <= 1'b1;
    end
  end
  assign enq_node_queued = queued_q[enq_node];
  assign deq_node_queued = queued_q[deq_head.node];
  `NI_ASSERT(NoDoubleEnqueue,
          enq_valid -> (!enq_node_queued || (deq_i && deq_head.node == enq_node)))
  `NI_ASSERT(DeqNodeQueued, deq_i -> deq_node_queued)
`endif

endmodule

`default_nettype wire
