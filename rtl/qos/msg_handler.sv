// SPDX-License-Identifier: Apache-2.0
// Message Handler (thesis 3.11, docs/design.md section 9), pipelined to take one event per
// cycle.
//
// M0: a re-check (below) first, else a timeout event of the timeout FSM, else the adaptive
//     arbiter picks a network response or a segmenter finish event; a response or timeout
//     reads the Pending Transactions Table.
// M1: a response is valid when its entry is valid (and not invalidated this cycle) and the
//     seq numbers match; a NACK or timeout also needs the entry to have no re-issue pending.
//     Otherwise a response is dropped and counted (a timeout event just vanishes). A valid
//     one reads the ACK and park metadata of its transfer.
// M2: a NACK or timeout with retries left requests a re-issue (section 8.1 of
//     docs/design.md); anything else resolves the block: count the resolve, return the TID,
//     wake or finish the transfer. A wake is enqueued from a register in the next cycle (M3),
//     so the scheduling queues and the other sources' grants do not wait on M2's decision.
// The handler never stalls: its enqueue has the top priority and it alone returns IDs.
//
// Re-checks (docs/design.md section 20, "The decision's split, built"): the segmenter plans
// in its stage 2a and parks in 2b, one or more cycles later, so a resolve M2 makes of one of
// the transfer's blocks in between (or in the park's cycle) and the park do not see each
// other; the segmenter says so with its park write. The next cycle's M0
// then takes a re-check of that transfer (ahead of everything: a timeout event offered in that
// cycle vanishes and is offered again on the FSM's next round); it reads the transfer's ACK
// and park metadata in M1 like a response, and in M2 applies a resolve's wake and finish
// decisions to the park without counting a resolve.
//
// `Retx` (1) is retransmission (ICD 14): timeout events, the re-issue-pending bits, the
// retries compare and the re-issue requests. `Retx` 0 exists only for `make synth`'s
// measurement of what that feature costs (scripts/synth.py FEATURE_RUNS): every NACK then
// resolves its block with an error, timeout events are ignored, and nothing is re-issued.
`default_nettype none
`include "ni_assert.svh"

module msg_handler
  import ni_pkg::*;
#(
  parameter bit Retx = 1'b1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               init_done_i,
  // responses from the network
  input  logic               rsp_valid_i,
  output logic               rsp_ready_o,
  input  rsp_t               rsp_i,
  // timeout events from the timeout FSM (accepted in the cycle they are offered unless a
  // re-check takes M0: the event then vanishes until the FSM's next round)
  input  logic               tmo_valid_i,
  input  tid_t               tmo_tid_i,
  input  seq_t               tmo_seq_i,
  input  logic [63:0]        max_retries_i,
  // finish events from the segmenter (FIFO head)
  input  logic               fin_valid_i,
  input  fin_t               fin_i,
  output logic               fin_pop_o,
  // Pending Transactions Table: RAM read port, segmenter writes, valid bits
  output logic               ptt_re_o,
  output tid_t               ptt_raddr_o,
  input  ptt_t               ptt_rdata_i,
  input  logic               seg_ptt_we_i,
  input  tid_t               seg_ptt_waddr_i,
  input  ptt_t               seg_ptt_wdata_i,
  // the valid bits as stored, and the segmenter's set of the previous cycle not yet in them
  // (a reader ORs it in at its index: the bit an immediate write gives)
  output logic [NumTids-1:0] ptt_valid_o,
  output logic               ptt_set_o,
  output tid_t               ptt_set_tid_o,
  output logic               ptt_clr_o,      // entry invalidated this cycle
  output tid_t               ptt_clr_tid_o,
  // re-issues: the pending flags as stored, and the segmenter's clear of the previous cycle
  // not yet in them (a reader clears it at its index); the requests; the segmenter's
  // re-issue (clears a flag)
  output logic [NumTids-1:0] retx_pend_o,
  output logic               rp_clr_o,
  output tid_t               rp_clr_tid_o,
  output logic               rq_push_o,
  output rq_t                rq_o,
  input  logic               seg_retx_i,
  input  tid_t               seg_retx_tid_i,
  // ACK metadata: the handler's copy (read) and the write to both copies
  output logic               ackmd_re_o,
  output xfer_t              ackmd_raddr_o,
  input  ack_md_t            ackmd_rdata_i,
  output logic               ackmd_we_o,
  output xfer_t              ackmd_waddr_o,
  output ack_md_t            ackmd_wdata_o,
  // park table: read port and the segmenter's writes (forwarding)
  output logic               park_re_o,
  output xfer_t              park_raddr_o,
  input  park_md_t           park_rdata_i,
  input  logic               seg_park_we_i,
  input  xfer_t              seg_park_waddr_i,
  input  park_md_t           seg_park_wdata_i,
  // the segmenter parks a transfer on a plan a resolve of one of its blocks has passed: a
  // re-check of it, with its entry's fields (xfer, target, err_base, own_qid, kind, fid)
  input  logic               seg_park_rc_i,
  input  ptt_t               seg_park_rc_e_i,
  // scheduling queue enqueue (highest-priority source)
  output logic               enq_valid_o,
  input  logic               enq_ready_i,
  output qid_t               enq_qid_o,
  output xfer_t              enq_node_o,
  // ID returns
  output logic               tid_push_o,
  output tid_t               tid_push_id_o,
  output logic               fid1_push_o,
  output logic               fid4_push_o,
  output fid_t               fid_push_id_o,
  // status registers
  output logic               finish_o,
  output wch_t               finish_wch_o,  // {page, channel[5:0]}
  output logic               finish_rd_o,   // ... of a read channel (channel bit 6, ICD 16)
  output logic               finish_err_o,
  // statistics
  output logic               stat_ack_o,
  output logic               stat_nack_o,
  output logic               stat_drop_o,
  output logic               stat_done_o,
  output logic               stat_error_o,
  output logic               stat_tmo_o,
  // this cycle's resolve and its transfer, for the segmenter's stage 2
  output logic               res_o,
  output xfer_t              res_xfer_o,
  // trace: M2 makes a re-check
  output logic               trace_recheck_o
);

  // A re-check waiting for M0 (set by M2 in the cycle before; see the header).
  logic rc_q;
  ptt_t rc_e_q;

  // Timeout events (retransmission's); none without it.
  logic tmo_v;
  logic unused_tmo;
  assign tmo_v      = Retx && tmo_valid_i && !rc_q;
  assign unused_tmo = ^{tmo_valid_i, tmo_tid_i, tmo_seq_i, max_retries_i};  // (Retx 0)

  // =======================================================================================
  // M0: arbitration
  // =======================================================================================
  logic seg_gnt;
  logic mh_gnt;
  logic m0_rsp;

  // A timeout event takes M0 ahead of both; the arbiter sees no request in that cycle.
  md_arbiter u_arb (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .seg_req_i(fin_valid_i && !tmo_v && !rc_q),
    .mh_req_i (rsp_valid_i && init_done_i && !tmo_v && !rc_q),
    .seg_gnt_o(seg_gnt),
    .mh_gnt_o (mh_gnt)
  );

  rsp_t m0_r;

  assign rsp_ready_o = init_done_i && !seg_gnt && !tmo_v && !rc_q;
  assign m0_rsp      = rsp_valid_i && rsp_ready_o;
  assign fin_pop_o   = seg_gnt;
  assign ptt_re_o    = m0_rsp || tmo_v;
  assign ptt_raddr_o = m0_r.tid;

  // A timeout event travels as a NACK flagged `tmo`.
  always_comb begin
    m0_r = rsp_i;
    if (tmo_v) begin
      m0_r.seq  = tmo_seq_i;
      m0_r.tid  = tmo_tid_i;
      m0_r.nack = 1'b1;
    end
  end

  // =======================================================================================
  // M1: response check
  // =======================================================================================
  logic  m1_rsp_q;
  logic  m1_rc_q;    // a re-check (of transfer m1_rce_q.xfer)
  ptt_t  m1_rce_q;
  logic  m1_tmo_q;
  logic  m1_fin_q;
  rsp_t  m1_r_q;
  fin_t  m1_f_q;
  // the segmenter's PTT write of the previous cycle (the RAM read in M0 did not see it)
  logic  segp_we_q;
  tid_t  segp_waddr_q;
  ptt_t  segp_wdata_q;

  logic [NumTids-1:0] ptt_valid_q, ptt_valid_d;
  logic [NumTids-1:0] rp_q, rp_d;   // re-issue pending
  // The segmenter's writes of these bits come late in its stage 2, so they are registered
  // (its PTT write: `segp_*`; its re-issue: `segr_*`) and applied a cycle later. The bits
  // with the registered write in (`ptt_valid_eff`, `rp_eff`) are the bits as an immediate
  // write leaves them (`ValidIsImmediate`, `PendIsImmediate`); every reader (M1 here, the
  // timeout scanner, stage 2) takes its bit that way, picking the stored bit and comparing
  // its index with the registered write beside the pick.
  logic [NumTids-1:0] ptt_valid_eff, rp_eff;
  logic               segr_q;
  tid_t               segr_tid_q;

  // M2 registers (declared here: M1 looks at the invalidation M2 does this cycle)
  logic  m2_rsp_q;
  logic  m2_rc_q;
  logic  m2_fin_q;
  logic  m2_nack_q;  // NACK or timeout
  logic  m2_tmo_q;
  tid_t  m2_tid_q;
  ptt_t  m2_e_q;
  fin_t  m2_f_q;

  ptt_t  m1_entry;
  ptt_t  m1_entry_prev;
  logic  m1_seg_now;
  logic  m1_segp;
  logic  m1_valid_cur, m1_rp_cur;  // the entry's valid and re-issue-pending bits, as written
  logic  m1_seq_ok;
  logic  m1_valid_entry;
  logic  m1_retx_pend;
  logic  m1_accept;
  logic  m2_retx, m2_res;
  // The entry's block has re-issues left, compared in M1 (against MaxRetries as it is in M1)
  // and registered: M2's NACK decision, which every M2 update waits for, then starts at a
  // register instead of a 64-bit compare. Both entries M1 may pick are compared side by
  // side, as for the seq check.
  logic  m1_left_prev, m1_left_now;
  logic  m2_left_q;

  // The entry as it is now: the segmenter's write of the previous cycle (the RAM read in M0
  // did not see it) and a re-issue's write of this very cycle (its new seq makes a response
  // to the old one stale). The write of this cycle is decided late in the segmenter's stage
  // 2, so the seq check is made against both entries side by side and picked by it, and the
  // metadata reads take the transfer from the earlier entry (a write of this cycle that is
  // accepted against is a re-issue: same transfer). `M1SeqLate` asserts both.
  always_comb begin
    m1_entry_prev = ptt_rdata_i;
    if (m1_segp) m1_entry_prev = segp_wdata_q;
    m1_entry = m1_entry_prev;
    if (m1_seg_now) m1_entry = seg_ptt_wdata_i;
  end
  assign m1_seg_now = seg_ptt_we_i && seg_ptt_waddr_i == m1_r_q.tid;
  assign m1_segp    = segp_we_q && segp_waddr_q == m1_r_q.tid;
  assign m1_seq_ok  = m1_seg_now ? (seg_ptt_wdata_i.seq == m1_r_q.seq) :
                                   (m1_entry_prev.seq == m1_r_q.seq);
  assign m1_left_prev = 64'(m1_entry_prev.retries) < max_retries_i;
  assign m1_left_now  = 64'(seg_ptt_wdata_i.retries) < max_retries_i;

  assign m1_valid_cur   = ptt_valid_q[m1_r_q.tid] || m1_segp;
  assign m1_rp_cur      = rp_q[m1_r_q.tid] && !(segr_q && segr_tid_q == m1_r_q.tid);
  assign m1_valid_entry = m1_valid_cur && !(m2_res && m2_tid_q == m1_r_q.tid);
  assign m1_retx_pend   = m1_rp_cur ||
                          (m2_rsp_q && m2_retx && m2_tid_q == m1_r_q.tid);
  assign m1_accept      = m1_rsp_q && m1_valid_entry && m1_seq_ok &&
                          !(m1_r_q.nack && m1_retx_pend);
  xfer_t m1_x;  // the transfer whose metadata M1 reads
  assign m1_x           = m1_rc_q ? m1_rce_q.xfer : m1_entry_prev.xfer;
  assign ackmd_re_o     = m1_accept || m1_rc_q;
  assign ackmd_raddr_o  = m1_x;
  assign park_re_o      = m1_accept || m1_rc_q;
  assign park_raddr_o   = m1_x;
  assign stat_drop_o    = m1_rsp_q && !m1_tmo_q && !m1_accept;

  // =======================================================================================
  // M2: resolve
  // =======================================================================================
  // Previous-cycle writes the RAM reads of M1 did not see. Whether one is M2's transfer is
  // compared in M1, against the transfer M1 reads (the entry before the segmenter's write of
  // this cycle, which is a re-issue: same transfer) and registered (`ackf_q`, `parkf_q`):
  // M2's metadata then comes through one mux from registers and the RAM outputs instead of
  // an 11-bit compare and the mux. The increment of the forwarded count is registered with
  // the write it belongs to (`ackp_inc_q`), so the count's carry chain is not behind the
  // mux either (`AckFwdIsCompare`, `ParkFwdIsCompare`, `ResolvedIsInc`).
  logic     ackp_we_q;
  ack_md_t  ackp_wdata_q;
  cnt_t     ackp_inc_q;
  logic     ackf_q;
  logic     parkp_we_q;
  park_md_t parkp_wdata_q;
  logic     parkf_q;
  logic     ack_fwd, park_fwd;

  ack_md_t  ack_cur;
  park_md_t park_cur;
  xfer_t    x;
  cnt_t     resolved_new;
  logic     err_tog_new;
  logic     err_now;
  logic     parked;
  logic     wake_own, wake_ctrl, fin_rsp;
  logic     last_res, next_last_res;  // this resolve completes the transfer / is one short

  assign x = m2_e_q.xfer;

  assign ack_fwd  = ackp_we_q && ackf_q;
  assign park_fwd = parkp_we_q && parkf_q;
  assign ack_cur  = ack_fwd ? ackp_wdata_q : ackmd_rdata_i;
  assign park_cur = park_fwd ? parkp_wdata_q : park_rdata_i;

  // A NACK or timeout with retries left re-issues the block; everything else resolves it.
  assign m2_retx = m2_nack_q && m2_left_q;
  assign m2_res  = m2_rsp_q && !m2_retx;

  assign rq_push_o = m2_rsp_q && m2_retx;
  assign rq_o.tid  = m2_tid_q;
  assign rq_o.e    = m2_e_q;

  // (a re-check counts nothing)
  assign resolved_new = m2_rc_q ? ack_cur.resolved :
                        ack_fwd ? ackp_inc_q : ackmd_rdata_i.resolved + cnt_t'(1);
  // The completion tests from the stored count, without the increment's carry chain in
  // front of the compare (`ResolvedWithoutCarry`).
  assign last_res      = sum_is(ack_cur.resolved, cnt_t'(1), m2_e_q.target);
  assign next_last_res = sum_is(ack_cur.resolved, cnt_t'(2), m2_e_q.target);
  // The same tests for a re-check, on the count as it is: all resolved, one short.
  logic fin_cond, ctrl_cond;
  assign fin_cond  = m2_rc_q ? (ack_cur.resolved == m2_e_q.target) : last_res;
  assign ctrl_cond = m2_rc_q ? last_res : next_last_res;
  assign err_tog_new  = m2_nack_q ? !m2_e_q.err_base : ack_cur.err_tog;
  assign err_now      = (err_tog_new != m2_e_q.err_base);
  assign parked       = (park_cur.tog != ack_cur.wake_tog);

  always_comb begin
    wake_own  = 1'b0;
    wake_ctrl = 1'b0;
    fin_rsp   = 1'b0;
    if ((m2_res || m2_rc_q) && parked) begin
      unique case (park_cur.reason)
        ParkMore: wake_own = 1'b1;
        ParkNeedCtrl: begin
          if (err_now)        fin_rsp   = fin_cond;
          else if (ctrl_cond) wake_ctrl = 1'b1;
        end
        ParkWait: fin_rsp = fin_cond;
        default: ;
      endcase
    end
  end

  assign ackmd_we_o             = m2_res || m2_rc_q;
  assign ackmd_waddr_o          = x;
  assign ackmd_wdata_o.resolved = resolved_new;
  assign ackmd_wdata_o.err_tog  = err_tog_new;
  assign ackmd_wdata_o.wake_tog = (wake_own || wake_ctrl) ? park_cur.tog : ack_cur.wake_tog;
  // the resolved block's TID slot is free again (the segmenter's `tid_busy`)
  assign ackmd_wdata_o.res_tog  = ack_cur.res_tog ^
                                  (tid_tog_t'(m2_res) << tid_slot(m2_e_q.kind, m2_e_q.blk[3:0]));

  // A re-check of a transfer the segmenter parks on a plan made before a resolve of one of
  // its blocks (in the cycle of the park or before it: the park decided without the resolve,
  // the resolve decided on the transfer as not parked). The segmenter says so
  // (`seg_park_rc_i`) and gives the entry the re-check decides on.
  logic rc_d;
  assign rc_d = seg_park_we_i && seg_park_rc_i;
  assign res_o           = m2_res;
  assign res_xfer_o      = x;
  assign trace_recheck_o = m2_rc_q;

  // M3: the wake decided in M2 is enqueued in the next cycle (top priority, always granted).
  // The transfer is neither parked nor queued for that cycle: a resolve of another of its
  // blocks finds it not parked (its wake toggle was written in M2) and leaves it to the
  // segmenter, as for a queued transfer.
  logic  m3_enq_q;
  qid_t  m3_qid_q;
  xfer_t m3_node_q;
  assign enq_valid_o = m3_enq_q;
  assign enq_qid_o   = m3_qid_q;
  assign enq_node_o  = m3_node_q;

  assign tid_push_o    = m2_res && (m2_e_q.kind == KindTid || m2_e_q.kind == KindInline);
  assign tid_push_id_o = m2_tid_q;

  // A transfer finishes here (last resolve) or from the segmenter's FIFO.
  xfer_t fin_xfer;
  logic  fin_err;
  kind_e fin_kind;
  fid_t  fin_fid;

  always_comb begin
    if (m2_fin_q) begin
      fin_xfer = m2_f_q.xfer;
      fin_err  = m2_f_q.err;
      fin_kind = m2_f_q.kind;
      fin_fid  = m2_f_q.fid;
    end else begin
      fin_xfer = x;
      fin_err  = err_now;
      fin_kind = m2_e_q.kind;
      fin_fid  = m2_e_q.fid;
    end
  end

  // The seq was checked in M1; of the block index only its TID slot is used.
  logic unused_m2;
  assign unused_m2 = ^{m2_e_q.seq, m2_e_q.blk[CntW-1:4]};

  assign finish_o      = m2_fin_q || fin_rsp;
  assign finish_wch_o  = {fin_xfer[XferW-1:ChW], fin_xfer[5:0]};
  assign finish_rd_o   = fin_xfer[6];
  assign finish_err_o  = fin_err;
  assign fid1_push_o   = finish_o && (fin_kind == Kind1x);
  assign fid4_push_o   = finish_o && (fin_kind == Kind4x);
  assign fid_push_id_o = fin_fid;

  assign stat_ack_o   = m2_rsp_q && !m2_nack_q;
  assign stat_nack_o  = m2_rsp_q && m2_nack_q && !m2_tmo_q;
  assign stat_tmo_o   = m2_rsp_q && m2_tmo_q;
  assign stat_done_o  = finish_o && !fin_err;
  assign stat_error_o = finish_o && fin_err;

  // =======================================================================================
  // Pending Transactions Table valid bits
  // =======================================================================================
  // A set by the segmenter's write of the cycle before, then this cycle's clear: as an
  // immediate write (the set, then next cycle's clear) leaves them.
  always_comb begin
    ptt_valid_eff = ptt_valid_q;
    if (segp_we_q) ptt_valid_eff[segp_waddr_q] = 1'b1;
    ptt_valid_d = ptt_valid_eff;
    if (m2_res)    ptt_valid_d[m2_tid_q] = 1'b0;
  end
  // Each reader picks the stored bit and compares its index with the registered write beside
  // the pick (a 1,024-way pick of the stored bits with the write merged in first is deeper).
  assign ptt_valid_o   = ptt_valid_q;
  assign ptt_set_o     = segp_we_q;
  assign ptt_set_tid_o = segp_waddr_q;
  assign ptt_clr_o     = m2_res;
  assign ptt_clr_tid_o = m2_tid_q;

  // Re-issue pending: set by a re-issue request, cleared when the re-issue takes its new seq
  // (applied a cycle later, `segr_*`) or when the block resolves first (an ACK to the old seq
  // cancels the request). A request is never made for an entry whose re-issue takes its seq
  // in the same cycle (that entry's bit is set, `NoRequestTwice`), so the late clear cannot
  // meet a set of the same bit that an immediate clear would have preceded.
  always_comb begin
    rp_eff = rp_q;
    if (segr_q)    rp_eff[segr_tid_q] = 1'b0;
    rp_d = rp_eff;
    if (m2_res)    rp_d[m2_tid_q]     = 1'b0;
    if (rq_push_o) rp_d[m2_tid_q]     = 1'b1;
    if (!Retx)     rp_d               = '0;
  end
  assign retx_pend_o  = rp_q;
  assign rp_clr_o     = segr_q;
  assign rp_clr_tid_o = segr_tid_q;

  // =======================================================================================
  // Registers
  // =======================================================================================
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptt_valid_q   <= '0;
      rp_q          <= '0;
      segr_q        <= 1'b0;
      segr_tid_q    <= '0;
      m1_rsp_q      <= 1'b0;
      m1_rc_q       <= 1'b0;
      m1_rce_q      <= '0;
      rc_q          <= 1'b0;
      rc_e_q        <= '0;
      m2_rc_q       <= 1'b0;
      m1_tmo_q      <= 1'b0;
      m1_fin_q      <= 1'b0;
      m1_r_q        <= '0;
      m1_f_q        <= '0;
      m2_rsp_q      <= 1'b0;
      m2_fin_q      <= 1'b0;
      m2_nack_q     <= 1'b0;
      m2_tmo_q      <= 1'b0;
      m2_tid_q      <= '0;
      m2_e_q        <= '0;
      m2_left_q     <= 1'b0;
      m2_f_q        <= '0;
      segp_we_q     <= 1'b0;
      segp_waddr_q  <= '0;
      segp_wdata_q  <= '0;
      ackp_we_q     <= 1'b0;
      ackp_wdata_q  <= '0;
      ackp_inc_q    <= '0;
      ackf_q        <= 1'b0;
      parkp_we_q    <= 1'b0;
      parkp_wdata_q <= '0;
      parkf_q       <= 1'b0;
      m3_enq_q      <= 1'b0;
      m3_qid_q      <= '0;
      m3_node_q     <= '0;
    end else begin
      ptt_valid_q   <= ptt_valid_d;
      rp_q          <= rp_d;
      segr_q        <= Retx && seg_retx_i;
      segr_tid_q    <= seg_retx_tid_i;
      m1_rsp_q      <= m0_rsp || tmo_v;
      rc_q          <= rc_d;
      rc_e_q        <= seg_park_rc_e_i;
      m1_rc_q       <= rc_q;
      m1_rce_q      <= rc_e_q;
      m2_rc_q       <= m1_rc_q;
      m1_tmo_q      <= tmo_v;
      m1_fin_q      <= seg_gnt;
      m1_r_q        <= m0_r;
      m1_f_q        <= fin_i;
      m2_rsp_q      <= m1_accept;
      m2_fin_q      <= m1_fin_q;
      m2_nack_q     <= m1_r_q.nack && m1_rsp_q;
      m2_tmo_q      <= m1_tmo_q;
      m2_tid_q      <= m1_r_q.tid;
      m2_e_q        <= m1_rc_q ? m1_rce_q : m1_entry;
      m2_left_q     <= Retx && (m1_seg_now ? m1_left_now : m1_left_prev);
      m2_f_q        <= m1_f_q;
      segp_we_q     <= seg_ptt_we_i;
      segp_waddr_q  <= seg_ptt_waddr_i;
      segp_wdata_q  <= seg_ptt_wdata_i;
      ackp_we_q     <= ackmd_we_o;
      ackp_wdata_q  <= ackmd_wdata_o;
      ackp_inc_q    <= resolved_new + cnt_t'(1);
      ackf_q        <= (ackmd_waddr_o == m1_x);
      parkp_we_q    <= seg_park_we_i;
      parkp_wdata_q <= seg_park_wdata_i;
      parkf_q       <= (seg_park_waddr_i == m1_x);
      m3_enq_q      <= wake_own || wake_ctrl;
      m3_qid_q      <= wake_ctrl ? qid_t'(QCtrl) : m2_e_q.own_qid;
      m3_node_q     <= x;
    end
  end

  // =======================================================================================
  // Assertions
  // =======================================================================================
  `NI_ASSERT(EnqAlwaysGranted, enq_valid_o -> enq_ready_i)
  `NI_ASSERT(NoReadyBeforeInit, !init_done_i -> !rsp_ready_o)
  `NI_ASSERT(OneEventPerCycle, !(m1_rsp_q && m1_fin_q) && !(m1_rc_q && (m1_rsp_q || m1_fin_q)))
  `NI_ASSERT(NoWakeAndFinish, !((wake_own || wake_ctrl) && finish_o))
  `NI_ASSERT(SetOnlyFreeEntry, seg_ptt_we_i && !seg_retx_i -> !ptt_valid_eff[seg_ptt_waddr_i] ||
                                            (m2_res && m2_tid_q == seg_ptt_waddr_i))
  `NI_ASSERT(RetxOnlyPending, seg_retx_i -> seg_ptt_we_i && seg_ptt_waddr_i == seg_retx_tid_i &&
                                         ptt_valid_eff[seg_retx_tid_i] && rp_eff[seg_retx_tid_i] &&
                                         !(m2_res && m2_tid_q == seg_retx_tid_i))
  `NI_ASSERT(ResolvedWithoutCarry, m2_rsp_q -> (last_res == (resolved_new == m2_e_q.target)) &&
                                   (next_last_res == (resolved_new + cnt_t'(1) == m2_e_q.target)))
  `NI_ASSERT(M1SeqLate, (m1_seq_ok == (m1_entry.seq == m1_r_q.seq)) &&
                       (m1_accept -> m1_entry_prev.xfer == m1_entry.xfer))
  `NI_ASSERT(NoRequestTwice, rq_push_o -> !rp_eff[m2_tid_q])
`ifndef SYNTHESIS
  // The forward selects compared in M1 are the compares of the write addresses with M2's
  // transfer (when M2 holds a response: its transfer is M1's read), and the registered
  // increment is the forwarded count plus one.
  xfer_t ackp_waddr_q, parkp_waddr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ackp_waddr_q  <= '0;
      parkp_waddr_q <= '0;
    end else begin
      ackp_waddr_q  <= ackmd_waddr_o;
      parkp_waddr_q <= seg_park_waddr_i;
    end
  end
  `NI_ASSERT(AckFwdIsCompare, m2_rsp_q || m2_rc_q -> ack_fwd == (ackp_we_q && ackp_waddr_q == x))
  `NI_ASSERT(ParkFwdIsCompare, m2_rsp_q || m2_rc_q ->
                              park_fwd == (parkp_we_q && parkp_waddr_q == x))
  `NI_ASSERT(ResolvedIsInc, !m2_rc_q -> resolved_new == ack_cur.resolved + cnt_t'(1))
  // M2's re-issues-left flag is the compare of its entry against MaxRetries as it was in M1.
  logic [63:0] max_retries_m1_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) max_retries_m1_q <= '0;
    else         max_retries_m1_q <= max_retries_i;
  end
  `NI_ASSERT(LeftIsCompare, m2_rsp_q -> m2_left_q == (64'(m2_e_q.retries) < max_retries_m1_q))
  // The valid and re-issue-pending bits every reader sees are those an immediate write of
  // the segmenter's set and clear gives (the bits as they were before the writes were
  // registered), every cycle.
  logic [NumTids-1:0] imm_valid_q, imm_rp_q, imm_res, imm_set, imm_retx, imm_req;
  assign imm_res  = m2_res       ? NumTids'(1) << m2_tid_q        : '0;
  assign imm_set  = seg_ptt_we_i ? NumTids'(1) << seg_ptt_waddr_i : '0;
  assign imm_retx = seg_retx_i   ? NumTids'(1) << seg_retx_tid_i  : '0;
  assign imm_req  = rq_push_o    ? NumTids'(1) << m2_tid_q        : '0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      imm_valid_q <= '0;
      imm_rp_q    <= '0;
    end else begin
      imm_valid_q <= (imm_valid_q & ~imm_res) | imm_set;
      imm_rp_q    <= Retx ? (imm_rp_q & ~imm_res & ~imm_retx) | imm_req : '0;
    end
  end
  `NI_ASSERT(ValidIsImmediate, ptt_valid_eff == imm_valid_q &&
                              m1_valid_cur == imm_valid_q[m1_r_q.tid])
  `NI_ASSERT(PendIsImmediate, rp_eff == imm_rp_q && m1_rp_cur == imm_rp_q[m1_r_q.tid])
`endif
  `NI_ASSERT(TmoAccepted, tmo_v -> !rsp_ready_o && !seg_gnt)
  `NI_ASSERT(NoFinishTwice, m2_fin_q -> !fin_rsp)
  `NI_ASSERT(ArbGrantMatches, mh_gnt -> rsp_ready_o)

endmodule

`default_nettype wire
