// SPDX-License-Identifier: Apache-2.0
// Receive unit of the NI (ICD sections 11 and 13; receive-side registration, sections 3-4):
// verified packets from the request network into memory, block ACKs and NACKs on the
// response network, completion notifications; ACK/NACK packets from the response network
// to the QoS engine. This module only wires its parts:
//
//   rsp_rx -> recv_rsp_path: hcrc, node and kind checks -> the engine's rsp port.
//   req_rx -> recv_ingress: head checks, payload lines into the line buffer with the
//             streaming pcrc, one descriptor per packet (store and forward); a read
//             request (READ_REQ) is its head beat, handed to the engine on rreq (ICD 16).
//          -> recv_proc: one decision per cycle while the writer is idle (an inline ACK, a
//             completion check, or the packet at the head), and the rsp_tx register;
//             recv_ctx_table: the receive contexts (fully associative on (src_node, tid)),
//             their RAM read a cycle ahead, completion marks, the updates decided;
//             recv_reclaim: idle stamps and the RxIdle scanner.
//          -> recv_writer: the decided writes on AW/W (a data packet's lines as one burst,
//             inline payloads and notification records as single-line bursts), write tags
//             retired by B in order (a context's pending count; an inline packet's ACK).
// docs/design.md section 15 describes the choices (context table, write tags, counters).
`default_nettype none
`include "ni_assert.svh"

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
  // read requests to the QoS engine's read-channel allocator (ICD 16)
  output logic                rreq_valid_o,
  input  logic                rreq_ready_i,
  output wire_head_t          rreq_o,
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
  output logic                stat_reclaim_o,      // 26 (registered: a cycle after the free)
  output logic                stat_tx_rsp_o,       // 16: a response left on rsp_tx
  // busy: a context is live, a packet buffered or a write outstanding
  output logic                busy_o
);

  localparam int unsigned CtxW    = $clog2(RxContexts);
  localparam int unsigned TagCntW = $clog2(WrOutstanding + 1);

  if (MemAddrW != 48) begin : gen_bad_addr_width
    $error("recv_unit: only MemAddrW = 48 is supported (ICD 10)");
  end
  if (RxContexts < 2 || (RxContexts & (RxContexts - 1)) != 0) begin : gen_bad_ctx
    $error("recv_unit: RxContexts must be a power of two, at least 2");
  end

  // ingress -> processing
  logic                desc_valid, desc_pop, line_valid, line_pop, ing_busy;
  recv_desc_t          desc;
  logic [511:0]        line;
  // context table <-> processing
  logic                lk_rdy, lk_full, lk_stale, lk_dup;
  logic [CtxW-1:0]     lk_idx;
  logic                ck_turn, ck_any, ck_rdy, ck_wait, ck_record;
  logic [CtxW-1:0]     ck_idx;
  recv_key_t           ck_key;
  logic [47:0]         ck_naddr;
  logic [63:0]         ck_ntag;
  logic [31:0]         ck_nsize;
  logic                take, record, free, ck_done;
  logic [1:0]          pend_add;
  logic                ctx_busy;
  // context table <-> reclaim
  logic                touch, scan_ok, reclaim, reclaimed;
  logic [CtxW-1:0]     touch_idx, scan_idx;
  // processing <-> writer
  logic                wr_idle, wr_slot, tag_full;
  logic [TagCntW-1:0]  tag_cnt;
  logic                job_write, job_short, job_discard, job_ctx;
  logic [47:0]         job_addr;
  logic [WireLenW-1:0] job_len;
  logic [4:0]          job_lines;
  logic [255:0]        job_bytes;
  logic [CtxW-1:0]     job_ctx_idx;
  recv_key_t           job_key;
  logic                ack_valid, ack_pop;
  recv_key_t           ack;
  logic                b_ctx;
  logic [CtxW-1:0]     b_ctx_idx;
  logic                proc_busy, wr_busy;

  recv_rsp_path u_rsp_path (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .node_id_i      (node_id_i),
    .rsp_rx_valid_i (rsp_rx_valid_i),
    .rsp_rx_ready_o (rsp_rx_ready_o),
    .rsp_rx_data_i  (rsp_rx_data_i),
    .rsp_valid_o    (rsp_valid_o),
    .rsp_ready_i    (rsp_ready_i),
    .rsp_o          (rsp_o),
    .stat_rx_o      (stat_rx_rsp_o),
    .stat_hcrc_o    (stat_hcrc_rsp_o),
    .stat_misroute_o(stat_misroute_rsp_o)
  );

  recv_ingress #(
    .BufLines (BufLines),
    .DescDepth(DescDepth)
  ) u_ingress (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .node_id_i      (node_id_i),
    .req_rx_valid_i (req_rx_valid_i),
    .req_rx_ready_o (req_rx_ready_o),
    .req_rx_data_i  (req_rx_data_i),
    .req_rx_last_i  (req_rx_last_i),
    .desc_valid_o   (desc_valid),
    .desc_o         (desc),
    .desc_pop_i     (desc_pop),
    .line_valid_o   (line_valid),
    .line_o         (line),
    .line_pop_i     (line_pop),
    .rreq_valid_o   (rreq_valid_o),
    .rreq_ready_i   (rreq_ready_i),
    .rreq_o         (rreq_o),
    .stat_rx_o      (stat_rx_req_o),
    .stat_hcrc_o    (stat_hcrc_req_o),
    .stat_misroute_o(stat_misroute_req_o),
    .busy_o         (ing_busy)
  );

  recv_ctx_table #(
    .RxContexts   (RxContexts),
    .WrOutstanding(WrOutstanding)
  ) u_ctx_table (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .desc_valid_i(desc_valid),
    .desc_i      (desc),
    .desc_pop_i  (desc_pop),
    .lk_rdy_o    (lk_rdy),
    .lk_full_o   (lk_full),
    .lk_stale_o  (lk_stale),
    .lk_dup_o    (lk_dup),
    .lk_idx_o    (lk_idx),
    .fsm_idle_i  (wr_idle),
    .ck_turn_i   (ck_turn),
    .ck_any_o    (ck_any),
    .ck_idx_o    (ck_idx),
    .ck_rdy_o    (ck_rdy),
    .ck_wait_o   (ck_wait),
    .ck_record_o (ck_record),
    .ck_key_o    (ck_key),
    .ck_naddr_o  (ck_naddr),
    .ck_ntag_o   (ck_ntag),
    .ck_nsize_o  (ck_nsize),
    .take_i      (take),
    .record_i    (record),
    .free_i      (free),
    .ck_done_i   (ck_done),
    .pend_add_i  (pend_add),
    .b_ctx_i     (b_ctx),
    .b_ctx_idx_i (b_ctx_idx),
    .touch_o     (touch),
    .touch_idx_o (touch_idx),
    .scan_idx_i  (scan_idx),
    .scan_ok_o   (scan_ok),
    .reclaim_i   (reclaim),
    .reclaimed_o (reclaimed),
    .busy_o      (ctx_busy)
  );

  recv_reclaim #(
    .RxContexts(RxContexts)
  ) u_reclaim (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .rx_idle_i  (rx_idle_i),
    .touch_i    (touch),
    .touch_idx_i(touch_idx),
    .scan_idx_o (scan_idx),
    .scan_ok_i  (scan_ok),
    .reclaim_o  (reclaim)
  );

  recv_proc #(
    .RxContexts   (RxContexts),
    .WrOutstanding(WrOutstanding)
  ) u_proc (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .node_id_i     (node_id_i),
    .desc_valid_i  (desc_valid),
    .desc_i        (desc),
    .desc_pop_o    (desc_pop),
    .lk_rdy_i      (lk_rdy),
    .lk_full_i     (lk_full),
    .lk_stale_i    (lk_stale),
    .lk_dup_i      (lk_dup),
    .lk_idx_i      (lk_idx),
    .ck_turn_o     (ck_turn),
    .ck_any_i      (ck_any),
    .ck_idx_i      (ck_idx),
    .ck_rdy_i      (ck_rdy),
    .ck_wait_i     (ck_wait),
    .ck_record_i   (ck_record),
    .ck_key_i      (ck_key),
    .ck_naddr_i    (ck_naddr),
    .ck_ntag_i     (ck_ntag),
    .ck_nsize_i    (ck_nsize),
    .take_o        (take),
    .record_o      (record),
    .free_o        (free),
    .ck_done_o     (ck_done),
    .pend_add_o    (pend_add),
    .wr_idle_i     (wr_idle),
    .wr_slot_i     (wr_slot),
    .tag_full_i    (tag_full),
    .tag_cnt_i     (tag_cnt),
    .job_write_o   (job_write),
    .job_short_o   (job_short),
    .job_discard_o (job_discard),
    .job_addr_o    (job_addr),
    .job_len_o     (job_len),
    .job_lines_o   (job_lines),
    .job_bytes_o   (job_bytes),
    .job_ctx_o     (job_ctx),
    .job_ctx_idx_o (job_ctx_idx),
    .job_key_o     (job_key),
    .ack_valid_i   (ack_valid),
    .ack_i         (ack),
    .ack_pop_o     (ack_pop),
    .rsp_tx_valid_o(rsp_tx_valid_o),
    .rsp_tx_ready_i(rsp_tx_ready_i),
    .rsp_tx_data_o (rsp_tx_data_o),
    .stat_pcrc_o   (stat_pcrc_o),
    .stat_no_ctx_o (stat_no_ctx_o),
    .stat_dup_o    (stat_dup_o),
    .stat_ack_o    (stat_ack_o),
    .stat_nack_o   (stat_nack_o),
    .stat_notify_o (stat_notify_o),
    .stat_tx_rsp_o (stat_tx_rsp_o),
    .busy_o        (proc_busy)
  );

  recv_writer #(
    .MemAddrW     (MemAddrW),
    .MemIdW       (MemIdW),
    .RxContexts   (RxContexts),
    .WrOutstanding(WrOutstanding)
  ) u_writer (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .job_write_i    (job_write),
    .job_short_i    (job_short),
    .job_discard_i  (job_discard),
    .job_addr_i     (job_addr),
    .job_len_i      (job_len),
    .job_lines_i    (job_lines),
    .job_bytes_i    (job_bytes),
    .job_ctx_i      (job_ctx),
    .job_ctx_idx_i  (job_ctx_idx),
    .job_key_i      (job_key),
    .idle_o         (wr_idle),
    .slot_o         (wr_slot),
    .line_valid_i   (line_valid),
    .line_i         (line),
    .line_pop_o     (line_pop),
    .m_axi_awid_o   (m_axi_awid_o),
    .m_axi_awaddr_o (m_axi_awaddr_o),
    .m_axi_awlen_o  (m_axi_awlen_o),
    .m_axi_awsize_o (m_axi_awsize_o),
    .m_axi_awburst_o(m_axi_awburst_o),
    .m_axi_awvalid_o(m_axi_awvalid_o),
    .m_axi_awready_i(m_axi_awready_i),
    .m_axi_wdata_o  (m_axi_wdata_o),
    .m_axi_wstrb_o  (m_axi_wstrb_o),
    .m_axi_wlast_o  (m_axi_wlast_o),
    .m_axi_wvalid_o (m_axi_wvalid_o),
    .m_axi_wready_i (m_axi_wready_i),
    .m_axi_bid_i    (m_axi_bid_i),
    .m_axi_bresp_i  (m_axi_bresp_i),
    .m_axi_bvalid_i (m_axi_bvalid_i),
    .m_axi_bready_o (m_axi_bready_o),
    .tag_full_o     (tag_full),
    .tag_cnt_o      (tag_cnt),
    .b_ctx_o        (b_ctx),
    .b_ctx_idx_o    (b_ctx_idx),
    .ack_valid_o    (ack_valid),
    .ack_o          (ack),
    .ack_pop_i      (ack_pop),
    .busy_o         (wr_busy)
  );

  // A reclaim is kept off a context the decision writes in the same cycle, so the freed event
  // (reclaimed) is known only at the end of the cycle: it reaches the counter a cycle later,
  // from a register. Idle reclaims
  // are not visible at any port and their counter's expected value is a window.
  logic reclaim_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) reclaim_q <= 1'b0;
    else         reclaim_q <= reclaimed;
  end
  assign stat_reclaim_o = reclaim_q;
  assign busy_o         = ing_busy || ctx_busy || proc_busy || wr_busy;

endmodule

`default_nettype wire
