#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Mutation testing of the verification environment: apply deliberate RTL bugs one at a time
(in a scratch copy of the sources under build/mutants/NAME/), rebuild build/ni_sim and the
units' own Catch2 testbenches (UNIT_TBS) there with the project's Makefile, and run the checks
of set "mutants" of the test plan tests/testplan.json (random runs with the default, heavy and
retransmission configs, full-NI runs on 2 nodes), the directed scenarios in vectors/, then the
unit testbenches (directed cases the random runs may not reach, e.g. a stale seq at the
receive unit). Every mutant must be killed (some check fails).

Usage: mutants.py [-k NAME] [--list]
Not part of CI (each mutant is a full build of ni_sim: a few minutes).
Exit status 0 only when every mutant was killed.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "mutants"
sys.path.insert(0, str(ROOT / "scripts"))
import testplan  # noqa: E402  (tests/testplan.json)

# (name, file, original text, mutated text, what the bug is)
MUTANTS = [
    # RDMA Read (ICD 16)
    ("read-alloc-not-lowest", "rtl/qos/read_alloc.sv",
     ".in_i (free),", ".in_i (free & (free - RdChPerPage'(1))),",
     "the allocator skips the lowest-numbered IDLE read channel"),
    ("read-skid-lost", "rtl/qos/read_alloc.sv",
     "n_valid_q <= s_valid_q || take;", "n_valid_q <= take;",
     "a read request waiting in the skid behind stage N is never decided"),
    ("read-serve-when-full", "rtl/qos/read_alloc.sv",
     "assign serve_go = a_serve && !tt_busy_i && !e_full;",
     "assign serve_go = a_serve && !tt_busy_i && (!e_full || 1'b1);",
     "a serve while both enqueue entries are taken (one served transfer is never enqueued)"),
    ("read-reissue-served-again", "rtl/qos/read_alloc.sv",
     "match[c]   = abusy_q[c] && keq_q[c];",
     "match[c]   = 1'b0 && keq_q[c];",
     "a re-issue of a request still being served gets a second transfer"),
    ("read-key-forward-lost", "rtl/qos/read_alloc.sv",
     "if (serve_go && free_first[c] && n_page == a_page) keq_d[c] = (a_key == n_key);",
     "if (1'b0 && free_first[c] && n_page == a_page) keq_d[c] = (a_key == n_key);",
     "a request entering stage A as the one before it is served is compared with the served "
     "channel's old key"),
    ("read-reissue-old-seq", "rtl/qos/read_alloc.sv",
     "assign a_reseq  = a_dup && a_newer &&", "assign a_reseq  = 1'b0 && a_newer &&",
     "a matched re-issue with a newer seq is answered with the old seq"),
    ("read-answer-seq-serve-only", "rtl/qos/read_alloc.sv",
     "if (sw_valid_q) ans_seq_mem_q[sw_rch_q] <= sw_seq_q;",
     "if (sv_q) ans_seq_mem_q[sw_rch_q] <= sw_seq_q;",
     "the answer's copy of a channel's seq keeps the serve's: a matched re-issue's newer seq "
     "is answered with the old one"),
    ("read-seq-behind-unforwarded", "rtl/qos/read_alloc.sv",
     "assign sw_match = sw_at_a &&", "assign sw_match = 1'b0 && sw_at_a &&",
     "stage A compares a matched re-issue's seq with its channel's RAM while the seq written "
     "behind for it waits in the register (a re-issue right after a serve or a newer re-issue "
     "compares with the old seq)"),
    ("read-abusy-pop-missed", "rtl/qos/read_alloc.sv",
     "!(pop && head_rch == {a_page, RchW'(c)});", "!(1'b0 && head_rch == {a_page, RchW'(c)});",
     "stage A's page flags keep a channel busy after its answer left (a waiting request skips "
     "the lowest IDLE channel, or finds none)"),
    ("read-abusy-load-serve-missed", "rtl/qos/read_alloc.sv",
     "(busy_q[n_page][c] || (serve_here[c] && n_page == a_page) ||",
     "(busy_q[n_page][c] || (1'b0 && serve_here[c] && n_page == a_page) ||",
     "a request entering stage A as the one before it is served on its page takes the served "
     "channel as IDLE (allocated twice)"),
    ("read-abusy-load-behind-missed", "rtl/qos/read_alloc.sv",
     "(sv_q && sw_rch_q == {n_page, RchW'(c)})) &&",
     "(1'b0 && sw_rch_q == {n_page, RchW'(c)})) &&",
     "a request entering stage A the cycle after a serve on its page takes the served channel "
     "as IDLE (its busy flag still written behind)"),
    ("read-key-behind-unforwarded", "rtl/qos/read_alloc.sv",
     "else if (sv_q && sw_rch_q == {n_page, RchW'(c)})   keq_d[c] = (sv_key_q == n_key);",
     "else if (1'b0 && sw_rch_q == {n_page, RchW'(c)})   keq_d[c] = (sv_key_q == n_key);",
     "a request entering stage A the cycle after a serve on its page is compared with the served "
     "channel's old key (the new one still written behind)"),
    ("read-abusy-load-pop-missed", "rtl/qos/read_alloc.sv",
     "!(pop && head_rch == {n_page, RchW'(c)});", "!(1'b0 && head_rch == {n_page, RchW'(c)});",
     "a request entering stage A as a channel of its page is answered takes that channel as busy"),
    ("read-match-excludes-pop", "rtl/qos/read_alloc.sv",
     "      match[c]   = abusy_q[c] && keq_q[c];",
     "      match[c]   = abusy_q[c] && keq_q[c] && !(aq_valid && drsp_ready_i &&\n"
     "                                             head_rch == {a_page, RchW'(c)});",
     "a re-issue decided in the cycle its channel's response leaves is not matched (served "
     "into another channel: the rule before the response's handshake left the decision)"),
    ("read-free-first-all", "rtl/qos/read_alloc.sv",
     "    assign free_first[c] = free[c] && !(|free[c-1:0]);",
     "    assign free_first[c] = free[c];",
     "a serve marks every IDLE channel of its page busy in stage A's flags (the one-hot of the "
     "lowest IDLE channel lost)"),
    ("read-error-acked", "rtl/qos/read_alloc.sv",
     "assign drsp_o.nack   = aq_head[WchW];", "assign drsp_o.nack   = 1'b0 && aq_head[WchW];",
     "a read channel's ERROR is answered with an ACK"),
    ("read-notify-early", "rtl/qos/transfer_segmenter.sv",
     "assign rd_hold     = k_read && ctrl.notify && is_last && !infl_zero;",
     "assign rd_hold     = 1'b0 && ctrl.notify && is_last && !infl_zero;",
     "a notifying read's last block does not wait for the others"),
    ("last-block-len", "rtl/common/ni_pkg.sv",
     "return dst_lo + size_lo - BlockW'(1);", "return dst_lo + size_lo;",
     "off-by-one in the last block's length"),
    ("tid-wrap-1x", "rtl/qos/transfer_segmenter.sv",
     "blk_tid = {fid_cur, b_q.k[1:0]};", "blk_tid = {fid_cur, b_q.k[2:1]};",
     "wrong TID wrap inside a unipath flow"),
    ("tid-wrap-4x", "rtl/qos/transfer_segmenter.sv",
     "blk_tid = {fid_cur[FidW-1:2], b_q.k[1:0], b_q.k[3:2]};", "blk_tid = {fid_cur[FidW-1:2], b_q.k[3:2], b_q.k[1:0]};",
     "multipath TIDs in the wrong (non frog-leap) order"),
    ("skip-reenqueue", "rtl/qos/transfer_segmenter.sv",
     "(32'(infl) + 1 < MaxOutstanding);", "(32'(infl) + 2 < MaxOutstanding);",
     "segmenter skips the outstanding-block re-enqueue"),
    ("outstanding-limit", "rtl/qos/transfer_segmenter.sv",
     "(32'(infl) + 1 < MaxOutstanding);", "(32'(infl) < MaxOutstanding);",
     "one more block in flight than MaxOutstanding"),
    ("priority-swap", "rtl/qos/transfer_segmenter.sv",
     "    .in_i (eligible),", "    .in_i (eligible & (eligible - NumQueues'(1'b1))),",
     "the highest-priority eligible queue passed over while another is eligible"),
    ("missed-fid-return", "rtl/qos/msg_handler.sv",
     "assign fid4_push_o   = finish_o && (fin_kind == Kind4x);",
     "assign fid4_push_o   = finish_o && (fin_kind == Kind4x) && !m2_fin_q;",
     "4xFID base not returned when the segmenter finishes the transfer"),
    ("lost-pkt-stall", "rtl/qos/transfer_segmenter.sv",
     "assign no_other_stall = !(need_pkt && pkt_full_i) &&",
     "assign no_other_stall = !(need_pkt && pkt_full_i && 1'b0) &&",
     "segmenter ignores a full packet queue"),
    ("lost-blk-stall", "rtl/qos/transfer_segmenter.sv",
     "assign blk_slot_ok    = !s3_valid_q || blk_ready_i;", "assign blk_slot_ok    = 1'b1;",
     "segmenter ignores back-pressure on the blk port"),
    ("stale-ack-accepted", "rtl/qos/msg_handler.sv",
     "assign m1_accept      = m1_rsp_q && m1_valid_entry && m1_seq_ok &&",
     "assign m1_accept      = m1_rsp_q && m1_valid_entry && (m1_seq_ok || 1'b1) &&",
     "ACK with a stale seq accepted"),
    ("reissue-seq-unseen", "rtl/qos/msg_handler.sv",
     "assign m1_seg_now = seg_ptt_we_i && seg_ptt_waddr_i == m1_r_q.tid;",
     "assign m1_seg_now = 1'b0 && seg_ptt_we_i && seg_ptt_waddr_i == m1_r_q.tid;",
     "a response checked against the entry without the re-issue written in the same cycle"),
    ("wake-ctrl-lost", "rtl/qos/msg_handler.sv",
     "m3_enq_q      <= wake_own || wake_ctrl;",
     "m3_enq_q      <= wake_own || (wake_ctrl && 1'b0);",
     "the wake into the control queue (M3) is never enqueued"),
    ("wake-ctrl-early", "rtl/qos/msg_handler.sv",
     "assign next_last_res = sum_is(ack_cur.resolved, cnt_t'(2), m2_e_q.target);",
     "assign next_last_res = sum_is(ack_cur.resolved, cnt_t'(3), m2_e_q.target);",
     "control packet queued one ACK too early"),
    ("multi-read-clears-busy", "rtl/qos/status_regs.sv",
     "clr = ((sg_grp[g] ? sg_place : '0) | {64{mh_grp[g]}}) & fin;",
     "clr = ((sg_grp[g] ? sg_place : '0) & fin) | {64{mh_grp[g]}};",
     "32-channel status read also clears BUSY channels"),
    ("dst-overflow-edge", "rtl/qos/axi_slave.sv",
     "r_nz     = !sum16_is(a[15:0], size[15:0], 16'h0000);",
     "r_nz     = 1'b1;",
     "R9 (and R11) reject a range that ends exactly at 2^48"),
    ("dst-range-size-stale", "rtl/qos/axi_slave.sv",
     "w3_new ? past_top(acc_a1, beat_size) : past_top(acc_a1, acc_size);",
     "w3_new ? past_top(acc_a1, acc_size) : past_top(acc_a1, acc_size);",
     "R9 checks a line whose control word arrives in its last beat with the size the "
     "accumulator held before it"),
    ("interleave-unchecked", "rtl/qos/axi_slave.sv",
     "(acc_page_q[set] != beat_page || acc_ch_q[set] != beat_ch);", "(acc_page_q[set] != beat_page);",
     "a write to another channel of the same page does not count as interleaving"),
    ("pkt-stage-uncounted", "rtl/qos/pkt_queue.sv",
     "assign full_o = (32'(count) + 32'(stg_q)) >= Depth;",
     "assign full_o = 32'(count) >= Depth;",
     "the packet queue's full flag leaves out the packet in its stage (the queue takes one "
     "packet more than it holds)"),
    ("pkt-inline-unmasked", "rtl/qos/transfer_segmenter.sv",
     "if (32'(b) >= b_q.ctrl.size) raw[8*b +: 8] = 8'd0;",
     "if (1'b0 && 32'(b) >= b_q.ctrl.size) raw[8*b +: 8] = 8'd0;",
     "an inline packet carries the descriptor's bytes past its length (the packet queue's CRC "
     "trees, which take the body as it is, cover them)"),
    ("crc-no-final-xor", "rtl/common/ni_pkg.sv",
     "& low);\n    return ~r;", "& low);\n    return r;",
     "CRC-32 without the final XOR"),
    ("crc-odd-length", "rtl/common/ni_pkg.sv",
     "^(CrcBack1[back_lo][k] & partial);", "^(CrcBack1[back_lo - {2'b00, back_lo[0]}][k] & partial);",
     "CRC-32 of a packet whose payload length is odd not taken back its last byte"),
    ("seq-on-ctrl", "rtl/qos/transfer_segmenter.sv",
     ".take_i(b_fire && iss),", ".take_i(b_fire && (iss || b_q.act_ctrl)),",
     "control packets consume a sequence number"),
    # retransmission (ICD 14, design.md 8.1)
    ("retx-same-seq", "rtl/qos/transfer_segmenter.sv",
     ".take_i(b_fire && iss),", ".take_i(b_fire && b_q.act_issue),",
     "a re-issue does not take a new sequence number"),
    ("retx-bit-missing", "rtl/qos/transfer_segmenter.sv",
     "s2_desc.retx      = b_q.retx;", "s2_desc.retx      = 1'b0;",
     "a re-issued block leaves without retx"),
    ("retx-no-ctrl", "rtl/qos/transfer_segmenter.sv",
     "assign retx_ctrl = rx_live_b && !b_q.k_inline",
     "assign retx_ctrl = 1'b0 && rx_live_b && !b_q.k_inline",
     "a re-issued last block does not repeat its control packet"),
    ("retries-off-by-one", "rtl/qos/msg_handler.sv",
     "64'(m1_entry_prev.retries) < max_retries_i;", "64'(m1_entry_prev.retries) <= max_retries_i;",
     "one re-issue more than MaxRetries"),
    ("timer-write-unseen", "rtl/qos/retx_timer.sv",
     "ev_sent_q && !ev_pend && !ev_hs_q && !ev_seqw_q &&",
     "ev_sent_q && !ev_pend && !ev_hs_q && (!ev_seqw_q || 1'b1) &&",
     "an entry written (issued again) in the cycle it is read is judged on the flags of its "
     "previous block (the flags' update a cycle behind, not accounted for)"),
    ("timeout-early", "rtl/qos/retx_timer.sv",
     "assign late_blk = age_blk_q > timeout_i[StampW-1:0];\n"
     "  assign late_pkt = age_pkt_q > timeout_i[StampW-1:0];",
     "assign late_blk = age_blk_q >= timeout_i[StampW-1:0];\n"
     "  assign late_pkt = age_pkt_q >= timeout_i[StampW-1:0];",
     "a block times out one cycle early"),
    ("timer-stamp-ahead-unforwarded", "rtl/qos/retx_timer.sv",
     "assign age_blk_d = fwd_blk_q ? stamp_t'(2) : now1_q - stamp_blk;",
     "assign age_blk_d = (fwd_blk_q && 1'b0) ? stamp_t'(2) : now1_q - stamp_blk;",
     "the timeout scan's issue cycle, read a cycle ahead, misses a handshake of the entry in "
     "the cycle of that read (the block just sent is aged by its previous stamp)"),
    ("timeout-not-first", "rtl/qos/msg_handler.sv",
     "assign rsp_ready_o = init_done_i && !seg_gnt && !tmo_v && !rc_q;",
     "assign rsp_ready_o = init_done_i && !seg_gnt && !rc_q;",
     "a response accepted in the cycle of a timeout event (and lost)"),
    ("retx-not-cancelled", "rtl/qos/msg_handler.sv",
     "    if (m2_res)    rp_d[m2_tid_q]     = 1'b0;\n", "",
     "an ACK before the re-issue leaves the re-issue pending"),
    ("ptt-set-late-lost", "rtl/qos/msg_handler.sv",
     "    if (segp_we_q) ptt_valid_eff[segp_waddr_q] = 1'b1;\n", "",
     "the segmenter's PTT write, registered, never sets the entry's valid bit"),
    ("retx-clear-late-lost", "rtl/qos/msg_handler.sv",
     "    if (segr_q)    rp_eff[segr_tid_q] = 1'b0;\n", "",
     "a re-issue's clear of its pending bit, registered, is never applied"),
    ("axi-enq-refused-lost", "rtl/qos/axi_slave.sv",
     "      end else if (enq_ready_i) begin\n        enq_q <= 1'b0;",
     "      end else begin\n        enq_q <= 1'b0;",
     "the AXI slave's registered enqueue is dropped when another source is granted first (the "
     "transfer made live is never queued)"),
    ("axi-live-over-pending", "rtl/qos/axi_slave.sv",
     "assign s_axi_wready_o = beat_can_go && !(complete && enq_q);",
     "assign s_axi_wready_o = beat_can_go;",
     "a beat completes a line, and makes a transfer live, while the enqueue register still "
     "holds the one before (its request overwritten)"),
    ("axi-first-after-single", "rtl/qos/axi_slave.sv",
     "      first_d    = beat_last;", "      first_d    = beat_last && cur.len != 8'd0;",
     "after a single-beat transaction the next one's first beat is taken for a later beat (its "
     "address the running one, not its own)"),
    ("axi-starvation", "rtl/qos/qos_engine.sv",
     ".axi_starving_i  (axi_starving),", ".axi_starving_i  (1'b0),",
     "segmenter re-enqueues while the AXI slave's enqueue is starving"),
    ("ack-prev-write-missed", "rtl/qos/transfer_segmenter.sv",
     "    return prev_hit ? prev_wdata : ram;", "    return (1'b0 && prev_hit) ? prev_wdata : ram;",
     "a node's first cycle in stage 2 misses the handler's ACK-metadata write of the cycle "
     "before (the read-first RAM's word taken as it is)"),
    ("pend-ahead-held-stale", "rtl/qos/transfer_segmenter.sv",
     "          pend_next(pend_q, s2_rq_q.tid, rp_clr_i,", "          pend_next(pend_q, '0, rp_clr_i,",
     "a re-issue request held in stage 2 keeps its pending flag without that TID's clears and "
     "resolves"),
    ("infl-zero-first-only", "rtl/qos/transfer_segmenter.sv",
     "assign infl_zero = s2_first_q || (infl_own == ack_base.resolved[InflW-1:0]);",
     "assign infl_zero = s2_first_q;",
     "a transfer's own visit takes its blocks in flight as none (finishes, sends its control "
     "packet early)"),
    ("timer-valid-ahead-clear-missed", "rtl/qos/retx_timer.sv",
     "                    !(ptt_clr_i && ptt_clr_tid_i == ptr);",
     "                    !(1'b0 && ptt_clr_i && ptt_clr_tid_i == ptr);",
     "the timeout scan's valid bit, picked a cycle ahead, misses a resolve of the entry in "
     "that cycle (a resolved block times out)"),
    ("timer-pend-ahead-set-missed", "rtl/qos/retx_timer.sv",
     "ptt_clr_tid_i, rp_set_i, rp_set_tid_i);", "ptt_clr_tid_i, 1'b0, rp_set_tid_i);",
     "the timeout scan's pending flag, picked a cycle ahead, misses a request made for the "
     "entry in that cycle (a second request for a block)"),
    ("tid-busy-ignored", "rtl/qos/transfer_segmenter.sv",
     "assign tid_busy = k_cm && !s2_first_q && tog_diff[tid_slot(ctrl.kind, md_own.issued[3:0])];",
     "assign tid_busy = 1'b0 && !s2_first_q && tog_diff[tid_slot(ctrl.kind, md_own.issued[3:0])];",
     "a congestion-managed TID is reused while its previous block is unacknowledged"),
    ("pending-busy-unseen", "rtl/qos/status_regs.sv",
     "assign lk_busy_o  = (pb_q && pb_wch_q == lk_wch_i) ||",
     "assign lk_busy_o  = (1'b0 && pb_wch_q == lk_wch_i) ||",
     "a channel marked BUSY reads as IDLE in the cycle after (the write-behind not forwarded)"),
    ("pending-finish-unseen", "rtl/qos/status_regs.sv",
     "(pair_codes[0] == StBusy && !(pf_q && pf_wch_q == pair_wch));",
     "(pair_codes[0] == StBusy && !(1'b0 && pf_wch_q == pair_wch));",
     "a long descriptor's pair channel finished reads as live to the AXI slave's lookup in "
     "the cycle after (the finish's write-behind not forwarded: rule R3 refuses its odd "
     "channel)"),
    ("pending-finish-read-unseen", "rtl/qos/status_regs.sv",
     "assign rd_pf    = (pf_q && pf_wch_q[WchW-1:5] == rd_grp)",
     "assign rd_pf    = (1'b0 && pf_wch_q[WchW-1:5] == rd_grp)",
     "a status read in the cycle after a finish reads the channel as BUSY"),
    ("pending-finish-after-clear", "rtl/qos/status_regs.sv",
     "      if (pf_grp[g]) q = (q & ~pf_place) | (pf_code & pf_place);\n"
     "      // DONE and ERROR have the high bit set: a read clears those of its channels to IDLE.\n"
     "      fin = (q & HiBits) | ((q & HiBits) >> 1);\n"
     "      clr = ((sg_grp[g] ? sg_place : '0) | {64{mh_grp[g]}}) & fin;\n"
     "      nxt = (q & ~clr) | (pb_grp[g] ? pb_place & ~HiBits : '0);\n",
     "      fin = (q & HiBits) | ((q & HiBits) >> 1);\n"
     "      clr = ((sg_grp[g] ? sg_place : '0) | {64{mh_grp[g]}}) & fin;\n"
     "      nxt = (q & ~clr) | (pb_grp[g] ? pb_place & ~HiBits : '0);\n"
     "      if (pf_grp[g]) nxt = (nxt & ~pf_place) | (pf_code & pf_place);\n",
     "the finish written behind is written after the read's clear (a read in the cycle after "
     "a finish sees DONE, yet the channel stays DONE)"),
    ("tid-slot-1x-wide", "rtl/common/ni_pkg.sv",
     "return (kind == Kind4x) ? k_lo : {2'b00, k_lo[1:0]};", "return (kind == Kind4x) ? k_lo : k_lo;",
     "a unipath flow's TID busy toggles kept per block mod 16 (its TIDs wrap at 4)"),
    ("res-tog-kept", "rtl/qos/msg_handler.sv",
     "assign ackmd_wdata_o.res_tog  = ack_cur.res_tog ^",
     "assign ackmd_wdata_o.res_tog  = ack_cur.res_tog | 16'd0 &",
     "a resolve does not free its TID slot in the transfer's toggles"),
    ("seg-md-forward-lost", "rtl/qos/transfer_segmenter.sv",
     "(segw_we_q && segw_waddr_q == s2_node_q) ? segw_wdata_q : segmd_rdata_i;",
     "(1'b0 && segw_we_q && segw_waddr_q == s2_node_q) ? segw_wdata_q : segmd_rdata_i;",
     "stage 2's metadata write of the previous cycle not forwarded (a re-issue right after its "
     "transfer's own visit writes back what the RAM held before)"),
    ("seg-skid-ack-stale", "rtl/qos/transfer_segmenter.sv",
     "assign sk_ack_eff = (mh_ackmd_we_i && mh_ackmd_waddr_i == sk_node_q) ? mh_ackmd_wdata_i :",
     "assign sk_ack_eff = (1'b0 && mh_ackmd_waddr_i == sk_node_q) ? mh_ackmd_wdata_i :",
     "a node waiting in stage 1's skid misses the handler's ACK-metadata writes (its resolves, "
     "errors and freed TID slots as they were at its dequeue)"),
    ("seg-s2-words-from-ram", "rtl/qos/transfer_segmenter.sv",
     "assign line0    = !s2_mdnew_q ? s2_line0_q : s2_node_q[0] ? tt_odd_i : tt_even_i;",
     "assign line0    = (!s2_mdnew_q && 1'b0) ? s2_line0_q : s2_node_q[0] ? tt_odd_i : tt_even_i;",
     "stage 2, holding, reads its descriptor from the Transfer Table's output, which stage 1's "
     "read for the skid has replaced"),
    ("pick-dequeue-unreserved", "rtl/qos/transfer_segmenter.sv",
     "               3'(deq_o && pick_q == qid_t'(QTid));",
     "               3'(1'b0 && pick_q == qid_t'(QTid));",
     "stage 1 picks the TID-only queue for the next cycle without counting the TID its own "
     "dequeue of this cycle will take"),
    ("pick-last-node-fwd", "rtl/qos/sched_queues.sv",
     "    if (fwd_valid_q) last_here[fwd_qid_q] = fwd_last;",
     "    if (1'b0) last_here[fwd_qid_q] = fwd_last;",
     "stage 1's pick takes a queue read by the dequeue before as holding its last node only "
     "when its register says so (the link read then is not compared with the tail)"),
    ("pick-last-node-again", "rtl/qos/sched_queues.sv",
     "  assign remain_o     = ~pend_first_d;", "  assign remain_o     = ~empty_eff;",
     "stage 1 picks for the next cycle a queue whose last node it dequeues now (the queues as "
     "they were at the start of the cycle)"),
    ("recheck-lost", "rtl/qos/msg_handler.sv",
     "  assign rc_d = seg_park_we_i && seg_park_rc_i;",
     "  assign rc_d = 1'b0 && seg_park_we_i && seg_park_rc_i;",
     "no re-check of a transfer stage 2b parks on a plan a resolve of one of its blocks passed "
     "(the park decided without that resolve: the transfer may never be woken)"),
    ("recheck-counts-resolve", "rtl/qos/msg_handler.sv",
     "  assign resolved_new = m2_rc_q ? ack_cur.resolved :",
     "  assign resolved_new = 1'b0 ? ack_cur.resolved :",
     "a re-check counts a resolve"),
    ("park-passed-unseen", "rtl/qos/transfer_segmenter.sv",
     "(b_since_q || (mh_res_i && mh_res_xfer_i == b_q.node));",
     "((b_since_q && 1'b0) || (mh_res_i && mh_res_xfer_i == b_q.node));",
     "stage 2b parks a transfer on a plan that a resolve of one of its blocks in an earlier "
     "cycle passed (in stage 2a's last cycle or while 2b held) without asking for a re-check "
     "(the transfer may never be woken)"),
    ("split-reissue-stale", "rtl/qos/transfer_segmenter.sv",
     "                     !(ptt_clr_i && ptt_clr_tid_i == b_q.rq.tid);",
     "                     !(1'b0 && ptt_clr_i && ptt_clr_tid_i == b_q.rq.tid);",
     "a re-issue held in stage 2b is issued although its block resolved while it waited "
     "(2a's check alone)"),
    ("split-md-unforwarded", "rtl/qos/transfer_segmenter.sv",
     "assign md_b = (segw_we_q && segw_waddr_q == b_q.node) ? segw_wdata_q : b_q.md;",
     "assign md_b = (1'b0 && segw_we_q && segw_waddr_q == b_q.node) ? segw_wdata_q : b_q.md;",
     "stage 2b misses the metadata its transfer's node ahead of it wrote in the cycle before "
     "(a re-issue behind its transfer's own visit, or the other way round)"),
    ("split-reserve-2b-missed", "rtl/qos/transfer_segmenter.sv",
     "    res_tid  = 3'(b_valid_q && b_q.qid == qid_t'(QTid)) +",
     "    res_tid  = 3'(1'b0 && b_q.qid == qid_t'(QTid)) +",
     "stage 1's pick does not count the TID that the node in stage 2b is still to take"),
    ("ack-forward-lost", "rtl/qos/msg_handler.sv",
     "assign ack_fwd  = ackp_we_q && ackf_q;", "assign ack_fwd  = ackp_we_q && ackf_q && 1'b0;",
     "M2 reads a transfer's ACK metadata without the resolve of the cycle before (the select "
     "compared in M1 not used)"),
    ("park-forward-lost", "rtl/qos/msg_handler.sv",
     "assign park_fwd = parkp_we_q && parkf_q;", "assign park_fwd = parkp_we_q && parkf_q && 1'b0;",
     "M2 reads a transfer's park record without the segmenter's park of the cycle before"),
    ("has-next-on-last", "rtl/qos/transfer_segmenter.sv",
     "s2_desc.has_next  = b_q.k_cm && !b_q.is_last;", "s2_desc.has_next  = b_q.k_cm;",
     "has_next set on the last block of a flow"),
    # the send unit (ICD 11-12)
    ("send-last-always", "rtl/send/send_unit.sv",
     "w.hdr.last     = o_geom_q.last;", "w.hdr.last     = 1'b1;",
     "every data packet flagged as its block's last"),
    ("send-pcrc-no-final-xor", "rtl/send/send_unit.sv",
     "req_tx_data_o  = {480'd0, ~(crc_pend_q ? crc32_beat(crc_q, pay_q) : crc_q)};",
     "req_tx_data_o  = {480'd0, (crc_pend_q ? crc32_beat(crc_q, pay_q) : crc_q)};",
     "tail beat's pcrc without the final XOR"),
    ("send-pcrc-pending-lost", "rtl/send/send_unit.sv",
     "req_tx_data_o  = {480'd0, ~(crc_pend_q ? crc32_beat(crc_q, pay_q) : crc_q)};",
     "req_tx_data_o  = {480'd0, ~((crc_pend_q && 1'b0) ? crc32_beat(crc_q, pay_q) : crc_q)};",
     "the tail beat's pcrc leaves out the packet's last payload beat (still pending)"),
    ("send-xfer-id", "rtl/send/send_unit.sv",
     "w.xfer_id      = o_blk_q.xfer;", "w.xfer_id      = '0;",
     "data packets lose the sender's xfer_id"),
    # the receive unit (ICD 13)
    ("recv-pcrc-unchecked", "rtl/recv/recv_ingress.sv",
     "(s_data_q == {480'd0, ~i_crc_q});", "1'b1;",
     "a data packet is written without checking its pcrc"),
    ("recv-misrouted-accepted", "rtl/recv/recv_ingress.sv",
     "assign qh_mine = qh.hdr.dst_addr[63:48] == node_id_i;",
     "assign qh_mine = (qh.hdr.dst_addr[63:48] == node_id_i) || 1'b1;",
     "a request for another node is accepted"),
    ("recv-stale-is-newer", "rtl/common/ni_pkg.sv",
     "return (d != '0) && !d[SeqW-1];", "return (d != '0);",
     "an older seq restarts the context instead of being stale"),
    ("recv-ack-before-b", "rtl/recv/recv_ctx_table.sv",
     "assign ck_wait_o   = !ck_c.valid || ck_c.pend != '0 || !ck_done ||",
     "assign ck_wait_o   = !ck_c.valid || !ck_done ||",
     "a block is ACKed before its last write's B"),
    ("recv-pend-add-lost", "rtl/recv/recv_ctx_table.sv",
     "assign base_p1 = base_p0 + PendW'(1'b1);",
     "assign base_p1 = base_p0;",
     "a write issued with a take or a record (one write) is not counted as in flight"),
    ("recv-ctx-no-forward", "rtl/recv/recv_ctx_table.sv",
     "assign cd      = fwd_q ? fwd_dat_q : rd_raw;",
     "assign cd      = (fwd_q && 1'b0) ? fwd_dat_q : rd_raw;",
     "a context RAM write is not forwarded to the read of the same word in that cycle"),
    ("recv-lookup-stale", "rtl/recv/recv_ctx_table.sv",
     "lk_cur_q      <= desc_valid_i && !desc_pop_i && !take_i && !free_i && !reclaimed_o;",
     "lk_cur_q      <= desc_valid_i && !desc_pop_i && !take_i && !reclaimed_o;",
     "a packet is decided on a lookup made before a context was freed"),
    ("recv-key-into-live", "rtl/recv/recv_ctx_table.sv",
     "assign key_sel      = (RxContexts'(1'b1) << lk_free) & ~cv_q;",
     "assign key_sel      = (RxContexts'(1'b1) << lk_free);",
     "the head's key is written into the registered lowest free context even once it is live"),
    ("recv-slot-write-lost", "rtl/recv/recv_writer.sv",
     "            ld_slot = 1'b1;\n            nx_v_d  = 1'b0;",
     "            ld_slot = 1'b0;\n            nx_v_d  = 1'b0;",
     "the write waiting in the slot is forgotten when the current write ends"),
    ("recv-slot-any-packet", "rtl/recv/recv_proc.sv",
     "      act = (packet_act(lk_rdy_i, lk_full_i, lk_stale_i, 1'b1, lk_dup_i) == ActWrite) ?\n"
     "            ActWrite : ActNone;",
     "      act = (packet_act(lk_rdy_i, lk_full_i, lk_stale_i, 1'b1, lk_dup_i) == ActWrite) ?\n"
     "            ActWrite : packet_act(lk_rdy_i, lk_full_i, lk_stale_i, 1'b1, lk_dup_i);",
     "a dropped or duplicate data packet is decided while the writer still writes"),
    ("send-ready-ignores-held", "rtl/send/send_unit.sv",
     "assign blk_ready_o = (32'(n_blk_q) + 32'(in_valid_q)) < BlkDepth;",
     "assign blk_ready_o = 32'(n_blk_q) < BlkDepth;",
     "the block port's ready leaves out the block accepted last cycle, not yet in the table "
     "(the table takes one block more than it holds)"),
    ("send-blk-table-next", "rtl/send/send_unit.sv",
     "o_blk_d    = load_next ? tab_out_next : tab_out;",
     "o_blk_d    = (load_next && 1'b0) ? tab_out_next : tab_out;",
     "the output loads the finished block again instead of the next one"),
    ("send-share-line-lost", "rtl/send/send_unit.sv",
     "if (line_pop) last_line_q <= lb_head;", "if (line_pop && 1'b0) last_line_q <= lb_head;",
     "the last source line popped is not kept: a block that shares its first line with the "
     "previous block starts from zeros"),
    ("send-ar-4k-carry-lost", "rtl/send/send_unit.sv",
     "{ar_lo_sent[6] ? ar_hi_inc : ar_line_q[LnW-1:6], ar_lo_sent[5:0]};",
     "{(ar_lo_sent[6] && 1'b0) ? ar_hi_inc : ar_line_q[LnW-1:6], ar_lo_sent[5:0]};",
     "a burst that ends on a 4 KiB boundary: the next burst reads the same 4 KiB page again"),
    ("send-ar-cap-4k-lost", "rtl/send/send_unit.sv",
     "assign ar_cap    = (ar_line_q[5:4] == 2'b11) ?",
     "assign ar_cap    = (ar_line_q[5:4] == 2'b11 && 1'b0) ?",
     "a burst that starts in a 4 KiB page's last 16 lines runs across the boundary"),
    ("send-credit-pop-lost", "rtl/send/send_unit.sv",
     "assign credit_sent_inc = credit_sent + 1'b1;",
     "assign credit_sent_inc = credit_sent;",
     "a line leaving the buffer in the cycle a burst is requested does not return its credit"),
    ("send-run-not-contiguous", "rtl/send/send_unit.sv",
     "assign ar_joinable     = ar_active_q && tab_ar_follows &&",
     "assign ar_joinable     = ar_active_q &&",
     "the read side joins the next block's lines to the run even when they do not follow on"),
]

# The checks every mutant must fail: the random runs of set "mutants" of the test plan
# (tests/testplan.json), then every directed scenario in vectors/.
CHECKS = [testplan.run_args(r) for r in testplan.runs(testplan.load(), "mutants")]


def sh(argv, cwd=ROOT, log=None):
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if log is not None:
        log.write(f"$ {' '.join(map(str, argv))}\n{p.stdout}\n")
    return p.returncode, p.stdout


# The units' own testbenches, run after ni_sim's checks (a Catch2 binary exits nonzero when a
# test case fails).
UNIT_TBS = ["build/tests/tb_send_unit", "build/tests/tb_recv_unit", "build/tests/tb_ni_node"]


# What a mutant's scratch tree copies of the checkout: everything `make build/ni_sim` reads.
TREE = ("Makefile", "mk", "rtl", "sim", "ref_model", "scripts", "bench", "tests", "vectors")


def snapshot(log):
    """Copies the sources once (TREE), so that every mutant is built from one consistent set of
    sources even if the checkout changes while the (long) run goes on."""
    src = BUILD / "src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    for d in TREE:
        if (ROOT / d).is_dir():
            shutil.copytree(ROOT / d, src / d)
        else:
            shutil.copy2(ROOT / d, src / d)
    return src


def build(name, file, old, new, log, srcdir):
    """The scratch tree build/mutants/NAME/: the snapshot with one RTL file mutated and the
    project's venv linked in; build/ni_sim is built there by the project's own Makefile."""
    d = BUILD / name
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(srcdir, d, symlinks=True)
    os.symlink(ROOT / ".venv", d / ".venv")
    text = (d / file).read_text()
    if text.count(old) != 1:
        raise RuntimeError(f"{name}: the text to mutate occurs {text.count(old)} times in {file}")
    (d / file).write_text(text.replace(old, new))
    code, _ = sh(["make", "-s", "-j2", "--no-print-directory", "build/ni_sim"] + UNIT_TBS,
                 cwd=d, log=log)
    binary = d / "build" / "ni_sim"
    ok = code == 0 and binary.exists() and all((d / t).exists() for t in UNIT_TBS)
    return binary if ok else None


class Crash(Exception):
    pass


def killed_by(binary, log):
    """(check, first failure) of the first check that fails; raises Crash if the harness
    itself crashed (a DUT bug must give a failure report, never a crash)."""
    for args in CHECKS:
        code, out = sh([str(binary), "--quiet"] + args, log=log)
        if code < 0 or code > 2:
            raise Crash(f"{' '.join(args)}: exit status {code}")
        if code != 0:
            first = next((l for l in out.splitlines() if l.startswith("FAIL")), out.strip().splitlines()[-1:] or [""])
            return " ".join(args), first if isinstance(first, str) else first[0]
    for v in sorted(glob.glob(str(ROOT / "vectors" / "*.json"))):
        code, out = sh([str(binary), "--quiet", "--scenario", v], log=log)
        if code < 0 or code > 2:
            raise Crash(f"vector {Path(v).name}: exit status {code}")
        if code != 0:
            first = next((l for l in out.splitlines() if l.startswith("FAIL")), "")
            return f"vector {Path(v).name}", first
    for t in UNIT_TBS:
        tb = binary.parent.parent / t
        code, out = sh([str(tb)], log=log)
        if code < 0:
            raise Crash(f"{Path(t).name}: signal {-code}")
        if code != 0:
            first = next((l for l in out.splitlines() if "FAILED" in l or "test cases:" in l), "")
            return Path(t).name, first.strip()
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-k", action="append", default=[], help="only mutants whose name contains this")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--check", action="store_true",
                    help="only check that every mutant applies: its text occurs exactly once in "
                         "its file (no build, no run)")
    a = ap.parse_args()
    todo = [m for m in MUTANTS if not a.k or any(k in m[0] for k in a.k)]
    if a.list:
        for m in todo:
            print(f"{m[0]:24s} {m[4]}")
        return 0
    if a.check:
        bad = 0
        for name, file, old, new, _ in todo:
            n = (ROOT / file).read_text().count(old)
            if n != 1:
                bad += 1
                print(f"FAIL {name}: its text occurs {n} times in {file} (want exactly once)")
            elif old == new:
                bad += 1
                print(f"FAIL {name}: the mutation changes nothing")
        print(f"mutants: {len(todo) - bad} of {len(todo)} apply")
        return 1 if bad else 0
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD / "snapshot.log", "w") as log:
        src = snapshot(log)
    if src is None:
        print("mutants: could not copy the sources (see build/mutants/snapshot.log)", file=sys.stderr)
        return 2
    survived, broken, crashed = [], [], []
    t0 = time.monotonic()
    for name, file, old, new, what in todo:
        t = time.monotonic()
        with open(BUILD / f"{name}.log", "w") as log:
            binary = build(name, file, old, new, log, src)
            if binary is None:
                broken.append(name)
                print(f"BUILD FAILED {name:24s} (see build/mutants/{name}.log)", flush=True)
                continue
            try:
                k = killed_by(binary, log)
            except Crash as e:
                crashed.append(name)
                print(f"CRASHED  {name:24s} the harness crashed instead of reporting: {e}", flush=True)
                continue
        secs = time.monotonic() - t
        if k:
            print(f"KILLED   {name:24s} {secs:5.0f} s  by {k[0]}: {k[1][:110]}", flush=True)
        else:
            survived.append(name)
            print(f"SURVIVED {name:24s} {secs:5.0f} s  ({what})", flush=True)
    n = len(todo)
    print(f"{n - len(survived) - len(broken) - len(crashed)} of {n} mutants killed in {time.monotonic() - t0:.0f} s"
          + (f"; survived: {' '.join(survived)}" if survived else "")
          + (f"; harness crashed: {' '.join(crashed)}" if crashed else "")
          + (f"; failed to build: {' '.join(broken)}" if broken else ""))
    return 0 if not survived and not broken and not crashed else 1


if __name__ == "__main__":
    sys.exit(main())
