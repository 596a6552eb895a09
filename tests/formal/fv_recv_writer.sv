// SPDX-License-Identifier: Apache-2.0
// Formal harness of recv_writer (the receive unit's memory writer, with its one-job slot):
// every job it is given comes out as its AXI4 write bursts, in the order the jobs were given,
// none lost, none twice, and W beats follow the bursts' order and lengths.
//
// A shadow queue of the AW bursts still expected (line address, AWLEN) is appended when a job
// is given (a data write: one burst of its lines; a short write: one single-line burst per
// line it touches; a discard: none) and popped by each AW handshake, which must match its
// head. A second queue of the W bursts still expected (beats) is appended likewise and
// popped by the W beat with WLAST; every W beat checks WLAST against the head's length. The
// queues are tied to the writer's state (the current job, the slot) by the invariants
// below, so that k-induction starts from reachable states only.
//
// Environment: reset asserted in the first cycle, free at any time after; AWREADY, WREADY,
// BVALID, the line buffer's valid and the jobs free within the writer's contract.
// Contract: recv_writer's own input assertions (OneJob, JobWhenIdle, WriteWhenSlot,
// WriteLines, ShortBytes), made assumptions by recv_writer.sby (`chformal -assert2assume`),
// its assumption BHasTag, and here: a data write lies inside one 1 KiB window (recv_proc's
// packets do: ICD 13), an ACK is popped only while one waits, the line buffer's head stays
// until it is popped.
`default_nettype none

module fv_recv_writer
  import ni_pkg::*;
#(
  parameter int unsigned RxContexts    = 4,
  parameter int unsigned WrOutstanding = 4,
  localparam int unsigned CtxW         = $clog2(RxContexts),
  localparam int unsigned TagCntW      = $clog2(WrOutstanding + 1)
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic                job_write_i,
  input logic                job_short_i,
  input logic                job_discard_i,
  input logic [47:0]         job_addr_i,
  input logic [WireLenW-1:0] job_len_i,
  input logic [4:0]          job_lines_i,
  input logic [255:0]        job_bytes_i,
  input logic                job_ctx_i,
  input logic [CtxW-1:0]     job_ctx_idx_i,
  input recv_key_t           job_key_i,
  input logic                line_valid_i,
  input logic [511:0]        line_i,
  input logic                awready_i,
  input logic                wready_i,
  input logic [3:0]          bid_i,
  input logic [1:0]          bresp_i,
  input logic                bvalid_i,
  input logic                ack_pop_i
);

  logic               idle, slot, line_pop, awvalid, wvalid, wlast, bready;
  logic [3:0]         awid;
  logic [47:0]        awaddr;
  logic [7:0]         awlen;
  logic [2:0]         awsize;
  logic [1:0]         awburst;
  logic [511:0]       wdata;
  logic [63:0]        wstrb;
  logic               tag_full, b_ctx, ack_valid, busy;
  logic [TagCntW-1:0] tag_cnt;
  logic [CtxW-1:0]    b_ctx_idx;
  recv_key_t          ack;

  recv_writer #(
    .MemAddrW     (48),
    .MemIdW       (4),
    .RxContexts   (RxContexts),
    .WrOutstanding(WrOutstanding)
  ) u_dut (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .job_write_i    (job_write_i),
    .job_short_i    (job_short_i),
    .job_discard_i  (job_discard_i),
    .job_addr_i     (job_addr_i),
    .job_len_i      (job_len_i),
    .job_lines_i    (job_lines_i),
    .job_bytes_i    (job_bytes_i),
    .job_ctx_i      (job_ctx_i),
    .job_ctx_idx_i  (job_ctx_idx_i),
    .job_key_i      (job_key_i),
    .idle_o         (idle),
    .slot_o         (slot),
    .line_valid_i   (line_valid_i),
    .line_i         (line_i),
    .line_pop_o     (line_pop),
    .m_axi_awid_o   (awid),
    .m_axi_awaddr_o (awaddr),
    .m_axi_awlen_o  (awlen),
    .m_axi_awsize_o (awsize),
    .m_axi_awburst_o(awburst),
    .m_axi_awvalid_o(awvalid),
    .m_axi_awready_i(awready_i),
    .m_axi_wdata_o  (wdata),
    .m_axi_wstrb_o  (wstrb),
    .m_axi_wlast_o  (wlast),
    .m_axi_wvalid_o (wvalid),
    .m_axi_wready_i (wready_i),
    .m_axi_bid_i    (bid_i),
    .m_axi_bresp_i  (bresp_i),
    .m_axi_bvalid_i (bvalid_i),
    .m_axi_bready_o (bready),
    .tag_full_o     (tag_full),
    .tag_cnt_o      (tag_cnt),
    .b_ctx_o        (b_ctx),
    .b_ctx_idx_o    (b_ctx_idx),
    .ack_valid_o    (ack_valid),
    .ack_o          (ack),
    .ack_pop_i      (ack_pop_i),
    .busy_o         (busy)
  );

  logic unused;
  assign unused = ^{line_pop, awid, awsize, awburst, wdata, wstrb, bready, b_ctx, b_ctx_idx,
                    ack, busy, tag_cnt, tag_full, idle, slot};

  logic first_cycle_q = 1'b1;
  always_ff @(posedge clk_i) first_cycle_q <= 1'b0;
  always_comb begin
    if (first_cycle_q) m_reset : assume (!rst_ni);
    // a data packet lies inside one 1 KiB destination window: its lines from its first
    if (rst_ni && job_write_i) m_window : assume (6'(job_addr_i[9:6]) + 6'(job_lines_i) <= 6'd16);
    if (rst_ni && ack_pop_i) m_ack_pop : assume (ack_valid);
  end

  // the line buffer (a FIFO): its head stays until popped
  always @(posedge clk_i) begin
    if (rst_ni && $past(rst_ni && line_valid_i && !line_pop)) begin
      m_line_held : assume (line_valid_i && $stable(line_i));
    end
  end

  // ---------------------------------------------------------------------------------------
  // The shadow queues: AW bursts (line, AWLEN) and W bursts (beats) still expected
  // ---------------------------------------------------------------------------------------
  localparam int unsigned Q = 4;
  typedef struct packed {
    logic [41:0] line;
    logic [3:0]  len;  // AWLEN
  } aw_t;

  aw_t  [Q-1:0] aq_q, aq_d;
  logic [2:0]   ac_q, ac_d;
  logic [Q-1:0][4:0] wq_q, wq_d;  // beats of each expected W burst
  logic [2:0]   wc_q, wc_d;
  logic [4:0]   wcnt_q, wcnt_d;     // beats of the head W burst already taken

  logic aw_hs, w_hs, short_two;
  assign aw_hs     = awvalid && awready_i;
  assign w_hs      = wvalid && wready_i;
  assign short_two = ({6'd0, job_addr_i[5:0]} + {1'b0, job_len_i}) > 12'd64;

  always_comb begin
    aq_d   = aq_q;
    ac_d   = ac_q;
    wq_d   = wq_q;
    wc_d   = wc_q;
    wcnt_d = wcnt_q;
    // an AW handshake takes the head
    if (aw_hs) begin
      for (int i = 0; i < Q - 1; i++) aq_d[i] = aq_q[i+1];
      ac_d = ac_q - 3'd1;
    end
    // a W beat: the head's count, and WLAST pops it
    if (w_hs) begin
      wcnt_d = wcnt_q + 5'd1;
      if (wlast) begin
        for (int i = 0; i < Q - 1; i++) wq_d[i] = wq_q[i+1];
        wc_d   = wc_q - 3'd1;
        wcnt_d = '0;
      end
    end
    // a job given appends its bursts
    if (job_write_i) begin
      aq_d[ac_d] = '{line: job_addr_i[47:6], len: 4'(job_lines_i - 5'd1)};
      ac_d       = ac_d + 3'd1;
      wq_d[wc_d] = job_lines_i;
      wc_d       = wc_d + 3'd1;
    end else if (job_short_i) begin
      aq_d[ac_d] = '{line: job_addr_i[47:6], len: 4'd0};
      ac_d       = ac_d + 3'd1;
      wq_d[wc_d] = 5'd1;
      wc_d       = wc_d + 3'd1;
      if (short_two) begin
        aq_d[ac_d] = '{line: job_addr_i[47:6] + 42'd1, len: 4'd0};
        ac_d       = ac_d + 3'd1;
        wq_d[wc_d] = 5'd1;
        wc_d       = wc_d + 3'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aq_q   <= '0;
      ac_q   <= '0;
      wq_q   <= '0;
      wc_q   <= '0;
      wcnt_q <= '0;
    end else begin
      aq_q   <= aq_d;
      ac_q   <= ac_d;
      wq_q   <= wq_d;
      wc_q   <= wc_d;
      wcnt_q <= wcnt_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // The properties: each AW is the next expected burst, each W beat belongs to the next
  // expected W burst and WLAST marks its last beat; nothing is left over when idle
  // ---------------------------------------------------------------------------------------
  always_comb begin
    if (rst_ni) begin
      if (aw_hs) a_aw_expected : assert (ac_q != '0 && awaddr[5:0] == '0 &&
                                         awaddr[47:6] == aq_q[0].line && awlen == 8'(aq_q[0].len));
      if (w_hs) a_w_expected : assert (wc_q != '0 && wcnt_q < wq_q[0] &&
                                       wlast == (wcnt_q + 5'd1 == wq_q[0]));
      if (idle) a_idle_nothing_left : assert (ac_q == '0 && wc_q == '0);
      a_queues_bounded : assert (ac_q <= 3'(Q) && wc_q <= 3'(Q));
    end
  end

  // ---------------------------------------------------------------------------------------
  // Invariants: the queues against the writer's state (the current job and the slot)
  // ---------------------------------------------------------------------------------------
  logic       in_write, in_short, cur_aw, nx_aw, cur_w, two, second;
  logic [2:0] n_cur_aw;
  // (recv_writer's proc_e by value: PIdle 0, PWrite 1, PDiscard 2, PShort 3)
  assign in_write = 3'(u_dut.pst_q) == 3'd1;
  assign in_short = 3'(u_dut.pst_q) == 3'd3;
  assign cur_aw   = u_dut.w_aw_q;
  assign nx_aw    = u_dut.nx_v_q && u_dut.nx_aw_q;
  assign cur_w    = u_dut.w_j_q < u_dut.w_beats_q;
  assign two      = u_dut.s_two;
  assign second   = u_dut.s_second_q;
  assign n_cur_aw = {2'd0, cur_aw};

  always_comb begin
    if (rst_ni) begin
      // the FIFOs' counts within their depth (what their own proofs show: sync_fifo.sby)
      i_tags : assert (tag_cnt <= TagCntW'(WrOutstanding) &&
                       u_dut.u_acks.count_o <= TagCntW'(WrOutstanding));
      i_state : assert (3'(u_dut.pst_q) <= 3'd3);
      if (!in_write && !in_short) i_none : assert (ac_q == '0 && wc_q == '0 && wcnt_q == '0 &&
                                                   !u_dut.nx_v_q);
      if (in_write) begin
        i_w_lines : assert (u_dut.w_beats_q != '0 && u_dut.w_beats_q <= 5'd16 &&
                            u_dut.w_j_q <= u_dut.w_beats_q &&
                            6'(u_dut.w_addr_q[9:6]) + 6'(u_dut.w_beats_q) <= 6'd16);
        if (u_dut.nx_v_q) i_w_slot_lines : assert (u_dut.nx_beats_q != '0 &&
                                                    6'(u_dut.nx_addr_q[9:6]) +
                                                    6'(u_dut.nx_beats_q) <= 6'd16);
        i_w_ac : assert (ac_q == n_cur_aw + {2'd0, nx_aw});
        if (cur_aw) i_w_aw_cur : assert (aq_q[0] == aw_t'{line: u_dut.w_addr_q[47:6],
                                                       len: 4'(u_dut.w_beats_q - 5'd1)});
        if (nx_aw) i_w_aw_nx : assert (aq_q[n_cur_aw] == aw_t'{line: u_dut.nx_addr_q[47:6],
                                                          len: 4'(u_dut.nx_beats_q - 5'd1)});
        i_w_wc : assert (wc_q == {2'd0, cur_w} + {2'd0, u_dut.nx_v_q});
        if (cur_w) i_w_w_cur : assert (wq_q[0] == u_dut.w_beats_q && wcnt_q == u_dut.w_j_q);
        if (!cur_w) i_w_w_none : assert (wcnt_q == '0);
        if (u_dut.nx_v_q) i_w_w_nx : assert (wq_q[{2'd0, cur_w}] == u_dut.nx_beats_q);
      end
      if (in_short) begin
        i_s_len : assert (u_dut.w_len_q != '0 && u_dut.w_len_q <= 11'd32 && !u_dut.nx_v_q);
        i_s_ac : assert (ac_q == n_cur_aw + {2'd0, two && !second});
        if (cur_aw) i_s_aw_cur : assert (aq_q[0] == aw_t'{line: u_dut.w_addr_q[47:6] + 42'(second),
                                                       len: 4'd0});
        if (two && !second) i_s_aw_next : assert (aq_q[n_cur_aw] ==
                                                  aw_t'{line: u_dut.w_addr_q[47:6] + 42'd1, len: 4'd0});
        i_s_wc : assert (wc_q == {2'd0, u_dut.s_w_q} + {2'd0, two && !second});
        i_s_w : assert (wcnt_q == '0 && (wc_q == '0 || wq_q[0] == 5'd1) &&
                        (wc_q < 3'd2 || wq_q[1] == 5'd1));
        if (second) i_s_second : assert (two);
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Covers: a write waits in the slot, its AW goes out during the current burst, and its
  // first W beat follows the current burst's last one at once; a short write of two lines
  // ---------------------------------------------------------------------------------------
  logic wlast_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wlast_q <= 1'b0;
    else         wlast_q <= w_hs && wlast;
  end
  always_comb begin
    if (rst_ni) begin
      c_slot_aw_early : cover (in_write && u_dut.nx_v_q && !u_dut.nx_aw_q && cur_w);
      c_back_to_back : cover (wlast_q && w_hs && in_write && u_dut.w_j_q == '0 &&
                              u_dut.w_beats_q == 5'd2);
      c_short_two : cover (in_short && second && aw_hs);
    end
  end

endmodule

`default_nettype wire
