// SPDX-License-Identifier: Apache-2.0
// Processing of the receive unit (ICD 13; docs/design.md section 15): one decision per cycle
// while recv_writer is idle, and the response register on rsp_tx. While the writer writes a
// data packet and its slot is free, the next good data packet that is written (nothing else)
// may be decided into the slot, when no inline ACK and no completion check comes first.
//
// In order of priority:
//   1. an inline packet whose last write returned (recv_writer's ACK queue): its ACK;
//   2. the lowest context marked for a completion check (recv_ctx_table), once its RAM word
//      is read: not complete -> unmarked; a notify block without its record -> the 16-byte
//      record (tag, size, src_node, 0x0001) is written, and checked again after its B;
//      complete -> ACK (tid, seq) to src_node, context freed (23, and 25 for a notify block);
//   3. the packet at the head of the descriptor FIFO (recv_ingress):
//        bad verdict        -> NACK (tid, seq) to src_node, lines discarded (19, 24);
//        inline             -> its payload written, ACK after its last B;
//        data or control    -> its receive context, once its RAM word is read: none free
//                              (20), older seq (21) -> dropped; a data packet whose slot is
//                              set (21) -> dropped; otherwise written; a control packet is
//                              attached (a second one of the same seq counts in 21).
// A decision that answers waits while the response register is full; one that writes waits
// for room among the write tags. Each decision becomes a job for recv_writer, an update of
// the context table and/or a response.
`default_nettype none
`include "ni_assert.svh"

module recv_proc
  import ni_pkg::*;
#(
  parameter int unsigned RxContexts    = 64,
  parameter int unsigned WrOutstanding = 16,  // write bursts awaiting B
  localparam int unsigned CtxW         = $clog2(RxContexts),
  localparam int unsigned TagCntW      = $clog2(WrOutstanding + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  node_t               node_id_i,
  // the packet at the head of the descriptor FIFO (recv_ingress)
  input  logic                desc_valid_i,
  input  recv_desc_t          desc_i,
  output logic                desc_pop_o,
  // its receive context (recv_ctx_table)
  input  logic                lk_rdy_i,
  input  logic                lk_full_i,
  input  logic                lk_stale_i,
  input  logic                lk_dup_i,
  input  logic [CtxW-1:0]     lk_idx_i,
  // the lowest context marked for a completion check
  output logic                ck_turn_o,      // a ready check would be decided this cycle
  input  logic                ck_any_i,
  input  logic [CtxW-1:0]     ck_idx_i,
  input  logic                ck_rdy_i,
  input  logic                ck_wait_i,
  input  logic                ck_record_i,
  input  recv_key_t           ck_key_i,
  input  logic [47:0]         ck_naddr_i,
  input  logic [63:0]         ck_ntag_i,
  input  logic [31:0]         ck_nsize_i,
  // context table updates
  output logic                take_o,
  output logic                record_o,
  output logic                free_o,
  output logic                ck_done_o,
  output logic [1:0]          pend_add_o,
  // recv_writer: its state, its job
  input  logic                wr_idle_i,
  input  logic                wr_slot_i,      // a write in progress, its slot free
  input  logic                tag_full_i,
  input  logic [TagCntW-1:0]  tag_cnt_i,
  output logic                job_write_o,
  output logic                job_short_o,
  output logic                job_discard_o,
  output logic [47:0]         job_addr_o,
  output logic [WireLenW-1:0] job_len_o,
  output logic [4:0]          job_lines_o,
  output logic [255:0]        job_bytes_o,
  output logic                job_ctx_o,
  output logic [CtxW-1:0]     job_ctx_idx_o,
  output recv_key_t           job_key_o,
  // inline packets whose write completed (recv_writer's ACK queue)
  input  logic                ack_valid_i,
  input  recv_key_t           ack_i,
  output logic                ack_pop_o,
  // response network out: ACK/NACK
  output logic                rsp_tx_valid_o,
  input  logic                rsp_tx_ready_i,
  output logic [511:0]        rsp_tx_data_o,
  // statistics events (ICD 8)
  output logic                stat_pcrc_o,     // 19
  output logic                stat_no_ctx_o,   // 20
  output logic                stat_dup_o,      // 21
  output logic                stat_ack_o,      // 23
  output logic                stat_nack_o,     // 24
  output logic                stat_notify_o,   // 25
  output logic                stat_tx_rsp_o,   // 16: a response left on rsp_tx
  // a response waits on rsp_tx
  output logic                busy_o
);

  // What is decided in a cycle.
  typedef enum logic [3:0] {
    ActNone,       // nothing to do, or the first thing in line must wait
    ActInlineAck,  // an inline packet's writes returned: its ACK
    ActCkWait,     // the checked context is not complete: unmarked
    ActRecord,     // ... complete, a notify block without its record: write the record
    ActAck,        // ... complete: ACK, free the context
    ActNack,       // a bad packet: NACK its sender, discard its lines
    ActInline,     // an inline packet: write its payload
    ActNoCtx,      // no context free: drop the packet
    ActStale,      // its context has a newer seq: drop the packet
    ActDupData,    // a data packet whose slot is set: drop it (its context is still taken)
    ActWrite,      // a data packet: write its lines into its context's block
    ActCtrl        // a control packet: attach it to its context (or a duplicate)
  } act_e;

  act_e       act;
  logic       r_valid_q, r_valid_d;
  wire_head_t r_beat_q, r_beat_d;
  logic       resp_free;
  assign resp_free = !r_valid_q;

  // =======================================================================================
  // The decision
  // =======================================================================================
  // A completion check, once its context's word is read.
  function automatic act_e check_act(logic rdy, logic wait_, logic record, logic tag_full,
                                     logic rfree);
    if (!rdy) return ActNone;                // the checked context is read this cycle
    if (wait_) return ActCkWait;
    if (record) return tag_full ? ActNone : ActRecord;
    return rfree ? ActAck : ActNone;
  endfunction

  // A good data or control packet, once its context's word is read.
  function automatic act_e packet_act(logic rdy, logic full, logic stale, logic data,
                                      logic dup);
    if (!rdy) return ActNone;                // its context is read this cycle
    if (full) return ActNoCtx;
    if (stale) return ActStale;
    if (!data) return ActCtrl;
    return dup ? ActDupData : ActWrite;
  endfunction

  logic inline_room;  // the tags have room for both writes of an inline payload
  assign inline_room = tag_cnt_i <= TagCntW'(WrOutstanding - 2);

  always_comb begin
    act = ActNone;
    if (wr_idle_i) begin
      if (ack_valid_i) begin
        act = resp_free ? ActInlineAck : ActNone;
      end else if (ck_any_i) begin
        act = check_act(ck_rdy_i, ck_wait_i, ck_record_i, tag_full_i, resp_free);
      end else if (desc_valid_i) begin
        if (!desc_i.good) begin
          act = resp_free ? ActNack : ActNone;
        end else if (desc_i.hdr.kind == WkInline) begin
          act = inline_room ? ActInline : ActNone;
        end else begin
          act = packet_act(lk_rdy_i, lk_full_i, lk_stale_i, desc_i.hdr.kind == WkData,
                           lk_dup_i);
        end
      end
    end else if (wr_slot_i && !ack_valid_i && !ck_any_i && desc_valid_i && desc_i.good &&
                 desc_i.hdr.kind == WkData) begin
      act = (packet_act(lk_rdy_i, lk_full_i, lk_stale_i, 1'b1, lk_dup_i) == ActWrite) ?
            ActWrite : ActNone;
    end
  end

  assign ck_turn_o = wr_idle_i && !ack_valid_i;

  // =======================================================================================
  // What it does: pops, context updates, the writer's job, the response, counters
  // =======================================================================================
  logic      pkt_taken;  // the head packet goes into its context
  logic      discard;    // the head packet is dropped: its lines are discarded
  logic      rsp_send;
  recv_key_t desc_key;
  assign desc_key  = '{src: desc_i.src, tid: desc_i.hdr.tid, seq: desc_i.hdr.seq};
  assign pkt_taken = act inside {ActDupData, ActWrite, ActCtrl};
  assign discard   = act inside {ActNack, ActNoCtx, ActStale, ActDupData};
  assign rsp_send  = act inside {ActInlineAck, ActAck, ActNack};

  assign desc_pop_o = discard || pkt_taken || act == ActInline;
  assign ack_pop_o  = act == ActInlineAck;
  assign ck_done_o  = act inside {ActCkWait, ActRecord, ActAck};
  assign take_o     = pkt_taken;
  assign record_o   = act == ActRecord;
  assign free_o     = act == ActAck;

  always_comb begin
    // a context's writes count from the decision on, so that nothing reclaims it meanwhile
    unique case (act)
      ActWrite:  pend_add_o = 2'd1;
      ActRecord: pend_add_o = (ck_naddr_i[5:0] > 6'd48) ? 2'd2 : 2'd1;
      default:   pend_add_o = 2'd0;
    endcase
  end

  assign job_write_o   = act == ActWrite;
  assign job_short_o   = act inside {ActRecord, ActInline};
  assign job_discard_o = discard;

  always_comb begin
    job_addr_o    = desc_i.hdr.dst_addr[47:0];
    job_len_o     = desc_i.hdr.len;
    job_lines_o   = 5'(desc_i.nlines);
    job_bytes_o   = desc_i.payload;
    job_ctx_o     = 1'b1;
    job_ctx_idx_o = lk_idx_i;
    job_key_o     = desc_key;
    if (act == ActRecord) begin
      job_addr_o    = ck_naddr_i;
      job_len_o     = WireLenW'(16);
      job_bytes_o   = {128'd0, NotifyMagic, ck_key_i.src, ck_nsize_i, ck_ntag_i};
      job_ctx_idx_o = ck_idx_i;
      job_key_o     = ck_key_i;
    end else if (act == ActInline) begin
      job_len_o     = (desc_i.hdr.len > 11'd32) ? 11'd32 : desc_i.hdr.len;
      job_ctx_o     = 1'b0;
      job_ctx_idx_o = '0;
    end
  end

  // The response register (rsp_tx): loaded only when free.
  always_comb begin
    r_valid_d = r_valid_q && !rsp_tx_ready_i;
    r_beat_d  = r_beat_q;
    // (the hcrc is computed only for the response sent)
    unique case (act)
      ActInlineAck: r_beat_d = wire_response(1'b0, ack_i.tid, ack_i.seq, ack_i.src, node_id_i);
      ActAck:       r_beat_d = wire_response(1'b0, ck_key_i.tid, ck_key_i.seq, ck_key_i.src,
                                                 node_id_i);
      ActNack:      r_beat_d = wire_response(1'b1, desc_key.tid, desc_key.seq, desc_key.src,
                                                 node_id_i);
      default: ;
    endcase
    if (rsp_send) r_valid_d = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_valid_q <= 1'b0;
      r_beat_q  <= '0;
    end else begin
      r_valid_q <= r_valid_d;
      r_beat_q  <= r_beat_d;
    end
  end

  assign rsp_tx_valid_o = r_valid_q;
  assign rsp_tx_data_o  = r_beat_q;
  assign stat_tx_rsp_o  = rsp_tx_valid_o && rsp_tx_ready_i;
  assign busy_o         = r_valid_q;

  assign stat_pcrc_o   = act == ActNack;
  assign stat_nack_o   = act == ActNack;
  assign stat_no_ctx_o = act == ActNoCtx;
  assign stat_dup_o    = act inside {ActStale, ActDupData} || (act == ActCtrl && lk_dup_i);
  assign stat_ack_o    = act inside {ActInlineAck, ActAck};
  // Counter 25 counts every notification record written (a block re-issued after its record
  // was written, before its ACK, writes it again: ICD 13's at-least-once).
  assign stat_notify_o = act == ActRecord;

  // =======================================================================================
  // Assertions
  // =======================================================================================
  `NI_ASSERT_VALID_HELD(RspTxHeld, rsp_tx_valid_o, rsp_tx_ready_i, rsp_tx_data_o)
  // A response is loaded only into a free register; decisions are taken only while the
  // writer is idle (a data write also into its free slot), each on what it read.
  `NI_ASSERT(RespOnlyWhenFree, rsp_send -> !r_valid_q)
  `NI_ASSERT(DecideWhenIdle, act != ActNone -> wr_idle_i || (wr_slot_i && act == ActWrite))
  `NI_ASSERT(PopOnlyWaiting, desc_pop_o -> desc_valid_i)
  `NI_ASSERT(AckOnlyWaiting, ack_pop_o -> ack_valid_i)
  // Data is written only from a verified packet.
  `NI_ASSERT(WriteOnlyVerified, job_write_o -> desc_i.good && desc_i.hdr.kind == WkData)
  // A packet is decided on its own context's word, a check on the checked context's.
  `NI_ASSERT(LookupReadsItsContext, desc_pop_o && desc_i.good && desc_i.hdr.kind != WkInline ->
                                    lk_rdy_i)
  `NI_ASSERT(CheckReadsItsContext, ck_done_o -> ck_rdy_i)

endmodule

`default_nettype wire
