#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""RDMA Read benchmarks (ICD 16), part 6 of `make bench` (scripts/bench.py), or alone:
`.venv/bin/python scripts/bench_read.py` prints the figures as JSON.

  latency  the round trip of a small read (the issuer's channel BUSY -> DONE: request, the
           responder's allocation and segmentation, the data's return, the deferred ACK)
           beside a write of the same size (BUSY -> DONE: data out, ACK back), 2 nodes, one
           transfer at a time, network and memory latency 1: sizes 8, 64, 256, 1024 B.
  rate     the thesis's claim (4.2, chapter 5) that remote read requests fill the cycles the
           CPU's 128-bit descriptor port leaves idle: node 1's CPU writes short descriptors
           back to back while READ_REQ head beats for node 1 arrive on its req_rx one per
           cycle; the read-channel allocator's serves and the engine's transfers per cycle
           over the window, against the CPU's descriptors alone.

Every run is an ni_sim scenario checked by the golden models and the end-to-end scoreboard;
a failing run fails the benchmark.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NI_SIM = ROOT / "build" / "ni_sim"
HI = 1 << 47


def hx(v: int) -> str:
    return f"0x{v:x}"


def desc_event(at, node, ch, src, dst, size, read, page=0):
    return {"at": at, "node": node, "op": "descriptor", "page": page, "channel": ch, "kind": "tid",
            "src": hx(src), "dst": hx(dst), "size": size, "read": read, "expect_resp": "OKAY"}


def read_req_beat(to: int, frm: int, tid: int, seq: int, pd: int, src: int, local_dst: int,
                  nbytes: int) -> str:
    """A READ_REQ head beat (ICD 11, 16) as the hex string a scenario `packet` event takes."""
    hdr = (5 | tid << 4 | seq << 14 | 32 << 28 | 1 << 40 | pd << 42) | (to << 48 | src) << 64
    payload = local_dst | nbytes << 192 | 1 << 230  # last; kind 0 (TID-only), prio 0
    beat = hdr | payload << 128 | frm << 416
    b = beat.to_bytes(64, "little")
    hcrc = zlib.crc32(b[0:48] + b[52:64])
    beat |= hcrc << 384
    return "0x" + f"{beat:0128x}"


def run(sc: dict, what: str) -> list[dict]:
    with tempfile.TemporaryDirectory() as d:
        p, log = Path(d) / "sc.json", Path(d) / "log.jsonl"
        p.write_text(json.dumps(sc))
        r = subprocess.run([str(NI_SIM), "--scenario", str(p), "--log", str(log), "--quiet"],
                           cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{what}: ni_sim failed: {(r.stdout + r.stderr).strip()[-400:]}")
        return [json.loads(l) for l in log.read_text().splitlines()]


def busy_to_done(events: list[dict], node: int, page: int, ch: int) -> list[int]:
    out, start = [], None
    for e in events:
        if e["ev"] != "status" or e.get("node") != node or e["page"] != page or e["channel"] != ch:
            continue
        if e["status"] == "BUSY":
            start = e["cycle"]
        elif e["status"] == "DONE" and start is not None:
            out.append(e["cycle"] - start)
            start = None
    return out


def latency() -> dict:
    cfg = {"nodes": 2, "network": {"latency": [1, 1]},
           "memory": {"read_latency": [1, 1], "write_latency": [1, 1]}}
    ev, at, rows = [], 0, []
    sizes = (8, 64, 256, 1024)
    for i, size in enumerate(sizes):
        for rep in range(3):
            # a write from node 0 into node 1, then a read of node 1's memory, each on its
            # own channel (a DONE channel stays DONE until read)
            n = 3 * i + rep
            ev.append(desc_event(at, 0, n, 0x1000 + n * 0x1000, 1 << 48 | HI + n * 0x10000, size,
                                 False))
            at += 1500
            ev.append(desc_event(at, 0, 32 + n, 1 << 48 | 0x1000 + n * 0x1000,
                                 HI + 0x8000000 + n * 0x10000, size, True))
            at += 1500
    events = run({"format": "ni-scenario/1", "config": cfg, "events": ev}, "read latency")
    for i, size in enumerate(sizes):
        ws = sorted(busy_to_done(events, 0, 0, 3 * i + k)[0] for k in range(3))
        rs = sorted(busy_to_done(events, 0, 0, 32 + 3 * i + k)[0] for k in range(3))
        rows.append({"size": size, "write_cycles": ws[1], "read_cycles": rs[1]})
    return {"runs": rows, "note": "issuer's channel BUSY -> DONE, median of 3, 2 nodes, "
                                  "network and memory latency 1"}


def rate(n_req: int = 256, n_desc: int = 256) -> dict:
    cfg = {"nodes": 2, "network": {"latency": [1, 1]},
           "memory": {"read_latency": [1, 1], "write_latency": [1, 1]}}

    def scenario(with_reads: bool) -> dict:
        ev = []
        for i in range(n_desc):  # node 1's CPU: short write descriptors, back to back
            ev.append(desc_event(0, 1, i % 64, 0x100000 + i * 64, 0 << 48 | HI + 0x1000000 + i * 64,
                                 64, False, page=i // 64))
        if with_reads:
            for i in range(n_req):  # READ_REQ beats for node 1 from node 0, one per cycle
                ev.append({"at": 560 + i, "node": 1, "op": "packet", "port": "req_rx",
                           "beats": [read_req_beat(1, 0, 512 + i % 512, i, 1 + (i // 64) % 15,
                                                   0x200000 + i * 64, HI + 0x2000000 + i * 64, 64)]})
        return {"format": "ni-scenario/1", "config": cfg, "events": ev}

    out = {}
    for name, wr in (("cpu_only", False), ("cpu_and_reads", True)):
        events = run(scenario(wr), f"read rate ({name})")
        serves = [e["cycle"] for e in events if e["ev"] == "rreq" and e["node"] == 1
                  and e["action"] == "serve"]
        # the engine's transfers entering the queues = descriptors live + requests served;
        # blocks issued (blk handshakes) are bounded by the send unit taking them
        live = [e["cycle"] for e in events if e["ev"] == "status" and e.get("node") == 1
                and e["status"] == "BUSY"]
        blocks = [e["cycle"] for e in events if e["ev"] == "block" and e["node"] == 1]
        starts = sorted(live + serves)
        span = starts[-1] - starts[0] + 1
        # the cycles both streams were active (CPU descriptors going live, requests served)
        lo = max(min(live), min(serves)) if serves else min(live)
        hi = min(max(live), max(serves)) if serves else max(live)
        both = [c for c in starts if lo <= c <= hi]
        out[name] = {"transfers": len(starts), "cpu_descriptors": len(live),
                     "reads_served": len(serves), "window_cycles": span,
                     "transfers_per_cycle": round(len(starts) / span, 3),
                     "overlap_cycles": hi - lo + 1,
                     "transfers_per_cycle_overlap": round(len(both) / (hi - lo + 1), 3),
                     "blocks_issued": len(blocks)}
    out["note"] = ("node 1: its CPU's 256 short descriptors written back to back, and 256 "
                   "READ_REQ beats arriving one per cycle from cycle 560; transfers started "
                   "(live or served) per cycle, over the whole window and over the cycles both "
                   "streams were active")
    return out


def measure() -> dict:
    return {"latency": latency(), "rate": rate()}


def main() -> int:
    print(json.dumps(measure(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
