#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates the directed scenarios of vectors/ (ni-scenario/1, ICD section 9).

Each scenario names what it checks in its "description". Expectations are written here by
hand from the ICD, the thesis and docs/design.md: B responses ("expect_resp") and status or
register reads ("expect"); the golden model checks every block, packet and status change on
top. TIDs and sequence numbers in scripted ACKs follow from the reset state (TID FIFO
0,1,2,..., seq counter 0) and are worked out in the comments.

Run: python3 vectors/gen_vectors.py   (rewrites vectors/*.json)
"""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
KIND = {"tid": 0, "1x": 1, "4x": 2, "inline": 3}
DONE, ERROR, BUSY, IDLE = 2, 3, 1, 0
INIT = 520  # init_done_o rises at cycle 512; start traffic a little later


def hx(v):
    return f"0x{v:x}"


def ctrl(size, kind, prio=0, notify=False, long=False, last=True, rsvd=0):
    return (size | prio << 32 | KIND[kind] << 36 | int(notify) << 38 | int(long) << 39 | rsvd << 40
            | int(last) << 63)


def desc_words(kind, size, src=0, dst=0, prio=0, notify=False, payload=b"", long=None,
               notify_addr=0, notify_tag=0):
    """w0..w7 as the ICD section 4 table lays them out."""
    if long is None:
        long = (kind != "inline" and notify) or (kind == "inline" and len(payload) > 16)
    if kind == "inline":
        p = payload.ljust(32, b"\0")
        w = [int.from_bytes(p[0:8], "little"), dst, int.from_bytes(p[8:16], "little"),
             ctrl(size, kind, prio, notify, long, not long)]
        if long:
            w += [int.from_bytes(p[16:24], "little"), int.from_bytes(p[24:32], "little"), 0, 1 << 63]
    else:
        w = [src, dst, 0, ctrl(size, kind, prio, notify, long, not long)]
        if long:
            w += [notify_addr, notify_tag, 0, 1 << 63]
    return w


def waddr(page, ch, word):
    return page << 12 | ch << 5 | word << 3


class Sc:
    def __init__(self, name, description, config=None):
        self.name, self.description, self.config, self.events = name, description, config, []

    def ev(self, at, op, **kw):
        e = {"at": at, "op": op}
        e.update(kw)
        self.events.append(e)

    def desc(self, at, page, ch, kind, size, expect="OKAY", **kw):
        e = dict(page=page, channel=ch, kind=kind, size=size)
        if expect:
            e["expect_resp"] = expect
        for k in ("src", "dst", "notify_addr", "notify_tag"):
            if k in kw:
                e[k] = hx(kw[k])
        for k in ("prio", "notify", "width"):
            if k in kw:
                e[k] = kw[k]
        if "payload" in kw:
            e["payload"] = kw["payload"].hex()
        self.ev(at, "descriptor", **e)

    def word(self, at, page, ch, idx, value, expect=None):
        """One 8-byte write of word `idx` (0..7, 4..7 go to line 1 at ch+1)."""
        e = dict(addr=hx(waddr(page, ch + idx // 4, idx % 4)), size=8, data=[hx(value)])
        if expect:
            e["expect_resp"] = expect
        self.ev(at, "write", **e)

    def words16(self, at, page, ch, words, expect=None):
        """The whole descriptor as one 128-bit burst."""
        e = dict(addr=hx(waddr(page, ch, 0)), size=16, data=[hx(w) for w in words])
        if expect:
            e["expect_resp"] = expect
        self.ev(at, "write", **e)

    def status(self, at, page, ch, expect):
        self.ev(at, "read", addr=hx(1 << 16 | page << 12 | ch << 5), expect=hx(expect), expect_resp="OKAY")

    def status32(self, at, page, half, expect):
        self.ev(at, "read", addr=hx(2 << 16 | page << 12 | half << 10), expect=hx(expect), expect_resp="OKAY")

    def save(self):
        self.events.sort(key=lambda e: e["at"])  # stable: same-cycle events keep their order
        out = ['{', '  "format": "ni-scenario/1",',
               '  "description": ' + json.dumps(self.description) + ',']
        if self.config:
            out.append('  "config": ' + json.dumps(self.config) + ',')
        out.append('  "events": [')
        out += ["    " + json.dumps(e) + ("," if i + 1 < len(self.events) else "")
                for i, e in enumerate(self.events)]
        out += ["  ]", "}", ""]
        (HERE / f"{self.name}.json").write_text("\n".join(out))


def codes(chs, code):
    """32-channel read value with `code` in the listed channels of a half."""
    v = 0
    for c in chs:
        v |= code << (2 * (c % 32))
    return v


SCRIPT = {"responder": {"mode": "script"}}


def main():
    scs = []

    # ---- thesis figure 4.3 ---------------------------------------------------------------------
    s = Sc("inline_back_to_back",
           "Thesis figure 4.3 / ICD cycle figure: 64 back-to-back 8-byte inline transfers to write "
           "channels 0..63 of page 0, each written as one 2-beat 128-bit burst; all accepted, all "
           "DONE (two 32-channel reads return 0xaaaaaaaaaaaaaaaa), and the reads clear them to IDLE.")
    for ch in range(64):
        s.words16(INIT, 0, ch, desc_words("inline", 8, dst=0x0001_0000_0000_1000 + 8 * ch,
                                          payload=bytes(range(ch, ch + 8))), expect="OKAY")
    s.status32(INIT + 400, 0, 0, codes(range(32), DONE))
    s.status32(INIT + 402, 0, 1, codes(range(32), DONE))
    s.status32(INIT + 420, 0, 0, 0)
    s.status32(INIT + 422, 0, 1, 0)
    scs.append(s)

    # ---- thesis figure 3.4: legal word orders ---------------------------------------------------
    s = Sc("word_orders_legal",
           "Thesis figure 3.4, legal orders: the eight 64-bit words of a long inline descriptor may "
           "arrive in any order inside their Transfer Table line, line 1 after line 0 is complete. "
           "Also 128-bit beats carrying only one lane (WSTRB 0x00ff / 0xff00) and every permutation "
           "of one short line's four words. All accepted and DONE.")
    payload = bytes(range(0x40, 0x40 + 24))
    w = desc_words("inline", 24, dst=0x0002_0000_0000_0000, payload=payload)
    orders = [[0, 1, 2, 3, 4, 5, 6, 7], [3, 2, 1, 0, 7, 6, 5, 4], [1, 3, 0, 2, 5, 7, 4, 6],
              [2, 0, 3, 1, 6, 4, 7, 5]]
    at = INIT
    for i, order in enumerate(orders):
        for idx in order:
            s.word(at, 1, 2 * i, idx, w[idx], expect="OKAY")
            at += 1
    import itertools
    ch = 10
    for perm in itertools.permutations(range(4)):
        ws = desc_words("tid", 100 + ch, src=0x1000 * ch, dst=0x0003_0000_0000_0000 + 0x100 * ch)
        for idx in perm:
            s.word(at, 1, ch, idx, ws[idx], expect="OKAY")
            at += 1
        ch += 1
    # single-lane 128-bit beats
    ws = desc_words("tid", 64, src=0x9000, dst=0x0004_0000_0000_0040)
    for idx in (1, 0, 3, 2):
        upper = idx % 2
        s.ev(at, "write", addr=hx(waddr(1, 60, idx & 2)), size=16,
             beats=[{"lo": hx(0 if upper else ws[idx]), "hi": hx(ws[idx] if upper else 0),
                     "strb": "0xff00" if upper else "0x00ff"}], expect_resp="OKAY")
        at += 1
    s.status32(at + 300, 1, 0, codes([0, 2, 4, 6] + list(range(10, 32)), DONE))
    s.status32(at + 302, 1, 1, codes([32, 33, 60], DONE))
    scs.append(s)

    # ---- thesis figure 3.4: illegal orders -----------------------------------------------------
    s = Sc("word_orders_illegal",
           "Thesis figure 3.4, illegal orders with one accumulator set: a line-1 word written before "
           "line 0 is complete is an interleaving write and answers SLVERR (the partial line is kept; "
           "writing the word again after line 0 completes makes the transfer live); line 1 written "
           "entirely before line 0 is judged as a short descriptor and rejected (size 0), line 0 "
           "then waits, and a later line 1 completes the transfer.")
    payload = bytes(range(0x80, 0x80 + 20))
    w = desc_words("inline", 20, dst=0x0005_0000_0000_0000, payload=payload)
    at = INIT
    for idx, exp in [(0, "OKAY"), (1, "OKAY"), (4, "SLVERR"), (2, "OKAY"), (3, "OKAY"), (5, "OKAY"),
                     (6, "OKAY"), (7, "OKAY"), (4, "OKAY")]:
        s.word(at, 2, 0, idx, w[idx], expect=exp)
        at += 1
    # line 1 first: w4, w5, w6 accumulate, w7 completes the line at channel 3 -> R4 (size 0)
    for idx, exp in [(4, "OKAY"), (5, "OKAY"), (6, "OKAY"), (7, "SLVERR"), (0, "OKAY"), (1, "OKAY"),
                     (2, "OKAY"), (3, "OKAY"), (4, "OKAY"), (5, "OKAY"), (6, "OKAY"), (7, "OKAY")]:
        s.word(at, 2, 2, idx, w[idx], expect=exp)
        at += 1
    s.status(at + 300, 2, 0, DONE)
    s.status(at + 302, 2, 2, DONE)
    s.status(at + 304, 2, 3, IDLE)
    scs.append(s)

    # ---- interleaved writes ------------------------------------------------------------------
    s = Sc("interleaved_writes",
           "Interleaving with AccSets=1 (thesis 3.6.1): while channel 0's line is partly written, a "
           "word for channel 1 (and one for another page) answers SLVERR and changes nothing; channel "
           "0 completes and goes live; channel 1 written afterwards is accepted.")
    a = desc_words("tid", 0x300, src=0xA000, dst=0x0006_0000_0000_0000)
    b = desc_words("1x", 0x20000, src=0xB000, dst=0x0006_0000_0001_0000)
    at = INIT
    s.word(at, 3, 0, 0, a[0], "OKAY")
    s.word(at + 1, 3, 0, 1, a[1], "OKAY")
    s.word(at + 2, 3, 1, 0, b[0], "SLVERR")
    s.word(at + 3, 4, 0, 3, b[3], "SLVERR")
    s.word(at + 4, 3, 0, 2, a[2], "OKAY")
    s.word(at + 5, 3, 0, 3, a[3], "OKAY")
    for i in range(4):
        s.word(at + 6 + i, 3, 1, i, b[i], "OKAY")
    s.status(at + 300, 3, 0, DONE)
    s.status(at + 302, 3, 1, DONE)
    s.status(at + 304, 4, 0, IDLE)
    scs.append(s)

    # ---- thesis 3.8 multipath TIDs -----------------------------------------------------------
    s = Sc("multipath_tids",
           "Thesis 3.8: right after reset a 16-block multipath (4xFID) transfer gets base FID 192 and "
           "issues TIDs 768,772,776,780,769,...,783 (the model checks every block's TID and FID); a "
           "unipath (1xFID) 8-block transfer gets FID 128 and cycles TIDs 512,513,514,515,512,...; "
           "TID-only blocks take TIDs 0,1,2,... in FIFO order.")
    s.desc(INIT, 5, 0, "4x", 16 * 65536, src=0x10_0000_0000, dst=0x0007_0000_0000_0000)
    s.desc(INIT + 2, 5, 2, "1x", 8 * 65536, src=0x20_0000_0000, dst=0x0007_0001_0000_0000)
    s.desc(INIT + 4, 5, 4, "tid", 3 * 65536, src=0x30_0000_0000, dst=0x0007_0002_0000_0000)
    s.status(INIT + 600, 5, 0, DONE)
    s.status(INIT + 602, 5, 2, DONE)
    s.status(INIT + 604, 5, 4, DONE)
    scs.append(s)

    # ---- notification, last block acknowledged first ----------------------------------------
    s = Sc("notify_last_ack_first",
           "Completion notification when the last block's ACK arrives first (ICD 5, thesis 3.11): "
           "transfer A (2 blocks, TIDs 0/1, seqs 0/1) and B (3 blocks) with notify; the responder "
           "answers by script. A: ACK of block 1 (the last) first -> total-1 ACKs with the last block "
           "issued -> control packet (TID 1, seq 1), status still BUSY; ACK of block 0 -> DONE. "
           "B: blocks 0,1 (TIDs 2,3, seqs 2,3); ACK block 0 -> block 2 (TID 4, seq 4) issued; ACK "
           "block 2 (last) first -> control packet (TID 4, seq 4); ACK block 1 -> DONE.",
           config=SCRIPT)
    # A: page 6 channel 0, dst block-aligned, size 64K+1 -> 2 blocks
    s.desc(INIT, 6, 0, "tid", 65537, src=0xA_0000, dst=0x0008_0000_0000_0000, notify=True,
           notify_addr=0xFEED_0000, notify_tag=0xC0FFEE)
    s.ev(INIT + 60, "ack", tid=1, seq=1, nack=False)
    s.status(INIT + 80, 6, 0, BUSY)
    s.ev(INIT + 100, "ack", tid=0, seq=0, nack=False)
    s.status(INIT + 120, 6, 0, DONE)
    # B: page 6 channel 2, 3 blocks
    s.desc(INIT + 200, 6, 2, "tid", 3 * 65536, src=0xB_0000, dst=0x0008_0001_0000_0000, notify=True,
           notify_addr=0xFEED_1000, notify_tag=0xBEEF)
    s.ev(INIT + 260, "ack", tid=2, seq=2, nack=False)
    s.ev(INIT + 300, "ack", tid=4, seq=4, nack=False)
    s.status(INIT + 320, 6, 2, BUSY)
    s.ev(INIT + 340, "ack", tid=3, seq=3, nack=False)
    s.status(INIT + 360, 6, 2, DONE)
    scs.append(s)

    # ---- collective status polling -----------------------------------------------------------
    s = Sc("collective_polling",
           "Collective status polling (thesis 3.4, ICD 3): transfers on page 7 channels 0..3 and "
           "33; channel 2's block is NACKed with MaxRetries 0 (ICD 14: no re-issue, ERROR), channel "
           "3's is never acknowledged (stays BUSY, the timeout is off). "
           "A 32-channel read reports every code (2 bits per channel) and clears only DONE/ERROR; a "
           "second read shows them IDLE and channel 3 still BUSY; single reads clear one channel.",
           config=SCRIPT)
    # TIDs 0..3 and seqs 0..3 in write order (all TID-only, one block each)
    for ch in range(4):
        s.desc(INIT + 2 * ch, 7, ch, "tid", 100, src=0x1000 * ch, dst=0x0009_0000_0000_0000 + 0x1000 * ch)
    s.desc(INIT + 8, 7, 33, "tid", 100, src=0x9999, dst=0x0009_0000_1000_0000)  # TID 4, seq 4
    # MaxRetries (control register word 1, ICD 14) = 0, written after the descriptors
    s.ev(INIT + 40, "write", addr=hx(4 << 16 | 1 << 4), size=8, data=[hx(0)], expect_resp="OKAY")
    s.ev(INIT + 60, "ack", tid=0, seq=0, nack=False)
    s.ev(INIT + 61, "ack", tid=1, seq=1, nack=False)
    s.ev(INIT + 62, "ack", tid=2, seq=2, nack=True)
    s.ev(INIT + 63, "ack", tid=4, seq=4, nack=False)
    s.status32(INIT + 100, 7, 0, codes([0, 1], DONE) | codes([2], ERROR) | codes([3], BUSY))
    s.status32(INIT + 102, 7, 0, codes([3], BUSY))
    s.status(INIT + 104, 7, 33, DONE)
    s.status(INIT + 106, 7, 33, IDLE)
    s.ev(INIT + 110, "ack", tid=3, seq=3, nack=False)
    s.status32(INIT + 130, 7, 0, codes([3], DONE))
    scs.append(s)

    # ---- every SLVERR rule ---------------------------------------------------------------------
    s = Sc("slverr_rules",
           "Every rejection rule of ICD section 4 (docs/design.md R1..R10) and the AXI rules of "
           "design.md section 3, each answered SLVERR with the channel unchanged; a legal descriptor "
           "on the same channel afterwards is accepted. R3 holds a long transfer on channel 20 BUSY "
           "(its ACK is withheld) while channel 21 is written.",
           config=SCRIPT)
    P = 8
    at = INIT
    good = lambda ch: desc_words("tid", 256, src=0x5000 + ch, dst=0x000A_0000_0000_0000 + 0x1000 * ch)

    def bad(ch, words, note):
        nonlocal at
        s.words16(at, P, ch, words, expect="SLVERR")
        s.events[-1]["comment"] = note
        at += 4

    def legal(ch):
        nonlocal at
        s.words16(at, P, ch, good(ch), expect="OKAY")
        at += 4

    # R1: read channel
    s.words16(at, P, 70, good(70), expect="SLVERR")
    s.events[-1]["comment"] = "R1: channel 70 is a read channel"
    at += 4
    # R2: channel not IDLE (channel 0 is made live first and its ACK withheld: TID 0, seq 0)
    legal(0)
    bad(0, good(0), "R2: channel 0 is BUSY")
    w = good(1); w[3] &= ~0xFFFFFFFF
    bad(1, w, "R4: size 0")
    bad(2, desc_words("inline", 17, dst=0x000A_0000_0000_2000, payload=bytes(17), long=False),
        "R5: inline of 17 bytes in a short descriptor")
    w = desc_words("tid", 256, src=1, dst=0x000A_0000_0000_3000, notify=True, long=False)
    bad(3, w, "R6: memory transfer with notify but not long")
    bad(5, desc_words("tid", 256, src=1, dst=0x000A_0000_0000_5000, notify=True, notify_addr=1), "R7: long on odd channel 5 (its line 1 lands on channel 6 and is rejected as size 0)")
    w = good(7); w[3] &= ~(1 << 63)
    bad(7, w, "R8: short descriptor without last")
    w = desc_words("tid", 256, src=1, dst=0x000A_FFFF_FFFF_FF01)
    bad(8, w, "R9: dst_addr[47:0] + size crosses 2^48")
    w = good(9); w[3] |= 1 << 50
    bad(9, w, "R10: reserved control bit 50")
    w = good(10); w[2] = 1
    bad(10, w, "R10: w2 of a memory descriptor is reserved")
    # R3: long transfer on 20 (TID 1, seq 1 -- after channel 0's TID 0), kept BUSY
    s.words16(at, P, 20, desc_words("tid", 512, src=0x2000, dst=0x000A_0000_0001_0000, notify=True,
                                    notify_addr=0xAA, notify_tag=0xBB), expect="OKAY")
    at += 6
    bad(21, good(21), "R3: channel 21 while the long transfer on 20 is BUSY")
    # AXI-level rules (every beat dropped)
    s.ev(at, "write", addr=hx(waddr(P, 22, 0)), size=16, data=[hx(x) for x in good(22)], burst="FIXED",
         expect_resp="SLVERR", comment="AXI: AWBURST FIXED")
    s.ev(at + 4, "write", addr=hx(waddr(P, 22, 0)), size=16, data=[hx(x) for x in good(22)], burst="WRAP",
         expect_resp="SLVERR", comment="AXI: AWBURST WRAP")
    s.ev(at + 8, "write", addr=hx(waddr(P, 22, 0)), size=4,
         beats=[{"lo": "0x1", "hi": "0x0", "strb": "0x000f"}], expect_resp="SLVERR",
         comment="AXI: AWSIZE 2 (4-byte beats)")
    s.ev(at + 12, "write", addr=hx(waddr(P, 22, 0) + 4), size=8, data=["0x1"], expect_resp="SLVERR",
         comment="AXI: address not 8-byte aligned")
    s.ev(at + 16, "write", addr=hx(waddr(P, 22, 0)), size=16, beats=[{"lo": "0x1", "hi": "0x2", "strb": "0x0ff0"}],
         expect_resp="SLVERR", comment="AXI: WSTRB not all-ones over a word")
    s.ev(at + 20, "write", addr=hx(waddr(P, 22, 0)), size=8, beats=[{"lo": "0x1", "hi": "0x2", "strb": "0xff00"}],
         expect_resp="SLVERR", comment="AXI: WSTRB outside the 8-byte beat's lane")
    s.ev(at + 24, "write", addr=hx(waddr(P, 22, 0)), size=16, beats=[{"lo": "0x1", "hi": "0x2", "strb": "0xffff", "last": False}],
         expect_resp="SLVERR", comment="AXI: WLAST missing on the last beat")
    s.ev(at + 28, "write", addr=hx(1 << 16 | P << 12), size=16, data=["0x1", "0x2"], expect_resp="SLVERR",
         comment="AXI: write to the status region (read-only)")
    s.ev(at + 32, "write", addr=hx(3 << 16), size=16, data=["0x1", "0x2"], expect_resp="SLVERR",
         comment="AXI: write to the statistics region (read-only)")
    s.ev(at + 36, "write", addr=hx(4 << 16 | 0x20), size=8, data=["0x7"], expect_resp="SLVERR",
         comment="AXI: control register word that does not exist")
    at += 44
    # Release channel 0 (TID 0, seq 0) and channel 20 (TID 1, seq 1), then let the automatic
    # responder acknowledge the legal descriptors written next (TIDs 2.. in order).
    s.ev(at, "responder", mode="auto", latency=[1, 4])
    s.ev(at, "ack", tid=0, seq=0, nack=False)
    s.ev(at + 1, "ack", tid=1, seq=1, nack=False)
    at += 20
    for ch in (1, 2, 3, 5, 7, 8, 9, 10, 21, 22):
        legal(ch)
    s.status32(at + 200, P, 0, codes([0, 1, 2, 3, 5, 7, 8, 9, 10, 20, 21, 22], DONE))
    s.ev(at + 204, "read", addr=hx(2 << 16 | P << 12 | 1 << 10), expect="0x0", expect_resp="OKAY",
         comment="channels 32..63 untouched")
    scs.append(s)

    # ---- destination at the top of memory -----------------------------------------------------
    s = Sc("dst_top_of_memory",
           "R9 edge: a transfer whose last byte is at 2^48-1 is accepted (dst_addr[47:0] + size = "
           "2^48 does not cross), one byte more is rejected; the destination node in dst[63:48] is "
           "not part of the check.")
    s.desc(INIT, 9, 0, "tid", 0x30000, src=0x100, dst=0xABCD_FFFF_FFFD_0000, expect="OKAY")
    s.desc(INIT + 4, 9, 1, "tid", 0x30001, src=0x100, dst=0xABCD_FFFF_FFFD_0000, expect="SLVERR")
    s.desc(INIT + 8, 9, 2, "inline", 8, dst=0x0000_FFFF_FFFF_FFF8, payload=bytes(8), expect="OKAY")
    s.desc(INIT + 12, 9, 3, "inline", 8, dst=0x0000_FFFF_FFFF_FFF9, payload=bytes(8), expect="SLVERR")
    s.status32(INIT + 300, 9, 0, codes([0, 2], DONE))
    scs.append(s)

    # ---- control registers and statistics ---------------------------------------------------------
    s = Sc("registers",
           "Region 4 control registers (docs/design.md 3): retransmission timeout resets to 0 and "
           "MaxRetries to 3, both writable and read back; statistics counters (ICD 8) count one "
           "accepted descriptor, one rejected write, one inline packet, one ACK and one DONE, and "
           "reads do not clear them; an illegal read (ARLEN 1) answers SLVERR on both beats.")
    s.ev(INIT, "read", addr="0x40000", expect="0x0", expect_resp="OKAY")
    s.ev(INIT + 2, "read", addr="0x40010", expect="0x3", expect_resp="OKAY")
    s.ev(INIT + 4, "write", addr="0x40000", size=8, data=["0x1234"], expect_resp="OKAY")
    s.ev(INIT + 5, "write", addr="0x40010", size=8, data=["0x7"], expect_resp="OKAY")
    s.ev(INIT + 10, "read", addr="0x40000", expect="0x1234", expect_resp="OKAY")
    s.ev(INIT + 12, "read", addr="0x40010", expect="0x7", expect_resp="OKAY")
    s.desc(INIT + 14, 10, 0, "inline", 4, dst=0x1_0000, payload=b"\x01\x02\x03\x04")
    s.desc(INIT + 18, 10, 1, "inline", 0, dst=0x1_0000, expect="SLVERR")
    for i, v in [(0, 1), (1, 1), (2, 0), (3, 1), (4, 0), (5, 1), (6, 0), (7, 0), (8, 0), (9, 1), (10, 0)]:
        s.ev(INIT + 100 + 2 * i, "read", addr=hx(3 << 16 | i << 4), expect=hx(v), expect_resp="OKAY")
    s.ev(INIT + 130, "read", addr=hx(3 << 16 | 0 << 4), expect="0x1", expect_resp="OKAY")
    s.ev(INIT + 132, "read", addr=hx(3 << 16 | 20 << 4), expect="0x0", expect_resp="OKAY")
    s.ev(INIT + 134, "read", addr=hx(1 << 16), len=1, expect="0x0", expect_resp="SLVERR")
    scs.append(s)

    # ---- retransmission: a timeout exactly at its boundary (ICD 14, design.md 8.1) -------------
    s = Sc("retx_timeout_boundary",
           "Timeout FSM (ICD 14, design.md 8.1): the block of a TID-only transfer (TID 0, seq 0) "
           "leaves on blk in cycle 527 and is never acknowledged. The FSM decides on TID 0 in "
           "cycles 1025, 2049, 3073, ...; with timeout 1522, in cycle 2049 it has been out exactly "
           "1522 cycles, not longer, so the timeout comes in 3073 and the re-issue (TID 0, seq 1, "
           "retx) leaves in 3077. Its ACK completes the transfer; a late ACK to seq 0 is dropped. "
           "Counters 7, 8 and 13 read 1. Then a timeout racing an ACK: the block of a second "
           "transfer (TID 1, seq 2) leaves in 3303; its timeout event in 5122 takes the Message "
           "Handler ahead of the ACK offered in that cycle, which is taken in 5123, still valid "
           "(same seq): it resolves the block and cancels the pending re-issue (nothing more "
           "leaves). Counter 13 reads 2, counter 8 still 1.",
           config=SCRIPT)
    s.ev(INIT, "write", addr=hx(4 << 16 | 0 << 4), size=8, data=[hx(1522)], expect_resp="OKAY")
    s.desc(INIT + 4, 11, 0, "tid", 100, src=0, dst=0x000A_0000_0000_0000)
    s.ev(3100, "ack", tid=0, seq=1, nack=False)
    s.ev(3110, "ack", tid=0, seq=0, nack=False)
    s.status(3150, 11, 0, DONE)
    for i in (7, 8, 13):
        s.ev(3160 + 2 * i, "read", addr=hx(3 << 16 | i << 4), expect="0x1", expect_resp="OKAY")
    s.desc(3300, 11, 1, "tid", 100, src=0x1000, dst=0x000A_0000_0001_0000)
    s.ev(5122, "ack", tid=1, seq=2, nack=False)
    s.status(5200, 11, 1, DONE)
    for i, v in ((8, 1), (13, 2)):
        s.ev(5210 + 2 * i, "read", addr=hx(3 << 16 | i << 4), expect=hx(v), expect_resp="OKAY")
    scs.append(s)

    # ---- retransmission: a stale response meets its block's re-issue (design.md 8.1, 9) -------
    s = Sc("retx_reissue_meets_ack",
           "A NACK re-issues a block five cycles later; an ACK to the block's old seq follows the "
           "NACK by 3, 4 or 5 cycles (three TID-only transfers, TIDs 0-2). 3 cycles: the ACK is "
           "checked before the re-issue is written, resolves the block and cancels the request "
           "(nothing more leaves). 4 cycles: the Message Handler checks it in the very cycle "
           "the segmenter writes the re-issue (TID 1, seq 2, retx): the new seq makes it stale, "
           "dropped. 5 cycles: checked against the re-issue written the cycle before: dropped. "
           "The ACKs to the re-issues' seqs complete the transfers. Counters 7 (dropped "
           "responses) and 8 (re-issues) read 2.",
           config=SCRIPT)
    for i, (d, seq0) in enumerate(((3, 0), (4, 1), (5, 3))):
        base = 300 * i
        s.desc(INIT + 4 + base, 12, i, "tid", 100, src=0x1000 * i, dst=0x000A_0002_0000_0000 + 0x1000 * i)
        s.ev(600 + base, "ack", tid=i, seq=seq0, nack=True)
        s.ev(600 + base + d, "ack", tid=i, seq=seq0, nack=False)
        if i:
            s.ev(700 + base, "ack", tid=i, seq=seq0 + 1, nack=False)
        s.status(750 + base, 12, i, DONE)
    for i in (7, 8):
        s.ev(1400 + 2 * i, "read", addr=hx(3 << 16 | i << 4), expect="0x2", expect_resp="OKAY")
    scs.append(s)

    # ---- retransmission: a re-issue request waiting in stage 2a whose block resolves ---------
    # (design.md 20). W (TID 0) completes first, so X takes TID 1: a pending flag that followed
    # TID 0's clears instead of its own would survive the resolve.
    s = Sc("retx_reissue_held_resolved",
           "W (TID 0) completes; X (TID 1, seq 1) leaves; blk_ready goes low, so Y's block (TID "
           "2) waits in stage 3 and Z's (TID 3) in stage 2b. X's block is NACKed: its re-issue "
           "request waits in stage 2a behind Z. An ACK to X's old seq resolves the block there "
           "and cancels the request; when blk_ready returns, Y and Z leave (seqs 2, 3) and no "
           "re-issue follows. Counters 7 (dropped responses) and 8 (re-issues) read 0, 2 "
           "(ACKs) reads 4.",
           config=SCRIPT)
    s.desc(INIT + 4, 13, 0, "tid", 100, src=0x3000, dst=0x000A_0003_0000_0000)
    s.ev(600, "ack", tid=0, seq=0, nack=False)
    s.status(650, 13, 0, DONE)
    s.desc(700, 13, 1, "tid", 100, src=0x0, dst=0x000A_0003_0000_1000)
    s.ev(800, "stall", port="blk", cycles=150)
    s.desc(804, 13, 2, "tid", 100, src=0x1000, dst=0x000A_0003_0000_2000)
    s.desc(840, 13, 3, "tid", 100, src=0x2000, dst=0x000A_0003_0000_3000)
    s.ev(900, "ack", tid=1, seq=1, nack=True)
    s.ev(910, "ack", tid=1, seq=1, nack=False)
    s.ev(1000, "ack", tid=2, seq=2, nack=False)
    s.ev(1001, "ack", tid=3, seq=3, nack=False)
    for ch in (1, 2, 3):
        s.status(1050 + 2 * ch, 13, ch, DONE)
    for i, v in ((2, 4), (7, 0), (8, 0)):
        s.ev(1100 + 2 * i, "read", addr=hx(3 << 16 | i << 4), expect=hx(v), expect_resp="OKAY")
    scs.append(s)

    # ---- rule R3 in the cycles around the finish of the pair's long descriptor ---------------
    # (design.md 20: the finish is written behind; the lookup must see it the cycle after)
    s = Sc("r3_pair_finish_edge",
           "Rule R3 as a long descriptor's channel finishes. On each of pages 0-5 a long inline "
           "descriptor on channel 4 is ACKed at cycle A = 700 + 300 p and a TID-only descriptor "
           "on the odd channel 5 starts at A + d (its line completes in that cycle), d = 0, 1, "
           "2, 3, 1, 2. The handler finishes channel 4 in A + 1 and its DONE is seen from A + 2 "
           "on: a line completing at A or A + 1 is refused (SLVERR: the pair still holds a live "
           "long descriptor), from A + 2 on it is accepted (OKAY) and completes. A + 2 is the "
           "cycle the finish is written behind in (design.md 20).",
           config=SCRIPT)
    payload = bytes(range(0x60, 0x60 + 24))
    nxt = 0  # the next TID and seq: one packet or block per transfer, no re-issue
    for p, d in enumerate((0, 1, 2, 3, 1, 2)):
        base = 300 * p
        s.words16(INIT + 4 + base, p, 4,
                  desc_words("inline", 24, dst=0x000B_0000_0000_0000 + 0x100 * p, payload=payload),
                  expect="OKAY")
        s.ev(700 + base, "ack", tid=nxt, seq=nxt, nack=False)
        nxt += 1
        ok = d >= 2
        s.desc(700 + base + d, p, 5, "tid", 64, expect="OKAY" if ok else "SLVERR",
               src=0x1000 * p, dst=0x000B_0000_0001_0000 + 0x100 * p)
        if ok:
            s.ev(800 + base, "ack", tid=nxt, seq=nxt, nack=False)
            nxt += 1
        s.status(850 + base, p, 4, DONE)
        s.status(852 + base, p, 5, DONE if ok else IDLE)
    scs.append(s)

    for sc in scs:
        sc.save()
        print(f"wrote vectors/{sc.name}.json ({len(sc.events)} events)")


if __name__ == "__main__":
    main()
