// SPDX-License-Identifier: Apache-2.0
// AXI4 slave of the QoS engine (thesis 3.6, ICD sections 3 and 4, docs/design.md section 3).
//
// Writes: descriptor words are accumulated per accumulator set into Transfer Table lines; a
// line is judged in the cycle of the beat that completes it. An accepted line is written to
// the Transfer Table, and the line that makes a transfer live also sets its status BUSY in
// that cycle and requests its enqueue from a register in the next. Reads: status (single /
// 32 channels, clear on read), statistics counters, control registers.
`default_nettype none
`include "ni_assert.svh"

module axi_slave
  import ni_pkg::*;
#(
  parameter int unsigned AccSets    = 1,
  parameter int unsigned IntraPrios = 8,
  parameter int unsigned AxiAddrW   = 32,
  parameter int unsigned AxiIdW     = 4,
  parameter bit          NodeRegs   = 1'b0  // ni_node: control words 2 (RxIdle), 3 (node id)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                init_done_i,
  input  node_t               node_id_i,    // read as control word 3 (NodeRegs)
  output logic [63:0]         rx_idle_o,    // control word 2 (NodeRegs)
  // AXI4 slave (128-bit data)
  input  logic [AxiIdW-1:0]   s_axi_awid_i,
  input  logic [AxiAddrW-1:0] s_axi_awaddr_i,
  input  logic [7:0]          s_axi_awlen_i,
  input  logic [2:0]          s_axi_awsize_i,
  input  logic [1:0]          s_axi_awburst_i,
  input  logic                s_axi_awvalid_i,
  output logic                s_axi_awready_o,
  input  logic [127:0]        s_axi_wdata_i,
  input  logic [15:0]         s_axi_wstrb_i,
  input  logic                s_axi_wlast_i,
  input  logic                s_axi_wvalid_i,
  output logic                s_axi_wready_o,
  output logic [AxiIdW-1:0]   s_axi_bid_o,
  output logic [1:0]          s_axi_bresp_o,
  output logic                s_axi_bvalid_o,
  input  logic                s_axi_bready_i,
  input  logic [AxiIdW-1:0]   s_axi_arid_i,
  input  logic [AxiAddrW-1:0] s_axi_araddr_i,
  input  logic [7:0]          s_axi_arlen_i,
  input  logic [2:0]          s_axi_arsize_i,
  input  logic [1:0]          s_axi_arburst_i,
  input  logic                s_axi_arvalid_i,
  output logic                s_axi_arready_o,
  output logic [AxiIdW-1:0]   s_axi_rid_o,
  output logic [127:0]        s_axi_rdata_o,
  output logic [1:0]          s_axi_rresp_o,
  output logic                s_axi_rlast_o,
  output logic                s_axi_rvalid_o,
  input  logic                s_axi_rready_i,
  // Transfer Table write port
  output logic                tt_we_o,
  output xfer_t               tt_line_o,
  output line_t               tt_wdata_o,  // the line as written by the CPU
  output logic                tt_seg_info_o,  // ... its word 2 takes the segmentation info
  // scheduling queue enqueue (the AXI slave's source)
  output logic                enq_valid_o,
  input  logic                enq_ready_i,
  output qid_t                enq_qid_o,
  output xfer_t               enq_node_o,
  // status registers
  output logic                set_busy_o,
  output wch_t                set_busy_wch_o,
  output logic                set_busy_long_o,
  output wch_t                lk_wch_o,
  input  logic                lk_busy_i,
  input  logic                lk_pair_long_live_i,
  output logic                rd_single_o,
  output logic                rd_multi_o,
  output wch_t                rd_wch_o,
  input  status_e             rd_single_i,
  input  logic [63:0]         rd_multi_i,
  // statistics
  output logic [5:0]          stat_idx_o,
  input  logic [63:0]         stat_val_i,
  output logic                stat_live_o,
  output logic                stat_slverr_o,
  // control registers
  output logic [63:0]         retx_timeout_o,
  output logic [63:0]         max_retries_o
);

  localparam logic [1:0] RespOkay   = 2'b00;
  localparam logic [1:0] RespSlverr = 2'b10;
  localparam logic [1:0] BurstIncr  = 2'b01;
  localparam int unsigned SetW      = (AccSets > 1) ? $clog2(AccSets) : 1;

  // =======================================================================================
  // Write address channel: decode and queue (8 outstanding addresses, thesis 3.6.1)
  // =======================================================================================
  typedef struct packed {
    logic [AxiIdW-1:0] id;
    logic [19:0]       addr;
    logic [7:0]        len;
    logic              wide;     // AWSIZE = 4 (16-byte beats), else 8-byte beats
    logic              region4;  // control registers, else descriptor lines
    logic              err;      // every beat is dropped, response SLVERR
  } aw_t;

  aw_t  aw_in;
  aw_t  aw_head;
  logic aw_empty;
  logic aw_full;
  logic aw_hs;
  logic aw_push;
  logic aw_pop;
  logic [3:0] unused_aw_count;

  always_comb begin
    logic [3:0] region;
    region          = s_axi_awaddr_i[19:16];
    aw_in.id        = s_axi_awid_i;
    aw_in.addr      = s_axi_awaddr_i[19:0];
    aw_in.len       = s_axi_awlen_i;
    aw_in.wide      = (s_axi_awsize_i == 3'd4);
    aw_in.region4   = (region == RegionCtrl);
    aw_in.err       = (s_axi_awburst_i != BurstIncr) ||
                      (s_axi_awsize_i != 3'd3 && s_axi_awsize_i != 3'd4) ||
                      (s_axi_awaddr_i[2:0] != 3'd0) ||
                      (region != RegionDesc && region != RegionCtrl);
  end

  assign s_axi_awready_o = init_done_i && !aw_full;
  assign aw_hs           = s_axi_awvalid_i && s_axi_awready_o;

  // The address map uses addr[19:0] (ICD section 3: upper bits ignored).
  logic unused_aw;
  assign unused_aw = ^s_axi_awaddr_i[AxiAddrW-1:20];

  // The head and empty flag from registers (sync_fifo RegHead): the W beat's decision starts
  // at them.
  sync_fifo #(
    .Depth  (8),
    .Width  ($bits(aw_t)),
    .RegHead(1'b1)
  ) u_aw_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (aw_push),
    .push_data_i(aw_in),
    .pop_i      (aw_pop),
    .head_o     (aw_head),
    .empty_o    (aw_empty),
    .full_o     (aw_full),
    .count_o    (unused_aw_count)
  );

  // =======================================================================================
  // Write data channel
  // =======================================================================================
  // Current transaction: the AW FIFO head, or the address arriving this very cycle when the
  // FIFO is empty (same-cycle W, docs/design.md section 3).
  aw_t        cur;
  logic       have_txn;
  logic [7:0] beat_cnt_q, beat_cnt_d;
  logic       first_q, first_d;  // beat_cnt_q == 0, a register (`FirstIsCount`)
  logic [19:0] nxt_addr_q, nxt_addr_d;  // the address of the head transaction's next beat
  logic       txn_err_q, txn_err_d;

  assign have_txn = init_done_i && (!aw_empty || aw_hs);
  assign cur      = aw_empty ? aw_in : aw_head;

  // ---- beat geometry ---------------------------------------------------------------------
  logic [7:0]  beat_n;
  logic        beat_first;  // beat_n == 0: the decode starts at two flags, not a compare
  logic [19:0] beat_addr;
  logic [1:0]  lanes_allowed;
  logic [1:0]  lane_wr;
  logic        strobe_bad;
  logic        beat_last;
  logic        wlast_bad;

  assign beat_n     = aw_empty ? 8'd0 : beat_cnt_q;
  assign beat_first = aw_empty || first_q;

  // A beat's address: the transaction's for its first beat, else the running address kept
  // from the beat before (16 bytes on from its aligned address when wide, 8 on when narrow),
  // so no adder sits between the AW FIFO's head and the beat's decode (`BeatAddrRunning`
  // asserts the formula it replaces).
  always_comb begin
    logic [7:0] strb_lane [2];
    beat_addr = beat_first ? cur.addr : nxt_addr_q;
    if (cur.wide) begin
      lanes_allowed = (beat_first && cur.addr[3]) ? 2'b10 : 2'b11;
    end else begin
      lanes_allowed = beat_addr[3] ? 2'b10 : 2'b01;
    end
    strb_lane[0] = s_axi_wstrb_i[7:0];
    strb_lane[1] = s_axi_wstrb_i[15:8];
    strobe_bad   = 1'b0;
    for (int l = 0; l < 2; l++) begin
      lane_wr[l] = (strb_lane[l] == 8'hFF);
      if (strb_lane[l] != 8'h00 && !(strb_lane[l] == 8'hFF && lanes_allowed[l])) begin
        strobe_bad = 1'b1;
      end
    end
  end

  assign beat_last = (beat_n == cur.len);
  assign wlast_bad = (s_axi_wlast_i != beat_last);

  logic [PageW-1:0] beat_page;
  logic [ChW-1:0]   beat_ch;
  logic             beat_pair;  // word pair of the line the 16-byte window covers
  assign beat_page = beat_addr[15:12];
  assign beat_ch   = beat_addr[11:5];
  assign beat_pair = beat_addr[4];

  // The region was decoded from AWADDR; beats are 8-byte aligned.
  logic unused_beat_addr;
  assign unused_beat_addr = ^{beat_addr[19:16], beat_addr[2:0]};

  // ---- descriptor accumulation -----------------------------------------------------------
  logic [AccSets-1:0]             acc_valid_q, acc_valid_d;
  logic [AccSets-1:0][PageW-1:0]  acc_page_q, acc_page_d;
  logic [AccSets-1:0][ChW-1:0]    acc_ch_q, acc_ch_d;
  logic [AccSets-1:0][3:0]        acc_mask_q, acc_mask_d;
  logic [AccSets-1:0][3:0][63:0]  acc_words_q, acc_words_d;
  // pending long descriptors: line 0 accepted at even channel pend_ch, waiting for line 1
  logic [AccSets-1:0]             pend_valid_q, pend_valid_d;
  logic [AccSets-1:0][PageW-1:0]  pend_page_q, pend_page_d;
  logic [AccSets-1:0][ChW-1:0]    pend_ch_q, pend_ch_d;
  qid_t [AccSets-1:0]             pend_qid_q, pend_qid_d;

  logic [SetW-1:0] set;
  assign set = (AccSets == 1) ? '0 : SetW'(beat_page);

  logic        any_wr;
  logic        interleave;
  logic [3:0]  merged_mask;
  logic [3:0][63:0] merged;
  logic        pre_bad;    // beat dropped for a reason independent of the line's content
  logic        complete;

  assign any_wr     = |lane_wr;
  assign interleave = !cur.region4 && any_wr && acc_valid_q[set] &&
                      (acc_page_q[set] != beat_page || acc_ch_q[set] != beat_ch);
  assign pre_bad    = cur.err || strobe_bad || wlast_bad;

  always_comb begin
    merged_mask = acc_valid_q[set] ? acc_mask_q[set] : 4'd0;
    merged      = acc_words_q[set];
    for (int l = 0; l < 2; l++) begin
      if (lane_wr[l]) begin
        merged_mask[{beat_pair, l[0]}] = 1'b1;
        merged[{beat_pair, l[0]}]      = s_axi_wdata_i[64*l +: 64];
      end
    end
  end

  assign complete = !cur.region4 && any_wr && !interleave && (merged_mask == 4'hF);

  // ---- line validation (ICD section 4, docs/design.md rules R1..R10) ---------------------
  // (x + y) mod 2^16 == k without a carry chain: ni_pkg's `sum_is` on the operands widened to
  // the count's width, where the 17-bit sum is k or k + 2^16.
  function automatic logic sum16_is(logic [15:0] x, logic [15:0] y, logic [15:0] k);
    return sum_is(cnt_t'(x), cnt_t'(y), cnt_t'(k)) ||
           sum_is(cnt_t'(x), cnt_t'(y), cnt_t'({1'b1, k}));
  endfunction

  // a + size > 2^48 (R9, R11): a is below 2^48 and size below 2^32, so only an a whose top
  // 16 bits are all ones can pass the top, and then exactly when its low 32 bits plus size
  // pass 2^32 (`PastTopIsSum`). That sum is made of 16-bit halves added side by side: with
  // the low halves' carry c and remainder r and the high halves' sum h, the sum is
  // (h + c) * 2^16 + r and passes 2^32 when h + c reaches 2^16, unless it is exactly 2^16
  // and r is 0. Whether h + c reaches 2^16 is a 16-bit add's carry (for c 0 and c 1, both
  // made, as 16-bit compares), whether it is exactly that and whether r is 0 carry-free
  // compares: no carry chain is longer than 16 bits, where one 33-bit add was the deepest
  // path from the W data.
  function automatic logic past_top(logic [47:0] a, logic [31:0] size);
    logic c, h_carry0, h_carry1, r_nz, h_wrap0, h_wrap1;
    c        = a[15:0] > ~size[15:0];    // x + y reaches 2^16 when x > 2^16 - 1 - y
    h_carry0 = a[31:16] > ~size[31:16];
    h_carry1 = a[31:16] >= ~size[31:16];  // h + 1 reaches 2^16
    r_nz     = !sum16_is(a[15:0], size[15:0], 16'h0000);
    h_wrap0  = sum16_is(a[31:16], size[31:16], 16'h0000);  // h mod 2^16 is 0
    h_wrap1  = sum16_is(a[31:16], size[31:16], 16'hFFFF);  // h + 1 mod 2^16 is 0
    return (&a[47:32]) && (c ? (h_carry1 && (!h_wrap1 || r_nz)) :
                               (h_carry0 && (!h_wrap0 || r_nz)));
  endfunction

  ctrl_word_t  ctrl;
  logic        is_line1;
  logic        line_reject;
  logic        kind_inline;
  logic        dst_past;  // the destination range passes the top of the 48-bit space
  logic        src_past;  // ... a read's remote source range (ICD 16)
  qid_t        new_qid;

  assign ctrl        = ctrl_word_t'(merged[3]);
  assign kind_inline = (ctrl.kind == KindInline);
  assign is_line1    = beat_ch[0] && pend_valid_q[set] && pend_page_q[set] == beat_page &&
                       pend_ch_q[set] == {beat_ch[ChW-1:1], 1'b0};
  // The range checks do not wait for the beat's decode: a 16-byte beat brings one word
  // pair, so at most one of a range's two words (its address, the size in w3) comes from
  // the beat and the other from the accumulator. Each range is checked for the three ways
  // its words can arrive, side by side, and the beat's lanes pick one (`PastTopIsSum` checks
  // the pick against the formula on the merged line).
  logic [47:0] acc_a0, acc_a1;             // the accumulator's words 0 and 1 (addresses)
  logic [31:0] acc_size, beat_size;        // w3's size, in the accumulator / in this beat
  logic        w0_new, w1_new, w3_new;     // word 0, 1, 3 of the line from this beat
  assign acc_a0    = acc_words_q[set][0][47:0];
  assign acc_a1    = acc_words_q[set][1][47:0];
  assign acc_size  = acc_words_q[set][3][31:0];
  assign beat_size = s_axi_wdata_i[95:64];
  assign w0_new    = lane_wr[0] && !beat_pair;
  assign w1_new    = lane_wr[1] && !beat_pair;
  assign w3_new    = lane_wr[1] && beat_pair;
  assign dst_past  = w1_new ? past_top(s_axi_wdata_i[111:64], acc_size) :
                     w3_new ? past_top(acc_a1, beat_size) : past_top(acc_a1, acc_size);
  assign src_past  = w0_new ? past_top(s_axi_wdata_i[47:0], acc_size) :
                     w3_new ? past_top(acc_a0, beat_size) : past_top(acc_a0, acc_size);
  assign lk_wch_o    = {beat_page, beat_ch[5:0]};
  assign new_qid     = queue_of(ctrl.kind, ctrl.prio, 1'b0, IntraPrios);

  always_comb begin
    logic r_chan;
    logic r_busy;
    r_chan = beat_ch[6];                       // R1: not a write channel
    r_busy = lk_busy_i;                        // R2
    if (is_line1) begin
      line_reject = r_chan || r_busy ||
                    !merged[3][63] ||          // R8: last missing on the final line
                    (merged[3][62:0] != '0) || (merged[2] != '0);  // R10
    end else begin
      line_reject = r_chan || r_busy ||
                    lk_pair_long_live_i ||                                        // R3
                    (ctrl.size == '0) ||                                          // R4
                    (kind_inline && ((!ctrl.is_long && ctrl.size > 32'd16) ||
                                     (ctrl.is_long && ctrl.size > 32'd32))) ||    // R5
                    (!kind_inline && ctrl.notify && !ctrl.is_long) ||             // R6
                    (ctrl.is_long && beat_ch[0]) ||                               // R7
                    (ctrl.is_long == ctrl.last) ||                                // R8
                    dst_past ||                                                   // R9
                    (ctrl.rsvd != '0) || (!kind_inline && merged[2] != '0) ||     // R10
                    (ctrl.read && (kind_inline || src_past));                     // R11
    end
  end

  // Word 2 of a block transfer's line 0 (zero, R10) is where the Transfer Table keeps the
  // transfer's segmentation info (total blocks, first and last block lengths). It is
  // computed by the engine from the register the line is written from, a cycle after the
  // beat (qos_engine's `axw_*`): its adds are not behind the beat's W data and the line's
  // checks.
  assign tt_seg_info_o = !is_line1 && !kind_inline;

  // ---- outcome of the beat ----------------------------------------------------------------
  logic line_accept;
  logic go_live;         // this line makes a transfer live (short, or line 1)
  // Control words a write may change: 0 and 1, and 2 in ni_node (3, the node id, is read-only).
  function automatic logic ctrl_writable(logic [11:0] word);
    return (32'(word) == CtrlRetxTimeout) || (32'(word) == CtrlMaxRetries) ||
           (NodeRegs && 32'(word) == CtrlRxIdle);
  endfunction

  logic reg_bad;         // bad control-register word write
  logic beat_bad;
  logic w_hs;
  logic b_full;
  logic b_push;

  assign line_accept = complete && !pre_bad && !line_reject;
  assign go_live     = line_accept && (is_line1 || !ctrl.is_long);

  always_comb begin
    reg_bad = 1'b0;
    if (cur.region4) begin
      for (int l = 0; l < 2; l++) begin
        if (lane_wr[l] && (l != 0 || !ctrl_writable(beat_addr[15:4]))) reg_bad = 1'b1;
      end
    end
  end

  assign beat_bad = pre_bad || interleave || reg_bad || (complete && line_reject);

  // The enqueue of a transfer made live is registered (`enq_*_q`) and requested from the
  // cycle after its beat until it is granted (docs/design.md section 3): the line's checks
  // end in that register, not in the scheduling queues' grant and heads. A beat that
  // completes a line waits while the register still holds a transfer (whether the line would
  // be accepted is not looked at: WREADY stays off the checks); the beat can be consumed
  // otherwise unless its response has no room. A line takes two 16-byte beats, so a
  // transfer goes live every other cycle at most from one accumulator set and the register
  // has emptied by then whenever its enqueue was granted at once. The queue and node are
  // loaded every cycle the register is empty (they matter only once it is set).
  logic  beat_can_go;
  logic  enq_q;
  qid_t  enq_qid_q;
  xfer_t enq_node_q;
  assign beat_can_go    = have_txn && !(beat_last && b_full);
  assign s_axi_wready_o = beat_can_go && !(complete && enq_q);
  assign w_hs           = s_axi_wvalid_i && s_axi_wready_o;

  xfer_t live_node;
  assign live_node   = is_line1 ? {beat_page, beat_ch[ChW-1:1], 1'b0} : {beat_page, beat_ch};
  assign enq_valid_o = enq_q;
  assign enq_qid_o   = enq_qid_q;
  assign enq_node_o  = enq_node_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      enq_q      <= 1'b0;
      enq_qid_q  <= '0;
      enq_node_q <= '0;
    end else begin
      if (w_hs && go_live) begin
        enq_q <= 1'b1;
      end else if (enq_ready_i) begin
        enq_q <= 1'b0;
      end
      if (!enq_q) begin
        enq_qid_q  <= is_line1 ? pend_qid_q[set] : new_qid;
        enq_node_q <= live_node;
      end
    end
  end

  assign tt_we_o         = w_hs && line_accept;
  assign tt_line_o       = {beat_page, beat_ch};
  assign tt_wdata_o      = merged;
  assign set_busy_o      = w_hs && go_live;
  assign set_busy_wch_o  = {live_node[10:7], live_node[5:0]};
  assign set_busy_long_o = is_line1;
  assign stat_live_o     = w_hs && go_live;

  // ---- next state -------------------------------------------------------------------------
  always_comb begin
    acc_valid_d  = acc_valid_q;
    acc_page_d   = acc_page_q;
    acc_ch_d     = acc_ch_q;
    acc_mask_d   = acc_mask_q;
    acc_words_d  = acc_words_q;
    pend_valid_d = pend_valid_q;
    pend_page_d  = pend_page_q;
    pend_ch_d    = pend_ch_q;
    pend_qid_d   = pend_qid_q;
    beat_cnt_d   = beat_cnt_q;
    first_d      = first_q;
    nxt_addr_d   = nxt_addr_q;
    txn_err_d    = txn_err_q;
    if (w_hs) begin
      beat_cnt_d = beat_last ? 8'd0 : beat_n + 8'd1;
      first_d    = beat_last;  // (beat_n + 1 does not wrap: beat 255 is the last)
      nxt_addr_d = cur.wide ? {beat_addr[19:4], 4'd0} + 20'd16 : beat_addr + 20'd8;
      txn_err_d  = beat_last ? 1'b0 : (txn_err_q || beat_bad);
      if (!cur.region4 && any_wr && !pre_bad && !interleave) begin
        if (complete) begin
          acc_valid_d[set] = 1'b0;  // accepted or rejected, the line leaves the set
        end else begin
          acc_valid_d[set] = 1'b1;
          acc_page_d[set]  = beat_page;
          acc_ch_d[set]    = beat_ch;
          acc_mask_d[set]  = merged_mask;
          acc_words_d[set] = merged;
        end
      end
      if (line_accept) begin
        if (is_line1) begin
          pend_valid_d[set] = 1'b0;
        end else if (ctrl.is_long) begin
          pend_valid_d[set] = 1'b1;
          pend_page_d[set]  = beat_page;
          pend_ch_d[set]    = beat_ch;
          pend_qid_d[set]   = new_qid;
        end else if (pend_valid_q[set] && pend_page_q[set] == beat_page &&
                     pend_ch_q[set] == beat_ch) begin
          pend_valid_d[set] = 1'b0;  // line 0 of the pending long was overwritten
        end
      end
    end
  end

  // Control registers (region 4)
  logic [63:0] retx_timeout_q, retx_timeout_d;
  logic [63:0] max_retries_q, max_retries_d;
  logic [63:0] rx_idle_q, rx_idle_d;

  always_comb begin
    retx_timeout_d = retx_timeout_q;
    max_retries_d  = max_retries_q;
    rx_idle_d      = rx_idle_q;
    if (w_hs && cur.region4 && !pre_bad && !reg_bad && lane_wr[0]) begin
      unique case (32'(beat_addr[15:4]))
        CtrlRetxTimeout: retx_timeout_d = s_axi_wdata_i[63:0];
        CtrlMaxRetries:  max_retries_d  = s_axi_wdata_i[63:0];
        CtrlRxIdle:      rx_idle_d      = s_axi_wdata_i[63:0];
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_valid_q    <= '0;
      acc_page_q     <= '0;
      acc_ch_q       <= '0;
      acc_mask_q     <= '0;
      acc_words_q    <= '0;
      pend_valid_q   <= '0;
      pend_page_q    <= '0;
      pend_ch_q      <= '0;
      pend_qid_q     <= '0;
      beat_cnt_q     <= '0;
      first_q        <= 1'b1;
      nxt_addr_q     <= '0;
      txn_err_q      <= 1'b0;
      retx_timeout_q <= RetxTimeoutReset;
      max_retries_q  <= MaxRetriesReset;
      rx_idle_q      <= RxIdleReset;
    end else begin
      acc_valid_q    <= acc_valid_d;
      acc_page_q     <= acc_page_d;
      acc_ch_q       <= acc_ch_d;
      acc_mask_q     <= acc_mask_d;
      acc_words_q    <= acc_words_d;
      pend_valid_q   <= pend_valid_d;
      pend_page_q    <= pend_page_d;
      pend_ch_q      <= pend_ch_d;
      pend_qid_q     <= pend_qid_d;
      beat_cnt_q     <= beat_cnt_d;
      first_q        <= first_d;
      nxt_addr_q     <= nxt_addr_d;
      txn_err_q      <= txn_err_d;
      retx_timeout_q <= retx_timeout_d;
      max_retries_q  <= max_retries_d;
      rx_idle_q      <= NodeRegs ? rx_idle_d : RxIdleReset;
    end
  end

  assign retx_timeout_o = retx_timeout_q;
  assign max_retries_o  = max_retries_q;
  assign rx_idle_o      = rx_idle_q;

  // AW FIFO: an address whose single beat is consumed in its own cycle never enters it.
  assign aw_push = aw_hs && !(aw_empty && w_hs && beat_last);
  assign aw_pop  = w_hs && beat_last && !aw_empty;

  // =======================================================================================
  // Write response channel (8 pending responses)
  // =======================================================================================
  typedef struct packed {
    logic [AxiIdW-1:0] id;
    logic              err;
  } b_t;

  b_t   b_in;
  b_t   b_head;
  logic b_empty;
  logic [3:0] unused_b_count;

  assign b_push     = w_hs && beat_last;
  assign b_in.id    = cur.id;
  assign b_in.err   = txn_err_q || beat_bad;
  assign stat_slverr_o = b_push && b_in.err;

  sync_fifo #(
    .Depth(8),
    .Width($bits(b_t))
  ) u_b_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (b_push),
    .push_data_i(b_in),
    .pop_i      (s_axi_bvalid_o && s_axi_bready_i),
    .head_o     (b_head),
    .empty_o    (b_empty),
    .full_o     (b_full),
    .count_o    (unused_b_count)
  );

  assign s_axi_bvalid_o = !b_empty;
  assign s_axi_bid_o    = b_head.id;
  assign s_axi_bresp_o  = b_head.err ? RespSlverr : RespOkay;

  // =======================================================================================
  // Reads
  // =======================================================================================
  logic              r_active_q, r_active_d;
  logic              r_stat_q, r_stat_d;  // a counter read: its value arrives this cycle
  logic [7:0]        r_left_q, r_left_d;
  logic              r_err_q, r_err_d;
  logic [63:0]       r_data_q, r_data_d;
  logic [AxiIdW-1:0] r_id_q, r_id_d;
  logic              ar_hs;
  logic              ar_err;
  logic [3:0]        ar_region;
  logic              unused_ar;

  // Only single-beat reads are served, so ARBURST does not matter; the address map uses
  // addr[19:0] (ICD section 3: upper bits ignored).
  assign unused_ar       = ^{s_axi_arburst_i, s_axi_araddr_i[AxiAddrW-1:20]};
  assign s_axi_arready_o = init_done_i && !r_active_q;
  assign ar_hs           = s_axi_arvalid_i && s_axi_arready_o;
  assign ar_region       = s_axi_araddr_i[19:16];
  assign ar_err          = (s_axi_arlen_i != 8'd0) || (s_axi_arsize_i > 3'd4) ||
                           (s_axi_araddr_i[3:0] != 4'd0) ||
                           (ar_region == RegionDesc) || (ar_region > RegionCtrl);

  assign rd_single_o     = ar_hs && !ar_err && (ar_region == RegionStatus1);
  assign rd_multi_o      = ar_hs && !ar_err && (ar_region == RegionStatus32);
  // the channel of a single read; a 32-channel read reads its page half, bits 9:5
  assign rd_wch_o        = {s_axi_araddr_i[15:12], s_axi_araddr_i[10:5]};
  assign stat_idx_o      = s_axi_araddr_i[9:4];

  always_comb begin
    r_active_d = r_active_q;
    r_stat_d   = 1'b0;
    r_left_d   = r_left_q;
    r_err_d    = r_err_q;
    r_data_d   = r_data_q;
    r_id_d     = r_id_q;
    // A counter read's value comes from stat_counters the cycle after the AR handshake (the
    // index registered there, no carry chain on the way: docs/design.md section 3), and
    // RVALID with it.
    if (r_stat_q) r_data_d = stat_val_i;
    if (s_axi_rvalid_o && s_axi_rready_i) begin
      if (r_left_q == 8'd0) r_active_d = 1'b0;
      else                  r_left_d   = r_left_q - 8'd1;
    end
    if (ar_hs) begin
      r_active_d = 1'b1;
      r_left_d   = s_axi_arlen_i;
      r_err_d    = ar_err;
      r_id_d     = s_axi_arid_i;
      r_data_d   = '0;
      if (!ar_err) begin
        unique case (ar_region)
          RegionStatus1:  r_data_d = {62'd0, rd_single_i};
          RegionStatus32: r_data_d = rd_multi_i;
          RegionStats:    r_stat_d = 1'b1;
          RegionCtrl: begin
            if (32'(s_axi_araddr_i[15:4]) == CtrlRetxTimeout)     r_data_d = retx_timeout_q;
            else if (32'(s_axi_araddr_i[15:4]) == CtrlMaxRetries) r_data_d = max_retries_q;
            else if (NodeRegs && 32'(s_axi_araddr_i[15:4]) == CtrlRxIdle) r_data_d = rx_idle_q;
            else if (NodeRegs && 32'(s_axi_araddr_i[15:4]) == CtrlNodeId) begin
              r_data_d = {48'd0, node_id_i};
            end
          end
          default: r_data_d = '0;
        endcase
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_active_q <= 1'b0;
      r_stat_q   <= 1'b0;
      r_left_q   <= '0;
      r_err_q    <= 1'b0;
      r_data_q   <= '0;
      r_id_q     <= '0;
    end else begin
      r_active_q <= r_active_d;
      r_stat_q   <= r_stat_d;
      r_left_q   <= r_left_d;
      r_err_q    <= r_err_d;
      r_data_q   <= r_data_d;
      r_id_q     <= r_id_d;
    end
  end

  assign s_axi_rvalid_o = r_active_q && !r_stat_q;
  assign s_axi_rid_o    = r_id_q;
  assign s_axi_rdata_o  = {64'd0, r_data_q};
  assign s_axi_rresp_o  = r_err_q ? RespSlverr : RespOkay;
  assign s_axi_rlast_o  = (r_left_q == 8'd0);

  // =======================================================================================
  // Assertions
  // =======================================================================================
  `NI_ASSERT_VALID_HELD(BHeld, s_axi_bvalid_o, s_axi_bready_i, {s_axi_bid_o, s_axi_bresp_o})
  `NI_ASSERT_VALID_HELD(RHeld, s_axi_rvalid_o, s_axi_rready_i,
                     {s_axi_rid_o, s_axi_rdata_o, s_axi_rresp_o, s_axi_rlast_o})
  `NI_ASSERT(NoReadyBeforeInit, !init_done_i -> !s_axi_awready_o && !s_axi_wready_o &&
                                              !s_axi_arready_o)
  `NI_ASSERT_VALID_HELD(EnqHeld, enq_valid_o, enq_ready_i, {enq_qid_o, enq_node_o})
  `NI_ASSERT(NoLiveOverPendingEnq, w_hs && go_live -> !enq_q)
  `NI_ASSERT(LiveNodeIsWriteChannel, set_busy_o -> !live_node[6])
  `NI_ASSERT(FirstIsCount, first_q == (beat_cnt_q == 8'd0))

`ifndef SYNTHESIS
  // The running beat address and the short range checks are the formulas they replace.
  logic [19:0] beat_addr_formula;
  logic [48:0] dst_end, src_end;
  assign beat_addr_formula = !cur.wide ? cur.addr + {9'd0, beat_n, 3'd0} :
                             (beat_n == 8'd0) ? cur.addr :
                             {cur.addr[19:4], 4'd0} + {8'd0, beat_n, 4'd0};
  assign dst_end = {1'b0, merged[1][47:0]} + {17'd0, ctrl.size};
  assign src_end = {1'b0, merged[0][47:0]} + {17'd0, ctrl.size};
  `NI_ASSERT(BeatAddrRunning, have_txn -> beat_addr == beat_addr_formula)
  `NI_ASSERT(PastTopIsSum, dst_past == (dst_end[48] && dst_end[47:0] != '0) &&
                           src_past == (src_end[48] && src_end[47:0] != '0))
`endif

endmodule

`default_nettype wire
