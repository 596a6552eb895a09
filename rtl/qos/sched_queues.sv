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
  entry_t deq_head;
  logic   deq_last;

  always_comb begin
    deq_head = head_q[deq_qid_i];
    if (fwd_valid_q && fwd_qid_q == deq_qid_i) deq_head = link_rdata;
  end

  assign deq_last    = (deq_head.node == tail_q[deq_qid_i]);
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
  logic             enq_same_as_last_deq;

  assign enq_same_as_last_deq = deq_i && deq_last && enq_valid && (enq_qid == deq_qid_i);

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

  logic [NumQueues-1:0] head_load;  // the entering node becomes the queue's head
  assign head_load = enq_here & (empty_q | (deq_here & {NumQueues{deq_last}}));

  always_comb begin
    head_d      = head_q;
    tail_d      = tail_q;
    empty_d     = empty_q;
    fwd_valid_d = deq_i && !deq_last;
    fwd_qid_d   = (deq_i && !deq_last) ? deq_qid_i : fwd_qid_q;
    link_we     = enq_valid && !(empty_q[enq_qid] || enq_same_as_last_deq);
    link_waddr  = tail_q[enq_qid];
    link_re     = deq_i && !deq_last;
    link_raddr  = deq_head.node;

    // The link read by last cycle's dequeue becomes that queue's head register.
    if (fwd_valid_q) head_d[fwd_qid_q] = link_rdata;
    // A node entering an empty queue, or the queue whose last node leaves at once, is its
    // head; the queue whose last node leaves is empty unless one enters.
    empty_d = (empty_q | (deq_here & {NumQueues{deq_last}})) & ~enq_here;
    for (int unsigned q = 0; q < NumQueues; q++) begin
      if (head_load[q]) head_d[q] = enq_entry;
      if (enq_here[q])  tail_d[q] = enq_entry.node;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q      <= '0;
      tail_q      <= '0;
      empty_q     <= '1;
      fwd_valid_q <= 1'b0;
      fwd_qid_q   <= '0;
    end else begin
      head_q      <= head_d;
      tail_q      <= tail_d;
      empty_q     <= empty_d;
      fwd_valid_q <= fwd_valid_d;
      fwd_qid_q   <= fwd_qid_d;
    end
  end

  dp_ram #(
    .Depth(NumNodes),
    .Width(NodeW + 1)
  ) u_links (
    .clk_i  (clk_i),
    .we_i   (link_we),
    .waddr_i(link_waddr),
    .wdata_i(enq_entry),
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
