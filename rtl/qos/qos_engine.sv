// SPDX-License-Identifier: Apache-2.0
// QoS engine of the RDMA network interface (thesis chapters 2-3, ICD).
//
// Top level: the tables (Transfer Table, metadata, Pending Transactions Table), the ID FIFOs
// and their initialiser, the scheduling queues, the status and statistics registers, and
// the blocks that work on them: AXI slave, Transfer Segmenter, Message Handler, the timeout
// FSM with its re-issue requests, and the packet queue. docs/design.md describes how they
// fit together.
`default_nettype none
`include "ni_assert.svh"

module qos_engine
  import ni_pkg::*;
#(
  parameter int unsigned IntraPrios     = 8,
  parameter int unsigned MaxOutstanding = 2,
  parameter int unsigned AccSets        = 1,
  parameter int unsigned PktFifoDepth   = 16,
  parameter int unsigned AxiDataW       = 128,
  parameter int unsigned AxiAddrW       = 32,
  parameter int unsigned AxiIdW         = 4,
  // ni_node: statistics counters 16-26 and control words 2 (RxIdle) and 3 (node id), ICD 8/14
  parameter bit          NodeRegs       = 1'b0
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // AXI4 slave (CPU side)
  input  logic [AxiIdW-1:0]   s_axi_awid_i,
  input  logic [AxiAddrW-1:0] s_axi_awaddr_i,
  input  logic [7:0]          s_axi_awlen_i,
  input  logic [2:0]          s_axi_awsize_i,
  input  logic [1:0]          s_axi_awburst_i,
  input  logic                s_axi_awvalid_i,
  output logic                s_axi_awready_o,
  input  logic [AxiDataW-1:0] s_axi_wdata_i,
  input  logic [AxiDataW/8-1:0] s_axi_wstrb_i,
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
  output logic [AxiDataW-1:0] s_axi_rdata_o,
  output logic [1:0]          s_axi_rresp_o,
  output logic                s_axi_rlast_o,
  output logic                s_axi_rvalid_o,
  input  logic                s_axi_rready_i,
  // block descriptors to the Transaction Table
  output logic                blk_valid_o,
  input  logic                blk_ready_i,
  output logic [TidW-1:0]     blk_tid_o,
  output logic [255:0]        blk_desc_o,
  // packet queue output, one packet per beat
  output logic                pkt_valid_o,
  input  logic                pkt_ready_i,
  output logic [511:0]        pkt_data_o,
  // ACK/NACK from the network
  input  logic                rsp_valid_i,
  output logic                rsp_ready_o,
  input  rsp_t                rsp_i,
  // Remote read requests (READ_REQ head beats from the receive unit) and the deferred
  // responses to them (ICD 16). Tie rreq_valid_i to 0 in qos_engine alone.
  input  logic                rreq_valid_i,
  output logic                rreq_ready_o,
  input  wire_head_t          rreq_i,
  output logic                drsp_valid_o,
  input  logic                drsp_ready_i,
  output rsp_t                drsp_o,
  output node_t               drsp_node_o,
  output logic                init_done_o,
  // ni_node only (NodeRegs): the node id read as control word 3, events of counters 16-26
  // (element i counts counter 16 + i), control word 2 (RxIdle). Tie to 0 in qos_engine alone.
  input  node_t               node_id_i,
  input  logic [NumNodeStats-1:0][1:0] node_stat_inc_i,  // 0..2 events a cycle each
  output logic [63:0]         rx_idle_o,
  // Trace port for the verification harness (docs/design.md section 13); leave unconnected.
  output qos_trace_t          trace_o
);

  localparam int unsigned NumQueues = 2 + 4 * IntraPrios;
  localparam int unsigned QW        = $clog2(NumQueues);

  // Parameter checks (elaboration time).
  if (AxiDataW != 128) begin : gen_bad_data_width
    $error("qos_engine: only AxiDataW = 128 is supported");
  end
  if (IntraPrios != 1 && IntraPrios != 2 && IntraPrios != 4 && IntraPrios != 8 &&
      IntraPrios != 16) begin : gen_bad_intra_prios
    $error("qos_engine: IntraPrios must be 1, 2, 4, 8 or 16");
  end
  if (AccSets != 1 && AccSets != 16) begin : gen_bad_acc_sets
    $error("qos_engine: AccSets must be 1 or 16");
  end
  if (MaxOutstanding < 1 || MaxOutstanding > 15) begin : gen_bad_max_outstanding
    $error("qos_engine: MaxOutstanding must be 1..15");
  end

  // =======================================================================================
  // ID FIFOs and their initialiser (thesis 3.8, 3.14)
  // =======================================================================================
  logic init_done;
  logic ini_tid_push, ini_fid1_push, ini_fid4_push;
  tid_t ini_tid;
  fid_t ini_fid1, ini_fid4;

  id_init #(
    .TidCount (TidOnlyIds),
    .TidW     (TidW),
    .Fid1Base (Fid1Base),
    .Fid1Count(Fid1Count),
    .Fid4Base (Fid4Base),
    .Fid4Count(Fid4Count),
    .Fid4Step (FlowBlocks),
    .FidW     (FidW)
  ) u_id_init (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .tid_push_o (ini_tid_push),
    .tid_o      (ini_tid),
    .fid1_push_o(ini_fid1_push),
    .fid1_o     (ini_fid1),
    .fid4_push_o(ini_fid4_push),
    .fid4_o     (ini_fid4),
    .done_o     (init_done)
  );

  assign init_done_o = init_done;

  localparam int unsigned TidCntW  = $clog2(TidOnlyIds + 1);
  localparam int unsigned Fid1CntW = $clog2(Fid1Count + 1);
  localparam int unsigned Fid4CntW = $clog2(Fid4Count + 1);

  logic                tid_pop, fid1_pop, fid4_pop;
  tid_t                tid_head;
  fid_t                fid1_head, fid4_head;
  logic [TidCntW-1:0]  tid_count;
  logic [Fid1CntW-1:0] fid1_count;
  logic [Fid4CntW-1:0] fid4_count;
  logic                mh_tid_push, mh_fid1_push, mh_fid4_push;
  tid_t                mh_tid_id;
  fid_t                mh_fid_id;
  logic                unused_tid_empty, unused_tid_full;
  logic                unused_fid1_empty, unused_fid1_full;
  logic                unused_fid4_empty, unused_fid4_full;

  id_fifo #(
    .Depth(TidOnlyIds),
    .Width(TidW)
  ) u_tid_fifo (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .push_i   (init_done ? mh_tid_push : ini_tid_push),
    .push_id_i(init_done ? mh_tid_id : ini_tid),
    .pop_i    (tid_pop),
    .head_o   (tid_head),
    .count_o  (tid_count),
    .empty_o  (unused_tid_empty),
    .full_o   (unused_tid_full)
  );

  id_fifo #(
    .Depth(Fid1Count),
    .Width(FidW)
  ) u_fid1_fifo (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .push_i   (init_done ? mh_fid1_push : ini_fid1_push),
    .push_id_i(init_done ? mh_fid_id : ini_fid1),
    .pop_i    (fid1_pop),
    .head_o   (fid1_head),
    .count_o  (fid1_count),
    .empty_o  (unused_fid1_empty),
    .full_o   (unused_fid1_full)
  );

  id_fifo #(
    .Depth(Fid4Count),
    .Width(FidW)
  ) u_fid4_fifo (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .push_i   (init_done ? mh_fid4_push : ini_fid4_push),
    .push_id_i(init_done ? mh_fid_id : ini_fid4),
    .pop_i    (fid4_pop),
    .head_o   (fid4_head),
    .count_o  (fid4_count),
    .empty_o  (unused_fid4_empty),
    .full_o   (unused_fid4_full)
  );

  // =======================================================================================
  // Scheduling queues (thesis 3.7): sources 0 ACK handler, 1 segmenter, 2 AXI slave,
  // 3 read-channel allocator (remote read requests, ICD 16)
  // =======================================================================================
  logic [3:0]         enq_valid, enq_ready;
  logic [3:0][QW-1:0] enq_qid;
  logic [3:0][XferW-1:0] enq_node;
  logic [3:0]         enq_first;
  logic [NumQueues-1:0] q_nonempty, q_remain;
  logic               deq;
  qid_t               deq_qid;
  xfer_t              deq_node;
  logic               deq_first;

  logic  mh_enq_valid, seg_enq_valid, axi_enq_valid, rd_enq_valid;
  qid_t  mh_enq_qid, seg_enq_qid, axi_enq_qid, rd_enq_qid;
  xfer_t mh_enq_node, seg_enq_node, axi_enq_node, rd_enq_node;

  assign enq_valid = {rd_enq_valid, axi_enq_valid, seg_enq_valid, mh_enq_valid};
  assign enq_qid   = {QW'(rd_enq_qid), QW'(axi_enq_qid), QW'(seg_enq_qid), QW'(mh_enq_qid)};
  assign enq_node  = {rd_enq_node, axi_enq_node, seg_enq_node, mh_enq_node};
  assign enq_first = 4'b1100;  // the AXI slave and the allocator enqueue new transfers

  // Queue ids are qid_t wide, the queues use the bits they need.
  logic unused_enq;
  assign unused_enq = ^{mh_enq_qid, seg_enq_qid, axi_enq_qid, rd_enq_qid};

  // Enqueue priority (thesis 3.7): ACK handler > segmenter > AXI slave, with a bounded wait
  // for the AXI slave. The thesis accepts "an infrequent, worst case 2-clock-cycle delay" of
  // a new descriptor; with the segmenter issuing a block (and re-enqueueing) nearly every
  // cycle the AXI slave could otherwise wait for a long time. When its enqueue has been
  // refused AxiMaxWait cycles in a row, the segmenter holds back its next re-enqueue (the
  // handler keeps its top priority: it never stalls and enqueues at most once per response).
  // The read-channel allocator's enqueue (source 3, below the AXI slave) counts the same way.
  localparam int unsigned AxiMaxWait = 2;
  logic [1:0] axi_wait_q, axi_wait_d;
  logic       axi_starving, low_refused;

  assign low_refused = (axi_enq_valid && !enq_ready[2]) || (rd_enq_valid && !enq_ready[3]);

  always_comb begin
    axi_wait_d = '0;
    if (low_refused && axi_wait_q != 2'd3) axi_wait_d = axi_wait_q + 2'd1;
    else if (low_refused)                  axi_wait_d = axi_wait_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) axi_wait_q <= '0;
    else         axi_wait_q <= axi_wait_d;
  end

  assign axi_starving = (32'(axi_wait_q) >= AxiMaxWait);

  sched_queues #(
    .NumQueues(NumQueues),
    .NumNodes (NumXfers),
    .NumSrc   (4)
  ) u_queues (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .enq_valid_i(enq_valid),
    .enq_ready_o(enq_ready),
    .enq_qid_i  (enq_qid),
    .enq_node_i (enq_node),
    .enq_first_i(enq_first),
    .nonempty_o (q_nonempty),
    .remain_o   (q_remain),
    .deq_i      (deq),
    .deq_qid_i  (QW'(deq_qid)),
    .deq_node_o (deq_node),
    .deq_first_o(deq_first)
  );

  // =======================================================================================
  // Tables
  // =======================================================================================
  // Transfer Table (thesis 3.1): 2048 x 256 in an even and an odd bank. Port 0 writes the
  // AXI slave's descriptor lines, and the read-channel allocator's in cycles it leaves free.
  // The AXI slave's line is written a cycle after the beat that completes it, from a register
  // (`axw_*`): the beat's decision (which ends late in the cycle) then drives only that
  // register, and the allocator waits on the register, not on the decision. The transfer the
  // line makes live is enqueued in that same cycle at the earliest (the AXI slave's enqueue
  // is registered too), so the segmenter reads its row a cycle after the line is written at
  // the earliest (`TtReadCurrent`).
  logic          tt_we, axi_tt_we, rd_tt_we;
  xfer_t         tt_line, axi_tt_line, rd_tt_line;
  line_t         tt_wdata, axi_tt_wdata, rd_tt_wdata;
  logic          tt_re;
  logic [XferW-2:0] tt_row;
  line_t         tt_even, tt_odd;
  logic          axi_tt_si;
  logic          axw_q;       // the AXI slave's line accepted last cycle, written now
  xfer_t         axw_line_q;
  line_t         axw_data_q;
  logic          axw_si_q;    // ... its word 2 takes the segmentation info
  line_t         axw_wdata;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      axw_q      <= 1'b0;
      axw_line_q <= '0;
      axw_data_q <= '0;
      axw_si_q   <= 1'b0;
    end else begin
      axw_q      <= axi_tt_we;
      // (loaded every cycle: they are written only behind an accepted line, `axw_q`, and
      // the beat's acceptance, which ends late, then drives the one flag, not the line)
      axw_line_q <= axi_tt_line;
      axw_data_q <= axi_tt_wdata;
      axw_si_q   <= axi_tt_si;
    end
  end

  // A block transfer's line 0 keeps its segmentation info (ICD section 5) in word 2, made
  // here from the registered line: the adds start at a register, not at the beat's W data.
  function automatic line_t with_seg_info(line_t line, logic si_in);
    seg_info_t  si;
    logic [BlockW-1:0] dst_lo;
    logic [31:0]       size;
    line_t             l;
    dst_lo          = line[64 +: BlockW];   // word 1: the destination address
    size            = line[192 +: 32];      // word 3: the control word's size
    si              = '0;
    si.total        = total_blocks(dst_lo, size);
    si.first_len_m1 = first_len_m1(dst_lo, size);
    si.last_len_m1  = last_len_m1(dst_lo, size[BlockW-1:0]);
    l               = line;
    if (si_in) l[191:128] = si;
    return l;
  endfunction
  assign axw_wdata = with_seg_info(axw_data_q, axw_si_q);

  assign tt_we    = axw_q || rd_tt_we;
  assign tt_line  = axw_q ? axw_line_q : rd_tt_line;
  assign tt_wdata = axw_q ? axw_wdata : rd_tt_wdata;

  dp_ram #(
    .Depth(NumXfers / 2),
    .Width(LineW)
  ) u_tt_even (
    .clk_i  (clk_i),
    .we_i   (tt_we && !tt_line[0]),
    .waddr_i(tt_line[XferW-1:1]),
    .wdata_i(tt_wdata),
    .re_i   (tt_re),
    .raddr_i(tt_row),
    .rdata_o(tt_even)
  );

  dp_ram #(
    .Depth(NumXfers / 2),
    .Width(LineW)
  ) u_tt_odd (
    .clk_i  (clk_i),
    .we_i   (tt_we && tt_line[0]),
    .waddr_i(tt_line[XferW-1:1]),
    .wdata_i(tt_wdata),
    .re_i   (tt_re),
    .raddr_i(tt_row),
    .rdata_o(tt_odd)
  );

  // The read channels' notification address and tag (ICD 16), read with the Transfer Table
  logic            rdn_we;
  logic [WchW-1:0] rdn_waddr, rdn_raddr;
  logic [127:0]    rdn_wdata, rdn_rdata;

  dp_ram #(
    .Depth(NumRch),
    .Width(128)
  ) u_rd_notify (
    .clk_i  (clk_i),
    .we_i   (rdn_we),
    .waddr_i(rdn_waddr),
    .wdata_i(rdn_wdata),
    .re_i   (tt_re),
    .raddr_i(rdn_raddr),
    .rdata_o(rdn_rdata)
  );

  // Transfer metadata (thesis 3.2), split by writer (docs/design.md section 7)
  logic     segmd_re, segmd_we;
  xfer_t    segmd_raddr, segmd_waddr;
  seg_md_t  segmd_rdata, segmd_wdata;

  dp_ram #(
    .Depth(NumXfers),
    .Width($bits(seg_md_t))
  ) u_seg_md (
    .clk_i  (clk_i),
    .we_i   (segmd_we),
    .waddr_i(segmd_waddr),
    .wdata_i(segmd_wdata),
    .re_i   (segmd_re),
    .raddr_i(segmd_raddr),
    .rdata_o(segmd_rdata)
  );

  logic     park_we, park_re;
  xfer_t    park_waddr, park_raddr;
  park_md_t park_wdata, park_rdata;
  logic     park_rc;    // the segmenter's park asks the handler for a re-check
  ptt_t     park_rc_e;

  dp_ram #(
    .Depth(NumXfers),
    .Width($bits(park_md_t))
  ) u_park_md (
    .clk_i  (clk_i),
    .we_i   (park_we),
    .waddr_i(park_waddr),
    .wdata_i(park_wdata),
    .re_i   (park_re),
    .raddr_i(park_raddr),
    .rdata_o(park_rdata)
  );

  logic     ackmd_we, ackmd_mh_re, ackmd_seg_re;
  xfer_t    ackmd_waddr, ackmd_mh_raddr, ackmd_seg_raddr;
  ack_md_t  ackmd_wdata, ackmd_mh_rdata, ackmd_seg_rdata;

  dp_ram #(
    .Depth(NumXfers),
    .Width($bits(ack_md_t))
  ) u_ack_md_mh (
    .clk_i  (clk_i),
    .we_i   (ackmd_we),
    .waddr_i(ackmd_waddr),
    .wdata_i(ackmd_wdata),
    .re_i   (ackmd_mh_re),
    .raddr_i(ackmd_mh_raddr),
    .rdata_o(ackmd_mh_rdata)
  );

  dp_ram #(
    .Depth(NumXfers),
    .Width($bits(ack_md_t))
  ) u_ack_md_seg (
    .clk_i  (clk_i),
    .we_i   (ackmd_we),
    .waddr_i(ackmd_waddr),
    .wdata_i(ackmd_wdata),
    .re_i   (ackmd_seg_re),
    .raddr_i(ackmd_seg_raddr),
    .rdata_o(ackmd_seg_rdata)
  );

  // Pending Transactions Table (thesis 3.5): RAM part; the valid bits live in the handler
  logic               ptt_we, ptt_re;
  tid_t               ptt_waddr, ptt_raddr;
  ptt_t               ptt_wdata, ptt_rdata;
  logic [NumTids-1:0] ptt_valid;
  logic               ptt_set, rp_clr;
  tid_t               ptt_set_tid, rp_clr_tid;
  logic               ptt_clr;
  tid_t               ptt_clr_tid;

  dp_ram #(
    .Depth(NumTids),
    .Width($bits(ptt_t))
  ) u_ptt (
    .clk_i  (clk_i),
    .we_i   (ptt_we),
    .waddr_i(ptt_waddr),
    .wdata_i(ptt_wdata),
    .re_i   (ptt_re),
    .raddr_i(ptt_raddr),
    .rdata_o(ptt_rdata)
  );

  // =======================================================================================
  // Status registers and statistics
  // =======================================================================================
  logic             set_busy, set_busy_long;
  wch_t             set_busy_wch;
  wch_t             lk_wch;
  logic             lk_busy;
  logic             lk_pair_long_live;
  logic             rd_single, rd_multi;
  wch_t             rd_wch;
  status_e          rd_single_code;
  logic [63:0]      rd_multi_val;
  logic             finish, finish_err, finish_rd, finish_wr;
  wch_t             finish_wch;
  status_e [NumWch-1:0]   status_all;
  logic                   status_pend;
  wch_t                   status_pend_wch;
  logic                   status_pfin;
  wch_t                   status_pfin_wch;
  status_e                status_pfin_code;

  status_regs u_status (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .set_busy_i         (set_busy),
    .set_busy_wch_i     (set_busy_wch),
    .set_busy_long_i    (set_busy_long),
    .lk_wch_i           (lk_wch),
    .lk_busy_o          (lk_busy),
    .lk_pair_long_live_o(lk_pair_long_live),
    .rd_single_i        (rd_single),
    .rd_multi_i         (rd_multi),
    .rd_wch_i           (rd_wch),
    .rd_single_o        (rd_single_code),
    .rd_multi_o         (rd_multi_val),
    .finish_i           (finish_wr),
    .finish_wch_i       (finish_wch),
    .finish_err_i       (finish_err),
    .status_o           (status_all),
    .pend_busy_o        (status_pend),
    .pend_busy_wch_o    (status_pend_wch),
    .pend_fin_o         (status_pfin),
    .pend_fin_wch_o     (status_pfin_wch),
    .pend_fin_code_o    (status_pfin_code)
  );

  logic [NumStats-1:0] stat_inc;
  logic [5:0]          stat_idx;
  logic [63:0]         stat_val;
  logic                st_live, st_slverr, st_blk, st_inline, st_ctrl;
  logic                st_ack, st_nack, st_drop, st_done, st_error, st_retx, st_tmo;

  assign stat_inc = {st_tmo,                       // 13 timeouts
                     pkt_valid_o && !pkt_ready_i,  // 12 pkt port stalled
                     blk_valid_o && !blk_ready_i,  // 11 blk port stalled
                     st_error,                     // 10 transfers ERROR
                     st_done,                      //  9 transfers DONE
                     st_retx,                      //  8 retransmissions
                     st_drop,                      //  7 responses dropped
                     st_nack,                      //  6 NACKs
                     st_ack,                       //  5 ACKs accepted
                     st_ctrl,                      //  4 control packets
                     st_inline,                    //  3 inline packets
                     st_blk,                       //  2 blocks issued
                     st_slverr,                    //  1 descriptor writes rejected
                     st_live};                     //  0 descriptors accepted

  logic st_rd_nochan, st_rd_dup, st_rd_serve;

  // One event a cycle each, as the counters' 2-bit increments; in ni_node also the units'
  // (0..2 a cycle) and the read-channel allocator's.
  localparam int unsigned NumAllCnt = RdStatBase + NumRdStats;
  logic [NumStats-1:0][1:0]  eng_inc;
  logic [NumAllCnt-1:0][1:0] node_inc;
  always_comb begin
    for (int unsigned i = 0; i < NumStats; i++) eng_inc[i] = {1'b0, stat_inc[i]};
    node_inc = '0;
    for (int unsigned i = 0; i < NumStats; i++)     node_inc[i] = eng_inc[i];
    for (int unsigned i = 0; i < NumNodeStats; i++) node_inc[NodeStatBase + i] = node_stat_inc_i[i];
    node_inc[RdStatBase]     = {1'b0, st_rd_nochan};  // 27
    node_inc[RdStatBase + 1] = {1'b0, st_rd_dup};     // 28
    node_inc[RdStatBase + 2] = {1'b0, st_rd_serve};   // 29
  end

  if (NodeRegs) begin : gen_node_stats
    stat_counters #(
      .NumCnt(RdStatBase + NumRdStats)
    ) u_stats (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .inc_i   (node_inc),
      .rd_idx_i(stat_idx),
      .rd_val_o(stat_val)
    );
  end else begin : gen_engine_stats
    logic unused_node_in;
    assign unused_node_in = ^{node_inc};
    stat_counters #(
      .NumCnt(NumStats)
    ) u_stats (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .inc_i   (eng_inc),
      .rd_idx_i(stat_idx),
      .rd_val_o(stat_val)
    );
  end

  // =======================================================================================
  // AXI slave (thesis 3.6)
  // =======================================================================================
  logic [63:0] retx_timeout, max_retries;

  axi_slave #(
    .AccSets   (AccSets),
    .IntraPrios(IntraPrios),
    .AxiAddrW  (AxiAddrW),
    .AxiIdW    (AxiIdW),
    .NodeRegs  (NodeRegs)
  ) u_axi (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .init_done_i        (init_done),
    .node_id_i          (node_id_i),
    .rx_idle_o          (rx_idle_o),
    .s_axi_awid_i       (s_axi_awid_i),
    .s_axi_awaddr_i     (s_axi_awaddr_i),
    .s_axi_awlen_i      (s_axi_awlen_i),
    .s_axi_awsize_i     (s_axi_awsize_i),
    .s_axi_awburst_i    (s_axi_awburst_i),
    .s_axi_awvalid_i    (s_axi_awvalid_i),
    .s_axi_awready_o    (s_axi_awready_o),
    .s_axi_wdata_i      (s_axi_wdata_i),
    .s_axi_wstrb_i      (s_axi_wstrb_i),
    .s_axi_wlast_i      (s_axi_wlast_i),
    .s_axi_wvalid_i     (s_axi_wvalid_i),
    .s_axi_wready_o     (s_axi_wready_o),
    .s_axi_bid_o        (s_axi_bid_o),
    .s_axi_bresp_o      (s_axi_bresp_o),
    .s_axi_bvalid_o     (s_axi_bvalid_o),
    .s_axi_bready_i     (s_axi_bready_i),
    .s_axi_arid_i       (s_axi_arid_i),
    .s_axi_araddr_i     (s_axi_araddr_i),
    .s_axi_arlen_i      (s_axi_arlen_i),
    .s_axi_arsize_i     (s_axi_arsize_i),
    .s_axi_arburst_i    (s_axi_arburst_i),
    .s_axi_arvalid_i    (s_axi_arvalid_i),
    .s_axi_arready_o    (s_axi_arready_o),
    .s_axi_rid_o        (s_axi_rid_o),
    .s_axi_rdata_o      (s_axi_rdata_o),
    .s_axi_rresp_o      (s_axi_rresp_o),
    .s_axi_rlast_o      (s_axi_rlast_o),
    .s_axi_rvalid_o     (s_axi_rvalid_o),
    .s_axi_rready_i     (s_axi_rready_i),
    .tt_we_o            (axi_tt_we),
    .tt_line_o          (axi_tt_line),
    .tt_wdata_o         (axi_tt_wdata),
    .tt_seg_info_o      (axi_tt_si),
    .enq_valid_o        (axi_enq_valid),
    .enq_ready_i        (enq_ready[2]),
    .enq_qid_o          (axi_enq_qid),
    .enq_node_o         (axi_enq_node),
    .set_busy_o         (set_busy),
    .set_busy_wch_o     (set_busy_wch),
    .set_busy_long_o    (set_busy_long),
    .lk_wch_o           (lk_wch),
    .lk_busy_i          (lk_busy),
    .lk_pair_long_live_i(lk_pair_long_live),
    .rd_single_o        (rd_single),
    .rd_multi_o         (rd_multi),
    .rd_wch_o           (rd_wch),
    .rd_single_i        (rd_single_code),
    .rd_multi_i         (rd_multi_val),
    .stat_idx_o         (stat_idx),
    .stat_val_i         (stat_val),
    .stat_live_o        (st_live),
    .stat_slverr_o      (st_slverr),
    .retx_timeout_o     (retx_timeout),
    .max_retries_o      (max_retries)
  );

  // =======================================================================================
  // Retransmission (ICD 14, docs/design.md section 8.1): the timeout FSM and the re-issue
  // requests of the Message Handler (at most one per TID, so NumTids entries never fill)
  // =======================================================================================
  logic               tmo_valid;
  tid_t               tmo_tid;
  seq_t               tmo_seq;
  logic [NumTids-1:0] retx_pend;
  logic               rq_push, rq_pop, rq_valid, rq_full;
  rq_t                rq_in, rq_head;
  logic [$clog2(NumTids+3)-1:0] unused_rq_count;
  logic               seg_retx, ptt_we_left;
  tid_t               seg_retx_tid;
  logic [3:0]         pkt_out_kind;
  tid_t               pkt_out_tid;

  // kind and tid of the packet on pkt (header bits 3:0 and 13:4, ICD 7)
  assign pkt_out_kind = pkt_data_o[3:0];
  assign pkt_out_tid  = pkt_data_o[13:4];

  retx_timer u_timer (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .timeout_i    (retx_timeout),
    .ptt_valid_i  (ptt_valid),
    .ptt_set_i    (ptt_set),
    .ptt_set_tid_i(ptt_set_tid),
    .retx_pend_i  (retx_pend),
    .rp_clr_i     (rp_clr),
    .rp_clr_tid_i (rp_clr_tid),
    .ptt_clr_i    (ptt_clr),
    .ptt_clr_tid_i(ptt_clr_tid),
    .rp_set_i     (rq_push),
    .rp_set_tid_i (rq_in.tid),
    .ptt_we_i     (ptt_we),
    .ptt_waddr_i  (ptt_waddr),
    .ptt_wseq_i   (ptt_wdata.seq),
    .ptt_we_left_i(ptt_we_left),
    .blk_hs_i     (blk_valid_o && blk_ready_i),
    .blk_tid_i    (blk_tid_o),
    .pkt_hs_i     (pkt_valid_o && pkt_ready_i &&
                   (pkt_out_kind == PktKindInline || pkt_out_kind == PktKindRead)),
    .pkt_tid_i    (pkt_out_tid),
    .tmo_valid_o  (tmo_valid),
    .tmo_tid_o    (tmo_tid),
    .tmo_seq_o    (tmo_seq)
  );

  // In block RAM (registered read) with a bypass into its output stage, so a re-issue request
  // pushed into the empty queue is at its head the next cycle, as from a sync_fifo.
  fifo_ram #(
    .Depth (NumTids),
    .Width ($bits(rq_t)),
    .Bypass(1'b1)
  ) u_rq_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (rq_push),
    .push_data_i(rq_in),
    .full_o     (rq_full),
    .pop_i      (rq_pop),
    .valid_o    (rq_valid),
    .head_o     (rq_head),
    .count_o    (unused_rq_count)
  );

  // =======================================================================================
  // Transfer Segmenter (thesis 3.9) and the packet queue
  // =======================================================================================
  logic      fin_push, fin_full, fin_empty, fin_pop;
  fin_t      fin_in, fin_head;
  logic [1:0] unused_fin_count;
  logic      pkt_we, pkt_full;
  pkt_body_t pkt_body;
  blk_desc_t blk_desc;
  logic      trc_s2_fire, trc_s2_hold, trc_retx_pop, trc_s2_retx, trc_recheck;
  logic      mh_res;
  xfer_t     mh_res_xfer;
  xfer_t     trc_s2_node;

  transfer_segmenter #(
    .IntraPrios    (IntraPrios),
    .MaxOutstanding(MaxOutstanding)
  ) u_seg (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .node_id_i       (NodeRegs ? node_id_i : node_t'(0)),
    .q_nonempty_i    (q_nonempty),
    .q_remain_i      (q_remain),
    .deq_o           (deq),
    .deq_qid_o       (deq_qid),
    .deq_node_i      (deq_node),
    .deq_first_i     (deq_first),
    .enq_valid_o     (seg_enq_valid),
    .enq_ready_i     (enq_ready[1]),
    .enq_qid_o       (seg_enq_qid),
    .enq_node_o      (seg_enq_node),
    .tt_re_o         (tt_re),
    .tt_row_o        (tt_row),
    .tt_even_i       (tt_even),
    .tt_odd_i        (tt_odd),
    .rdn_raddr_o     (rdn_raddr),
    .rdn_i           (rdn_rdata),
    .segmd_re_o      (segmd_re),
    .segmd_raddr_o   (segmd_raddr),
    .segmd_rdata_i   (segmd_rdata),
    .segmd_we_o      (segmd_we),
    .segmd_waddr_o   (segmd_waddr),
    .segmd_wdata_o   (segmd_wdata),
    .ackmd_re_o      (ackmd_seg_re),
    .ackmd_raddr_o   (ackmd_seg_raddr),
    .ackmd_rdata_i   (ackmd_seg_rdata),
    .mh_ackmd_we_i   (ackmd_we),
    .mh_ackmd_waddr_i(ackmd_waddr),
    .mh_ackmd_wdata_i(ackmd_wdata),
    .mh_res_i        (mh_res),
    .mh_res_xfer_i   (mh_res_xfer),
    .park_we_o       (park_we),
    .park_waddr_o    (park_waddr),
    .park_wdata_o    (park_wdata),
    .park_rc_o       (park_rc),
    .park_rc_e_o     (park_rc_e),
    .tid_head_i      (tid_head),
    .tid_count_i     (tid_count),
    .tid_pop_o       (tid_pop),
    .fid1_head_i     (fid1_head),
    .fid1_count_i    (fid1_count),
    .fid1_pop_o      (fid1_pop),
    .fid4_head_i     (fid4_head),
    .fid4_count_i    (fid4_count),
    .fid4_pop_o      (fid4_pop),
    .ptt_valid_i     (ptt_valid),
    .ptt_set_i       (ptt_set),
    .ptt_set_tid_i   (ptt_set_tid),
    .rq_valid_i      (rq_valid),
    .rq_i            (rq_head),
    .rq_pop_o        (rq_pop),
    .retx_pend_i     (retx_pend),
    .rp_clr_i        (rp_clr),
    .rp_clr_tid_i    (rp_clr_tid),
    .rp_set_i        (rq_push),
    .rp_set_tid_i    (rq_in.tid),
    .retx_o          (seg_retx),
    .retx_tid_o      (seg_retx_tid),
    .ptt_we_left_o   (ptt_we_left),
    .ptt_clr_i       (ptt_clr),
    .ptt_clr_tid_i   (ptt_clr_tid),
    .ptt_we_o        (ptt_we),
    .ptt_waddr_o     (ptt_waddr),
    .ptt_wdata_o     (ptt_wdata),
    .fin_push_o      (fin_push),
    .fin_data_o      (fin_in),
    .fin_full_i      (fin_full),
    .axi_starving_i  (axi_starving),
    .pkt_we_o        (pkt_we),
    .pkt_body_o      (pkt_body),
    .pkt_full_i      (pkt_full),
    .blk_valid_o     (blk_valid_o),
    .blk_ready_i     (blk_ready_i),
    .blk_tid_o       (blk_tid_o),
    .blk_desc_o      (blk_desc),
    .stat_blk_o      (st_blk),
    .stat_inline_o   (st_inline),
    .stat_ctrl_o     (st_ctrl),
    .stat_retx_o     (st_retx),
    .trace_s2_fire_o (trc_s2_fire),
    .trace_s2_hold_o (trc_s2_hold),
    .trace_s2_node_o (trc_s2_node),
    .trace_retx_pop_o(trc_retx_pop),
    .trace_s2_retx_o (trc_s2_retx)
  );

  assign blk_desc_o = blk_desc;

  sync_fifo #(
    .Depth(2),
    .Width($bits(fin_t))
  ) u_fin_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (fin_push),
    .push_data_i(fin_in),
    .pop_i      (fin_pop),
    .head_o     (fin_head),
    .empty_o    (fin_empty),
    .full_o     (fin_full),
    .count_o    (unused_fin_count)
  );

  pkt_queue #(
    .Depth(PktFifoDepth)
  ) u_pkt_queue (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .wr_i       (pkt_we),
    .wr_body_i  (pkt_body),
    .full_o     (pkt_full),
    .pkt_valid_o(pkt_valid_o),
    .pkt_ready_i(pkt_ready_i),
    .pkt_data_o (pkt_data_o)
  );

  // =======================================================================================
  // Message Handler (thesis 3.11)
  // =======================================================================================
  msg_handler u_mh (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .init_done_i     (init_done),
    .rsp_valid_i     (rsp_valid_i),
    .rsp_ready_o     (rsp_ready_o),
    .rsp_i           (rsp_i),
    .tmo_valid_i     (tmo_valid),
    .tmo_tid_i       (tmo_tid),
    .tmo_seq_i       (tmo_seq),
    .max_retries_i   (max_retries),
    .fin_valid_i     (!fin_empty),
    .fin_i           (fin_head),
    .fin_pop_o       (fin_pop),
    .ptt_re_o        (ptt_re),
    .ptt_raddr_o     (ptt_raddr),
    .ptt_rdata_i     (ptt_rdata),
    .seg_ptt_we_i    (ptt_we),
    .seg_ptt_waddr_i (ptt_waddr),
    .seg_ptt_wdata_i (ptt_wdata),
    .ptt_valid_o     (ptt_valid),
    .ptt_set_o       (ptt_set),
    .ptt_set_tid_o   (ptt_set_tid),
    .ptt_clr_o       (ptt_clr),
    .ptt_clr_tid_o   (ptt_clr_tid),
    .retx_pend_o     (retx_pend),
    .rp_clr_o        (rp_clr),
    .rp_clr_tid_o    (rp_clr_tid),
    .rq_push_o       (rq_push),
    .rq_o            (rq_in),
    .seg_retx_i      (seg_retx),
    .seg_retx_tid_i  (seg_retx_tid),
    .ackmd_re_o      (ackmd_mh_re),
    .ackmd_raddr_o   (ackmd_mh_raddr),
    .ackmd_rdata_i   (ackmd_mh_rdata),
    .ackmd_we_o      (ackmd_we),
    .ackmd_waddr_o   (ackmd_waddr),
    .ackmd_wdata_o   (ackmd_wdata),
    .park_re_o       (park_re),
    .park_raddr_o    (park_raddr),
    .park_rdata_i    (park_rdata),
    .seg_park_we_i   (park_we),
    .seg_park_waddr_i(park_waddr),
    .seg_park_wdata_i(park_wdata),
    .seg_park_rc_i   (park_rc),
    .seg_park_rc_e_i (park_rc_e),
    .enq_valid_o     (mh_enq_valid),
    .enq_ready_i     (enq_ready[0]),
    .enq_qid_o       (mh_enq_qid),
    .enq_node_o      (mh_enq_node),
    .tid_push_o      (mh_tid_push),
    .tid_push_id_o   (mh_tid_id),
    .fid1_push_o     (mh_fid1_push),
    .fid4_push_o     (mh_fid4_push),
    .fid_push_id_o   (mh_fid_id),
    .finish_o        (finish),
    .finish_wch_o    (finish_wch),
    .finish_rd_o     (finish_rd),
    .finish_err_o    (finish_err),
    .stat_ack_o      (st_ack),
    .stat_nack_o     (st_nack),
    .stat_drop_o     (st_drop),
    .stat_done_o     (st_done),
    .stat_error_o    (st_error),
    .stat_tmo_o      (st_tmo),
    .res_o           (mh_res),
    .res_xfer_o      (mh_res_xfer),
    .trace_recheck_o (trc_recheck)
  );

  // =======================================================================================
  // Read-channel allocator (ICD 16): remote read requests into read channels, their
  // deferred responses
  // =======================================================================================
  logic       rd_dec;
  logic [1:0] rd_action;
  logic [5:0] rd_ch;

  assign finish_wr = finish && !finish_rd;

  read_alloc #(
    .IntraPrios(IntraPrios)
  ) u_read_alloc (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .rreq_valid_i (rreq_valid_i),
    .rreq_ready_o (rreq_ready_o),
    .rreq_i       (rreq_i),
    .tt_busy_i    (axw_q),
    .tt_we_o      (rd_tt_we),
    .tt_line_o    (rd_tt_line),
    .tt_wdata_o   (rd_tt_wdata),
    .rdn_we_o     (rdn_we),
    .rdn_waddr_o  (rdn_waddr),
    .rdn_wdata_o  (rdn_wdata),
    .enq_valid_o  (rd_enq_valid),
    .enq_ready_i  (enq_ready[3]),
    .enq_qid_o    (rd_enq_qid),
    .enq_node_o   (rd_enq_node),
    .fin_i        (finish && finish_rd),
    .fin_rch_i    (finish_wch),
    .fin_err_i    (finish_err),
    .drsp_valid_o (drsp_valid_o),
    .drsp_ready_i (drsp_ready_i),
    .drsp_o       (drsp_o),
    .drsp_node_o  (drsp_node_o),
    .stat_nochan_o(st_rd_nochan),
    .stat_dup_o   (st_rd_dup),
    .stat_serve_o (st_rd_serve),
    .dec_o        (rd_dec),
    .dec_action_o (rd_action),
    .dec_ch_o     (rd_ch)
  );

  // =======================================================================================
  // Trace port (docs/design.md section 13)
  // =======================================================================================
  logic  trc_enq;
  logic [1:0] trc_enq_src;
  qid_t  trc_enq_qid;
  xfer_t trc_enq_node;

  // The granted enqueue (the queues grant at most one source per cycle).
  always_comb begin
    trc_enq      = 1'b0;
    trc_enq_src  = 2'd0;
    trc_enq_qid  = '0;
    trc_enq_node = '0;
    for (int unsigned i = 0; i < 4; i++) begin
      if (enq_valid[i] && enq_ready[i]) begin
        trc_enq      = 1'b1;
        trc_enq_src  = 2'(i);
        trc_enq_qid  = qid_t'(enq_qid[i]);
        trc_enq_node = enq_node[i];
      end
    end
  end

  always_comb begin
    trace_o              = '0;
    trace_o.status       = status_all;
    // the codes as read
    if (status_pfin) trace_o.status[status_pfin_wch] = status_pfin_code;
    if (status_pend) trace_o.status[status_pend_wch] = StBusy;
    trace_o.deq          = deq;
    trace_o.deq_qid      = deq_qid;
    trace_o.deq_node     = deq_node;
    trace_o.deq_first    = deq_first;
    trace_o.enq          = trc_enq;
    trace_o.enq_src      = trc_enq_src;
    trace_o.enq_qid      = trc_enq_qid;
    trace_o.enq_node     = trc_enq_node;
    trace_o.s2_fire      = trc_s2_fire;
    trace_o.s2_hold      = trc_s2_hold;
    trace_o.s2_node      = trc_s2_node;
    trace_o.axi_enq_req  = axi_enq_valid;
    trace_o.axi_starving = axi_starving;
    trace_o.tmo          = tmo_valid;
    trace_o.recheck      = trc_recheck;
    trace_o.retx_pop     = trc_retx_pop;
    trace_o.s2_retx      = trc_s2_retx;
    trace_o.rd_enq_req   = rd_enq_valid;
    trace_o.rd_dec       = rd_dec;
    trace_o.rd_action    = rd_action;
    trace_o.rd_ch        = rd_ch;
    trace_o.rd_tt_we     = rd_tt_we;
  end

  // =======================================================================================
  // Assertions
  // =======================================================================================
  `NI_ASSERT_VALID_HELD(BlkHeld, blk_valid_o, blk_ready_i, {blk_tid_o, blk_desc_o})
  `NI_ASSERT_VALID_HELD(PktHeld, pkt_valid_o, pkt_ready_i, pkt_data_o)
  `NI_ASSERT(NoInitPushAfterDone, init_done -> !ini_tid_push && !ini_fid1_push && !ini_fid4_push)
  `NI_ASSERT(RqNeverFull, rq_push -> !rq_full)
  // The read-channel allocator writes the Transfer Table only in cycles the AXI slave's line
  // register leaves the port free.
  `NI_ASSERT(TtPortShared, !(axw_q && rd_tt_we))
`ifndef SYNTHESIS
  // What the segmenter reads from the Transfer Table is what a table written in the beat's
  // own cycle would give (a shadow of it, read first as the banks are): the line of the node
  // it reads always, and the other line of the row unless the AXI slave's register writes that
  // line in the cycle of the read (a short transfer's neighbour channel taking a descriptor:
  // the segmenter uses the other line only for a long transfer, whose two lines are written
  // before it goes live). The comparison is registered and the register asserted, as in
  // recv_ctx_table (no per-evaluation copy of the shadow).
  line_t               tt_shadow_q [NumXfers];
  logic [NumXfers-1:0] tt_written_q;  // (lines never written are not compared)
  line_t               tt_shadow_even_q, tt_shadow_odd_q;
  logic                tt_cmp_even_q, tt_cmp_odd_q;
  logic                tt_read_current_q;
  logic                tt_rd_par;     // the read node's line: even (0) or odd (1)
  logic                tt_other_now;  // the row's other line is written in the read's cycle
  assign tt_rd_par    = rq_valid ? rq_head.e.xfer[0] : deq_node[0];
  assign tt_other_now = axw_q && axw_line_q[XferW-1:1] == tt_row && axw_line_q[0] != tt_rd_par;
  always_ff @(posedge clk_i) begin
    if (axi_tt_we) tt_shadow_q[axi_tt_line] <= with_seg_info(axi_tt_wdata, axi_tt_si);
    if (rd_tt_we)  tt_shadow_q[rd_tt_line]  <= rd_tt_wdata;
    if (tt_re) begin
      tt_shadow_even_q <= tt_shadow_q[{tt_row, 1'b0}];
      tt_shadow_odd_q  <= tt_shadow_q[{tt_row, 1'b1}];
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tt_written_q      <= '0;
      tt_cmp_even_q     <= 1'b0;
      tt_cmp_odd_q      <= 1'b0;
      tt_read_current_q <= 1'b1;
    end else begin
      if (axi_tt_we) tt_written_q[axi_tt_line] <= 1'b1;
      if (rd_tt_we)  tt_written_q[rd_tt_line]  <= 1'b1;
      if (tt_re) begin
        tt_cmp_even_q <= tt_written_q[{tt_row, 1'b0}] && !(tt_other_now && tt_rd_par);
        tt_cmp_odd_q  <= tt_written_q[{tt_row, 1'b1}] && !(tt_other_now && !tt_rd_par);
      end
      tt_read_current_q <= (!tt_cmp_even_q || tt_even == tt_shadow_even_q) &&
                           (!tt_cmp_odd_q || tt_odd == tt_shadow_odd_q);
    end
  end
  `NI_ASSERT(TtReadCurrent, tt_read_current_q)
`endif
  `NI_ASSERT(NoIdReturnBeforeDone, !init_done -> !mh_tid_push && !mh_fid1_push && !mh_fid4_push)

endmodule

`default_nettype wire
