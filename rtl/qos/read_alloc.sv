// SPDX-License-Identifier: Apache-2.0
// Read-channel allocator (priority enforcer) of the QoS engine (ICD 16; thesis chapter 5, the
// missing piece for remote read requests; ExaNeSt 4.5.1). docs/design.md section 19.
//
// A READ_REQ head beat from the receive unit (rreq) is held one cycle in stage A and decided
// there against the read channels 64..127 of its page `pd`:
//   - its (src_node, tid) matches a busy read channel: a re-issue of a request still being
//     served. A newer seq becomes the seq the channel answers; an older one is dropped.
//     Either way counted (28), nothing else happens.
//   - else no read channel of the page is IDLE: dropped, counted (27), not answered.
//   - else it is served (29): the lowest-numbered IDLE read channel takes a one-block write
//     transfer, written through Transfer Table port 0 in a cycle the AXI slave leaves it free
//     (the CPU's descriptor writes go first), its notification address and tag into the read
//     channels' notification RAM, and the transfer is enqueued (scheduling-queue source 3) in
//     the next cycle or later, as a new transfer of its kind and prio. Served transfers
//     wait for their enqueue in a two-entry FIFO (stage E): a serve needs a free entry at
//     the start of the cycle, not this cycle's enqueue grant.
// A request taken from the port enters stage N, a register, and stage A from there when
// stage A is free at the end of a cycle (its own request decided or none): the key compare
// made as it enters stage A reads the key RAMs at a registered page, not at the port's.
// A request taken while stage N holds one that stage A does not take waits in a one-entry
// skid register and enters stage N the cycle the other leaves it: `rreq_ready_o` is the
// skid's empty flag, a register, not the decision (which ends late in the cycle).
// When the Message Handler finishes a read channel's transfer, the channel's index enters the
// answer FIFO; at its head the channel's deferred response — ACK (DONE) or NACK (ERROR) for
// (tid, seq) to src_node — is offered on drsp, and the channel returns to IDLE when it is
// taken. A channel is busy (matched by re-issues, never allocated) from its allocation until
// its response has left, so the FIFO (one entry per channel) never overflows.
`default_nettype none
`include "ni_assert.svh"

module read_alloc
  import ni_pkg::*;
#(
  parameter int unsigned IntraPrios = 8
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // read requests from the receive unit (READ_REQ head beats with a good hcrc, for this node)
  input  logic            rreq_valid_i,
  output logic            rreq_ready_o,
  input  wire_head_t      rreq_i,
  // Transfer Table port 0, after the AXI slave's writes
  input  logic            tt_busy_i,  // the AXI slave writes the Transfer Table this cycle
  output logic            tt_we_o,
  output xfer_t           tt_line_o,
  output line_t           tt_wdata_o,
  // the read channels' notification RAM (address, tag)
  output logic            rdn_we_o,
  output logic [WchW-1:0] rdn_waddr_o,
  output logic [127:0]    rdn_wdata_o,
  // scheduling queues (source 3)
  output logic            enq_valid_o,
  input  logic            enq_ready_i,
  output qid_t            enq_qid_o,
  output xfer_t           enq_node_o,
  // a read channel's transfer finished (Message Handler)
  input  logic            fin_i,
  input  logic [WchW-1:0] fin_rch_i,  // {page, channel - 64}
  input  logic            fin_err_i,
  // deferred responses: ACK/NACK (tid, seq) to node
  output logic            drsp_valid_o,
  input  logic            drsp_ready_i,
  output rsp_t            drsp_o,
  output node_t           drsp_node_o,
  // statistics (counters 27, 28, 29) and the decision of this cycle (trace)
  output logic            stat_nochan_o,
  output logic            stat_dup_o,
  output logic            stat_serve_o,
  output logic            dec_o,        // stage A decides on a request this cycle
  output logic [1:0]      dec_action_o, // 0 serve, 1 drop (no channel), 2 re-issue matched
  output logic [5:0]      dec_ch_o      // the read channel served or matched, minus 64
);

  localparam int unsigned RchW = $clog2(RdChPerPage);  // 6

  // A request's key: (src_node, tid) as ICD 16 matches re-issues, and a 16-bit check of the
  // block it reads (its remote source and local destination): a busy channel serving a late
  // network duplicate of an older request of the same TID (whose block the issuer has since
  // completed) is not taken for a re-issue of the TID's next block, which would be answered
  // without its bytes being written (docs/design.md section 19).
  typedef struct packed {
    node_t       src;
    tid_t        tid;
    logic [15:0] blk;
  } rkey_t;

  function automatic logic [15:0] blk_check(logic [47:0] a, logic [47:0] b);
    logic [47:0] x;
    x = a ^ {b[23:0], b[47:24]};
    return x[15:0] ^ x[31:16] ^ x[47:32];
  endfunction

  // =======================================================================================
  // Read channel state: busy flags, key and the seq to answer
  // =======================================================================================
  // The busy flags are reset registers. A channel's key and seq are written when it is taken
  // (the seq again on a matched re-issue) and read only while it is busy, so they need no
  // reset and live in distributed RAM with asynchronous reads, in one 16-entry RAM per
  // channel of a page, indexed by page: a request entering stage A reads the 64 keys of its
  // page at once (compared side by side), stage A the 64 seqs (the matched channel's picked
  // by the one-hot match). The answer reads its channel's (src, tid) and seq from copies in
  // arrays of all the channels, indexed by the channel.
  logic [NumPages-1:0][RdChPerPage-1:0] busy_q, busy_d;
  logic [RdChPerPage-1:0]               abusy_q, abusy_d;  // a_page's flags, a register
  rkey_t [RdChPerPage-1:0]              npage_key;  // the keys of n_page's channels
  typedef struct packed {
    node_t src;
    tid_t  tid;
  } ans_key_t;
  ans_key_t                             head_key;   // head_rch's (src, tid) and seq in the
  seq_t                                 head_seq;   // answer's copies
  seq_t  [RdChPerPage-1:0]              ram_seq;    // the seqs of a_page's channels in the
                                                    // RAMs (without the one written behind)

  // =======================================================================================
  // Stage A: the request being decided
  // =======================================================================================
  logic          a_valid_q;
  wire_head_t    a_q;
  logic          n_valid_q;  // stage N: the request stage A loads next
  wire_head_t    n_q;
  logic          s_valid_q;  // the skid: a request taken while stage N holds another
  wire_head_t    s_q;
  logic          take;       // a request is taken from the port this cycle
  logic          a_load;     // stage A is free at the end of this cycle (takes stage N's)
  rreq_payload_t a_pl;
  logic [PageW-1:0] a_page;
  rkey_t         a_key;
  logic          a_done;  // stage A decides this cycle (and empties)
  // The request stage A loads (stage N's) and its key
  logic [47:0]   n_local_dst;
  logic [PageW-1:0] n_page;
  rkey_t         n_key;
  // Stage A's key compared with its page's channels' keys, a cycle ahead
  logic [RdChPerPage-1:0] keq_q, keq_d;
  // The seq written behind (see the key and seq RAMs); a serve's busy flag and key are
  // written behind with it (sv_q: the seq's write is a serve's, of channel sw_rch_q)
  logic            sw_valid_q;
  logic [WchW-1:0] sw_rch_q;
  seq_t            sw_seq_q;
  logic            sv_q;
  rkey_t           sv_key_q;
  logic            sw_at_a, sw_at_head;  // it is of a channel of a_page / it is head_rch's

  assign a_pl   = rreq_payload_t'(a_q.payload);
  assign a_page = a_q.hdr.pd;
  assign a_key  = '{src: a_q.src_node, tid: a_q.hdr.tid,
                   blk: blk_check(a_q.hdr.dst_addr[47:0], a_pl.local_dst[47:0])};
  assign n_local_dst = n_q.payload[47:0];  // rreq_payload_t's local_dst[47:0]
  assign n_page = n_q.hdr.pd;
  assign n_key  = '{src: n_q.src_node, tid: n_q.hdr.tid,
                   blk: blk_check(n_q.hdr.dst_addr[47:0], n_local_dst)};

  // The channel whose response leaves this cycle is IDLE from the next, busy in this one: a
  // request is matched to it as to a channel whose response is offered (a re-issue: its seq
  // is not taken, the issuer times out again and finds the channel IDLE), and it is not
  // allocated in this cycle. The response's handshake does not enter the decision.
  logic            pop;
  logic [WchW-1:0] head_rch;
  logic                        aq_full, aq_valid;
  logic [$clog2(NumRch+3)-1:0] unused_aq_count;
  logic [WchW:0]               aq_head;  // {err, read channel}
  logic [RdChPerPage-1:0] match, at_head, free;
  logic            match_any, free_any;
  logic [RchW-1:0] match_ch, free_ch;
  seq_t            match_seq;  // the matched channel's seq in its RAM
  logic            sw_match;   // the matched channel's seq is the one written behind

  // At most one busy channel has a key (a request matching one is never allocated another),
  // so the match is found among the busy channels, and the matched channel's seq is an
  // AND-OR of the page's seqs, not a read at the found channel.
  always_comb begin
    match_seq = '0;
    for (int unsigned c = 0; c < RdChPerPage; c++) begin
      match[c]   = abusy_q[c] && keq_q[c];
      at_head[c] = aq_valid && head_rch == {a_page, RchW'(c)};
      free[c]    = !abusy_q[c];
      match_seq  = match_seq | (ram_seq[c] & {SeqW{match[c]}});
    end
  end
  assign sw_match = sw_at_a && match[sw_rch_q[RchW-1:0]];

  // The lowest matching channel wins; the lowest IDLE one is allocated.
  first_set #(.Width(RdChPerPage)) u_match_first (
    .in_i (match),
    .any_o(match_any),
    .idx_o(match_ch)
  );
  first_set #(.Width(RdChPerPage)) u_free_first (
    .in_i (free),
    .any_o(free_any),
    .idx_o(free_ch)
  );
  // The same channel one-hot, each bit from its own OR of the lower flags (a balanced tree
  // from the flags), not decoded from free_ch at the end of the search: the serve's update of
  // stage A's flags and the key compare ahead take it (`FreeFirstIsFree`). (The index
  // encoded from the one-hot instead of the second search: two levels deeper, 12 -> 14 in
  // the engine at 5,000 ps, docs/design.md section 20.)
  logic [RdChPerPage-1:0] free_first;
  assign free_first[0] = free[0];
  for (genvar c = 1; c < RdChPerPage; c++) begin : g_free_first
    assign free_first[c] = free[c] && !(|free[c-1:0]);
  end

  logic            a_serve, a_dup, a_nochan, a_newer, a_reseq;
  logic [WchW-1:0] a_rch;
  xfer_t           a_xfer;
  logic            e_full;    // stage E holds two served transfers
  logic            serve_go;  // the serve happens this cycle: table port free, an entry free

  assign a_rch    = {a_page, match_any ? match_ch : free_ch};
  // A serve allocates the free channel: what it writes is addressed by free_ch, not a_rch
  // (the same channel then, `ServeIsFree`), off the match search.
  assign a_xfer   = {a_page, 1'b1, free_ch};
  assign a_dup    = a_valid_q && match_any;
  assign a_nochan = a_valid_q && !match_any && !free_any;
  assign a_serve  = a_valid_q && !match_any && free_any;
  // The request's seq is compared with the RAM's and with the one written behind side by
  // side, and the match picks (`NewerIsForwarded`): the register's loop through the
  // decision has no forward in front of the AND-OR and the compare.
  assign a_newer  = sw_match ? seq_is_newer(a_q.hdr.seq, sw_seq_q) :
                               seq_is_newer(a_q.hdr.seq, match_seq);
  // A newer seq is taken unless the channel's answer is already on drsp (it must hold; the
  // issuer's timeout re-issues again and finds the channel idle).
  assign a_reseq  = a_dup && a_newer && !(|(match & at_head));
  assign serve_go = a_serve && !tt_busy_i && !e_full;
  assign a_done   = a_dup || a_nochan || serve_go;

  assign rreq_ready_o = !s_valid_q;
  assign take         = rreq_valid_i && rreq_ready_o;
  assign a_load       = !a_valid_q || a_done;

  // The key compare of a request is made as it enters stage A, against the keys of its page
  // then: the keys change only by a serve (the request in stage A, which then loads the next),
  // so the compare holds while the request waits. A serve in the cycle of the load writes
  // stage A's key into the free channel, and the serve of the cycle before has its key still
  // in the register it is written from: the request loaded compares with those keys
  // (`KeyCompareAhead` asserts the result equals the compare with the keys of the decision's
  // cycle).
  always_comb begin
    for (int unsigned c = 0; c < RdChPerPage; c++) begin
      if (serve_go && free_first[c] && n_page == a_page) keq_d[c] = (a_key == n_key);
      else if (sv_q && sw_rch_q == {n_page, RchW'(c)})   keq_d[c] = (sv_key_q == n_key);
      else                                               keq_d[c] = (npage_key[c] == n_key);
    end
  end

  // ---- the transfer written into the channel (ICD 16): one block, a write back ------------
  always_comb begin
    ctrl_word_t  ctrl;
    seg_info_t   si;
    logic [BlockW-1:0] dst_lo;
    dst_lo        = a_pl.local_dst[BlockW-1:0];
    ctrl          = '0;
    ctrl.size     = a_pl.bytes;
    ctrl.prio     = a_pl.prio;
    // TID-only whatever the request's kind [deviation]: a one-block transfer gains nothing
    // from a flow ID, and FIDs held by this node's own reads (a read keeps its FID until its
    // last response) would deadlock two nodes reading each other (docs/design.md 19).
    ctrl.kind     = KindTid;
    ctrl.notify   = a_q.hdr.notify && a_pl.last;
    ctrl.last     = 1'b1;
    si            = '0;
    si.total        = total_blocks(dst_lo, a_pl.bytes);
    si.first_len_m1 = first_len_m1(dst_lo, a_pl.bytes);
    si.last_len_m1  = last_len_m1(dst_lo, a_pl.bytes[BlockW-1:0]);
    tt_wdata_o    = {ctrl, 64'(si), a_pl.local_dst, {16'd0, a_q.hdr.dst_addr[47:0]}};
  end

  assign tt_we_o     = serve_go;
  assign tt_line_o   = a_xfer;
  assign rdn_we_o    = serve_go;
  assign rdn_waddr_o = {a_page, free_ch};
  assign rdn_wdata_o = (a_q.hdr.notify && a_pl.last) ? {a_pl.notify_tag, a_pl.notify_addr} :
                                                       '0;

  // =======================================================================================
  // Stage E: the served transfers waiting for their enqueue, in serve order
  // =======================================================================================
  // Two entries, so a serve waits on the FIFO's registered count, not on the scheduling
  // queues' grant of this cycle (which ends late: every source's request decides it): a
  // served transfer refused this cycle does not hold the next serve back.
  logic                                  e_empty;
  logic [1:0]                            unused_e_count;
  logic [$bits(qid_t)+$bits(xfer_t)-1:0] e_head;

  sync_fifo #(
    .Depth(2),
    .Width($bits(qid_t) + $bits(xfer_t))
  ) u_enq_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (serve_go),
    .push_data_i({queue_of(KindTid, a_pl.prio, 1'b0, IntraPrios), a_xfer}),
    .pop_i      (enq_valid_o && enq_ready_i),
    .head_o     (e_head),
    .empty_o    (e_empty),
    .full_o     (e_full),
    .count_o    (unused_e_count)
  );

  assign enq_valid_o             = !e_empty;
  assign {enq_qid_o, enq_node_o} = e_head;

  // =======================================================================================
  // Answers: finished channels in order, each answered once
  // =======================================================================================

  // (its head from registers: the match's exclusion of the channel answered this cycle
  // compares it with stage A's page and channels)
  fifo_ram #(
    .Depth  (NumRch),
    .Width  (WchW + 1),
    .RegHead(1'b1)
  ) u_answers (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (fin_i),
    .push_data_i({fin_err_i, fin_rch_i}),
    .full_o     (aq_full),
    .pop_i      (pop),
    .valid_o    (aq_valid),
    .head_o     (aq_head),
    .count_o    (unused_aq_count)
  );

  assign head_rch      = aq_head[WchW-1:0];
  assign pop           = aq_valid && drsp_ready_i;
  assign drsp_valid_o  = aq_valid;
  assign drsp_o.tid    = head_key.tid;
  assign drsp_o.seq    = sw_at_head ? sw_seq_q : head_seq;
  assign drsp_o.nack   = aq_head[WchW];
  assign drsp_node_o   = head_key.src;

  // =======================================================================================
  // State updates
  // =======================================================================================
  // A serve's busy flag is written a cycle late, from the registers its seq is written from
  // (sv_q, sw_rch_q): the serve is decided late in its cycle (the AXI slave's use of the
  // Transfer Table port, the enqueue FIFO), and its write into the 1,024 flags was the
  // engine's longest path (14 levels, docs/design.md section 20). Stage A's own copy
  // (`abusy_q`) takes it at once, and a page loaded into stage A takes it from the registers.
  always_comb begin
    busy_d = busy_q;
    if (sv_q) busy_d[sw_rch_q[WchW-1:RchW]][sw_rch_q[RchW-1:0]] = 1'b1;
    if (pop)  busy_d[head_rch[WchW-1:RchW]][head_rch[RchW-1:0]] = 1'b0;
  end

  // Stage A's page's busy flags in a register of their own (`abusy_q`, `ABusyIsPage`): the
  // decision starts at them, not at a 16-way pick of the page's flags from `busy_q`. Kept
  // current with the serve and the answer's pop as `busy_q` is; when a request enters stage A
  // they are loaded with its page's flags and this cycle's changes to them, both candidates
  // made side by side and picked by the load.
  logic                   a_enter;  // a request enters stage A this cycle
  logic [RdChPerPage-1:0] serve_here, abusy_keep, abusy_new;
  assign a_enter = a_load && n_valid_q;
  always_comb begin
    for (int unsigned c = 0; c < RdChPerPage; c++) begin
      serve_here[c] = serve_go && free_first[c];
      abusy_keep[c] = (abusy_q[c] || serve_here[c]) &&
                      !(pop && head_rch == {a_page, RchW'(c)});
      abusy_new[c]  = (busy_q[n_page][c] || (serve_here[c] && n_page == a_page) ||
                       (sv_q && sw_rch_q == {n_page, RchW'(c)})) &&
                      !(pop && head_rch == {n_page, RchW'(c)});
    end
    abusy_d = a_enter ? abusy_new : abusy_keep;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= '0;
      abusy_q <= '0;
    end else begin
      busy_q  <= busy_d;
      abusy_q <= abusy_d;
    end
  end

  // The seq write is written behind: a serve's or a matched re-issue's seq waits a cycle in
  // a register (its channel picked by the decision, late in stage A's cycle) and enters the
  // channel's RAM in the next; the two reads of that cycle take it from the register where
  // it is for their channel (`SeqWriteBehind`). (The decision's path ended at the RAMs'
  // write enables: 15 levels, docs/design.md section 20.)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sw_valid_q <= 1'b0;
      sw_rch_q   <= '0;
      sw_seq_q   <= '0;
      sv_q       <= 1'b0;
      sv_key_q   <= '0;
    end else begin
      sw_valid_q <= serve_go || a_reseq;
      sv_q       <= serve_go;
      if (serve_go || a_reseq) begin
        sw_rch_q <= a_rch;  // (a serve: the free channel; a re-issue: the matched one)
        sw_seq_q <= a_q.hdr.seq;
      end
      if (serve_go) sv_key_q <= a_key;
    end
  end

  assign sw_at_a    = sw_valid_q && sw_rch_q[WchW-1:RchW] == a_page;
  assign sw_at_head = sw_valid_q && sw_rch_q == head_rch;

  // Key and seq RAMs (no reset: see above).
  for (genvar c = 0; c < RdChPerPage; c++) begin : g_key
    rkey_t key_mem_q [NumPages];
    seq_t  seq_mem_q [NumPages];
    always_ff @(posedge clk_i) begin
      if (sv_q && int'(sw_rch_q[RchW-1:0]) == c) key_mem_q[sw_rch_q[WchW-1:RchW]] <= sv_key_q;
    end
    always_ff @(posedge clk_i) begin
      if (sw_valid_q && int'(sw_rch_q[RchW-1:0]) == c) begin
        seq_mem_q[sw_rch_q[WchW-1:RchW]] <= sw_seq_q;
      end
    end
    assign npage_key[c] = key_mem_q[n_page];
    assign ram_seq[c]   = seq_mem_q[a_page];
  end

  // The answer reads one channel: its (src, tid) and seq from arrays of all the channels
  // indexed by the channel, written with the per-channel RAMs from the same registers (one
  // read of one entry, not a read of the 64 entries of its page and a pick among them).
  ans_key_t ans_key_mem_q [NumRch];
  seq_t     ans_seq_mem_q [NumRch];
  always_ff @(posedge clk_i) begin
    if (sv_q) ans_key_mem_q[sw_rch_q] <= '{src: sv_key_q.src, tid: sv_key_q.tid};
  end
  always_ff @(posedge clk_i) begin
    if (sw_valid_q) ans_seq_mem_q[sw_rch_q] <= sw_seq_q;
  end
  assign head_key = ans_key_mem_q[head_rch];
  assign head_seq = ans_seq_mem_q[head_rch];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q <= 1'b0;
      a_q       <= '0;
      n_valid_q <= 1'b0;
      n_q       <= '0;
      s_valid_q <= 1'b0;
      s_q       <= '0;
      keq_q     <= '0;
    end else begin
      if (a_load) begin
        a_valid_q <= n_valid_q;
        if (n_valid_q) begin
          a_q   <= n_q;
          keq_q <= keq_d;
        end
      end
      // Stage N refills when it is empty or its request enters stage A: from the skid, else
      // from the port (a full skid refuses the port).
      if (!n_valid_q || a_load) begin
        n_valid_q <= s_valid_q || take;
        n_q       <= s_valid_q ? s_q : rreq_i;
        s_valid_q <= 1'b0;
      end else if (take) begin
        s_valid_q <= 1'b1;
        s_q       <= rreq_i;
      end
    end
  end

  assign stat_nochan_o = a_nochan;
  assign stat_dup_o    = a_dup;
  assign stat_serve_o  = serve_go;
  assign dec_o         = a_done;
  assign dec_action_o  = a_dup ? 2'd2 : (a_nochan ? 2'd1 : 2'd0);
  assign dec_ch_o      = a_rch[RchW-1:0];

  // The request's other fields were checked by the receive unit or are informative.
  logic unused_a;
  assign unused_a = ^{a_q.rsvd, a_q.xfer_id, a_q.hcrc, a_q.hdr.rsvd, a_q.hdr.npkts, a_pl.kind,
                      a_q.hdr.retx, a_q.hdr.last, a_q.hdr.len, a_q.hdr.kind,
                      a_q.hdr.dst_addr[63:48], a_pl.rsvd, unused_aq_count, unused_e_count};

  // =======================================================================================
  // Assertions
  // =======================================================================================
  // A channel is never allocated twice, nor answered while idle; the answers never overflow.
  // The skid holds a request only behind one in stage N.
  `NI_ASSERT(SkidBehindN, s_valid_q -> n_valid_q)
  `NI_ASSERT(ServeIsFree, serve_go -> a_rch[RchW-1:0] == free_ch)
  `NI_ASSERT(FreeFirstIsFree, free_first == (free_any ? (RdChPerPage)'(1) << free_ch : '0))
  // The flag and key written behind are of a channel no answer is at (its transfer has not
  // even been enqueued) and not yet busy in busy_q.
  `NI_ASSERT(ServeBehindNotAnswered, sv_q -> !(aq_valid && head_rch == sw_rch_q) &&
                                            !busy_q[sw_rch_q[WchW-1:RchW]][sw_rch_q[RchW-1:0]])
`ifndef SYNTHESIS
  // The flags with the serve written behind in (what an immediate write would have stored).
  logic [NumPages-1:0][RdChPerPage-1:0] busy_cur;
  always_comb begin
    busy_cur = busy_q;
    if (sv_q) busy_cur[sw_rch_q[WchW-1:RchW]][sw_rch_q[RchW-1:0]] = 1'b1;
  end
  `NI_ASSERT(ABusyIsPage, abusy_q == busy_cur[a_page])
  `NI_ASSERT(AllocIdle, serve_go -> !busy_cur[a_page][a_rch[RchW-1:0]])
  `NI_ASSERT(AnswerBusy, aq_valid -> busy_cur[head_rch[WchW-1:RchW]][head_rch[RchW-1:0]])
  `NI_ASSERT(FinBusy, fin_i -> busy_cur[fin_rch_i[WchW-1:RchW]][fin_rch_i[RchW-1:0]])
`endif
  `NI_ASSERT(AnswersNeverFull, fin_i -> !aq_full)
  `NI_ASSERT_ONEHOT0(OneMatch, match)
`ifndef SYNTHESIS
  // The compare made a cycle ahead is the compare with the keys of this cycle (the key
  // written behind in).
  logic [RdChPerPage-1:0] page_eq;
  for (genvar c = 0; c < RdChPerPage; c++) begin : g_page_eq
    assign page_eq[c] = (sv_q && sw_rch_q == {a_page, RchW'(c)}) ?
                        sv_key_q == a_key : g_key[c].key_mem_q[a_page] == a_key;
  end
  `NI_ASSERT(KeyCompareAhead, a_valid_q -> keq_q == page_eq)
  // The seqs the two reads see are those of RAMs written in the decision's cycle.
  seq_t ref_seq_q [NumPages][RdChPerPage];
  always_ff @(posedge clk_i) begin
    if (serve_go || a_reseq) ref_seq_q[a_page][a_rch[RchW-1:0]] <= a_q.hdr.seq;
  end
  seq_t [RdChPerPage-1:0] page_seq;  // a_page's seqs with the one written behind
  seq_t                   fwd_seq;   // the matched channel's
  always_comb begin
    fwd_seq = '0;
    for (int unsigned c = 0; c < RdChPerPage; c++) begin
      page_seq[c] = (sw_at_a && sw_rch_q[RchW-1:0] == RchW'(c)) ? sw_seq_q : ram_seq[c];
      if (match[c]) fwd_seq = page_seq[c];
    end
  end
  `NI_ASSERT(NewerIsForwarded, a_dup -> a_newer == seq_is_newer(a_q.hdr.seq, fwd_seq))
  logic seq_behind_ok;
  always_comb begin
    seq_behind_ok = !aq_valid ||
                    drsp_o.seq == ref_seq_q[head_rch[WchW-1:RchW]][head_rch[RchW-1:0]];
    for (int unsigned c = 0; c < RdChPerPage; c++) begin
      if (a_valid_q && busy_cur[a_page][c] && page_seq[c] != ref_seq_q[a_page][c]) begin
        seq_behind_ok = 1'b0;
      end
    end
  end
  `NI_ASSERT(SeqWriteBehind, seq_behind_ok)
`endif
  `NI_ASSERT(MatchIsChannel, a_dup -> match[a_rch[RchW-1:0]] &&
                                      (|(match & at_head) == (aq_valid && head_rch == a_rch)))
  `NI_ASSERT_ONEHOT0(OneDecision, {a_dup, a_nochan, a_serve})
  `NI_ASSERT_VALID_HELD(EnqHeld, enq_valid_o, enq_ready_i, {enq_node_o, enq_qid_o})
  `NI_ASSERT_VALID_HELD(DrspHeld, drsp_valid_o, drsp_ready_i, {drsp_o, drsp_node_o})

endmodule

`default_nettype wire
