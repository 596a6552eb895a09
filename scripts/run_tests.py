#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run a tier of the project's tests (make smoke, make test, make nightly) from the test
plan tests/testplan.json (scripts/testplan.py).

Tests are of two kinds:
  * commands (the plan's commands, random runs, vectors and seed sweeps of the tier): one
    test each, passed when the command exits 0;
  * Catch2 binaries (every executable matching CATCH2_GLOBS): each test case counts as one
    test, read from the binary's JUnit report (build/test-results/<binary>.xml).

Output: one line per test as it finishes (with its time), the output of whatever failed,
the ten slowest tests, the plan's tests not run here (ci_only ones outside CI: they start
system daemons; CI=1 runs them), and as the very last line `N passed, N failed`. Every
test's time is kept in build/test-results/make-<tier>.xml (JUnit). Exit status 0 only when
nothing failed.

To register a test: add it to tests/testplan.json, or put a Catch2 binary where
CATCH2_GLOBS finds it (the Makefile's CATCH_TB does: build/tests/).

Options: --tier smoke|test|nightly (default test), -j N (parallel jobs, default 2),
-k SUBSTRING (only tests whose name contains it, repeatable), -v (print every test's
output). Environment: CI (set: the ci_only tests run too), RUN_TESTS_TIMEOUT (seconds per
test, default 1800); LOCKSTEP_CYCLES / LOCKSTEP_SEED reach the binaries unchanged.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import glob
import os
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import testplan  # noqa: E402  (scripts/testplan.py: tests/testplan.json)

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "build" / "test-results"


@dataclasses.dataclass
class Command:
    name: str
    argv: list[str]


def _make_overrides() -> list[str]:
    """Variables given on the command line of the make that runs us (e.g. TRACE=1), so that
    the make commands below see the same configuration (MAKEFLAGS itself is not passed on)."""
    flags = os.environ.get("MAKEFLAGS", "")
    return shlex.split(flags.split(" -- ", 1)[1]) if " -- " in flags else []


MAKE = ["make", "-s", "--no-print-directory"] + _make_overrides()

PY = sys.executable
NI_SIM = "build/ni_sim"
# The runner keeps two tests at a time on the machine's cores: one simulator thread each.
NI_SIM_ONE_THREAD = [NI_SIM, "--threads", "1"]


def _argv(a: list[str]) -> list[str]:
    """A test plan argv: @MAKE and @PY stand for the make and Python of this run."""
    out: list[str] = []
    for x in a:
        out += MAKE if x == "@MAKE" else [PY] if x == "@PY" else [x]
    return out


def _formal() -> list[Command]:
    """Every formal proof in tests/formal/ (scripts/formal.py: its k-induction and its covers)
    is one test; -j 1, the test runner already runs two tests at a time."""
    return [Command(f"formal {p.stem}", [PY, "scripts/formal.py", "-j", "1", p.stem])
            for p in sorted((ROOT / "tests" / "formal").glob("*.sby"))]


def _vectors(names: Optional[list[str]]) -> list[Command]:
    """The directed scenarios in vectors/ (all, or those named), each replayed; must pass."""
    return [Command(f"vector {Path(v).stem}",
                    NI_SIM_ONE_THREAD + ["--quiet", "--scenario", str(Path(v).relative_to(ROOT))])
            for v in sorted(glob.glob(str(ROOT / "vectors" / "*.json")))
            if names is None or Path(v).stem in names]


def plan_commands(plan: dict, tier: str, ci: bool) -> tuple[list[Command], list[str]]:
    """The command tests of a tier (tests/testplan.json), and the names of those not run here
    (ci_only outside CI)."""
    cmds: list[Command] = []
    not_run: list[str] = []
    for c in testplan.commands(plan, tier):
        if c.get("ci_only") and not ci and tier != "nightly":
            not_run.append(c["name"])
            continue
        cmds += _formal() if c.get("formal") else [Command(c["name"], _argv(c["argv"]))]
    for r in testplan.runs(plan, tier):
        cmds.append(Command(testplan.run_name(r),
                            NI_SIM_ONE_THREAD + ["--quiet"] + testplan.run_args(r)))
    v = plan.get("vectors", {})
    if tier in v.get("tiers", []):
        cmds += _vectors(None)
    elif tier == "smoke":
        cmds += _vectors(v.get("smoke", []))
    for sw in testplan.seed_sweeps(plan, tier):
        slug = "".join(ch if ch.isalnum() else "-" for ch in sw["name"]).strip("-")
        cmds.append(Command(f"seeds {sw['seeds']}: {sw['name']}",
                            [PY, "scripts/regress_seeds.py", "--seeds", sw["seeds"], "-j", "1",
                             "--transfers", str(sw["transfers"]), "--config", sw["config"],
                             "--no-coverage", "--results", f"build/nightly/{slug}"]))
    return cmds, not_run


# Every executable file matching these globs (relative to the repository root) is a Catch2
# binary run with the JUnit reporter.
CATCH2_GLOBS = ["build/tests/*"]


@dataclasses.dataclass
class Result:
    name: str
    passed: int = 0
    failed: int = 0
    seconds: float = 0.0
    summary: str = ""  # shown on the test's line
    details: str = ""  # shown when something failed (or with -v)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # The runner is started from make; its jobserver is not ours to use.
    for var in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        env.pop(var, None)
    return env


def _timeout() -> float:
    return float(os.environ.get("RUN_TESTS_TIMEOUT", "1800"))


def _run(argv: list[str]) -> tuple[int, str, float]:
    start = time.monotonic()
    try:
        p = subprocess.run(argv, cwd=ROOT, env=_env(), stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=_timeout())
        code, out = p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        code = -1
        out = (e.stdout or b"").decode(errors="replace") + f"\nTIMEOUT after {_timeout()} s\n"
    return code, out, time.monotonic() - start


def run_command(cmd: Command) -> Result:
    res = Result(cmd.name)
    exe = ROOT / cmd.argv[0]
    if "/" in cmd.argv[0] and not exe.exists():
        res.failed = 1
        res.summary = f"{cmd.argv[0]} does not exist (not built)"
        res.details = res.summary
        return res
    code, out, res.seconds = _run(cmd.argv)
    res.details = f"$ {' '.join(cmd.argv)}\n{out}"
    if code == 0:
        res.passed = 1
    else:
        res.failed = 1
        res.summary = f"exit status {code}"
    return res


def run_catch2(binary: Path) -> Result:
    name = binary.name
    res = Result(name)
    if not binary.is_file() or not os.access(binary, os.X_OK):
        res.failed = 1
        res.summary = f"{binary.relative_to(ROOT)} does not exist (not built)"
        res.details = res.summary
        return res
    RESULTS.mkdir(parents=True, exist_ok=True)
    xml_path = RESULTS / f"{name}.xml"
    xml_path.unlink(missing_ok=True)
    argv = [str(binary.relative_to(ROOT)), "-r", "junit", "-o", str(xml_path)]
    code, out, res.seconds = _run(argv)
    details = [f"$ {' '.join(argv)}"]
    try:
        suite = ET.parse(xml_path).getroot()
        cases = suite.iter("testcase")
    except (OSError, ET.ParseError) as e:
        res.failed = 1
        res.summary = f"no readable JUnit report ({e.__class__.__name__}), exit status {code}"
        res.details = "\n".join(details + [out])
        return res
    failed_names = []
    for case in cases:
        bad = [c for c in case if c.tag in ("failure", "error")]
        if bad:
            res.failed += 1
            failed_names.append(case.get("name", "?"))
            details.append(f"--- FAILED: {case.get('name')}")
            for b in bad:
                details.append((b.get("message") or "").strip())
                details.append((b.text or "").strip())
            for s in case:
                if s.tag in ("system-out", "system-err") and (s.text or "").strip():
                    details.append(f"[{s.tag}]\n{s.text.strip()}")
        else:
            res.passed += 1
    for ts in suite.iter("testsuite"):
        for s in ts:
            if s.tag in ("system-out", "system-err") and (s.text or "").strip():
                details.append(f"[{s.tag}]\n{s.text.strip()}")
    if out.strip():
        details.append(f"[console output]\n{out.strip()}")
    if res.passed + res.failed == 0:
        res.failed = 1
        res.summary = "ran no test case"
    elif code != 0 and res.failed == 0:
        res.failed = 1
        res.summary = f"exit status {code} although every test case passed"
    else:
        res.summary = f"{res.passed + res.failed} test cases"
        if failed_names:
            res.summary += ", failed: " + "; ".join(failed_names)
    res.details = "\n".join(details)
    return res


def catch2_binaries(expected: list[str]) -> list[Path]:
    """The Catch2 binaries the build declares (--catch2, from the Makefile's TEST_BINS), each
    of which must exist, plus any other executable the globs find."""
    found = {ROOT / e for e in expected}
    for pattern in CATCH2_GLOBS:
        for p in glob.glob(str(ROOT / pattern)):
            path = Path(p)
            if path.is_file() and os.access(path, os.X_OK):
                found.add(path)
    return sorted(found)


def write_junit(results: list[Result], tier: str, path: Path) -> None:
    """One JUnit file of the whole run: every test with its time (a Catch2 binary counts as
    one entry here; its own report has its cases)."""
    suite = ET.Element("testsuite", name=f"make {tier}", tests=str(len(results)),
                       failures=str(sum(1 for r in results if r.failed)),
                       time=f"{sum(r.seconds for r in results):.1f}")
    for r in results:
        case = ET.SubElement(suite, "testcase", name=r.name, classname=tier, time=f"{r.seconds:.2f}")
        if r.failed:
            f = ET.SubElement(case, "failure", message=r.summary or "failed")
            f.text = r.details[-20000:]
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suite).write(path, encoding="unicode")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tier", choices=testplan.TIERS, default="test",
                    help="smoke, test (default) or nightly (tests/testplan.json)")
    ap.add_argument("-j", "--jobs", type=int, default=int(os.environ.get("RUN_TESTS_JOBS", 2)))
    ap.add_argument("-k", "--filter", action="append", default=[])
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--catch2", nargs="*", default=[],
                    help="Catch2 binaries the build declares; a missing one is a failure")
    args = ap.parse_args()
    try:
        plan = testplan.load()
    except testplan.PlanError as e:
        print(f"run_tests: {e}", file=sys.stderr)
        return 2
    ci = bool(os.environ.get("CI"))

    def selected(name: str) -> bool:
        return not args.filter or any(f in name for f in args.filter)

    cmds, not_run = plan_commands(plan, args.tier, ci)
    jobs: list[tuple[str, Callable[[], Result]]] = []
    for cmd in cmds:
        if selected(cmd.name):
            jobs.append((cmd.name, lambda c=cmd: run_command(c)))
    c2 = plan.get("catch2", {})
    if args.tier in c2.get("tiers", []) or args.tier == "smoke":
        for b in catch2_binaries(args.catch2):
            if args.tier == "smoke" and b.name not in c2.get("smoke", []):
                continue
            if selected(b.name):
                jobs.append((b.name, lambda b=b: run_catch2(b)))

    print(f"make {args.tier}: {len(jobs)} tests, {args.jobs} at a time", flush=True)
    results: list[Result] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(fn) for _, fn in jobs]
        for f in concurrent.futures.as_completed(futures):
            r = f.result()
            results.append(r)
            status = "FAIL" if r.failed else "PASS"
            extra = f" ({r.summary})" if r.summary else ""
            print(f"{status}  {r.name}{extra}  [{r.seconds:.1f} s]", flush=True)
            if r.failed or args.verbose:
                print("\n".join("    " + line for line in r.details.splitlines()), flush=True)

    write_junit(results, args.tier, RESULTS / f"make-{args.tier}.xml")
    slow = sorted(results, key=lambda r: -r.seconds)[:10]
    print(f"slowest: " + ", ".join(f"{r.name} {r.seconds:.0f} s" for r in slow))
    for name in not_run:
        print(f"not run here: {name} (starts system daemons; CI runs it: CI=1 make test)")
    passed = sum(r.passed for r in results)
    failed = sum(r.failed for r in results)
    print(f"{passed} passed, {failed} failed")
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
