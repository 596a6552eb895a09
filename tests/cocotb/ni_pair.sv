// SPDX-License-Identifier: Apache-2.0
// Two ni_node instances, node ids 0 and 1, for the cocotb testbench's two-node tests
// (tests/cocotb/test_ni_pair.py, docs/cocotb.md). One clock and one reset; every other port of
// node n is a toplevel port named n<n>_<ni_node port> (default parameters), so the Python
// side builds each node's bus models and connects the networks exactly as for a lone
// ni_node. The trace ports stay unconnected. Nothing here is part of the design.
`default_nettype none

// The ports of one node, each named with prefix p.
`define NI_PAIR_PORTS(p) \
  input  logic [3:0]     p``s_axi_awid_i, \
  input  logic [31:0]    p``s_axi_awaddr_i, \
  input  logic [7:0]     p``s_axi_awlen_i, \
  input  logic [2:0]     p``s_axi_awsize_i, \
  input  logic [1:0]     p``s_axi_awburst_i, \
  input  logic           p``s_axi_awvalid_i, \
  output logic           p``s_axi_awready_o, \
  input  logic [127:0]   p``s_axi_wdata_i, \
  input  logic [15:0]    p``s_axi_wstrb_i, \
  input  logic           p``s_axi_wlast_i, \
  input  logic           p``s_axi_wvalid_i, \
  output logic           p``s_axi_wready_o, \
  output logic [3:0]     p``s_axi_bid_o, \
  output logic [1:0]     p``s_axi_bresp_o, \
  output logic           p``s_axi_bvalid_o, \
  input  logic           p``s_axi_bready_i, \
  input  logic [3:0]     p``s_axi_arid_i, \
  input  logic [31:0]    p``s_axi_araddr_i, \
  input  logic [7:0]     p``s_axi_arlen_i, \
  input  logic [2:0]     p``s_axi_arsize_i, \
  input  logic [1:0]     p``s_axi_arburst_i, \
  input  logic           p``s_axi_arvalid_i, \
  output logic           p``s_axi_arready_o, \
  output logic [3:0]     p``s_axi_rid_o, \
  output logic [127:0]   p``s_axi_rdata_o, \
  output logic [1:0]     p``s_axi_rresp_o, \
  output logic           p``s_axi_rlast_o, \
  output logic           p``s_axi_rvalid_o, \
  input  logic           p``s_axi_rready_i, \
  output logic [3:0]     p``m_axi_awid_o, \
  output logic [47:0]    p``m_axi_awaddr_o, \
  output logic [7:0]     p``m_axi_awlen_o, \
  output logic [2:0]     p``m_axi_awsize_o, \
  output logic [1:0]     p``m_axi_awburst_o, \
  output logic           p``m_axi_awvalid_o, \
  input  logic           p``m_axi_awready_i, \
  output logic [511:0]   p``m_axi_wdata_o, \
  output logic [63:0]    p``m_axi_wstrb_o, \
  output logic           p``m_axi_wlast_o, \
  output logic           p``m_axi_wvalid_o, \
  input  logic           p``m_axi_wready_i, \
  input  logic [3:0]     p``m_axi_bid_i, \
  input  logic [1:0]     p``m_axi_bresp_i, \
  input  logic           p``m_axi_bvalid_i, \
  output logic           p``m_axi_bready_o, \
  output logic [3:0]     p``m_axi_arid_o, \
  output logic [47:0]    p``m_axi_araddr_o, \
  output logic [7:0]     p``m_axi_arlen_o, \
  output logic [2:0]     p``m_axi_arsize_o, \
  output logic [1:0]     p``m_axi_arburst_o, \
  output logic           p``m_axi_arvalid_o, \
  input  logic           p``m_axi_arready_i, \
  input  logic [3:0]     p``m_axi_rid_i, \
  input  logic [511:0]   p``m_axi_rdata_i, \
  input  logic [1:0]     p``m_axi_rresp_i, \
  input  logic           p``m_axi_rlast_i, \
  input  logic           p``m_axi_rvalid_i, \
  output logic           p``m_axi_rready_o, \
  output logic           p``req_tx_valid_o, \
  input  logic           p``req_tx_ready_i, \
  output logic [511:0]   p``req_tx_data_o, \
  output logic           p``req_tx_last_o, \
  input  logic           p``req_rx_valid_i, \
  output logic           p``req_rx_ready_o, \
  input  logic [511:0]   p``req_rx_data_i, \
  input  logic           p``req_rx_last_i, \
  output logic           p``rsp_tx_valid_o, \
  input  logic           p``rsp_tx_ready_i, \
  output logic [511:0]   p``rsp_tx_data_o, \
  input  logic           p``rsp_rx_valid_i, \
  output logic           p``rsp_rx_ready_o, \
  input  logic [511:0]   p``rsp_rx_data_i, \
  output logic           p``init_done_o

// One ni_node, node id `id`, on the ports of prefix p.
`define NI_PAIR_NODE(p, id) \
  ni_node u_``p``node ( \
    .clk_i            (clk_i), \
    .rst_ni           (rst_ni), \
    .node_id_i        (16'(id)), \
    .s_axi_awid_i     (p``s_axi_awid_i), \
    .s_axi_awaddr_i   (p``s_axi_awaddr_i), \
    .s_axi_awlen_i    (p``s_axi_awlen_i), \
    .s_axi_awsize_i   (p``s_axi_awsize_i), \
    .s_axi_awburst_i  (p``s_axi_awburst_i), \
    .s_axi_awvalid_i  (p``s_axi_awvalid_i), \
    .s_axi_awready_o  (p``s_axi_awready_o), \
    .s_axi_wdata_i    (p``s_axi_wdata_i), \
    .s_axi_wstrb_i    (p``s_axi_wstrb_i), \
    .s_axi_wlast_i    (p``s_axi_wlast_i), \
    .s_axi_wvalid_i   (p``s_axi_wvalid_i), \
    .s_axi_wready_o   (p``s_axi_wready_o), \
    .s_axi_bid_o      (p``s_axi_bid_o), \
    .s_axi_bresp_o    (p``s_axi_bresp_o), \
    .s_axi_bvalid_o   (p``s_axi_bvalid_o), \
    .s_axi_bready_i   (p``s_axi_bready_i), \
    .s_axi_arid_i     (p``s_axi_arid_i), \
    .s_axi_araddr_i   (p``s_axi_araddr_i), \
    .s_axi_arlen_i    (p``s_axi_arlen_i), \
    .s_axi_arsize_i   (p``s_axi_arsize_i), \
    .s_axi_arburst_i  (p``s_axi_arburst_i), \
    .s_axi_arvalid_i  (p``s_axi_arvalid_i), \
    .s_axi_arready_o  (p``s_axi_arready_o), \
    .s_axi_rid_o      (p``s_axi_rid_o), \
    .s_axi_rdata_o    (p``s_axi_rdata_o), \
    .s_axi_rresp_o    (p``s_axi_rresp_o), \
    .s_axi_rlast_o    (p``s_axi_rlast_o), \
    .s_axi_rvalid_o   (p``s_axi_rvalid_o), \
    .s_axi_rready_i   (p``s_axi_rready_i), \
    .m_axi_awid_o     (p``m_axi_awid_o), \
    .m_axi_awaddr_o   (p``m_axi_awaddr_o), \
    .m_axi_awlen_o    (p``m_axi_awlen_o), \
    .m_axi_awsize_o   (p``m_axi_awsize_o), \
    .m_axi_awburst_o  (p``m_axi_awburst_o), \
    .m_axi_awvalid_o  (p``m_axi_awvalid_o), \
    .m_axi_awready_i  (p``m_axi_awready_i), \
    .m_axi_wdata_o    (p``m_axi_wdata_o), \
    .m_axi_wstrb_o    (p``m_axi_wstrb_o), \
    .m_axi_wlast_o    (p``m_axi_wlast_o), \
    .m_axi_wvalid_o   (p``m_axi_wvalid_o), \
    .m_axi_wready_i   (p``m_axi_wready_i), \
    .m_axi_bid_i      (p``m_axi_bid_i), \
    .m_axi_bresp_i    (p``m_axi_bresp_i), \
    .m_axi_bvalid_i   (p``m_axi_bvalid_i), \
    .m_axi_bready_o   (p``m_axi_bready_o), \
    .m_axi_arid_o     (p``m_axi_arid_o), \
    .m_axi_araddr_o   (p``m_axi_araddr_o), \
    .m_axi_arlen_o    (p``m_axi_arlen_o), \
    .m_axi_arsize_o   (p``m_axi_arsize_o), \
    .m_axi_arburst_o  (p``m_axi_arburst_o), \
    .m_axi_arvalid_o  (p``m_axi_arvalid_o), \
    .m_axi_arready_i  (p``m_axi_arready_i), \
    .m_axi_rid_i      (p``m_axi_rid_i), \
    .m_axi_rdata_i    (p``m_axi_rdata_i), \
    .m_axi_rresp_i    (p``m_axi_rresp_i), \
    .m_axi_rlast_i    (p``m_axi_rlast_i), \
    .m_axi_rvalid_i   (p``m_axi_rvalid_i), \
    .m_axi_rready_o   (p``m_axi_rready_o), \
    .req_tx_valid_o   (p``req_tx_valid_o), \
    .req_tx_ready_i   (p``req_tx_ready_i), \
    .req_tx_data_o    (p``req_tx_data_o), \
    .req_tx_last_o    (p``req_tx_last_o), \
    .req_rx_valid_i   (p``req_rx_valid_i), \
    .req_rx_ready_o   (p``req_rx_ready_o), \
    .req_rx_data_i    (p``req_rx_data_i), \
    .req_rx_last_i    (p``req_rx_last_i), \
    .rsp_tx_valid_o   (p``rsp_tx_valid_o), \
    .rsp_tx_ready_i   (p``rsp_tx_ready_i), \
    .rsp_tx_data_o    (p``rsp_tx_data_o), \
    .rsp_rx_valid_i   (p``rsp_rx_valid_i), \
    .rsp_rx_ready_o   (p``rsp_rx_ready_o), \
    .rsp_rx_data_i    (p``rsp_rx_data_i), \
    .init_done_o      (p``init_done_o), \
    .trace_qos_o      (), \
    .trace_blk_valid_o(), \
    .trace_blk_ready_o(), \
    .trace_blk_tid_o  (), \
    .trace_blk_desc_o (), \
    .trace_pkt_valid_o(), \
    .trace_pkt_ready_o(), \
    .trace_pkt_data_o (), \
    .trace_rsp_valid_o(), \
    .trace_rsp_ready_o(), \
    .trace_rsp_o      (), \
    .trace_rx_busy_o  (), \
    .trace_rreq_valid_o(), \
    .trace_rreq_ready_o(), \
    .trace_rreq_o      (), \
    .trace_drsp_valid_o(), \
    .trace_drsp_ready_o(), \
    .trace_drsp_o      (), \
    .trace_drsp_node_o (), \
    .trace_rsp_tx_eng_o(), \
    .trace_rx_rsp_valid_o(), \
    .trace_rx_rsp_ready_o(), \
    .trace_rx_rsp_data_o () \
  )

module ni_pair (
  input logic clk_i,
  // SYNCASYNCNET: as in ni_pkg's assertion macros, rst_ni is the design's asynchronous reset
  // and also the assertions' `disable iff`.
  /* verilator lint_off SYNCASYNCNET */
  input logic rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  `NI_PAIR_PORTS(n0_),
  `NI_PAIR_PORTS(n1_)
);
  /* verilator lint_off PINCONNECTEMPTY */  // the trace ports, on purpose
  `NI_PAIR_NODE(n0_, 0);
  `NI_PAIR_NODE(n1_, 1);
  /* verilator lint_on PINCONNECTEMPTY */
endmodule

`undef NI_PAIR_PORTS
`undef NI_PAIR_NODE
`default_nettype wire
