// SPDX-License-Identifier: Apache-2.0
// Memory writer of the receive unit (ICD 10, 13; docs/design.md section 15): carries out the
// job recv_proc gives it on the AXI4 write channels (AW/W/B, one ID, 512-bit data), one job
// at a time, and retires the writes when their B returns. While a data packet's write is in
// progress, the next data packet's write may wait in a one-job slot: its AW goes out as soon
// as the current AW has, and its W beats follow the current burst's last beat without a gap,
// so that a stream of 18-beat packets needs 16 cycles of the W channel each, not 18.
//
//   write:   a data packet's lines from the line buffer as one burst (the packet lies inside
//            one 1 KiB destination window: at most 16 lines, never across 4 KiB), strobes
//            trimmed to its bytes;
//   short:   up to 32 bytes (an inline payload, a notification record) as one or two
//            single-line bursts, so a record that straddles a line or 4 KiB is still legal;
//   discard: pop the lines of a dropped packet.
// Every AW pushes a tag into a FIFO (u_tags) that the B pops: B returns in order (one AXI
// ID). A context's B is reported to the table (its pending count); the last B of an inline
// packet queues the packet's ACK (u_acks) for recv_proc. BREADY is low only while that queue
// is full.
`default_nettype none
`include "ni_assert.svh"

module recv_writer
  import ni_pkg::*;
#(
  parameter int unsigned MemAddrW      = 48,
  parameter int unsigned MemIdW        = 4,
  parameter int unsigned RxContexts    = 64,
  parameter int unsigned WrOutstanding = 16,  // write bursts awaiting B
  localparam int unsigned CtxW         = $clog2(RxContexts),
  localparam int unsigned TagCntW      = $clog2(WrOutstanding + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // a job from recv_proc, given only while idle_o (at most one of the three), or a write
  // while slot_o
  input  logic                job_write_i,
  input  logic                job_short_i,
  input  logic                job_discard_i,
  input  logic [47:0]         job_addr_i,     // first byte (write, short)
  input  logic [WireLenW-1:0] job_len_i,      // bytes (write, short)
  input  logic [4:0]          job_lines_i,    // lines of the packet (write, discard)
  input  logic [255:0]        job_bytes_i,    // short: the bytes, from byte 0
  input  logic                job_ctx_i,      // a context's writes (else an inline packet's)
  input  logic [CtxW-1:0]     job_ctx_idx_i,
  input  recv_key_t           job_key_i,      // inline: whom its ACK answers
  output logic                idle_o,         // no job in progress
  output logic                slot_o,         // a write in progress, the slot free
  // the line buffer (recv_ingress)
  input  logic                line_valid_i,
  input  logic [511:0]        line_i,
  output logic                line_pop_o,
  // memory writes (AXI4 AW/W/B)
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
  // write tags: how many bursts await B, and the B of a context's write
  output logic                tag_full_o,
  output logic [TagCntW-1:0]  tag_cnt_o,
  output logic                b_ctx_o,
  output logic [CtxW-1:0]     b_ctx_idx_o,
  // inline packets whose last write returned: their ACKs, in order
  output logic                ack_valid_o,
  output recv_key_t           ack_o,
  input  logic                ack_pop_i,
  // a job in progress, a write awaiting B or an ACK waiting
  output logic                busy_o
);

  if (MemAddrW != 48) begin : gen_bad_addr_width
    $error("recv_writer: only MemAddrW = 48 is supported (ICD 10)");
  end

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
    recv_key_t       key;
  } tag_t;

  logic   tag_push, tag_empty, b_hs;
  tag_t   tag_in, tag_head;
  logic   ackq_push, ackq_full, ackq_empty;
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
    .full_o     (tag_full_o),
    .count_o    (tag_cnt_o)
  );

  sync_fifo #(
    .Depth(WrOutstanding),
    .Width($bits(recv_key_t))
  ) u_acks (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (ackq_push),
    .push_data_i(tag_head.key),
    .pop_i      (ack_pop_i),
    .head_o     (ack_o),
    .empty_o    (ackq_empty),
    .full_o     (ackq_full),
    .count_o    (unused_ackq_cnt)
  );

  assign m_axi_bready_o = !ackq_full;
  assign b_hs           = m_axi_bvalid_i && m_axi_bready_o;
  assign ackq_push      = b_hs && tag_head.kind == TagInlineLast;
  assign ack_valid_o    = !ackq_empty;
  assign b_ctx_o        = b_hs && tag_head.kind == TagCtx;
  assign b_ctx_idx_o    = tag_head.ctx;

  // One ID, every B OKAY from a well-behaved memory: BID and BRESP carry nothing to act on.
  logic unused_b;
  assign unused_b = ^{m_axi_bid_i, m_axi_bresp_i};

  // =======================================================================================
  // The job in progress
  // =======================================================================================
  typedef enum logic [2:0] {
    PIdle,     // waiting for a job
    PWrite,    // a data packet's lines: AW (one burst) and W beats
    PDiscard,  // pop the lines of a dropped packet
    PShort     // one or two single-line writes: inline payload or notification record
  } proc_e;

  proc_e               pst_q, pst_d;
  logic [47:0]         w_addr_q, w_addr_d;    // first byte
  logic [WireLenW-1:0] w_len_q, w_len_d;
  logic [4:0]          w_beats_q, w_beats_d;  // lines of a data write / beats left to discard
  logic [4:0]          w_j_q, w_j_d;          // W beat index
  logic                w_aw_q, w_aw_d;        // AW still to send
  tag_t                w_tag_q, w_tag_d;
  // short writes: 32 bytes at w_addr, w_len of them; two lines at most
  logic [255:0]        s_bytes_q, s_bytes_d;
  logic                s_second_q, s_second_d;  // the second line is being written
  logic                s_w_q, s_w_d;            // W still to send for the current line
  // the slot: the next data packet's write, decided while the current one is in progress
  logic                nx_v_q, nx_v_d;
  logic [47:0]         nx_addr_q, nx_addr_d;
  logic [WireLenW-1:0] nx_len_q, nx_len_d;
  logic [4:0]          nx_beats_q, nx_beats_d;
  logic                nx_aw_q, nx_aw_d;        // its AW still to send
  tag_t                nx_tag_q, nx_tag_d;

  // Strobes of one line of a short write of `len` bytes at `a`: line 0 or 1.
  logic [127:0]  s_strb2;
  logic [1023:0] s_data2;
  logic [11:0]   s_end;  // one past the last byte, from the first line's start
  logic          s_two;  // the short write touches two lines
  // The lanes from the first byte (all ones shifted up to it) and below the end (the
  // complement of all ones shifted up to the end): each lane a compare with the first byte
  // and the end, where ((1 << len) - 1) shifted to the first byte would be a 128-bit carry
  // chain and a barrel shifter.
  assign s_end   = {6'd0, w_addr_q[5:0]} + {1'b0, w_len_q};
  assign s_two   = s_end > 12'd64;
  assign s_strb2 = ({128{1'b1}} << w_addr_q[5:0]) & ~({128{1'b1}} << s_end);
  assign s_data2 = {768'd0, s_bytes_q} << {w_addr_q[5:0], 3'b000};

  // Strobes of beat j of a data write.
  logic [63:0] d_strb;
  always_comb begin
    logic [5:0] last, lo, hi;
    last = w_addr_q[5:0] + w_len_q[5:0] - 6'd1;  // lane of the last byte
    lo   = (w_j_q == '0) ? w_addr_q[5:0] : 6'd0;
    hi   = (w_j_q == w_beats_q - 5'd1) ? last : 6'd63;
    for (int unsigned l = 0; l < 64; l++) d_strb[l] = (6'(l) >= lo) && (6'(l) <= hi);
  end

  logic aw_hs, w_hs, nx_aw_show, nx_aw_hs;
  assign aw_hs      = m_axi_awvalid_o && m_axi_awready_i;
  assign w_hs       = m_axi_wvalid_o && m_axi_wready_i;
  // the slot's AW is shown once the current write's AW is out (AW order is W order)
  assign nx_aw_show = pst_q == PWrite && !w_aw_q && nx_v_q && nx_aw_q;
  assign nx_aw_hs   = nx_aw_show && aw_hs;

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
        m_axi_awvalid_o = (w_aw_q || nx_aw_show) && !tag_full_o;
        m_axi_awaddr_o  = w_aw_q ? {w_addr_q[47:6], 6'd0} : {nx_addr_q[47:6], 6'd0};
        m_axi_awlen_o   = w_aw_q ? 8'(w_beats_q) - 8'd1 : 8'(nx_beats_q) - 8'd1;
        m_axi_wvalid_o  = line_valid_i && (w_j_q < w_beats_q);
        m_axi_wdata_o   = line_i;
        m_axi_wstrb_o   = d_strb;
        m_axi_wlast_o   = w_j_q == w_beats_q - 5'd1;
      end
      PShort: begin
        m_axi_awvalid_o = w_aw_q && !tag_full_o;
        m_axi_awaddr_o  = {w_addr_q[47:6] + 42'(s_second_q), 6'd0};
        m_axi_wvalid_o  = s_w_q;
        m_axi_wdata_o   = s_second_q ? s_data2[1023:512] : s_data2[511:0];
        m_axi_wstrb_o   = s_second_q ? s_strb2[127:64] : s_strb2[63:0];
        m_axi_wlast_o   = 1'b1;
      end
      default: ;
    endcase
  end

  // Each AW pushes its tag; an inline packet's tag says whether the burst is its last.
  always_comb begin
    tag_push = aw_hs;
    tag_in   = (pst_q == PWrite && !w_aw_q) ? nx_tag_q : w_tag_q;
    if (pst_q == PShort && w_tag_q.kind != TagCtx) begin
      tag_in.kind = (s_two && !s_second_q) ? TagInline : TagInlineLast;
    end
  end

  logic ld_job, ld_slot;  // a write becomes the current job: the one given now, the slot's
  tag_t job_wtag;         // the tag of a write given now
  assign job_wtag = '{kind: TagCtx, ctx: job_ctx_idx_i, key: job_key_i};

  logic s_aw_done, s_w_done;  // PShort: the current line's AW and W are (being) sent
  assign s_aw_done = !w_aw_q || aw_hs;
  assign s_w_done  = !s_w_q || w_hs;

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
    nx_v_d     = nx_v_q;
    nx_addr_d  = nx_addr_q;
    nx_len_d   = nx_len_q;
    nx_beats_d = nx_beats_q;
    nx_aw_d    = nx_aw_q && !nx_aw_hs;
    nx_tag_d   = nx_tag_q;
    line_pop_o = 1'b0;
    ld_job     = 1'b0;
    ld_slot    = 1'b0;

    unique case (pst_q)
      PIdle: begin
        if (job_write_i) begin
          pst_d  = PWrite;
          ld_job = 1'b1;
        end else if (job_short_i) begin
          pst_d      = PShort;
          w_addr_d   = job_addr_i;
          w_len_d    = job_len_i;
          s_bytes_d  = job_bytes_i;
          s_second_d = 1'b0;
          s_w_d      = 1'b1;
          w_aw_d     = 1'b1;
          w_tag_d    = '{kind: job_ctx_i ? TagCtx : TagInlineLast, ctx: job_ctx_idx_i,
                         key: job_key_i};
        end else if (job_discard_i) begin
          w_beats_d = job_lines_i;
          if (job_lines_i != '0) pst_d = PDiscard;
        end
      end

      PWrite: begin
        if (aw_hs && w_aw_q) w_aw_d = 1'b0;
        if (w_hs) begin
          line_pop_o = 1'b1;
          w_j_d      = w_j_q + 5'd1;
        end
        if ((!w_aw_q || aw_hs) && ((w_hs && m_axi_wlast_o) || w_j_q == w_beats_q)) begin
          // done: the slot's write (or a write given now) follows at once
          if (nx_v_q) begin
            ld_slot = 1'b1;
            nx_v_d  = 1'b0;
          end else if (job_write_i) begin
            ld_job = 1'b1;
          end else begin
            pst_d = PIdle;
          end
        end else if (job_write_i) begin
          nx_v_d     = 1'b1;
          nx_addr_d  = job_addr_i;
          nx_len_d   = job_len_i;
          nx_beats_d = job_lines_i;
          nx_aw_d    = 1'b1;
          nx_tag_d   = job_wtag;
        end
      end

      PDiscard: begin
        if (line_valid_i) begin
          line_pop_o = 1'b1;
          w_beats_d  = w_beats_q - 5'd1;
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

    // A write becomes the current job: the one given now, or the slot's.
    if (ld_job || ld_slot) begin
      w_addr_d  = ld_slot ? nx_addr_q : job_addr_i;
      w_len_d   = ld_slot ? nx_len_q : job_len_i;
      w_beats_d = ld_slot ? nx_beats_q : job_lines_i;
      w_j_d     = '0;
      w_aw_d    = ld_slot ? nx_aw_q && !nx_aw_hs : 1'b1;
      w_tag_d   = ld_slot ? nx_tag_q : job_wtag;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
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
      nx_v_q     <= 1'b0;
      nx_addr_q  <= '0;
      nx_len_q   <= '0;
      nx_beats_q <= '0;
      nx_aw_q    <= 1'b0;
      nx_tag_q   <= '0;
    end else begin
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
      nx_v_q     <= nx_v_d;
      nx_addr_q  <= nx_addr_d;
      nx_len_q   <= nx_len_d;
      nx_beats_q <= nx_beats_d;
      nx_aw_q    <= nx_aw_d;
      nx_tag_q   <= nx_tag_d;
    end
  end

  assign idle_o = pst_q == PIdle;
  assign slot_o = pst_q == PWrite && !nx_v_q;
  assign busy_o = (pst_q != PIdle) || !tag_empty || !ackq_empty;

  // =======================================================================================
  // Assertions
  // =======================================================================================
  // recv_proc's side: one job at a time, given only while idle (a write also while the slot
  // is free); a write's lines are 1..16. The slot holds a write only behind a write.
  `NI_ASSERT_ONEHOT0(OneJob, {job_write_i, job_short_i, job_discard_i})
  `NI_ASSERT(JobWhenIdle, job_short_i || job_discard_i -> pst_q == PIdle)
  `NI_ASSERT(WriteWhenSlot, job_write_i -> pst_q == PIdle || slot_o)
  `NI_ASSERT(SlotBehindWrite, nx_v_q -> pst_q == PWrite)
  `NI_ASSERT(SlotAwAfterCurrent, nx_v_q && !nx_aw_q -> !w_aw_q)
  `NI_ASSERT(WriteLines, job_write_i -> job_lines_i != '0 && job_lines_i <= 5'd16)
`ifndef SYNTHESIS
  // The short write's strobes are those of (1 << len) - 1 shifted to its first byte.
  logic [127:0] ref_short_mask;
  assign ref_short_mask = (128'd1 << w_len_q) - 128'd1;
  `NI_ASSERT(ShortStrobes, s_strb2 == ref_short_mask << w_addr_q[5:0] &&
                          s_two == (s_strb2[127:64] != '0))
`endif
  `NI_ASSERT(ShortBytes, job_short_i -> job_len_i != '0 && job_len_i <= 11'd32)
  // AXI: valid held until ready; no burst crosses 4 KiB, none is longer than 16 beats.
  `NI_ASSERT_VALID_HELD(AwHeld, m_axi_awvalid_o, m_axi_awready_i,
                        {m_axi_awaddr_o, m_axi_awlen_o})
  `NI_ASSERT_VALID_HELD(WHeld, m_axi_wvalid_o, m_axi_wready_i,
                        {m_axi_wdata_o, m_axi_wstrb_o, m_axi_wlast_o})
  `NI_ASSERT(AwNo4kCross, m_axi_awvalid_o ->
                          ({1'b0, m_axi_awaddr_o[11:6]} + {1'b0, m_axi_awlen_o[5:0]}) < 7'd64)
  `NI_ASSERT(AwMax16, m_axi_awvalid_o -> m_axi_awlen_o < 8'd16)
  // Lines are popped only when there (the ingress stored all of a packet before its job).
  `NI_ASSERT(PopOnlyStored, line_pop_o -> line_valid_i)
  // Tags never overflow; the memory returns no B without a write (its promise).
  `NI_ASSERT(TagNoOverflow, tag_push -> !tag_full_o)
  `NI_ASSUME(BHasTag, m_axi_bvalid_i -> !tag_empty)

endmodule

`default_nettype wire
