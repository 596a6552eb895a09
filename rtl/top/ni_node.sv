// SPDX-License-Identifier: Apache-2.0
// One node of the NI (ICD 10): the QoS engine, the send unit and the receive unit on one
// clock. The engine's blk/pkt ports feed the send unit (req_tx); ACK/NACK packets from the
// response network reach the engine's rsp port through the receive unit, which also takes
// the request network (req_rx) into memory and answers on rsp_tx. Memory is one AXI4 master:
// AR/R for the send unit, AW/W/B for the receive unit.
//
// The trace_* outputs expose the internal engine <-> unit interfaces and the engine's trace
// port for the verification harness (docs/design.md section 13); synthesis leaves them
// unconnected and removes them.
`default_nettype none
`include "ni_assert.svh"

module ni_node
  import ni_pkg::*;
#(
  parameter int unsigned IntraPrios     = 8,
  parameter int unsigned MaxOutstanding = 2,
  parameter int unsigned AccSets        = 1,
  parameter int unsigned PktFifoDepth   = 16,
  parameter int unsigned AxiDataW       = 128,
  parameter int unsigned AxiAddrW       = 32,
  parameter int unsigned AxiIdW         = 4,
  parameter int unsigned MemDataW       = 512,
  parameter int unsigned MemAddrW       = 48,
  parameter int unsigned MemIdW         = 4,
  parameter int unsigned RdOutstanding  = 8,
  parameter int unsigned RxContexts     = 64
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  node_t                 node_id_i,  // static after reset
  // CPU AXI4 slave (ICD 2-4)
  input  logic [AxiIdW-1:0]     s_axi_awid_i,
  input  logic [AxiAddrW-1:0]   s_axi_awaddr_i,
  input  logic [7:0]            s_axi_awlen_i,
  input  logic [2:0]            s_axi_awsize_i,
  input  logic [1:0]            s_axi_awburst_i,
  input  logic                  s_axi_awvalid_i,
  output logic                  s_axi_awready_o,
  input  logic [AxiDataW-1:0]   s_axi_wdata_i,
  input  logic [AxiDataW/8-1:0] s_axi_wstrb_i,
  input  logic                  s_axi_wlast_i,
  input  logic                  s_axi_wvalid_i,
  output logic                  s_axi_wready_o,
  output logic [AxiIdW-1:0]     s_axi_bid_o,
  output logic [1:0]            s_axi_bresp_o,
  output logic                  s_axi_bvalid_o,
  input  logic                  s_axi_bready_i,
  input  logic [AxiIdW-1:0]     s_axi_arid_i,
  input  logic [AxiAddrW-1:0]   s_axi_araddr_i,
  input  logic [7:0]            s_axi_arlen_i,
  input  logic [2:0]            s_axi_arsize_i,
  input  logic [1:0]            s_axi_arburst_i,
  input  logic                  s_axi_arvalid_i,
  output logic                  s_axi_arready_o,
  output logic [AxiIdW-1:0]     s_axi_rid_o,
  output logic [AxiDataW-1:0]   s_axi_rdata_o,
  output logic [1:0]            s_axi_rresp_o,
  output logic                  s_axi_rlast_o,
  output logic                  s_axi_rvalid_o,
  input  logic                  s_axi_rready_i,
  // memory AXI4 master (ICD 10)
  output logic [MemIdW-1:0]     m_axi_awid_o,
  output logic [MemAddrW-1:0]   m_axi_awaddr_o,
  output logic [7:0]            m_axi_awlen_o,
  output logic [2:0]            m_axi_awsize_o,
  output logic [1:0]            m_axi_awburst_o,
  output logic                  m_axi_awvalid_o,
  input  logic                  m_axi_awready_i,
  output logic [MemDataW-1:0]   m_axi_wdata_o,
  output logic [MemDataW/8-1:0] m_axi_wstrb_o,
  output logic                  m_axi_wlast_o,
  output logic                  m_axi_wvalid_o,
  input  logic                  m_axi_wready_i,
  input  logic [MemIdW-1:0]     m_axi_bid_i,
  input  logic [1:0]            m_axi_bresp_i,
  input  logic                  m_axi_bvalid_i,
  output logic                  m_axi_bready_o,
  output logic [MemIdW-1:0]     m_axi_arid_o,
  output logic [MemAddrW-1:0]   m_axi_araddr_o,
  output logic [7:0]            m_axi_arlen_o,
  output logic [2:0]            m_axi_arsize_o,
  output logic [1:0]            m_axi_arburst_o,
  output logic                  m_axi_arvalid_o,
  input  logic                  m_axi_arready_i,
  input  logic [MemIdW-1:0]     m_axi_rid_i,
  input  logic [MemDataW-1:0]   m_axi_rdata_i,
  input  logic [1:0]            m_axi_rresp_i,
  input  logic                  m_axi_rlast_i,
  input  logic                  m_axi_rvalid_i,
  output logic                  m_axi_rready_o,
  // request network
  output logic                  req_tx_valid_o,
  input  logic                  req_tx_ready_i,
  output logic [511:0]          req_tx_data_o,
  output logic                  req_tx_last_o,
  input  logic                  req_rx_valid_i,
  output logic                  req_rx_ready_o,
  input  logic [511:0]          req_rx_data_i,
  input  logic                  req_rx_last_i,
  // response network
  output logic                  rsp_tx_valid_o,
  input  logic                  rsp_tx_ready_i,
  output logic [511:0]          rsp_tx_data_o,
  input  logic                  rsp_rx_valid_i,
  output logic                  rsp_rx_ready_o,
  input  logic [511:0]          rsp_rx_data_i,
  output logic                  init_done_o,
  // Trace ports for the verification harness; leave unconnected.
  output qos_trace_t            trace_qos_o,
  output logic                  trace_blk_valid_o,
  output logic                  trace_blk_ready_o,
  output tid_t                  trace_blk_tid_o,
  output logic [255:0]          trace_blk_desc_o,
  output logic                  trace_pkt_valid_o,
  output logic                  trace_pkt_ready_o,
  output logic [511:0]          trace_pkt_data_o,
  output logic                  trace_rsp_valid_o,
  output logic                  trace_rsp_ready_o,
  output rsp_t                  trace_rsp_o,
  output logic                  trace_rx_busy_o,
  output logic                  trace_rreq_valid_o,  // read requests, receive unit -> engine
  output logic                  trace_rreq_ready_o,
  output logic [511:0]          trace_rreq_o,
  output logic                  trace_drsp_valid_o,  // the engine's deferred responses
  output logic                  trace_drsp_ready_o,
  output rsp_t                  trace_drsp_o,
  output node_t                 trace_drsp_node_o,
  output logic                  trace_rsp_tx_eng_o,  // the beat on rsp_tx is the engine's
  output logic                  trace_rx_rsp_valid_o,  // the receive unit's own responses,
  output logic                  trace_rx_rsp_ready_o,  // before they share rsp_tx
  output logic [511:0]          trace_rx_rsp_data_o
);

  if (MemDataW != 512) begin : gen_bad_mem_width
    $error("ni_node: MemDataW must be 512 (ICD 10)");
  end

  logic          blk_valid, blk_ready, pkt_valid, pkt_ready, rsp_valid, rsp_ready;
  tid_t          blk_tid;
  blk_desc_t     blk_desc;
  logic [511:0]  pkt_data;
  rsp_t          rsp;
  logic [63:0]   rx_idle;
  logic [NumNodeStats-1:0][1:0] node_stat;  // events of counters 16-26 this cycle (0..2)
  logic          rreq_valid, rreq_ready, drsp_valid, drsp_ready;
  wire_head_t    rreq;
  rsp_t          drsp;
  node_t         drsp_node;
  logic          rx_rsp_valid, rx_rsp_ready;
  logic [511:0]  rx_rsp_data;

  // =======================================================================================
  // QoS engine
  // =======================================================================================
  qos_engine #(
    .IntraPrios    (IntraPrios),
    .MaxOutstanding(MaxOutstanding),
    .AccSets       (AccSets),
    .PktFifoDepth  (PktFifoDepth),
    .AxiDataW      (AxiDataW),
    .AxiAddrW      (AxiAddrW),
    .AxiIdW        (AxiIdW),
    .NodeRegs      (1'b1)
  ) u_qos (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .s_axi_awid_i   (s_axi_awid_i),
    .s_axi_awaddr_i (s_axi_awaddr_i),
    .s_axi_awlen_i  (s_axi_awlen_i),
    .s_axi_awsize_i (s_axi_awsize_i),
    .s_axi_awburst_i(s_axi_awburst_i),
    .s_axi_awvalid_i(s_axi_awvalid_i),
    .s_axi_awready_o(s_axi_awready_o),
    .s_axi_wdata_i  (s_axi_wdata_i),
    .s_axi_wstrb_i  (s_axi_wstrb_i),
    .s_axi_wlast_i  (s_axi_wlast_i),
    .s_axi_wvalid_i (s_axi_wvalid_i),
    .s_axi_wready_o (s_axi_wready_o),
    .s_axi_bid_o    (s_axi_bid_o),
    .s_axi_bresp_o  (s_axi_bresp_o),
    .s_axi_bvalid_o (s_axi_bvalid_o),
    .s_axi_bready_i (s_axi_bready_i),
    .s_axi_arid_i   (s_axi_arid_i),
    .s_axi_araddr_i (s_axi_araddr_i),
    .s_axi_arlen_i  (s_axi_arlen_i),
    .s_axi_arsize_i (s_axi_arsize_i),
    .s_axi_arburst_i(s_axi_arburst_i),
    .s_axi_arvalid_i(s_axi_arvalid_i),
    .s_axi_arready_o(s_axi_arready_o),
    .s_axi_rid_o    (s_axi_rid_o),
    .s_axi_rdata_o  (s_axi_rdata_o),
    .s_axi_rresp_o  (s_axi_rresp_o),
    .s_axi_rlast_o  (s_axi_rlast_o),
    .s_axi_rvalid_o (s_axi_rvalid_o),
    .s_axi_rready_i (s_axi_rready_i),
    .blk_valid_o    (blk_valid),
    .blk_ready_i    (blk_ready),
    .blk_tid_o      (blk_tid),
    .blk_desc_o     (blk_desc),
    .pkt_valid_o    (pkt_valid),
    .pkt_ready_i    (pkt_ready),
    .pkt_data_o     (pkt_data),
    .rsp_valid_i    (rsp_valid),
    .rsp_ready_o    (rsp_ready),
    .rsp_i          (rsp),
    .rreq_valid_i   (rreq_valid),
    .rreq_ready_o   (rreq_ready),
    .rreq_i         (rreq),
    .drsp_valid_o   (drsp_valid),
    .drsp_ready_i   (drsp_ready),
    .drsp_o         (drsp),
    .drsp_node_o    (drsp_node),
    .init_done_o    (init_done_o),
    .node_id_i      (node_id_i),
    .node_stat_inc_i(node_stat),
    .rx_idle_o      (rx_idle),
    .trace_o        (trace_qos_o)
  );

  // =======================================================================================
  // Send unit
  // =======================================================================================
  logic st_tx_req;

  send_unit #(
    .MemAddrW     (MemAddrW),
    .MemIdW       (MemIdW),
    .RdOutstanding(RdOutstanding)
  ) u_send (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .node_id_i      (node_id_i),
    .blk_valid_i    (blk_valid),
    .blk_ready_o    (blk_ready),
    .blk_tid_i      (blk_tid),
    .blk_desc_i     (blk_desc),
    .pkt_valid_i    (pkt_valid),
    .pkt_ready_o    (pkt_ready),
    .pkt_data_i     (pkt_data),
    .m_axi_arid_o   (m_axi_arid_o),
    .m_axi_araddr_o (m_axi_araddr_o),
    .m_axi_arlen_o  (m_axi_arlen_o),
    .m_axi_arsize_o (m_axi_arsize_o),
    .m_axi_arburst_o(m_axi_arburst_o),
    .m_axi_arvalid_o(m_axi_arvalid_o),
    .m_axi_arready_i(m_axi_arready_i),
    .m_axi_rid_i    (m_axi_rid_i),
    .m_axi_rdata_i  (m_axi_rdata_i),
    .m_axi_rresp_i  (m_axi_rresp_i),
    .m_axi_rlast_i  (m_axi_rlast_i),
    .m_axi_rvalid_i (m_axi_rvalid_i),
    .m_axi_rready_o (m_axi_rready_o),
    .req_tx_valid_o (req_tx_valid_o),
    .req_tx_ready_i (req_tx_ready_i),
    .req_tx_data_o  (req_tx_data_o),
    .req_tx_last_o  (req_tx_last_o),
    .stat_pkt_sent_o(st_tx_req)
  );

  // =======================================================================================
  // Receive unit
  // =======================================================================================
  logic st_rx_req, st_rx_rsp, st_hcrc_req, st_hcrc_rsp, st_pcrc, st_no_ctx, st_dup;
  logic st_mis_req, st_mis_rsp, st_ack, st_nack, st_notify, st_reclaim, st_tx_rsp;
  logic unused_st_rx_tx_rsp;  // counted at rsp_tx below, where the engine's responses join
  logic unused_st_rx_ack, unused_st_rx_nack;  // (as are ACKs and NACKs)

  recv_unit #(
    .MemAddrW  (MemAddrW),
    .MemIdW    (MemIdW),
    .RxContexts(RxContexts)
  ) u_recv (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .node_id_i          (node_id_i),
    .rx_idle_i          (rx_idle),
    .req_rx_valid_i     (req_rx_valid_i),
    .req_rx_ready_o     (req_rx_ready_o),
    .req_rx_data_i      (req_rx_data_i),
    .req_rx_last_i      (req_rx_last_i),
    .rsp_rx_valid_i     (rsp_rx_valid_i),
    .rsp_rx_ready_o     (rsp_rx_ready_o),
    .rsp_rx_data_i      (rsp_rx_data_i),
    .rsp_tx_valid_o     (rx_rsp_valid),
    .rsp_tx_ready_i     (rx_rsp_ready),
    .rsp_tx_data_o      (rx_rsp_data),
    .rsp_valid_o        (rsp_valid),
    .rsp_ready_i        (rsp_ready),
    .rsp_o              (rsp),
    .rreq_valid_o       (rreq_valid),
    .rreq_ready_i       (rreq_ready),
    .rreq_o             (rreq),
    .m_axi_awid_o       (m_axi_awid_o),
    .m_axi_awaddr_o     (m_axi_awaddr_o),
    .m_axi_awlen_o      (m_axi_awlen_o),
    .m_axi_awsize_o     (m_axi_awsize_o),
    .m_axi_awburst_o    (m_axi_awburst_o),
    .m_axi_awvalid_o    (m_axi_awvalid_o),
    .m_axi_awready_i    (m_axi_awready_i),
    .m_axi_wdata_o      (m_axi_wdata_o),
    .m_axi_wstrb_o      (m_axi_wstrb_o),
    .m_axi_wlast_o      (m_axi_wlast_o),
    .m_axi_wvalid_o     (m_axi_wvalid_o),
    .m_axi_wready_i     (m_axi_wready_i),
    .m_axi_bid_i        (m_axi_bid_i),
    .m_axi_bresp_i      (m_axi_bresp_i),
    .m_axi_bvalid_i     (m_axi_bvalid_i),
    .m_axi_bready_o     (m_axi_bready_o),
    .stat_rx_req_o      (st_rx_req),
    .stat_rx_rsp_o      (st_rx_rsp),
    .stat_hcrc_req_o    (st_hcrc_req),
    .stat_hcrc_rsp_o    (st_hcrc_rsp),
    .stat_pcrc_o        (st_pcrc),
    .stat_no_ctx_o      (st_no_ctx),
    .stat_dup_o         (st_dup),
    .stat_misroute_req_o(st_mis_req),
    .stat_misroute_rsp_o(st_mis_rsp),
    .stat_ack_o         (unused_st_rx_ack),
    .stat_nack_o        (unused_st_rx_nack),
    .stat_notify_o      (st_notify),
    .stat_reclaim_o     (st_reclaim),
    .stat_tx_rsp_o      (unused_st_rx_tx_rsp),
    .busy_o             (trace_rx_busy_o)
  );

  // =======================================================================================
  // Response network out: the receive unit's ACK/NACKs and the engine's deferred responses
  // =======================================================================================
  logic rsp_tx_eng;

  rsp_tx_arb u_rsp_tx_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .node_id_i  (node_id_i),
    .rx_valid_i (rx_rsp_valid),
    .rx_ready_o (rx_rsp_ready),
    .rx_data_i  (rx_rsp_data),
    .eng_valid_i(drsp_valid),
    .eng_ready_o(drsp_ready),
    .eng_i      (drsp),
    .eng_node_i (drsp_node),
    .tx_valid_o (rsp_tx_valid_o),
    .tx_ready_i (rsp_tx_ready_i),
    .tx_data_o  (rsp_tx_data_o),
    .eng_sel_o  (rsp_tx_eng)
  );

  // Counters 16, 23 and 24 count what leaves on rsp_tx: the receive unit's ACK/NACKs and the
  // engine's deferred responses to read requests alike (one beat a cycle).
  wire_kind_e rsp_tx_kind;
  assign rsp_tx_kind = wire_kind_e'(rsp_tx_data_o[3:0]);  // header bits 3:0 (ICD 11)
  assign st_tx_rsp   = rsp_tx_valid_o && rsp_tx_ready_i;
  assign st_ack      = st_tx_rsp && (rsp_tx_kind == WkAck);
  assign st_nack     = st_tx_rsp && (rsp_tx_kind == WkNack);

  // =======================================================================================
  // Counters 16-26: an event of both networks in one cycle counts two
  // =======================================================================================
  function automatic logic [1:0] two(logic a, logic b);
    return {1'b0, a} + {1'b0, b};
  endfunction

  assign node_stat = {{1'b0, st_reclaim},           // 26 receive contexts reclaimed idle
                      {1'b0, st_notify},            // 25 notifications written
                      {1'b0, st_nack},              // 24 NACKs sent
                      {1'b0, st_ack},               // 23 ACKs sent
                      two(st_mis_req, st_mis_rsp),  // 22 misrouted packets
                      {1'b0, st_dup},               // 21 stale or duplicate packets
                      {1'b0, st_no_ctx},            // 20 dropped for lack of a receive context
                      {1'b0, st_pcrc},              // 19 payload-CRC errors
                      two(st_hcrc_req, st_hcrc_rsp),  // 18 head-CRC errors
                      two(st_rx_req, st_rx_rsp),    // 17 packets received
                      two(st_tx_req, st_tx_rsp)};   // 16 packets sent

  // =======================================================================================
  // Trace ports
  // =======================================================================================
  assign trace_blk_valid_o = blk_valid;
  assign trace_blk_ready_o = blk_ready;
  assign trace_blk_tid_o   = blk_tid;
  assign trace_blk_desc_o  = blk_desc;
  assign trace_pkt_valid_o = pkt_valid;
  assign trace_pkt_ready_o = pkt_ready;
  assign trace_pkt_data_o  = pkt_data;
  assign trace_rsp_valid_o = rsp_valid;
  assign trace_rsp_ready_o = rsp_ready;
  assign trace_rsp_o       = rsp;
  assign trace_rreq_valid_o = rreq_valid;
  assign trace_rreq_ready_o = rreq_ready;
  assign trace_rreq_o       = rreq;
  assign trace_drsp_valid_o = drsp_valid;
  assign trace_drsp_ready_o = drsp_ready;
  assign trace_drsp_o       = drsp;
  assign trace_drsp_node_o  = drsp_node;
  assign trace_rsp_tx_eng_o = rsp_tx_eng;
  assign trace_rx_rsp_valid_o = rx_rsp_valid;
  assign trace_rx_rsp_ready_o = rx_rsp_ready;
  assign trace_rx_rsp_data_o  = rx_rsp_data;

endmodule

`default_nettype wire
