// SPDX-License-Identifier: Apache-2.0
// Receive-context table of the receive unit (ICD 13; docs/design.md section 15): one context
// per block being received, looked up fully associatively on (src_node, tid).
//
// Storage is split by who touches it each cycle. In flops: the keys, valid bits, the count
// of writes issued whose B has not returned (every B decrements one), an "every slot set" bit
// (cfull, read when a B returns) and the completion-check marks. The rest of each context
// (cdat_t: seq, npkts, slots-set count, bitmap, notify state, the control packet's contents)
// is in a RAM (u_ctx) with one read port, read a cycle ahead of the decision that needs it:
// while a completion check is pending the checked context, otherwise the context of the
// descriptor at the FIFO head; a write to the word being read is forwarded (the RAM reads
// the old word).
//
// recv_proc decides; this table says what it needs to know (the head packet's lookup, the
// lowest marked context's state) and applies the decision: take the head packet into its
// context (new, restarted or the same), issue a context's notification record, free it;
// recv_writer's B responses count writes down, recv_reclaim frees idle contexts.
`default_nettype none
`include "ni_assert.svh"

module recv_ctx_table
  import ni_pkg::*;
#(
  parameter int unsigned RxContexts    = 64,
  parameter int unsigned WrOutstanding = 16,  // write bursts awaiting B
  localparam int unsigned CtxW         = $clog2(RxContexts),
  localparam int unsigned PendW        = $clog2(WrOutstanding + 1)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // the descriptor at the head of the ingress FIFO: its key is looked up every cycle
  input  logic            desc_valid_i,
  input  recv_desc_t      desc_i,
  input  logic            desc_pop_i,   // ... and leaves the FIFO this cycle
  // what the decision on its packet (data or control) needs
  output logic            lk_rdy_o,     // its lookup and its context's word are read
  output logic            lk_full_o,    // no context of its key and none free (counter 20)
  output logic            lk_stale_o,   // its context has a newer seq (21)
  output logic            lk_dup_o,     // same seq, its slot or control packet is there (21)
  output logic [CtxW-1:0] lk_idx_o,     // the context the packet is taken into
  // the lowest context marked for a completion check
  input  logic            fsm_idle_i,   // recv_writer idle: recv_proc decides this cycle
  input  logic            ck_turn_i,    // ... and takes a ready check (no inline ACK first)
  output logic            ck_any_o,
  output logic [CtxW-1:0] ck_idx_o,
  output logic            ck_rdy_o,     // its word is read: the outputs below are its
  output logic            ck_wait_o,    // not complete (writes out, slots or control missing)
  output logic            ck_record_o,  // complete; its notification record is still to write
  output recv_key_t       ck_key_o,
  output logic [47:0]     ck_naddr_o,   // the notification record's address, tag and size
  output logic [63:0]     ck_ntag_o,
  output logic [31:0]     ck_nsize_o,
  // updates (at most one of take, record and free in a cycle)
  input  logic            take_i,       // the head packet is taken into context lk_idx_o
  input  logic            record_i,     // context ck_idx_o's record is issued
  input  logic            free_i,       // context ck_idx_o is complete and ACKed: freed
  input  logic            ck_done_i,    // the check of ck_idx_o is decided: unmarked
  input  logic [1:0]      pend_add_i,   // writes issued with take_i or record_i (the table
                                        // computes them itself before the decision, pa:
                                        // this one is checked against it, PendAddEarly)
  input  logic            b_ctx_i,      // a B of a write of context b_ctx_idx_i returned
  input  logic [CtxW-1:0] b_ctx_idx_i,
  // the idle scanner (recv_reclaim)
  output logic            touch_o,      // a packet of context touch_idx_o is taken now
  output logic [CtxW-1:0] touch_idx_o,
  input  logic [CtxW-1:0] scan_idx_i,   // the context the scanner looks at
  output logic            scan_ok_o,    // ... may be freed: live, no write out, not in use
  input  logic            reclaim_i,    // ... and is idle: freed unless it is written now
  output logic            reclaimed_o,  // ... it is freed (counter 26)
  output logic            busy_o        // a context is live
);

  // The part of a context kept in RAM.
  typedef struct packed {
    seq_t              seq;
    logic [NpktsW-1:0] npkts;      // 0 until a data packet told it
    logic [NpktsW-1:0] cnt;        // slots set
    logic [63:0]       bitmap;     // slot = dst_addr[15:10]
    logic              notify;     // the block needs its notification
    logic              have_ctrl;  // its control packet arrived
    logic              nf_issued;  // the notification record was written
    logic [47:0]       naddr;
    logic [63:0]       ntag;
    logic [31:0]       nsize;
  } cdat_t;

  // A whole context: the flop-held fields and the RAM word.
  typedef struct packed {
    logic             valid;
    node_t            src;
    tid_t             tid;
    logic [PendW-1:0] pend;  // writes issued, B not back
    cdat_t            d;
  } ctx_t;

  logic  [RxContexts-1:0]            cv_q, cv_d;        // valid
  node_t [RxContexts-1:0]            csrc_q;            // key: source node
  tid_t  [RxContexts-1:0]            ctid_q;            // key: tid
  logic  [PendW-1:0][RxContexts-1:0] pend_q, pend_d;    // writes issued, B not back (sliced)
  logic  [RxContexts-1:0]            cfull_q, cfull_d;  // npkts known and every slot set
  logic  [RxContexts-1:0]            chk_q, chk_d;      // to be checked for completion

  // The counts of writes in flight are kept bit-sliced: pend_q[k] holds bit k of every
  // context's count. Each context's update (below: its B's decrement, the pick of its next
  // count) is the gates a per-context form would have, written once for all contexts as
  // word-wide logic, which a simulator evaluates a word at a time; a read of one count gathers
  // its bit from each slice (the same 64-way multiplexers as a read of a packed word).
  function automatic logic [PendW-1:0] pend_at(logic [PendW-1:0][RxContexts-1:0] p,
                                               logic [CtxW-1:0] idx);
    logic [PendW-1:0] v;
    for (int unsigned k = 0; k < PendW; k++) v[k] = p[k][idx];
    return v;
  endfunction

  // =======================================================================================
  // Lookup of the head descriptor's key, and the lowest marked context
  // =======================================================================================
  // The lookup is made every cycle on the head and the table as they are (lkn_*) and
  // registered (lk_*): the decision on the head packet uses the registered lookup, once it
  // is of this head and this table, a cycle after the head arrived and after each change of
  // the contexts' keys and valid bits (a take, a free, a reclaim). The key compare and the
  // lowest free context are then off the decision's path; the context's RAM word is read
  // at the lookup of the cycle before, as before. The decision waits for that cycle only
  // when the writer is idle then: after a packet that writes lines it is not.
  logic                  lkn_hit, lkn_free_any;
  logic [CtxW-1:0]       lkn_idx, lkn_free;
  logic [RxContexts-1:0] lkn_match;  // contexts holding the head's key: at most one
  // At most one context matches (asserted below: OneContextPerKey), so the hit's index is
  // the OR of the matching contexts' indices: no priority between them to resolve.
  always_comb begin
    lkn_idx = '0;
    for (int unsigned i = 0; i < RxContexts; i++) begin
      lkn_match[i] = cv_q[i] && csrc_q[i] == desc_i.src && ctid_q[i] == desc_i.hdr.tid;
      lkn_idx      = lkn_idx | (lkn_match[i] ? CtxW'(i) : '0);
    end
    lkn_hit = |lkn_match;
  end

  // A new key takes the lowest free context.
  first_set #(.Width(RxContexts)) u_free_first (
    .in_i (~cv_q),
    .any_o(lkn_free_any),
    .idx_o(lkn_free)
  );

  logic                  lk_cur_q;  // the registered lookup is of this head and this table
  logic                  lk_hit_q, lk_free_any_q;
  logic [CtxW-1:0]       lk_idx_q, lk_free_q;
  logic [RxContexts-1:0] lk_match_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lk_cur_q      <= 1'b0;
      lk_hit_q      <= 1'b0;
      lk_free_any_q <= 1'b0;
      lk_idx_q      <= '0;
      lk_free_q     <= '0;
      lk_match_q    <= '0;
    end else begin
      lk_cur_q      <= desc_valid_i && !desc_pop_i && !take_i && !free_i && !reclaimed_o;
      lk_hit_q      <= lkn_hit;
      lk_free_any_q <= lkn_free_any;
      lk_idx_q      <= lkn_idx;
      lk_free_q     <= lkn_free;
      lk_match_q    <= lkn_match;
    end
  end

  // The head's lookup the decision uses.
  logic                  lk_hit, lk_free_any;
  logic [CtxW-1:0]       lk_idx, lk_free;
  logic [RxContexts-1:0] lk_match;
  assign lk_hit      = lk_hit_q;
  assign lk_free_any = lk_free_any_q;
  assign lk_idx      = lk_idx_q;
  assign lk_free     = lk_free_q;
  assign lk_match    = lk_match_q;

  // The context to check for completion is picked a cycle ahead and held in a register
  // (ck_idx_q) until its check is decided: the decision then starts at a register instead
  // of the search for the lowest marked context. The pick is of the table a cycle before:
  // the lowest marked context when none is held, after a decided check the lowest marked
  // one other than the checked (whose mark is being cleared); a mark set meanwhile waits
  // for the next pick. A held pick whose mark is gone (its context reclaimed) is not
  // checked and is replaced.
  logic            ck_any, ck_pick_q;
  logic [CtxW-1:0] ck_idx, ck_idx_q;
  logic            ck_all_any, ck_oth_any;
  logic [CtxW-1:0] ck_all_idx, ck_oth_idx;
  first_set #(.Width(RxContexts)) u_chk_first (
    .in_i (chk_q),
    .any_o(ck_all_any),
    .idx_o(ck_all_idx)
  );
  first_set #(.Width(RxContexts)) u_chk_other (
    .in_i (chk_q & ~(RxContexts'(1'b1) << ck_idx_q)),
    .any_o(ck_oth_any),
    .idx_o(ck_oth_idx)
  );
  assign ck_idx = ck_idx_q;
  assign ck_any = ck_pick_q && chk_q[ck_idx_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ck_pick_q <= 1'b0;
      ck_idx_q  <= '0;
    end else if (ck_done_i) begin
      ck_pick_q <= ck_oth_any;
      ck_idx_q  <= ck_oth_idx;
    end else if (!ck_any) begin
      ck_pick_q <= ck_all_any;
      ck_idx_q  <= ck_all_idx;
    end
  end

  // =======================================================================================
  // The context RAM and its read port
  // =======================================================================================
  // Read a cycle ahead: while a completion check is pending, the checked context; otherwise
  // (and in the cycle the check is decided) the context the head descriptor hits.
  logic            ctx_wr_en;  // update context ctx_wr_idx to ctx_wr_val
  logic [CtxW-1:0] ctx_wr_idx;
  ctx_t            ctx_wr_val;
  logic [CtxW-1:0] rd_idx, rd_idx_q;
  cdat_t           rd_raw, cd, fwd_dat_q;
  logic            fwd_q, ck_rdy, lk_rdy, ck_eval;

  dp_ram #(
    .Depth(RxContexts),
    .Width($bits(cdat_t))
  ) u_ctx (
    .clk_i  (clk_i),
    .we_i   (ctx_wr_en),
    .waddr_i(ctx_wr_idx),
    .wdata_i(ctx_wr_val.d),
    .re_i   (1'b1),
    .raddr_i(rd_idx),
    .rdata_o(rd_raw)
  );

  assign cd      = fwd_q ? fwd_dat_q : rd_raw;
  assign ck_rdy  = rd_idx_q == ck_idx;
  assign lk_rdy  = lk_cur_q && (!lk_hit || (rd_idx_q == lk_idx));
  assign ck_eval = ck_turn_i && ck_any && ck_rdy;
  assign rd_idx  = (ck_any && !ck_eval) ? ck_idx : lkn_idx;

  // Whether this cycle's context write is the context read now (its word is then forwarded
  // next cycle). The write's index is known early; the read's is the check's or the
  // lookup's hit, and the lookup's side is the hit's own match bit picked by the write's
  // index (or, without a hit, index 0) rather than a compare behind the hit's index
  // (`WrIsRdIsCompare`).
  logic wr_is_rd;
  assign wr_is_rd = (ck_any && !ck_eval) ? (ctx_wr_idx == ck_idx) :
                    (lkn_hit ? lkn_match[ctx_wr_idx] : (ctx_wr_idx == '0));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_idx_q  <= '0;
      fwd_q     <= 1'b0;
      fwd_dat_q <= '0;
    end else begin
      rd_idx_q  <= rd_idx;
      fwd_q     <= ctx_wr_en && wr_is_rd;
      fwd_dat_q <= ctx_wr_val.d;
    end
  end

  // =======================================================================================
  // The checked context
  // =======================================================================================
  ctx_t ck_c;
  logic ck_done;  // every slot of its block set
  assign ck_c    = '{valid: cv_q[ck_idx], src: csrc_q[ck_idx], tid: ctid_q[ck_idx],
                     pend: pend_at(pend_q, ck_idx), d: cd};
  assign ck_done = (ck_c.d.npkts != '0) && (ck_c.d.cnt == ck_c.d.npkts);

  assign ck_any_o    = ck_any;
  assign ck_idx_o    = ck_idx;
  assign ck_rdy_o    = ck_rdy;
  assign ck_wait_o   = !ck_c.valid || ck_c.pend != '0 || !ck_done ||
                       (ck_c.d.notify && !ck_c.d.have_ctrl);
  assign ck_record_o = ck_c.d.notify && !ck_c.d.nf_issued;
  assign ck_key_o    = '{src: ck_c.src, tid: ck_c.tid, seq: ck_c.d.seq};
  assign ck_naddr_o  = ck_c.d.naddr;
  assign ck_ntag_o   = ck_c.d.ntag;
  assign ck_nsize_o  = ck_c.d.nsize;

  // =======================================================================================
  // The head packet's context, and what it becomes if the packet is taken (a new or
  // restarted context, its slot set or its control packet attached)
  // =======================================================================================
  ctx_t            lk_c, lk_next;
  logic            lk_same, lk_newer, lk_alloc, lk_dup;
  logic [5:0]      lk_slot;
  logic [CtxW-1:0] lk_tgt;
  ctrl_payload_t   lk_cp;
  assign lk_c     = '{valid: cv_q[lk_idx], src: csrc_q[lk_idx], tid: ctid_q[lk_idx],
                      pend: pend_at(pend_q, lk_idx), d: cd};
  assign lk_same  = lk_hit && (desc_i.hdr.seq == lk_c.d.seq);
  assign lk_newer = lk_hit && seq_is_newer(desc_i.hdr.seq, lk_c.d.seq);
  assign lk_alloc = !lk_hit && lk_free_any;
  assign lk_slot  = desc_i.hdr.dst_addr[15:10];
  assign lk_tgt   = lk_alloc ? lk_free : lk_idx;
  assign lk_cp    = ctrl_payload_t'(desc_i.payload);
  assign lk_dup   = (desc_i.hdr.kind == WkData) ? lk_same && lk_c.d.bitmap[lk_slot]
                                                 : lk_same && lk_c.d.have_ctrl;

  // What the table does not read of the head descriptor: the verdict and line count are
  // recv_proc's; inline payload bytes and the record's unused words are no context's.
  logic unused_desc;
  assign unused_desc = ^{desc_i.good, desc_i.nlines, desc_i.hdr.dst_addr[63:16],
                         desc_i.hdr.dst_addr[9:0], desc_i.hdr.rsvd, desc_i.hdr.pd,
                         desc_i.hdr.retx, desc_i.hdr.last, desc_i.hdr.len, lk_cp.rsvd,
                         lk_cp.total_blocks, lk_cp.notify_addr[63:48]};

  always_comb begin
    lk_next = (lk_alloc || lk_newer) ? '0 : lk_c;
    if (lk_alloc || lk_newer) begin
      lk_next.valid = 1'b1;
      lk_next.src   = desc_i.src;
      lk_next.tid   = desc_i.hdr.tid;
      lk_next.d.seq = desc_i.hdr.seq;
      lk_next.pend  = lk_newer ? lk_c.pend : '0;  // a restart keeps its writes in flight
    end
    if (desc_i.hdr.kind == WkData) begin
      lk_next.d.bitmap[lk_slot] = 1'b1;
      lk_next.d.cnt             = lk_next.d.cnt + NpktsW'(!(lk_same && lk_c.d.bitmap[lk_slot]));
      lk_next.d.npkts           = desc_i.hdr.npkts;
      lk_next.d.notify          = lk_next.d.notify || desc_i.hdr.notify;
    end else if (!(lk_same && lk_c.d.have_ctrl)) begin
      lk_next.d.have_ctrl = 1'b1;
      lk_next.d.notify    = 1'b1;
      lk_next.d.naddr     = lk_cp.notify_addr[47:0];
      lk_next.d.ntag      = lk_cp.notify_tag;
      lk_next.d.nsize     = lk_cp.size;
    end
  end

  assign lk_rdy_o   = lk_rdy;
  assign lk_full_o  = !lk_hit && !lk_free_any;
  assign lk_stale_o = lk_hit && !lk_same && !lk_newer;
  assign lk_dup_o   = lk_dup;
  assign lk_idx_o   = lk_tgt;

  // =======================================================================================
  // Updates
  // =======================================================================================
  // The word written: the head packet's context, the checked one with its record issued, or
  // the freed one (zero). Which of them is known before the decision: a check (a record or a
  // free) is decided only while a checked context is pending (ck_any), a take only while none
  // is (recv_proc's priority; WriteKindEarly), and a decided check writes a record exactly
  // when the record is still to write. So the index and the word are picked by ck_any and
  // ck_record_o, and only the write enable waits for the decision.
  always_comb begin
    ctx_wr_en  = take_i || record_i || free_i;
    ctx_wr_idx = ck_any ? ck_idx : lk_tgt;
    ctx_wr_val = lk_next;
    if (ck_any) begin
      ctx_wr_val = '0;
      if (ck_record_o) begin
        ctx_wr_val             = ck_c;
        ctx_wr_val.d.nf_issued = 1'b1;
      end
    end
  end

  assign touch_o     = take_i;
  assign touch_idx_o = lk_tgt;
  // The scanned context may go when it is live, has no write out and is not being checked; a
  // write of it in this very cycle (scan_wr) keeps it, which the flops below apply context by
  // context (a written context takes the written value, rc_eff) rather than through the
  // reclaim decision.
  logic scan_wr;
  assign scan_ok_o   = cv_q[scan_idx_i] && (pend_at(pend_q, scan_idx_i) == '0) &&
                       !(ck_any && ck_idx == scan_idx_i && fsm_idle_i);
  // (scan_wr is wr_sel's bit of the scanned context, FreedIsScanned; compared here from the
  // registered indices so that reclaimed_o is one gate behind the decision, not a 64-bit OR)
  assign scan_wr     = (take_i && lk_tgt == scan_idx_i) ||
                       ((record_i || free_i) && ck_idx == scan_idx_i);
  assign reclaimed_o = reclaim_i && !scan_wr;

  // The context written this cycle, one select line per context straight from the decision
  // (the head's matching context, else the allocated one; the checked context), and whether
  // it keeps its count of writes in flight (a packet taken into its own context, a record)
  // or starts from zero (an allocation, a free): each context's count register takes the
  // written value through its own select line, not through a decoder of the written index
  // on the decision's path.
  // The index decodes are of registers (the one-hot of an index shifted by a late enable would
  // be a multiplexer tree behind that enable); the late events only AND them.
  logic [RxContexts-1:0] wr_sel, b_sel, rc_sel, rc_eff, ck_sel, lk_sel, scan_sel;
  logic                  wr_keep;
  assign ck_sel   = RxContexts'(1'b1) << ck_idx;
  assign lk_sel   = lk_hit ? lk_match : RxContexts'(1'b1) << lk_free;
  assign scan_sel = RxContexts'(1'b1) << scan_idx_i;
  assign wr_sel   = ({RxContexts{take_i}} & lk_sel) | ({RxContexts{record_i || free_i}} & ck_sel);
  assign wr_keep  = ck_any ? ck_record_o : lk_hit;  // (only read with a write: wr_sel)
  assign b_sel    = {RxContexts{b_ctx_i}} & (RxContexts'(1'b1) << b_ctx_idx_i);  // its B returned
  assign rc_sel   = {RxContexts{reclaim_i}} & scan_sel;  // the context the scanner frees,
  assign rc_eff   = rc_sel & ~wr_sel;                    // unless it is written now

  // A context whose last write returned is checked for completion, if every slot of its
  // block is set by then: a block still missing packets is checked after the B of the write
  // that sets its last slot (or when its control packet arrives), so recv_proc spends no
  // cycle per packet on checks that cannot succeed.
  logic [RxContexts-1:0] chk_b, pend_one;  // pend_one: the contexts with one write in flight
  always_comb begin
    pend_one = pend_q[0];
    for (int unsigned k = 1; k < PendW; k++) pend_one = pend_one & ~pend_q[k];
  end
  assign chk_b = b_sel & pend_one & cfull_q;

  // The written context's next count, computed once and before the decision: the count the
  // written word carries (the head's context for a take into it, the checked context for a
  // record: both read through a registered index) or zero (an allocation, a free), plus the
  // writes the decision issues with it (pa: one for a data packet written, one or two for a
  // record; PendAddEarly), picked like the word (ck_any, ck_record_o, the head's lookup).
  // Its three sums are made before that pick, so no carry chain is behind it. wv_b is the
  // same minus one, for a B of that context in the same cycle. A context that starts from
  // zero has no write in flight, so no B of it returns then (PendNoUnderflow); its outcome
  // takes the B into account anyway, as the plain sum does (PendIsSum).
  logic [PendW-1:0] base_p0, base_m1, base_p1, base_p2, wv, wv_b;
  logic [1:0]       pa;
  assign base_p0 = !wr_keep ? '0 : (ck_any ? ck_c.pend : lk_c.pend);
  assign base_m1 = base_p0 - PendW'(1'b1);
  assign base_p1 = base_p0 + PendW'(1'b1);
  assign base_p2 = base_p0 + PendW'(2'd2);
  assign pa      = ck_any ? (!ck_record_o ? 2'd0 : (ck_naddr_o[5:0] > 6'd48) ? 2'd2 : 2'd1)
                          : 2'((desc_i.hdr.kind == WkData) && !lk_dup);
  always_comb begin
    unique case (pa)
      2'd0:    begin wv = base_p0; wv_b = base_m1; end
      2'd1:    begin wv = base_p1; wv_b = base_p0; end
      default: begin wv = base_p2; wv_b = base_p1; end
    endcase
  end

  // Every other context's count, minus one for a B of it: slice by slice, the borrow
  // ripples from bit 0 up.
  logic [PendW-1:0][RxContexts-1:0] pend_b;
  always_comb begin
    logic [RxContexts-1:0] brw;  // borrow into slice k
    brw = b_sel;
    for (int unsigned k = 0; k < PendW; k++) begin
      pend_b[k] = pend_q[k] ^ brw;
      brw       = brw & ~pend_q[k];
    end
  end

  // Flop-held context state: the decisions' writes, B returns, reclaims; completion marks.
  // Each context takes the written value through its own select line (wr_sel) like its count
  // above, and the values are made before the decision picks one: the written context's
  // "every slot set" bit is the head packet's context's as it would become (lk_next_full) or
  // the checked context's, not a compare behind the pick of the written word.
  // The keys are not behind the decision at all. A take into a matching context writes the
  // key it holds, and a record keeps it; only an allocation writes a new key, and it writes
  // the lowest free context (lk_free). The key of a context that is not valid is never read
  // (the lookup, the checks and the scanner all require its valid bit), so the head's key is
  // written into the registered lowest free context every cycle it is still free, whatever
  // the decision (KeyOfValid). A free leaves the key as it was.
  logic  wv_valid, wv_full, lk_next_full, chk_set;
  logic [RxContexts-1:0] key_sel;  // the registered lowest free context, while it is free
  assign lk_next_full = (lk_next.d.npkts != '0) && (lk_next.d.cnt == lk_next.d.npkts);
  assign wv_valid     = ck_any ? (ck_record_o && ck_c.valid) : lk_next.valid;
  assign wv_full      = ck_any ? (ck_record_o && ck_done) : lk_next_full;
  assign key_sel      = (RxContexts'(1'b1) << lk_free) & ~cv_q;
  assign chk_set      = take_i && desc_i.hdr.kind != WkData && !lk_dup;

  always_comb begin
    cv_d    = ((wr_sel & {RxContexts{wv_valid}}) | (~wr_sel & cv_q)) & ~rc_eff;
    cfull_d = ((wr_sel & {RxContexts{wv_full}}) | (~wr_sel & cfull_q)) & ~rc_eff;
    // a context's writes count from the decision on (not from their AW); a B counts one down
    for (int unsigned k = 0; k < PendW; k++) begin
      pend_d[k] = ((wr_sel & ~b_sel & {RxContexts{wv[k]}}) |
                   (wr_sel & b_sel & {RxContexts{wv_b[k]}}) | (~wr_sel & pend_b[k])) & ~rc_eff;
    end
    // a decided check is unmarked; a new control packet marks its context (a take's select
    // line is its context's: WrSelIsWrIdx)
    chk_d = ((chk_q & ~(ck_sel & {RxContexts{ck_done_i}})) | (wr_sel & {RxContexts{chk_set}}) |
             chk_b) & ~rc_eff;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cv_q    <= '0;
      csrc_q  <= '0;
      ctid_q  <= '0;
      pend_q  <= '0;
      cfull_q <= '0;
      chk_q   <= '0;
    end else begin
      cv_q    <= cv_d;
      // (the keys as enabled loads in the clocked block: the simulator writes them at a clock
      // edge, not in every evaluation)
      for (int unsigned i = 0; i < RxContexts; i++) begin
        if (key_sel[i]) begin
          csrc_q[i] <= desc_i.src;
          ctid_q[i] <= desc_i.hdr.tid;
        end
      end
      pend_q  <= pend_d;
      cfull_q <= cfull_d;
      chk_q   <= chk_d;
    end
  end

  assign busy_o = cv_q != '0;

  // =======================================================================================
  // Assertions
  // =======================================================================================
  // One context per key: whatever key the descriptor FIFO's head holds (a packet's key when
  // one waits, any bits otherwise), at most one valid context matches it. Contexts are
  // allocated only on a lookup that missed, so a second context of a key shows up here the
  // next time that key is looked up (one check of the hit vector per cycle instead of a
  // comparison of every pair of contexts).
  `NI_ASSERT_ONEHOT0(OneContextPerKey, lkn_match)
  `NI_ASSERT(WrIsRdIsCompare, wr_is_rd == (ctx_wr_idx == rd_idx))
  // The registered lookup, once current, is the lookup of this cycle.
  `NI_ASSERT(LookupIsCurrent, lk_cur_q -> lk_match == lkn_match && lk_free_any == lkn_free_any &&
                                          lk_free == lkn_free)
  // recv_proc's side of the interface: one update a cycle, each on the word it read.
  `NI_ASSERT_ONEHOT0(OneUpdate, {take_i, record_i, free_i})
  `NI_ASSERT(TakeReadsItsContext, take_i -> lk_rdy && !lk_full_o && !lk_stale_o)
  `NI_ASSERT(CheckReadsItsContext, ck_done_i -> ck_any && ck_rdy)
  // With no pick held, a marked context is picked in the next cycle.
  `NI_ASSERT_NEXT(PickedWhenMarked, !ck_pick_q && chk_q != '0, ck_pick_q)
  `NI_ASSERT(UpdateIsChecked, (record_i || free_i) -> ck_done_i)
  // No ACK (free) of a context before its writes returned; a record only of a complete
  // notify block, once.
  `NI_ASSERT(FreeAfterLastB, free_i -> pend_at(pend_q, ck_idx) == '0 && !ck_wait_o)
  `NI_ASSERT(RecordOnce, record_i -> !ck_wait_o && ck_record_o)
  // The select lines name the context the decision writes, and its count is the one the
  // written word carries.
  `NI_ASSERT(WrSelIsWrIdx, wr_sel == (ctx_wr_en ? RxContexts'(1) << ctx_wr_idx : '0))
  `NI_ASSERT(WrValIsWrWord, ctx_wr_en -> wv_valid == ctx_wr_val.valid &&
                             wv_full == ((ctx_wr_val.d.npkts != '0) &&
                                         (ctx_wr_val.d.cnt == ctx_wr_val.d.npkts)))
  // The key a valid context has after a write is the written word's (the speculative key
  // write above reaches every allocation; a take into a hit or a record keeps the key).
  `NI_ASSERT(KeyOfValid, ctx_wr_en && ctx_wr_val.valid ->
                         (key_sel[ctx_wr_idx] ? {desc_i.src, desc_i.hdr.tid} ==
                                                {ctx_wr_val.src, ctx_wr_val.tid}
                                              : {csrc_q[ctx_wr_idx], ctid_q[ctx_wr_idx]} ==
                                                {ctx_wr_val.src, ctx_wr_val.tid}))
  `NI_ASSERT(WrKeepIsWrPend, ctx_wr_en -> ctx_wr_val.pend ==
                              (wr_keep ? pend_at(pend_q, ctx_wr_idx) : '0))
  // The picked counts are the plain sums: the written context's count (kept or from zero)
  // plus the added writes, the B's context's count minus one, the reclaimed context's zero.
`ifndef SYNTHESIS
  logic [PendW-1:0][RxContexts-1:0] ref_pend;
  always_comb begin
    logic [PendW-1:0] v;
    v        = '0;
    ref_pend = pend_q;
    if (ctx_wr_en) begin
      v = (wr_keep ? pend_at(pend_q, ctx_wr_idx) : '0) + PendW'(pend_add_i);
      for (int unsigned k = 0; k < PendW; k++) ref_pend[k][ctx_wr_idx] = v[k];
    end
    if (b_ctx_i) begin
      v = pend_at(ref_pend, b_ctx_idx_i) - PendW'(1'b1);
      for (int unsigned k = 0; k < PendW; k++) ref_pend[k][b_ctx_idx_i] = v[k];
    end
    if (reclaimed_o) begin
      for (int unsigned k = 0; k < PendW; k++) ref_pend[k][scan_idx_i] = 1'b0;
    end
  end
  `NI_ASSERT(PendIsSum, pend_d == ref_pend)
`endif
  // Pending counts never wrap.
  `NI_ASSERT(PendNoUnderflow, b_ctx_i -> pend_at(pend_q, b_ctx_idx_i) != '0)
  `NI_ASSERT(PendNoOverflow, ctx_wr_en -> 32'(ctx_wr_val.pend) + 32'(pend_add_i) <
                                          (32'd1 << PendW))
  // The scanner frees only an idle context.
  `NI_ASSERT(ReclaimOnlyIdle, reclaim_i -> scan_ok_o)
  // A context is never freed in the cycle it is written (a packet taken, a record, an ACK).
  `NI_ASSERT(NotFreedWhenWritten, reclaimed_o -> !(ctx_wr_en && ctx_wr_idx == scan_idx_i))
  `NI_ASSERT(FreedIsScanned, rc_eff == (RxContexts'(reclaimed_o) << scan_idx_i))
  // What the write is known before the decision: a take only without a pending check, a
  // record or a free only with one, a record exactly when its record is still to write, and
  // the writes issued with it.
  `NI_ASSERT(WriteKindEarly, (take_i -> !ck_any) && ((record_i || free_i) -> ck_any) &&
                             ((record_i || free_i) -> record_i == ck_record_o))
  `NI_ASSERT(PendAddEarly, ctx_wr_en -> pa == pend_add_i)

`ifndef SYNTHESIS
  // The RAM word a decision sees (read a cycle ahead, with forwarding) is the context's
  // current word: a shadow copy in flops, updated by the same writes, agrees with it.
  cdat_t shadow_q [RxContexts];
  always_ff @(posedge clk_i) begin
    if (ctx_wr_en) shadow_q[ctx_wr_idx] <= ctx_wr_val.d;
  end
  // The comparison is registered and the assertion checks the register, a cycle later: an
  // assertion on the comparison itself would make the simulation model copy the whole
  // shadow array (its sampled value) on every evaluation.
  logic read_current_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) read_current_q <= 1'b1;
    else         read_current_q <= !(cv_q[rd_idx_q] && (fsm_idle_i || take_i)) ||
                                    cd == shadow_q[rd_idx_q];
  end
  `NI_ASSERT(CtxReadCurrent, read_current_q)
`endif

endmodule

`default_nettype wire
