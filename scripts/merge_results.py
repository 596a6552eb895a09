#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Merge the per-seed results of a regression into one summary, one JUnit XML and merged
coverage: the last step of `make regress-seeds` and the dependent job of `make regress-slurm`.

Usage: merge_results.py RESULTS [--quiet]

Reads the plan RESULTS/regress.json and every RESULTS/runs/<id>/ (scripts/regress_seeds.py
writes them) and writes
  RESULTS/summary.txt    failing seeds first (first mismatch, reproduce command, trace), then
                         the seeds with no result, then one line per seed, then coverage
  RESULTS/summary.json   the same for programs
  RESULTS/junit.xml      one test case per seed; a seed with no result is an <error>
  RESULTS/coverage/      functional.json (bins summed over the passing runs), report.md, and
                         with a COVERAGE=1 simulator merged.dat and annotated/ (Verilator)
A seed has no result when its run never finished: a task killed (time limit, node failure,
scancel) or never started; `scripts/slurm_regress.py --resubmit-missing RESULTS` runs those
again. Coverage is merged over the passing runs only (a failing run stops early, and its
coverage is not verified behaviour). Prints summary.txt without the per-seed table (--quiet:
only its first line). Exit status 0 only when every seed passed.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import coverage_report
import regress_seeds as rs

SUMMARY_FORMAT = "ni-regress-summary/1"


def load_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def submissions(results: Path) -> list[dict]:
    """Slurm submissions of this plan (scripts/slurm_regress.py), oldest first."""
    return (load_json(results / "slurm" / "submissions.json") or {}).get("submissions", [])


def missing_reason(results: Path, run: dict, subs: list[dict]) -> tuple[str, str]:
    """(reason, log file) for a run without a result."""
    started = load_json(results / "runs" / run["id"] / "started.json")
    log = ""
    for sub in reversed(subs):
        for arr in sub["arrays"]:
            if run["index"] in arr["indices"]:
                log = f"slurm/{arr['job']}_{run['index'] - arr['offset']}.out"
                break
        if log:
            break
    why = ""
    if log and (results / log).exists():
        # slurmstepd writes the reason of a kill into the task's output:
        # "slurmstepd: error: *** JOB 12 ON node CANCELLED AT ... DUE TO TIME LIMIT ***"
        for line in (results / log).read_text(errors="replace").splitlines():
            if "***" in line:
                why = line.split("***")[1].strip()
    if started:
        job = started.get("slurm", {})
        where = f"started on {started['host']} at {started['started']}"
        if job.get("job"):
            where += f" (Slurm job {job['job']}"
            if job.get("array_job"):
                where += f" = {job['array_job']}_{job.get('task')}"
            where += ")"
        why = why or "killed: time limit, node failure, scancel or out of memory?"
        text = f"no result: {where} but did not finish ({why})"
    else:
        if not why and subs:
            why = "task cancelled, or still queued"
        text = "no result: never started" + (f" ({why})" if why else "")
    return text, log


def merge_coverage(results: Path, passed: list[dict], plan: dict) -> tuple[list[str], dict]:
    """Merge the passing runs' coverage into RESULTS/coverage/; summary lines and facts."""
    out = results / "coverage"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    jsons = [results / "runs" / r["id"] / "coverage.json" for r in passed if r.get("coverage")]
    dats = [results / "runs" / r["id"] / "coverage.dat" for r in passed if r.get("code_coverage")]
    info = {"functional_runs": len(jsons), "code_runs": len(dats), "functional": None, "code": None}
    lines = []
    if not plan.get("functional_coverage", True):
        return ["coverage: not collected (--no-coverage)"], info
    if not jsons:
        return ["functional coverage: none (no passing run wrote coverage)"], info
    fcov = coverage_report.merge_functional(jsons)
    (out / "functional.json").write_text(json.dumps(fcov, indent=1) + "\n")
    code, code_note = None, ""
    if dats:
        try:
            code = coverage_report.merge_code(dats, out)
        except (SystemExit, Exception) as e:  # e.g. no verilator_coverage on this node
            code_note = f"code coverage: not merged: {e}"
    elif plan["code_coverage"]:
        code_note = "code coverage: none (no passing run wrote a .dat file)"
    else:
        code_note = (f"code coverage: not collected: {plan['sim']} is not a COVERAGE=1 build "
                     "(functional coverage only; `make coverage` builds build/cov/ni_sim, "
                     "then SIM=build/cov/ni_sim)")
    text, _ = coverage_report.report(fcov, code, None, out)
    reach = [b for g in fcov["groups"] for b in g["bins"] if not b.get("unreachable")]
    info["functional"] = {"bins": len(reach), "hit": sum(1 for b in reach if b["count"] > 0)}
    if code is not None:
        tot: dict[str, list[int]] = {}
        for m in code.values():
            for k, (h, n) in m.items():
                t = tot.setdefault(k, [0, 0])
                t[0] += h
                t[1] += n
        info["code"] = {k: {"hit": h, "points": n} for k, (h, n) in sorted(tot.items())}
    lines.append(f"Coverage merged over the {len(jsons)} passing runs:")
    lines += ["  " + l for l in text.splitlines()]
    if code_note:
        lines.append("  " + code_note)
    lines.append(f"  report: {rs.rel(out / 'report.md')}")
    return lines, info


def merge(results: Path, quiet: bool = False) -> int:
    t0 = time.monotonic()
    plan = rs.load_plan(results)
    subs = submissions(results)
    rows = []
    for run in plan["runs"]:
        res = load_json(results / "runs" / run["id"] / "result.json")
        if res is None or res.get("format") != rs.RESULT_FORMAT:
            reason, log = missing_reason(results, run, subs)
            res = {"index": run["index"], "id": run["id"], "seed": run["seed"],
                   "config": run["config"], "status": "missing", "message": reason,
                   "seconds": 0.0, "log": log}
        rows.append(res)
    failed = [r for r in rows if r["status"] in ("fail", "error")]
    missing = [r for r in rows if r["status"] == "missing"]
    passed = [r for r in rows if r["status"] == "pass"]

    def name(r: dict) -> str:
        return f"seed {r['seed']}" + (f" ({r['config']})" if r["config"] else "")

    configs = sorted({r["config"] or "default" for r in plan["runs"]})
    head = (f"regression {rs.rel(results)}: {len(rows)} runs ({plan['transfers']} transfers each, "
            f"{plan['sim']}, {', '.join(configs)}; {plan['launcher']}): {len(passed)} passed, "
            f"{len(failed)} failed, {len(missing)} no result")
    out = [head, ""]
    if failed:
        out.append(f"Failing seeds ({len(failed)}):")
        for r in failed:
            out.append(f"  {'FAIL ' if r['status'] == 'fail' else 'ERROR'} {name(r)}  "
                       f"[{r['id']}, {r['host']}, {r['seconds']:.1f} s]")
            out.append(f"        {r['message']}")
            out += [f"        {l}" for l in r.get("detail", "").splitlines()[:10] if l.strip()]
            out.append(f"        reproduce: {r['reproduce']}")
            if r.get("trace"):
                note = r.get("trace_note", "")
                cycles = f" ({note.split(' holds ', 1)[-1]})" if note else ""
                out.append(f"        trace: {r['trace']}{cycles} - `make wave FST=...` opens it")
            elif r["status"] == "fail":
                out.append("        trace: none (ni_sim writes a trace window for a check failure, "
                           "not for a timeout; the reproduce command with --trace FILE alone "
                           "dumps the whole run)")
        out.append("")
    if missing:
        out.append(f"Seeds with no result ({len(missing)}):")
        for r in missing:
            out.append(f"  NO RESULT  {name(r)}  [{r['id']}, plan index {r['index']}]  "
                       + r["message"].removeprefix("no result: ")
                       + (f"; Slurm log {rs.rel(results / r['log'])}" if r.get("log") else ""))
        out.append("  resubmit only these: scripts/slurm_regress.py --resubmit-missing "
                   + rs.rel(results))
        out.append("")
    if passed:
        by_cfg: dict[str, list[int]] = {}
        for r in passed:
            by_cfg.setdefault(r["config"] or "default", []).append(r["seed"])
        for cfg, seeds in by_cfg.items():
            out.append(f"Passed: {cfg}: seeds {rs.format_ranges(seeds)}")
        out.append("")
    cov_lines, cov_info = merge_coverage(results, passed, plan)
    out += cov_lines

    # One JUnit XML: every run's own test case, and an <error> for each run with no result.
    suite = ET.Element("testsuite", name="regress", tests=str(len(rows)),
                       failures=str(sum(r["status"] == "fail" for r in rows)),
                       errors=str(sum(r["status"] in ("error", "missing") for r in rows)),
                       skipped="0", time=f"{sum(r['seconds'] for r in rows):.3f}")
    for r in rows:
        case = None
        if r["status"] != "missing":
            try:
                case = ET.parse(results / "runs" / r["id"] / "junit.xml").getroot().find("testcase")
            except (OSError, ET.ParseError):
                case = None
            if case is None:
                case = rs.junit_case(r, "")
        else:
            case = ET.Element("testcase", classname=f"regress.{rs.config_stem(r['config'])}",
                              name=f"seed {r['seed']}", time="0")
            log = f"\nSlurm log: {rs.rel(results / r['log'])}" if r.get("log") else ""
            ET.SubElement(case, "error", message=r["message"], type="no result").text = (
                r["message"] + log)
        suite.append(case)
    top = ET.Element("testsuites", name="ni_sim regression", tests=suite.get("tests"),
                     failures=suite.get("failures"), errors=suite.get("errors"),
                     time=suite.get("time"))
    top.append(suite)
    rs.write_xml(results / "junit.xml", top)
    out.append(f"JUnit: {rs.rel(results / 'junit.xml')}")

    table = ["", "Per seed:"]
    order = {"fail": 0, "error": 0, "missing": 1, "pass": 2}
    for r in sorted(rows, key=lambda r: (order[r["status"]], r["index"])):
        st = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "missing": "NO RESULT"}[r["status"]]
        rep = r.get("report") or {}
        extra = f"{rep['cycles']} cycles" if rep.get("cycles") is not None else ""
        table.append(f"  {st:9s} {r['id']:28s} {r['seconds']:7.1f} s  "
                     f"{r.get('host', '-'):12s} {extra}")
    (results / "summary.txt").write_text("\n".join(out + table) + "\n")
    rs.write_json(results / "summary.json", {
        "format": SUMMARY_FORMAT, "merged": rs.now_iso(), "results": str(results),
        "runs": len(rows), "passed": len(passed), "failed": len(failed), "missing": len(missing),
        "failing_ids": [r["id"] for r in failed], "missing_indices": [r["index"] for r in missing],
        "coverage": cov_info,
        "per_run": [{k: r.get(k) for k in ("index", "id", "seed", "config", "status", "message",
                                           "seconds", "host", "reproduce", "trace", "log")}
                    for r in rows]})
    print(head if quiet else "\n".join(out))
    print(f"summary: {rs.rel(results / 'summary.txt')}  [merged in {time.monotonic() - t0:.1f} s]")
    return 0 if not failed and not missing else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", help="results directory (holds regress.json)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    return merge(rs.results_dir(a.results), a.quiet)


if __name__ == "__main__":
    sys.exit(main())
