#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Digests of the event logs of a fixed set of runs: the evidence that a refactor or a
speed-up changed nothing (the same seed, configuration and RTL give the same --log, byte for
byte; ICD 9).

Runs build/ni_sim (or --sim) on the random runs of a set of the test plan
tests/testplan.json (default "mutants": the engine under every stress configuration, the full
NI on 2 nodes, a duplicating network) and on every scenario of vectors/, each with --log, and
prints one SHA-256 per run and one over all of them. Compare two binaries with
`log_digest.py --sim A > a.txt; log_digest.py --sim B > b.txt; diff a.txt b.txt`, or give
--against B to run both and report the runs whose logs differ (exit 1 when any does).

Usage: log_digest.py [--sim BIN] [--against BIN2] [--set NAME] [-j N]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import glob
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import testplan  # noqa: E402


def runs(set_name: str) -> list[tuple[str, list[str]]]:
    out = [(testplan.run_name(r), testplan.run_args(r))
           for r in testplan.runs(testplan.load(), set_name)]
    for v in sorted(glob.glob(str(ROOT / "vectors" / "*.json"))):
        out.append((f"vector {Path(v).stem}", ["--scenario", str(Path(v).relative_to(ROOT))]))
    return out


def digest(sim: str, name: str, args: list[str], d: Path) -> tuple[str, str]:
    log = d / (hashlib.sha1(name.encode()).hexdigest() + ".jsonl")
    p = subprocess.run([sim, "--quiet", "--threads", "1", "--log", str(log)] + args, cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        return name, f"exit {p.returncode}"
    return name, hashlib.sha256(log.read_bytes()).hexdigest()


def all_digests(sim: str, set_name: str, jobs: int) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as d:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            fs = [ex.submit(digest, sim, n, a, Path(d)) for n, a in runs(set_name)]
            return dict(f.result() for f in fs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", default="build/ni_sim")
    ap.add_argument("--against", help="a second simulator: report the runs whose logs differ")
    ap.add_argument("--set", default="mutants", help="the test plan's set of random runs")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    mine = all_digests(a.sim, a.set, a.jobs)
    if a.against:
        other = all_digests(a.against, a.set, a.jobs)
        diff = [n for n in mine if mine[n] != other.get(n)]
        for n in diff:
            print(f"DIFFERS  {n}: {mine[n][:16]} vs {other.get(n, '?')[:16]}")
        print(f"{len(mine) - len(diff)} of {len(mine)} runs give the same log")
        return 1 if diff else 0
    total = hashlib.sha256()
    for n in sorted(mine):
        print(f"{mine[n]}  {n}")
        total.update(f"{n} {mine[n]}\n".encode())
    print(f"{total.hexdigest()}  ALL")
    return 0


if __name__ == "__main__":
    sys.exit(main())
