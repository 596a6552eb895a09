#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks an ni_sim --report beyond the exit status: `--all-done` requires every transfer to have
ended DONE (no ERROR) with no data mismatch, as the fault regression demands (make
regress-faults: retransmission must recover every injected fault). Prints the faults
injected and what recovered them.

REPORT may be a single run's report or the merged report of scripts/regress.py (its shards'
faults are added up).

Usage: check_report.py REPORT.json [--all-done]
"""
import argparse
import json
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report")
    ap.add_argument("--all-done", action="store_true", help="fail on any ERROR transfer")
    a = ap.parse_args()
    try:
        r = json.load(open(a.report))
    except (OSError, json.JSONDecodeError) as e:
        print(f"check_report: error: {a.report}: {e}", file=sys.stderr)
        return 2
    ok = bool(r.get("passed"))
    if a.all_done and (r.get("errors", 0) != 0 or r.get("completed") != r.get("transfers")):
        print(f"check_report: {r.get('errors')} of {r.get('transfers')} transfers ended ERROR "
              f"(expected every one DONE)")
        ok = False
    if r.get("data_mismatches", 0):
        print(f"check_report: {r['data_mismatches']} data mismatch(es)")
        ok = False
    # A merged report of scripts/regress.py holds each shard's own report under "shards".
    runs = r.get("shards") or [r]
    fault_sets = [n for s in runs for n in s.get("faults_injected", {}).values()]
    if fault_sets:
        inj = {k: sum(n.get(k, 0) for n in fault_sets) for k in ("dropped", "corrupted", "duplicated")}
        rec = {k: sum(p.get(k, 0) for s in runs for p in s.get("per_node", []))
               for k in ("retransmissions", "timeouts")}
        print(f"faults injected: {inj['dropped']} dropped, {inj['corrupted']} corrupted, "
              f"{inj['duplicated']} duplicated; recovered by {rec['retransmissions']} "
              f"retransmissions ({rec['timeouts']} after a timeout)")
    print(f"check_report: {'PASS' if ok else 'FAIL'}: {r.get('completed')} DONE, {r.get('errors')} ERROR "
          f"of {r.get('transfers')} transfers")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
