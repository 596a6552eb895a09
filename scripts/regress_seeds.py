#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run the random regression over many seeds in parallel and summarise pass/fail per seed.

Usage: regress_seeds.py [-n N] [--first S | --seeds LIST] [-j JOBS] [--transfers T]
                        [--config FILE]... [--group CONFIG:SEEDS]... [--sim BIN]
                        [--results DIR] [--trace-window N] [--code-coverage auto|yes|no]
       regress_seeds.py --task RESULTS [INDEX]

The first form runs the seeds on this machine (-j at a time), one line per seed as it
finishes, and then the merge step (scripts/merge_results.py): the failing seeds first with
their first mismatch and reproduce command, merged coverage, one JUnit XML. Exit status 0
only when every seed passed.

The second form runs one entry of the plan RESULTS/regress.json: what each task of the
Slurm job array of scripts/slurm_regress.py runs (INDEX defaults to $SLURM_ARRAY_TASK_ID
plus $REGRESS_INDEX_OFFSET). Both forms write the same files per run:

  RESULTS/regress.json             the plan: simulator, transfers, runs (index, id, seed, config)
  RESULTS/runs/<id>/started.json   host, time and Slurm job of the attempt
  RESULTS/runs/<id>/output.txt     ni_sim's output
  RESULTS/runs/<id>/report.json    ni_sim --report
  RESULTS/runs/<id>/coverage.json  functional coverage (ni_sim --coverage)
  RESULTS/runs/<id>/coverage.dat   Verilator code coverage (only with a COVERAGE=1 simulator)
  RESULTS/runs/<id>/junit.xml      one test case
  RESULTS/runs/<id>/reproduce.sh   a failure: the command that reproduces it (with its trace)
  RESULTS/runs/<id>/fail.fst       a failure: the trace window before it (none for a timeout)
  RESULTS/runs/<id>/result.json    written last: its presence means the run finished

<id> is seed-<S>, or <config stem>.seed-<S> when the plan has more than one configuration.
SEEDS lists are like Slurm's: 1-1000, 1,5,9-12.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAN_FORMAT = "ni-regress-plan/1"
RESULT_FORMAT = "ni-regress-result/1"
DEFAULT_TRACE_WINDOW = 2000


# ------------------------------------------------------------------------------------------------
# The plan
# ------------------------------------------------------------------------------------------------
def parse_seeds(text: str) -> list[int]:
    """'1-1000', '1,5,9-12' -> the seeds in order, without duplicates."""
    seeds: list[int] = []
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise ValueError(f"bad seed list '{text}' (expected e.g. 1-1000 or 1,5,9-12)")
        lo, hi = int(m[1]), int(m[2] or m[1])
        if hi < lo:
            raise ValueError(f"bad seed range '{part}'")
        seeds += range(lo, hi + 1)
    if not seeds:
        raise ValueError(f"no seeds in '{text}'")
    return list(dict.fromkeys(seeds))


def format_ranges(values: list[int]) -> str:
    """[1,2,3,5,7,8] -> '1-3,5,7-8' (Slurm's --array syntax too)."""
    out: list[str] = []
    vals = sorted(set(values))
    i = 0
    while i < len(vals):
        j = i
        while j + 1 < len(vals) and vals[j + 1] == vals[j] + 1:
            j += 1
        out.append(str(vals[i]) if i == j else f"{vals[i]}-{vals[j]}")
        i = j + 1
    return ",".join(out)


def config_stem(config: str | None) -> str:
    return Path(config).stem if config else "default"


def make_plan(groups: list[tuple[str | None, list[int]]], transfers: int, sim: str,
              trace_window: int, functional_coverage: bool, code_coverage: bool,
              launcher: str) -> dict:
    """groups: (config or None, seeds). One run per (config, seed), in the order given."""
    pairs = [(cfg, s) for cfg, seeds in groups for s in seeds]
    one_config = len({cfg for cfg, _ in pairs}) <= 1
    runs, ids = [], set()
    for cfg, seed in pairs:
        rid = f"seed-{seed}" if one_config else f"{config_stem(cfg)}.seed-{seed}"
        if rid in ids:
            raise ValueError(f"run {rid} twice (two configurations with the same file name, "
                             "or a seed listed twice)")
        ids.add(rid)
        runs.append({"index": len(runs), "id": rid, "seed": seed, "config": cfg})
    return {"format": PLAN_FORMAT, "created": now_iso(), "launcher": launcher,
            "root": str(ROOT), "sim": sim, "transfers": transfers, "trace_window": trace_window,
            "functional_coverage": functional_coverage, "code_coverage": code_coverage,
            "runs": runs}


def write_json(path: Path, data) -> None:
    """Atomically (readers on other nodes never see half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def load_plan(results: Path) -> dict:
    path = results / "regress.json"
    try:
        plan = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SystemExit(f"{path}: no regression plan here ({e})")
    if plan.get("format") != PLAN_FORMAT:
        raise SystemExit(f"{path}: not a regression plan (format {PLAN_FORMAT})")
    return plan


def now_iso() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def rel(path: Path) -> str:
    """A path as short as it can be for commands run from the checkout."""
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def has_code_coverage(sim: str) -> bool:
    """Whether SIM was built with COVERAGE=1: ni_sim rejects --code-coverage otherwise (exit 2
    with that message) before it simulates anything."""
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([sim, "--quiet", "--transfers", "1", "--max-cycles", "1",
                            "--code-coverage", str(Path(d) / "probe.dat")], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           stdin=subprocess.DEVNULL)
    return "--code-coverage needs a binary built with COVERAGE=1" not in p.stdout


def slurm_env() -> dict:
    keys = {"SLURM_JOB_ID": "job", "SLURM_ARRAY_JOB_ID": "array_job", "SLURM_ARRAY_TASK_ID": "task",
            "SLURM_RESTART_COUNT": "restart_count", "SLURM_JOB_NODELIST": "nodes"}
    return {v: os.environ[k] for k, v in keys.items() if k in os.environ}


# ------------------------------------------------------------------------------------------------
# One run
# ------------------------------------------------------------------------------------------------
def parse_output(text: str) -> dict:
    """ni_sim's failure lines: 'FAIL seed S at cycle C: what', detail lines, 'reproduce: CMD',
    'trace: FILE holds cycles A..B'."""
    lines = text.splitlines()
    out = {"failure": "", "detail": "", "reproduce": "", "trace_note": ""}
    i = next((k for k, l in enumerate(lines) if l.startswith("FAIL")), None)
    if i is not None:
        out["failure"] = lines[i]
        detail = []
        for l in lines[i + 1:]:
            if l.startswith("reproduce:"):
                break
            detail.append(l)
        out["detail"] = "\n".join(detail).rstrip()
    for l in lines:
        if l.startswith("reproduce:"):
            out["reproduce"] = l.removeprefix("reproduce:").strip()
        elif l.startswith("trace:"):
            out["trace_note"] = l.removeprefix("trace:").strip()
    return out


def junit_case(res: dict, output_tail: str) -> ET.Element:
    case = ET.Element("testcase", classname=f"regress.{config_stem(res['config'])}",
                      name=f"seed {res['seed']}", time=f"{res['seconds']:.3f}")
    if res["status"] != "pass":
        tag = "failure" if res["status"] == "fail" else "error"
        el = ET.SubElement(case, tag, message=res["message"], type=res["status"])
        body = [res["message"]]
        if res.get("detail"):
            body.append(res["detail"])
        if res.get("reproduce"):
            body.append(f"reproduce: {res['reproduce']}")
        if res.get("trace"):
            body.append(f"trace: {res['trace']}")
        el.text = "\n".join(body)
    if output_tail:
        ET.SubElement(case, "system-out").text = output_tail
    return case


def write_xml(path: Path, root: ET.Element) -> None:
    ET.indent(root)
    tmp = path.with_name(f".{path.name}.tmp")
    ET.ElementTree(root).write(tmp, encoding="utf-8", xml_declaration=True)
    os.replace(tmp, path)


def run_one(results: Path, plan: dict, index: int) -> dict:
    """Run plan entry INDEX and write its files into RESULTS/runs/<id>/ (result.json last)."""
    run = plan["runs"][index]
    rd = results / "runs" / run["id"]
    if rd.exists():  # an earlier attempt (requeued task, resubmission): start clean
        shutil.rmtree(rd)
    rd.mkdir(parents=True)
    host = socket.gethostname()
    started = {"host": host, "pid": os.getpid(), "started": now_iso(), "slurm": slurm_env()}
    write_json(rd / "started.json", started)

    # One thread per run: the runs themselves fill the cores (local -j, Slurm tasks).
    argv = [plan["sim"], "--quiet", "--threads", "1", "--seed", str(run["seed"]),
            "--transfers", str(plan["transfers"])]
    if run["config"]:
        argv += ["--config", run["config"]]
    argv += ["--report", rel(rd / "report.json")]
    if plan["functional_coverage"]:
        argv += ["--coverage", rel(rd / "coverage.json")]
    if plan["code_coverage"]:
        argv += ["--code-coverage", rel(rd / "coverage.dat")]
    fst = rd / "fail.fst"
    if plan["trace_window"]:
        argv += ["--trace-window", str(plan["trace_window"]), "--trace", rel(fst)]
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
        code, text = p.returncode, p.stdout.decode(errors="replace")
    except OSError as e:
        code, text = 127, f"cannot run {plan['sim']}: {e}\n"
    seconds = time.monotonic() - t0
    (rd / "output.txt").write_text(text)
    if code in (-signal.SIGTERM, -signal.SIGKILL):
        # Cancelled (scancel, time limit, node failure send these to the whole task): the task
        # itself is being killed too, so it leaves no result: the run counts as started and
        # not finished, whichever of the two the signal reached first.
        sys.exit(128 - code)

    parsed = parse_output(text)
    if code == 0:
        status, message = "pass", ""
    elif code == 1 and parsed["failure"]:
        # 'FAIL seed S at cycle C: what' -> 'at cycle C: what' (the test case is 'seed S')
        status, message = "fail", re.sub(r"^FAIL( seed \d+)? *", "", parsed["failure"])
    else:
        status = "error"
        how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        last = text.strip().splitlines()[-1] if text.strip() else "no output"
        message = f"ni_sim {how}: {last}"
    res = {"format": RESULT_FORMAT, "index": index, "id": run["id"], "seed": run["seed"],
           "config": run["config"], "status": status, "exit_code": code, "message": message,
           "seconds": round(seconds, 3), "host": host, "started": started["started"],
           "finished": now_iso(), "slurm": started["slurm"],
           "command": shlex.join(argv), "detail": parsed["detail"], "reproduce": "", "trace": ""}
    try:
        rep = json.loads((rd / "report.json").read_text())
        res["report"] = {k: rep.get(k) for k in ("transfers", "completed", "errors", "blocks",
                                                  "cycles", "cycles_per_second", "mismatches")}
    except (OSError, ValueError):
        res["report"] = None
    if status != "pass":
        cmd = parsed["reproduce"] or shlex.join(argv)
        res["reproduce"] = f"cd {shlex.quote(str(ROOT))} && {cmd}"
        sh = rd / "reproduce.sh"
        sh.write_text(f"#!/bin/sh\n# {message}\n{res['reproduce']}\n")
        sh.chmod(0o755)
        if fst.exists():
            res["trace"] = rel(fst)
            res["trace_note"] = parsed["trace_note"]
    res["coverage"] = (rd / "coverage.json").exists()
    res["code_coverage"] = (rd / "coverage.dat").exists()

    tail = "\n".join(text.splitlines()[-40:])
    suite = ET.Element("testsuite", name="regress", tests="1",
                       failures="1" if status == "fail" else "0",
                       errors="1" if status == "error" else "0", time=f"{seconds:.3f}",
                       hostname=host, timestamp=started["started"])
    suite.append(junit_case(res, tail))
    write_xml(rd / "junit.xml", suite)
    write_json(rd / "result.json", res)
    return res


def seed_line(res: dict) -> str:
    r = res.get("report") or {}
    info = ""
    if r.get("cycles") is not None:
        info = (f"{r['transfers']} transfers, {r['blocks']} blocks, {r['cycles']} cycles, "
                f"{(r['cycles_per_second'] or 0) / 1000:.0f} kHz")
    name = f"seed {res['seed']:4d}" + (f" {config_stem(res['config'])}" if "." in res["id"] else "")
    if res["status"] == "pass":
        return f"PASS {name}  {res['seconds']:6.1f} s  {info}"
    st = "FAIL" if res["status"] == "fail" else "ERROR"
    return (f"{st} {name}  {res['seconds']:6.1f} s  {res['message']}\n"
            f"           reproduce: {res['reproduce']}")


# ------------------------------------------------------------------------------------------------
# Command line
# ------------------------------------------------------------------------------------------------
def add_plan_args(ap: argparse.ArgumentParser, default_results: str) -> None:
    """The options that describe the runs (shared with scripts/slurm_regress.py)."""
    ap.add_argument("--seeds", help="seeds, e.g. 1-1000 or 1,5,9-12")
    ap.add_argument("--transfers", type=int, default=100000)
    ap.add_argument("--config", action="append", default=[],
                    help="ni_sim configuration (repeatable: every seed runs with each)")
    ap.add_argument("--group", action="append", default=[], metavar="CONFIG:SEEDS",
                    help="more runs: these seeds with this configuration ('default' for none)")
    ap.add_argument("--sim", default="build/ni_sim",
                    help="the simulator, relative to the checkout or absolute "
                    "(default build/ni_sim)")
    ap.add_argument("--results", default=default_results, help="results directory")
    ap.add_argument("--trace-window", type=int, default=DEFAULT_TRACE_WINDOW,
                    help="cycles of FST written before a failure (0: none)")
    ap.add_argument("--code-coverage", choices=("auto", "yes", "no"), default="auto",
                    help="Verilator code coverage per run (auto: when SIM is a COVERAGE=1 build)")
    ap.add_argument("--no-coverage", action="store_true",
                    help="no coverage at all (functional coverage costs about 40 %% more time)")


def plan_from_args(a: argparse.Namespace, seeds_default: list[int] | None, launcher: str) -> dict:
    """The plan the options describe: --seeds (or SEEDS_DEFAULT) with each --config (or none),
    then each --group."""
    sim = a.sim
    if not (ROOT / sim).is_file() or not os.access(ROOT / sim, os.X_OK):
        raise SystemExit(f"{sim}: no simulator there (make sim builds build/ni_sim)")
    try:
        seeds = parse_seeds(a.seeds) if a.seeds else seeds_default
        groups: list[tuple[str | None, list[int]]] = []
        if seeds:
            groups = [(c, seeds) for c in a.config] or [(None, seeds)]
        for g in a.group:
            cfg, sep, s = g.rpartition(":")
            if not sep or not cfg:
                raise ValueError(f"--group {g}: expected CONFIG:SEEDS")
            groups.append((None if cfg == "default" else cfg, parse_seeds(s)))
    except ValueError as e:
        raise SystemExit(str(e))
    if not groups:
        raise SystemExit("no runs: give --seeds (or --group CONFIG:SEEDS)")
    for cfg, _ in groups:
        if cfg and not (ROOT / cfg).is_file():
            raise SystemExit(f"{cfg}: no such configuration file")
    cov = {"yes": True, "no": False}.get(a.code_coverage)
    if a.no_coverage:
        cov = False
    elif cov is None:
        cov = has_code_coverage(sim)
    try:
        return make_plan(groups, a.transfers, sim, a.trace_window, not a.no_coverage, cov, launcher)
    except ValueError as e:
        raise SystemExit(str(e))


def results_dir(path: str) -> Path:
    p = Path(path)
    return p if p.is_absolute() else ROOT / p


def task_main(results: Path, index: int | None) -> int:
    plan = load_plan(results)
    if index is None:
        if "SLURM_ARRAY_TASK_ID" not in os.environ:
            raise SystemExit("--task: no INDEX and no $SLURM_ARRAY_TASK_ID")
        index = (int(os.environ["SLURM_ARRAY_TASK_ID"])
                 + int(os.environ.get("REGRESS_INDEX_OFFSET", "0")))
    if not 0 <= index < len(plan["runs"]):
        raise SystemExit(f"--task: index {index} is not in the plan (0..{len(plan['runs']) - 1})")
    res = run_one(results, plan, index)
    print(seed_line(res), flush=True)
    return 0 if res["status"] == "pass" else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--task", metavar="RESULTS", help="run one entry of RESULTS/regress.json")
    ap.add_argument("index", nargs="?", type=int, help="with --task: the plan entry")
    ap.add_argument("-n", type=int, default=8, help="number of seeds (default 8)")
    ap.add_argument("--first", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    add_plan_args(ap, "build/regress-seeds")
    a = ap.parse_args()
    if a.task:
        return task_main(results_dir(a.task), a.index)

    plan = plan_from_args(a, list(range(a.first, a.first + a.n)), "local")
    results = results_dir(a.results)
    # A fresh results directory each time (the previous run's files would be merged too).
    for old in ("runs", "coverage", "regress.json", "summary.txt", "summary.json", "junit.xml"):
        p = results / old
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()
    results.mkdir(parents=True, exist_ok=True)
    write_json(results / "regress.json", plan)
    n = len(plan["runs"])
    print(f"{n} runs ({a.transfers} transfers each), {a.jobs} at a time -> {rel(results)}/",
          flush=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futures = [ex.submit(run_one, results, plan, i) for i in range(n)]
        for f in concurrent.futures.as_completed(futures):
            print(seed_line(f.result()), flush=True)
    import merge_results  # scripts/ is on sys.path: this file's directory

    print()
    return merge_results.merge(results)


if __name__ == "__main__":
    sys.exit(main())
