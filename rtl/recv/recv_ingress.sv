// SPDX-License-Identifier: Apache-2.0
// Ingress of the receive unit (ICD 11, 13): request packets from req_rx, checked and stored.
//
//   every beat first enters a one-beat input register (s_*_q); a head beat's hcrc is checked on
//   the way in and kept as its syndrome (s_syn_q, zero when it holds), so the decision below
//   starts at registers and the hcrc's XOR trees end at a register (docs/design.md section 15:
//   one cycle of latency).
//   head beat: hcrc, destination node and kind checks. A bad hcrc or a packet for another
//   node (or an ACK/NACK on the request network) is dropped whole (counters 18, 22). An inline
//   or control packet is its head: one descriptor. A data packet's head is kept (ih_q) while
//   its payload beats go into the line buffer (u_lines) and through the streaming pcrc; at
//   its tail (or an early `last`) one descriptor with the verdict enters the descriptor FIFO
//   (u_desc): store and forward, recv_proc decides on it when it reaches the head.
// Verdict bad (the descriptor's `good` low): wrong pcrc, wrong beat count, nonzero tail bits,
// an impossible data header (len 0 or > 1024, npkts 0 or > 64, across a 1 KiB destination
// window), a data head without payload, or an inline/control packet with extra beats or
// (inline) len 0. req_rx_ready is low only while the line buffer or the descriptor FIFO is
// full and the input register holds a beat; it comes from registers. docs/design.md section 15.
`default_nettype none
`include "ni_assert.svh"

module recv_ingress
  import ni_pkg::*;
#(
  parameter int unsigned BufLines  = 64,  // payload lines buffered (RAM)
  parameter int unsigned DescDepth = 8    // packets buffered (descriptors)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  node_t        node_id_i,
  // request network in
  input  logic         req_rx_valid_i,
  output logic         req_rx_ready_o,
  input  logic [511:0] req_rx_data_i,
  input  logic         req_rx_last_i,
  // the oldest stored packet (first word fall through) and its payload lines
  output logic         desc_valid_o,
  output recv_desc_t   desc_o,
  input  logic         desc_pop_i,
  output logic         line_valid_o,
  output logic [511:0] line_o,
  input  logic         line_pop_i,
  // read requests (READ_REQ head beats) to the engine's read-channel allocator (ICD 16),
  // apart from the descriptor FIFO: they never wait behind writes
  output logic         rreq_valid_o,
  input  logic         rreq_ready_i,
  output wire_head_t   rreq_o,
  // statistics events (ICD 8)
  output logic         stat_rx_o,        // 17: a packet arrived
  output logic         stat_hcrc_o,      // 18: dropped, bad hcrc
  output logic         stat_misroute_o,  // 22: dropped, not for this node or not a request
  // a packet partly received or a descriptor waiting
  output logic         busy_o
);

  localparam int unsigned LineCntW = $clog2(BufLines + 3);

  if (BufLines < 16) begin : gen_bad_buf
    $error("recv_ingress: BufLines must hold a whole packet (16 lines)");
  end

  typedef enum logic [1:0] {
    IHead,  // expecting a head beat
    IBody,  // payload beats and the tail of a data packet
    IDrop   // discarding the rest of a dropped packet
  } ing_e;

  // What the ingress keeps of a data packet's head beat until its tail.
  typedef struct packed {
    node_t        src;
    logic [255:0] payload;
    wire_hdr_t    hdr;
  } ihead_t;

  ing_e         ist_q, ist_d;
  wire_head_t   qh;
  ihead_t       ih_q;
  logic         ih_load;            // a data head is taken: keep it (ih_q)
  logic         qh_mine;
  logic [4:0]   i_p_q, i_p_d;       // payload beats the packet has (1..16)
  logic [5:0]   i_n_q, i_n_d;       // payload beats received
  logic [31:0]  i_crc_q;
  logic         i_crc_seed, i_crc_step;  // start the pcrc / add the payload beat taken
  logic         req_rx_hs;          // the input register's beat is taken
  logic         port_hs;            // a beat enters the input register
  logic         s_v_q;              // the input register holds a beat
  logic [511:0] s_data_q;
  logic         s_last_q;
  logic [31:0]  s_syn_q;            // its hcrc syndrome (a head beat's): zero when it holds
  logic         s_ok;
  logic         s_head_q;           // it is a packet's head (for the assertions)
  logic         rx_first_q;         // the next beat on req_rx is a packet's head
  logic         s_take;             // the decision takes the registered beat this cycle
  logic         line_push, line_full;
  logic [LineCntW-1:0] unused_line_cnt;
  logic         desc_push, desc_full, desc_empty;
  recv_desc_t   desc_in;
  logic [$clog2(DescDepth + 1)-1:0] unused_desc_cnt;
  logic         rreq_push, rreq_full, rreq_empty;
  logic [1:0]   unused_rreq_cnt;

  assign qh      = wire_head_t'(s_data_q);
  assign qh_mine = qh.hdr.dst_addr[63:48] == node_id_i;
  logic unused_qh;  // the sender's transfer id is informative (ICD 11); nothing keeps it;
                    // the hcrc was checked on the way into the input register
  assign unused_qh = ^{qh.rsvd, qh.xfer_id, qh.hcrc};

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
  assign i_tail = (i_n_q == {1'b0, i_p_q}) || s_last_q;

  always_comb begin
    unique case (ist_q)
      IHead:   s_take = !desc_full && !rreq_full;
      IBody:   s_take = i_tail ? !desc_full : !line_full;
      IDrop:   s_take = 1'b1;
      default: s_take = 1'b0;
    endcase
  end
  assign req_rx_hs      = s_v_q && s_take;
  assign req_rx_ready_o = !s_v_q || s_take;
  assign port_hs        = req_rx_valid_i && req_rx_ready_o;

  // The input register. Packets are delimited by `last`, so the beat after a last (or the
  // first after reset) is a head: only then is the hcrc computed (at the clock edge that
  // loads the beat: the simulator evaluates the XOR trees once per head). What is kept is the
  // syndrome, the received hcrc XOR the computed one, so only the XOR trees are in front of
  // the register and its zero test is behind it.
  assign s_ok = s_syn_q == '0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_v_q      <= 1'b0;
      rx_first_q <= 1'b1;
      s_data_q   <= '0;
      s_last_q   <= 1'b0;
      s_syn_q    <= '0;
      s_head_q   <= 1'b0;
    end else begin
      s_v_q <= port_hs || (s_v_q && !s_take);
      if (port_hs) begin
        rx_first_q <= req_rx_last_i;
        s_data_q   <= req_rx_data_i;
        s_last_q   <= req_rx_last_i;
        s_head_q   <= rx_first_q;
        if (rx_first_q) begin
          // (bytes 48-51 of a head beat are its hcrc: wire_head_t)
          s_syn_q <= req_rx_data_i[415:384] ^
                     wire_hcrc(req_rx_data_i[383:0], req_rx_data_i[511:416]);
        end
      end
    end
  end

  always_comb begin
    ist_d           = ist_q;
    ih_load         = 1'b0;
    i_p_d           = i_p_q;
    i_n_d           = i_n_q;
    i_crc_seed      = 1'b0;
    i_crc_step      = 1'b0;
    line_push       = 1'b0;
    desc_push       = 1'b0;
    rreq_push       = 1'b0;
    desc_in         = '0;
    stat_rx_o       = 1'b0;
    stat_hcrc_o     = 1'b0;
    stat_misroute_o = 1'b0;
    if (req_rx_hs) begin
      unique case (ist_q)
        IHead: begin
          stat_rx_o       = 1'b1;
          desc_in.hdr     = qh.hdr;
          desc_in.src     = qh.src_node;
          desc_in.payload = qh.payload;
          if (!s_ok) begin
            stat_hcrc_o = 1'b1;                     // cannot name a sender: dropped
            if (!s_last_q) ist_d = IDrop;
          end else if (!qh_mine || qh.hdr.kind == WkAck || qh.hdr.kind == WkNack ||
                       qh.hdr.kind > WkReadReq ||
                       (qh.hdr.kind == WkReadReq && !s_last_q)) begin
            stat_misroute_o = 1'b1;                 // not for this node, or not a request
            if (!s_last_q) ist_d = IDrop;      // (a read request is one beat)
          end else if (qh.hdr.kind == WkReadReq) begin
            rreq_push = 1'b1;                       // to the engine (ICD 16)
          end else if (qh.hdr.kind == WkData) begin
            if (s_last_q) begin                // a data head without payload: bad
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
            desc_in.good = s_last_q && (qh.hdr.kind == WkCtrl || qh.hdr.len != '0);
            if (!s_last_q) ist_d = IDrop;
          end
        end
        IBody: begin
          if (!i_tail) begin
            line_push  = 1'b1;
            i_n_d      = i_n_q + 6'd1;
            i_crc_step = 1'b1;
          end else begin
            desc_push       = 1'b1;
            desc_in.hdr     = ih_q.hdr;
            desc_in.src     = ih_q.src;
            desc_in.payload = ih_q.payload;
            desc_in.nlines  = i_n_q;
            desc_in.good    = s_last_q && (i_n_q == {1'b0, i_p_q}) &&
                              data_head_sane(ih_q.hdr) &&
                              (s_data_q == {480'd0, ~i_crc_q});
            ist_d           = s_last_q ? IHead : IDrop;
          end
        end
        IDrop: if (s_last_q) ist_d = IHead;
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ist_q <= IHead;
      i_p_q <= '0;
      i_n_q <= '0;
    end else begin
      ist_q <= ist_d;
      i_p_q <= i_p_d;
      i_n_q <= i_n_d;
    end
  end

  // The wide state is loaded only where it changes, as enabled register loads rather than
  // _d signals on purpose: Verilator then evaluates the head copy and the pcrc's XOR trees
  // (crc32_beat) only at a clock edge that takes a beat; as always_comb next-state logic they
  // would be evaluated in every evaluation, twice per cycle (about 10 % of the simulator's
  // time).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ih_q    <= '0;
      i_crc_q <= '0;
    end else begin
      if (ih_load) ih_q <= '{src: qh.src_node, payload: qh.payload, hdr: qh.hdr};
      if (i_crc_seed) i_crc_q <= CrcBeatSeed;
      else if (i_crc_step) i_crc_q <= crc32_beat(i_crc_q, s_data_q);
    end
  end

  fifo_ram #(
    .Depth(BufLines),
    .Width(512)
  ) u_lines (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (line_push),
    .push_data_i(s_data_q),
    .full_o     (line_full),
    .pop_i      (line_pop_i),
    .valid_o    (line_valid_o),
    .head_o     (line_o),
    .count_o    (unused_line_cnt)
  );

  // The head and empty flag from registers: recv_proc's decision and the context table's
  // lookup start at them (sync_fifo RegHead).
  sync_fifo #(
    .Depth  (DescDepth),
    .Width  ($bits(recv_desc_t)),
    .RegHead(1'b1)
  ) u_desc (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (desc_push),
    .push_data_i(desc_in),
    .pop_i      (desc_pop_i),
    .head_o     (desc_o),
    .empty_o    (desc_empty),
    .full_o     (desc_full),
    .count_o    (unused_desc_cnt)
  );

  // (its head from registers: the engine's read allocator compares it with its page's keys
  // as it enters stage A, a path across the two units)
  sync_fifo #(
    .Depth  (2),
    .Width  ($bits(wire_head_t)),
    .RegHead(1'b1)
  ) u_rreq (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (rreq_push),
    .push_data_i(s_data_q),
    .pop_i      (rreq_valid_o && rreq_ready_i),
    .head_o     (rreq_o),
    .empty_o    (rreq_empty),
    .full_o     (rreq_full),
    .count_o    (unused_rreq_cnt)
  );

  assign rreq_valid_o = !rreq_empty;
  assign desc_valid_o = !desc_empty;
  assign busy_o       = !desc_empty || !rreq_empty || (ist_q != IHead) || s_v_q;

  // =======================================================================================
  // Assertions
  // =======================================================================================
  // A packet is taken whole or dropped whole: beats are counted only in IBody, never past
  // the packet's length, and a data packet's head is kept only there.
  `NI_ASSERT(BodyBeatsBounded, ist_q == IBody -> i_n_q <= {1'b0, i_p_q})
  `NI_ASSERT(BodyIsData, ist_q == IBody -> ih_q.hdr.kind == WkData)
  `NI_ASSERT(LinesOnlyInBody, line_push -> ist_q == IBody)
  // Store and forward: nothing is pushed into a full buffer (req_rx waits instead).
  `NI_ASSERT(NoLineOverflow, line_push -> !line_full)
  `NI_ASSERT(NoDescOverflow, desc_push -> !desc_full)
  `NI_ASSERT(NoRreqOverflow, rreq_push -> !rreq_full)
  // A good data packet brought its lines (1..16); anything else good brought none.
  `NI_ASSERT(GoodDataHasLines, desc_push && desc_in.good && desc_in.hdr.kind == WkData ->
                               desc_in.nlines != '0 && desc_in.nlines <= 6'd16)
  `NI_ASSERT(GoodHeadHasNoLines, desc_push && desc_in.good && desc_in.hdr.kind != WkData ->
                                 desc_in.nlines == '0)
  // A packet being dropped never waits.
  `NI_ASSERT(DropNeverWaits, ist_q == IDrop -> s_take)
  // The input register's framing follows the decision's: a head beat arrives in IHead.
  `NI_ASSERT(HeadInIHead, s_v_q -> (ist_q == IHead) == s_head_q)

endmodule

`default_nettype wire
