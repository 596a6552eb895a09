#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run every test of the project (what `make test` runs after building).

Tests are of two kinds:
  * commands (COMMANDS below): one test each, passed when the command exits 0;
  * Catch2 binaries (every executable matching CATCH2_GLOBS): each test case counts as one
    test, read from the binary's JUnit report (build/test-results/<binary>.xml).

Output: one line per test (per command or binary), the output of whatever failed, and as
the very last line `N passed, N failed`. Exit status 0 only when nothing failed.

To register a test: add a Command to COMMANDS, or put a Catch2 binary where CATCH2_GLOBS
finds it (the Makefile's CATCH_TB does: build/tests/).

Options: -j N (parallel jobs, default 2), -k SUBSTRING (only tests whose name contains it,
repeatable), -v (print every test's output). Environment: RUN_TESTS_TIMEOUT (seconds per
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

NI_SIM = "build/ni_sim"
# The runner keeps two tests at a time on the machine's cores: one simulator thread each.
NI_SIM_ONE_THREAD = [NI_SIM, "--threads", "1"]
PY = sys.executable

# Short random runs of the whole engine against the golden model: (name, seed, config).
# Each is 2000 transfers; the heavy configs stress reordering, back-pressure and illegal
# writes. `make regress` is the 100K-transfer version.
SIM_RUNS = [
    ("default", 1, None),
    ("default", 2, None),
    ("regress-mix", 3, "sim/configs/regress.json"),
    ("regress-mix", 4, "sim/configs/regress.json"),
    ("heavy-reorder", 5, "sim/configs/heavy_reorder.json"),
    ("heavy-reorder", 6, "sim/configs/heavy_reorder.json"),
    ("heavy-stall", 7, "sim/configs/heavy_stall.json"),
    ("heavy-stall", 8, "sim/configs/heavy_stall.json"),
    ("heavy-illegal", 9, "sim/configs/heavy_illegal.json"),
    ("heavy-illegal", 10, "sim/configs/heavy_illegal.json"),
    # coverage-closure stimulus (scripts/coverage_report.py): ID FIFOs empty and deep no-ID
    # queues; back-pressure filling the packet queue, stage 3 and the finish FIFO, NACKs
    ("cov-tids", 11, "sim/configs/cov_tids.json"),
    ("cov-backpressure", 1, "sim/configs/cov_backpressure.json"),
    # retransmission (ICD 14): lost, late and NACK-storm responses with a timeout; and with
    # MaxRetries 1 under heavy faults, transfers ending ERROR cleanly
    ("retx-faults", 12, "sim/configs/retx_faults.json"),
    ("retx-faults", 13, "sim/configs/retx_faults.json"),
    ("retx-errors", 14, "sim/configs/retx_errors.json"),
]


# Short random runs of the full NI (ICD 15): (name, seed, config, nodes, transfers). The
# regression's configuration on 2 nodes, a loopback node, and 3 nodes under heavy latency and
# back-pressure everywhere. `make regress` is the 100K-transfer version of the first.
NI_RUNS = [
    ("ni-regress", 1, "sim/configs/regress_ni.json", 2, 400),
    ("ni-regress", 2, "sim/configs/regress_ni.json", 2, 400),
    ("ni-loopback", 3, "sim/configs/regress_ni.json", 1, 300),
    ("ni-heavy", 4, "sim/configs/ni_heavy.json", 3, 300),
    ("ni-dup", 5, "sim/configs/ni_dup.json", 2, 300),
    # retransmission under faults (issue 15): drop/corrupt/dup on both networks, every transfer
    # DONE with its data; and a high fault rate with MaxRetries 1: ERROR endings, every ID back
    ("ni-faults", 6, "sim/configs/regress_faults.json", 2, 120),
    ("ni-faults", 7, "sim/configs/regress_faults.json", 2, 120),
    ("ni-giveup", 8, "sim/configs/faults_giveup.json", 2, 150),
    ("ni-giveup", 9, "sim/configs/faults_giveup.json", 2, 150),
]


def _sim_run(name: str, seed: int, cfg: Optional[str]) -> Command:
    argv = NI_SIM_ONE_THREAD + ["--quiet", "--seed", str(seed), "--transfers", "2000"]
    if cfg:
        argv += ["--config", cfg]
    return Command(f"sim {name} seed {seed}", argv)


def _ni_run(name: str, seed: int, cfg: str, nodes: int, transfers: int) -> Command:
    return Command(f"sim {name} {nodes} node(s) seed {seed}",
                   NI_SIM_ONE_THREAD + ["--quiet", "--seed", str(seed), "--transfers", str(transfers),
                    "--config", cfg, "--nodes", str(nodes)])


def _vectors() -> list[Command]:
    """Every directed scenario in vectors/ is replayed and must pass."""
    return [Command(f"vector {Path(v).stem}",
                    NI_SIM_ONE_THREAD + ["--quiet", "--scenario", str(Path(v).relative_to(ROOT))],
                    )
            for v in sorted(glob.glob(str(ROOT / "vectors" / "*.json")))]


def _formal() -> list[Command]:
    """Every formal proof in tests/formal/ (scripts/formal.py: its k-induction and its covers)
    is one test; -j 1, the test runner already runs two tests at a time."""
    return [Command(f"formal {p.stem}", [PY, "scripts/formal.py", "-j", "1", p.stem])
            for p in sorted((ROOT / "tests" / "formal").glob("*.sby"))]


# (name, command) entries: add new command tests here.
COMMANDS: list[Command] = [
    Command("lint", MAKE + ["lint"]),
    Command("fusesoc-lint", MAKE + ["fusesoc-lint"]),
    *_formal(),
    *[_sim_run(n, s, c) for n, s, c in SIM_RUNS],
    *[_ni_run(*r) for r in NI_RUNS],
    Command("sim record/replay identity", [PY, "tests/sim/test_replay.py"]),
    Command("sim input errors", [PY, "tests/sim/test_input_errors.py"]),
    Command("sim threads identity", [PY, "tests/sim/test_threads.py"]),
    Command("sim capture import", [PY, "tests/sim/test_capture.py"]),
    Command("sim waveforms", [PY, "tests/sim/test_trace.py"]),
    Command("sim functional coverage", [PY, "tests/sim/test_coverage.py"]),
    Command("slurm cluster regression", [PY, "tests/slurm/test_slurm_cluster.py"]),
    Command("cocotb ni_node", MAKE + ["cocotb"]),
    *_vectors(),
]

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-j", "--jobs", type=int, default=int(os.environ.get("RUN_TESTS_JOBS", 2)))
    ap.add_argument("-k", "--filter", action="append", default=[])
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--catch2", nargs="*", default=[],
                    help="Catch2 binaries the build declares; a missing one is a failure")
    args = ap.parse_args()

    def selected(name: str) -> bool:
        return not args.filter or any(f in name for f in args.filter)

    jobs: list[tuple[str, Callable[[], Result]]] = []
    for cmd in COMMANDS:
        if selected(cmd.name):
            jobs.append((cmd.name, lambda c=cmd: run_command(c)))
    for b in catch2_binaries(args.catch2):
        if selected(b.name):
            jobs.append((b.name, lambda b=b: run_catch2(b)))

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(fn) for _, fn in jobs]
        results = [f.result() for f in futures]

    passed = failed = 0
    for r in results:
        passed += r.passed
        failed += r.failed
        status = "FAIL" if r.failed else "PASS"
        extra = f" ({r.summary})" if r.summary else ""
        print(f"{status}  {r.name}{extra}  [{r.seconds:.1f} s]")
        if r.failed or args.verbose:
            print("\n".join("    " + line for line in r.details.splitlines()))
    print(f"{passed} passed, {failed} failed")
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
