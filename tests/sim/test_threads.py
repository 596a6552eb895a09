#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ni_sim --threads N and ni_sim --full-eval give the same run as the default, byte for byte.

For each case (2 nodes on the regression's mix; 3 nodes on a faulty network with
retransmission; 4 nodes under heavy latency; a scenario replay), the run with one thread is
the reference; runs with 2, 3 and 4 threads, and the run with one thread that evaluates every
scheduling region of the models on both clock phases (--full-eval, Verilator's own eval(),
against the default split evaluation), must write the same --log and the same --report (but
for its wall-clock fields) and print the same PASS line but for its timing. Every run also
prints its --profile, whose first lines say how many threads it really used and whether it
evaluated split, so a run that quietly fell back to one thread, or to the whole evaluation
(which would compare the whole evaluation with itself), fails the test.
Usage: test_threads.py [NI_SIM]   (default build/ni_sim)
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIM = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "ni_sim")

# (name, ni_sim arguments, nodes)
CASES = [
    ("2 nodes, regress_ni", ["--seed", "31", "--transfers", "60", "--config",
                             "sim/configs/regress_ni.json"], 2),
    ("3 nodes, regress_faults", ["--seed", "32", "--transfers", "45", "--nodes", "3",
                                 "--config", "sim/configs/regress_faults.json"], 3),
    ("4 nodes, ni_heavy", ["--seed", "33", "--transfers", "40", "--nodes", "4",
                           "--config", "sim/configs/ni_heavy.json"], 4),
    ("scenario, 2 nodes", ["--scenario", "vectors/ni_net_dup_and_injected.json"], 2),
]
WALL_KEYS = ("wall_seconds", "cycles_per_second")


def run(args, threads, full, log, report):
    p = subprocess.run([SIM, "--threads", str(threads), "--profile", "--log", str(log),
                        "--report", str(report)] + (["--full-eval"] if full else []) + args,
                       cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def threads_used(stderr):
    m = re.search(r"\[profile\] \d+ cycles, (\d+) thread", stderr)
    return int(m.group(1)) if m else None


def evaluation(stderr):
    m = re.search(r"\[profile\] models' eval \(both phases, (split|whole)\)", stderr)
    return m.group(1) if m else None


def strip_timing(out):
    return re.sub(r" in [0-9.]+ s \([0-9.]+ cycles/s\)", "", out)


def main():
    failures = 0
    checked = 0
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        for name, args, nodes in CASES:
            if "--scenario" in args and not (ROOT / args[args.index("--scenario") + 1]).exists():
                print(f"FAIL {name}: {args[args.index('--scenario') + 1]} does not exist")
                failures += 1
                continue
            ref = None
            runs = [(t, False) for t in (1, 2, 3, 4) if t <= nodes] + [(1, True)]
            for threads, full in runs:
                what = "--full-eval" if full else f"--threads {threads}"
                log, rep = d / f"{threads}{full}.jsonl", d / f"{threads}{full}.json"
                code, out, err = run(args, threads, full, log, rep)
                used, ev = threads_used(err), evaluation(err)
                want = "whole" if full else "split"
                if code != 0 or used != threads or ev != want:
                    print(f"FAIL {name}, {what}: exit {code}, threads used {used}, evaluation "
                          f"{ev} (want {want})\n{out}{err}")
                    failures += 1
                    break
                report = json.loads(rep.read_text())
                for k in WALL_KEYS:
                    report.pop(k, None)
                this = (log.read_bytes(), report, strip_timing(out))
                if ref is None:
                    ref = this
                    if not this[0]:
                        print(f"FAIL {name}: the one-thread run wrote an empty log")
                        failures += 1
                        break
                    continue
                checked += 1
                what_run = what
                for what, a, b in (("--log", ref[0], this[0]), ("--report", ref[1], this[1]),
                                   ("output", ref[2], this[2])):
                    if a != b:
                        print(f"FAIL {name}: {what} of {what_run} differs from --threads 1")
                        failures += 1
            else:
                print(f"ok   {name}: --threads 1..{min(nodes, 4)} and --full-eval identical "
                      f"({len(ref[0])} log bytes)")
    if checked == 0:
        print("FAIL: no multi-threaded run was compared")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
