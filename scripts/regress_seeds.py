#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run the random regression over many seeds in parallel and summarise pass/fail per seed.

Usage: regress_seeds.py [-n N] [--first S] [-j JOBS] [--transfers T] [--config FILE] [--sim BIN]
Each seed runs build/ni_sim with its own report in build/regress-seeds/seed-<S>.json; one
line per seed as it finishes, the failing seeds' first failure and reproduce command, and a
final summary line. Exit status 0 only when every seed passed.
"""
import argparse
import concurrent.futures
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=8, help="number of seeds (default 8)")
    ap.add_argument("--first", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--transfers", type=int, default=100000)
    ap.add_argument("--config", default="sim/configs/regress.json")
    ap.add_argument("--sim", default="build/ni_sim")
    a = ap.parse_args()
    out = ROOT / "build" / "regress-seeds"
    out.mkdir(parents=True, exist_ok=True)
    seeds = list(range(a.first, a.first + a.n))

    def run(seed: int):
        rep = out / f"seed-{seed}.json"
        argv = [a.sim, "--quiet", "--seed", str(seed), "--transfers", str(a.transfers),
                "--report", str(rep)]
        if a.config:
            argv += ["--config", a.config]
        t = time.monotonic()
        p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return seed, p.returncode, p.stdout, time.monotonic() - t, rep

    failed = []
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for seed, code, text, secs, rep in ex.map(run, seeds):
            info = ""
            try:
                r = json.loads(rep.read_text())
                info = (f"{r['transfers']} transfers, {r['blocks']} blocks, {r['cycles']} cycles, "
                        f"{r['cycles_per_second'] / 1000:.0f} kHz")
            except (OSError, ValueError, KeyError):
                pass
            if code == 0:
                print(f"PASS seed {seed:4d}  {secs:6.1f} s  {info}", flush=True)
            else:
                failed.append(seed)
                first = next((l for l in text.splitlines() if l.startswith("FAIL")), text.strip()[-200:])
                repro = next((l for l in text.splitlines() if l.startswith("reproduce:")), "")
                print(f"FAIL seed {seed:4d}  {secs:6.1f} s  {first}\n           {repro}", flush=True)
    total = time.monotonic() - start
    print(f"{len(seeds) - len(failed)} of {len(seeds)} seeds passed in {total:.0f} s"
          + (f"; failing seeds: {' '.join(map(str, failed))}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
