#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The benchmarks of `make bench`: writes bench/results.json, bench/latency.png and
bench/throughput.png (the published numbers, committed; docs/results/performance.md shows them).

  1. Cycle figures of the RTL (thesis 4.2.1): `build/bench/ni_bench figures`.
  2. The thesis's figures 4.4-4.6 (section 4.3) in cycle-accurate simulation: the engine
     between a PS-PL CPU model and a send-unit timing model, the thesis's two programs over
     transfer sizes 8 B .. 4 MiB: `build/bench/ni_bench curves`.
  3. Simulator speed: the 100K-transfer regression of `make regress` (build/ni_sim; best of
     --repeat runs), the share of its wall time in the verilated model vs the harness
     (`ni_bench profile`: the same run with SimCtrl's phase timers), and the same regression
     on a model verilated with --threads 2 (build/bench/ni_sim_threads2), against the
     single-threaded model on the same (shorter) run; and, when valgrind is installed, the
     same split in instructions (callgrind; deterministic, whatever the machine's load).
  4. Unit throughput (issues 12, 13): `build/bench/ni_unit_bench send` (the send unit alone:
     cycles per 1 KiB packet, back-to-back blocks, source alignments 0/1/31/63, read latency
     1/64/128/random) and `ni_unit_bench recv` (the receive unit in one ni_node: beats per
     cycle on req_rx at write latency 1/64/128/random; req_rx with rsp_tx held off).
  6. RDMA Read (ICD 16; scripts/bench_read.py): a small read's round trip beside a write's,
     and the transfers a node starts per cycle with its CPU's descriptors alone and with a
     stream of read requests filling the CPU port's idle cycles (thesis 4.2).
  5. Full-NI simulator speed: build/ni_sim --nodes 1/2/4 on sim/configs/regress_ni.json
     (--node-transfers transfers, best of --repeat runs unless a run is slow) and, with
     valgrind, the instructions in the verilated ni_nodes vs the harness (--nodes 2); and the
     same runs side by side with the build/ni_sim of commit --base (default HEAD~1, built in
     a temporary worktree): cycles/s and node-cycles/s of each, and the median ratio of the
     rounds (--base-transfers per run), with one thread and with the default thread count.

Every run is checked by the golden model; the bench fails (exit 1) when a run fails its
checks. It never fails on wall time: the speed figures are reported, with the machine's load.
Options: --repeat N (timed regression runs, best taken; default 3), --transfers N (default
100000), --threads-transfers N (the --threads 2 comparison's run, default 2000),
--callgrind-transfers N (the instruction-count run, default 2000; needs valgrind), --quick
(small curve budget, one timed run: for trying the script, not for publishing), --out DIR
(default bench/), --replot (only redraw the plots from DIR/results.json), --node-transfers N
(the full-NI speed runs, default 300), --node-callgrind-transfers N (default 10), --base REV
and --base-transfers N (the comparison of 5; --base '' skips it), --units-only (only 4 and 5,
merged into the existing DIR/results.json, its other keys kept), --cycles-only (only 1 and 2,
the cycle-accurate figures that depend on the RTL and not on the machine, merged the same
way, with the plots redrawn: for an RTL change that moves a cycle).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_read  # part 6 (scripts/bench_read.py)

ROOT = Path(__file__).resolve().parent.parent
NI_BENCH = ROOT / "build" / "bench" / "ni_bench"
NI_SIM = ROOT / "build" / "ni_sim"
NI_SIM_T2 = ROOT / "build" / "bench" / "ni_sim_threads2"
NI_UNIT_BENCH = ROOT / "build" / "bench" / "ni_unit_bench"
REGRESS_CONFIG = "sim/configs/regress.json"
REGRESS_NI_CONFIG = "sim/configs/regress_ni.json"

CLOCK_MHZ = 150.0
LINE_RATE_GBPS = 16.0 / 18.0 * 512 * CLOCK_MHZ / 1000.0  # 68.27 Gbps

# The thesis's figures (thesis 4.2.1, 4.3 and chapter 5), for results.json and docs/results/performance.md.
THESIS = {
    "inline_latency_cycles": 4,
    "block_latency_cycles": 4,
    "inline_cycles_per_packet": 2,
    "segmenter_blocks_per_cycle": 1.0,
    "ack_to_done_cycles": "2-3",
    "small_transfer_latency_ns": 360,
    "small_transfer_latency_cycles": 54,
    "line_rate_size_bytes": 16384,
    "max_throughput_gbps": 68.3,
    "outstanding_128B_gbps": 21.6,
    "pspl_rtt_ns": "120-150",
}


class BenchFailure(Exception):
    pass


def log(msg: str) -> None:
    print(f"bench: {msg}", flush=True)


def run(argv: list[str], what: str) -> None:
    t = time.monotonic()
    p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise BenchFailure(f"{what} failed (exit {p.returncode}): {' '.join(argv)}\n{p.stdout}")
    log(f"{what}: {time.monotonic() - t:.1f} s")


def run_json(argv: list[str], what: str) -> dict:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "out.json"
        run(argv + ["--out", str(out)], what)
        return json.loads(out.read_text())


def regress(binary: Path, transfers: int, repeat: int, what: str, slow_s: float = 1e9,
            config: str = REGRESS_CONFIG, extra: tuple = ()) -> dict:
    """The regression of `make regress` (or `config`), `repeat` times (fewer when a run takes
    over `slow_s` seconds); the fastest run's report."""
    best = None
    with tempfile.TemporaryDirectory() as d:
        rep = Path(d) / "report.json"
        for i in range(repeat):
            run([str(binary), "--quiet", "--seed", "1", "--transfers", str(transfers), "--config",
                 config, *extra, "--report", str(rep)], f"{what} ({i + 1}/{repeat})")
            r = json.loads(rep.read_text())
            if not r.get("passed"):
                raise BenchFailure(f"{what}: the regression failed: {r.get('failure')}")
            if best is None or r["wall_seconds"] < best["wall_seconds"]:
                best = r
            if r["wall_seconds"] > slow_s:
                break
    return best


def instruction_share(transfers: int) -> dict | None:
    """Deterministic counterpart of the wall-clock split: callgrind's instruction counts of a
    shorter regression run (the share of Vqos_engine::eval_step(), inclusive, in the program's
    total). None when valgrind is not installed."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        log("valgrind not installed: no instruction counts")
        return None
    with tempfile.TemporaryDirectory() as d:
        cg = Path(d) / "callgrind.out"
        run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}", str(NI_SIM), "--quiet", "--seed", "1",
             "--transfers", str(transfers), "--config", REGRESS_CONFIG], "regression under callgrind")
        text = subprocess.run(["callgrind_annotate", "--inclusive=yes", str(cg)], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=True).stdout

    def count(pattern: str) -> int:
        m = re.search(r"^\s*([\d,]+) \([^)]*\)\s+" + pattern, text, re.M)
        if m is None:
            raise BenchFailure(f"callgrind_annotate: no line for {pattern}")
        return int(m.group(1).replace(",", ""))

    total = count(r"PROGRAM TOTALS")
    model = count(r"\S*Vqos_engine::eval_step\(\)")
    return {"transfers": transfers, "instructions": total, "model_instructions": model,
            "model_instruction_share": model / total, "harness_instruction_share": 1 - model / total}


def node_speed(transfers: int, repeat: int) -> dict:
    """Wall-clock speed of the full NI: build/ni_sim --nodes 1, 2, 4 on the regress_ni
    configuration (a run over 10 s is not repeated)."""
    runs = []
    for n in (1, 2, 4):
        r = regress(NI_SIM, transfers, repeat, f"full NI, --nodes {n}", slow_s=10,
                    config=REGRESS_NI_CONFIG, extra=("--nodes", str(n)))
        cps = r["cycles"] / r["wall_seconds"]
        runs.append({"nodes": n, "transfers": r["completed"] + r["errors"], "cycles": r["cycles"],
                     "wall_seconds": r["wall_seconds"], "cycles_per_second": cps, "khz": cps / 1000.0,
                     "node_cycles_per_second": cps * n, "packets": r.get("packets")})
    return {"config": REGRESS_NI_CONFIG, "seed": 1, "transfers": transfers, "runs": runs}


def median(xs: list[float]) -> float:
    s = sorted(xs)
    return s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2


def build_base(rev: str, where: Path) -> Path:
    """build/ni_sim of commit `rev`, built in a temporary worktree at `where` with that
    commit's own Makefile and toolchain (the project's venv linked in, its dependency step
    skipped so the venv is not touched)."""
    sha = subprocess.run(["git", "rev-parse", "--verify", rev + "^{commit}"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if sha.returncode != 0:
        raise BenchFailure(f"--base {rev}: not a commit of this repository")
    run(["git", "worktree", "add", "--detach", "--force", str(where), sha.stdout.strip()],
        f"worktree of {rev}")
    (where / ".venv").symlink_to(ROOT / ".venv")
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "VERILATOR_ROOT")}
    t = time.monotonic()
    p = subprocess.run(["make", "-s", "-o", "deps", "-j2", "build/ni_sim"], cwd=where, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise BenchFailure(f"building build/ni_sim of {rev} failed:\n{p.stdout[-3000:]}")
    log(f"build/ni_sim of {rev} ({sha.stdout.strip()[:10]}): {time.monotonic() - t:.0f} s")
    return where / "build" / "ni_sim"


def speed_vs_base(base_rev: str, transfers: int, repeat: int) -> dict:
    """The full NI's simulation speed, this checkout's ni_sim against `base_rev`'s, on the
    same runs in turn (base, new with one thread, new with its default threads; `repeat`
    rounds): cycles/s and node-cycles/s per node count, and the median of the per-round
    ratios new/base (the machine is shared: only a ratio measured side by side means
    anything)."""
    with tempfile.TemporaryDirectory(prefix="bench-base-") as d:
        where = Path(d) / "wt"
        try:
            base = build_base(base_rev, where)
            rows = []
            for n in (1, 2, 4):
                rate = {"base": [], "threads1": [], "default": []}  # cycles/s per round
                cycles = {}
                for i in range(repeat):
                    for key, binary, extra in (("base", base, ()),
                                               ("threads1", NI_SIM, ("--threads", "1")),
                                               ("default", NI_SIM, ())):
                        r = regress(binary, transfers, 1, f"--nodes {n}, {key} ({i + 1}/{repeat})",
                                    config=REGRESS_NI_CONFIG, extra=("--nodes", str(n)) + extra)
                        cycles[key] = r["cycles"]
                        rate[key].append(r["cycles"] / r["wall_seconds"])
                row = {"nodes": n, "transfers": transfers}
                for key, xs in rate.items():
                    row[key] = {"cycles": cycles[key], "cycles_per_second": median(xs),
                                "node_cycles_per_second": median(xs) * n,
                                "rounds_cycles_per_second": xs}
                for key in ("threads1", "default"):
                    row[f"speedup_{key}"] = median([a / b for a, b in zip(rate[key], rate["base"])])
                rows.append(row)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            subprocess.run(["git", "worktree", "prune"], cwd=ROOT)
    return {"base": base_rev, "config": REGRESS_NI_CONFIG, "seed": 1, "rounds": repeat,
            "runs": rows}


def node_instruction_share(transfers: int) -> dict | None:
    """Where a full-NI run's instructions go (callgrind, --nodes 2): the verilated ni_nodes
    (sim::NiNodeDut::eval, inclusive: the model's phases, split or whole, whichever the run
    uses) against the harness, with the harness's largest functions (inclusive). None
    without valgrind."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        log("valgrind not installed: no full-NI instruction counts")
        return None
    with tempfile.TemporaryDirectory() as d:
        cg = Path(d) / "callgrind.out"
        run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}", str(NI_SIM), "--quiet", "--seed", "1",
             "--nodes", "2", "--transfers", str(transfers), "--config", REGRESS_NI_CONFIG],
            "full NI (--nodes 2) under callgrind")
        text = subprocess.run(["callgrind_annotate", "--inclusive=yes", str(cg)], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=True).stdout
    lines = re.findall(r"^\s*([\d,]+) \([^)]*\)\s+(?:\?\?\?:)?(.*?) \[", text, re.M)
    counts = {name: int(n.replace(",", "")) for n, name in lines}
    m = re.search(r"^\s*([\d,]+) \([^)]*\)\s+PROGRAM TOTALS", text, re.M)
    total = int(m.group(1).replace(",", "")) if m else None
    model = counts.get("sim::NiNodeDut::eval()")
    if total is None or model is None:
        raise BenchFailure("callgrind_annotate: no totals or no sim::NiNodeDut::eval() line")
    harness = {k: v / total for k, v in counts.items()
               if k.startswith(("sim::", "ni::")) and not k.startswith(("sim::SimCtrl", "sim::NodeWiring", "sim::Env",
                                                                         "sim::NiNodeDut"))}
    top = dict(sorted(harness.items(), key=lambda kv: -kv[1])[:12])
    return {"nodes": 2, "transfers": transfers, "instructions": total, "model_instructions": model,
            "model_instruction_share": model / total, "harness_instruction_share": 1 - model / total,
            "largest_harness_functions_inclusive": top}


def machine(load_start: tuple) -> dict:
    """The machine and its load over a part of the bench (its speed figures' conditions)."""
    return {"cpus": os.cpu_count(), "loadavg_at_start": [round(x, 2) for x in load_start],
            "loadavg_at_end": [round(x, 2) for x in os.getloadavg()]}


def units_and_nodes(a, repeat: int) -> dict:
    """Parts 4 and 5: the unit throughput benchmarks and the full-NI simulator speed."""
    res = {}
    res["send_unit_rate"] = run_json([str(NI_UNIT_BENCH), "send"], "send-unit throughput")
    res["recv_unit_rate"] = run_json([str(NI_UNIT_BENCH), "recv"], "receive-unit throughput")
    try:
        res["rdma_read"] = bench_read.measure()
    except RuntimeError as e:
        raise BenchFailure(str(e)) from e
    res["node_sim_speed"] = node_speed(a.node_transfers, repeat)
    res["node_sim_speed"]["instruction_share"] = node_instruction_share(a.node_callgrind_transfers)
    if a.base:
        res["node_sim_speed_vs_base"] = speed_vs_base(a.base, a.base_transfers, max(3, repeat))
    return res


def log_units(res: dict) -> None:
    s, r = res["send_unit_rate"], res["recv_unit_rate"]
    w = s["worst"]
    log(f"send unit: goal 18 cycles per 1 KiB packet {'met' if s['met'] else 'NOT met'}; worst "
        f"{w['cycles_per_packet']:.2f} cycles ({w['block_bytes']} B blocks, source +{w['src_offset']}, "
        f"read latency {w['read_latency']})")
    log(f"receive unit: goal 1 beat/cycle {'met' if r['met'] else 'NOT met'}; " +
        ", ".join(f"latency {x['write_latency']}: {x['beats_per_cycle']:.3f}" for x in r["runs"]))
    rd = res.get("rdma_read")
    if rd:
        log("RDMA Read round trip vs write (cycles): " +
            ", ".join(f"{x['size']} B {x['read_cycles']} vs {x['write_cycles']}" for x in rd["latency"]["runs"]))
        log(f"transfers started per cycle: CPU alone {rd['rate']['cpu_only']['transfers_per_cycle']}, "
            f"with read requests {rd['rate']['cpu_and_reads']['transfers_per_cycle_overlap']} (thesis: up to 1)")
    log("full NI: " + ", ".join(f"--nodes {x['nodes']}: {x['khz']:.1f} kHz" for x in res["node_sim_speed"]["runs"]))
    vs = res.get("node_sim_speed_vs_base")
    if vs:
        for x in vs["runs"]:
            log(f"full NI --nodes {x['nodes']} against {vs['base']}: "
                f"{x['base']['cycles_per_second'] / 1000:.1f} -> "
                f"{x['threads1']['cycles_per_second'] / 1000:.1f} kHz with one thread "
                f"(x{x['speedup_threads1']:.2f}), {x['default']['cycles_per_second'] / 1000:.1f} kHz "
                f"with its default threads (x{x['speedup_default']:.2f}); "
                f"{x['threads1']['node_cycles_per_second'] / 1000:.1f}K node-cycles/s")


def plot(res: dict, out: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    def size_label(v, _pos=None):
        v = int(round(v))
        for unit, n in (("MiB", 1 << 20), ("KiB", 1 << 10)):
            if v >= n:
                return f"{v // n} {unit}"
        return f"{v} B"

    lat = res["latency_curve"]
    thr = res["throughput_curve"]
    inl = res["inline_curve"]
    sizes = [p["size"] for p in lat]
    blue, cyan = "#1f3fbf", "#17becf"

    def size_axis(ax, xs):
        ax.set_xscale("log", base=2)
        ax.set_xticks([s for s in xs if (s.bit_length() - 1) % 2 == 1] if len(xs) > 12 else xs)
        ax.xaxis.set_major_formatter(FuncFormatter(size_label))
        ax.tick_params(axis="x", labelrotation=45)
        ax.set_xlabel("transfer size")
        ax.grid(True, which="major", alpha=0.3)

    # Figure 4.4: average completion latency.
    fig, ax = plt.subplots(figsize=(8, 5.2))
    ax.plot(sizes, [p["one_at_a_time_ns"] for p in lat], "o-", color=blue,
            label="one transfer at a time (memory, TID-only)")
    ax.plot(sizes, [p["outstanding_ns"] for p in lat], "s-", color=cyan,
            label="64 outstanding, collective polling (time / transfers)")
    ax.plot([p["size"] for p in inl], [p["one_at_a_time_ns"] for p in inl], "^", color="#d62728",
            label="inline, one at a time")
    ax.plot([p["size"] for p in inl], [p["outstanding_ns"] for p in inl], "v", color="#ff9896",
            label="inline, outstanding")
    ax.axhline(360, color="gray", ls="--", lw=1)
    ax.annotate("thesis: 360 ns small-transfer latency (one at a time)", (sizes[-1], 360), xytext=(0, -12),
                textcoords="offset points", fontsize=8, color="gray", ha="right")
    ax.set_yscale("log")
    size_axis(ax, sizes)
    ax.set_ylabel("average completion latency (ns at 150 MHz)")
    p = res["parameters"]
    ax.set_title(f"Completion latency vs size (cf. thesis fig. 4.4)\nPS-PL RTT {p['rtt_cycles']} cycles, "
                 f"network+receiver delay {p['net_delay_cycles']} cycles", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    sec = ax.secondary_yaxis("right", functions=(lambda ns: ns * CLOCK_MHZ / 1000.0,
                                                  lambda c: c * 1000.0 / CLOCK_MHZ))
    sec.set_ylabel("cycles")
    fig.tight_layout()
    fig.savefig(out / "latency.png", dpi=110)
    plt.close(fig)

    # Figures 4.5 and 4.6: throughput, all sizes and small sizes.
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.2))
    for ax, top in ((axes[0], None), (axes[1], 4096)):
        pts = [q for q in thr if top is None or q["size"] <= top]
        xs = [q["size"] for q in pts]
        ax.plot(xs, [q["one_at_a_time_gbps"] for q in pts], "o-", color=blue, label="one transfer at a time")
        ax.plot(xs, [q["outstanding_gbps"] for q in pts], "s-", color=cyan, label="64 outstanding")
        ax.axhline(LINE_RATE_GBPS, color="gray", ls="--", lw=1)
        ax.annotate("max 68.3 Gbps = 16/18 x 76.8 Gbps (512 bit, 150 MHz)", (xs[-1], LINE_RATE_GBPS),
                    xytext=(0, 4), textcoords="offset points", fontsize=8, color="gray", ha="right")
        if top is None:
            ax.axvline(16384, color="gray", ls=":", lw=1)
            ax.annotate("thesis: line rate\nfrom 16 KiB\n(outstanding)", (16384, 20), xytext=(4, 0),
                        textcoords="offset points", fontsize=8, color="gray")
            lr = res.get("line_rate_size_bytes")
            if lr:
                ax.axvline(lr, color=cyan, ls=":", lw=1)
                ax.annotate(f"here: >= 95 % from {size_label(lr)}", (lr, 8), xytext=(-4, 0),
                            textcoords="offset points", fontsize=8, color=cyan, ha="right")
            ax.set_title("Throughput vs size (cf. thesis fig. 4.5)", fontsize=10)
        else:
            ax.set_title("Small transfers (cf. thesis fig. 4.6)", fontsize=10)
        ax.plot([128], [21.6], "*", color="black", ms=10, label="thesis: 21.6 Gbps, 128 B outstanding")
        size_axis(ax, xs)
        ax.set_ylim(0, 75)
        ax.set_ylabel("throughput (Gbps at 150 MHz)")
        ax.legend(fontsize=8, loc="lower right" if top is None else "center left")
    fig.tight_layout()
    fig.savefig(out / "throughput.png", dpi=110)
    plt.close(fig)


def cycle_keys(fig: dict, cur: dict) -> dict:
    """The keys of parts 1 and 2 (cycle figures, the thesis's curves) in results.json."""
    res: dict = {}
    for k in ("inline_latency_cycles", "block_latency_cycles", "inline_cycles_per_packet",
              "segmenter_blocks_per_cycle", "ack_to_done_cycles", "ack_to_done_read_cycles"):
        res[k] = fig[k]
    for k in ("latency_curve", "throughput_curve", "inline_curve", "line_rate_size_bytes",
              "small_transfer_latency_cycles", "small_transfer_latency_ns", "net_delay_sweep", "parameters"):
        res[k] = cur[k]
    res["max_throughput_frac"] = max(max(p["one_at_a_time_frac"], p["outstanding_frac"]) for p in cur["throughput_curve"])
    res["outstanding_128B_gbps"] = next((p["outstanding_gbps"] for p in cur["throughput_curve"] if p["size"] == 128), None)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--transfers", type=int, default=100000)
    ap.add_argument("--threads-transfers", type=int, default=2000)
    ap.add_argument("--callgrind-transfers", type=int, default=2000)
    ap.add_argument("--node-transfers", type=int, default=300)
    ap.add_argument("--node-callgrind-transfers", type=int, default=10)
    ap.add_argument("--base", default="HEAD~1",
                    help="the commit whose build/ni_sim the full-NI speed is compared with, side "
                    "by side (built in a temporary worktree; '' for none)")
    ap.add_argument("--base-transfers", type=int, default=60,
                    help="transfers of each run of the comparison with --base")
    ap.add_argument("--units-only", action="store_true",
                    help="only the unit throughput and full-NI speed benchmarks, merged into DIR/results.json")
    ap.add_argument("--cycles-only", action="store_true",
                    help="only the cycle figures and the thesis's curves (1 and 2), merged into "
                    "DIR/results.json")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default="bench")
    ap.add_argument("--replot", action="store_true", help="only redraw the plots from the results.json in --out")
    a = ap.parse_args()
    out = ROOT / a.out
    out.mkdir(parents=True, exist_ok=True)
    if a.replot:
        plot(json.loads((out / "results.json").read_text()), out)
        log(f"redrew {a.out}/latency.png, {a.out}/throughput.png")
        return 0
    repeat = 1 if a.quick else max(1, a.repeat)
    load_start = os.getloadavg()
    t_start = time.monotonic()
    if a.units_only:
        try:
            for b in (NI_UNIT_BENCH, NI_SIM):
                if not b.exists():
                    raise BenchFailure(f"{b.relative_to(ROOT)} missing (make bench builds it)")
            new = units_and_nodes(a, repeat)
        except BenchFailure as e:
            print(f"bench: FAILED: {e}", file=sys.stderr)
            return 1
        path = out / "results.json"
        res = json.loads(path.read_text()) if path.exists() else {}
        res.update(new)
        res["node_sim_speed"]["machine"] = machine(load_start)
        path.write_text(json.dumps(res, indent=2) + "\n")
        log(f"merged the unit and full-NI figures into {a.out}/results.json")
        log_units(res)
        return 0
    if a.cycles_only:
        try:
            if not NI_BENCH.exists():
                raise BenchFailure(f"{NI_BENCH.relative_to(ROOT)} missing (make bench builds it)")
            fig = run_json([str(NI_BENCH), "figures"], "cycle figures")
            cur = run_json([str(NI_BENCH), "curves"] +
                           (["--budget", "30000", "--max-size", "262144"] if a.quick else []),
                           "thesis figures 4.4-4.6 (send unit + CPU models)")
        except BenchFailure as e:
            print(f"bench: FAILED: {e}", file=sys.stderr)
            return 1
        path = out / "results.json"
        res = json.loads(path.read_text()) if path.exists() else {}
        res.update(cycle_keys(fig, cur))
        res.setdefault("details", {})["cycle_figures"] = fig["details"]
        res["details"]["curve_runs"] = cur["runs"]
        path.write_text(json.dumps(res, indent=2) + "\n")
        plot(res, out)
        log(f"merged the cycle figures and curves into {a.out}/results.json; redrew the plots")
        log(f"cycle figures: inline {res['inline_latency_cycles']} (thesis 4), block "
            f"{res['block_latency_cycles']} (4), inline rate {res['inline_cycles_per_packet']} "
            f"cycles/packet (2), segmenter {res['segmenter_blocks_per_cycle']} blocks/cycle (1.0)")
        return 0
    try:
        for b in (NI_BENCH, NI_UNIT_BENCH, NI_SIM, NI_SIM_T2):
            if not b.exists():
                raise BenchFailure(f"{b.relative_to(ROOT)} missing (make bench builds it)")
        fig = run_json([str(NI_BENCH), "figures"], "cycle figures")
        cur = run_json([str(NI_BENCH), "curves"] + (["--budget", "30000", "--max-size", "262144"] if a.quick else []),
                       "thesis figures 4.4-4.6 (send unit + CPU models)")
        reg = regress(NI_SIM, a.transfers, repeat, "regression, build/ni_sim")
        # --threads 2 against the single-threaded model on the same, shorter run: a threaded
        # model on a busy 2-core machine can be an order of magnitude slower.
        t1s = regress(NI_SIM, a.threads_transfers, repeat, "short regression, build/ni_sim")
        t2 = regress(NI_SIM_T2, a.threads_transfers, repeat, "short regression, --threads 2 model", slow_s=20)
        prof = None
        for i in range(repeat):
            p = run_json([str(NI_BENCH), "profile", "--seed", "1", "--transfers", str(a.transfers), "--config",
                          REGRESS_CONFIG], f"regression with phase timers ({i + 1}/{repeat})")
            if prof is None or p["wall_seconds"] < prof["wall_seconds"]:
                prof = p
        instr = instruction_share(a.callgrind_transfers)
        load_units = os.getloadavg()
        units = units_and_nodes(a, repeat)
        units["node_sim_speed"]["machine"] = machine(load_units)
    except BenchFailure as e:
        print(f"bench: FAILED: {e}", file=sys.stderr)
        return 1

    res: dict = cycle_keys(fig, cur)
    res["regress_cycles"] = reg["cycles"]
    res["regress_transfers"] = reg["completed"] + reg["errors"]
    res["regress_wall_seconds"] = reg["wall_seconds"]
    res["regress_cycles_per_second"] = reg["cycles"] / reg["wall_seconds"]
    res["regress_transfers_per_second"] = res["regress_transfers"] / reg["wall_seconds"]
    res["model_time_share"] = prof["model_time_share"]
    res["harness_time_share"] = prof["harness_time_share"]
    res["threads2_cycles_per_second"] = t2["cycles"] / t2["wall_seconds"]
    res["threads1_cycles_per_second_same_run"] = t1s["cycles"] / t1s["wall_seconds"]
    res["threads2_speedup"] = res["threads2_cycles_per_second"] / res["threads1_cycles_per_second_same_run"]
    res["threads_run_transfers"] = a.threads_transfers
    res["profile"] = prof
    res["model_instruction_share"] = instr["model_instruction_share"] if instr else None
    res["harness_instruction_share"] = instr["harness_instruction_share"] if instr else None
    res["instruction_counts"] = instr
    res.update(units)
    res["thesis"] = THESIS
    res["details"] = {"cycle_figures": fig["details"], "curve_runs": cur["runs"]}
    res["machine"] = {
        "cpus": os.cpu_count(),
        "loadavg_at_start": [round(x, 2) for x in load_start],
        "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
        "timed_runs": repeat,
        "note": "speed figures: the fastest of the timed runs; other jobs may have shared the machine "
                "(see the load averages)",
    }
    res["quick"] = a.quick
    (out / "results.json").write_text(json.dumps(res, indent=2) + "\n")
    plot(res, out)
    log(f"wrote {a.out}/results.json, {a.out}/latency.png, {a.out}/throughput.png "
        f"({time.monotonic() - t_start:.0f} s)")
    log(f"cycle figures: inline {res['inline_latency_cycles']} (thesis 4), block {res['block_latency_cycles']} "
        f"(4), inline rate {res['inline_cycles_per_packet']} cycles/packet (2), segmenter "
        f"{res['segmenter_blocks_per_cycle']} blocks/cycle (1.0), ACK->DONE {res['ack_to_done_cycles']} "
        f"(read sees it at +{res['ack_to_done_read_cycles']}; thesis 2-3)")
    log(f"small-transfer latency {res['small_transfer_latency_cycles']:.1f} cycles = "
        f"{res['small_transfer_latency_ns']:.0f} ns (thesis 360 ns); line rate (>= 95 %) from "
        f"{res['line_rate_size_bytes']} B (thesis 16384 B)")
    log(f"simulator: {res['regress_cycles_per_second']:.0f} cycles/s, "
        f"{res['regress_transfers_per_second']:.0f} transfers/s; model {100 * res['model_time_share']:.0f} % / "
        f"harness {100 * res['harness_time_share']:.0f} % of the wall time; --threads 2: "
        f"{res['threads2_cycles_per_second']:.0f} cycles/s (x{res['threads2_speedup']:.2f})")
    log_units(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
