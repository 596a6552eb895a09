#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Coverage of the regression: run it, merge it, report it (what `make coverage` runs).

  --run   runs the coverage regression with a coverage build of the simulator (--sim, built
          by `make coverage` into build/cov/ with Verilator --coverage): the random runs of
          RUNS below and every directed scenario in vectors/, each writing its functional
          coverage (ni_sim --coverage, JSON) and its Verilator line/toggle coverage
          (--code-coverage, .dat) into OUT/runs/.
Then (with or without --run) it merges everything in OUT/runs/ (or the files given):
  * functional coverage: counts summed per bin -> OUT/functional.json;
  * Verilator coverage: verilator_coverage --write OUT/merged.dat, annotated sources in
    OUT/annotated/ (lines not hit are marked), a per-module summary;
and writes the readable report OUT/report.md: the summary, the functional bins never hit
(first), the bins that cannot be reached and why, then every bin with its count.

Exit status 1 when a run failed (its coverage is still merged and the report says so).

usage: coverage_report.py [--run] [--sim BIN] [--out DIR] [-j N] [--transfers N] [FILE...]
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP_NAME = "qos_engine"

# Random runs of the coverage regression: the runs of set "coverage" of the test plan
# (tests/testplan.json), each with --transfers transfers (default 4000). The cov_* configs
# are the stimulus added for coverage closure (queues and ID FIFOs at their edges,
# back-pressure, NACK paths); the full-NI configs set "nodes".
sys.path.insert(0, str(ROOT / "scripts"))
import testplan  # noqa: E402
RUNS = [(r["name"], r.get("config"), r["seed"]) for r in testplan.runs(testplan.load(), "coverage")]


# ------------------------------------------------------------------------------------------------
# Running
# ------------------------------------------------------------------------------------------------
def run_all(sim: str, out: Path, jobs: int, transfers: int) -> list[dict]:
    runs_dir = out / "runs"
    if runs_dir.exists():
        shutil.rmtree(runs_dir)
    runs_dir.mkdir(parents=True)
    cmds = []
    for name, cfg, seed in RUNS:
        tag = f"{name}_s{seed}"
        argv = [sim, "--quiet", "--seed", str(seed), "--transfers", str(transfers)]
        if cfg:
            argv += ["--config", cfg]
        cmds.append((tag, argv))
    for v in sorted(glob.glob(str(ROOT / "vectors" / "*.json"))):
        tag = "vector_" + Path(v).stem
        cmds.append((tag, [sim, "--quiet", "--scenario", str(Path(v).relative_to(ROOT))]))

    def one(tag: str, argv: list[str]) -> dict:
        rd = os.path.relpath(runs_dir, ROOT)
        argv = argv + ["--coverage", f"{rd}/{tag}.json", "--code-coverage", f"{rd}/{tag}.dat"]
        t0 = time.monotonic()
        p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
        r = {"run": tag, "command": " ".join(argv), "status": p.returncode,
             "seconds": round(time.monotonic() - t0, 1),
             "output": p.stdout.decode(errors="replace").strip()}
        print(f"{'PASS' if p.returncode == 0 else 'FAIL'}  coverage run {tag}  [{r['seconds']} s]",
              flush=True)
        if p.returncode != 0:
            print("    " + r["output"].replace("\n", "\n    "), flush=True)
        return r

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(lambda c: one(*c), cmds))
    (out / "runs.json").write_text(json.dumps(results, indent=1) + "\n")
    return results


# ------------------------------------------------------------------------------------------------
# Functional coverage
# ------------------------------------------------------------------------------------------------
def merge_functional(files: list[Path]) -> dict:
    groups: dict[str, dict] = {}
    order: list[str] = []
    sources = []
    for f in files:
        j = json.loads(f.read_text())
        if j.get("format") != "ni-fcov/1":
            raise SystemExit(f"{f}: not a functional coverage file (format ni-fcov/1)")
        sources += [dict(s, file=f.name) for s in j.get("sources", [])]
        for g in j["groups"]:
            if g["name"] not in groups:
                groups[g["name"]] = {"name": g["name"], "description": g["description"], "bins": {}}
                order.append(g["name"])
            bins = groups[g["name"]]["bins"]
            for b in g["bins"]:
                e = bins.setdefault(b["name"], {"name": b["name"], "count": 0})
                e["count"] += b["count"]
                if b.get("unreachable"):
                    e["unreachable"] = b["unreachable"]
    return {"format": "ni-fcov/1", "sources": sources,
            "groups": [{"name": n, "description": groups[n]["description"],
                        "bins": list(groups[n]["bins"].values())} for n in order]}


# ------------------------------------------------------------------------------------------------
# Verilator coverage
# ------------------------------------------------------------------------------------------------
_KEY = re.compile(r"\x01([^\x02]+)\x02([^\x01']*)")


def read_dat(path: Path) -> list[tuple[dict, int]]:
    points = []
    for line in path.read_text(errors="replace").splitlines():
        if not line.startswith("C '"):
            continue
        body, _, count = line[3:].rpartition("' ")
        keys = dict(_KEY.findall(body))
        points.append((keys, int(count)))
    return points


def code_summary(points: list[tuple[dict, int]]) -> dict:
    """{"instance (module)": {kind: [hit, total]}}, kind = line / branch / toggle. Verilator
    shares one copy of identical instances (e.g. u_tt_* for u_tt_even and u_tt_odd)."""
    s: dict[str, dict[str, list[int]]] = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for keys, count in points:
        page = keys.get("page", "?/?")
        kind, _, module = page.partition("/")
        kind = kind.removeprefix("v_")
        inst = keys.get("h", "?").split(".", 2)[-1] if keys.get("h", "").count(".") >= 2 else TOP_NAME
        e = s[f"{inst} ({module.split('__')[0]})" if inst != TOP_NAME else TOP_NAME][kind]
        e[1] += 1
        e[0] += 1 if count > 0 else 0
    return {m: dict(k) for m, k in s.items()}


def merge_code(dats: list[Path], out: Path) -> dict | None:
    if not dats:
        return None
    tool = shutil.which("verilator_coverage")
    if tool is None:
        raise SystemExit("coverage_report: verilator_coverage not found (scripts/deps.sh installs Verilator)")
    merged = out / "merged.dat"
    subprocess.run([tool, "--write", str(merged)] + [str(d) for d in dats], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL)
    ann = out / "annotated"
    if ann.exists():
        shutil.rmtree(ann)
    subprocess.run([tool, "--annotate", str(ann), "--annotate-min", "1", str(merged)], check=True,
                   cwd=ROOT, stdout=subprocess.DEVNULL)
    return code_summary(read_dat(merged))


# ------------------------------------------------------------------------------------------------
# Report
# ------------------------------------------------------------------------------------------------
def pct(hit: int, total: int) -> str:
    return f"{100.0 * hit / total:.1f}%" if total else "-"


def report(fcov: dict, code: dict | None, runs: list[dict] | None, out: Path) -> tuple[str, bool]:
    lines = ["# Coverage report", ""]
    holes, unreachable, total, hit = [], [], 0, 0
    for g in fcov["groups"]:
        for b in g["bins"]:
            if b.get("unreachable"):
                unreachable.append((g["name"], b))
                continue
            total += 1
            if b["count"] > 0:
                hit += 1
            else:
                holes.append((g["name"], b))
    failed = [r for r in (runs or []) if r["status"] != 0]

    lines.append(f"Generated by `scripts/coverage_report.py` from {len(fcov['sources'])} runs "
                 f"({len(failed)} failed).")
    lines.append("")
    lines.append("## Summary")
    lines.append("")
    lines.append(f"Functional coverage: **{hit} of {total} reachable bins hit ({pct(hit, total)})**; "
                 f"{len(unreachable)} more bins cannot be reached by construction (listed with the "
                 "reason below).")
    lines.append("")
    lines.append("| group | bins hit | bins | unreachable | description |")
    lines.append("|---|---:|---:|---:|---|")
    for g in fcov["groups"]:
        reach = [b for b in g["bins"] if not b.get("unreachable")]
        h = sum(1 for b in reach if b["count"] > 0)
        u = len(g["bins"]) - len(reach)
        lines.append(f"| {g['name']} | {h} | {len(reach)} | {u} | {g['description']} |")
    lines.append("")
    if code is not None:
        kinds = sorted({k for m in code.values() for k in m})
        lines.append("Verilator code coverage of the RTL (merged over all runs; per instance, "
                     "Verilator shares identical instances such as `u_tt_*`; annotated sources in "
                     "`annotated/`, lines marked `%` were not hit):")
        lines.append("")
        lines.append("| instance (module) | " + " | ".join(f"{k} hit / points" for k in kinds) + " |")
        lines.append("|---|" + "---:|" * len(kinds))
        tot = collections.defaultdict(lambda: [0, 0])
        for m in sorted(code):
            cells = []
            for k in kinds:
                h, n = code[m].get(k, [0, 0])
                tot[k][0] += h
                tot[k][1] += n
                cells.append(f"{h} / {n} ({pct(h, n)})" if n else "-")
            lines.append(f"| {m} | " + " | ".join(cells) + " |")
        lines.append("| **total** | " + " | ".join(f"{tot[k][0]} / {tot[k][1]} ({pct(*tot[k])})" for k in kinds) + " |")
        lines.append("")
    if runs is not None:
        lines.append("Runs:")
        lines.append("")
        for r in runs:
            st = "PASS" if r["status"] == 0 else f"**FAIL** (exit {r['status']})"
            lines.append(f"- {st} `{r['run']}` ({r['seconds']} s): `{r['command']}`")
            if r["status"] != 0:
                lines.append("")
                lines.append("  ```")
                lines += ["  " + l for l in r["output"].splitlines()[-10:]]
                lines.append("  ```")
        lines.append("")

    lines.append("## Functional bins never hit")
    lines.append("")
    if holes:
        lines += [f"- `{g}` / `{b['name']}`" for g, b in holes]
    else:
        lines.append("None: every reachable bin was hit.")
    lines.append("")
    lines.append("## Bins that cannot be reached")
    lines.append("")
    if unreachable:
        lines += [f"- `{g}` / `{b['name']}`" + (f" (hit {b['count']} times!)" if b["count"] else "")
                  + f": {b['unreachable']}" for g, b in unreachable]
    else:
        lines.append("None.")
    lines.append("")
    lines.append("## All bins")
    for g in fcov["groups"]:
        lines.append("")
        lines.append(f"### {g['name']}")
        lines.append("")
        lines.append(g["description"])
        lines.append("")
        lines.append("| bin | count |")
        lines.append("|---|---:|")
        for b in g["bins"]:
            c = "unreachable" if b.get("unreachable") and not b["count"] else str(b["count"])
            lines.append(f"| {b['name']} | {c if b['count'] or b.get('unreachable') else '**0**'} |")
    text = "\n".join(lines) + "\n"
    (out / "report.md").write_text(text)
    summary = f"functional coverage: {hit}/{total} reachable bins hit ({pct(hit, total)}), " \
              f"{len(unreachable)} unreachable, {len(holes)} holes"
    if holes:
        summary += ": " + ", ".join(f"{g}/{b['name']}" for g, b in holes[:20]) + (" ..." if len(holes) > 20 else "")
    if code is not None:
        tot = collections.defaultdict(lambda: [0, 0])
        for m in code.values():
            for k, (h, n) in m.items():
                tot[k][0] += h
                tot[k][1] += n
        summary += "\ncode coverage (Verilator): " + ", ".join(
            f"{k} {h}/{n} ({pct(h, n)})" for k, (h, n) in sorted(tot.items()))
    return summary, not failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", action="store_true", help="run the coverage regression first")
    ap.add_argument("--sim", default="build/cov/ni_sim")
    ap.add_argument("--out", default="build/coverage")
    ap.add_argument("-j", "--jobs", type=int, default=int(os.environ.get("RUN_TESTS_JOBS", 2)))
    ap.add_argument("--transfers", type=int, default=4000)
    ap.add_argument("files", nargs="*", help="coverage files to merge (default: OUT/runs/*)")
    args = ap.parse_args()
    out = (ROOT / args.out) if not Path(args.out).is_absolute() else Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    runs = None
    t0 = time.monotonic()
    if args.run:
        runs = run_all(args.sim, out, args.jobs, args.transfers)
    elif (out / "runs.json").exists() and not args.files:
        runs = json.loads((out / "runs.json").read_text())
    files = [Path(f) for f in args.files] if args.files else sorted((out / "runs").glob("*"))
    jsons = [f for f in files if f.suffix == ".json"]
    dats = [f for f in files if f.suffix == ".dat"]
    if not jsons:
        raise SystemExit("coverage_report: no functional coverage files (run with --run, or `make coverage`)")
    fcov = merge_functional(jsons)
    (out / "functional.json").write_text(json.dumps(fcov, indent=1) + "\n")
    code = merge_code(dats, out)
    summary, ok = report(fcov, code, runs, out)
    print(summary)
    print(f"report: {(out / 'report.md').relative_to(ROOT) if out.is_relative_to(ROOT) else out / 'report.md'}"
          f"  [{time.monotonic() - t0:.0f} s]")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
