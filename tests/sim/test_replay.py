#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""--record writes a run's stimulus as a scenario; replaying it gives a byte-identical --log.

Checked for random runs of several seeds and configurations (stalls, reordering, illegal
writes; the full NI on 2 and 3 nodes, with a duplicating network), and for a replay of a
replay (the recorder also works on scenario runs).
Usage: test_replay.py [NI_SIM]   (default build/ni_sim)
"""
import filecmp
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIM = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "ni_sim")
CASES = [
    (11, None, 400),
    (12, "sim/configs/regress.json", 400),
    (13, "sim/configs/heavy_stall.json", 300),
    (14, "sim/configs/heavy_illegal.json", 300),
    (15, "sim/configs/heavy_reorder.json", 300),
    (19, "sim/configs/retx_faults.json", 400),  # timeouts, NACK storms, lost and late ACKs
    # the full NI (ICD 15): 2 and 3 nodes, and a network that duplicates packets
    (16, "sim/configs/regress_ni.json", 60),
    (17, "sim/configs/ni_heavy.json", 40),
    (18, "sim/configs/ni_dup.json", 60),
    (19, "sim/configs/regress_faults.json", 30),
]


def run(args):
    p = subprocess.run([SIM, "--quiet"] + args, cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        for seed, cfg, n in CASES:
            name = f"seed {seed}" + (f" {cfg}" if cfg else "")
            rec, log1, log2, log3, rec2 = (d / f"{seed}.{x}" for x in
                                           ("rec.json", "1.jsonl", "2.jsonl", "3.jsonl", "rec2.json"))
            args = ["--seed", str(seed), "--transfers", str(n), "--record", str(rec), "--log", str(log1)]
            if cfg:
                args += ["--config", cfg]
            code, out = run(args)
            if code != 0:
                print(f"FAIL {name}: random run failed\n{out}")
                failures += 1
                continue
            code, out = run(["--scenario", str(rec), "--log", str(log2), "--record", str(rec2)])
            if code != 0:
                print(f"FAIL {name}: replay failed\n{out}")
                failures += 1
                continue
            if not filecmp.cmp(log1, log2, shallow=False):
                print(f"FAIL {name}: replay log differs from the original")
                failures += 1
                continue
            code, out = run(["--scenario", str(rec2), "--log", str(log3)])
            if code != 0 or not filecmp.cmp(log1, log3, shallow=False):
                print(f"FAIL {name}: replay of the replay's recording differs\n{out}")
                failures += 1
                continue
            lines = sum(1 for _ in open(log1))
            print(f"ok   {name}: {lines} log lines identical after replay and re-replay")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
