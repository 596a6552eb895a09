// SPDX-License-Identifier: Apache-2.0
// Send unit of the NI (ICD sections 11-12; thesis chapter 2, ExaNeSt section 4.5): block
// descriptors from the QoS engine become data packets read from memory, and the engine's
// inline and control packets become head beats, all on the request network `req_tx`.
//
//   blk -> block table (BlkDepth) -> read requests (AR, bursts of <= 16 lines, never across
//   4 KiB, RdOutstanding in flight, one ID so R data returns in order) -> line buffer
//   (fifo_ram, space reserved at AR time so R is always accepted) -> realigner (two source
//   lines shifted by (src - dst) mod 64 per destination-aligned beat) -> req_tx.
//   pkt -> 2-entry FIFO -> re-encoded as a head beat (len widened, src_node, hcrc).
//
// A block's destination range is cut at 1 KiB-aligned destination addresses; every packet
// is a head beat, P payload beats (the 64-byte destination lines the packet touches, bytes
// outside it zero) and a tail beat carrying pcrc, computed as the payload beats leave.
// Between packets a waiting inline or control packet goes first. docs/design.md section 14
// describes the realignment and the flow control.
`default_nettype none
`include "ni_assert.svh"

module send_unit
  import ni_pkg::*;
#(
  parameter int unsigned MemAddrW      = 48,
  parameter int unsigned MemIdW        = 4,
  parameter int unsigned RdOutstanding = 8,  // read bursts requested, first beat not back
  parameter int unsigned BufLines      = 2 * RdOutstanding * 16,  // line buffer, 64 B each
  parameter int unsigned BlkDepth      = 16  // block descriptors held (a power of two)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  node_t               node_id_i,
  // block descriptors from the QoS engine
  input  logic                blk_valid_i,
  output logic                blk_ready_o,
  input  tid_t                blk_tid_i,
  input  blk_desc_t           blk_desc_i,
  // inline and control packets from the QoS engine (ICD 7, one beat each)
  input  logic                pkt_valid_i,
  output logic                pkt_ready_o,
  input  logic [511:0]        pkt_data_i,
  // memory reads (AXI4 AR/R, 512-bit data)
  output logic [MemIdW-1:0]   m_axi_arid_o,
  output logic [MemAddrW-1:0] m_axi_araddr_o,
  output logic [7:0]          m_axi_arlen_o,
  output logic [2:0]          m_axi_arsize_o,
  output logic [1:0]          m_axi_arburst_o,
  output logic                m_axi_arvalid_o,
  input  logic                m_axi_arready_i,
  input  logic [MemIdW-1:0]   m_axi_rid_i,
  input  logic [511:0]        m_axi_rdata_i,
  input  logic [1:0]          m_axi_rresp_i,
  input  logic                m_axi_rlast_i,
  input  logic                m_axi_rvalid_i,
  output logic                m_axi_rready_o,
  // request network out
  output logic                req_tx_valid_o,
  input  logic                req_tx_ready_i,
  output logic [511:0]        req_tx_data_o,
  output logic                req_tx_last_o,
  // statistics: a packet left (counter 16)
  output logic                stat_pkt_sent_o
);

  localparam int unsigned BurstLines = 16;  // AXI burst, beats (ar_cap is written for 16)
  localparam int unsigned BlkPtrW    = $clog2(BlkDepth);
  localparam int unsigned CreditW    = $clog2(BufLines + 1);
  localparam int unsigned OutstW     = $clog2(RdOutstanding + 1);
  localparam int unsigned LnW      = MemAddrW - 6;               // line address width

  if (MemAddrW != 48) begin : gen_bad_addr_width
    $error("send_unit: only MemAddrW = 48 is supported (ICD 10)");
  end
  if (BufLines < RdOutstanding * BurstLines) begin : gen_bad_buf_lines
    $error("send_unit: BufLines must hold RdOutstanding full bursts");
  end
  if ((BlkDepth & (BlkDepth - 1)) != 0 || BlkDepth < 2) begin : gen_bad_blk_depth
    $error("send_unit: BlkDepth must be a power of two, at least 2");
  end

  // =======================================================================================
  // Block table: what the read side and the output side need of each accepted block
  // =======================================================================================
  // A data packet's geometry: its bytes, whether it is its block's last, its payload beats
  // and the lane of its last byte in its last beat. Held in registers beside the packet's
  // address and remaining bytes, so the packet's head and payload use them straight from
  // flops; each packet's is computed ahead: the first packet's as its block arrives, the
  // next one's from the registered remainder while a packet is being sent.
  typedef struct packed {
    logic [10:0] len;       // 1..1024
    logic        last;
    logic [4:0]  beats;     // 1..16
    logic [5:0]  last_lane;
  } pgeom_t;

  // The first packet of a block of `len_m1` + 1 bytes to `dst`: up to the next 1 KiB
  // boundary of the destination.
  function automatic pgeom_t first_geom(logic [9:0] dst, logic [BlockW-1:0] len_m1);
    pgeom_t     g;
    logic [BlockW:0] end_off;  // offset of the block's last byte from dst's 1 KiB boundary
    end_off     = {{(BlockW-9){1'b0}}, dst} + {1'b0, len_m1};
    g.last      = (end_off[BlockW:10] == '0);
    g.len       = g.last ? 11'(len_m1) + 11'd1 : 11'd1024 - {1'b0, dst};
    g.beats     = g.last ? 5'(end_off[9:6] - dst[9:6]) + 5'd1 : 5'd16 - {1'b0, dst[9:6]};
    g.last_lane = g.last ? end_off[5:0] : 6'd63;
    return g;
  endfunction

  // A later packet: it starts on a 1 KiB boundary with `rem` bytes of the block left.
  function automatic pgeom_t next_geom(logic [BlockW:0] rem);
    pgeom_t g;
    logic   full;  // 1 KiB or more left
    full        = (rem[BlockW:10] != '0);
    g.last      = !full || (rem[9:0] == '0 && rem[BlockW:11] == '0);
    g.len       = full ? 11'd1024 : {1'b0, rem[9:0]};
    g.beats     = full ? 5'd16 : {1'b0, rem[9:6]} + 5'(rem[5:0] != '0);
    g.last_lane = full ? 6'd63 : rem[5:0] - 6'd1;
    return g;
  endfunction

  typedef struct packed {
    tid_t                  tid;
    seq_t                  seq;
    logic                  notify;
    logic                  retx;
    logic [3:0]            pd;
    xfer_t                 xfer;
    node_t                 dst_node;   // dst_addr[63:48]
    logic [47:0]           dst;        // first destination byte
    logic [BlockW:0]       len;        // 1..65536
    logic [LnW-1:0]        rd_line;    // first source line to read (after a shared one)
    logic [10:0]           rd_n;       // source lines to read, 1..1025
    logic                  share;      // the first source line is the previous block's last
    logic                  follows;    // rd_line is the line after the previous block's last
    logic [5:0]            shift;      // (src - dst) mod 64
    logic                  pre;        // the first window starts one line before the source
    logic [NpktsW-1:0]     npkts;      // 1..64
    pgeom_t                geom0;      // its first packet (computed as the block arrives)
  } blk_ent_t;

  blk_ent_t               blk_in;
  logic                   in_valid_q;   // a block accepted last cycle, its entry written now
  tid_t                   in_tid_q;
  blk_desc_t              in_desc_q;
  logic                   unused_ends;
  logic [LnW-1:0]         blk_src_last; // last source line of the block at blk
  logic [LnW-1:0]         prev_end_q;   // last source line of the previous accepted block
  logic [LnW-1:0]         prev_next_q;  // the line after it
  logic                   have_prev_q;
  blk_ent_t               tab_q [BlkDepth];  // no reset: distributed RAM, entries written
                                             // before they are read (n_blk_q, n_ar_q)
  blk_ent_t               tab_out, tab_out_next;
  logic [LnW-1:0]         tab_ar_line;
  logic                   tab_ar_follows;
  logic [10:0]            tab_ar_n;
  logic [BlkPtrW-1:0]     wr_ptr_q, ar_ptr_q, out_ptr_q;
  logic [BlkPtrW:0]       n_blk_q;      // blocks held
  logic [BlkPtrW:0]       n_ar_q;       // blocks the read side has not taken yet
  logic                   blk_hs, ar_take, out_blk_done;
  logic [BlkPtrW-1:0]     out_ptr_next;

  assign out_ptr_next = out_ptr_q + 1'b1;

  // The block intake is written behind: an accepted descriptor is held in a register for
  // a cycle and its table entry is computed from there, so the engine's block port ends in
  // flip-flops here (docs/design.md section 14). `blk_ready_o` counts the held one.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_valid_q <= 1'b0;
      in_tid_q   <= '0;
      in_desc_q  <= '0;
    end else begin
      in_valid_q <= blk_hs;
      if (blk_hs) begin
        in_tid_q  <= blk_tid_i;
        in_desc_q <= blk_desc_i;
      end
    end
  end

  // The block descriptor fields the send unit does not use: the QoS engine's own
  // bookkeeping (cm, initialized, fid, done, chained, block index, has_next, reserved).
  logic unused_blk_desc;
  assign unused_blk_desc = ^{in_desc_q.rsvd, in_desc_q.has_next, in_desc_q.block_idx,
                             in_desc_q.chained, in_desc_q.done, in_desc_q.fid,
                             in_desc_q.initialized, in_desc_q.cm, in_desc_q.bytes_sent};

  always_comb begin
    logic [47:0] src, dst, src_end;
    logic [16:0] src_span, dst_span;
    logic [10:0] n_src;
    src              = in_desc_q.src_addr[47:0];
    dst              = in_desc_q.dst_addr[47:0];
    blk_in.tid       = in_tid_q;
    blk_in.seq       = in_desc_q.seq;
    blk_in.notify    = in_desc_q.notify;
    blk_in.retx      = in_desc_q.retx;
    blk_in.pd        = in_desc_q.pd_id[3:0];
    blk_in.xfer      = in_desc_q.xfer_id;
    blk_in.dst_node  = in_desc_q.dst_addr[63:48];
    blk_in.dst       = dst;
    blk_in.len       = {1'b0, in_desc_q.len_m1} + 17'd1;
    src_end          = src + {32'd0, in_desc_q.len_m1};   // last source byte
    // The last source byte's offset from the first source line, and the last destination
    // byte's from the first destination packet's 1 KiB: short adds, so the lines and packets
    // of the block (and what depends on them) do not wait for the 48-bit sums.
    src_span         = {11'd0, src[5:0]} + {1'b0, in_desc_q.len_m1};
    dst_span         = {7'd0, dst[9:0]} + {1'b0, in_desc_q.len_m1};
    n_src            = src_span[16:6] + 11'd1;
    blk_in.shift     = src[5:0] - dst[5:0];
    blk_in.pre       = ({1'b0, dst[5:0]} + {1'b0, blk_in.shift}) >= 7'd64;
    // A block whose source starts in the line where the previous block's source ended (the
    // next block of a transfer with source and destination alignments that differ) takes
    // that line from the output side instead of reading it again: one line fewer to read,
    // so the read side can run consecutive blocks together as full bursts. Not when the
    // window starts before the source (pre) or the block has a single line.
    blk_in.share     = have_prev_q && !blk_in.pre && (src_span[16:6] != '0) &&
                       (src[47:6] == prev_end_q);
    // (both sums ready before the share decision picks one)
    blk_in.rd_line   = blk_in.share ? src[47:6] + LnW'(1'b1) : src[47:6];
    // Its lines continue the previous block's: the read side may join them into one run.
    blk_in.follows   = blk_in.share || (have_prev_q && (src[47:6] == prev_next_q));
    blk_in.rd_n      = blk_in.share ? src_span[16:6] : n_src;
    blk_in.npkts     = NpktsW'(dst_span[15:10]) + NpktsW'(1'b1);
    blk_in.geom0     = first_geom(dst[9:0], in_desc_q.len_m1);
    blk_src_last     = src_end[47:6];
    unused_ends      = ^{src_end[5:0], src_span[5:0], dst_span[16], dst_span[9:0]};
  end

  assign blk_ready_o = (32'(n_blk_q) + 32'(in_valid_q)) < BlkDepth;
  assign blk_hs      = blk_valid_i && blk_ready_o;

  always_ff @(posedge clk_i) begin
    if (in_valid_q) tab_q[wr_ptr_q] <= blk_in;
  end

  logic [LnW-1:0] prev_end_d, prev_next_d;
  logic           have_prev_d;
  assign prev_end_d  = in_valid_q ? blk_src_last : prev_end_q;
  assign prev_next_d = in_valid_q ? blk_src_last + LnW'(1'b1) : prev_next_q;
  assign have_prev_d = have_prev_q || in_valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prev_end_q  <= '0;
      prev_next_q <= '0;
      have_prev_q <= 1'b0;
    end else begin
      prev_end_q  <= prev_end_d;
      prev_next_q <= prev_next_d;
      have_prev_q <= have_prev_d;
    end
  end

  // Three asynchronous read ports: the read side's block, the output's and the one after it.
  assign tab_ar_line  = tab_q[ar_ptr_q].rd_line;
  assign tab_ar_n     = tab_q[ar_ptr_q].rd_n;
  assign tab_ar_follows = tab_q[ar_ptr_q].follows;
  assign tab_out      = tab_q[out_ptr_q];
  assign tab_out_next = tab_q[out_ptr_next];

  logic [BlkPtrW-1:0] wr_ptr_d, ar_ptr_d, out_ptr_d;
  logic [BlkPtrW:0]   n_blk_d, n_ar_d;
  // The table's write (the block accepted last cycle) and the two ends' steps pick the next
  // pointers and counts from values computed from registers by an AND-OR: a plain sum would
  // put the carry chain behind the output side's late step (BlkCountsAreSums).
  logic [BlkPtrW-1:0] wr_ptr_inc;
  logic [BlkPtrW:0]   n_blk_inc, n_blk_dec, n_ar_inc, n_ar_dec;
  logic               nb_up, nb_dn, na_up, na_dn;
  assign wr_ptr_inc = wr_ptr_q + 1'b1;
  assign n_blk_inc  = n_blk_q + 1'b1;
  assign n_blk_dec  = n_blk_q - 1'b1;
  assign n_ar_inc   = n_ar_q + 1'b1;
  assign n_ar_dec   = n_ar_q - 1'b1;
  assign nb_up      = in_valid_q && !out_blk_done;
  assign nb_dn      = out_blk_done && !in_valid_q;
  assign na_up      = in_valid_q && !ar_take;
  assign na_dn      = ar_take && !in_valid_q;
  assign wr_ptr_d   = ({BlkPtrW{in_valid_q}} & wr_ptr_inc) | ({BlkPtrW{!in_valid_q}} & wr_ptr_q);
  assign ar_ptr_d   = ar_ptr_q + BlkPtrW'(ar_take);
  assign out_ptr_d  = out_ptr_q + BlkPtrW'(out_blk_done);
  assign n_blk_d    = ({(BlkPtrW + 1){nb_up}} & n_blk_inc) | ({(BlkPtrW + 1){nb_dn}} & n_blk_dec) |
                      ({(BlkPtrW + 1){!nb_up && !nb_dn}} & n_blk_q);
  assign n_ar_d     = ({(BlkPtrW + 1){na_up}} & n_ar_inc) | ({(BlkPtrW + 1){na_dn}} & n_ar_dec) |
                      ({(BlkPtrW + 1){!na_up && !na_dn}} & n_ar_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q  <= '0;
      ar_ptr_q  <= '0;
      out_ptr_q <= '0;
      n_blk_q   <= '0;
      n_ar_q    <= '0;
    end else begin
      wr_ptr_q  <= wr_ptr_d;
      ar_ptr_q  <= ar_ptr_d;
      out_ptr_q <= out_ptr_d;
      n_blk_q   <= n_blk_d;
      n_ar_q    <= n_ar_d;
    end
  end

  // =======================================================================================
  // Read requests: the source lines of each block in order, as bursts of at most 16 lines
  // that never cross a 4 KiB boundary, issued while the line buffer has room reserved for
  // every line in flight. The generator holds a run of lines (ar_line_q, ar_left_q): the
  // next block's lines join the run when they follow on and the run has less than a full
  // burst left, so a stream of short blocks with consecutive sources is read as full
  // bursts (RdOutstanding bursts then cover the read latency as for one long block). A burst
  // that would end at the run's end while the next block is there to join waits the cycle
  // the join takes: a short burst would take one of the RdOutstanding slots for a few
  // lines, and the run's later bursts would straddle the 16-line grid (split again at each
  // 4 KiB boundary), so a stream of blocks that are not line aligned would not have the
  // lines in flight that cover the read latency until the run happened to realign.
  // =======================================================================================
  logic                   ar_active_q, ar_load, ar_absorb, ar_joinable, ar_hold;
  logic                   ar_wait_q;    // an AR was offered and not taken: it stays as it is
  logic [LnW-1:0]       ar_line_q;
  logic [10:0]            ar_left_q;
  logic [4:0]             ar_n;         // lines of the next burst, 1..16
  logic [CreditW-1:0]     credit_q;     // free line-buffer entries not reserved
  logic [OutstW-1:0]      outst_q;      // bursts in flight
  logic                   ar_hs, r_hs, r_first_hs, line_pop;
  logic                   r_mid_q;      // an R burst has delivered its first beat, not its last

  // The burst's length, min(BurstLines, lines to the 4 KiB boundary, lines left), written
  // so that it maps to a few LUT levels: the boundary is nearer than a burst only in a
  // 4 KiB page's last 16-line group (it is then 16 minus the line's low bits), and the run
  // is shorter than that only when its count has no bit above the fifth (ArNIsMin keeps the
  // plain minimum).
  // What depends on the length is computed for both of its values (the lines left, the
  // cap) beside the compare that picks one: whether the credits cover the burst, whether
  // the burst takes the rest of the run (ar_fits: ar_n is the lines left), the run after it.
  logic [4:0] ar_cap;     // min(BurstLines, lines to the 4 KiB boundary)
  logic       ar_short;   // the run ends before ar_cap
  logic       ar_fits;    // ... or at it: the burst takes the rest of the run
  logic       ar_credit;  // the credits cover the burst
  assign ar_cap    = (ar_line_q[5:4] == 2'b11) ? 5'd16 - {1'b0, ar_line_q[3:0]} : 5'd16;
  assign ar_short  = (ar_left_q[10:5] == '0) && (ar_left_q[4:0] < ar_cap);
  assign ar_fits   = (ar_left_q[10:5] == '0) && (ar_left_q[4:0] <= ar_cap);
  assign ar_n      = ar_short ? ar_left_q[4:0] : ar_cap;
  assign ar_credit = ar_short ? (credit_q >= CreditW'(ar_left_q[4:0]))
                              : (credit_q >= CreditW'(ar_cap));

  assign ar_load         = !ar_active_q && (n_ar_q != '0);
  // the next block's lines continue the run, which has less than a burst left
  assign ar_joinable     = ar_active_q && tab_ar_follows && (n_ar_q != '0) &&
                           (ar_left_q < 11'(BurstLines));
  // the burst would end at the run's end: it waits for the join (unless it is already
  // offered: ARVALID and ARLEN hold until the handshake)
  assign ar_hold         = ar_joinable && !ar_wait_q && ar_fits;
  // (not while an AR waits for its handshake: ARLEN must hold)
  assign ar_absorb       = ar_joinable && (!m_axi_arvalid_o || m_axi_arready_i);
  assign ar_take         = ar_load || ar_absorb;
  assign m_axi_arvalid_o = ar_active_q && !ar_hold && ar_credit &&
                           (32'(outst_q) < RdOutstanding);
  assign m_axi_arid_o    = '0;  // one ID: R data returns in order (docs/design.md 14)
  assign m_axi_araddr_o  = {ar_line_q, 6'd0};
  assign m_axi_arlen_o   = 8'(ar_n) - 8'd1;
  assign m_axi_arsize_o  = 3'd6;  // 64-byte beats
  assign m_axi_arburst_o = 2'b01; // INCR
  assign ar_hs           = m_axi_arvalid_o && m_axi_arready_i;
  logic           ar_active_d;
  logic [LnW-1:0] ar_line_d, ar_line_sent;
  logic [10:0]    ar_left_d, ar_left_sent, ar_left_join, ar_left_both;
  // The run after the burst offered now, after a join, after both: computed whether or not
  // they happen, and picked by the handshake and the join (so the sums do not wait for them).
  // At most 15 lines left plus a block's 1025: the run stays below 2048 lines.
  // A burst never crosses a 4 KiB boundary, so its lines carry out of the line's low six
  // bits at most once, exactly when it ends on the boundary: the run's next line is the
  // low bits' short sum beside the high bits' increment, which does not wait for the
  // burst's length (ArLineSplit keeps the plain sum).
  // With the length picked by ar_short (ar_fits), the run after the burst is empty when the
  // burst takes the rest, else the lines left minus the cap; each sum is made with both
  // lengths and picked, and so is whether the run goes on (ArRunIsSum).
  logic [6:0]     ar_lo_sent, ar_lo_left, ar_lo_cap;
  logic [LnW-7:0] ar_hi_inc;
  logic           ar_sent_nz, ar_join_nz, ar_both_nz;
  assign ar_lo_left   = {1'b0, ar_line_q[5:0]} + {2'b0, ar_left_q[4:0]};
  assign ar_lo_cap    = {1'b0, ar_line_q[5:0]} + {2'b0, ar_cap};
  assign ar_lo_sent   = ar_short ? ar_lo_left : ar_lo_cap;
  assign ar_hi_inc    = ar_line_q[LnW-1:6] + 1'b1;
  assign ar_line_sent = {ar_lo_sent[6] ? ar_hi_inc : ar_line_q[LnW-1:6], ar_lo_sent[5:0]};
  assign ar_left_sent = ar_fits ? '0 : ar_left_q - 11'(ar_cap);
  assign ar_left_join = ar_left_q + tab_ar_n;
  assign ar_left_both = ar_fits ? tab_ar_n : ar_left_join - 11'(ar_cap);
  assign ar_sent_nz   = !ar_fits;
  assign ar_join_nz   = (ar_left_q != '0) || (tab_ar_n != '0);
  assign ar_both_nz   = !ar_fits || (tab_ar_n != '0);
  always_comb begin
    ar_active_d = ar_active_q;
    ar_line_d   = ar_line_q;
    ar_left_d   = ar_left_q;
    if (ar_load) begin
      ar_active_d = 1'b1;
      ar_line_d   = tab_ar_line;
      ar_left_d   = tab_ar_n;
    end else if (ar_hs || ar_absorb) begin
      ar_left_d   = ar_hs ? (ar_absorb ? ar_left_both : ar_left_sent) : ar_left_join;
      ar_active_d = ar_hs ? (ar_absorb ? ar_both_nz : ar_sent_nz) : ar_join_nz;
      ar_line_d   = ar_hs ? ar_line_sent : ar_line_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_active_q <= 1'b0;
      ar_line_q   <= '0;
      ar_left_q   <= '0;
      ar_wait_q   <= 1'b0;
    end else begin
      ar_active_q <= ar_active_d;
      ar_line_q   <= ar_line_d;
      ar_left_q   <= ar_left_d;
      ar_wait_q   <= m_axi_arvalid_o && !m_axi_arready_i;
    end
  end

  assign m_axi_rready_o = 1'b1;  // room was reserved when the burst was requested
  assign r_hs           = m_axi_rvalid_i && m_axi_rready_o;
  assign r_first_hs     = r_hs && !r_mid_q;

  logic [CreditW-1:0] credit_d;
  logic [OutstW-1:0]  outst_d;
  logic               r_mid_d;
  // Every outcome of the handshakes is computed from registers (the burst's length comes
  // from the run's registers) and the handshakes pick one by an AND-OR, so the AR handshake,
  // which waits for the credit compare, does not go on through a carry chain.
  logic [CreditW-1:0] credit_sent, credit_sent_inc, credit_inc;
  logic               cr_sent, cr_sent_inc, cr_inc, cr_keep;
  logic               os_up, os_dn;
  logic [OutstW-1:0]  outst_inc, outst_dec;
  assign credit_sent     = credit_q - CreditW'(ar_n);
  assign credit_sent_inc = credit_sent + 1'b1;
  assign credit_inc      = credit_q + 1'b1;
  assign cr_sent         = ar_hs && !line_pop;
  assign cr_sent_inc     = ar_hs && line_pop;
  assign cr_inc          = !ar_hs && line_pop;
  assign cr_keep         = !ar_hs && !line_pop;
  assign credit_d        = ({CreditW{cr_sent}} & credit_sent) |
                           ({CreditW{cr_sent_inc}} & credit_sent_inc) |
                           ({CreditW{cr_inc}} & credit_inc) | ({CreditW{cr_keep}} & credit_q);
  assign os_up           = ar_hs && !r_first_hs;
  assign os_dn           = r_first_hs && !ar_hs;
  assign outst_inc       = outst_q + 1'b1;
  assign outst_dec       = outst_q - 1'b1;
  assign outst_d         = ({OutstW{os_up}} & outst_inc) | ({OutstW{os_dn}} & outst_dec) |
                           ({OutstW{!os_up && !os_dn}} & outst_q);
  assign r_mid_d         = r_hs ? !m_axi_rlast_i : r_mid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credit_q <= CreditW'(BufLines);
      outst_q  <= '0;
      r_mid_q  <= 1'b0;
    end else begin
      credit_q <= credit_d;
      outst_q  <= outst_d;
      r_mid_q  <= r_mid_d;
    end
  end

  // The source lines, in request order.
  logic         lb_valid, lb_full;
  logic [511:0] lb_head;
  logic [$clog2(BufLines + 3)-1:0] unused_lb_count;

  fifo_ram #(
    .Depth(BufLines),
    .Width(512)
  ) u_lines (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (r_hs),
    .push_data_i(m_axi_rdata_i),
    .full_o     (lb_full),
    .pop_i      (line_pop),
    .valid_o    (lb_valid),
    .head_o     (lb_head),
    .count_o    (unused_lb_count)
  );

  // =======================================================================================
  // Inline and control packets: a 2-entry FIFO, re-encoded as head beats at its output
  // =======================================================================================
  logic         hp_valid, hp_pop, hp_full, hp_empty;
  logic [511:0] hp_data;
  logic [1:0]   unused_hp_count;
  wire_head_t   hp_head;  // the head-only packet's head beat, hcrc not yet filled in
  logic         unused_eh;

  sync_fifo #(
    .Depth(2),
    .Width(512)
  ) u_pkts (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .push_i     (pkt_valid_i && pkt_ready_o),
    .push_data_i(pkt_data_i),
    .pop_i      (hp_pop),
    .head_o     (hp_data),
    .empty_o    (hp_empty),
    .full_o     (hp_full),
    .count_o    (unused_hp_count)
  );

  assign hp_valid    = !hp_empty;

  // One ID, every response OKAY from a well-behaved memory: RID and RRESP carry nothing the
  // send unit acts on (an error response cannot be reported on the wire format). The engine
  // packet's footer is only checked (assertion EnginePktCrc), never forwarded.
  logic unused_r;
  assign unused_r = ^{m_axi_rid_i, m_axi_rresp_i, hp_data[511:384]};

  assign pkt_ready_o = !hp_full;

  always_comb begin
    pkt_hdr_t eh;
    wire_head_t w;
    rreq_payload_t rp;
    eh               = pkt_hdr_t'(hp_data[127:0]);
    w                = '0;
    unique case (eh.kind)
      PktKindCtrl: w.hdr.kind = WkCtrl;
      PktKindRead: w.hdr.kind = WkReadReq;  // ICD 16: `last` from the request's payload
      default:     w.hdr.kind = WkInline;
    endcase
    rp               = rreq_payload_t'(hp_data[383:128]);
    w.hdr.last       = (eh.kind == PktKindRead) && rp.last;
    w.hdr.tid        = eh.tid;
    w.hdr.seq        = eh.seq;
    w.hdr.len        = WireLenW'(eh.len);
    w.hdr.notify     = eh.notify;
    w.hdr.pd         = eh.pd;
    w.hdr.dst_addr   = eh.dst_addr;
    w.payload        = hp_data[383:128];
    w.src_node       = node_id_i;
    w.xfer_id        = eh.xfer_id;
    hp_head          = w;
    unused_eh        = ^{eh.rsvd, rp};  // (only the request's `last` is read from rp)
  end

  // =======================================================================================
  // Output: packets on req_tx, one beat per cycle
  // =======================================================================================
  typedef enum logic [1:0] {
    OBetween,  // between packets: a head-only packet, or the next data packet's head beat
    OPayload,  // payload beats of a data packet
    OTail      // its tail beat
  } out_e;

  out_e              ost_q, ost_d;
  // the block being sent
  logic              o_active_q, o_active_d;
  blk_ent_t          o_blk_q, o_blk_d;
  logic [NpktsW-1:0] o_pkt_q, o_pkt_d;       // packet index
  logic [47:0]       o_addr_q, o_addr_d;     // destination of the packet's first byte
  logic [BlockW:0]   o_rem_q, o_rem_d;       // bytes of the block from o_addr on
  pgeom_t            o_geom_q, o_geom_d;     // the packet at o_addr
  // o_addr + and o_rem - the packet's length, registered every cycle: the next packet's
  // address and remainder, ready by the packet's tail (two cycles or more after its start)
  logic [47:0]       o_addr_next_q;
  logic [BlockW:0]   o_rem_next_q;
  logic [4:0]        o_beats_q, o_beats_d;   // payload beats left in the packet
  logic              o_first_q, o_first_d;   // the next payload beat is the packet's first
  logic [10:0]       o_lines_q, o_lines_d;   // source lines of the block not yet popped
  logic              o_primed_q, o_primed_d; // cur_q holds the window's first line
  logic [511:0]      cur_q, cur_d;
  logic [511:0]      last_line_q;            // the source line popped last
  // The pcrc runs a beat behind the payload: the beat sent is registered (pay_q) and added
  // to crc_q in the next cycle, so the CRC's XOR trees start at registers instead of at the
  // realigner's output. The tail beat, in the cycle after the last payload beat, adds the
  // beat still pending itself.
  logic [31:0]       crc_q;
  logic [511:0]      pay_q;               // the payload beat sent last
  logic              crc_pend_q;          // pay_q is not yet added to crc_q
  logic              crc_seed, crc_step;  // start the pcrc / add the payload beat sent
  // a beat presented and not taken keeps its source (valid/data held until ready)
  logic              held_q, held_hp_q;

  wire_head_t        d_head;         // the data packet's head beat, hcrc not yet filled in
  logic [511:0]      pay_beat;
  logic              need_next, pay_ok, load_next, blk_next_avail;
  logic              sel_hp;         // OBetween presents the head-only packet
  logic              tx_hs;

  // The data packet's head beat.
  always_comb begin
    wire_head_t w;
    w              = '0;
    w.hdr.kind     = WkData;
    w.hdr.tid      = o_blk_q.tid;
    w.hdr.seq      = o_blk_q.seq;
    w.hdr.len      = o_geom_q.len;
    w.hdr.notify   = o_blk_q.notify;
    w.hdr.last     = o_geom_q.last;
    w.hdr.retx     = o_blk_q.retx;
    w.hdr.pd       = o_blk_q.pd;
    w.hdr.npkts    = o_blk_q.npkts;
    w.hdr.dst_addr = {o_blk_q.dst_node, o_addr_q};
    w.src_node     = node_id_i;
    w.xfer_id      = o_blk_q.xfer;
    d_head         = w;
  end

  // The payload beat: the window {next, cur} shifted right by `shift` bytes, lanes outside
  // the packet zeroed. `next` is the next source line, or zeros past the block's source.
  always_comb begin
    logic [1023:0] window;
    logic [511:0]  shifted;
    logic [5:0]    lo, hi;
    window  = {need_next ? lb_head : 512'd0, cur_q};
    shifted = 512'(window >> {o_blk_q.shift, 3'b000});
    lo      = o_first_q ? o_addr_q[5:0] : 6'd0;
    hi      = (o_beats_q == 5'd1) ? o_geom_q.last_lane : 6'd63;
    for (int unsigned l = 0; l < 64; l++) begin
      pay_beat[8*l +: 8] = (6'(l) >= lo && 6'(l) <= hi) ? shifted[8*l +: 8] : 8'd0;
    end
  end

  assign need_next      = (o_lines_q != '0);
  assign pay_ok         = o_primed_q && (!need_next || lb_valid);
  assign blk_next_avail = (32'(n_blk_q) >= 2);  // a block after the one being sent
  assign sel_hp         = held_q ? held_hp_q : hp_valid;

  always_comb begin
    req_tx_valid_o = 1'b0;
    req_tx_data_o  = '0;
    req_tx_last_o  = 1'b0;
    unique case (ost_q)
      // A head beat: the head-only packet's, else the data packet's. One hcrc for both, of
      // the one presented.
      OBetween: begin
        if (sel_hp || o_active_q) begin
          req_tx_valid_o = 1'b1;
          req_tx_data_o  = wire_seal(sel_hp ? hp_head : d_head);
          req_tx_last_o  = sel_hp;
        end
      end
      OPayload: begin
        req_tx_valid_o = pay_ok;
        req_tx_data_o  = pay_beat;
      end
      OTail: begin
        req_tx_valid_o = 1'b1;
        // (the pcrc computed here, in the branch, so that a simulation adds the pending
        // beat twice a packet rather than in every cycle it changes)
        req_tx_data_o  = {480'd0, ~(crc_pend_q ? crc32_beat(crc_q, pay_q) : crc_q)};
        req_tx_last_o  = 1'b1;
      end
      default: ;
    endcase
  end

  assign tx_hs           = req_tx_valid_o && req_tx_ready_i;
  assign hp_pop          = tx_hs && (ost_q == OBetween) && sel_hp;
  assign stat_pkt_sent_o = tx_hs && req_tx_last_o;

  always_comb begin
    ost_d      = ost_q;
    o_active_d = o_active_q;
    o_blk_d    = o_blk_q;
    o_pkt_d    = o_pkt_q;
    o_addr_d   = o_addr_q;
    o_rem_d    = o_rem_q;
    o_geom_d   = o_geom_q;
    o_beats_d  = o_beats_q;
    o_first_d  = o_first_q;
    o_lines_d  = o_lines_q;
    o_primed_d = o_primed_q;
    cur_d      = cur_q;
    crc_seed   = 1'b0;
    crc_step   = 1'b0;
    line_pop   = 1'b0;
    load_next  = 1'b0;
    out_blk_done = 1'b0;

    // The first line of the block's window, whenever it is there and not yet taken.
    if (o_active_q && !o_primed_q && ost_q != OTail && lb_valid) begin
      line_pop   = 1'b1;
      cur_d      = lb_head;
      o_lines_d  = o_lines_q - 11'd1;
      o_primed_d = 1'b1;
    end

    unique case (ost_q)
      OBetween: begin
        if (tx_hs && !sel_hp) begin  // the data head beat left
          ost_d     = OPayload;
          o_beats_d = o_geom_q.beats;
          o_first_d = 1'b1;
          crc_seed  = 1'b1;
        end
      end
      OPayload: begin
        if (tx_hs) begin
          if (need_next) begin
            line_pop  = 1'b1;
            o_lines_d = o_lines_q - 11'd1;
          end
          cur_d     = need_next ? lb_head : 512'd0;
          crc_step  = 1'b1;
          o_beats_d = o_beats_q - 5'd1;
          o_first_d = 1'b0;
          if (o_beats_q == 5'd1) ost_d = OTail;
        end
      end
      OTail: begin
        if (tx_hs) begin
          ost_d    = OBetween;
          o_pkt_d  = o_pkt_q + 1'b1;
          o_addr_d = o_addr_next_q;
          o_rem_d  = o_rem_next_q;
          o_geom_d = next_geom(o_rem_next_q);
          if (o_geom_q.last) begin
            out_blk_done = 1'b1;
            o_active_d   = 1'b0;
            load_next    = blk_next_avail;
          end
        end
      end
      default: ;
    endcase

    // Load a block into the output context: the next one as the last packet of a block
    // leaves (no bubble), or the oldest one when the output has none.
    if (load_next || (!o_active_q && n_blk_q != '0)) begin
      o_active_d = 1'b1;
      o_blk_d    = load_next ? tab_out_next : tab_out;
      o_pkt_d    = '0;
      o_addr_d   = o_blk_d.dst;
      o_rem_d    = o_blk_d.len;
      o_geom_d   = o_blk_d.geom0;
      o_lines_d  = o_blk_d.rd_n;
      // a window that starts before the source starts with zeros; a block that shares its
      // first line with the previous block's last starts with that line (popped last)
      o_primed_d = o_blk_d.pre || o_blk_d.share;
      cur_d      = o_blk_d.share ? last_line_q : '0;
    end
  end

  // A packet offered between packets and not taken keeps its source selected.
  logic held_d;
  assign held_d = req_tx_valid_o && !req_tx_ready_i && (ost_q == OBetween);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ost_q      <= OBetween;
      o_active_q <= 1'b0;
      o_blk_q    <= '0;
      o_pkt_q    <= '0;
      o_addr_q   <= '0;
      o_rem_q    <= '0;
      o_geom_q   <= '0;
      o_addr_next_q <= '0;
      o_rem_next_q  <= '0;
      o_beats_q  <= '0;
      o_first_q  <= 1'b0;
      o_lines_q  <= '0;
      o_primed_q <= 1'b0;
      cur_q      <= '0;
      last_line_q <= '0;
      crc_q      <= '0;
      pay_q      <= '0;
      crc_pend_q <= 1'b0;
      held_q     <= 1'b0;
      held_hp_q  <= 1'b0;
    end else begin
      ost_q      <= ost_d;
      o_active_q <= o_active_d;
      o_blk_q    <= o_blk_d;
      o_pkt_q    <= o_pkt_d;
      o_addr_q   <= o_addr_d;
      o_rem_q    <= o_rem_d;
      o_geom_q   <= o_geom_d;
      o_addr_next_q <= o_addr_q + {37'd0, o_geom_q.len};
      o_rem_next_q  <= o_rem_q - {6'd0, o_geom_q.len};
      o_beats_q  <= o_beats_d;
      o_first_q  <= o_first_d;
      o_lines_q  <= o_lines_d;
      o_primed_q <= o_primed_d;
      cur_q      <= cur_d;
      held_q     <= held_d;
      held_hp_q  <= sel_hp;
      crc_pend_q <= crc_step;
      // The wide state is loaded only where it changes, as enabled register loads rather
      // than _d signals on purpose: Verilator then evaluates the line and beat copies and the
      // pcrc's XOR trees (crc32_beat) only at a clock edge that needs them; as always_comb
      // next-state logic they would be evaluated in every evaluation.
      if (line_pop) last_line_q <= lb_head;
      if (crc_step) pay_q <= pay_beat;
      if (crc_seed) crc_q <= CrcBeatSeed;
      else if (crc_pend_q) crc_q <= crc32_beat(crc_q, pay_q);
    end
  end

  // =======================================================================================
  // Assertions
  // =======================================================================================
  `NI_ASSERT_VALID_HELD(ReqTxHeld, req_tx_valid_o, req_tx_ready_i, {req_tx_data_o, req_tx_last_o})
  `NI_ASSERT_VALID_HELD(ArHeld, m_axi_arvalid_o, m_axi_arready_i,
                     {m_axi_araddr_o, m_axi_arlen_o})
  // No burst crosses a 4 KiB boundary, none is longer than 16 beats.
  `NI_ASSERT(ArNo4kCross, m_axi_arvalid_o ->
                       ({1'b0, m_axi_araddr_o[11:6]} + {1'b0, m_axi_arlen_o[5:0]}) < 7'd64)
  `NI_ASSERT(ArMax16, m_axi_arvalid_o -> m_axi_arlen_o < 8'd16)
  // A block's lines and packets from the short adds are those of the full addresses.
`ifndef SYNTHESIS
  logic [47:0] ref_src_end, ref_dst_end;
  logic        unused_ref_ends;
  assign ref_src_end     = in_desc_q.src_addr[47:0] + {32'd0, in_desc_q.len_m1};
  assign ref_dst_end     = in_desc_q.dst_addr[47:0] + {32'd0, in_desc_q.len_m1};
  assign unused_ref_ends = ^{ref_src_end[5:0], ref_dst_end[47:16], ref_dst_end[9:0]};
  `NI_ASSERT(BlkLinesFromSpans, in_valid_q ->
             blk_in.rd_n + 11'(blk_in.share) ==
             11'(ref_src_end[47:6] - in_desc_q.src_addr[47:6]) + 11'd1 &&
             blk_in.rd_line == in_desc_q.src_addr[47:6] + LnW'(blk_in.share) &&
             blk_in.npkts ==
             NpktsW'(ref_dst_end[15:10] - in_desc_q.dst_addr[15:10]) + NpktsW'(1'b1))
`endif
  // A packet's head beat leaves at least a cycle after the last payload beat of the packet
  // before it, so the pcrc it restarts has nothing pending.
  `NI_ASSERT(CrcSeedNothingPending, crc_seed -> !crc_pend_q)
  // The burst's length is the plain minimum of a burst, the lines to the 4 KiB boundary and
  // the lines left.
`ifndef SYNTHESIS
  logic [4:0] ref_ar_n;
  always_comb begin
    logic [6:0] to_4k;
    to_4k    = 7'd64 - {1'b0, ar_line_q[5:0]};
    ref_ar_n = 5'(BurstLines);
    if ({4'd0, to_4k} < 11'(ref_ar_n)) ref_ar_n = 5'(to_4k);
    if (ar_left_q < 11'(ref_ar_n))     ref_ar_n = 5'(ar_left_q);
  end
  `NI_ASSERT(ArNIsMin, ar_n == ref_ar_n)
  // The values made for both lengths are those of the length picked.
  `NI_ASSERT(ArRunIsSum, ar_credit == (32'(credit_q) >= 32'(ar_n)) &&
             ar_fits == (11'(ar_n) == ar_left_q) &&
             ar_lo_sent == {1'b0, ar_line_q[5:0]} + {2'b0, ar_n} &&
             ar_left_sent == ar_left_q - 11'(ar_n) &&
             ar_left_both == ar_left_join - 11'(ar_n) &&
             ((ar_load || ar_hs || ar_absorb) -> ar_active_d == (ar_left_d != '0)))
`endif
  // The run's next line from the split add is the plain sum.
  `NI_ASSERT(ArLineSplit, ar_line_sent == ar_line_q + LnW'(ar_n))
  // A block that follows (flagged as it arrived) is one whose lines continue the run's.
  `NI_ASSERT(FollowsIsContiguous, ar_active_q && (n_ar_q != '0) ->
             tab_ar_follows == (ar_line_q + LnW'(ar_left_q) == tab_ar_line))
  // An AR offered and not taken is offered again: the hold never withdraws it.
  `NI_ASSERT(HoldNotWhileOffered, ar_wait_q -> m_axi_arvalid_o)
  // Every R beat has its room in the line buffer.
  `NI_ASSERT(RNoOverflow, r_hs -> !lb_full)
  `NI_ASSERT(CreditsBounded, 32'(credit_q) <= BufLines)
  // the picks restate the plain sums
  `NI_ASSERT(BlkCountsAreSums, wr_ptr_d == wr_ptr_q + BlkPtrW'(in_valid_q) &&
             n_blk_d == n_blk_q + (BlkPtrW + 1)'(in_valid_q) - (BlkPtrW + 1)'(out_blk_done) &&
             n_ar_d == n_ar_q + (BlkPtrW + 1)'(in_valid_q) - (BlkPtrW + 1)'(ar_take))
  // The table and the held block never hold more than BlkDepth blocks.
  `NI_ASSERT(BlkHeldFits, 32'(n_blk_q) + 32'(in_valid_q) <= BlkDepth)
  `NI_ASSERT(CreditIsSum, credit_d ==
             credit_q - (ar_hs ? CreditW'(ar_n) : '0) + (line_pop ? CreditW'(1) : '0))
  `NI_ASSERT(OutstIsSum, outst_d ==
             outst_q + (ar_hs ? OutstW'(1) : '0) - (r_first_hs ? OutstW'(1) : '0))
  // A block's lines are all consumed by its last beat, none of the next block's.
  `NI_ASSERT(LinesAtBlockEnd, out_blk_done -> o_lines_q == '0)
  // Every accepted block leaves as exactly npkts packets.
  `NI_ASSERT(NpktsAtBlockEnd, out_blk_done -> (o_pkt_q + 1'b1) == o_blk_q.npkts)
  // The registered geometry is the packet's, as computed from its address and remainder:
  // up to the next 1 KiB boundary, the last byte's lane, the beats from its first line to
  // its last; the next address and remainder are ready by the tail.
`ifndef SYNTHESIS
  logic [10:0] ref_len;
  logic [9:0]  ref_last_byte;  // of the 1 KiB the packet is in
  assign ref_len = (o_rem_q < {6'd0, 11'd1024 - {1'b0, o_addr_q[9:0]}}) ?
                   11'(o_rem_q) : 11'd1024 - {1'b0, o_addr_q[9:0]};
  assign ref_last_byte = o_addr_q[9:0] + ref_len[9:0] - 10'd1;
  `NI_ASSERT(GeomIsThePackets, o_active_q ->
             o_geom_q.len == ref_len && o_geom_q.last == ({6'd0, ref_len} == o_rem_q) &&
             o_geom_q.last_lane == ref_last_byte[5:0] &&
             o_geom_q.beats == 5'(ref_last_byte[9:6] - o_addr_q[9:6]) + 5'd1)
  `NI_ASSERT(NextReadyAtTail, o_active_q && ost_q == OTail ->
             o_addr_next_q == o_addr_q + {37'd0, o_geom_q.len} &&
             o_rem_next_q == o_rem_q - {6'd0, o_geom_q.len})
  `NI_ASSERT(LaterPacketsAligned, o_active_q && ost_q == OTail && !o_geom_q.last ->
             o_addr_next_q[9:0] == '0)
`endif

`ifndef SYNTHESIS
  // The engine's packets arrive with a correct footer CRC (checked once per packet, as it
  // is taken).
  logic [5:0] in_len;
  logic       in_crc_ok;
  assign in_len = pkt_data_i[33:28];  // pkt_hdr_t.len
  always_comb begin
    in_crc_ok = 1'b1;
    if (pkt_valid_i && pkt_ready_o) begin
      in_crc_ok = pkt_data_i[415:384] ==
                  crc32_finish(crc32_partial(pkt_body_t'(pkt_data_i[383:0])), in_len);
    end
  end
  `NI_ASSERT(EnginePktCrc, in_crc_ok)

  // Packets never interleave: a packet's beats leave back to back from its head beat to the
  // beat with last; a data packet has npayload + 2 beats.
  logic [5:0] beats_q;
  logic       in_data_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      beats_q   <= '0;
      in_data_q <= 1'b0;
    end else if (tx_hs) begin
      beats_q   <= req_tx_last_o ? '0 : beats_q + 1'b1;
      in_data_q <= !req_tx_last_o && (in_data_q || ost_q == OBetween);
    end
  end
  `NI_ASSERT(HeadOnlyBetweenPackets, tx_hs && sel_hp && ost_q == OBetween -> !in_data_q)
  `NI_ASSERT(TailAfterPayload, tx_hs && ost_q == OTail -> in_data_q && beats_q >= 6'd2)
`endif

endmodule

`default_nettype wire
