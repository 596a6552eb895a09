// SPDX-License-Identifier: Apache-2.0
// Receive unit of the NI (ICD sections 11 and 13; receive-side registration, sections 3-4):
// verified packets from the request network into memory, block ACKs and NACKs on the
// response network, completion notifications; ACK/NACK packets from the response network
// to the QoS engine.
//
//   rsp_rx -> hcrc, node and kind checks -> engine rsp port (never waits on req_rx/req_tx).
//   req_rx -> ingress: hcrc and node checks on the head beat, payload beats into the line
//             buffer with the streaming pcrc; at the tail a packet descriptor (head fields,
//             verdict, lines stored) enters the descriptor FIFO (store and forward).
//          -> processing FSM, one descriptor at a time: receive-context lookup (fully
//             associative on (src_node, tid)), then the packet's lines written (AW/W, one
//             burst: a data packet lies inside one 1 KiB destination window) or discarded;
//             inline payloads and notification records as single-line writes.
//          -> B responses, in order (one AXI ID), retire write tags: a context's last B
//             marks it for a completion check; an inline packet's last B queues its ACK.
//   Completion (FSM, between packets): all npkts slots set and no write outstanding ->
//   ACK; a notify block first needs its control packet, writes the notification record
//   and waits for that B. Contexts idle for RxIdle cycles are reclaimed by a scanner.
// docs/design.md section 15 describes the choices (context table, write tags, counters).
`default_nettype none

module recv_unit
  import ni_pkg::*;
#(
  parameter int unsigned MemAddrW      = 48,
  parameter int unsigned MemIdW        = 4,
  parameter int unsigned RxContexts    = 64,
  parameter int unsigned BufLines      = 64,  // payload lines buffered (RAM)
  parameter int unsigned DescDepth     = 8,   // packets buffered (descriptors)
  parameter int unsigned WrOutstanding = 16   // write bursts awaiting B
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  node_t               node_id_i,
  input  logic [63:0]         rx_idle_i,       // control word 2 (0 = never reclaim)
  // request network in
  input  logic                req_rx_valid_i,
  output logic                req_rx_ready_o,
  input  logic [511:0]        req_rx_data_i,
  input  logic                req_rx_last_i,
  // response network in and out
  input  logic                rsp_rx_valid_i,
  output logic                rsp_rx_ready_o,
  input  logic [511:0]        rsp_rx_data_i,
  output logic                rsp_tx_valid_o,
  input  logic                rsp_tx_ready_i,
  output logic [511:0]        rsp_tx_data_o,
  // responses to the QoS engine
  output logic                rsp_valid_o,
  input  logic                rsp_ready_i,
  output rsp_t                rsp_o,
  // memory writes (AXI4 AW/W/B, 512-bit data)
  output logic [MemIdW-1:0]   m_axi_awid_o,
  output logic [MemAddrW-1:0] m_axi_awaddr_o,
  output logic [7:0]          m_axi_awlen_o,
  output logic [2:0]          m_axi_awsize_o,
  output logic [1:0]          m_axi_awburst_o,
  output logic                m_axi_awvalid_o,
  input  logic                m_axi_awready_i,
  output logic [511:0]        m_axi_wdata_o,
  output logic [63:0]         m_axi_wstrb_o,
  output logic                m_axi_wlast_o,
  output logic                m_axi_wvalid_o,
  input  logic                m_axi_wready_i,
  input  logic [MemIdW-1:0]   m_axi_bid_i,
  input  logic [1:0]          m_axi_bresp_i,
  input  logic                m_axi_bvalid_i,
  output logic                m_axi_bready_o,
  // statistics events (ICD 8), one bit per counter and source
  output logic                stat_rx_req_o,       // 17: a packet arrived on req_rx
  output logic                stat_rx_rsp_o,       // 17: a packet arrived on rsp_rx
  output logic                stat_hcrc_req_o,     // 18
  output logic                stat_hcrc_rsp_o,     // 18
  output logic                stat_pcrc_o,         // 19
  output logic                stat_no_ctx_o,       // 20
  output logic                stat_dup_o,          // 21
  output logic                stat_misroute_req_o, // 22
  output logic                stat_misroute_rsp_o, // 22
  output logic                stat_ack_o,          // 23
  output logic                stat_nack_o,         // 24
  output logic                stat_notify_o,       // 25
  output logic                stat_reclaim_o,      // 26
  output logic                stat_tx_rsp_o,       // 16: a response left on rsp_tx
  // busy: a context is live, a packet buffered or a write outstanding
  output logic                busy_o
);

  localparam int unsigned CtxW    = $clog2(RxContexts);
  localparam int unsigned LineCntW = $clog2(BufLines + 3);
  localparam int unsigned PendW   = $clog2(WrOutstanding + 1);
  localparam int unsigned TagCntW = $clog2(WrOutstanding + 1);

  if (MemAddrW != 48) begin : gen_bad_addr_width
    $error("recv_unit: only MemAddrW = 48 is supported (ICD 10)");
  end
  if (RxContexts < 2 || (RxContexts & (RxContexts - 1)) != 0) begin : gen_bad_ctx
    $error("recv_unit: RxContexts must be a power of two, at least 2");
  end
  if (BufLines < 16) begin : gen_bad_buf
    $error("recv_unit: BufLines must hold a whole packet (16 lines)");
  end

  // =======================================================================================
  // Response network in: ACK/NACK to the engine
  // =======================================================================================
  wire_head_t rh;
  logic       rh_ok, rh_mine, rh_resp, rh_fwd, rsp_rx_hs;
  assign rh        = wire_head_t'(rsp_rx_data_i);
  // The hcrc check only while a beat is offered (what an idle port holds is not checked; in
  // simulation the XOR trees are then not evaluated at all).
  always_comb begin
    rh_ok = 1'b0;
    if (rsp_rx_valid_i) rh_ok = rh.hcrc == wire_hcrc(rsp_rx_data_i[383:0], rsp_rx_data_i[511:416]);
  end
  assign rh_mine   = rh.hdr.dst_addr[63:48] == node_id_i;
  assign rh_resp   = (rh.hdr.kind == WkAck) || (rh.hdr.kind == WkNack);
  assign rh_fwd    = rh_ok && rh_mine && rh_resp;
  logic unused_rh;  // a response is its header; the rest only feeds hcrc
  assign unused_rh = ^{rh.payload, rh.src_node, rh.xfer_id, rh.rsvd};

  assign rsp_valid_o    = rsp_rx_valid_i && rh_fwd;
  assign rsp_o.seq      = rh.hdr.seq;
  assign rsp_o.tid      = rh.hdr.tid;
  assign rsp_o.nack     = rh.hdr.kind == WkNack;
  assign rsp_rx_ready_o = rh_fwd ? rsp_ready_i : 1'b1;  // anything else is dropped at once
  assign rsp_rx_hs      = rsp_rx_valid_i && rsp_rx_ready_o;

  assign stat_rx_rsp_o       = rsp_rx_hs;
  assign stat_hcrc_rsp_o     = rsp_rx_hs && !rh_ok;
  assign stat_misroute_rsp_o = rsp_rx_hs && rh_ok && !(rh_mine && rh_resp);

  // =======================================================================================
  // Ingress: head checks, payload lines into the buffer, pcrc, one descriptor per packet
  // =======================================================================================
  typedef struct packed {
    logic               good;     // head and (data) payload verified
    logic [5:0]         nlines;   // payload lines in the line buffer (0..16)
    node_t              src;
    logic [255:0]       payload;  // inline bytes / control contents
    wire_hdr_t          hdr;
  } desc_t;

  typedef enum logic [1:0] {
    IHead,  // expecting a head beat
    IBody,  // payload beats and the tail of a data packet
    IDrop   // discarding the rest of a dropped packet
  } ing_e;

  ing_e         ist_q, ist_d;
  // What the ingress keeps of a data packet's head beat until its tail.
  typedef struct packed {
    node_t        src;
    logic [255:0] payload;
    wire_hdr_t    hdr;
  } ihead_t;

  wire_head_t   qh;
  ihead_t       ih_q;
  logic         ih_load;            // a data head is taken: keep it (ih_q)
  logic         qh_mine;
  logic [4:0]   i_p_q, i_p_d;       // payload beats the packet has (1..16)
  logic [5:0]   i_n_q, i_n_d;       // payload beats received
  logic [31:0]  i_crc_q;
  logic         i_crc_seed, i_crc_step;  // start the pcrc / add the payload beat taken
  logic         req_rx_hs;
  logic         line_push, line_full, line_valid, line_pop;
  logic [511:0] line_head;
  logic [LineCntW-1:0] unused_line_cnt;
  logic         desc_push, desc_pop, desc_full, desc_empty;
  desc_t        desc_in, desc_head;
  logic [$clog2(DescDepth + 1)-1:0] unused_desc_cnt;

  assign qh      = wire_head_t'(req_rx_data_i);
  assign qh_mine = qh.hdr.dst_addr[63:48] == node_id_i;
  logic unused_qh;  // the sender's transfer id is informative (ICD 11); nothing keeps it
  assign unused_qh = ^{qh.rsvd, qh.xfer_id};

  // The two functions read a few bits of their arguments (address bits, header fields).
  /* verilator lint_off UNUSEDSIGNAL */
  // Payload lines of a data packet: the 64-byte destination lines [A, A+len) touches.
  function automatic logic [4:0] data_lines(logic [47:0] a, logic [WireLenW-1:0] len);
    logic [47:0] last;
    last = a + {37'd0, len} - 48'd1;
    return 5'(last[9:6] - a[9:6]) + 5'd1;
  endfunction

  // A data head the unit can take: len 1..1024 inside one 1 KiB window, npkts 1..64.
  function automatic logic data_head_sane(wire_hdr_t h);
    logic [47:0] last;
    last = h.dst_addr[47:0] + {37'd0, h.len} - 48'd1;
    return (h.len != '0) && (h.len <= WireLenW'(PktBytes)) && (h.npkts != '0) &&
           (h.npkts <= NpktsW'(MaxNpkts)) && (last[47:10] == h.dst_addr[47:10]);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  logic i_tail;  // the beat in IBody is the tail (or the packet ended early)
  assign i_tail = (i_n_q == {1'b0, i_p_q}) || req_rx_last_i;

  always_comb begin
    unique case (ist_q)
      IHead:   req_rx_ready_o = !desc_full;
      IBody:   req_rx_ready_o = i_tail ? !desc_full : !line_full;
      IDrop:   req_rx_ready_o = 1'b1;
      default: req_rx_ready_o = 1'b0;
    endcase
  end
  assign req_rx_hs = req_rx_valid_i && req_rx_ready_o;

  always_comb begin
    logic qh_ok;  // the head beat's hcrc holds (computed where it is used: a head taken)
    ist_d     = ist_q;
    ih_load   = 1'b0;
    i_p_d     = i_p_q;
    i_n_d     = i_n_q;
    i_crc_seed = 1'b0;
    i_crc_step = 1'b0;
    line_push = 1'b0;
    desc_push = 1'b0;
    desc_in   = '0;
    stat_rx_req_o       = 1'b0;
    stat_hcrc_req_o     = 1'b0;
    stat_misroute_req_o = 1'b0;
    if (req_rx_hs) begin
      unique case (ist_q)
        IHead: begin
          qh_ok = qh.hcrc == wire_hcrc(req_rx_data_i[383:0], req_rx_data_i[511:416]);
          stat_rx_req_o = 1'b1;
          desc_in.hdr     = qh.hdr;
          desc_in.src     = qh.src_node;
          desc_in.payload = qh.payload;
          if (!qh_ok) begin
            stat_hcrc_req_o = 1'b1;                 // cannot name a sender: dropped
            if (!req_rx_last_i) ist_d = IDrop;
          end else if (!qh_mine || qh.hdr.kind == WkAck || qh.hdr.kind == WkNack ||
                       qh.hdr.kind > WkNack) begin
            stat_misroute_req_o = 1'b1;             // not for this node, or not a request
            if (!req_rx_last_i) ist_d = IDrop;
          end else if (qh.hdr.kind == WkData) begin
            if (req_rx_last_i) begin                // a data head without payload: bad
              desc_push    = 1'b1;
              desc_in.good = 1'b0;
            end else begin
              ist_d   = IBody;
              ih_load = 1'b1;
              i_p_d   = data_head_sane(qh.hdr) ? data_lines(qh.hdr.dst_addr[47:0], qh.hdr.len)
                                               : 5'd16;
              i_n_d   = '0;
              i_crc_seed = 1'b1;
            end
          end else begin                            // inline or control: the head is all
            desc_push    = 1'b1;
            desc_in.good = req_rx_last_i && (qh.hdr.kind == WkCtrl || qh.hdr.len != '0);
            if (!req_rx_last_i) ist_d = IDrop;
          end
        end
        IBody: begin
          if (!i_tail) begin
            line_push = 1'b1;
            i_n_d     = i_n_q + 6'd1;
            i_crc_step = 1'b1;
          end else begin
            desc_push       = 1'b1;
            desc_in.hdr     = ih_q.hdr;
            desc_in.src     = ih_q.src;
            desc_in.payload = ih_q.payload;
            desc_in.nlines  = i_n_q;
            desc_in.good    = req_rx_last_i && (i_n_q == {1'b0, i_p_q}) &&
                              data_head_sane(ih_q.hdr) &&
                              (req_rx_data_i == {480'd0, ~i_crc_q});
            ist_d           = req_rx_last_i ? IHead : IDrop;
          end
        end
        IDrop: if (req_rx_last_i) ist_d = IHead;
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ist_q   <= IHead;
      ih_q    <= '0;
      i_p_q   <= '0;
      i_n_q   <= '0;
      i_crc_q <= '0;
    end else begin
      ist_q   <= ist_d;
      i_p_q   <= i_p_d;
      i_n_q   <= i_n_d;
      // The wide state only where it changes (its next value is computed only then).
      if (ih_load) ih_q <= '{src: qh.src_node, payload: qh.payload, hdr: qh.hdr};
      if (i_crc_seed) i_crc_q <= CrcBeatSeed;
      else if (i_crc_step) i_crc_q <= crc32_beat(i_crc_q, req_rx_data_i);
    end
  end

  fifo_ram #(
    .Depth(BufLines),
    .Width(512)
  ) u_lines (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (line_push),
    .push_data_i(req_rx_data_i),
    .full_o     (line_full),
    .pop_i      (line_pop),
    .valid_o    (line_valid),
    .head_o     (line_head),
    .count_o    (unused_line_cnt)
  );

  sync_fifo #(
    .Depth(DescDepth),
    .Width($bits(desc_t))
  ) u_desc (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (desc_push),
    .push_data_i(desc_in),
    .pop_i      (desc_pop),
    .head_o     (desc_head),
    .empty_o    (desc_empty),
    .full_o     (desc_full),
    .count_o    (unused_desc_cnt)
  );

  // =======================================================================================
  // Receive contexts: keys, valid bits, pending-write counts and "every slot set" bits in
  // flops (the lookup compares all keys every cycle, B responses update the counts); the
  // rest of each context (seq, bitmap, counts, notification) in a RAM (u_ctx) read one
  // cycle ahead of the decision that needs it, and the idle stamps in a second RAM (u_seen)
  // read by the reclaim scanner. docs/design.md section 15.
  // =======================================================================================
  typedef struct packed {
    logic              valid;
    node_t             src;
    tid_t              tid;
    seq_t              seq;
    logic [NpktsW-1:0] npkts;     // 0 until a data packet told it
    logic [NpktsW-1:0] cnt;       // slots set
    logic [63:0]       bitmap;    // slot = dst_addr[15:10]
    logic              notify;    // the block needs its notification
    logic              have_ctrl; // its control packet arrived
    logic              nf_issued; // the notification record was written
    logic [47:0]       naddr;
    logic [63:0]       ntag;
    logic [31:0]       nsize;
    logic [PendW-1:0]  pend;      // writes issued, B not back
  } ctx_t;

  // The part of a context kept in RAM.
  typedef struct packed {
    seq_t              seq;
    logic [NpktsW-1:0] npkts;
    logic [NpktsW-1:0] cnt;
    logic [63:0]       bitmap;
    logic              notify;
    logic              have_ctrl;
    logic              nf_issued;
    logic [47:0]       naddr;
    logic [63:0]       ntag;
    logic [31:0]       nsize;
  } cdat_t;

  // ctx_dat leaves the flop-held fields (key, valid, pend) of its argument unread.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic cdat_t ctx_dat(ctx_t c);
    cdat_t d;
    d.seq       = c.seq;
    d.npkts     = c.npkts;
    d.cnt       = c.cnt;
    d.bitmap    = c.bitmap;
    d.notify    = c.notify;
    d.have_ctrl = c.have_ctrl;
    d.nf_issued = c.nf_issued;
    d.naddr     = c.naddr;
    d.ntag      = c.ntag;
    d.nsize     = c.nsize;
    return d;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  function automatic ctx_t ctx_view(logic v, node_t src, tid_t tid, logic [PendW-1:0] pend,
                                    cdat_t d);
    ctx_t c;
    c.valid     = v;
    c.src       = src;
    c.tid       = tid;
    c.pend      = pend;
    c.seq       = d.seq;
    c.npkts     = d.npkts;
    c.cnt       = d.cnt;
    c.bitmap    = d.bitmap;
    c.notify    = d.notify;
    c.have_ctrl = d.have_ctrl;
    c.nf_issued = d.nf_issued;
    c.naddr     = d.naddr;
    c.ntag      = d.ntag;
    c.nsize     = d.nsize;
    return c;
  endfunction

  logic  [RxContexts-1:0]            cv_q, cv_d;        // valid
  node_t [RxContexts-1:0]            csrc_q, csrc_d;    // key: source node
  tid_t  [RxContexts-1:0]            ctid_q, ctid_d;    // key: tid
  logic  [RxContexts-1:0][PendW-1:0] cpend_q, cpend_d;  // writes issued, B not back
  logic  [RxContexts-1:0]            cfull_q, cfull_d;  // npkts known and every slot set
  logic  [RxContexts-1:0]            chk_q, chk_d;      // to be checked for completion
  logic  [31:0]                      now_q;

  // Lookup of the descriptor at the FIFO head.
  desc_t           dh;
  logic            lk_hit, lk_free_any;
  logic [CtxW-1:0] lk_idx, lk_free;
  assign dh = desc_head;

  logic [RxContexts-1:0] lk_match;  // contexts holding the head's key: at most one
  always_comb begin
    lk_hit      = 1'b0;
    lk_idx      = '0;
    lk_free_any = 1'b0;
    lk_free     = '0;
    for (int unsigned i = 0; i < RxContexts; i++) begin
      lk_match[i] = cv_q[i] && csrc_q[i] == dh.src && ctid_q[i] == dh.hdr.tid;
      if (!lk_hit && lk_match[i]) begin
        lk_hit = 1'b1;
        lk_idx = CtxW'(i);
      end
      if (!lk_free_any && !cv_q[i]) begin
        lk_free_any = 1'b1;
        lk_free     = CtxW'(i);
      end
    end
  end

  // The oldest-index context marked for a completion check.
  logic            ck_any;
  logic [CtxW-1:0] ck_idx;
  always_comb begin
    ck_any = 1'b0;
    ck_idx = '0;
    for (int unsigned i = 0; i < RxContexts; i++) begin
      if (!ck_any && chk_q[i]) begin
        ck_any = 1'b1;
        ck_idx = CtxW'(i);
      end
    end
  end

  // 14-bit serial-number arithmetic: b is newer than a.
  function automatic logic seq_newer(seq_t b, seq_t a);
    seq_t d;
    d = b - a;
    return (d != '0) && !d[SeqW-1];
  endfunction

  // =======================================================================================
  // Write tags (one per AW burst, retired by its B in order) and inline ACKs
  // =======================================================================================
  typedef enum logic [1:0] {
    TagCtx,        // a context's write: B decrements its pending count
    TagInline,     // an inline packet's write, not its last
    TagInlineLast  // an inline packet's last write: B queues its ACK
  } tag_kind_e;

  typedef struct packed {
    tag_kind_e       kind;
    logic [CtxW-1:0] ctx;
    node_t           src;
    tid_t            tid;
    seq_t            seq;
  } tag_t;

  typedef struct packed {
    node_t src;
    tid_t  tid;
    seq_t  seq;
  } ack_t;

  logic   tag_push, tag_full, tag_empty, b_hs;
  tag_t   tag_in, tag_head;
  logic [TagCntW-1:0] tag_cnt;
  logic   ackq_push, ackq_pop, ackq_full, ackq_empty;
  ack_t   ackq_in, ackq_head;
  logic [$clog2(WrOutstanding + 1)-1:0] unused_ackq_cnt;

  sync_fifo #(
    .Depth(WrOutstanding),
    .Width($bits(tag_t))
  ) u_tags (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (tag_push),
    .push_data_i(tag_in),
    .pop_i      (b_hs),
    .head_o     (tag_head),
    .empty_o    (tag_empty),
    .full_o     (tag_full),
    .count_o    (tag_cnt)
  );

  sync_fifo #(
    .Depth(WrOutstanding),
    .Width($bits(ack_t))
  ) u_acks (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (ackq_push),
    .push_data_i(ackq_in),
    .pop_i      (ackq_pop),
    .head_o     (ackq_head),
    .empty_o    (ackq_empty),
    .full_o     (ackq_full),
    .count_o    (unused_ackq_cnt)
  );

  assign m_axi_bready_o = !ackq_full;
  assign b_hs           = m_axi_bvalid_i && m_axi_bready_o;
  assign ackq_push      = b_hs && tag_head.kind == TagInlineLast;
  assign ackq_in        = '{src: tag_head.src, tid: tag_head.tid, seq: tag_head.seq};

  // One ID, every B OKAY from a well-behaved memory: BID and BRESP carry nothing to act on.
  logic unused_b;
  assign unused_b = ^{m_axi_bid_i, m_axi_bresp_i};

  // =======================================================================================
  // Processing FSM
  // =======================================================================================
  typedef enum logic [2:0] {
    PIdle,     // choose: an inline ACK, a completion check, or the next packet
    PWrite,    // a data packet's lines: AW (one burst) and W beats
    PDiscard,  // pop the lines of a dropped packet
    PShort     // one or two single-line writes: inline payload or notification record
  } proc_e;

  proc_e           pst_q, pst_d;
  // the write in progress
  logic [47:0]     w_addr_q, w_addr_d;    // first byte
  logic [WireLenW-1:0] w_len_q, w_len_d;
  logic [4:0]      w_beats_q, w_beats_d;  // lines of a data write / beats left to discard
  logic [4:0]      w_j_q, w_j_d;          // W beat index
  logic            w_aw_q, w_aw_d;        // AW still to send
  tag_t            w_tag_q, w_tag_d;
  // short writes: 32 bytes at w_addr, w_len of them; two lines at most
  logic [255:0]    s_bytes_q, s_bytes_d;
  logic            s_second_q, s_second_d; // the second line is being written
  logic            s_w_q, s_w_d;           // W still to send for the current line
  // the response register (rsp_tx)
  logic            r_valid_q, r_valid_d;
  wire_head_t      r_beat_q, r_beat_d;

  function automatic wire_head_t make_resp(wire_kind_e k, tid_t t, seq_t s, node_t to,
                                           node_t from);
    wire_head_t h;
    h              = '0;
    h.hdr.kind     = k;
    h.hdr.tid      = t;
    h.hdr.seq      = s;
    h.hdr.dst_addr = {to, 48'd0};
    h.src_node     = from;
    return wire_seal(h);
  endfunction

  // Strobes of one line of a short write of `len` bytes at `a`: line 0 or 1.
  logic [127:0]  s_strb2;
  logic [1023:0] s_data2;
  always_comb begin
    logic [127:0] m;
    m       = (128'd1 << w_len_q) - 128'd1;
    s_strb2 = m << w_addr_q[5:0];
    s_data2 = {768'd0, s_bytes_q} << {w_addr_q[5:0], 3'b000};
  end
  logic s_two;  // the short write touches two lines
  assign s_two = s_strb2[127:64] != '0;

  // Strobes of beat j of a data write.
  logic [63:0] d_strb;
  always_comb begin
    logic [5:0] last, lo, hi;
    last = w_addr_q[5:0] + w_len_q[5:0] - 6'd1;  // lane of the last byte
    lo   = (w_j_q == '0) ? w_addr_q[5:0] : 6'd0;
    hi   = (w_j_q == w_beats_q - 5'd1) ? last : 6'd63;
    for (int unsigned l = 0; l < 64; l++) d_strb[l] = (6'(l) >= lo) && (6'(l) <= hi);
  end

  logic aw_hs, w_hs, resp_free;
  assign aw_hs     = m_axi_awvalid_o && m_axi_awready_i;
  assign w_hs      = m_axi_wvalid_o && m_axi_wready_i;
  assign resp_free = !r_valid_q;

  // AXI write channels
  always_comb begin
    m_axi_awid_o    = '0;
    m_axi_awsize_o  = 3'd6;
    m_axi_awburst_o = 2'b01;
    m_axi_awvalid_o = 1'b0;
    m_axi_awaddr_o  = '0;
    m_axi_awlen_o   = '0;
    m_axi_wvalid_o  = 1'b0;
    m_axi_wdata_o   = '0;
    m_axi_wstrb_o   = '0;
    m_axi_wlast_o   = 1'b0;
    unique case (pst_q)
      PWrite: begin
        m_axi_awvalid_o = w_aw_q && !tag_full;
        m_axi_awaddr_o  = {w_addr_q[47:6], 6'd0};
        m_axi_awlen_o   = 8'(w_beats_q) - 8'd1;
        m_axi_wvalid_o  = line_valid && (w_j_q < w_beats_q);
        m_axi_wdata_o   = line_head;
        m_axi_wstrb_o   = d_strb;
        m_axi_wlast_o   = w_j_q == w_beats_q - 5'd1;
      end
      PShort: begin
        m_axi_awvalid_o = w_aw_q && !tag_full;
        m_axi_awaddr_o  = {w_addr_q[47:6] + 42'(s_second_q), 6'd0};
        m_axi_wvalid_o  = s_w_q;
        m_axi_wdata_o   = s_second_q ? s_data2[1023:512] : s_data2[511:0];
        m_axi_wstrb_o   = s_second_q ? s_strb2[127:64] : s_strb2[63:0];
        m_axi_wlast_o   = 1'b1;
      end
      default: ;
    endcase
  end

  always_comb begin
    tag_push = aw_hs;
    tag_in   = w_tag_q;
    if (pst_q == PShort && w_tag_q.kind != TagCtx) begin
      tag_in.kind = (s_two && !s_second_q) ? TagInline : TagInlineLast;
    end
  end

  logic s_aw_done, s_w_done;  // PShort: the current line's AW and W are (being) sent
  assign s_aw_done = !w_aw_q || aw_hs;
  assign s_w_done  = !s_w_q || w_hs;

  // The context RAM's read port: the entry the next decision needs, read a cycle ahead.
  // While a completion check is pending it reads the checked context, otherwise (and in
  // the cycle the check is decided) the context of the descriptor at the FIFO head. A write
  // to the entry read in the same cycle is forwarded (the RAM reads the old word).
  logic            ctx_wr_en;     // update context ctx_wr_idx to ctx_wr_val
  logic [CtxW-1:0] ctx_wr_idx;
  ctx_t            ctx_wr_val;
  logic            ctx_touch;     // ... and stamp it as seen now (a packet of it was taken)
  logic [1:0]      ctx_pend_add;  // writes of context ctx_wr_idx issued (with ctx_wr_en)
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
    .wdata_i(ctx_dat(ctx_wr_val)),
    .re_i   (1'b1),
    .raddr_i(rd_idx),
    .rdata_o(rd_raw)
  );

  assign cd      = fwd_q ? fwd_dat_q : rd_raw;
  assign ck_rdy  = rd_idx_q == ck_idx;
  assign lk_rdy  = !lk_hit || (rd_idx_q == lk_idx);
  assign ck_eval = (pst_q == PIdle) && ackq_empty && ck_any && ck_rdy;
  assign rd_idx  = (ck_any && !ck_eval) ? ck_idx : lk_idx;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_idx_q  <= '0;
      fwd_q     <= 1'b0;
      fwd_dat_q <= '0;
    end else begin
      rd_idx_q  <= rd_idx;
      fwd_q     <= ctx_wr_en && (ctx_wr_idx == rd_idx);
      fwd_dat_q <= ctx_dat(ctx_wr_val);
    end
  end

  // The context the completion check looks at (valid when ck_rdy).
  ctx_t ck_c;
  logic ck_done;  // every slot of its block set
  assign ck_c    = ctx_view(cv_q[ck_idx], csrc_q[ck_idx], ctid_q[ck_idx], cpend_q[ck_idx], cd);
  assign ck_done = (ck_c.npkts != '0) && (ck_c.cnt == ck_c.npkts);

  // The context of the descriptor at the FIFO head, and what it becomes if the packet is
  // taken (a new or restarted context, its slot set or its control packet attached).
  ctx_t            lk_c, lk_next;
  logic            lk_same, lk_newer, lk_alloc;
  logic [5:0]      lk_slot;
  logic [CtxW-1:0] lk_tgt;
  ctrl_payload_t   lk_cp;
  logic            unused_cp;
  assign lk_c     = ctx_view(cv_q[lk_idx], csrc_q[lk_idx], ctid_q[lk_idx], cpend_q[lk_idx], cd);
  assign lk_same  = lk_hit && (dh.hdr.seq == lk_c.seq);
  assign lk_newer = lk_hit && seq_newer(dh.hdr.seq, lk_c.seq);
  assign lk_alloc = !lk_hit && lk_free_any;
  assign lk_slot  = dh.hdr.dst_addr[15:10];
  assign lk_tgt   = lk_alloc ? lk_free : lk_idx;
  assign lk_cp    = ctrl_payload_t'(dh.payload);
  assign unused_cp = ^{lk_cp.rsvd, lk_cp.total_blocks, lk_cp.notify_addr[63:48]};

  always_comb begin
    lk_next = (lk_alloc || lk_newer) ? '0 : lk_c;
    if (lk_alloc || lk_newer) begin
      lk_next.valid = 1'b1;
      lk_next.src   = dh.src;
      lk_next.tid   = dh.hdr.tid;
      lk_next.seq   = dh.hdr.seq;
      lk_next.pend  = lk_newer ? lk_c.pend : '0;  // a restart keeps its writes in flight
    end
    if (dh.hdr.kind == WkData) begin
      lk_next.bitmap[lk_slot] = 1'b1;
      lk_next.cnt             = lk_next.cnt + NpktsW'(!(lk_same && lk_c.bitmap[lk_slot]));
      lk_next.npkts           = dh.hdr.npkts;
      lk_next.notify          = lk_next.notify || dh.hdr.notify;
    end else if (!(lk_same && lk_c.have_ctrl)) begin
      lk_next.have_ctrl = 1'b1;
      lk_next.notify    = 1'b1;
      lk_next.naddr     = lk_cp.notify_addr[47:0];
      lk_next.ntag      = lk_cp.notify_tag;
      lk_next.nsize     = lk_cp.size;
    end
  end

  // Everything the FSM decides in a cycle.
  always_comb begin
    pst_d      = pst_q;
    w_addr_d   = w_addr_q;
    w_len_d    = w_len_q;
    w_beats_d  = w_beats_q;
    w_j_d      = w_j_q;
    w_aw_d     = w_aw_q;
    w_tag_d    = w_tag_q;
    s_bytes_d  = s_bytes_q;
    s_second_d = s_second_q;
    s_w_d      = s_w_q;
    r_valid_d  = r_valid_q && !rsp_tx_ready_i;
    r_beat_d   = r_beat_q;
    desc_pop   = 1'b0;
    line_pop   = 1'b0;
    ackq_pop   = 1'b0;
    ctx_wr_en  = 1'b0;
    ctx_wr_idx = '0;
    ctx_wr_val = '0;
    ctx_touch  = 1'b0;
    ctx_pend_add = '0;
    chk_d      = chk_q;
    stat_pcrc_o   = 1'b0;
    stat_no_ctx_o = 1'b0;
    stat_dup_o    = 1'b0;
    stat_ack_o    = 1'b0;
    stat_nack_o   = 1'b0;
    stat_notify_o = 1'b0;

    unique case (pst_q)
      PIdle: begin
        if (!ackq_empty) begin
          // an inline packet's write is complete: its ACK
          if (resp_free) begin
            ackq_pop   = 1'b1;
            r_valid_d  = 1'b1;
            r_beat_d   = make_resp(WkAck, ackq_head.tid, ackq_head.seq, ackq_head.src,
                                   node_id_i);
            stat_ack_o = 1'b1;
          end
        end else if (ck_any) begin
          if (!ck_rdy) begin
            // the checked context is read this cycle
          end else if (!ck_c.valid || ck_c.pend != '0 || !ck_done || (ck_c.notify && !ck_c.have_ctrl)) begin
            chk_d[ck_idx] = 1'b0;                      // not complete yet
          end else if (ck_c.notify && !ck_c.nf_issued) begin
            if (!tag_full) begin                       // write the notification record
              chk_d[ck_idx]  = 1'b0;
              ctx_wr_en      = 1'b1;
              ctx_wr_idx     = ck_idx;
              ctx_wr_val     = ck_c;
              ctx_wr_val.nf_issued = 1'b1;
              // its writes count from now, so that nothing reclaims the context meanwhile
              ctx_pend_add   = (ck_c.naddr[5:0] > 6'd48) ? 2'd2 : 2'd1;
              pst_d          = PShort;
              w_addr_d       = ck_c.naddr;
              w_len_d        = WireLenW'(16);
              s_bytes_d      = {128'd0, NotifyMagic, ck_c.src, ck_c.nsize, ck_c.ntag};
              s_second_d     = 1'b0;
              s_w_d          = 1'b1;
              w_aw_d         = 1'b1;
              w_tag_d        = '{kind: TagCtx, ctx: ck_idx, src: ck_c.src, tid: ck_c.tid, seq: ck_c.seq};
            end
          end else if (resp_free) begin                // complete: ACK, free
            chk_d[ck_idx] = 1'b0;
            ctx_wr_en     = 1'b1;
            ctx_wr_idx    = ck_idx;
            ctx_wr_val    = '0;
            r_valid_d     = 1'b1;
            r_beat_d      = make_resp(WkAck, ck_c.tid, ck_c.seq, ck_c.src, node_id_i);
            stat_ack_o    = 1'b1;
            stat_notify_o = ck_c.notify;
          end
        end else if (!desc_empty) begin
          if (!dh.good) begin
            // bad payload (or malformed) behind a good head: drop, NACK the sender
            if (resp_free) begin
              desc_pop    = 1'b1;
              r_valid_d   = 1'b1;
              r_beat_d    = make_resp(WkNack, dh.hdr.tid, dh.hdr.seq, dh.src, node_id_i);
              stat_pcrc_o = 1'b1;
              stat_nack_o = 1'b1;
              w_beats_d   = 5'(dh.nlines);
              if (dh.nlines != '0) pst_d = PDiscard;
            end
          end else if (dh.hdr.kind == WkInline) begin
            if (tag_cnt <= TagCntW'(WrOutstanding - 2)) begin
              desc_pop   = 1'b1;
              pst_d      = PShort;
              w_addr_d   = dh.hdr.dst_addr[47:0];
              w_len_d    = (dh.hdr.len > 11'd32) ? 11'd32 : dh.hdr.len;
              s_bytes_d  = dh.payload;
              s_second_d = 1'b0;
              s_w_d      = 1'b1;
              w_aw_d     = 1'b1;
              w_tag_d    = '{kind: TagInlineLast, ctx: '0, src: dh.src, tid: dh.hdr.tid,
                             seq: dh.hdr.seq};
            end
          end else if (lk_rdy) begin
            // data or control: the receive context (its RAM word read last cycle)
            desc_pop = 1'b1;
            if (!lk_hit && !lk_free_any) begin
              stat_no_ctx_o = 1'b1;                    // no context free: dropped
              w_beats_d     = 5'(dh.nlines);
              if (dh.nlines != '0) pst_d = PDiscard;
            end else if (lk_hit && !lk_same && !lk_newer) begin
              stat_dup_o = 1'b1;                       // older seq: stale
              w_beats_d  = 5'(dh.nlines);
              if (dh.nlines != '0) pst_d = PDiscard;
            end else begin
              if (dh.hdr.kind == WkData) begin
                if (lk_same && lk_c.bitmap[lk_slot]) begin
                  stat_dup_o = 1'b1;                   // slot already set: duplicate
                  w_beats_d  = 5'(dh.nlines);
                  pst_d      = PDiscard;
                end else begin
                  ctx_pend_add   = 2'd1;
                  pst_d          = PWrite;
                  w_addr_d       = dh.hdr.dst_addr[47:0];
                  w_len_d        = dh.hdr.len;
                  w_beats_d      = 5'(dh.nlines);
                  w_j_d          = '0;
                  w_aw_d         = 1'b1;
                  w_tag_d        = '{kind: TagCtx, ctx: lk_tgt, src: dh.src,
                                     tid: dh.hdr.tid, seq: dh.hdr.seq};
                end
              end else begin                           // control packet
                if (lk_same && lk_c.have_ctrl) begin
                  stat_dup_o = 1'b1;
                end else begin
                  chk_d[lk_tgt] = 1'b1;
                end
              end
              ctx_wr_en  = 1'b1;
              ctx_wr_idx = lk_tgt;
              ctx_wr_val = lk_next;
              ctx_touch  = 1'b1;
            end
          end
        end
      end

      PWrite: begin
        if (aw_hs) w_aw_d = 1'b0;
        if (w_hs) begin
          line_pop = 1'b1;
          w_j_d    = w_j_q + 5'd1;
        end
        if ((!w_aw_q || aw_hs) && w_hs && m_axi_wlast_o) pst_d = PIdle;
        else if ((!w_aw_q || aw_hs) && w_j_q == w_beats_q) pst_d = PIdle;
      end

      PDiscard: begin
        if (line_valid) begin
          line_pop  = 1'b1;
          w_beats_d = w_beats_q - 5'd1;
          if (w_beats_q == 5'd1) pst_d = PIdle;
        end
      end

      PShort: begin
        if (aw_hs) w_aw_d = 1'b0;
        if (w_hs)  s_w_d  = 1'b0;
        if (s_aw_done && s_w_done) begin
          if (s_two && !s_second_q) begin
            s_second_d = 1'b1;
            s_w_d      = 1'b1;
            w_aw_d     = 1'b1;
          end else begin
            pst_d = PIdle;
          end
        end
      end

      default: pst_d = PIdle;
    endcase
  end

  // The idle scanner: one context a cycle, its stamp read from u_seen in the cycle before.
  // A context stamped in the cycle its stamp was read is skipped this round (it was just
  // seen), as is one the FSM writes or checks in the cycle it would be reclaimed.
  logic [CtxW-1:0] scan_q, scan_rd_q;
  logic            seen_fresh_q;
  logic [31:0]     seen_rd;
  logic            reclaim;

  dp_ram #(
    .Depth(RxContexts),
    .Width(32)
  ) u_seen (
    .clk_i  (clk_i),
    .we_i   (ctx_wr_en && ctx_touch),
    .waddr_i(ctx_wr_idx),
    .wdata_i(now_q),
    .re_i   (1'b1),
    .raddr_i(scan_q),
    .rdata_o(seen_rd)
  );

  always_comb begin
    logic [31:0] idle;
    idle    = now_q - seen_rd;
    reclaim = cv_q[scan_rd_q] && (cpend_q[scan_rd_q] == '0) && (rx_idle_i != '0) &&
              seen_fresh_q && ({32'd0, idle} >= rx_idle_i) &&
              !(ctx_wr_en && ctx_wr_idx == scan_rd_q) &&
              !(ck_any && ck_idx == scan_rd_q && pst_q == PIdle);
  end
  assign stat_reclaim_o = reclaim;

  // Flop-held context state: the FSM's writes, B returns, reclaims.
  always_comb begin
    cv_d    = cv_q;
    csrc_d  = csrc_q;
    ctid_d  = ctid_q;
    cpend_d = cpend_q;
    cfull_d = cfull_q;
    if (ctx_wr_en) begin
      cv_d[ctx_wr_idx]    = ctx_wr_val.valid;
      csrc_d[ctx_wr_idx]  = ctx_wr_val.src;
      ctid_d[ctx_wr_idx]  = ctx_wr_val.tid;
      // a context's writes count from the decision on (not from their AW)
      cpend_d[ctx_wr_idx] = ctx_wr_val.pend + PendW'(ctx_pend_add);
      cfull_d[ctx_wr_idx] = (ctx_wr_val.npkts != '0) && (ctx_wr_val.cnt == ctx_wr_val.npkts);
    end
    if (b_hs && tag_head.kind == TagCtx) begin
      cpend_d[tag_head.ctx] = cpend_d[tag_head.ctx] - PendW'(1'b1);
    end
    if (reclaim) begin
      cv_d[scan_rd_q]    = 1'b0;
      cpend_d[scan_rd_q] = '0;
      cfull_d[scan_rd_q] = 1'b0;
    end
  end

  // A context whose last write returned is checked for completion, if every slot of its
  // block is set by then: a block still missing packets is checked after the B of the write
  // that sets its last slot (or when its control packet arrives), so the FSM spends no
  // cycle per packet on checks that cannot succeed.
  logic [RxContexts-1:0] chk_b;
  always_comb begin
    chk_b = '0;
    if (b_hs && tag_head.kind == TagCtx && cpend_q[tag_head.ctx] == PendW'(1'b1) &&
        cfull_q[tag_head.ctx]) begin
      chk_b[tag_head.ctx] = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cv_q       <= '0;
      csrc_q     <= '0;
      ctid_q     <= '0;
      cpend_q    <= '0;
      cfull_q    <= '0;
      chk_q      <= '0;
      now_q      <= '0;
      scan_q     <= '0;
      scan_rd_q  <= '0;
      seen_fresh_q <= 1'b0;
      pst_q      <= PIdle;
      w_addr_q   <= '0;
      w_len_q    <= '0;
      w_beats_q  <= '0;
      w_j_q      <= '0;
      w_aw_q     <= 1'b0;
      w_tag_q    <= '0;
      s_bytes_q  <= '0;
      s_second_q <= 1'b0;
      s_w_q      <= 1'b0;
      r_valid_q  <= 1'b0;
      r_beat_q   <= '0;
    end else begin
      cv_q       <= cv_d;
      csrc_q     <= csrc_d;
      ctid_q     <= ctid_d;
      cpend_q    <= cpend_d;
      cfull_q    <= cfull_d;
      chk_q      <= (chk_d | chk_b) & ~(reclaim ? (RxContexts'(1) << scan_rd_q) : '0);
      now_q      <= now_q + 32'd1;
      scan_q     <= scan_q + 1'b1;
      scan_rd_q  <= scan_q;
      seen_fresh_q <= !(ctx_wr_en && ctx_touch && ctx_wr_idx == scan_q);
      pst_q      <= pst_d;
      w_addr_q   <= w_addr_d;
      w_len_q    <= w_len_d;
      w_beats_q  <= w_beats_d;
      w_j_q      <= w_j_d;
      w_aw_q     <= w_aw_d;
      w_tag_q    <= w_tag_d;
      s_bytes_q  <= s_bytes_d;
      s_second_q <= s_second_d;
      s_w_q      <= s_w_d;
      r_valid_q  <= r_valid_d;
      r_beat_q   <= r_beat_d;
    end
  end

  assign rsp_tx_valid_o = r_valid_q;
  assign rsp_tx_data_o  = r_beat_q;
  assign stat_tx_rsp_o  = rsp_tx_valid_o && rsp_tx_ready_i;

  always_comb begin
    busy_o = !desc_empty || !tag_empty || !ackq_empty || r_valid_q || (pst_q != PIdle) ||
             (ist_q != IHead) || (cv_q != '0);
  end

  // =======================================================================================
  // Assertions
  // =======================================================================================
  `ASSERT_VALID_HELD(RspTxHeld, rsp_tx_valid_o, rsp_tx_ready_i, rsp_tx_data_o)
  `ASSERT_VALID_HELD(AwHeld, m_axi_awvalid_o, m_axi_awready_i, {m_axi_awaddr_o, m_axi_awlen_o})
  // No burst crosses 4 KiB, none is longer than 16 beats.
  `ASSERT(AwNo4kCross, m_axi_awvalid_o |->
                       ({1'b0, m_axi_awaddr_o[11:6]} + {1'b0, m_axi_awlen_o[5:0]}) < 7'd64)
  `ASSERT(AwMax16, m_axi_awvalid_o |-> m_axi_awlen_o < 8'd16)
  // Data is written only from a verified packet (the FSM writes only good descriptors).
  `ASSERT(WriteOnlyVerified, desc_pop && pst_d == PWrite |-> dh.good)
  // No B without its tag; tags never overflow.
  `ASSERT(BHasTag, m_axi_bvalid_i |-> !tag_empty)
  `ASSERT(TagNoOverflow, tag_push |-> !tag_full)
  // One context per key: whatever key the descriptor FIFO's head holds (a packet's key
  // when one waits, any bits otherwise), at most one valid context matches it. Contexts are
  // allocated only on a lookup that missed, so a second context of a key shows up here the
  // next time that key is looked up (one check of the hit vector per cycle instead of a
  // comparison of every pair of contexts).
  `ASSERT_ONEHOT0(OneContextPerKey, lk_match)
  // No ACK of a context before its writes returned.
  `ASSERT(AckAfterLastB, stat_ack_o && !ackq_pop |-> cpend_q[ck_idx] == '0)
  // Pending counts never wrap.
  `ASSERT(PendNoUnderflow, b_hs && tag_head.kind == TagCtx |-> cpend_q[tag_head.ctx] != '0)
  // The FSM decides on a context's RAM word only when it was read for that context.
  `ASSERT(CheckReadsItsContext, ck_eval |-> rd_idx_q == ck_idx)
  `ASSERT(LookupReadsItsContext, desc_pop && lk_hit |-> rd_idx_q == lk_idx ||
                                 !(dh.good && dh.hdr.kind != WkInline))

`ifndef SYNTHESIS
  // The RAM word the FSM sees (read a cycle ahead, with forwarding) is the context's
  // current word: a shadow copy in flops, updated by the same writes, agrees with it.
  cdat_t shadow_q [RxContexts];
  always_ff @(posedge clk_i) begin
    if (ctx_wr_en) shadow_q[ctx_wr_idx] <= ctx_dat(ctx_wr_val);
  end
  cdat_t shadow_rd;
  assign shadow_rd = shadow_q[rd_idx_q];
  `ASSERT(CtxReadCurrent, cv_q[rd_idx_q] && pst_q == PIdle |-> cd == shadow_rd)
`endif

endmodule

`default_nettype wire
