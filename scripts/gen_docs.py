#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate the results pages of the documentation from the measured data (what `make docs`
runs; standard library only):

  bench/results.json  (make bench, scripts/bench.py)  -> docs/results/performance.md
  synth/report.json   (make synth, scripts/synth.py)  -> docs/results/synthesis.md, and the
                                                         table of README.md's Synthesis section
                                                         (between its two SYNTH_TABLE markers)

Each page is stamped with the commit that last changed its data file and that commit's date
(`git log -1 -- FILE`), so the same data always gives the same page: tests/docs/test_docs.py
regenerates both into a temporary directory and fails when a committed page differs. After
`make bench` or `make synth`: commit the data, then `make docs`, then commit the pages (the
stamp names the data's commit, which exists only once the data is committed).

A key missing from the data is written as "not measured"; the script never fails on a
missing key (a data file that is missing altogether gives a page that says so).

usage: gen_docs.py [--out DIR] [--readme FILE]   (defaults docs/results, README.md)
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = "bench/results.json"
SYNTH = "synth/report.json"
NA = "not measured"


# ------------------------------------------------------------------------------------------
# Helpers
# ------------------------------------------------------------------------------------------
def get(d, *path, default=None):
    """d[path[0]][path[1]]..., or default where a key or index is missing."""
    for k in path:
        try:
            d = d[k]
        except (KeyError, IndexError, TypeError):
            return default
        if d is None:
            return default
    return d


def dct(d, *path) -> dict:
    v = get(d, *path)
    return v if isinstance(v, dict) else {}


def lst(d, *path) -> list:
    """The dicts of the list at path ([] when it is missing or not a list)."""
    v = get(d, *path)
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def strs(d, *path) -> list[str]:
    v = get(d, *path)
    return [str(x) for x in v] if isinstance(v, list) else []


def fl(d, *path):
    """The number at path, or None."""
    v = get(d, *path)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def num(x, digits: int = 0, unit: str = "") -> str:
    """A number with thousands separators, or NA."""
    if x is None or isinstance(x, bool) or not isinstance(x, (int, float)):
        return NA
    s = f"{x:,.{digits}f}" if digits or isinstance(x, float) else f"{x:,}"
    return s + (f" {unit}" if unit else "")


def load_avg(x) -> str:
    """A load-average triple (1, 5, 15 minutes)."""
    if not isinstance(x, list) or not x:
        return NA
    return " / ".join(num(v, 2) for v in x) + " (1 / 5 / 15 min)"


def khz(cps) -> str:
    return num(cps / 1000.0, 1) if isinstance(cps, (int, float)) else NA


def ratio(x) -> str:
    return "x" + num(x, 2) if isinstance(x, (int, float)) else NA


def pct(x, digits: int = 1) -> str:
    return NA if not isinstance(x, (int, float)) else f"{100.0 * x:.{digits}f} %"


def size(v) -> str:
    if not isinstance(v, int):
        return NA
    for unit, n in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if v >= n and v % n == 0:
            return f"{v // n} {unit}"
    return f"{v} B"


def minutes(seconds) -> str:
    return num(seconds / 60.0, 1, "min") if isinstance(seconds, (int, float)) else NA


def table(header: list[str], rows: list[list[str]], align: str = "") -> list[str]:
    """A Markdown table; align: one letter per column, l or r (default l)."""
    sep = ["---:" if (align[i:i + 1] == "r") else "---" for i in range(len(header))]
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def git(*args: str) -> str:
    try:
        p = subprocess.run(["git", *args], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return p.stdout.strip() if p.returncode == 0 else ""


def stamp(path: str) -> str:
    """`commit (date)` of the last commit that changed `path`, and whether it has uncommitted
    changes."""
    info = git("log", "-1", "--format=%h %cs", "--", path)
    if not info:
        where = "no commit of this file found (not a git checkout, or the file is not committed)"
    else:
        h, date = info.split(" ", 1)
        where = f"commit {h} of {date}"
    if git("status", "--porcelain", "--", path):
        where += ", with uncommitted changes"
    return where


def load(path: str):
    try:
        return json.loads((ROOT / path).read_text())
    except (OSError, ValueError):
        return None


def header(title: str, data_path: str, how: str, data) -> list[str]:
    lines = [f"# {title}", "",
             f"<!-- Generated by scripts/gen_docs.py from {data_path}: do not edit; run "
             f"`make docs`. -->", "",
             f"Generated from [`{data_path}`](../../{data_path}) ({stamp(data_path)}), which "
             f"{how}. `make docs` regenerates this page; `tests/docs/test_docs.py` (part of "
             f"`make test`) fails when it is not up to date with its data.", ""]
    if data is None:
        lines += [f"**`{data_path}` is missing or unreadable: nothing is measured.**", ""]
    return lines


# ------------------------------------------------------------------------------------------
# docs/results/performance.md
# ------------------------------------------------------------------------------------------
def performance(d) -> str:
    d = d or {}
    L = header("Performance", BENCH,
               "`make bench` writes (`scripts/bench.py`: `build/bench/ni_bench`, "
               "`build/bench/ni_unit_bench`, `build/ni_sim`)", d or None)
    L += ["Every benchmark runs inside the verification harness with the golden models "
          "attached, so a bench run is also a checked run: the bench fails when a run fails a "
          "check, never on wall time. Cycle figures are deterministic; wall-clock figures depend "
          "on the machine and its load (given with each). `scripts/bench.py --units-only` "
          "reruns only the unit throughput and full-NI speed benchmarks and merges their keys "
          "into the existing data.", ""]
    th = dct(d, "thesis")

    # ---- cycle figures --------------------------------------------------------------------
    L += ["## Cycle figures of the RTL (thesis 4.2.1)", "",
          "Measured at the ports of the verilated engine (`ni_bench figures`).", ""]
    ack = get(d, "ack_to_done_cycles")
    ack_read = get(d, "ack_to_done_read_cycles")
    ack_s = NA if ack is None else f"{ack} cycles" + (
        f" (a status read sees it from +{ack_read})" if ack_read is not None else "")
    L += table(["figure", "here", "thesis"], [
        ["first AW handshake -> `pkt_valid_o`, 8-byte inline transfer written as one 2-beat "
         "128-bit burst", num(get(d, "inline_latency_cycles"), unit="cycles"),
         str(get(th, "inline_latency_cycles", default=NA))],
        ["first AW handshake -> `blk_valid_o`, single-block transfer",
         num(get(d, "block_latency_cycles"), unit="cycles"),
         str(get(th, "block_latency_cycles", default=NA))],
        ["64 back-to-back 8-byte inline transfers: packet spacing",
         num(get(d, "inline_cycles_per_packet"), 1, "cycles/packet"),
         str(get(th, "inline_cycles_per_packet", default=NA))],
        ["segmenter, 64 queued 192-block transfers, ACKs after 1 cycle",
         num(get(d, "segmenter_blocks_per_cycle"), 2, "blocks/cycle"),
         str(get(th, "segmenter_blocks_per_cycle", default=NA))],
        ["response handshake -> status register DONE", ack_s,
         str(get(th, "ack_to_done_cycles", default=NA))],
    ])
    tl = dct(d, "details", "cycle_figures", "inline_latency", "timeline")
    if tl:
        steps = ", ".join(f"{k} {v}" for k, v in sorted(
            ((k, v) for k, v in tl.items() if isinstance(v, int)), key=lambda kv: kv[1]))
        L += ["", f"Timeline of the inline transfer (cycles from the AW handshake): {steps}. "
              "How each step maps to the pipeline: [design.md section 12](../design.md). The "
              "packet rate of back-to-back inline transfers is bound by the 128-bit AXI slave "
              "(a 256-bit descriptor is two beats), not by the segmenter, which issues a block "
              "every cycle.", ""]
    seg = dct(d, "details", "cycle_figures", "segmenter_rate")
    if seg:
        L += [f"While the segmenter test's descriptors are still being written, "
              f"{num(get(seg, 'blocks_while_writing'))} blocks leave in "
              f"{num(get(seg, 'writing_cycles_after_first_block'))} cycles "
              f"({num(get(seg, 'blocks_per_cycle_while_writing'), 2)} per cycle): the AXI slave "
              "and the segmenter share the scheduling queues' one enqueue per cycle "
              "([design.md section 5](../design.md)).", ""]

    # ---- thesis experiments ---------------------------------------------------------------
    p = dct(d, "parameters")
    L += ["## The thesis's experiments (figures 4.4-4.6)", "",
          "`ni_bench curves` reproduces thesis section 4.3 in cycle-accurate simulation: the "
          "engine between a send-unit timing model (`bench/send_unit.cpp`: one 512-bit "
          "datapath, a 1 KiB data packet takes 2 + ceil(payload/64) cycles) and a CPU model "
          "(`bench/ps_cpu.cpp`: a PS-PL round trip, one access issued per cycle), running the "
          "thesis's two programs on memory TID-only transfers: *one at a time* (two descriptor "
          "stores, then status loads until DONE; latency = first store to DONE seen) and "
          "*outstanding* (64 transfers on one page, then rounds of 32-channel status loads; "
          "latency = total time / transfers, throughput = bytes / total time).", "",
          f"Parameters: clock {num(get(p, 'clock_mhz'), 0, 'MHz')}, PS-PL round trip "
          f"{num(get(p, 'rtt_cycles'), unit='cycles')} (thesis: "
          f"{get(th, 'pspl_rtt_ns', default=NA)} ns), network + receiver delay "
          f"{num(get(p, 'net_delay_cycles'), unit='cycles')}, line rate "
          f"{num(get(p, 'line_rate_bytes_per_cycle'), 1, 'bytes/cycle')} = "
          f"{num(get(p, 'line_rate_gbps'), 1, 'Gbps')}.", ""]
    tc = {r.get("size"): r for r in lst(d, "throughput_curve")}
    lrs = get(d, "line_rate_size_bytes")
    lr_frac = fl(tc, lrs, "outstanding_frac") if isinstance(lrs, (int, str)) else None
    o128 = fl(d, "outstanding_128B_gbps")
    lrg = fl(p, "line_rate_gbps")
    mx = fl(d, "max_throughput_frac")
    inl = lst(d, "inline_curve")
    L += table(["", "here", "thesis"], [
        ["small-transfer latency, one at a time (mean over 8 B .. 512 B)",
         f"{num(get(d, 'small_transfer_latency_cycles'), 0, 'cycles')} = "
         f"{num(get(d, 'small_transfer_latency_ns'), 0, 'ns')}",
         f"{num(get(th, 'small_transfer_latency_ns'), unit='ns')}"],
        ["smallest size reaching >= 95 % of line rate, outstanding",
         f"{size(lrs)}" + (f" ({pct(lr_frac)})" if lr_frac is not None else ""),
         size(get(th, "line_rate_size_bytes"))],
        ["128 B outstanding", num(o128, 1, "Gbps") + (
            f" ({pct(o128 / lrg, 0)} of line rate)" if o128 and lrg else ""),
         num(get(th, "outstanding_128B_gbps"), 1, "Gbps")],
        ["maximum throughput", num(mx * lrg if mx and lrg else None, 1, "Gbps") + (
            f" ({pct(mx, 2)} of line rate)" if mx else ""),
         num(get(th, "max_throughput_gbps"), 1, "Gbps")],
        ["inline " + " / ".join(size(r.get("size")) for r in inl) + ", one at a time",
         " / ".join(num(r.get("one_at_a_time_cycles"), 0) for r in inl) + " cycles" if inl else NA,
         "-"],
    ])
    L += ["", "![completion latency vs size](../../bench/latency.png)", "",
          "![throughput vs size](../../bench/throughput.png)", ""]
    lc = lst(d, "latency_curve")
    if lc:
        rows = []
        for r in lc:
            t = tc.get(r.get("size"), {})
            rows.append([size(r.get("size")), num(r.get("one_at_a_time_cycles"), 1),
                         num(r.get("one_at_a_time_ns"), 0), num(r.get("outstanding_cycles"), 2),
                         num(t.get("one_at_a_time_gbps"), 2), num(t.get("outstanding_gbps"), 2),
                         pct(t.get("outstanding_frac"))])
        L += ["The curves (`latency_curve`, `throughput_curve`):", ""]
        L += table(["size", "latency one at a time (cycles)", "(ns)",
                    "latency outstanding (cycles / transfer)", "one at a time (Gbps)",
                    "outstanding (Gbps)", "of line rate"], rows, "lrrrrrr")
        L += [""]
    L += ["Why the figures differ from the thesis's:", "",
          "- **Small-transfer latency** is almost all CPU round trips and the network, not the "
          f"engine: the engine's own share is the AW-to-`blk` latency "
          f"({num(get(d, 'block_latency_cycles'))} cycles) plus the ACK-to-visible-DONE latency "
          f"({num(ack_read)} cycles); the rest is the PS-PL round trips of the stores and of "
          "every status load, and the network + receiver delay before the ACK. With a shorter "
          "loopback the thesis's 2-3 round trips appear (64-byte transfers):", ""]
    sw = lst(d, "net_delay_sweep")
    if sw:
        L += ["  " + s for s in table(
            ["network + receiver delay (cycles)"] + [str(r.get("net_delay")) for r in sw],
            [["latency, one at a time"] + [f"{num(r.get('latency_cycles'), 0)} "
                                           f"({num(r.get('latency_ns'), 0)} ns)" for r in sw],
             ["status loads per transfer"] + [num(r.get("polls_per_transfer"), 0) for r in sw]])]
    else:
        L += [f"  (`net_delay_sweep`: {NA})"]
    L += ["",
          "  The thesis measured intra-node transfers, BRAM to BRAM; the steps of the "
          "one-at-a-time curve are whole poll round trips.",
          "- **Line rate reached at a smaller size**: the CPU model issues a 128-bit store every "
          "cycle and spends nothing on building descriptors, while the thesis's A53 software did "
          "(thesis 4.3: \"each transfer descriptor bears an overhead for its creation\"), so "
          "small outstanding transfers are faster here and line rate comes sooner. Above 1 KiB "
          "the limit is the send unit (18 cycles per 1 KiB packet), not the engine; both "
          "curves end at line rate, where the send unit's 2-in-18 packet overhead is the only "
          "loss.", ""]

    # ---- simulator speed, engine alone ---------------------------------------------------
    pr = dct(d, "profile")
    ic = dct(d, "instruction_counts")
    L += ["## Simulator speed: the QoS engine alone", "",
          f"`build/ni_sim --config sim/configs/regress.json` (the run of `make regress-qos`), "
          f"best of the timed runs; machine: {num(get(d, 'machine', 'cpus'))} cores, load "
          f"average {load_avg(get(d, 'machine', 'loadavg_at_start'))} at the start.", ""]
    L += table(["", ""], [
        ["run", f"{num(get(d, 'regress_transfers'))} transfers, "
                f"{num(get(d, 'regress_cycles'))} cycles in "
                f"{num(get(d, 'regress_wall_seconds'), 2, 's')}"],
        ["speed", f"{num(get(d, 'regress_cycles_per_second'), 0, 'cycles/s')}, "
                  f"{num(get(d, 'regress_transfers_per_second'), 0, 'transfers/s')}"],
        ["wall time in the verilated model / the harness (phase timers, `ni_bench profile`)",
         f"{pct(get(d, 'model_time_share'))} / {pct(get(d, 'harness_time_share'))}"],
        ["the same in instructions (callgrind, "
         f"{num(get(ic, 'transfers'))} transfers; deterministic)",
         f"{pct(get(d, 'model_instruction_share'))} / "
         f"{pct(get(d, 'harness_instruction_share'))} of "
         f"{num(get(ic, 'instructions'))} instructions"],
        ["engine model verilated with `--threads 2` "
         f"({num(get(d, 'threads_run_transfers'))} transfers)",
         f"{num(get(d, 'threads2_cycles_per_second'), 0, 'cycles/s')} against "
         f"{num(get(d, 'threads1_cycles_per_second_same_run'), 0, 'cycles/s')} single-threaded "
         f"({ratio(get(d, 'threads2_speedup'))})"],
    ])
    if pr:
        L += ["", "Where the profiled run's wall time went "
              f"({num(get(pr, 'wall_seconds'), 2, 's')}):", ""]
        L += table(["phase", "seconds"], [
            ["model `eval()`", num(get(pr, "model_seconds"), 2)],
            ["components' `post_edge` (the golden model's end of cycle)",
             num(get(pr, "post_edge_seconds"), 2)],
            ["components' `drive` (CPU, AXI master, responder, stall injectors)",
             num(get(pr, "drive_seconds"), 2)],
            ["components' `sample` (monitors -> checkers)", num(get(pr, "sample_seconds"), 2)],
            ["FST dump calls", num(get(pr, "dump_seconds"), 2)],
            ["run loop, other", num(get(pr, "other_seconds"), 2)],
        ], "lr")
    L += [""]

    # ---- send unit -------------------------------------------------------------------------
    su = dct(d, "send_unit_rate")
    L += ["## Send-unit throughput (ICD 12)", "",
          "`build/bench/ni_unit_bench send` (sources `bench/units/`): the verilated "
          "`send_unit` alone, its `blk` input fed back to back with blocks whose sources follow "
          "one another in memory, the source 0/1/31/63 bytes off the destination's alignment, "
          "its AR/R port on the memory model at a fixed or random read latency, `req_tx` always "
          "ready; every packet checked against the send unit's golden model. Figure: cycles "
          "between the ends of consecutive 1 KiB packets, from the first packet of the stream "
          "on (the worst source offset of each cell). Goal: "
          f"{num(get(su, 'goal_cycles_per_packet'))} cycles per packet (head, 16 "
          f"payload beats, tail) = {num(get(su, 'line_rate_bytes_per_cycle'), 1)} bytes/cycle.",
          ""]
    runs = lst(su, "runs")
    if runs:
        lats = []
        for r in runs:
            if r.get("read_latency") not in lats:
                lats.append(r.get("read_latency"))
        blocks = sorted({r["block_bytes"] for r in runs
                         if isinstance(r.get("block_bytes"), int)}, reverse=True)
        rows = []
        for b in blocks:
            row = [f"{size(b)} blocks"]
            for lat in lats:
                cell = [r for r in runs
                        if r.get("block_bytes") == b and r.get("read_latency") == lat]
                worst = max((r["cycles_per_packet"] for r in cell
                             if isinstance(r.get("cycles_per_packet"), (int, float))), default=None)
                row.append(num(worst, 2) if cell else NA)
            rows.append(row)
        L += table(["block size"] + [f"read latency {x}" for x in lats], rows,
                   "l" + "r" * len(lats))
        w = dct(su, "worst")
        L += ["", f"Goal {'met' if get(su, 'met') else 'NOT met'} (every run at least "
              f"{pct(get(su, 'goal_fraction'), 0)} of the goal). Worst run: "
              f"{num(get(w, 'cycles_per_packet'), 2)} cycles per packet "
              f"({size(get(w, 'block_bytes'))} blocks, source +{get(w, 'src_offset', default=NA)}, "
              f"read latency {get(w, 'read_latency', default=NA)}). The largest gap between two "
              "packets of any run: "
              f"{num(max((r['max_gap_cycles'] for r in runs if isinstance(r.get('max_gap_cycles'), int)), default=None))} "
              "cycles. Why the table is 16 blocks "
              "deep and how the read side runs consecutive blocks together: "
              "[design.md section 14](../design.md).", ""]
    else:
        L += [f"`send_unit_rate`: {NA}.", ""]

    # ---- receive unit ----------------------------------------------------------------------
    ru = dct(d, "recv_unit_rate")
    L += ["## Receive-unit throughput (ICD 13)", "",
          "`build/bench/ni_unit_bench recv`: one verilated `ni_node`; a C++ injector offers the "
          "1 KiB data packets of a peer's blocks back to back on `req_rx`; the memory model at "
          "a fixed or random write latency (B out of order across IDs); `rsp_tx` always ready. "
          "The receive unit's golden model checks every write burst, B, ACK and packet "
          "decision; at the end every destination byte is compared with the source pattern. "
          f"Figure: beats accepted per cycle on `req_rx` in steady state. Goal: "
          f"{num(get(ru, 'goal_beats_per_cycle'), 0)} beat per cycle, no `req_rx` stall "
          "cycle in the steady window.", ""]
    rr = lst(ru, "runs")
    if rr:
        L += table(["write latency"] + [str(r.get("write_latency")) for r in rr], [
            ["beats / cycle (steady)"] + [num(r.get("beats_per_cycle"), 4) for r in rr],
            ["`req_rx` stall cycles (steady window)"] +
            [num(r.get("req_rx_stall_cycles_steady")) for r in rr],
            ["packets"] + [num(r.get("packets")) for r in rr],
        ], "l" + "r" * len(rr))
        L += ["", f"Goal {'met' if get(ru, 'met') else 'NOT met'}; worst "
              f"{num(get(ru, 'worst_beats_per_cycle'), 4)} beats per cycle. The completion "
              "check that made write latency 1 the hard case: "
              "[design.md section 15](../design.md).", ""]
    else:
        L += [f"`recv_unit_rate`: {NA}.", ""]
    h = dct(ru, "rsp_tx_held")
    rel, back = get(h, "release_cycle"), get(h, "first_beat_after_release_cycle")
    resume = back - rel if isinstance(rel, int) and isinstance(back, int) else None
    if h:
        L += [f"`rsp_tx` held off ({num(get(h, 'blocks'))} one-packet blocks, write latency "
              f"{get(h, 'write_latency', default=NA)}, `rsp_tx` not ready for the first "
              f"{num(get(h, 'rsp_tx_held_cycles'))} cycles): the receive buffers fill and "
              f"`req_rx` stalls from cycle {num(get(h, 'first_stall_cycle'))} — "
              f"{num(get(h, 'packets_accepted_while_held'))} packets "
              f"({num(get(h, 'beats_accepted_while_held'))} beats) accepted, then "
              f"{num(get(h, 'req_rx_stall_cycles_while_held'))} stall cycles while held. "
              f"{num(resume)} cycles after the release `req_rx` accepts again; from there to the "
              f"end {num(get(h, 'beats_per_cycle_after_release'), 3)} beats per cycle; nothing is "
              "lost.", ""]

    # ---- RDMA Read ---------------------------------------------------------------------------
    rd = dct(d, "rdma_read")
    L += ["## RDMA Read (ICD 16)", "",
          "`scripts/bench_read.py` (key `rdma_read`): `build/ni_sim` scenarios on 2 nodes, "
          "checked by the golden models and the end-to-end scoreboard. Round trip: the "
          "issuer's channel BUSY -> DONE for one transfer at a time, network and memory latency "
          "1 (median of 3): a read's request trip, the responder's allocation and segmentation, "
          "the data's return and the deferred ACK, beside a write of the same size.", ""]
    lr = lst(rd, "latency", "runs")
    if lr:
        L += table(["size"] + [size(r.get("size")) for r in lr], [
            ["write (cycles)"] + [num(r.get("write_cycles")) for r in lr],
            ["read (cycles)"] + [num(r.get("read_cycles")) for r in lr],
        ], "l" + "r" * len(lr))
        L += [""]
    co, cr = dct(rd, "rate", "cpu_only"), dct(rd, "rate", "cpu_and_reads")
    if co and cr:
        L += ["Transfers a node starts per cycle (thesis 4.2: remote read requests fill the "
              "cycles the CPU's 128-bit descriptor port leaves idle, up to one transfer per "
              f"cycle): the CPU's {num(get(co, 'cpu_descriptors'))} short descriptors written "
              f"back to back alone: {num(get(co, 'transfers_per_cycle'), 3)} per cycle; with "
              f"{num(get(cr, 'reads_served'))} READ_REQ beats arriving one per cycle at the same "
              f"time: {num(get(cr, 'transfers_per_cycle_overlap'), 3)} per cycle over the "
              f"{num(get(cr, 'overlap_cycles'))} cycles both streams were active "
              f"({num(get(cr, 'transfers_per_cycle'), 3)} over the whole window).", ""]
    if not lr and not co:
        L += [f"`rdma_read`: {NA}.", ""]

    # ---- full NI ---------------------------------------------------------------------------
    ns = dct(d, "node_sim_speed")
    L += ["## Full-NI simulator speed", "",
          "What bounds the simulator's speed, and the choices made for it: "
          "[design.md section 18](../design.md).", ""]
    nr = lst(ns, "runs")
    if nr:
        L += [f"`build/ni_sim --nodes N --config {get(ns, 'config', default=NA)} --transfers "
              f"{get(ns, 'transfers', default=NA)} --seed {get(ns, 'seed', default=NA)}` "
              f"(key `node_sim_speed`); machine: {num(get(ns, 'machine', 'cpus'))} cores, load "
              f"average {load_avg(get(ns, 'machine', 'loadavg_at_start'))} at the start.", ""]
        L += table(["nodes", "simulated cycles", "wall time", "speed", "node-cycles / s"],
                   [[str(r.get("nodes")), num(r.get("cycles")), num(r.get("wall_seconds"), 1, "s"),
                     num(r.get("khz"), 1, "kHz"), num(r.get("node_cycles_per_second"), 0)]
                    for r in nr], "lrrrr")
        L += [""]
    else:
        L += [f"`node_sim_speed`: {NA}.", ""]
    ish = dct(ns, "instruction_share")
    if ish:
        top = dct(ish, "largest_harness_functions_inclusive")
        L += [f"Where the instructions go (callgrind, `--nodes {get(ish, 'nodes', default=NA)}`, "
              f"{num(get(ish, 'transfers'))} transfers, {num(get(ish, 'instructions'))} "
              f"instructions; deterministic): {pct(get(ish, 'model_instruction_share'))} in the "
              f"verilated models, {pct(get(ish, 'harness_instruction_share'))} in the harness. "
              "The harness's largest functions (inclusive):", ""]
        L += table(["function", "share"], [[f"`{k}`", pct(v)] for k, v in top.items()], "lr")
        L += [""]
    vs = dct(d, "node_sim_speed_vs_base")
    L += ["### Against the previous simulator (`make bench BASE=rev`)", ""]
    vr = lst(vs, "runs")
    if vr:
        L += [f"The same runs (`{get(vs, 'config', default=NA)}`, seed "
              f"{get(vs, 'seed', default=NA)}) with this checkout's `build/ni_sim` and with the "
              f"one of `{get(vs, 'base', default=NA)}` (built in a temporary worktree), "
              f"interleaved, {get(vs, 'rounds', default=NA)} rounds; the ratio is the median of "
              "the rounds' ratios (the machine is shared: only a ratio measured side by side "
              "means anything).", ""]
        L += table(["nodes", "transfers", "base (kHz)", "--threads 1 (kHz)", "ratio",
                    "default threads (kHz)", "ratio", "node-cycles / s (--threads 1)"],
                   [[str(r.get("nodes")), num(r.get("transfers")),
                     khz(get(r, "base", "cycles_per_second")),
                     khz(get(r, "threads1", "cycles_per_second")),
                     ratio(r.get("speedup_threads1")),
                     khz(get(r, "default", "cycles_per_second")),
                     ratio(r.get("speedup_default")),
                     num(get(r, "threads1", "node_cycles_per_second"), 0)] for r in vr],
                   "lrrrrrrr")
        L += [""]
    else:
        L += [f"`node_sim_speed_vs_base`: {NA}.", ""]
    return "\n".join(L).rstrip() + "\n"


# ------------------------------------------------------------------------------------------
# docs/results/synthesis.md
# ------------------------------------------------------------------------------------------
def res_row(m: dict) -> list[str]:
    return [num(get(m, "lut")), num(get(m, "lut_as_memory")), num(get(m, "ff")),
            num(get(m, "bram_tiles"), 1)]


def loc(s) -> str:
    """A source location of the report, as Yosys wrote it (the RTL at the synthesized
    commit; not a path of this checkout, so not in backticks)."""
    return str(s) if s else NA


def levels_ns(levels) -> str:
    if not isinstance(levels, (int, float)):
        return NA
    ns = 0.35 * levels
    return f"about {ns:.1f} ns, {1000.0 / ns:.0f} MHz"


PATHS = (("estimate", "any path"), ("register_to_register", "register to register"))


def over_goal_lines(lp: dict, n: int = 8) -> list[str]:
    """The register-to-register endpoints deeper than the goal, grouped by where their deepest
    path starts and ends (scripts/synth.py over_goal): a sentence and the largest groups."""
    og = dct(dct(lp, "register_to_register"), "over_goal")
    if not og:
        return []
    goal = num(get(og, "goal_levels"))
    if not get(og, "endpoints"):
        return [f"No endpoint is deeper than {goal} levels register to register.", ""]
    rows = [[num(get(g, "levels")), num(get(g, "endpoints")), loc(get(g, "from")),
             loc(get(g, "to"))] for g in lst(og, "groups")[:n]]
    return ([f"{num(get(og, 'endpoints'))} endpoints are deeper than {goal} levels register to "
             f"register, in {num(get(og, 'groups_total'))} groups by where their deepest path "
             f"starts and ends; the largest {len(rows)} (the deepest first):", ""] +
            table(["levels (deepest)", f"endpoints over {goal}", "from", "to"], rows, "rrll") +
            [""])


def abc9_model_line(lp: dict, after: bool = False) -> list[str]:
    """The longest path as ABC9's own model times it (scripts/synth.py abc9_model), when the
    report has it: a blank line and the sentence (before or after it, as the page needs)."""
    m = dct(lp, "abc9_model")
    if not m:
        return []
    line = (f"In ABC9's own timing model (its cells' pin delays plus {num(get(m, 'wire_ps'))} ps a "
            f"LUT input) the longest path is {num(get(m, 'ps'))} ps ({num(get(m, 'cells'))} cells, "
            f"{loc(get(m, 'from'))} to {loc(get(m, 'to'))}); "
            f"{num(get(m, 'endpoints_within_1000_ps'))} of {num(get(m, 'endpoints'))} endpoints "
            "are within 1 ns of it (docs/design.md section 20: ABC9 maps what has slack for area "
            "up to that delay).")
    return [line, ""] if after else ["", line]
# Figures of other designs beside the node (their papers): name -> (LUTs, FFs, BRAM tiles, note).
NODE_REFERENCE = {
    "thesis QoS engine": (13313, 5113, 23, "thesis Table 4.1: Vivado 2017.2, xczu9eg, 150 MHz"),
    "ExaNet send + receive RDMA engines": (33000, None, 19,
                                           "ExaNeSt prototype paper 4.5: ZU9EG, \"33K LUTs, 19 BRAM blocks\""),
}


# Why a Table 4.1 row of this design is larger than the thesis's: the feature (ICD section or
# design.md section) the thesis's engine does not have, or the choice that costs it. A row
# larger than the thesis with no entry here reads NOT_EXPLAINED (and
# tests/synth/test_synth_report.py fails).
NOT_EXPLAINED = "larger: not explained"
ROW_REASONS = {
    "AXI Slave": "8-deep AW/B FIFOs (`u_axi.u_aw_fifo`, `u_axi.u_b_fifo`: {fifo_lut} LUTs, "
                 "{fifo_ff} FFs), the 256-bit line accumulator, every rule of ICD 4, the "
                 "total-blocks arithmetic, the read descriptors of RDMA Read (design.md 3, 19)",
    "Transfer Segmenter": "re-issues of retransmission (ICD 14: the re-issue's seq check, "
                          "its seq copy `u_seg.u_seq_copy` in distributed RAM, read a cycle "
                          "ahead), RDMA Read's "
                          "blocks and notifying reads (ICD 16), the TID busy toggles "
                          "(design.md 6)",
    "Message Handler": "retransmission (ICD 14: timeout events, a re-issue-pending bit per "
                       "PTT entry, the retries compare, the re-issue requests), measured "
                       "(the same module without the feature): {mh_noretx_lut} LUTs, "
                       "{mh_noretx_ff} FFs. Without it: the PTT's valid bit per entry in "
                       "flip-flops ({ptt_ff} FFs, read each cycle also by the timeout "
                       "scanner and the segmenter, set and cleared by two write ports), and "
                       "{rest_ff} FFs of M1/M2/M3 pipeline and forwards (design.md 8, 9)",
    "Status Registers": "the BUSY mark and the Message Handler's finish written a cycle "
                        "late, each put into the lookup and the status reads beside the "
                        "codes' multiplexer (the 200 MHz work, design.md 20)",
    "Scheduling FIFOs": "34 queues' heads and tails with the enqueue written behind and the "
                        "kept last-node bits of the 200 MHz work (design.md 5, 20)",
    "Metadata Table": "four single-writer RAMs instead of one shared (design.md 7): each "
                      "writer's fields in a RAM of its own, no write arbitration",
    "Packet Creator": "the CRC-32 footer (ICD 7) computed in the engine: the module's own "
                      "logic ({crc_lut} LUTs) beside the queue (`u_pkt_queue.u_fifo`)",
    "Transfer Table": "two 1024 x 256 banks read together, a line pair a cycle (design.md "
                      "6), each mapped on its own: half a tile more",
    "Sequence number generator": "the ICD's 14-bit seq (ICD 1, `SeqW`): a 14-bit counter "
                                 "where the thesis's has 12 registers",
    "TID FIFO": "the head and empty flag from registers (`sync_fifo`'s `RegHead`: the "
                "segmenter's block takes its TID from a register, not the array's read, "
                "the 200 MHz work, design.md 20): {extra_ff} FFs more",
    "1x FID FIFO": "a fill count kept beside the pointers (`sync_fifo`'s count, which the "
                   "segmenter compares to admit a transfer) and the head and empty flag from "
                   "registers (as the TID FIFO): {extra_ff} FFs more",
    "4x FID FIFO": "a fill count kept beside the pointers and the head and empty flag from "
                   "registers (as the 1x FID FIFO): {extra_ff} FFs more",
    "Statistics Registers": "64-bit saturating counters (ICD 8), 14 of them, each counting "
                            "0, 1 or 2 events a cycle. Measured (the same module without "
                            "the feature): the 64-bit width {stats_32bit_lut} LUTs, "
                            "{stats_32bit_ff} FFs against 32-bit counters; the 4 counters of "
                            "retransmission events (NACKs, responses dropped, "
                            "retransmissions, timeouts) {stats_10_lut} LUTs, {stats_10_ff} FFs",
}


# The modules of no Table 4.1 row: the feature each belongs to.
EXTRA_REASONS = {
    "u_timer": "retransmission (ICD 14): the timeout scanner",
    "u_rq_fifo": "retransmission (ICD 14): the re-issue FIFO",
    "u_seg.u_seq_copy": "retransmission (ICD 14): the segmenter's copy of the PTT's seqs, "
                        "for the re-issue's seq check",
    "u_read_alloc": "RDMA Read (ICD 16): the read-channel allocator",
    "u_rd_notify": "RDMA Read (ICD 16): the notifying reads' records",
    "u_fin_fifo": "the segmenter's finish FIFO: transfers that end without a response "
                  "(design.md 6)",
}


def row_reason(r: dict, mods: list, costs: list = ()) -> str:
    """'within' or why the row is larger than the thesis's (ROW_REASONS with its figures and
    the report's measured feature costs, `feature_costs`)."""
    ours, th = dct(r, "this_design"), dct(r, "thesis")
    larger = [k for k in ("lut", "ff", "bram_tiles")
              if isinstance(get(ours, k), (int, float)) and isinstance(get(th, k), (int, float))
              and get(ours, k) > get(th, k)]
    if not larger:
        return "within"
    text = ROW_REASONS.get(str(r.get("row")))
    if text is None:
        return NOT_EXPLAINED

    def sub(inst):
        for m in mods:
            for s in [m] + lst(m, "submodules"):
                if s.get("instance") == inst:
                    return s
        return {}
    aw, b, pq = sub("u_axi.u_aw_fifo"), sub("u_axi.u_b_fifo"), sub("u_pkt_queue")
    ptt_ff = 1024  # ni_pkg NumTids: a valid bit per entry
    mh_without = next((get(c, "without", "ff") for c in costs if c.get("key") == "mh_noretx"), None)
    vals = {"fifo_lut": num((get(aw, "lut") or 0) + (get(b, "lut") or 0)),
            "fifo_ff": num((get(aw, "ff") or 0) + (get(b, "ff") or 0)),
            "ptt_ff": num(ptt_ff),
            "rest_ff": num(max(0, mh_without - ptt_ff)) if isinstance(mh_without, int) else NA,
            "crc_lut": num(get(pq, "self", "lut")),
            "extra_ff": num((get(ours, "ff") or 0) - (get(th, "ff") or 0))}
    for c in costs:
        for k in ("lut", "ff"):
            vals[f"{c.get('key')}_{k}"] = num(get(c, "cost", k))
    what = "/".join({"lut": "LUTs", "ff": "FFs", "bram_tiles": "BRAM"}[k] for k in larger)
    return f"larger ({what}): " + text.format_map(collections.defaultdict(lambda: NA, vals))


def synthesis(d) -> str:
    d = d or {}
    L = header("Synthesis", SYNTH,
               "`make synth` writes (`scripts/synth.py`: Yosys with `read_slang`, "
               "`synth_xilinx` for UltraScale+)", d or None)
    rc = get(d, "rtl_commit", default="")
    L += [f"- RTL synthesized: commit {str(rc).split(' ')[0] if rc else NA}",
          f"- Tool: {get(d, 'tool', 'yosys', default=NA)} "
          f"({get(d, 'tool', 'package', default=NA)}), front end "
          f"{get(d, 'tool', 'frontend', default=NA)}",
          f"- Target: {get(d, 'target', default=NA)}",
          f"- Method: {get(d, 'method', default=NA)}", "",
          "LUT counts include the LUTs used as LUTRAM; a BRAM tile is one RAMB36E2 or two "
          "RAMB18E2. Yosys has no UltraScale+ timing model: depths are in levels of logic, not "
          "nanoseconds. Yosys's own `read_verilog -sv` rejects this RTL (`return <expr>;` in "
          "package functions, package imports in module headers), so it is read by "
          "`read_slang` with `SYNTHESIS` defined (the assertions drop out). `make synth` is not "
          "part of `make test`; `scripts/synth.py --reuse --report-only` re-makes the report "
          "from the runs in `build/synth/`.", ""]

    # ---- the engine against Table 4.1 ------------------------------------------------------
    t41 = dct(d, "thesis_table_4_1")
    rows41 = lst(t41, "rows")
    L += ["## `qos_engine` against the thesis's Table 4.1", "",
          f"Thesis: {get(t41, 'source', default=NA)}. Per module out of context (each instance "
          "synthesized on its own with its parameters in `qos_engine`), total in context (the "
          "whole engine flattened).", ""]
    rows = []
    covered = set()
    mods = lst(d, "modules")
    for r in rows41:
        covered.update(strs(r, "instances"))
        ours, th = dct(r, "this_design"), dct(r, "thesis")
        rows.append([str(r.get("row", "?")), ", ".join(f"`{i}`" for i in strs(r, "instances")),
                     num(get(ours, "lut")), num(get(ours, "ff")),
                     num(get(ours, "bram_tiles"), 1), num(get(th, "lut")), num(get(th, "ff")),
                     num(get(th, "bram_tiles"), 1), row_reason(r, mods, lst(d, "feature_costs"))])
    extra = []
    for m in mods:
        inst = m.get("instance")
        if inst not in covered:
            extra.append(m)
            continue
        own = next((r for r in rows41 if strs(r, "instances") == [inst]), None)
        if own and m.get("self") and all(get(own, "this_design", k) == get(m, "self", k)
                                         for k in ("lut", "ff", "bram_tiles")):
            # the row is the module without its sub-modules: list those not in a row of their own
            extra += [s for s in lst(m, "submodules") if s.get("instance") not in covered]
    for m in extra:
        rows.append(["—", f"`{m.get('instance')}` ({m.get('module')})", num(get(m, "lut")),
                     num(get(m, "ff")), num(get(m, "bram_tiles"), 1), "", "", "",
                     EXTRA_REASONS.get(str(m.get("instance")), "")])
    so = dct(d, "sum_of_modules_out_of_context")
    tot = dct(d, "total")
    tt = dct(t41, "total")
    rows.append(["sum of the modules (out of context)", "", num(get(so, "lut")),
                 num(get(so, "ff")), num(get(so, "bram_tiles"), 1), "", "", "", ""])
    rows.append(["**total (in context)**", "`qos_engine` flattened", f"**{num(get(tot, 'lut'))}**",
                 f"**{num(get(tot, 'ff'))}**", f"**{num(get(tot, 'bram_tiles'), 1)}**",
                 f"**{num(get(tt, 'lut'))}**", f"**{num(get(tt, 'ff'))}**",
                 f"**{num(get(tt, 'bram_tiles'), 1)}**", ""])
    L += table(["thesis Table 4.1 row", "this design (instances)", "LUTs", "FFs", "BRAM tiles",
                "thesis LUTs", "thesis regs", "thesis BRAM", "against the thesis"], rows,
               "llrrrrrrl")
    cells = dct(tot, "lutram_cells")
    L += ["", f"In context: {num(get(tot, 'lut_as_memory'))} LUTs as LUTRAM ("
          + (", ".join(f"{v} {k}" for k, v in cells.items()) or NA)
          + f"), {num(get(tot, 'ramb36'))} RAMB36E2 and {num(get(tot, 'ramb18'))} RAMB18E2, "
          f"{num(get(tot, 'carry'))} CARRY4, {num(get(tot, 'dsp'))} DSP.", ""]

    def row_of(name):
        return next((r for r in rows41 if r.get("row") == name), {})

    def mod(inst):
        return next((m for m in mods if m.get("instance") == inst), {})

    pq = row_of("Packet Creator")
    tm, rq, ra, rn = mod("u_timer"), mod("u_rq_fifo"), mod("u_read_alloc"), mod("u_rd_notify")
    pqm = mod("u_pkt_queue")
    pqf = next((x for x in lst(pqm, "submodules") if x.get("instance") == "u_pkt_queue.u_fifo"), {})
    pq_pairs = [(get(pqf, k), get(pq, "thesis", k)) for k in ("lut", "ff")]
    if all(isinstance(a, (int, float)) and isinstance(b, (int, float)) for a, b in pq_pairs):
        pq_within = "within" if all(a <= b for a, b in pq_pairs) else "above"
    else:
        pq_within = f"({NA}: no figures) against"
    L += ["Why the numbers differ from the thesis's (Vivado 2017.2, xczu9eg, 150 MHz):", "",
          "- *The tool.* ABC9 maps every path to the delay target and duplicates logic where a "
          "path misses it; Vivado optimises for area first. The last column of the table says "
          "for each row whether it is within the thesis's figures and, where it is larger, "
          "the feature or choice that costs it.",
          f"- *The packet queue computes the CRC-32 footer* in the engine, so that each "
          f"512-bit packet leaves in one beat with its footer (ICD 7): "
          f"{num(get(pq, 'this_design', 'lut'))} LUTs against the thesis's Packet Creator "
          f"({num(get(pq, 'thesis', 'lut'))}), which leaves the CRC to the send unit. Split by "
          f"the module's hierarchy: the queue itself (`u_pkt_queue.u_fifo`, "
          f"{num(get(pqf, 'lut'))} LUTs, {num(get(pqf, 'ff'))} FFs) is {pq_within} the thesis's "
          f"{num(get(pq, 'thesis', 'lut'))} LUTs and {num(get(pq, 'thesis', 'ff'))} registers; "
          f"the CRC is the module's own logic ({num(get(pqm, 'self', 'lut'))} LUTs). How the "
          "CRC is split across the queue: [design.md section 10](../design.md).",
          f"- *Retransmission* (ICD 14), which the thesis's engine does not have: the timeout "
          f"scanner `u_timer` ({num(get(tm, 'lut'))} LUTs, {num(get(tm, 'ff'))} FFs, "
          f"{num(get(tm, 'bram_tiles'), 1)} BRAM tiles for the send stamps and seqs) and the "
          f"1,024-deep re-issue FIFO `u_rq_fifo` ({num(get(rq, 'lut'))} LUTs, "
          f"{num(get(rq, 'bram_tiles'), 1)} BRAM tiles: a `fifo_ram` whose bypass keeps the "
          "NACK-to-re-issue figure of a FIFO read asynchronously).",
          f"- *RDMA Read* (ICD 16), which the thesis names as future work: the read-channel "
          f"allocator `u_read_alloc` ({num(get(ra, 'lut'))} LUTs, {num(get(ra, 'ff'))} FFs, "
          f"{num(get(ra, 'bram_tiles'), 1)} BRAM tiles; its 1,024 channels' request keys and "
          "answer seqs in LUTRAM, read asynchronously: design.md section 19) and the notifying "
          f"reads' records `u_rd_notify` ({num(get(rn, 'bram_tiles'), 1)} BRAM tiles).",
          "- *Block RAM.* The thesis's one metadata table is four single-writer RAMs here "
          "(design.md section 7); the Transfer Table is two 1024 x 256 banks read together "
          "(design.md section 6).", ""]

    ck = dct(d, "checks")
    L += ["Checks (`checks` in the report; `make synth` fails if one fails): table memories in "
          f"block RAM: {get(ck, 'table_memories_in_block_ram', default=NA)}; memories mapped to "
          f"flip-flops: {get(ck, 'memories_in_flip_flops', default=NA)}; latches: "
          f"{get(ck, 'latches', default=NA)}; combinational loops: "
          f"{get(ck, 'combinational_loops', default=NA)}; Yosys `check -assert` problems: "
          f"{get(ck, 'yosys_check_problems', default=NA)}.", ""]
    mems = lst(d, "memories")
    if mems:
        L += table(["memory", "mapped to"], [[m.get("memory", "?"), m.get("mapped_to", NA)]
                                             for m in mems])
        L += [""]

    lp = dct(d, "longest_path")
    L += ["### Longest paths", "",
          f"Counting: {str(get(lp, 'counting', default=NA)).rstrip('.')}. The nanosecond "
          "figures below assume roughly 0.35 ns per level (a LUT and its route); they are an "
          "estimate, not a timing analysis.", ""]
    rows = []
    for key, what in PATHS:
        p = dct(lp, key)
        if p:
            rows.append([what, num(get(p, "levels"), 1), loc(get(p, "from")), loc(get(p, "to")),
                         levels_ns(get(p, "levels"))])
    L += table(["path", "levels", "from", "to", "estimate"], rows, "lrlll") if rows else [NA]
    reg = dct(lp, "register_to_register")
    through = []
    for c in lst(reg, "path"):
        net = ".".join(str(c.get("net", "")).split("[")[0].split(".")[:2])
        for x in (c.get("rtl"), net if net.startswith("u_") else ""):
            if x and x not in through:
                through.append(x)
    ends = dct(reg, "endpoints_by_levels")
    L += abc9_model_line(lp)
    L += ["", "The register-to-register path runs through "
          + (", ".join(f"`{x}`" for x in through) or NA)
          + " (its named nets and RTL lines, in order). Endpoints by depth: "
          + (", ".join(f"{num(v)} at {k}" for k, v in ends.items()) or NA) + " levels.", ""]
    L += over_goal_lines(lp)

    # ---- the node and its units -----------------------------------------------------------
    tops = dct(d, "tops")
    node = dct(tops, "ni_node")
    L += ["## `ni_node` and its units", ""]
    if node and "children" in node:
        L += [f"Method: {get(node, 'method', default=NA)}.", ""]
        rows = []
        for c in lst(node, "children"):
            rows.append([f"`{c.get('instance')}` (`{c.get('module')}`)"] + res_row(c) +
                        [num(get(c, "register_to_register_levels"))])
        nlp = dct(node, "longest_path")
        cross = dct(nlp, "across_children")
        rows.append(["**`ni_node` (the children added)**"] +
                     [f"**{x}**" for x in res_row(dct(node, "total"))] +
                     [f"**{num(get(dct(nlp, 'register_to_register'), 'levels'))}**"])
        for name, (lut, ff, bram, note) in NODE_REFERENCE.items():
            rows.append([f"{name} ({note})", num(lut), "not given",
                         num(ff) if ff is not None else "not given",
                         num(bram, 1) if bram is not None else "not given", "not given"])
        L += table(["", "LUTs", "of them LUTRAM", "FFs", "BRAM tiles",
                    "levels, register to register"], rows, "lrrrrr")
        L += ["", "The reference rows are other designs' figures as their papers give them "
              "(other tools, other devices, other features): the thesis's engine has no "
              "retransmission, no RDMA Read, no CRC; ExaNet's send and receive RDMA engines run "
              "part of the sender in firmware on the R5 co-processor.", ""]
        L += [f"Longest register-to-register path of the node: "
              f"{num(get(dct(nlp, 'register_to_register'), 'levels'))} levels, "
              f"{get(dct(nlp, 'register_to_register'), 'where', default=NA)}. Across children "
              f"(a register of one child, its output port, ni_node's wires, the input port of "
              f"another child, a register there; each child's depths from its own flattened "
              f"run, ni_node's glue assignments 1 level each): "
              f"{num(get(cross, 'levels'))} levels"
              f"{'; a combinational loop across children' if get(cross, 'loop_across_children') else ''}.",
              ""]
        rows = [[" -> ".join(f"`{x}`" for x in strs(e, "ports")), num(get(e, "arrival"), 1),
                 num(get(e, "to_registers"), 1), num(get(e, "levels"))]
                for e in lst(cross, "by_input_port")[:8]]
        if rows:
            L += table(["ports (output -> input)", "levels to the last input port",
                        "levels from there to a register", "levels"], rows, "lrrr") + [""]
        fl = dct(node, "flattened")
        if fl:
            L += ["The whole node flattened in one run (`--node-flat`): " +
                  (f"stopped after {minutes(get(fl, 'stopped_after_seconds'))}."
                   if "stopped_after_seconds" in fl else
                   f"{num(get(fl, 'total', 'lut'))} LUTs, {num(get(fl, 'total', 'ff'))} FFs, "
                   f"{num(get(fl, 'longest_path', 'register_to_register', 'levels'))} levels "
                   "register to register."), ""]
        bd = dct(cross, "boundary")
        if bd:
            ins = list(dct(bd, "input_to_register").items())[:8]
            outs = list(dct(bd, "register_to_output").items())[:8]
            rows = [[f"`{ins[i][0]}`" if i < len(ins) else "", num(ins[i][1]) if i < len(ins) else "",
                     f"`{outs[i][0]}`" if i < len(outs) else "", num(outs[i][1]) if i < len(outs) else ""]
                    for i in range(max(len(ins), len(outs)))]
            L += ["The node's own ports, the budget its neighbours (the CPU's AXI, the memory, the "
                  "network) have to leave; deepest first:", ""]
            L += table(["input port", "levels to a register", "output port",
                        "levels from a register"], rows, "lrlr") + [""]
            io = lst(bd, "input_to_output")[:4]
            if io:
                L += ["Straight through the node, input port to output port: " + "; ".join(
                    f"{num(get(e, 'levels'))} levels " + " -> ".join(f"`{x}`" for x in strs(e, "ports"))
                    for e in io) + ".", ""]
        nm = lst(node, "modules")
        rows = [[f"`{m.get('instance')}` (`{m.get('module')}`)"] + res_row(m) for m in nm]
        rows.append(["sum"] + res_row(dct(node, "sum_of_modules_out_of_context")))
        L += ["Each child out of context, hierarchy kept:", ""]
        L += table(["instance", "LUTs", "of them LUTRAM", "FFs", "BRAM tiles"], rows, "lrrrr")
        L += [""]
    elif node:  # a child's run missing: what there is, and why
        L += [f"Method: {get(node, 'method', default=NA)}.", "",
              "Not composed: " + ("; ".join(strs(node, "checks", "problems")) or NA) + ".", ""]
        nm = lst(node, "modules")
        rows = [[f"`{m.get('instance')}` (`{m.get('module')}`)"] + res_row(m) for m in nm]
        rows.append(["sum"] + res_row(dct(node, "sum_of_modules_out_of_context")))
        L += table(["instance", "LUTs", "of them LUTRAM", "FFs", "BRAM tiles"], rows, "lrrrr")
        L += [""]
    else:
        L += [f"`tops.ni_node`: {NA}.", ""]
    for unit in [k for k in tops if k != "ni_node"] or ["send_unit", "recv_unit"]:
        u = dct(tops, unit)
        L += [f"### `{unit}`" + (" in the node" if unit == "qos_engine" else ""), ""]
        if not u:
            L += [f"`tops.{unit}`: {NA}.", ""]
            continue
        params = ", ".join(f"{k} {v}" for k, v in dct(u, "parameters").items())
        L += [f"Method: {get(u, 'method', default=NA)}. Parameters: {params or NA}.", ""]
        um = lst(u, "modules")
        mm = {str(m.get("memory", "")).removesuffix(".mem_q"): m.get("mapped_to")
              for m in lst(u, "memories")}
        rows = []
        for m in um:
            inst = str(m.get("instance"))
            rows.append([inst if inst.startswith("(") else f"`{inst}`",
                         f"`{m.get('module')}`"] + res_row(m) + [mm.get(inst, "")])
        t = dct(u, "total")
        rows.append(["**total, flattened**", ""] + [f"**{c}**" for c in res_row(t)] + [""])
        L += table(["instance", "module", "LUTs", "of them LUTRAM", "FFs", "BRAM tiles",
                    "memory"], rows, "llrrrrl")
        ck = dct(u, "checks")
        bt = lst(ck, "buffers_and_tables")
        L += [""]
        if bt:
            L += ["Buffers and tables (`make synth` fails when one is not in RAM): " +
                  "; ".join(f"{b.get('what')} `{b.get('object')}`: {b.get('mapped_to')}"
                            for b in bt) + "."]
        L += [f"Latches {get(ck, 'latches', default=NA)}, combinational loops "
              f"{get(ck, 'combinational_loops', default=NA)}, memories in flip-flops "
              f"{get(ck, 'memories_in_flip_flops', default=NA)}, Yosys `check -assert` "
              f"problems {get(ck, 'yosys_check_problems', default=NA)}.", ""]
        ulp = dct(u, "longest_path")
        rows = []
        for key, what in PATHS:
            p = dct(ulp, key)
            if p:
                rows.append([what, num(get(p, "levels"), 1), loc(get(p, "from")),
                             loc(get(p, "to")), levels_ns(get(p, "levels"))])
        if rows:
            L += table(["path", "levels", "from", "to", "estimate"], rows, "lrlll") + [""]
        L += abc9_model_line(ulp, after=True)
        L += over_goal_lines(ulp)
        regs = lst(u, "registers_largest")[:3]
        if regs:
            L += ["Largest register groups: " + "; ".join(
                f"{r.get('register')}: {num(r.get('ff'))} FFs" for r in regs) + ".", ""]
        rt = dct(u, "runtime_seconds")
        if rt:
            L += ["Run time: " + ", ".join(f"{k} {minutes(v)}" for k, v in rt.items()) + ".", ""]
    rt = dct(d, "runtime_seconds")
    if rt:
        L += [f"The whole `make synth` took {minutes(get(rt, 'total_wall'))} (the engine "
              f"flattened {minutes(get(rt, 'flat'))}).", ""]
    return "\n".join(L).rstrip() + "\n"


PAGES = {"performance.md": (BENCH, performance), "synthesis.md": (SYNTH, synthesis)}

SYNTH_TABLE = ("<!-- synthesis table: written by scripts/gen_docs.py from synth/report.json -->",
               "<!-- end of the synthesis table -->")


def readme_synthesis(d) -> list[str]:
    """README's synthesis table: the node, its units, and the reference designs beside them."""
    d = d or {}
    tops = dct(d, "tops")
    node = dct(tops, "ni_node")
    rows = []
    lp = lambda t: num(get(t, "longest_path", "register_to_register", "levels"))  # noqa: E731
    if "children" in node:
        rows.append(["`ni_node` (its children added)"] + res_row(dct(node, "total"))[:1] +
                    res_row(dct(node, "total"))[2:] + [lp(node)])
        for c in lst(node, "children"):
            u = dct(tops, str(c.get("module")))
            rows.append([f"`{c.get('module')}` (`{c.get('instance')}`)"] + res_row(c)[:1] +
                        res_row(c)[2:] + [lp(u)])
    rows.append(["`qos_engine` alone (the thesis's parameters)"] + res_row(dct(d, "total"))[:1] +
                res_row(dct(d, "total"))[2:] + [lp(d)])
    for name, (lut, ff, bram, note) in NODE_REFERENCE.items():
        rows.append([f"{name} ({note.split(':')[0]})", num(lut),
                     num(ff) if ff is not None else "not given",
                     num(bram, 1) if bram is not None else "not given", "not given"])
    commit = str(get(d, "rtl_commit", default=NA)).split(" ", 1)[0]
    # Issue 27's goal is of ni_node and its units at the node's delay target (5,000 ps); the
    # engine alone at the thesis's 150 MHz is the area comparison, its levels told apart.
    levels = [get(dct(tops, k), "longest_path", "register_to_register", "levels") for k in tops]
    levels = [x for x in levels if isinstance(x, (int, float))]
    alone = get(d, "longest_path", "register_to_register", "levels")
    goal = ("met" if levels and max(levels) <= 12 else
            f"not met yet, {num(max(levels))} at most" if levels else NA)
    if isinstance(alone, (int, float)):
        goal += (f" (the engine alone at the thesis's 150 MHz target: {num(alone)}"
                 + (": where 150 MHz leaves a path slack, ABC9 maps it for area, up to the "
                    "target's depth, docs/design.md section 20" if alone > 12 else "") + ")")
    dt = dct(d, "delay_targets_ps")
    targets = (f"(delay targets: the engine alone at {num(get(dt, 'thesis_comparison'))} ps, the "
               f"thesis's 150 MHz; ni_node and its units at {num(get(dt, 'node'))} ps, 200 MHz)"
               if dt else "at a 150 MHz delay target")
    return table(["", "LUTs", "FFs", "BRAM tiles", "longest path, levels (register to register)"],
                 rows, "lrrrr") + [
        "", f"Yosys + ABC9 for UltraScale+ {targets}, RTL of commit {commit} "
        f"(`make synth` writes `synth/report.json`). The goal of at most 12 levels of logic "
        f"register to register in ni_node and each of its units (200 MHz class): {goal}. The reference rows are the thesis's Table 4.1 (Vivado) and the ExaNeSt "
        "prototype paper's figure for ExaNet's send and receive RDMA engines, other tools and "
        "features: [docs/results/synthesis.md](docs/results/synthesis.md) has the breakdowns, "
        "the paths and the comparison row by row."]


def update_readme(path: Path, d) -> bool:
    """Rewrite the table between README's SYNTH_TABLE markers; False when they are missing."""
    text = path.read_text()
    a, b = text.find(SYNTH_TABLE[0]), text.find(SYNTH_TABLE[1])
    if a < 0 or b < a:
        return False
    block = "\n".join([SYNTH_TABLE[0], ""] + readme_synthesis(d) + ["", SYNTH_TABLE[1]])
    path.write_text(text[:a] + block + text[b + len(SYNTH_TABLE[1]):])
    return True


def generate(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (data, fn) in PAGES.items():
        p = out / name
        try:
            text = fn(load(data))
        except Exception as e:  # a malformed data file must still give a page, saying so
            text = "\n".join(header(name.removesuffix(".md").capitalize(), data, "is malformed",
                                     None)[:-2] +
                              [f"**`{data}` could not be read as expected "
                               f"({e.__class__.__name__}: {e}).**", ""])
        p.write_text(text)
        written.append(p)
    return written


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "results"))
    ap.add_argument("--readme", default=str(ROOT / "README.md"))
    a = ap.parse_args()
    for p in generate(Path(a.out)):
        try:
            shown = p.resolve().relative_to(ROOT)
        except ValueError:
            shown = p
        print(f"gen_docs: wrote {shown}")
    try:
        data = load(SYNTH)
        table_ok = update_readme(Path(a.readme), data)
    except Exception as e:  # a malformed report: the pages say so; the README keeps its table
        print(f"gen_docs: {a.readme}: synthesis table not rewritten ({e})", file=sys.stderr)
        return 1
    if not table_ok:
        print(f"gen_docs: {a.readme}: no synthesis table markers", file=sys.stderr)
        return 1
    print(f"gen_docs: wrote the synthesis table of {a.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
