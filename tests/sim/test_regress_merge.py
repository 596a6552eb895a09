#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The sharded regressions' plumbing: scripts/regress.py runs shards and merges their reports,
scripts/check_report.py --all-done judges the merge (make regress-faults runs both).

A small fault run in 2 shards must pass, its merged totals must be the sums of the shards'
reports, and check_report must add up the shards' injected faults and recoveries; a merged
report with an ERROR transfer in one shard must fail --all-done (exit 1), and an unreadable
report must exit 2.
Usage: test_regress_merge.py [NI_SIM]   (default build/ni_sim)
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIM = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "ni_sim")
PY = sys.executable


def run(argv):
    return subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def main():
    failures = []
    with tempfile.TemporaryDirectory(dir=ROOT / "build") as d:
        out = Path(d).relative_to(ROOT) / "faults"
        p = run([PY, "scripts/regress.py", "--sim", SIM, "--config", "sim/configs/regress_faults.json",
                 "--seed", "5", "--transfers", "24", "--shards", "2", "--out", str(out)])
        if p.returncode != 0:
            print(f"FAIL: regress.py exited {p.returncode}:\n{p.stdout}")
            return 1
        merged = json.loads((ROOT / out / "report.json").read_text())
        shards = merged["shards"]
        if len(shards) != 2 or [s["seed"] for s in shards] != [5, 6]:
            failures.append(f"shards {[s.get('seed') for s in shards]}, expected seeds 5 and 6")
        for k in ("transfers", "completed", "errors", "bytes_delivered", "cycles"):
            if merged[k] != sum(s[k] for s in shards):
                failures.append(f"merged {k} {merged[k]} is not the shards' sum")
        if merged["transfers"] != 24 or merged["completed"] != 24:
            failures.append(f"{merged['completed']} of {merged['transfers']} DONE, expected 24 of 24")

        p = run([PY, "scripts/check_report.py", str(out / "report.json"), "--all-done"])
        if p.returncode != 0 or "check_report: PASS: 24 DONE, 0 ERROR of 24" not in p.stdout:
            failures.append(f"check_report on the merge: exit {p.returncode}:\n{p.stdout}")
        m = re.search(r"faults injected: (\d+) dropped, (\d+) corrupted, (\d+) duplicated; "
                      r"recovered by (\d+) retransmissions \((\d+) after", p.stdout)
        fault_sets = [f for s in shards for f in s["faults_injected"].values()]
        want = [sum(f["dropped"] for f in fault_sets), sum(f["corrupted"] for f in fault_sets),
                sum(f["duplicated"] for f in fault_sets),
                sum(n["retransmissions"] for s in shards for n in s["per_node"]),
                sum(n["timeouts"] for s in shards for n in s["per_node"])]
        if not m or [int(x) for x in m.groups()] != want:
            failures.append(f"check_report's fault line {m.groups() if m else None}, expected the "
                            f"shards' sums {want}:\n{p.stdout}")
        if sum(want[:3]) == 0:
            failures.append("the fault run injected no fault; the sums above prove nothing")

        bad = json.loads(json.dumps(merged))
        bad["shards"][1]["errors"] = 1
        bad["shards"][1]["completed"] -= 1
        bad["errors"], bad["completed"] = 1, merged["completed"] - 1
        (ROOT / out / "bad.json").write_text(json.dumps(bad))
        p = run([PY, "scripts/check_report.py", str(out / "bad.json"), "--all-done"])
        if p.returncode != 1 or "ended ERROR" not in p.stdout:
            failures.append(f"a merge with an ERROR passed --all-done (exit {p.returncode}):\n{p.stdout}")
        (ROOT / out / "broken.json").write_text("{")
        p = run([PY, "scripts/check_report.py", str(out / "broken.json")])
        if p.returncode != 2:
            failures.append(f"an unreadable report: exit {p.returncode}, expected 2")
    for f in failures:
        print(f"FAIL: {f}")
    if not failures:
        print(f"PASS: 24 transfers under faults in 2 shards merged and judged "
              f"({want[0]} dropped, {want[1]} corrupted, {want[2]} duplicated)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
