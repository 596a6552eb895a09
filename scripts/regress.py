#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The main job (`make regress`): N random transfers of the full NI, split into shards that run
side by side, one per core.

Shard i runs `ni_sim --seed SEED+i --transfers T_i --threads 1` with the configuration (T_i: an
equal share of the transfers, the first shards one more when they do not divide evenly), so
that every core simulates its own nodes with nothing shared between them; with --shards 1 it
is the single run `ni_sim --seed SEED --transfers N`. While the shards run, their progress
lines (ni_sim prints one every 30 s when its output is not a terminal) are shown with the
shard's number. At the end one report merges them (OUT/report.json: the totals of the
report fields of ICD 15, the shards' own reports under "shards") and one line says PASS or
FAIL; a failing shard's failure, with its reproduce command, is printed in full.

Usage: regress.py --sim build/ni_sim --config FILE [--seed S] [--transfers N]
                  [--shards K] [--out DIR] [--log]
Exit status: 0 when every shard passed, 1 otherwise, 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Report fields (ICD 9 and 15) that add up over the shards.
SUM_KEYS = ("transfers", "completed", "errors", "mismatches", "data_mismatches", "blocks",
            "packets", "bytes_delivered", "cycles")


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def shard_plan(seed: int, transfers: int, shards: int) -> list[tuple[int, int]]:
    """(seed, transfers) of each shard."""
    base, extra = divmod(transfers, shards)
    return [(seed + i, base + (1 if i < extra else 0)) for i in range(shards)]


def merge(reports: list[dict], wall: float) -> dict:
    m: dict = {"format": "ni-regress-report/1", "shards": reports}
    for k in SUM_KEYS:
        m[k] = sum(int(r.get(k, 0) or 0) for r in reports)
    m["passed"] = all(r.get("passed") for r in reports)
    m["seeds"] = [r.get("seed") for r in reports]
    m["nodes"] = reports[0].get("nodes") if reports else 0
    m["wall_seconds"] = wall
    m["cycles_per_second"] = m["cycles"] / wall if wall > 0 else 0.0
    m["goodput_bytes_per_cycle"] = m["bytes_delivered"] / m["cycles"] if m["cycles"] else 0.0
    m["failures"] = [{"seed": r.get("seed"), "failure": r.get("failure")}
                     for r in reports if not r.get("passed")]
    return m


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", default="build/ni_sim")
    ap.add_argument("--config", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--transfers", type=int, default=100000)
    ap.add_argument("--shards", type=int, default=0, help="default: one per core")
    ap.add_argument("--out", default="build/regress")
    ap.add_argument("--log", action="store_true", help="each shard writes its --log")
    a = ap.parse_args()
    if a.transfers < 1 or a.shards < 0:
        print("regress: --transfers must be at least 1 and --shards at least 0", file=sys.stderr)
        return 2
    shards = min(a.shards or cores(), a.transfers)
    out = ROOT / a.out
    out.mkdir(parents=True, exist_ok=True)
    plan = shard_plan(a.seed, a.transfers, shards)
    print(f"[regress] {a.transfers} transfers of {a.config} in {shards} shard(s), seeds "
          f"{plan[0][0]}..{plan[-1][0]}, one per core -> {a.out}/", flush=True)

    procs = []
    lock = threading.Lock()

    def relay(i: int, stream) -> None:
        for raw in stream:
            line = raw.rstrip("\n")
            if line:
                with lock:
                    print(f"[shard {i}] {line.lstrip(chr(13))}", file=sys.stderr, flush=True)

    start = time.monotonic()
    for i, (seed, n) in enumerate(plan):
        d = out / f"shard-{i}"
        d.mkdir(exist_ok=True)
        for old in ("report.json", "log.jsonl", "output.txt"):
            (d / old).unlink(missing_ok=True)
        argv = [str(ROOT / a.sim), "--threads", "1", "--seed", str(seed), "--transfers", str(n),
                "--config", a.config, "--report", str(d / "report.json")]
        if a.log:
            argv += ["--log", str(d / "log.jsonl")]
        p = subprocess.Popen(argv, cwd=ROOT, stdout=open(d / "output.txt", "w"),
                             stderr=subprocess.PIPE, text=True)
        t = threading.Thread(target=relay, args=(i, p.stderr), daemon=True)
        t.start()
        procs.append((p, t, d, argv))

    reports, failed = [], []
    for i, (p, t, d, argv) in enumerate(procs):
        code = p.wait()
        t.join()
        text = (d / "output.txt").read_text()
        if code == 0 and text.strip():
            print(f"[shard {i}] {text.strip().splitlines()[-1]}", flush=True)
        rep = d / "report.json"
        if code != 0 or not rep.exists():
            failed.append(i)
        if rep.exists():
            reports.append(json.loads(rep.read_text()))
        else:
            reports.append({"seed": plan[i][0], "passed": False,
                            "failure": f"ni_sim exited {code} without a report"})
    wall = time.monotonic() - start

    m = merge(reports, wall)
    (out / "report.json").write_text(json.dumps(m, indent=2) + "\n")
    for i in failed:
        print(f"--- shard {i} ({' '.join(procs[i][3])}):")
        print((procs[i][2] / "output.txt").read_text(), end="")
    status = "PASS" if not failed and m["passed"] else "FAIL"
    print(f"{status} {m['transfers']} transfers in {shards} shard(s) of {m['nodes']} nodes "
          f"({m['completed']} DONE, {m['errors']} ERROR, {m['mismatches']} mismatches, "
          f"{m['data_mismatches']} data mismatches), {m['bytes_delivered']} bytes delivered, "
          f"{m['cycles']} cycles in {wall:.0f} s ({m['cycles_per_second']:.0f} cycles/s)")
    print(f"report: {a.out}/report.json")
    return 0 if status == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
