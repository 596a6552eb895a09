// SPDX-License-Identifier: Apache-2.0
// Transfer Segmenter (thesis 3.9, docs/design.md section 6): the thesis's three stages, its
// second split in two.
//
// Stage 1 dequeues the head of the scheduling queue it picked the cycle before (the
// highest-priority queue that is eligible once that cycle's dequeue is done, a register) and
// reads the transfer's descriptor (both Transfer Table banks), its segmenter metadata and the
// segmenter's copy of its ACK metadata. It dequeues whenever its one-entry skid is empty (a
// register), not when stage 2a is free: a node dequeued while stage 2a holds waits in the
// skid, its ACK metadata kept current there, and enters stage 2a when 2a is free.
// Stage 2a plans: issue the next block (or the inline packet), make a control packet,
// re-enqueue, park, or finish. Stage 2b takes the IDs and the seq, checks the stalls and
// applies the plan; first blocks leave from stage 2b directly (stage-3 bypass). 2a's node
// moves into 2b when 2b is free, so 2a holds only while 2b holds.
// Stage 3 computes the addresses of blocks k >= 1 and holds a block while `blk_ready_i` is
// low.
// Re-issues (docs/design.md section 8.1) take stage 1 ahead of the queues: stage 1 pops the
// oldest re-issue request instead of dequeuing, reads its transfer's descriptor and metadata,
// and stage 2 re-issues the block (same TID, new seq, `retx` set) unless the request has
// gone stale (the block resolved first, or the TID now holds another block).
`default_nettype none
`include "ni_assert.svh"

module transfer_segmenter
  import ni_pkg::*;
#(
  parameter int unsigned IntraPrios     = 8,
  parameter int unsigned MaxOutstanding = 2,
  localparam int unsigned NumQueues     = 2 + 4 * IntraPrios,
  localparam int unsigned TidCntW       = $clog2(TidOnlyIds + 1),
  localparam int unsigned Fid1CntW      = $clog2(Fid1Count + 1),
  localparam int unsigned Fid4CntW      = $clog2(Fid4Count + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // this node's id (ICD 16: the local destination of a read request; 0 in qos_engine alone)
  input  node_t                node_id_i,
  // scheduling queues: dequeue side and the segmenter's enqueue source (`q_remain_i`: the
  // queues that hold a node once this cycle's dequeue is done, this cycle's enqueue not
  // counted; `q_nonempty_i` only for the assertions)
  input  logic [NumQueues-1:0] q_nonempty_i,
  input  logic [NumQueues-1:0] q_remain_i,
  output logic                 deq_o,
  output qid_t                 deq_qid_o,
  input  xfer_t                deq_node_i,
  input  logic                 deq_first_i,
  // re-issue requests (FIFO head) and the pending flags
  input  logic                 rq_valid_i,
  input  rq_t                  rq_i,
  output logic                 rq_pop_o,
  input  logic [NumTids-1:0]   retx_pend_i,    // as stored; `rp_clr_*`: the handler's
  input  logic                 rp_clr_i,       // registered clear, not yet in it
  input  tid_t                 rp_clr_tid_i,
  input  logic                 rp_set_i,       // the handler sets a flag (it pushes a request)
  input  tid_t                 rp_set_tid_i,
  output logic                 retx_o,         // a re-issue takes its new seq
  output tid_t                 retx_tid_o,
  output logic                 ptt_we_left_o,  // the block written to the PTT leaves at once
  output logic                 enq_valid_o,
  input  logic                 enq_ready_i,
  output qid_t                 enq_qid_o,
  output xfer_t                enq_node_o,
  // Transfer Table read port (row = xfer >> 1 of both banks)
  output logic                 tt_re_o,
  output logic [XferW-2:0]     tt_row_o,
  input  line_t                tt_even_i,
  input  line_t                tt_odd_i,
  // notification address and tag of the read channels' transfers (ICD 16; read with the
  // Transfer Table at the read channel's index {page, channel[5:0]})
  output logic [WchW-1:0]      rdn_raddr_o,
  input  logic [127:0]         rdn_i,
  // segmenter metadata
  output logic                 segmd_re_o,
  output xfer_t                segmd_raddr_o,
  input  seg_md_t              segmd_rdata_i,
  output logic                 segmd_we_o,
  output xfer_t                segmd_waddr_o,
  output seg_md_t              segmd_wdata_o,
  // the segmenter's copy of the ACK metadata, and the handler's writes to it (forwarding)
  output logic                 ackmd_re_o,
  output xfer_t                ackmd_raddr_o,
  input  ack_md_t              ackmd_rdata_i,
  input  logic                 mh_ackmd_we_i,
  input  xfer_t                mh_ackmd_waddr_i,
  input  ack_md_t              mh_ackmd_wdata_i,
  // the handler resolves a block of transfer `mh_res_xfer_i` in this cycle (a park decided
  // without it asks the handler to re-check the transfer)
  input  logic                 mh_res_i,
  input  xfer_t                mh_res_xfer_i,
  // park table (read by the Message Handler), and the re-check of a transfer parked on a
  // plan that missed a resolve of one of its blocks (`park_rc_e_o`: its entry's fields)
  output logic                 park_we_o,
  output xfer_t                park_waddr_o,
  output park_md_t             park_wdata_o,
  output logic                 park_rc_o,
  output ptt_t                 park_rc_e_o,
  // ID FIFOs
  input  tid_t                 tid_head_i,
  input  logic [TidCntW-1:0]   tid_count_i,
  output logic                 tid_pop_o,
  input  fid_t                 fid1_head_i,
  input  logic [Fid1CntW-1:0]  fid1_count_i,
  output logic                 fid1_pop_o,
  input  fid_t                 fid4_head_i,
  input  logic [Fid4CntW-1:0]  fid4_count_i,
  output logic                 fid4_pop_o,
  // Pending Transactions Table (the valid bits only for the assertions: `tid_busy` comes from
  // the transfer's toggles, TidBusyIsPtt)
  input  logic [NumTids-1:0]   ptt_valid_i,    // as stored; `ptt_set_*`: the handler's
  input  logic                 ptt_set_i,      // registered set, not yet in it
  input  tid_t                 ptt_set_tid_i,
  input  logic                 ptt_clr_i,      // the handler invalidates an entry this cycle
  input  tid_t                 ptt_clr_tid_i,
  output logic                 ptt_we_o,
  output tid_t                 ptt_waddr_o,
  output ptt_t                 ptt_wdata_o,
  // finish events to the Message Handler
  output logic                 fin_push_o,
  output fin_t                 fin_data_o,
  input  logic                 fin_full_i,
  // the AXI slave's enqueue has been refused for AxiMaxWait cycles: do not re-enqueue now
  input  logic                 axi_starving_i,
  // packet queue
  output logic                 pkt_we_o,
  output pkt_body_t            pkt_body_o,
  input  logic                 pkt_full_i,
  // block descriptor port (Transaction Table write)
  output logic                 blk_valid_o,
  input  logic                 blk_ready_i,
  output tid_t                 blk_tid_o,
  output blk_desc_t            blk_desc_o,
  // statistics
  output logic                 stat_blk_o,
  output logic                 stat_inline_o,
  output logic                 stat_ctrl_o,
  output logic                 stat_retx_o,
  // trace (qos_engine's trace port): stage 2's node, and whether it fires or holds
  output logic                 trace_s2_fire_o,
  output logic                 trace_s2_hold_o,
  output xfer_t                trace_s2_node_o,
  output logic                 trace_retx_pop_o,
  output logic                 trace_s2_retx_o
);

  localparam int unsigned L = IntraPrios;

  function automatic logic is_1x_no(qid_t q);
    return (32'(q) >= 2 + L) && (32'(q) < 2 + 2 * L);
  endfunction

  function automatic logic is_4x_no(qid_t q);
    return (32'(q) >= 2 + 3 * L) && (32'(q) < 2 + 4 * L);
  endfunction

  // =======================================================================================
  // Stage 2 registers (declared first: stage 1 looks at them)
  // =======================================================================================
  logic    s2_valid_q;
  xfer_t   s2_node_q;
  logic    s2_first_q;
  qid_t    s2_qid_q;
  logic    s2_acknew_q; // first cycle of a dequeued node, straight from stage 1: the ACK-
                        // metadata RAM's output is its own
  ack_md_t s2_ack_q;    // ACK metadata, kept current while stage 2 holds
  logic    s2_fire;
  logic    s2_retx_q;   // stage 2 holds a re-issue request
  rq_t     s2_rq_q;
  logic    s2_rnew_q;   // first cycle of the request in stage 2
  logic    s2_rok_q;    // its seq still names the entry
  logic    s2_mdnew_q;  // first cycle of any node in stage 2: the Transfer Table's, the
                        // metadata's and the seq copy's RAM outputs are its own
  line_t   s2_line0_q;  // stage 2's words after its first cycle (stage 1 may read the RAMs
  logic [127:0] s2_w45_q; // for the skid meanwhile)
  seg_md_t s2_md_q;

  // Stage 2b: stage 2a's plan and the words its effects need (see below).
  typedef struct packed {
    xfer_t        node;
    logic         first;
    qid_t         qid;
    logic         retx;
    rq_t          rq;
    logic         is_ctrl;
    logic         act_ctrl;
    logic         act_issue;
    logic         rx_live;
    logic         err;
    logic         is_last;
    logic         k_inline;
    logic         k_cm;
    logic         k_read;
    logic         mem_notify;
    logic         direct_ctrl;
    logic         need_fin;
    logic         need_enq;
    logic         parks;
    park_e        park_reason;
    logic         park_tog;
    cnt_t         k;
    cnt_t         total;
    cnt_t         res_base;
    logic         err_base;
    tid_tog_t     iss_base;
    logic [3:0]   slot;
    qid_t         own_qid;
    fid_t         fid_own;
    ctrl_word_t   ctrl;
    seg_info_t    si;
    logic [63:0]  w0;
    logic [63:0]  w1;
    logic [63:0]  w4;
    logic [63:0]  w5;
    seg_md_t      md;
  } b_t;

  logic b_valid_q;
  b_t   b_q, b_in;
  logic b_since_q;   // a block of its transfer resolved since 2a's view
  logic b_fire;

  // The skid: one node (or re-issue request) dequeued while stage 2 held. Its Transfer Table,
  // metadata and seq-copy words stay in the RAMs' outputs (stage 1 reads nothing while the skid
  // is full); its ACK metadata is kept current with the handler's writes, as stage 2's is.
  logic    sk_valid_q;
  xfer_t   sk_node_q;
  logic    sk_first_q;
  qid_t    sk_qid_q;
  logic    sk_retx_q;
  rq_t     sk_rq_q;
  logic    sk_new_q;    // first cycle of a dequeued node in the skid: the ACK RAM's output
  ack_md_t sk_ack_q;
  logic    s2_take;     // stage 2 is free at the end of the cycle (empty, or fires)

  // The handler's ACK-metadata write of the previous cycle (the RAM read in stage 1 did not
  // see it).
  logic    mhp_we_q;
  xfer_t   mhp_waddr_q;
  ack_md_t mhp_wdata_q;
  logic    mhp_hit_q;   // it was of the node stage 1 dequeued (compared in that cycle)

  // =======================================================================================
  // Stage 1: queue selection, a cycle ahead of the dequeue
  // =======================================================================================
  // The pick for the next cycle, from this cycle's registers: the queues that keep a node
  // after this cycle's dequeue (a queue whose last node leaves now is not picked; a node
  // enqueued now is picked from the cycle after), and each ID FIFO's count against the IDs
  // that stages 2b and 2a, the skid and this cycle's dequeue may still take from it. Those are
  // all the nodes that can hold a reservation in the next cycle, and the count loses only what
  // stage 2b pops, which the node popping releases: the picked queue is still eligible when it is
  // dequeued (`PickStillEligible`).
  logic [NumQueues-1:0] eligible;
  logic                 tid_ok, fid1_ok, fid4_ok;
  logic [2:0]           res_tid, res_fid1, res_fid4;
  qid_t                 pick, pick_q;
  logic                 any_eligible, pick_valid_q;

  always_comb begin
    res_tid  = 3'(b_valid_q && b_q.qid == qid_t'(QTid)) +
               3'(s2_valid_q && s2_qid_q == qid_t'(QTid)) +
               3'(sk_valid_q && sk_qid_q == qid_t'(QTid)) +
               3'(deq_o && pick_q == qid_t'(QTid));
    res_fid1 = 3'(b_valid_q && is_1x_no(b_q.qid)) +
               3'(s2_valid_q && is_1x_no(s2_qid_q)) + 3'(sk_valid_q && is_1x_no(sk_qid_q)) +
               3'(deq_o && is_1x_no(pick_q));
    res_fid4 = 3'(b_valid_q && is_4x_no(b_q.qid)) +
               3'(s2_valid_q && is_4x_no(s2_qid_q)) + 3'(sk_valid_q && is_4x_no(sk_qid_q)) +
               3'(deq_o && is_4x_no(pick_q));
  end
  assign tid_ok   = tid_count_i  > TidCntW'(res_tid);
  assign fid1_ok  = fid1_count_i > Fid1CntW'(res_fid1);
  assign fid4_ok  = fid4_count_i > Fid4CntW'(res_fid4);

  always_comb begin
    for (int q = 0; q < NumQueues; q++) begin
      if (q == QTid)             eligible[q] = q_remain_i[q] && tid_ok;
      else if (is_1x_no(qid_t'(q))) eligible[q] = q_remain_i[q] && fid1_ok;
      else if (is_4x_no(qid_t'(q))) eligible[q] = q_remain_i[q] && fid4_ok;
      else                       eligible[q] = q_remain_i[q];
    end
  end

  // The highest-priority (lowest-numbered) eligible queue, by a balanced tree.
  logic [$clog2(NumQueues)-1:0] pick_idx;
  first_set #(.Width(NumQueues)) u_pick (
    .in_i (eligible),
    .any_o(any_eligible),
    .idx_o(pick_idx)
  );
  assign pick = qid_t'(pick_idx);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pick_valid_q <= 1'b0;
      pick_q       <= '0;
    end else begin
      pick_valid_q <= any_eligible;
      pick_q       <= pick;
    end
  end

  // A re-issue request goes first; stage 1 then does not dequeue. Either needs the skid empty
  // (a register: stage 2's decision does not reach the queues, the re-issue FIFO or the RAMs'
  // reads). The ID reservations above are stage 2's: while the skid is full nothing dequeues.
  logic  retx_pop;
  xfer_t s1_node;

  assign retx_pop      = rq_valid_i && !sk_valid_q;
  assign rq_pop_o      = retx_pop;
  assign deq_o         = pick_valid_q && !sk_valid_q && !rq_valid_i;
  assign deq_qid_o     = pick_q;
  assign s1_node       = rq_valid_i ? rq_i.e.xfer : deq_node_i;
  assign tt_re_o       = deq_o || retx_pop;
  assign tt_row_o      = s1_node[XferW-1:1];
  assign rdn_raddr_o   = {s1_node[XferW-1:ChW], s1_node[5:0]};
  assign segmd_re_o    = deq_o || retx_pop;
  assign segmd_raddr_o = s1_node;
  assign ackmd_re_o    = deq_o;
  assign ackmd_raddr_o = deq_node_i;

  assign trace_retx_pop_o = retx_pop;

  // =======================================================================================
  // Stage 2: decode
  // =======================================================================================
  // A node's ACK metadata as it was at the end of the cycle before: the RAM's word read for it
  // (with the handler's write of the cycle of that read, which the read-first RAM missed) in
  // its first cycle, else the register that has kept it current.
  // A fresh node is the one stage 1 dequeued in the cycle before, so whether that write was
  // its own was compared then (`MhpHitAhead`).
  function automatic ack_md_t ack_held(logic fresh, ack_md_t kept, ack_md_t ram, logic prev_hit,
                                       ack_md_t prev_wdata);
    if (!fresh) return kept;
    return prev_hit ? prev_wdata : ram;
  endfunction

  ack_md_t ack_base, ack_eff, sk_ack_base, sk_ack_eff;
  assign ack_base    = ack_held(s2_acknew_q, s2_ack_q, ackmd_rdata_i, mhp_hit_q, mhp_wdata_q);
  assign sk_ack_base = ack_held(sk_new_q, sk_ack_q, ackmd_rdata_i, mhp_hit_q, mhp_wdata_q);
  // ... and with the handler's write of this cycle (kept for the next cycle; the skid's node
  // is kept current the same way as stage 2's)
  assign ack_eff    = (mh_ackmd_we_i && mh_ackmd_waddr_i == s2_node_q) ? mh_ackmd_wdata_i :
                                                                          ack_base;
  assign sk_ack_eff = (mh_ackmd_we_i && mh_ackmd_waddr_i == sk_node_q) ? mh_ackmd_wdata_i :
                                                                          sk_ack_base;

  line_t       line0, line1;
  logic [63:0] w0, w1, w2, w4, w5;
  ctrl_word_t  ctrl;
  seg_info_t   si;
  seg_md_t     md;
  logic        k_inline, k_cm;
  logic        k_read;      // a read transfer (ICD 16): its blocks leave as read requests
  cnt_t        total, k, res_base, inflight;
  logic        err_base, err;
  logic        is_ctrl, is_last;
  qid_t        own_qid;

  // In its first cycle stage 2 reads its words from the RAMs' outputs, afterwards from its
  // copies (the RAMs may have been read for the skid meanwhile).
  assign line0    = !s2_mdnew_q ? s2_line0_q : s2_node_q[0] ? tt_odd_i : tt_even_i;
  // A long descriptor's line 1 is the odd line of its row; a read channel's transfer (written
  // by the read-channel allocator, ICD 16) keeps its notification beside the table.
  assign line1    = !s2_mdnew_q ? {128'd0, s2_w45_q} :
                    s2_node_q[6] ? {128'd0, rdn_i} : tt_odd_i;
  assign w0       = line0[63:0];
  assign w1       = line0[127:64];
  assign w2       = line0[191:128];
  assign ctrl     = ctrl_word_t'(line0[255:192]);
  assign w4       = line1[63:0];
  assign w5       = line1[127:64];
  assign si       = seg_info_t'(w2);

  // Line 1 holds w4..w7: only w4/w5 matter here (w6 is reserved, w7 only carries `last`).
  // The control word's reserved/last/long bits were checked by the AXI slave.
  logic unused_desc;
  assign unused_desc = ^{line1[255:128], ctrl.last, ctrl.rsvd, ctrl.is_long, si.rsvd};
  // Stage 2's metadata write of the previous cycle (a re-issue and its transfer's own node
  // can follow each other through stage 2) is forwarded: `md`. A transfer's own visit never
  // follows its own visit (its re-enqueue is dequeued a cycle later at the earliest, when the
  // RAM has the write), and a re-issue writes only `last_seq` of what it read: the fields an
  // own visit decides on (`issued`, `fid`, `res_base`, `err_base`, `iss_tog`) are the RAM's
  // word as it is, `md_own`, without the forward's compare in front of the decision
  // (`MdOwnCurrent`). A re-issue's write-back and the packet's `last_*` take `md`.
  logic    segw_we_q;
  xfer_t   segw_waddr_q;
  seg_md_t segw_wdata_q;
  seg_md_t md_own;

  assign md       = !s2_mdnew_q ? s2_md_q :
                    (segw_we_q && segw_waddr_q == s2_node_q) ? segw_wdata_q : segmd_rdata_i;
  assign md_own   = s2_mdnew_q ? segmd_rdata_i : s2_md_q;
  logic unused_md_own;  // (an own visit's last_* and ctrl_sent come from `md`)
  assign unused_md_own = ^{md_own.last_tid, md_own.last_seq, md_own.ctrl_sent};
  assign k_inline = (ctrl.kind == KindInline);
  assign k_cm     = (ctrl.kind == Kind1x) || (ctrl.kind == Kind4x);
  assign k_read   = !k_inline && ctrl.read;
  assign total    = k_inline ? cnt_t'(1) : si.total;
  assign k        = s2_retx_q ? s2_rq_q.e.blk : (s2_first_q ? '0 : md_own.issued);
  // Stage 2a plans on its transfer's ACK metadata without the handler's write of this cycle
  // (`ack_base`; docs/design.md section 20, "The decision's split, built"). A resolve the plan
  // does not see can only make it park where it would have gone on, which the handler
  // re-checks (`park_rc_o`), or issue a block planned before an error (the transfer still
  // ends ERROR once its blocks in flight have resolved).
  assign res_base = s2_first_q ? ack_base.resolved : md_own.res_base;
  assign err_base = s2_first_q ? ack_base.err_tog : md_own.err_base;
  assign inflight = k - (ack_base.resolved - res_base);  // (the whole count: for the assertions)
  // (a first visit takes its bases from the ACK metadata: no error, nothing in flight)
  assign err      = !s2_first_q && (ack_base.err_tog != md_own.err_base);
  assign is_ctrl  = !s2_retx_q && (s2_qid_q == qid_t'(QCtrl));
  // (k's three sources compared each on its own, ahead of k's multiplexer)
  assign is_last  = s2_retx_q  ? sum_is(s2_rq_q.e.blk, cnt_t'(1), total) :
                    s2_first_q ? (total == cnt_t'(1)) : sum_is(md_own.issued, cnt_t'(1), total);

  // Blocks in flight are at most MaxOutstanding (at most 15, `InflightBounded`), so the low 5
  // bits of the count are all of it: a 5-bit sum of three terms where the 18-bit count was
  // two subtractions in a row (`InflightFits`). Only a transfer's own visit (not a re-issue)
  // looks at it.
  // A first visit has none in flight, and the metadata's two terms are added beside the ACK
  // metadata's multiplexer.
  localparam int unsigned InflW = 5;
  logic [InflW-1:0] infl, infl_own;
  logic             infl_zero;
  assign infl_own  = md_own.issued[InflW-1:0] + md_own.res_base[InflW-1:0];
  assign infl      = s2_first_q ? '0 : infl_own - ack_base.resolved[InflW-1:0];
  assign infl_zero = s2_first_q || (infl_own == ack_base.resolved[InflW-1:0]);
  assign own_qid  = queue_of(ctrl.kind, ctrl.prio, 1'b1, IntraPrios);

  // ---- IDs of the block ------------------------------------------------------------------
  // A block's TID and FID are taken in stage 2b, where they are popped (two nodes one behind
  // the other never see the same head). Stage 2a needs only whether the TID is busy.
  logic tid_busy;

  // A congestion-managed TID is busy while its previous block is unresolved (the thesis's
  // tid_bitmap); a resolve in this very cycle frees it. The PTT's valid bit of the block's
  // TID says so, but reaching it takes the TID (from the metadata) and a 1,024-way pick: the
  // transfer's own toggles say the same from the metadata words stage 2 already has, one
  // issue toggle and one resolve toggle per TID slot (`TidBusyIsPtt`; docs/design.md
  // section 20). A first visit takes its issue toggles from the resolve toggles: its
  // transfer's FID is fresh, its TIDs free.
  logic [3:0] slot;
  tid_tog_t   iss_base;
  assign slot     = tid_slot(ctrl.kind, k[3:0]);
  assign iss_base = s2_first_q ? ack_base.res_tog : md_own.iss_tog;
  // (only an own visit's TID can be busy: its slot is taken from the metadata's count, not k)
  tid_tog_t   tog_diff;
  assign tog_diff = md_own.iss_tog ^ ack_base.res_tog;
  assign tid_busy = k_cm && !s2_first_q && tog_diff[tid_slot(ctrl.kind, md_own.issued[3:0])];

  // ---- what stage 2a plans -----------------------------------------------------------------
  logic act_ctrl, act_err, act_issue;
  logic rx_live;      // the re-issue request in stage 2a is still current
  logic rx_ok;
  seq_t seqc, seqb_fwd_q;
  logic seqb_fwd_we_q;
  logic rok_new_q;    // the seq check of the request that entered stage 2 (first cycle)
  logic mem_notify;
  logic direct_ctrl;   // control packet made together with the last block
  logic need_fin, need_enq, parks;
  park_e park_reason;

  // The request is current when the entry still has its re-issue pending (no resolve now)
  // and still holds the block the request was made for (same seq as then). Only stage 2b
  // writes the PTT, so the seq check of the first cycle holds while the request waits in
  // 2a (2b holds meanwhile). 2b fires in the request's last cycle in 2a at most, and never
  // writes a live request's entry then (`LiveMeetsNoWrite`: a write of that entry is a
  // fresh issue, after a resolve that cleared the request's flag, or an older request for it,
  // which cannot both be pending).
  // The check is made a cycle ahead for the request that enters stage 2 next (the skid's,
  // else the FIFO head's), in the copy read asynchronously (distributed RAM), and registered
  // (`rok_new_q`); the PTT write of that cycle, which ends late (stage 2b firing), is
  // compared in the next (`seqb_fwd_*`). While a request waits in the skid stage 2b holds and
  // writes nothing, so the copy it is checked against is the one of its pop.
  tid_t rq_next_tid;
  seq_t rq_next_seq;
  assign rq_next_tid = sk_valid_q ? sk_rq_q.tid : rq_i.tid;
  assign rq_next_seq = sk_valid_q ? sk_rq_q.e.seq : rq_i.e.seq;

  dp_ram #(
    .Depth    (NumTids),
    .Width    (SeqW),
    .AsyncRead(1'b1)
  ) u_seq_copy (
    .clk_i  (clk_i),
    .we_i   (ptt_we_o),
    .waddr_i(ptt_waddr_o),
    .wdata_i(ptt_wdata_o.seq),
    .re_i   (1'b1),
    .raddr_i(rq_next_tid),
    .rdata_o(seqc)
  );

  assign rx_ok   = !s2_rnew_q     ? s2_rok_q :
                   seqb_fwd_we_q ? (seqb_fwd_q == s2_rq_q.e.seq) : rok_new_q;

  // The request's pending flag is picked a cycle ahead (a 1,024-way pick by its TID): the flag
  // of the request that enters stage 2 next (the skid's, else the FIFO head's) is picked from
  // the flags of this cycle and updated with this cycle's clear, resolve and set, as the
  // handler updates its flags; a held request's is kept current the same way (`PendAhead`).

  logic pend_q;
  assign rx_live = s2_retx_q && rx_ok && pend_q &&
                   !(rp_clr_i && rp_clr_tid_i == s2_rq_q.tid) &&
                   !(ptt_clr_i && ptt_clr_tid_i == s2_rq_q.tid);

  assign act_ctrl    = is_ctrl;
  assign act_err     = !s2_retx_q && !is_ctrl && err;
  // The last block of a notifying read waits until the read's other blocks have resolved:
  // its responder writes the notification after that block's bytes, and so after every byte
  // of the read (as the control packet of a write waits for total-1 ACKs).
  logic rd_hold;
  assign rd_hold     = k_read && ctrl.notify && is_last && !infl_zero;
  assign act_issue   = !s2_retx_q && !is_ctrl && !err && !tid_busy && !rd_hold;
  // A read's notification is written by the responder's transfer (ICD 16): no control packet.
  assign mem_notify  = !k_inline && !k_read && ctrl.notify;
  assign direct_ctrl = act_issue && !k_inline && is_last && mem_notify && infl_zero;
  assign need_fin    = (act_ctrl || act_err) && infl_zero;
  assign need_enq    = act_issue && !k_inline && !is_last &&
                       (32'(infl) + 1 < MaxOutstanding);
  assign parks       = !need_enq && !need_fin;

  always_comb begin
    park_reason = ParkMore;
    if (act_ctrl) begin
      park_reason = ParkWait;
    end else if (act_issue) begin
      if (k_inline)                      park_reason = ParkWait;
      else if (!is_last)                 park_reason = ParkMore;
      else if (mem_notify && !direct_ctrl) park_reason = ParkNeedCtrl;
      else                               park_reason = ParkWait;
    end
  end

  // =======================================================================================
  // Stage 2b: apply the plan
  // =======================================================================================
  // Stage 2a's plan, with the words its effects need, is registered; 2b checks the stalls
  // against it and applies it when it fires. 2a's node enters 2b when 2b is free at the end
  // of the cycle (empty, or it fires), so 2a holds only while 2b holds. The plan is made on
  // the transfer's ACK metadata as it was at the end of the cycle before 2a's last cycle: a
  // resolve of one of its blocks since then (in that cycle, or while 2b holds, or in 2b's
  // firing cycle) is not in it (`b_since_q`). Such a resolve can only make the plan park
  // where it would have gone on, or issue where an error would have stopped it (the
  // transfer ends ERROR when its blocks in flight have resolved, ICD 14), so 2b applies the
  // plan as it is and asks the handler to re-check a transfer it parks (`park_rc_o`).

  always_comb begin
    b_in             = '0;
    b_in.node        = s2_node_q;
    b_in.first       = s2_first_q;
    b_in.qid         = s2_qid_q;
    b_in.retx        = s2_retx_q;
    b_in.rq          = s2_rq_q;
    b_in.is_ctrl     = is_ctrl;
    b_in.act_ctrl    = act_ctrl;
    b_in.act_issue   = act_issue;
    b_in.rx_live     = rx_live;
    b_in.err         = err;
    b_in.is_last     = is_last;
    b_in.k_inline    = k_inline;
    b_in.k_cm        = k_cm;
    b_in.k_read      = k_read;
    b_in.mem_notify  = mem_notify;
    b_in.direct_ctrl = direct_ctrl;
    b_in.need_fin    = need_fin;
    b_in.need_enq    = need_enq;
    b_in.parks       = parks;
    b_in.park_reason = park_reason;
    b_in.park_tog    = parks ? !ack_base.wake_tog : ack_base.wake_tog;
    b_in.k           = k;
    b_in.total       = total;
    b_in.res_base    = res_base;
    b_in.err_base    = err_base;
    b_in.iss_base    = iss_base;
    b_in.slot        = slot;
    b_in.own_qid     = own_qid;
    b_in.fid_own     = md_own.fid;
    b_in.ctrl        = ctrl;
    b_in.si          = si;
    b_in.w0          = w0;
    b_in.w1          = w1;
    b_in.w4          = w4;
    b_in.w5          = w5;
    b_in.md          = md;
  end

  // Stage 2b's metadata: the plan's, with 2b's own write of the cycle before forwarded (a
  // re-issue and its transfer's own visit can follow each other through 2a and 2b; 2b
  // writes nothing while it holds, so the forward is of its first cycle, and kept).
  seg_md_t md_b;
  assign md_b = (segw_we_q && segw_waddr_q == b_q.node) ? segw_wdata_q : b_q.md;

  // ---- the block's IDs (taken here, where they are popped) ----------------------------------
  fid_t fid_cur;   // the transfer's FID (1x) or base (4x)
  fid_t blk_fid;
  tid_t blk_tid;

  always_comb begin
    fid_cur = b_q.fid_own;
    if (b_q.first) fid_cur = (b_q.ctrl.kind == Kind1x) ? fid1_head_i : fid4_head_i;
    unique case (b_q.ctrl.kind)
      Kind1x: begin
        blk_fid = fid_cur;
        blk_tid = {fid_cur, b_q.k[1:0]};
      end
      Kind4x: begin
        blk_fid = {fid_cur[FidW-1:2], b_q.k[1:0]};
        blk_tid = {fid_cur[FidW-1:2], b_q.k[1:0], b_q.k[3:2]};
      end
      default: begin
        blk_fid = '0;
        blk_tid = tid_head_i;
      end
    endcase
    if (b_q.retx) blk_tid = b_q.rq.tid;
  end

  // ---- what 2b does -------------------------------------------------------------------------
  // A re-issue is still current with 2a's check and no clear or resolve of its entry in this
  // cycle. One that goes stale has nothing to do and no stall, so 2b fires it (dropping it) in
  // that very cycle (`StaleRetxLeaves`): nothing needs to be kept for the cycles after.
  logic rx_live_b;
  logic iss;          // a block or inline packet is issued (fresh or re-issued)
  logic retx_ctrl;    // a re-issued last block repeats its control packet
  logic need_pkt, need_blk;
  seq_t seq_cur;

  assign rx_live_b = b_q.rx_live &&
                     !(rp_clr_i && rp_clr_tid_i == b_q.rq.tid) &&
                     !(ptt_clr_i && ptt_clr_tid_i == b_q.rq.tid);
  assign iss       = b_q.act_issue || rx_live_b;
  assign retx_ctrl = rx_live_b && !b_q.k_inline && b_q.is_last && b_q.mem_notify &&
                     md_b.ctrl_sent;
  assign need_pkt  = (b_q.act_ctrl && !b_q.err) || (iss && (b_q.k_inline || b_q.k_read)) ||
                     b_q.direct_ctrl || retx_ctrl;
  assign need_blk  = iss && !b_q.k_inline && !b_q.k_read;

  // ---- stalls --------------------------------------------------------------------------------
  logic s3_valid_q;
  logic blk_slot_ok;
  logic no_other_stall;

  assign blk_slot_ok    = !s3_valid_q || blk_ready_i;
  assign no_other_stall = !(need_pkt && pkt_full_i) && !(need_blk && !blk_slot_ok) &&
                          !(b_q.need_fin && fin_full_i);
  // A re-enqueue also waits while the AXI slave is starving (see qos_engine: the thesis's
  // fixed enqueue priority with a bounded wait for the lowest-priority AXI slave).
  assign enq_valid_o    = b_valid_q && b_q.need_enq && no_other_stall && !axi_starving_i;
  assign enq_qid_o      = b_q.own_qid;
  assign enq_node_o     = b_q.node;
  assign b_fire         = b_valid_q && no_other_stall &&
                          (!b_q.need_enq || (enq_ready_i && !axi_starving_i));
  // Stage 2a's node moves into 2b when 2b is free at the end of the cycle.
  assign s2_fire        = s2_valid_q && (!b_valid_q || b_fire);

  assign trace_s2_fire_o = b_fire;
  assign trace_s2_hold_o = b_valid_q && !b_fire;
  assign trace_s2_node_o = b_q.node;
  assign trace_s2_retx_o = b_valid_q && b_q.retx;

  // ---- side effects when stage 2b fires -----------------------------------------------------
  assign tid_pop_o  = b_fire && b_q.act_issue && !b_q.k_cm;
  assign fid1_pop_o = b_fire && b_q.act_issue && b_q.first && (b_q.ctrl.kind == Kind1x);
  assign fid4_pop_o = b_fire && b_q.act_issue && b_q.first && (b_q.ctrl.kind == Kind4x);

  seq_gen u_seq (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .take_i(b_fire && iss),
    .seq_o (seq_cur)
  );

  always_comb begin
    ptt_wdata_o          = '0;
    ptt_wdata_o.seq      = seq_cur;
    ptt_wdata_o.xfer     = b_q.node;
    ptt_wdata_o.target   = b_q.res_base + b_q.total;
    ptt_wdata_o.err_base = b_q.err_base;
    ptt_wdata_o.own_qid  = b_q.own_qid;
    ptt_wdata_o.kind     = b_q.ctrl.kind;
    ptt_wdata_o.fid      = b_q.k_cm ? fid_cur : '0;
    ptt_wdata_o.blk      = b_q.k;
    ptt_wdata_o.retries  = '0;
    if (b_q.retx) begin
      // the entry as it was, with the new seq and one more re-issue (saturating)
      ptt_wdata_o         = b_q.rq.e;
      ptt_wdata_o.seq     = seq_cur;
      ptt_wdata_o.retries = b_q.rq.e.retries + RetriesW'(b_q.rq.e.retries != '1);
    end
  end
  assign ptt_we_o    = b_fire && iss;
  assign ptt_waddr_o = blk_tid;
  assign retx_o      = b_fire && rx_live_b;
  assign retx_tid_o  = b_q.rq.tid;

  always_comb begin
    segmd_wdata_o = md_b;  // (a re-issue writes back what it read, with a new last_seq)
    if (!b_q.retx) begin
      segmd_wdata_o.res_base = b_q.res_base;
      segmd_wdata_o.err_base = b_q.err_base;
      segmd_wdata_o.iss_tog  = b_q.iss_base;
    end
    if (b_q.act_issue) begin
      segmd_wdata_o.iss_tog[b_q.slot] = !b_q.iss_base[b_q.slot];
      segmd_wdata_o.issued = b_q.k + cnt_t'(1);
      segmd_wdata_o.fid    = fid_cur;
      if (b_q.first) segmd_wdata_o.ctrl_sent = 1'b0;
      if (b_q.is_last) begin
        segmd_wdata_o.last_tid = blk_tid;
        segmd_wdata_o.last_seq = seq_cur;
      end
    end
    if ((b_q.act_ctrl && !b_q.err) || b_q.direct_ctrl) segmd_wdata_o.ctrl_sent = 1'b1;
    // A re-issued last block: a control packet made later carries its new seq.
    if (rx_live_b && b_q.is_last) segmd_wdata_o.last_seq = seq_cur;
  end
  assign segmd_we_o    = b_fire && (!b_q.retx || (rx_live_b && b_q.is_last));
  assign segmd_waddr_o = b_q.node;

  assign park_we_o           = b_fire && !b_q.retx;
  assign park_waddr_o        = b_q.node;
  assign park_wdata_o.tog    = b_q.park_tog;
  assign park_wdata_o.reason = b_q.park_reason;
  // A transfer parked on a plan that a resolve of one of its blocks has passed (since 2a's
  // view, or now): the handler, which found it not parked, re-checks it.
  assign park_rc_o   = park_we_o && b_q.parks &&
                       (b_since_q || (mh_res_i && mh_res_xfer_i == b_q.node));
  assign park_rc_e_o = ptt_wdata_o;

  assign fin_push_o      = b_fire && b_q.need_fin;
  assign fin_data_o.xfer = b_q.node;
  assign fin_data_o.err  = b_q.err;
  assign fin_data_o.kind = b_q.ctrl.kind;
  assign fin_data_o.fid  = md_b.fid;

  // ---- packets -----------------------------------------------------------------------------
  // Block k of a read (ICD 5 and 16): its remote source address, local destination and
  // bytes, as stage 3 computes them for a block descriptor.
  logic [63:0] rd_src, rd_dst;
  logic [31:0] rd_bytes;
  logic        unused_rd_dst;  // the local destination's node bits: the issuer's id instead
  assign unused_rd_dst = ^rd_dst[63:48];

  always_comb begin
    logic [63:0] offset;
    offset   = '0;
    rd_src   = b_q.w0;
    rd_dst   = b_q.w1;
    rd_bytes = {15'd0, 1'b0, b_q.si.first_len_m1} + 32'd1;
    if (b_q.k != '0) begin
      offset   = {30'd0, b_q.k - cnt_t'(1), 16'd0} + {47'd0, 1'b0, b_q.si.first_len_m1} + 64'd1;
      rd_src   = b_q.w0 + offset;
      rd_dst   = {b_q.w1[63:48], b_q.w1[47:16] + {14'd0, b_q.k}, 16'd0};
      rd_bytes = b_q.is_last ? ({16'd0, b_q.si.last_len_m1} + 32'd1) : BlockBytes;
    end
  end

  // Which packet 2b writes, from what it holds rather than from what it decides: a packet
  // written from a node that is not the control queue's is its inline packet or read request
  // when the transfer is of that kind, and otherwise the control packet made with its last
  // block (direct or re-issued); the control queue's node writes its transfer's control
  // packet (`PktKindEarly`).
  logic body_inline, body_read;
  assign body_inline = b_q.k_inline && !b_q.is_ctrl;
  assign body_read   = b_q.k_read && !b_q.is_ctrl;

  always_comb begin
    logic [255:0]  raw;
    ctrl_payload_t cp;
    rreq_payload_t rp;
    raw                     = '0;
    cp                      = '0;
    rp                      = '0;
    pkt_body_o              = '0;
    pkt_body_o.hdr.pd       = b_q.node[XferW-1:ChW];
    pkt_body_o.hdr.xfer_id  = b_q.node;
    pkt_body_o.hdr.dst_addr = b_q.w1;
    if (body_inline) begin
      raw = {b_q.w5, b_q.w4, b_q.si, b_q.w0};
      for (int b = 0; b < 32; b++) begin
        if (32'(b) >= b_q.ctrl.size) raw[8*b +: 8] = 8'd0;
      end
      pkt_body_o.hdr.kind   = PktKindInline;
      pkt_body_o.hdr.tid    = blk_tid;
      pkt_body_o.hdr.seq    = seq_cur;
      pkt_body_o.hdr.len    = b_q.ctrl.size[5:0];
      pkt_body_o.hdr.notify = b_q.ctrl.notify;
      pkt_body_o.payload    = raw;
    end else if (body_read) begin
      rp.local_dst          = {node_id_i, rd_dst[47:0]};  // (w1[63:48] is ignored, ICD 16)
      rp.notify_addr        = (b_q.ctrl.notify && b_q.is_last) ? b_q.w4 : '0;
      rp.notify_tag         = (b_q.ctrl.notify && b_q.is_last) ? b_q.w5 : '0;
      rp.bytes              = rd_bytes;
      rp.kind               = b_q.ctrl.kind;
      rp.prio               = b_q.ctrl.prio;
      rp.last               = b_q.is_last;
      pkt_body_o.hdr.kind   = PktKindRead;
      pkt_body_o.hdr.tid    = blk_tid;
      pkt_body_o.hdr.seq    = seq_cur;
      pkt_body_o.hdr.len    = 6'd32;
      pkt_body_o.hdr.notify = b_q.ctrl.notify && b_q.is_last;
      pkt_body_o.hdr.dst_addr = rd_src;
      pkt_body_o.payload    = rp;
    end else begin
      cp.notify_addr        = b_q.w4;
      cp.notify_tag         = b_q.w5;
      cp.size               = b_q.ctrl.size;
      cp.total_blocks       = b_q.total;
      pkt_body_o.hdr.kind   = PktKindCtrl;
      pkt_body_o.hdr.tid    = b_q.is_ctrl ? md_b.last_tid : blk_tid;
      pkt_body_o.hdr.seq    = b_q.is_ctrl ? md_b.last_seq : seq_cur;
      pkt_body_o.hdr.len    = 6'd32;
      pkt_body_o.hdr.notify = 1'b1;
      pkt_body_o.payload    = cp;
    end
  end
  assign pkt_we_o      = b_fire && need_pkt;
  assign stat_inline_o = b_fire && b_q.act_issue && b_q.k_inline;
  // Counters 2-4 count first emissions; a re-issue (with its repeated control packet) counts
  // in counter 8.
  assign stat_ctrl_o   = b_fire && need_pkt && !(iss && (b_q.k_inline || b_q.k_read)) &&
                         !retx_ctrl;
  assign stat_blk_o    = b_fire && iss && !b_q.k_inline && !b_q.retx;  // blocks, read requests
  assign stat_retx_o   = b_fire && rx_live_b;

  // ---- block descriptor --------------------------------------------------------------------
  // Everything but the addresses and length of a block k >= 1, which stage 3 computes.
  blk_desc_t s2_desc;

  always_comb begin
    s2_desc           = '0;
    s2_desc.src_addr  = b_q.w0;
    s2_desc.dst_addr  = b_q.w1;
    s2_desc.pd_id     = {12'd0, b_q.node[XferW-1:ChW]};
    s2_desc.seq       = seq_cur;
    s2_desc.cm        = b_q.k_cm;
    s2_desc.fid       = blk_fid;
    s2_desc.notify    = b_q.mem_notify && b_q.is_last;
    s2_desc.retx      = b_q.retx;
    s2_desc.chained   = b_q.k_cm && (b_q.k != '0);
    s2_desc.len_m1    = b_q.si.first_len_m1;
    s2_desc.block_idx = b_q.k[11:0];
    s2_desc.has_next  = b_q.k_cm && !b_q.is_last;
    s2_desc.xfer_id   = b_q.node;
  end

  // Stage 2b's registers. The plan is loaded whenever 2b does not hold (it matters only once
  // `b_valid_q` is set by a move), and the move drives the one flag.
  logic b_hold;
  assign b_hold = b_valid_q && !b_fire;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_valid_q <= 1'b0;
      b_q       <= '0;
      b_since_q <= 1'b0;
    end else begin
      b_valid_q <= s2_fire || b_hold;
      if (b_hold) begin
        b_q.md    <= md_b;
        b_since_q <= b_since_q || (mh_res_i && mh_res_xfer_i == b_q.node);
      end else begin
        b_q       <= b_in;
        b_since_q <= mh_res_i && mh_res_xfer_i == s2_node_q;
      end
    end
  end

  // =======================================================================================
  // Stage 3
  // =======================================================================================
  typedef struct packed {
    blk_desc_t         desc;
    tid_t              tid;
    cnt_t              k;
    logic              is_last;
    logic [BlockW-1:0] first_len_m1;
    logic [BlockW-1:0] last_len_m1;
  } s3_t;

  s3_t       s3_q, s3_in;
  blk_desc_t s3_desc;
  logic      bypass;

  always_comb begin
    s3_in              = '0;
    s3_in.desc         = s2_desc;
    s3_in.tid          = blk_tid;
    s3_in.k            = b_q.k;
    s3_in.is_last      = b_q.is_last;
    s3_in.first_len_m1 = b_q.si.first_len_m1;
    s3_in.last_len_m1  = b_q.si.last_len_m1;
  end

  // Addresses of block k >= 1: aligned to the destination (ICD section 5).
  always_comb begin
    logic [63:0] offset;
    offset  = '0;
    s3_desc = s3_q.desc;
    if (s3_q.k != '0) begin
      offset           = {30'd0, s3_q.k - cnt_t'(1), 16'd0} + {47'd0, 1'b0, s3_q.first_len_m1} +
                         64'd1;
      s3_desc.src_addr = s3_q.desc.src_addr + offset;
      s3_desc.dst_addr = {s3_q.desc.dst_addr[63:48],
                          s3_q.desc.dst_addr[47:16] + {14'd0, s3_q.k}, 16'd0};
      s3_desc.len_m1   = s3_q.is_last ? s3_q.last_len_m1 : 16'hFFFF;
    end
  end

  // First blocks go out from stage 2b when stage 3 is empty (thesis 3.9.2 bypass).
  assign bypass      = b_fire && need_blk && !s3_valid_q && (b_q.k == '0);
  assign blk_valid_o = s3_valid_q || bypass;
  assign ptt_we_left_o = bypass && blk_ready_i;
  assign blk_tid_o   = s3_valid_q ? s3_q.tid : blk_tid;
  assign blk_desc_o  = s3_valid_q ? s3_desc : s2_desc;

  logic s3_load, s3_valid_d;
  s3_t  s3_d;
  assign s3_load = b_fire && need_blk && !(bypass && blk_ready_i);

  // Stage 3's block is loaded whenever stage 3 does not hold one back (`blk_ready_i` low): it
  // matters only once `s3_valid_q` is set by a load, and the decision drives the one flag.
  logic s3_hold;
  assign s3_hold = s3_valid_q && !blk_ready_i;

  always_comb begin
    s3_valid_d = s3_valid_q;
    if (s3_load) begin
      s3_valid_d = 1'b1;
    end else if (s3_valid_q && blk_ready_i) begin
      s3_valid_d = 1'b0;
    end
    s3_d = s3_hold ? s3_q : s3_in;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s3_valid_q <= 1'b0;
      s3_q       <= '0;
    end else begin
      s3_valid_q <= s3_valid_d;
      s3_q       <= s3_d;
    end
  end
  // =======================================================================================
  // Stage 2 registers
  // =======================================================================================
  // What enters a free stage 2: the skid's node, else a re-issue request or a dequeued node of
  // this cycle; it empties when it fires. What stage 1 takes while stage 2 holds enters the
  // skid (empty whenever stage 1 takes something).
  logic  s2_valid_d, s2_first_d, s2_retx_d;
  xfer_t s2_node_d;
  qid_t  s2_qid_d;
  rq_t   s2_rq_d;
  logic  sk_valid_d, sk_load;

  assign s2_take = !s2_valid_q || s2_fire;
  assign sk_load = (retx_pop || deq_o) && !s2_take;

  always_comb begin
    s2_valid_d = s2_valid_q;
    s2_node_d  = s2_node_q;
    s2_first_d = s2_first_q;
    s2_qid_d   = s2_qid_q;
    s2_retx_d  = s2_retx_q;
    s2_rq_d    = s2_rq_q;
    if (!s2_take) begin
      // stage 2 holds its node
    end else if (sk_valid_q) begin
      s2_valid_d = 1'b1;
      s2_node_d  = sk_node_q;
      s2_first_d = sk_first_q;
      s2_qid_d   = sk_qid_q;
      s2_retx_d  = sk_retx_q;
      s2_rq_d    = sk_rq_q;
    end else if (retx_pop) begin
      s2_valid_d = 1'b1;
      s2_node_d  = rq_i.e.xfer;
      s2_first_d = 1'b0;
      s2_qid_d   = qid_t'(QCtrl);
      s2_retx_d  = 1'b1;
      s2_rq_d    = rq_i;
    end else if (deq_o) begin
      s2_valid_d = 1'b1;
      s2_node_d  = deq_node_i;
      s2_first_d = deq_first_i;
      s2_qid_d   = pick_q;
      s2_retx_d  = 1'b0;
    end else begin
      s2_valid_d = 1'b0;
    end
  end

  assign sk_valid_d = sk_load || (sk_valid_q && !s2_take);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sk_valid_q <= 1'b0;
      sk_node_q  <= '0;
      sk_first_q <= 1'b0;
      sk_qid_q   <= '0;
      sk_retx_q  <= 1'b0;
      sk_rq_q    <= '0;
      sk_new_q   <= 1'b0;
      sk_ack_q   <= '0;
    end else begin
      sk_valid_q <= sk_valid_d;
      sk_new_q   <= sk_load && !retx_pop;
      sk_ack_q   <= sk_ack_eff;
      // (loaded whenever the skid is empty, as every load is: they matter only once
      // `sk_valid_q` is set by a load, and stage 2's decision drives the one flag)
      if (!sk_valid_q) begin
        sk_node_q  <= s1_node;
        sk_first_q <= !retx_pop && deq_first_i;
        sk_qid_q   <= retx_pop ? qid_t'(QCtrl) : pick_q;
        sk_retx_q  <= retx_pop;
        sk_rq_q    <= rq_i;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s2_valid_q    <= 1'b0;
      s2_node_q     <= '0;
      s2_first_q    <= 1'b0;
      s2_qid_q      <= '0;
      s2_acknew_q   <= 1'b0;
      s2_line0_q    <= '0;
      s2_w45_q      <= '0;
      s2_md_q       <= '0;
      s2_ack_q      <= '0;
      s2_retx_q     <= 1'b0;
      s2_rq_q       <= '0;
      s2_rnew_q     <= 1'b0;
      s2_rok_q      <= 1'b0;
      pend_q        <= 1'b0;
      s2_mdnew_q    <= 1'b0;
      segw_we_q     <= 1'b0;
      segw_waddr_q  <= '0;
      segw_wdata_q  <= '0;
      seqb_fwd_we_q <= 1'b0;
      rok_new_q     <= 1'b0;
      seqb_fwd_q    <= '0;
      mhp_we_q      <= 1'b0;
      mhp_waddr_q   <= '0;
      mhp_wdata_q   <= '0;
      mhp_hit_q     <= 1'b0;
    end else begin
      mhp_we_q      <= mh_ackmd_we_i;
      mhp_waddr_q   <= mh_ackmd_waddr_i;
      mhp_wdata_q   <= mh_ackmd_wdata_i;
      mhp_hit_q     <= mh_ackmd_we_i && mh_ackmd_waddr_i == deq_node_i;
      s2_ack_q      <= (s2_take && sk_valid_q) ? sk_ack_eff : ack_eff;
      s2_acknew_q   <= s2_take && !sk_valid_q && deq_o;
      s2_rnew_q     <= s2_take && (sk_valid_q ? sk_retx_q : retx_pop);
      s2_rok_q      <= rx_ok;
      pend_q        <= s2_take ?
          pend_next(retx_pend_i[rq_next_tid], rq_next_tid, rp_clr_i, rp_clr_tid_i, ptt_clr_i,
                    ptt_clr_tid_i, rp_set_i, rp_set_tid_i) :
          pend_next(pend_q, s2_rq_q.tid, rp_clr_i, rp_clr_tid_i, ptt_clr_i, ptt_clr_tid_i,
                    rp_set_i, rp_set_tid_i);
      s2_mdnew_q    <= s2_take && (sk_valid_q || deq_o || retx_pop);
      s2_line0_q    <= line0;
      s2_w45_q      <= line1[127:0];
      s2_md_q       <= md;
      segw_we_q     <= segmd_we_o;
      segw_waddr_q  <= segmd_waddr_o;
      segw_wdata_q  <= segmd_wdata_o;
      // (the request that enters stage 2 next: the skid's, else the FIFO's head)
      seqb_fwd_we_q <= ptt_we_o && ptt_waddr_o == rq_next_tid;
      rok_new_q     <= seqc == rq_next_seq;
      seqb_fwd_q    <= ptt_wdata_o.seq;
      s2_valid_q    <= s2_valid_d;
      s2_node_q     <= s2_node_d;
      s2_first_q    <= s2_first_d;
      s2_qid_q      <= s2_qid_d;
      s2_retx_q     <= s2_retx_d;
      s2_rq_q       <= s2_rq_d;
    end
  end

  // =======================================================================================
  // Assertions
  // =======================================================================================
  `NI_ASSERT_VALID_HELD(BlkHeld, blk_valid_o, blk_ready_i, {blk_tid_o, blk_desc_o})
  // Every packet stage 2 writes is its control packet, an inline packet or read request, or
  // the control packet made with (or repeated for) a notifying transfer's last block.
  `NI_ASSERT(PktKindKnown, pkt_we_o -> b_q.is_ctrl || b_q.k_inline || b_q.k_read ||
                                      (b_q.mem_notify && b_q.is_last))
  `NI_ASSERT(FirstIssues, s2_valid_q && s2_first_q -> act_issue)
  `NI_ASSERT(PendAhead, s2_valid_q && s2_retx_q -> pend_q == retx_pend_i[s2_rq_q.tid])
`ifndef SYNTHESIS
  // The seq check made a cycle ahead is the check against the PTT's seqs of this cycle.
  seq_t ref_seq_q [NumTids];
  always_ff @(posedge clk_i) begin
    if (ptt_we_o) ref_seq_q[ptt_waddr_o] <= ptt_wdata_o.seq;
  end
  `NI_ASSERT(SeqCheckAhead, s2_valid_q && s2_rnew_q ->
                            rx_ok == (ref_seq_q[s2_rq_q.tid] == s2_rq_q.e.seq))
`endif
  `NI_ASSERT(MhpHitAhead, (s2_acknew_q -> mhp_hit_q == (mhp_we_q && mhp_waddr_q == s2_node_q)) &&
                          (sk_new_q -> mhp_hit_q == (mhp_we_q && mhp_waddr_q == sk_node_q)))
  `NI_ASSERT(MdOwnCurrent, s2_valid_q && !s2_retx_q ->
             {md_own.issued, md_own.fid, md_own.res_base, md_own.err_base, md_own.iss_tog} ==
             {md.issued, md.fid, md.res_base, md.err_base, md.iss_tog})
  `NI_ASSERT(CtrlNotFirst, s2_valid_q && is_ctrl -> !s2_first_q)
  `NI_ASSERT(InflightBounded, s2_valid_q && !s2_retx_q -> 32'(inflight) <= MaxOutstanding)
  `NI_ASSERT(BlockInRange, s2_valid_q && act_issue -> k < total)
  // (the valid bit before this cycle's resolve: stage 2a decides without it; an own visit's
  // TID, from its transfer's FID)
`ifndef SYNTHESIS
  tid_t a_tid;
  assign a_tid = (ctrl.kind == Kind1x) ? {md_own.fid, k[1:0]} :
                                         {md_own.fid[FidW-1:2], k[1:0], k[3:2]};
  `NI_ASSERT(TidBusyIsPtt, s2_valid_q && !s2_retx_q && !s2_first_q ->
                          tid_busy == (k_cm && (ptt_valid_i[a_tid] ||
                                                (ptt_set_i && ptt_set_tid_i == a_tid))))
`endif
  // A transfer in stage 2 is not parked, so the handler never wakes it: its wake toggle is
  // the same with or without the handler's write of this cycle.
  `NI_ASSERT(WakeTogSteady, s2_valid_q && !s2_retx_q -> ack_base.wake_tog == ack_eff.wake_tog)
  // (free before this cycle's resolve: stage 2 issues only on what it saw at the cycle's start)
  `NI_ASSERT(FreshTidFree, ptt_we_o && !b_q.retx -> !(ptt_valid_i[ptt_waddr_o] ||
                                      (ptt_set_i && ptt_set_tid_i == ptt_waddr_o)))
  `NI_ASSERT(PopOnlyAvailable, tid_pop_o -> tid_count_i != '0)
  `NI_ASSERT(InflightFits, s2_valid_q && !s2_retx_q -> inflight == cnt_t'(infl))
  `NI_ASSERT(LastWithoutCarry, s2_valid_q -> is_last == (k + cnt_t'(1) == total))
  `NI_ASSERT(PktKindEarly, pkt_we_o -> (body_inline == (iss && b_q.k_inline)) &&
                                      (body_read == (iss && b_q.k_read)) &&
                                      (body_inline || body_read ||
                                       (!b_q.is_ctrl == (b_q.direct_ctrl || retx_ctrl))))
  // Nothing parks waiting for a resolve unless something of it is in flight.
  `NI_ASSERT(ParkedHasInflight, s2_fire && parks && !act_issue && !s2_retx_q -> inflight != '0)
  `NI_ASSERT(InlineFromTidQueue, s2_valid_q && k_inline && !is_ctrl && !s2_retx_q ->
                              s2_qid_q == qid_t'(QTid))
  `NI_ASSERT(RetxInRange, s2_valid_q && s2_retx_q && rx_live -> k < total)
  `NI_ASSERT(NoDeqWithRetx, !(deq_o && retx_pop))
  // The skid fills only while stage 2a holds, and empties into it when stage 2a is free; 2a
  // holds only while 2b holds.
  `NI_ASSERT(SkidBehindStage2, sk_valid_q -> s2_valid_q)
  `NI_ASSERT(Stage2aBehind2b, s2_valid_q && !s2_fire -> b_valid_q && !b_fire)
  `NI_ASSERT(StaleRetxLeaves, b_valid_q && b_q.retx && !rx_live_b -> b_fire)
  `NI_ASSERT(LiveMeetsNoWrite, s2_fire && rx_live -> !(ptt_we_o && ptt_waddr_o == s2_rq_q.tid))
  `NI_ASSERT(LoadsWhereFree, (sk_load -> !sk_valid_q) && (s3_load -> !s3_hold))
  logic [NumQueues-1:0] deq_hot;
  assign deq_hot = NumQueues'(1'b1) << deq_qid_o;
  // The queue picked the cycle before still holds a node and its IDs are still available
  // beside what stages 2a and 2b hold (the skid is empty when stage 1 dequeues).
`ifndef SYNTHESIS
  logic [1:0] held_tid, held_fid1, held_fid4;
  assign held_tid  = 2'(s2_valid_q && s2_qid_q == qid_t'(QTid)) +
                     2'(b_valid_q && b_q.qid == qid_t'(QTid));
  assign held_fid1 = 2'(s2_valid_q && is_1x_no(s2_qid_q)) + 2'(b_valid_q && is_1x_no(b_q.qid));
  assign held_fid4 = 2'(s2_valid_q && is_4x_no(s2_qid_q)) + 2'(b_valid_q && is_4x_no(b_q.qid));
  `NI_ASSERT(PickStillEligible, deq_o -> |(q_nonempty_i & deq_hot) &&
      (deq_qid_o != qid_t'(QTid) || tid_count_i > TidCntW'(held_tid)) &&
      (!is_1x_no(deq_qid_o) || fid1_count_i > Fid1CntW'(held_fid1)) &&
      (!is_4x_no(deq_qid_o) || fid4_count_i > Fid4CntW'(held_fid4)))
`endif

endmodule

`default_nettype wire
