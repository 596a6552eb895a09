#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ni_sim --coverage writes functional coverage that scripts/coverage_report.py merges.

Two short runs (a random one and a directed scenario) write their coverage; the script
merges them (functional coverage only: the normal build has no Verilator coverage), and the
merged counts must be the sums, the report must exist and list the holes first, a few bins
that any run hits must be hit, and the declared-unreachable bins must not be.
Usage: test_coverage.py [NI_SIM]   (default build/ni_sim)
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIM = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "ni_sim")


def bins(j):
    return {(g["name"], b["name"]): b for g in j["groups"] for b in g["bins"]}


def main():
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        runs = [["--seed", "3", "--transfers", "300", "--config", "sim/configs/heavy_illegal.json"],
                ["--scenario", "vectors/cov_line1_rules.json"],
                ["--seed", "2", "--transfers", "150", "--config", "sim/configs/cov_ni_small.json"],
                ["--scenario", "vectors/ni_bad_pcrc_nack.json"]]
        files = []
        for i, args in enumerate(runs):
            f = d / f"run{i}.json"
            p = subprocess.run([SIM, "--quiet", "--coverage", str(f)] + args, cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if p.returncode != 0:
                print(f"FAIL: ni_sim {' '.join(args)}:\n{p.stdout}")
                return 1
            files.append(f)
        parts = [bins(json.loads(f.read_text())) for f in files]
        out = d / "out"
        p = subprocess.run([sys.executable, "scripts/coverage_report.py", "--out", str(out)] +
                           [str(f) for f in files], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0 or "functional coverage:" not in p.stdout:
            print(f"FAIL: coverage_report.py:\n{p.stdout}")
            return 1
        merged = bins(json.loads((out / "functional.json").read_text()))
        bad = [k for k in merged if merged[k]["count"] != sum(x.get(k, {}).get("count", 0) for x in parts)]
        if bad:
            print(f"FAIL: merged counts are not the sums: {bad[:5]}")
            return 1
        must = [("mh.path", "ack-accepted"), ("s2.path", "issue-first-block"),
                ("slverr.write", "line1-R8"), ("write.path", "pending-long-abandoned"),
                ("status.transition", "BUSY->DONE"), ("desc.kind_size", "inline/2-16"),
                # the full NI
                ("ni.tx.kind", "data"), ("ni.rx.order", "overtaken"), ("ni.rx.ctrl", "before-data"),
                ("ni.tx.align", "beats-16"), ("ni.rx.bad", "pcrc")]
        missing = [k for k in must if merged.get(k, {}).get("count", 0) == 0]
        if missing:
            print(f"FAIL: bins not hit: {missing}")
            return 1
        hit_unreachable = [k for k, b in merged.items() if b.get("unreachable") and b["count"]]
        if hit_unreachable:
            print(f"FAIL: bins declared unreachable were hit: {hit_unreachable}")
            return 1
        report = (out / "report.md").read_text()
        if report.find("## Functional bins never hit") > report.find("## All bins"):
            print("FAIL: report.md does not list the holes before the full list")
            return 1
    print("PASS: functional coverage written, merged and reported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
