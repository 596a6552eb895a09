#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates the directed scenarios vectors/cov_*.json: stimulus for the functional-coverage
bins (sim/coverage.cpp) that random traffic does not reach on its own.

Like vectors/gen_vectors.py (whose helpers it uses), every scenario says what it does in its
"description"; B responses carry "expect_resp" written from the ICD and docs/design.md, and
the golden model checks everything else. `make test` replays every vectors/*.json.

Run: python3 vectors/gen_coverage_vectors.py   (rewrites vectors/cov_*.json)
"""
from gen_vectors import INIT, Sc, desc_words, hx, waddr

BLOCK = 65536
LAST = 1 << 63


def main():
    scs = []

    # ---- descriptor shapes the random CPU does not make --------------------------------------
    s = Sc("cov_descriptor_edges",
           "Coverage: memory descriptors written long without notify (legal: only notify needs "
           "long), transfers whose first block is 1 byte (dst % 65536 = 65535), whose last block "
           "is 65535 bytes, and sizes above 1 MiB (1 MiB + 1 and 2 MB: 17 and 31 blocks), for each "
           "memory kind; a 128-bit write whose only beat has WSTRB 0 (legal, does nothing); a line "
           "whose word 0 is written twice before the line completes (the second value counts). "
           "All accepted and DONE.")
    at = INIT
    ch = 0
    for kind in ("tid", "1x", "4x"):
        # long, no notify: w4..w7 = notification address, tag (unused), 0, last
        s.ev(at, "descriptor", page=2, channel=ch, kind=kind, src=hx(0x1000), dst=hx(0x2_0000),
             size=3 * BLOCK, prio=3, long="long", expect_resp="OKAY")
        s.desc(at + 1, 2, ch + 2, kind, 100, src=0x5000, dst=0x0003_0000_0001_FFFF, prio=5)
        s.desc(at + 2, 2, ch + 3, kind, BLOCK + BLOCK - 1, src=0x9000, dst=0x0004_0000_0010_0000)
        s.desc(at + 3, 2, ch + 4, kind, (1 << 20) + 1, src=0x10000, dst=0x0005_0000_0020_0000, width=8)
        s.desc(at + 4, 2, ch + 5, kind, 2_000_000, src=0x20000, dst=0x0006_0000_0040_1234)
        at += 40
        ch += 8
    # an empty beat (no lane strobed) and a word written twice
    s.ev(at, "write", addr=hx(waddr(3, 0, 0)), size=16, beats=[{"lo": "0x0", "hi": "0x0", "strb": 0}],
         expect_resp="OKAY")
    w = desc_words("tid", 64, src=0x7000, dst=0x8000)
    s.word(at + 2, 3, 1, 0, 0xDEAD_BEEF, expect="OKAY")
    for i in range(4):
        s.word(at + 3 + i, 3, 1, i, w[i], expect="OKAY")
    scs.append(s)

    # ---- line 1 rules and pending long descriptors ---------------------------------------------
    s = Sc("cov_line1_rules",
           "Coverage: rules that judge line 1 of a long descriptor (docs/design.md 3): R2 (the odd "
           "channel is not IDLE: it holds a DONE short descriptor), R8 (w7 without last) and R10 "
           "(w6 nonzero; w7 reserved bits) each answer SLVERR and leave the pending line 0; a "
           "pending long descriptor abandoned by a newer line 0 in the same accumulator set (its "
           "line 1 is then judged as a first line: size 0, SLVERR) and one cancelled by a short "
           "descriptor written over its line 0 (which goes live).")
    p, at = 4, INIT
    # R2: channel 3 holds a finished short descriptor (DONE until read)
    s.desc(at, p, 3, "inline", 8, dst=0x100, payload=bytes(range(8)))
    lw = desc_words("tid", 1000, src=0x1000, dst=0x2000, notify=True, notify_addr=0xA0, notify_tag=0xB0)
    s.words16(at + 60, p, 2, lw[:4], expect="OKAY")                     # line 0 accepted, pending
    s.ev(at + 62, "write", addr=hx(waddr(p, 3, 0)), size=16, data=[hx(v) for v in lw[4:]],
         expect_resp="SLVERR")                                          # line 1: R2
    # R8: w7 without last
    s.words16(at + 70, p, 4, lw[:4], expect="OKAY")
    s.ev(at + 72, "write", addr=hx(waddr(p, 5, 0)), size=16, data=[hx(v) for v in lw[4:7] + [0]],
         expect_resp="SLVERR")
    # R10: w6 nonzero, then w7 with a reserved bit
    s.words16(at + 80, p, 6, lw[:4], expect="OKAY")
    s.ev(at + 82, "write", addr=hx(waddr(p, 7, 0)), size=16, data=[hx(v) for v in lw[4:6] + [1, LAST]],
         expect_resp="SLVERR")
    s.ev(at + 84, "write", addr=hx(waddr(p, 7, 0)), size=16, data=[hx(v) for v in lw[4:6] + [0, LAST | 1 << 7]],
         expect_resp="SLVERR")
    # the line 0 at channel 6 is still pending: its correct line 1 makes it live
    s.ev(at + 86, "write", addr=hx(waddr(p, 7, 0)), size=16, data=[hx(v) for v in lw[4:]],
         expect_resp="OKAY")
    # abandoned: line 0 at 10, then line 0 at 12; line 1 at 11 is a first line (size 0)
    s.words16(at + 100, p, 10, lw[:4], expect="OKAY")
    s.words16(at + 102, p, 12, lw[:4], expect="OKAY")
    s.ev(at + 104, "write", addr=hx(waddr(p, 11, 0)), size=16, data=[hx(v) for v in lw[4:]],
         expect_resp="SLVERR")
    s.ev(at + 106, "write", addr=hx(waddr(p, 13, 0)), size=16, data=[hx(v) for v in lw[4:]],
         expect_resp="OKAY")
    # cancelled: line 0 of a long at 14, then a short descriptor at 14
    s.words16(at + 120, p, 14, lw[:4], expect="OKAY")
    s.desc(at + 122, p, 14, "1x", 5000, src=0x3000, dst=0x4000)
    scs.append(s)

    # ---- a deep control queue ------------------------------------------------------------------
    n = 100
    s = Sc("cov_control_queue_deep",
           f"Coverage: {n} two-block TID-only transfers with notify all park NEED_CTRL (each last "
           "block leaves while the first is unacknowledged: the responder waits 2000+ cycles); the "
           "packet port is stalled and 17 inline transfers fill the packet queue, so stage 2 holds "
           "on a packet; when the first ACK of each transfer arrives the Message Handler wakes it "
           f"into the control queue, which grows to {n} entries before the stall ends. All DONE.",
           config={"responder": {"latency": [2000, 2600], "reorder_window": 4}})
    s.ev(INIT, "stall", port="pkt", cycles=4000)
    for i in range(n):
        page, ch = 5 + i // 32, 2 * (i % 32)
        s.desc(INIT + 1 + i, page, ch, "tid", BLOCK + 4096, src=0x10_0000 * i, dst=0x0001_0000_0000_0000 + BLOCK * 4 * i,
               notify=True, notify_addr=0x5000 + i, notify_tag=i)
    for i in range(17):
        s.desc(INIT + 1 + n + i, 9, 2 * i, "inline", 8, dst=0x900 + i, payload=bytes([i] * 8))
    scs.append(s)

    # ---- AXI IDs, ignored address bits, register values ------------------------------------------
    s = Sc("cov_axi_ids_addr",
           "Coverage (toggle): every AWID and ARID value 0..15 (B and R responses carry the ID of "
           "their transaction); addresses with bits 31:20 set, which the engine ignores (ICD 3): "
           "descriptors and status/statistics reads land where addr[19:0] says; the control "
           "registers written with all ones and read back, then restored (0 and 3).")
    at = INIT
    for i in range(16):
        page, ch = 12, 2 * i
        upper = (0xABC00000 if i % 2 else 0x5430_0000) & ~0xFFFFF
        w = desc_words("inline", 8, dst=0x1000 + i, payload=bytes([i] * 8))
        s.ev(at + 3 * i, "write", addr=hx(upper | waddr(page, ch, 0)), size=16, data=[hx(v) for v in w],
             id=i, expect_resp="OKAY")
    for i in range(16):
        upper = 0xFFF0_0000 if i % 2 else 0x0010_0000 << (i % 12)
        s.ev(at + 100 + 2 * i, "read", addr=hx((upper & 0xFFF00000) | 3 << 16 | (i % 13) << 4), id=i,
             expect_resp="OKAY")
    # status of the 16 inline transfers (all DONE by now), read through upper-bit aliases
    s.ev(at + 200, "read", addr=hx(0x8000_0000 | 2 << 16 | 12 << 12), id=5,
         expect=hx(sum(2 << (4 * i) for i in range(16))), expect_resp="OKAY")
    for k, (reg, val) in enumerate(((0x40000, (1 << 64) - 1), (0x40010, (1 << 64) - 1), (0x40000, 0),
                                    (0x40010, 3))):
        s.ev(at + 210 + 20 * k, "write", addr=hx(0x7FF0_0000 | reg), size=8, data=[hx(val)], id=9,
             expect_resp="OKAY")
        s.ev(at + 220 + 20 * k, "read", addr=hx(reg), id=10, expect=hx(val), expect_resp="OKAY")
    scs.append(s)

    for sc in scs:
        sc.save()
        print(f"wrote vectors/{sc.name}.json ({len(sc.events)} events)")


if __name__ == "__main__":
    main()
