// SPDX-License-Identifier: Apache-2.0
// Shared constants, types and helper functions of the NI (QoS engine, send and receive
// units). The assertion macros are in ni_assert.svh.
//
// Formats follow ../shared/spec/ICD.md. The ICD lists fields LSB first; SystemVerilog packed
// structs list them MSB first, so every struct below is the ICD's list read bottom-up.
`default_nettype none

// Not every constant is used by every module that imports the package.
/* verilator lint_off UNUSEDPARAM */
package ni_pkg;

  // ---------------------------------------------------------------------------------------
  // Geometry (ICD section 1). These are fixed by the address map and the formats.
  // ---------------------------------------------------------------------------------------
  localparam int unsigned NumPages    = 16;
  localparam int unsigned PageW       = 4;
  localparam int unsigned ChPerPage   = 128;
  localparam int unsigned ChW         = 7;
  localparam int unsigned WrChPerPage = 64;
  localparam int unsigned NumXfers    = NumPages * ChPerPage;    // 2048 Transfer Table lines
  localparam int unsigned XferW       = 11;
  localparam int unsigned NumWch      = NumPages * WrChPerPage;  // 1024 write channels
  localparam int unsigned WchW        = 10;
  localparam int unsigned NumTids     = 1024;                    // Transaction Table entries
  localparam int unsigned TidW        = 10;
  localparam int unsigned TidOnlyIds  = 512;
  localparam int unsigned FlowBlocks  = 4;
  localparam int unsigned FidW        = 8;
  localparam int unsigned Fid1Base    = 128;
  localparam int unsigned Fid1Count   = 64;
  localparam int unsigned Fid4Base    = 192;
  localparam int unsigned Fid4Count   = 16;
  localparam int unsigned BlockBytes  = 65536;
  localparam int unsigned BlockW      = 16;                      // log2(BlockBytes)
  localparam int unsigned SeqW        = 14;
  localparam int unsigned CntW        = 18;                      // block counts
  localparam int unsigned LineW       = 256;
  localparam int unsigned NumStats    = 14;
  localparam int unsigned RetriesW    = 8;                       // re-issues of a block, saturating
  // ni_node adds counters 16-26 (ICD 8): packets sent, received, head/payload CRC errors,
  // no receive context, stale or duplicate, misrouted, ACKs sent, NACKs sent, notifications,
  // receive contexts reclaimed idle.
  localparam int unsigned NodeStatBase = 16;
  localparam int unsigned NumNodeStats = 11;
  // ... and the engine's read-channel allocator counters 27-29 (ICD 16): requests dropped for
  // lack of a read channel, re-issued requests matched to a busy channel, requests served.
  localparam int unsigned RdStatBase  = 27;
  localparam int unsigned NumRdStats  = 3;
  localparam int unsigned RdChPerPage = ChPerPage - WrChPerPage;  // 64 read channels a page
  localparam int unsigned NumRch      = NumPages * RdChPerPage;    // 1024

  typedef logic [XferW-1:0] xfer_t;
  typedef logic [WchW-1:0]  wch_t;
  typedef logic [TidW-1:0]  tid_t;
  typedef logic [FidW-1:0]  fid_t;
  typedef logic [SeqW-1:0]  seq_t;
  typedef logic [CntW-1:0]  cnt_t;
  typedef logic [LineW-1:0] line_t;

  // ---------------------------------------------------------------------------------------
  // CPU address map (ICD section 3): region addr[19:16], control registers (ICD 14)
  // ---------------------------------------------------------------------------------------
  localparam logic [3:0] RegionDesc     = 4'h0;  // descriptor lines (write)
  localparam logic [3:0] RegionStatus1  = 4'h1;  // status, one channel (read)
  localparam logic [3:0] RegionStatus32 = 4'h2;  // status, 32 channels (read)
  localparam logic [3:0] RegionStats    = 4'h3;  // statistics counters (read)
  localparam logic [3:0] RegionCtrl     = 4'h4;  // control registers (read/write)

  // Control register words, addr[15:4] of region 4.
  localparam int unsigned CtrlRetxTimeout = 0;  // retransmission timeout, cycles (0 = off)
  localparam int unsigned CtrlMaxRetries  = 1;  // re-issues of one block before ERROR
  localparam int unsigned CtrlRxIdle      = 2;  // ni_node: receive-context idle limit (0 = off)
  localparam int unsigned CtrlNodeId      = 3;  // ni_node: this node's id (read-only)
  localparam logic [63:0] RetxTimeoutReset = 64'd0;
  localparam logic [63:0] MaxRetriesReset  = 64'd3;
  localparam logic [63:0] RxIdleReset      = 64'd65536;

  // ---------------------------------------------------------------------------------------
  // Status codes (ICD section 3)
  // ---------------------------------------------------------------------------------------
  typedef enum logic [1:0] {
    StIdle  = 2'd0,
    StBusy  = 2'd1,
    StDone  = 2'd2,
    StError = 2'd3
  } status_e;

  // ---------------------------------------------------------------------------------------
  // Transfer descriptor (ICD section 4)
  // ---------------------------------------------------------------------------------------
  typedef enum logic [1:0] {
    KindTid    = 2'd0,  // memory, TID only
    Kind1x     = 2'd1,  // memory, one FID (unipath, congestion managed)
    Kind4x     = 2'd2,  // memory, four FIDs (multipath, congestion managed)
    KindInline = 2'd3
  } kind_e;

  // Control word w3 (and w7: only `last` is meaningful there).
  typedef struct packed {
    logic        last;     // 63
    logic [21:0] rsvd;     // 62:41
    logic        read;     // 40: RDMA Read (ICD 16)
    logic        is_long;  // 39
    logic        notify;   // 38
    kind_e       kind;     // 37:36
    logic [3:0]  prio;     // 35:32
    logic [31:0] size;     // 31:0
  } ctrl_word_t;

  // What the Transfer Table holds in place of the reserved word w2 of a memory descriptor
  // (computed by the engine from the line the AXI slave accepted, as it is written: see
  // docs/design.md section 20).
  typedef struct packed {
    logic [13:0]       rsvd;          // 63:50
    logic [BlockW-1:0] last_len_m1;   // 49:34
    logic [BlockW-1:0] first_len_m1;  // 33:18
    cnt_t              total;         // 17:0
  } seg_info_t;

  // ---------------------------------------------------------------------------------------
  // Block descriptor (ICD section 6), 256 bits
  // ---------------------------------------------------------------------------------------
  typedef struct packed {
    logic [27:0] rsvd;         // 255:228
    xfer_t       xfer_id;      // 227:217
    logic        has_next;     // 216
    logic [11:0] block_idx;    // 215:204
    logic [15:0] len_m1;       // 203:188
    logic        chained;      // 187
    logic        notify;       // 186
    logic        done;         // 185
    logic        retx;         // 184
    fid_t        fid;          // 183:176
    logic        initialized;  // 175
    logic        cm;           // 174
    logic [15:0] bytes_sent;   // 173:158
    seq_t        seq;          // 157:144
    logic [15:0] pd_id;        // 143:128
    logic [63:0] dst_addr;     // 127:64
    logic [63:0] src_addr;     // 63:0
  } blk_desc_t;

  // ---------------------------------------------------------------------------------------
  // Packets (ICD section 7), one 512-bit beat
  // ---------------------------------------------------------------------------------------
  localparam logic [3:0] PktKindInline = 4'd0;
  localparam logic [3:0] PktKindCtrl   = 4'd1;
  localparam logic [3:0] PktKindRead   = 4'd2;  // read request (ICD 16)

  typedef struct packed {
    logic [63:0] dst_addr;  // 127:64
    logic [13:0] rsvd;      // 63:50
    xfer_t       xfer_id;   // 49:39
    logic [3:0]  pd;        // 38:35
    logic        notify;    // 34
    logic [5:0]  len;       // 33:28
    seq_t        seq;       // 27:14
    tid_t        tid;       // 13:4
    logic [3:0]  kind;      // 3:0
  } pkt_hdr_t;

  typedef struct packed {
    logic [77:0] rsvd;          // 255:178
    cnt_t        total_blocks;  // 177:160
    logic [31:0] size;          // 159:128
    logic [63:0] notify_tag;    // 127:64
    logic [63:0] notify_addr;   // 63:0
  } ctrl_payload_t;

  // Payload of a read-request packet (ICD 16), also the short payload of a READ_REQ head beat.
  typedef struct packed {
    logic [24:0] rsvd;         // 255:231
    logic        last;         // 230: last block of the read transfer
    logic [3:0]  prio;         // 229:226
    kind_e       kind;         // 225:224
    logic [31:0] bytes;        // 223:192: the block's bytes (1..65536)
    logic [63:0] notify_tag;   // 191:128
    logic [63:0] notify_addr;  // 127:64
    logic [63:0] local_dst;    // 63:0: [63:48] the issuer's node id
  } rreq_payload_t;

  // Header and payload: what the packet queue stores. The footer is added at its output.
  typedef struct packed {
    logic [255:0] payload;
    pkt_hdr_t     hdr;
  } pkt_body_t;

  // ---------------------------------------------------------------------------------------
  // Responses from the network (ICD section 2): {seq, tid, nack}, nack at bit 0
  // ---------------------------------------------------------------------------------------
  typedef struct packed {
    seq_t seq;
    tid_t tid;
    logic nack;
  } rsp_t;

  // ---------------------------------------------------------------------------------------
  // The full NI (ICD sections 10-13): node ids, wire format, notification record
  // ---------------------------------------------------------------------------------------
  localparam int unsigned NodeW     = 16;    // node id width (dst_addr[63:48], src_node)
  localparam int unsigned PktBytes  = 1024;  // largest data-packet payload
  localparam int unsigned WireLenW  = 11;    // wire `len`: 0..1024
  localparam int unsigned NpktsW    = 7;     // packets per block: 1..64
  localparam int unsigned MaxNpkts  = BlockBytes / PktBytes;  // 64
  localparam int unsigned BeatBytes = 64;    // one 512-bit beat, network and memory

  typedef logic [NodeW-1:0] node_t;

  typedef enum logic [3:0] {
    WkInline = 4'd0,
    WkCtrl   = 4'd1,
    WkData   = 4'd2,
    WkAck    = 4'd3,
    WkNack   = 4'd4,
    WkReadReq = 4'd5
  } wire_kind_e;

  // Header of a head beat (ICD 11), bits 127:0.
  typedef struct packed {
    logic [63:0]         dst_addr;  // 127:64: [63:48] destination node
    logic [10:0]         rsvd;      // 63:53
    logic [NpktsW-1:0]   npkts;     // 52:46: data: packets in its block
    logic [3:0]          pd;        // 45:42
    logic                retx;      // 41: data: packet of a re-issued block
    logic                last;      // 40: data: last packet of its block
    logic                notify;    // 39
    logic [WireLenW-1:0] len;       // 38:28: payload bytes
    seq_t                seq;       // 27:14
    tid_t                tid;       // 13:4
    wire_kind_e          kind;      // 3:0
  } wire_hdr_t;

  // The head beat every packet begins with (ICD 11), 512 bits.
  typedef struct packed {
    logic [68:0]  rsvd;      // 511:443
    xfer_t        xfer_id;   // 442:432: the sender's transfer (informative)
    node_t        src_node;  // 431:416
    logic [31:0]  hcrc;      // 415:384: CRC-32 over head-beat bytes 0-47, then 52-63
    logic [255:0] payload;   // 383:128: inline bytes / control contents; 0 otherwise
    wire_hdr_t    hdr;       // 127:0
  } wire_head_t;

  // Tail beat of a data packet: CRC-32 over its payload beats (zero lanes included).
  typedef struct packed {
    logic [479:0] rsvd;  // 511:32
    logic [31:0]  pcrc;  // 31:0
  } wire_tail_t;

  // Completion notification record written by the receive unit (ICD 13), 16 bytes.
  localparam logic [15:0] NotifyMagic = 16'h0001;
  typedef struct packed {
    logic [15:0] magic;     // 127:112: NotifyMagic
    node_t       src_node;  // 111:96
    logic [31:0] size;      // 95:64
    logic [63:0] tag;       // 63:0
  } notify_rec_t;

  // ---------------------------------------------------------------------------------------
  // The receive unit's parts (rtl/recv): what they pass each other
  // ---------------------------------------------------------------------------------------
  // A request packet past the ingress's head checks (recv_ingress -> its descriptor FIFO ->
  // recv_proc and recv_ctx_table).
  typedef struct packed {
    logic         good;     // head and (data) payload verified
    logic [5:0]   nlines;   // payload lines in the line buffer (0..16)
    node_t        src;
    logic [255:0] payload;  // inline bytes / control contents
    wire_hdr_t    hdr;
  } recv_desc_t;

  // What an ACK or NACK answers: the sender and the block's (tid, seq).
  typedef struct packed {
    node_t src;
    tid_t  tid;
    seq_t  seq;
  } recv_key_t;

  // ---------------------------------------------------------------------------------------
  // Parking reasons (docs/design.md section 6)
  // ---------------------------------------------------------------------------------------
  typedef enum logic [1:0] {
    ParkMore     = 2'd0,  // blocks remain: any resolve wakes it into its own queue
    ParkNeedCtrl = 2'd1,  // all issued, control packet still to make
    ParkWait     = 2'd2   // all issued, waiting for the last resolve
  } park_e;

  // ---------------------------------------------------------------------------------------
  // Scheduling queue indices (docs/design.md section 5)
  // ---------------------------------------------------------------------------------------
  localparam int unsigned QidW   = 7;  // enough for 2 + 4*16 queues
  localparam int unsigned QCtrl  = 0;
  localparam int unsigned QTid   = 1;

  typedef logic [QidW-1:0] qid_t;

  // ---------------------------------------------------------------------------------------
  // Per-transfer metadata, split by writer (docs/design.md section 7)
  // ---------------------------------------------------------------------------------------
  // A congestion-managed transfer's TIDs (docs/design.md section 20): block k uses slot k mod 4
  // of its FID (1x) or k mod 16 of its four FIDs (4x); at most one block per slot is in
  // flight, so one issue toggle and one resolve toggle per slot say whether it is busy.
  localparam int unsigned TidSlots = 16;
  typedef logic [TidSlots-1:0] tid_tog_t;

  // a + b == t (mod 2^CntW) without a carry chain: each bit of the sum equals t's exactly
  // when the carry into it is a ^ b ^ t, and the carry out of a bit that gets that carry is
  // known from the bit alone (the segmenter's last-block test, the Message Handler's
  // completion tests: `LastWithoutCarry`, `ResolvedWithoutCarry`).
  function automatic logic sum_is(cnt_t a, cnt_t b, cnt_t t);
    cnt_t            need;
    logic [CntW-2:0] gen;  // (the carry out of the top bit leaves the count)
    need = a ^ b ^ t;
    gen  = (a[CntW-2:0] & b[CntW-2:0]) | ((a[CntW-2:0] ^ b[CntW-2:0]) & ~t[CntW-2:0]);
    return need == {gen, 1'b0};
  endfunction

  // A PTT entry's re-issue-pending flag in the next cycle, from its value `p` in this one and
  // the Message Handler's updates of this cycle as it applies them: the segmenter's registered
  // clear, a resolve, a request pushed (the segmenter's and the timeout scan's picks a cycle
  // ahead, `PendAhead`, `PickedAhead`).
  function automatic logic pend_next(logic p, tid_t t, logic clr, tid_t clr_t, logic res,
                                     tid_t res_t, logic set, tid_t set_t);
    return (p && !(clr && clr_t == t) && !(res && res_t == t)) || (set && set_t == t);
  endfunction

  function automatic logic [3:0] tid_slot(kind_e kind, logic [3:0] k_lo);  // k_lo = k[3:0]
    return (kind == Kind4x) ? k_lo : {2'b00, k_lo[1:0]};
  endfunction

  // Written by segmenter stage 2, read by stage 1.
  typedef struct packed {
    cnt_t  issued;     // blocks issued so far = index of the next block
    fid_t  fid;        // 1xFID: the flow's FID; 4xFID: the group's base FID
    tid_t  last_tid;   // TID and seq of the last block (for the control packet)
    seq_t  last_seq;
    cnt_t  res_base;   // ack_md.resolved when the first block was issued
    logic  err_base;   // ack_md.err_tog when the first block was issued
    logic  ctrl_sent;  // the control packet has been emitted (a re-issued last block repeats it)
    tid_tog_t iss_tog; // per TID slot of the transfer: flipped by each block issued in it
  } seg_md_t;

  // Written by segmenter stage 2, read by the Message Handler.
  typedef struct packed {
    logic  tog;        // parked when tog != ack_md.wake_tog
    park_e reason;
  } park_md_t;

  // Written by the Message Handler; one copy read by the handler, one by the segmenter.
  typedef struct packed {
    cnt_t resolved;    // resolves (valid ACKs and NACKs) since power-up, mod 2^CntW
    logic err_tog;     // error when != seg_md.err_base
    logic wake_tog;
    tid_tog_t res_tog; // per TID slot: flipped by each resolve of a block in it (a congestion-
                       // managed TID is busy while seg_md.iss_tog and res_tog differ in its slot)
  } ack_md_t;

  // Pending Transactions Table entry (RAM part; the valid bits are flip-flops).
  typedef struct packed {
    seq_t  seq;
    xfer_t xfer;
    cnt_t  target;     // res_base + total: the resolved count that completes the transfer
    logic  err_base;
    qid_t  own_qid;    // queue the transfer returns to when woken
    kind_e kind;
    fid_t  fid;        // FID (1x) or base FID (4x) to return when the transfer finishes
    cnt_t  blk;        // block index k of the transfer (0 for an inline packet)
    logic [RetriesW-1:0] retries;  // re-issues of this block so far (saturating)
  } ptt_t;

  // A re-issue request (docs/design.md section 8.1): the TID and its entry as it was when the
  // NACK or timeout was accepted (its seq identifies the incarnation).
  typedef struct packed {
    tid_t tid;
    ptt_t e;
  } rq_t;

  // Segmenter -> Message Handler: finish a transfer that has nothing in flight.
  typedef struct packed {
    xfer_t xfer;
    logic  err;
    kind_e kind;
    fid_t  fid;
  } fin_t;

  // ---------------------------------------------------------------------------------------
  // Trace port of qos_engine (docs/design.md section 13): the internal events the golden
  // model checks, RVFI-style. Only the verification harness reads it; synthesis leaves the
  // port unconnected and removes the logic that drives it.
  // ---------------------------------------------------------------------------------------
  typedef struct packed {
    logic                 recheck;       // the Message Handler's M2 makes a re-check
    logic                 rd_tt_we;      // the read-channel allocator writes the Transfer Table
    logic [5:0]           rd_ch;         // ... its decision: read channel - 64
    logic [1:0]           rd_action;     // ... 0 serve, 1 drop (no channel), 2 re-issue matched
    logic                 rd_dec;        // ... decides on a read request this cycle
    logic                 rd_enq_req;    // the allocator requests an enqueue (source 3)
    logic                 s2_retx;       // stage 2's node is a re-issue request
    logic                 retx_pop;      // stage 1 takes a re-issue request (no dequeue)
    logic                 tmo;           // the timeout FSM offers a timeout event to M0
    logic                 axi_starving;  // the AXI slave's or allocator's enqueue was refused
                                         // AxiMaxWait times
    logic                 axi_enq_req;   // the AXI slave requests an enqueue
    xfer_t                s2_node;       // node held by segmenter stage 2
    logic                 s2_hold;       // stage 2 holds a node and does not fire
    logic                 s2_fire;       // stage 2 completes its node
    xfer_t                enq_node;      // the granted enqueue: node, queue, source
    qid_t                 enq_qid;
    logic [1:0]           enq_src;       // 0 Message Handler, 1 segmenter, 2 AXI slave, 3 allocator
    logic                 enq;
    logic                 deq_first;     // stage 1's dequeue: first flag, node, queue
    xfer_t                deq_node;
    qid_t                 deq_qid;
    logic                 deq;
    status_e [NumWch-1:0] status;        // every write channel's status (bits 2047:0)
  } qos_trace_t;

  function automatic int unsigned num_queues(int unsigned intra_prios);
    return 2 + 4 * intra_prios;
  endfunction

  // Intra-priority level of a 4-bit priority with `intra_prios` levels (1,2,4,8 or 16).
  // 14-bit serial-number arithmetic (ICD 13, 16): b is newer than a.
  function automatic logic seq_is_newer(seq_t b, seq_t a);
    seq_t d;
    d = b - a;
    return (d != '0) && !d[SeqW-1];
  endfunction

  function automatic logic [3:0] prio_level(logic [3:0] prio, int unsigned intra_prios);
    unique case (intra_prios)
      1:       return 4'd0;
      2:       return {3'd0, prio[3]};
      4:       return {2'd0, prio[3:2]};
      8:       return {1'd0, prio[3:1]};
      default: return prio;
    endcase
  endfunction

  // The queue a new transfer goes to (have_fid = 0) or a transfer that has issued its first
  // block returns to (have_fid = 1).
  function automatic qid_t queue_of(kind_e kind, logic [3:0] prio, logic have_fid,
                                    int unsigned intra_prios);
    logic [3:0] level;
    level = prio_level(prio, intra_prios);
    unique case (kind)
      Kind1x:  return qid_t'(2 + (have_fid ? 0 : intra_prios) + int'(level));
      Kind4x:  return qid_t'(2 + (have_fid ? 2 * intra_prios : 3 * intra_prios) + int'(level));
      default: return qid_t'(QTid);
    endcase
  endfunction

  // ---------------------------------------------------------------------------------------
  // Segmentation arithmetic (ICD section 5)
  // ---------------------------------------------------------------------------------------
  // Total blocks: ceil((dst % BlockBytes + size) / BlockBytes), size >= 1.
  // `dst_lo` is dst_addr % BlockBytes.
  function automatic cnt_t total_blocks(logic [BlockW-1:0] dst_lo, logic [31:0] size);
    return cnt_t'(({17'd0, dst_lo} + {1'b0, size} - 33'd1) >> BlockW) + cnt_t'(1);
  endfunction

  // Length - 1 of the first block: min(size, BlockBytes - dst % BlockBytes) - 1.
  function automatic logic [BlockW-1:0] first_len_m1(logic [BlockW-1:0] dst_lo,
                                                     logic [31:0] size);
    logic [BlockW:0] room;
    room = (BlockW + 1)'(BlockBytes) - {1'b0, dst_lo};
    if ({16'd0, room} < {1'b0, size}) return BlockW'(room - 1'b1);
    return BlockW'(size - 32'd1);
  endfunction

  // Length - 1 of the last block of a transfer of more than one block:
  // (dst + size - 1) % BlockBytes.
  function automatic logic [BlockW-1:0] last_len_m1(logic [BlockW-1:0] dst_lo,
                                                    logic [BlockW-1:0] size_lo);
    return dst_lo + size_lo - BlockW'(1);
  endfunction

  // ---------------------------------------------------------------------------------------
  // CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320, init and final XOR 0xFFFFFFFF) of a
  // packet: header and the first m = 16 + min(len, 32) payload bytes (byte 0 at bits 7:0).
  //
  // Computed in parallel, not byte by byte: a byte-serial loop whose steps depend on the
  // length is a chain of 48 dependent updates (80 levels of logic after synthesis). The CRC
  // register is linear and each step is invertible, so with the bytes from m on zeroed
  //   register after m bytes = B^(48-m) (register after all 48 bytes)
  // where B undoes one zero byte. The register after 48 bytes is a constant (the effect of
  // the initial value) XOR, per bit, the XOR of a constant selection of the 384 data bits (a
  // balanced XOR tree); B^(48-m), 48 - m = 0..32, is applied as two 32x32 matrix products,
  // each with its matrix picked by three bits of 48 - m. The matrices and masks are computed
  // at elaboration by the constant functions below. The work is split in three functions so
  // that the packet queue can do the XOR trees and the first product when a packet is
  // written (crc32_partial, crc32_back_low) and the second product when it is read
  // (crc32_back_high); crc32_finish is the two products in a row.
  // ---------------------------------------------------------------------------------------
  localparam int unsigned CrcBytes = 48;             // header + largest payload
  localparam int unsigned CrcBits  = 8 * CrcBytes;
  localparam logic [31:0] CrcPoly  = 32'hEDB8_8320;

  typedef logic [31:0][CrcBits-1:0] crc_masks_t;  // [register bit] -> data bits
  typedef logic [31:0][31:0]        crc_mat_t;    // [output bit] -> register bits
  typedef crc_mat_t [7:0]           crc_back_t;   // B^(unit * i), i = 0..7

  // One bit into the register, forward.
  function automatic logic [31:0] crc32_step(logic [31:0] c, logic d);
    return (c[0] ^ d) ? ((c >> 1) ^ CrcPoly) : (c >> 1);
  endfunction

  // One zero bit out of the register, backward: the inverse of crc32_step(c, 0). Bit 31 of a
  // forward result is the feedback bit (the polynomial has bit 31 set).
  function automatic logic [31:0] crc32_step_back(logic [31:0] c);
    return ((c ^ (c[31] ? CrcPoly : 32'd0)) << 1) | {31'd0, c[31]};
  endfunction

  // Masks of the data part: bit k of the register after 48 bytes from 0 is
  // ^(data & masks[k]). Bit-serial in stream order (byte 0 first, least significant bit
  // first), each register bit kept as the set of data bits it is the XOR of.
  function automatic crc_masks_t crc32_data_masks();
    crc_masks_t         st;
    crc_masks_t         nx;
    logic [CrcBits-1:0] fb;
    for (int k = 0; k < 32; k++) st[k] = '0;  // (a single '0 is a 12K-bit replication)
    for (int unsigned p = 0; p < CrcBits; p++) begin
      fb    = st[0];
      fb[p] = ~fb[p];
      for (int k = 0; k < 31; k++) nx[k] = st[k+1] ^ (CrcPoly[k] ? fb : '0);
      nx[31] = CrcPoly[31] ? fb : '0;
      st = nx;
    end
    return st;
  endfunction

  // The register after 48 zero bytes from 0xFFFFFFFF.
  function automatic logic [31:0] crc32_init_term();
    logic [31:0] c;
    c = 32'hFFFF_FFFF;
    for (int unsigned p = 0; p < CrcBits; p++) c = crc32_step(c, 1'b0);
    return c;
  endfunction

  // B^(unit * i) for i = 0..7: column j is register bit j taken back unit * i zero bytes.
  function automatic crc_back_t crc32_back_mats(int unsigned unit);
    crc_back_t   m;
    logic [31:0] v;
    for (int unsigned i = 0; i < 8; i++) begin
      for (int j = 0; j < 32; j++) begin
        v = 32'd1 << j;
        for (int unsigned n = 0; n < 8 * unit * i; n++) v = crc32_step_back(v);
        for (int k = 0; k < 32; k++) m[i][k][j] = v[k];
      end
    end
    return m;
  endfunction

  localparam crc_masks_t  CrcMasks = crc32_data_masks();
  localparam logic [31:0] CrcInit  = crc32_init_term();
  localparam crc_back_t   CrcBack1 = crc32_back_mats(1);  // 0..7 bytes
  localparam crc_back_t   CrcBack8 = crc32_back_mats(8);  // 0, 8, .., 56 bytes

  // Bytes past the packet's payload: 48 - m = 32 - min(len, 32).
  function automatic logic [5:0] crc32_back_bytes(logic [5:0] len);
    return 6'd32 - ((len > 6'd32) ? 6'd32 : len);
  endfunction

  // The packet with its payload bytes past min(len, 32) zeroed: the bytes the CRC covers.
  function automatic pkt_body_t crc32_covered(pkt_body_t body);
    pkt_body_t  msg;
    logic [5:0] plen;   // payload bytes covered, 0..32
    plen = 6'd32 - crc32_back_bytes(body.hdr.len);
    msg  = body;
    for (int unsigned j = 0; j < 32; j++) begin  // payload byte j
      if (6'(j) >= plen) msg.payload[8*j +: 8] = 8'd0;
    end
    return msg;
  endfunction

  // The XOR trees alone: the register after all 48 bytes as they are. It is crc32_partial
  // of a packet whose bytes past the covered ones are zero (crc32_covered(body) == body),
  // which the packet queue asserts of every packet written to it.
  function automatic logic [31:0] crc32_trees(pkt_body_t body);
    logic [CrcBits-1:0] msg;
    logic [31:0]        c;
    msg = body;
    for (int k = 0; k < 32; k++) c[k] = CrcInit[k] ^ (^(msg & CrcMasks[k]));
    return c;
  endfunction

  // First half: the register after all 48 bytes, with the bytes past the packet zeroed.
  function automatic logic [31:0] crc32_partial(pkt_body_t body);
    return crc32_trees(crc32_covered(body));
  endfunction

  // Second half: take the register back over the zero bytes and apply the final XOR, as two
  // matrix products, each with its matrix picked by three bits of the count of zero bytes
  // (its low bits: 0-7 bytes, its high bits: 0, 8, .., 32 bytes), instead of six
  // conditional products in a row, one per bit. The packet queue applies the first when the
  // packet enters its FIFO and the second at its output.
  function automatic logic [31:0] crc32_back_low(logic [31:0] partial, logic [5:0] len);
    logic [2:0]  back_lo;  // 0-7 bytes
    logic [31:0] c;
    back_lo = 3'(crc32_back_bytes(len));
    for (int k = 0; k < 32; k++) c[k] = ^(CrcBack1[back_lo][k] & partial);
    return c;
  endfunction

  function automatic logic [31:0] crc32_back_high(logic [31:0] low, logic [5:0] len);
    logic [2:0]  back_hi;  // 0, 8, .., 32 bytes
    logic [31:0] r;
    back_hi = 3'(crc32_back_bytes(len) >> 3);
    for (int k = 0; k < 32; k++) r[k] = ^(CrcBack8[back_hi][k] & low);
    return ~r;
  endfunction

  function automatic logic [31:0] crc32_finish(logic [31:0] partial, logic [5:0] len);
    return crc32_back_high(crc32_back_low(partial, len), len);
  endfunction

  // ---------------------------------------------------------------------------------------
  // CRC-32 of the wire format (ICD 11), same algorithm: `hcrc` over head-beat bytes 0-47 then
  // 52-63 (a fixed 60-byte message: XOR trees from constant masks), `pcrc` over the payload
  // beats of a data packet, one 64-byte beat per cycle (register' = T * register ^ D * beat,
  // T and D constant). Masks and matrices come from the constant functions below.
  // ---------------------------------------------------------------------------------------
  localparam int unsigned BeatBits = 8 * BeatBytes;  // 512
  localparam int unsigned HeadCrcBits = 480;         // 60 bytes of the head beat

  typedef logic [31:0][BeatBits-1:0] crc_beat_masks_t;  // [register bit] -> message bits

  // Masks of an `nbits`-bit message (nbits <= 512), register starting from 0: bit k of the
  // register after the message is ^(msg & masks[k]).
  function automatic crc_beat_masks_t crc32_masks_n(int unsigned nbits);
    crc_beat_masks_t     st;
    crc_beat_masks_t     nx;
    logic [BeatBits-1:0] fb;
    for (int k = 0; k < 32; k++) st[k] = '0;
    for (int unsigned p = 0; p < nbits; p++) begin
      fb    = st[0];
      fb[p] = ~fb[p];
      for (int k = 0; k < 31; k++) nx[k] = st[k+1] ^ (CrcPoly[k] ? fb : '0);
      nx[31] = CrcPoly[31] ? fb : '0;
      st = nx;
    end
    return st;
  endfunction

  // The register after `nbits` zero bits from 0xFFFFFFFF.
  function automatic logic [31:0] crc32_init_n(int unsigned nbits);
    logic [31:0] c;
    c = 32'hFFFF_FFFF;
    for (int unsigned p = 0; p < nbits; p++) c = crc32_step(c, 1'b0);
    return c;
  endfunction

  // T: row k selects the register bits that make bit k after `nbits` zero bits.
  function automatic crc_mat_t crc32_state_mat_n(int unsigned nbits);
    crc_mat_t    m;
    logic [31:0] v;
    for (int j = 0; j < 32; j++) begin
      v = 32'd1 << j;
      for (int unsigned n = 0; n < nbits; n++) v = crc32_step(v, 1'b0);
      for (int k = 0; k < 32; k++) m[k][j] = v[k];
    end
    return m;
  endfunction

  localparam crc_beat_masks_t CrcBeatMasks = crc32_masks_n(BeatBits);
  localparam crc_mat_t        CrcBeatState = crc32_state_mat_n(BeatBits);
  localparam crc_beat_masks_t CrcHeadMasks = crc32_masks_n(HeadCrcBits);
  localparam logic [31:0]     CrcHeadInit  = crc32_init_n(HeadCrcBits);
  localparam logic [31:0]     CrcBeatSeed  = 32'hFFFF_FFFF;  // pcrc register before beat 0

  // pcrc: the register after one more payload beat (pcrc = ~register after the last beat).
  function automatic logic [31:0] crc32_beat(logic [31:0] c, logic [BeatBits-1:0] beat);
    logic [31:0] r;
    for (int k = 0; k < 32; k++) r[k] = (^(CrcBeatState[k] & c)) ^ (^(CrcBeatMasks[k] & beat));
    return r;
  endfunction

  // hcrc of a head beat, from its bytes 0-47 and 52-63 (the hcrc field is not covered).
  function automatic logic [31:0] wire_hcrc(logic [383:0] bytes_0_47, logic [95:0] bytes_52_63);
    logic [BeatBits-1:0] msg;
    logic [31:0]         c;
    msg = '0;
    msg[383:0]             = bytes_0_47;
    msg[HeadCrcBits-1:384] = bytes_52_63;
    for (int k = 0; k < 32; k++) c[k] = CrcHeadInit[k] ^ (^(msg & CrcHeadMasks[k]));
    return ~c;
  endfunction

  // A head beat with its hcrc filled in.
  function automatic wire_head_t wire_seal(wire_head_t h);
    wire_head_t s;
    s      = h;
    s.hcrc = wire_hcrc(h[383:0], h[511:416]);
    return s;
  endfunction

  // An ACK or NACK head beat (ICD 11), sealed: the response to block {tid, seq} of node `to`,
  // sent by node `from` (the receive unit's responses and the engine's deferred ones).
  function automatic wire_head_t wire_response(logic nack, tid_t tid, seq_t seq, node_t to,
                                               node_t from);
    wire_head_t h;
    h              = '0;
    h.hdr.kind     = nack ? WkNack : WkAck;
    h.hdr.tid      = tid;
    h.hdr.seq      = seq;
    h.hdr.dst_addr = {to, 48'd0};
    h.src_node     = from;
    return wire_seal(h);
  endfunction

endpackage
/* verilator lint_on UNUSEDPARAM */

`default_nettype wire
