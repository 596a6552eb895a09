#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The random regression on a Slurm cluster: one job array (one seed per task), then a
dependent job that merges the results (what `make regress-slurm` runs).

Usage:
  slurm_regress.py [--seeds 1-1000] [--config FILE]... [--group CONFIG:SEEDS]...
                   [--transfers N] [--partition P] [--max-parallel N] [--time T]
                   [--results DIR] [--sim BIN] [--sbatch-arg ARG]... [--python PY] [--wait]
  slurm_regress.py --resubmit-missing DIR [--partition P] [--max-parallel N] ... [--wait]
  slurm_regress.py --wait-for DIR

Submitting writes the plan DIR/regress.json (scripts/regress_seeds.py), submits
  * one `sbatch --array=0-<N-1>%<max-parallel> --requeue` job: task i runs plan entry i
    (`regress_seeds.py --task DIR`) and writes DIR/runs/<id>/ (report JSON, JUnit XML,
    coverage, and for a failure the reproduce command and the trace window);
  * one job with `--dependency=afterany:<array>` that runs scripts/merge_results.py DIR:
    DIR/summary.txt (failing seeds first), DIR/junit.xml, DIR/coverage/;
and returns (--wait: waits for the merge, prints the summary, exits 0 only when every seed
passed). Slurm's logs go to DIR/slurm/ (task i: <array job>_<i>.out), the batch scripts and
the job ids to DIR/slurm/task.sh, merge.sh, submissions.json.

--requeue lets Slurm rerun a task whose node failed or that was preempted. A task that was
killed for good (time limit, scancel, node lost) leaves no result; the summary lists it and
--resubmit-missing DIR submits an array of only those entries and a new merge job.

The checkout (this script's directory's parent) and DIR must be on storage every node sees,
with the simulator built; the nodes need python3 (standard library only) and the Slurm
client commands (sbatch, squeue) must be in PATH here. SLURM_CONF, if set, says which
cluster. Plans larger than the cluster's MaxArraySize are split over several arrays.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import regress_seeds as rs

ROOT = rs.ROOT


def slurm_cmd(argv: list[str]) -> str:
    """Run a Slurm client command; its stdout, or exit with its error."""
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           stdin=subprocess.DEVNULL, timeout=120)
    except FileNotFoundError:
        raise SystemExit(f"slurm_regress: {argv[0]} not found: run this where the Slurm client "
                         "commands are in PATH (a login node)")
    except subprocess.TimeoutExpired:
        raise SystemExit(f"slurm_regress: {shlex.join(argv)} did not answer in 120 s")
    if p.returncode != 0:
        raise SystemExit(f"slurm_regress: {shlex.join(argv)} failed (exit {p.returncode}): "
                         f"{p.stderr.strip() or p.stdout.strip()}")
    return p.stdout


def max_array_size() -> int:
    """The cluster's MaxArraySize (array indices run 0..MaxArraySize-1); Slurm's default 1001."""
    try:
        out = subprocess.run(["scontrol", "show", "config"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, timeout=60).stdout
        m = re.search(r"^MaxArraySize\s*=\s*(\d+)", out, re.M)
        if m:
            return int(m[1])
    except (OSError, subprocess.TimeoutExpired):
        pass
    return 1001


def chunks(indices: list[int], limit: int) -> list[tuple[int, list[int]]]:
    """Split plan indices into arrays of task ids below LIMIT: (offset, indices), offsets
    multiples of LIMIT, so that in a plan smaller than LIMIT the task id is the plan index."""
    out: dict[int, list[int]] = {}
    for i in sorted(indices):
        out.setdefault(i - i % limit, []).append(i)
    return list(out.items())


def write_script(path: Path, lines: list[str]) -> None:
    path.write_text("#!/bin/sh\n" + "\n".join(lines) + "\n")
    path.chmod(0o755)


def submit(results: Path, indices: list[int], a: argparse.Namespace) -> dict:
    """Submit the array(s) for these plan indices and the merge job; record them."""
    if shutil.which("sbatch") is None:
        raise SystemExit("slurm_regress: sbatch not found: run this where the Slurm client "
                         "commands are in PATH (a login node)")
    sd = results / "slurm"
    sd.mkdir(parents=True, exist_ok=True)
    q = shlex.quote
    py = a.python
    write_script(sd / "task.sh", [
        "# One task of the regression's job array: plan entry $SLURM_ARRAY_TASK_ID +",
        "# $REGRESS_INDEX_OFFSET of regress.json (scripts/slurm_regress.py wrote this file).",
        f"cd {q(str(ROOT))} || exit 1",
        f"exec {q(py)} scripts/regress_seeds.py --task {q(str(results))}"])
    write_script(sd / "merge.sh", [
        "# The regression's merge job: summary.txt, junit.xml, coverage/",
        "# (scripts/merge_results.py).",
        f"cd {q(str(ROOT))} || exit 1",
        f"exec {q(py)} scripts/merge_results.py {q(str(results))}"])
    common = ["--chdir", str(ROOT)]
    if a.partition:
        common += ["--partition", a.partition]
    common += a.sbatch_arg
    arrays = []
    for offset, idx in chunks(indices, max_array_size()):
        spec = rs.format_ranges([i - offset for i in idx])
        if a.max_parallel:
            spec += f"%{a.max_parallel}"
        argv = ["sbatch", "--parsable", "--job-name", a.job_name, f"--array={spec}", "--requeue",
                "--open-mode=append", "--output", str(sd / "%A_%a.out"), "--ntasks=1",
                "--cpus-per-task=1", f"--export=ALL,REGRESS_INDEX_OFFSET={offset}"]
        if a.time:
            argv += ["--time", a.time]
        job = slurm_cmd(argv + common + [str(sd / "task.sh")]).strip().split(";")[0]
        arrays.append({"job": job, "offset": offset, "indices": idx, "spec": spec})
    dep = "afterany:" + ":".join(x["job"] for x in arrays)
    merge_job = slurm_cmd(["sbatch", "--parsable", "--job-name", a.job_name + "-merge",
                           f"--dependency={dep}", "--output", str(sd / "merge-%j.out"),
                           "--ntasks=1", "--cpus-per-task=1"] + common
                          + [str(sd / "merge.sh")]).strip().split(";")[0]
    subs_file = sd / "submissions.json"
    subs = (json.loads(subs_file.read_text()) if subs_file.exists() else {"submissions": []})
    sub = {"submitted": rs.now_iso(), "arrays": arrays, "merge_job": merge_job,
           "runs": len(indices)}
    subs["submissions"].append(sub)
    rs.write_json(subs_file, subs)
    jobs = ", ".join(f"{x['job']} (--array={x['spec']})" for x in arrays)
    print(f"submitted {len(indices)} runs: job array {jobs}; merge job {merge_job} "
          f"(--dependency={dep})")
    print(f"results: {results}/  (summary.txt when job {merge_job} has run; "
          f"squeue -j {','.join([x['job'] for x in arrays] + [merge_job])})")
    return sub


def wait_for(results: Path, poll: float) -> int:
    """Wait until the last submission's merge job has left the queue; print the summary."""
    subs = json.loads((results / "slurm" / "submissions.json").read_text())["submissions"]
    job = subs[-1]["merge_job"]
    t0 = time.monotonic()
    while True:
        p = subprocess.run(["squeue", "-h", "-j", job, "-o", "%T"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
        state = p.stdout.strip()
        # Once the job has finished squeue lists nothing (or, after MinJobAge, does not know it).
        if p.returncode == 0 and state in ("", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"):
            break
        if p.returncode != 0 and "Invalid job id" in p.stderr:
            break
        if p.returncode != 0:
            print(f"slurm_regress: squeue: {p.stderr.strip()}", file=sys.stderr)
        time.sleep(poll)
    summary = results / "summary.json"
    s = rs_load(summary)
    if s is None or s.get("merged", "") < subs[-1]["submitted"]:
        log = results / "slurm" / f"merge-{job}.out"
        text = log.read_text(errors="replace") if log.exists() else "(no log)"
        print(f"slurm_regress: merge job {job} wrote no summary; its log {log}:\n{text}")
        return 1
    print((results / "summary.txt").read_text().split("\nPer seed:")[0].rstrip())
    print(f"[waited {time.monotonic() - t0:.0f} s]")
    return 0 if s["failed"] == 0 and s["missing"] == 0 else 1


def rs_load(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    rs.add_plan_args(ap, "")
    ap.add_argument("--resubmit-missing", metavar="DIR",
                    help="submit again only the runs of DIR that have no result")
    ap.add_argument("--wait-for", metavar="DIR", help="wait for DIR's last merge job")
    ap.add_argument("--partition")
    ap.add_argument("--max-parallel", type=int, default=0,
                    help="at most this many tasks at once (the array's %%N throttle)")
    ap.add_argument("--time", help="time limit per task (sbatch --time, e.g. 30:00)")
    ap.add_argument("--job-name", default="ni-regress")
    ap.add_argument("--sbatch-arg", action="append", default=[],
                    help="one more sbatch argument for every job (repeatable, e.g. "
                    "--sbatch-arg=--mem=2G)")
    ap.add_argument("--python", default="python3", help="python on the nodes (default python3)")
    ap.add_argument("--wait", action="store_true",
                    help="wait for the merge job and print the summary (exit 1 unless all passed)")
    ap.add_argument("--poll", type=float, default=5.0,
                    help="with --wait: seconds between squeue calls")
    a = ap.parse_args()

    if a.wait_for:
        return wait_for(rs.results_dir(a.wait_for), a.poll)

    if a.resubmit_missing:
        results = rs.results_dir(a.resubmit_missing)
        plan = rs.load_plan(results)
        missing = [r["index"] for r in plan["runs"]
                   if not (results / "runs" / r["id"] / "result.json").exists()]
        if not missing:
            print(f"{results}: every run has a result; nothing to resubmit")
            return 0
        ids = [plan["runs"][i]["id"] for i in missing]
        print(f"resubmitting {len(missing)} runs with no result: {', '.join(ids[:20])}"
              + (" ..." if len(ids) > 20 else ""))
        submit(results, missing, a)
        return wait_for(results, a.poll) if a.wait else 0

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    results = rs.results_dir(a.results or f"build/regress-slurm/{stamp}")
    if results.exists() and any(results.iterdir()):
        raise SystemExit(f"slurm_regress: {results} is not empty (another regression's results?); "
                         "give another --results, or --resubmit-missing it")
    plan = rs.plan_from_args(a, None, "slurm")
    results.mkdir(parents=True, exist_ok=True)
    rs.write_json(results / "regress.json", plan)
    if not a.results:  # build/regress-slurm/latest -> the newest default results directory
        latest = results.parent / "latest"
        if latest.is_symlink() or not latest.exists():
            latest.unlink(missing_ok=True)
            latest.symlink_to(results.name)
    cov = "with Verilator code coverage" if plan["code_coverage"] else \
        f"functional coverage only ({plan['sim']} is not a COVERAGE=1 build)"
    print(f"plan: {len(plan['runs'])} runs of {plan['sim']}, {plan['transfers']} transfers each, "
          f"{cov}")
    try:
        submit(results, list(range(len(plan["runs"]))), a)
    except SystemExit:
        if not (results / "slurm" / "submissions.json").exists():  # nothing submitted: no trace
            shutil.rmtree(results)
        raise
    return wait_for(results, a.poll) if a.wait else 0


if __name__ == "__main__":
    sys.exit(main())
