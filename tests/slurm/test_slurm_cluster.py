#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`make regress-slurm` against a real single-machine Slurm cluster.

Brings up munged, slurmctld and slurmd (Debian's packages slurmctld, slurmd, munge) with a
configuration generated under a temporary directory: a munge key of its own and munged on a
socket there, free ports, state and spool directories there, ProctrackType=proctrack/linuxproc
and no cgroups (TaskPlugin=task/none, JobAcctGatherType=jobacct_gather/none), SlurmUser=root;
the Slurm commands find it through SLURM_CONF. Then:

 1. `make regress-slurm`: seeds 1-8 with sim/configs/regress.json, 500 transfers each, and
    seed 9 with a configuration that must fail (max_cycles 1000: the run cannot finish its
    500 transfers by then, so ni_sim fails with a timeout), MAX_PARALLEL=2; right after
    submission one pending task (seed 8) is cancelled with scancel, as a killed task would be.
    The merge job's summary must say 7 passed, 1 failed, 1 no result, the failing seed first
    with its first failure and a reproduce command that does reproduce it; the merged JUnit
    XML must hold 9 test cases, 1 failure, 1 error; the merged functional coverage must be
    the per-bin sum of the 7 passing runs.
 2. `make regress-slurm-resubmit`: only the cancelled seed is submitted again (a one-task
    array); then 8 passed, 1 failed, 0 no result, coverage summed over the 8 passing runs.
 3. The same runs with scripts/regress_seeds.py on this machine report alike: the same status
    per run and the same merged functional coverage.

Everything started is stopped in a finally block (jobs cancelled, the daemons terminated,
any slurmstepd or task left behind killed) and the test checks that nothing is left running.
It fails, with the reason, where it cannot run (not root, a package missing, a daemon that
does not come up); it never skips. Usage: test_slurm_cluster.py [-v] (keeps going quietly;
-v prints the daemons' logs at the end).
"""
from __future__ import annotations

import json
import os
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

ROOT = Path(__file__).resolve().parents[2]
SIM = "build/ni_sim"
PY = sys.executable
MAKE = ["make", "-s", "--no-print-directory", "-o", SIM]  # -o: never rebuild ni_sim here
TOOLS = {"munged": "munge", "slurmctld": "slurmctld", "slurmd": "slurmd", "sbatch": "slurm-client",
         "squeue": "slurm-client", "scancel": "slurm-client", "scontrol": "slurm-client",
         "sinfo": "slurm-client"}


class CannotRun(Exception):
    """The cluster cannot be brought up on this machine (the message says why)."""


def free_ports(n: int) -> list[int]:
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def tail(path: Path, n: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return "(none)"


class Cluster:
    """munged + slurmctld + slurmd on this machine, everything under DIR."""

    def __init__(self, d: Path):
        self.d = d
        self.host = socket.gethostname().split(".")[0]
        self.procs: dict[str, subprocess.Popen] = {}
        self.conf = d / "slurm.conf"
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith("SLURM_") and k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
        self.env["SLURM_CONF"] = str(self.conf)

    def _spawn(self, name: str, argv: list[str]) -> None:
        log = open(self.d / "log" / f"{name}.out", "w")
        self.procs[name] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env=self.env,
                                            start_new_session=True)
        log.close()

    def _wait(self, what: str, ok, seconds: float, name: str, logfile: Path) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if ok():
                return
            p = self.procs.get(name)
            if p is not None and p.poll() is not None:
                break
            time.sleep(0.2)
        out = self.d / "log" / f"{name}.out"
        raise CannotRun(f"{what} (after {seconds:.0f} s); {logfile}:\n{tail(logfile)}\n"
                        f"{out}:\n{tail(out)}")

    def start(self) -> None:
        d = self.d
        for sub in ("munge", "state", "spool", "log"):
            (d / sub).mkdir()
        key = d / "munge" / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o600)
        sock = d / "munge" / "munge.socket"
        self._spawn("munged", ["munged", "--foreground", "--force", f"--socket={sock}",
                               f"--key-file={key}", f"--pid-file={d / 'munge' / 'munged.pid'}",
                               f"--log-file={d / 'log' / 'munged.log'}",
                               f"--seed-file={d / 'munge' / 'munged.seed'}"])
        self._wait("munged did not create its socket", sock.exists, 15, "munged",
                   d / "log" / "munged.log")
        ctld_port, slurmd_port = free_ports(2)
        self.conf.write_text("\n".join([
            "# A single-machine cluster for tests/slurm/test_slurm_cluster.py",
            "ClusterName=nitest",
            f"SlurmctldHost={self.host}(127.0.0.1)",
            f"SlurmctldPort={ctld_port}",
            f"SlurmdPort={slurmd_port}",
            "SlurmUser=root",
            "SlurmdUser=root",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            f"AuthInfo=socket={sock}",
            f"StateSaveLocation={d / 'state'}",
            f"SlurmdSpoolDir={d / 'spool'}",
            f"SlurmctldPidFile={d / 'slurmctld.pid'}",
            f"SlurmdPidFile={d / 'slurmd.pid'}",
            f"SlurmctldLogFile={d / 'log' / 'slurmctld.log'}",
            f"SlurmdLogFile={d / 'log' / 'slurmd.log'}",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "MpiDefault=none",
            "MailProg=/bin/true",
            "ReturnToService=2",
            "SchedulerParameters=sched_interval=1",
            f"NodeName={self.host} NodeAddr=127.0.0.1 CPUs={os.cpu_count() or 1} State=UNKNOWN",
            f"PartitionName=test Nodes={self.host} Default=YES MaxTime=INFINITE State=UP",
        ]) + "\n")
        self._spawn("slurmctld", ["slurmctld", "-D", "-i"])
        self._spawn("slurmd", ["slurmd", "-D", "-N", self.host])

        def idle() -> bool:
            p = subprocess.run(["sinfo", "-h", "-o", "%T"], env=self.env, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            return p.returncode == 0 and p.stdout.strip() == "idle"
        self._wait("the node did not become idle", idle, 45, "slurmd", d / "log" / "slurmd.log")

    def run(self, argv: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run(argv, cwd=ROOT, env=self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL,
                              timeout=timeout)

    def ours(self) -> list[int]:
        """Processes that belong to this cluster: the daemons, and anything whose command
        line, working directory or open files are in our directory (slurmstepd, tasks)."""
        found = []
        for p in Path("/proc").iterdir():
            if not p.name.isdigit() or int(p.name) == os.getpid():
                continue
            try:
                cmd = (p / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                if str(self.d) in cmd:
                    found.append(int(p.name))
                    continue
                for fd in (p / "fd").iterdir():
                    if os.readlink(fd).startswith(str(self.d)):
                        found.append(int(p.name))
                        break
            except OSError:
                continue
        return found + [pr.pid for pr in self.procs.values()
                        if pr.poll() is None and pr.pid not in found]

    def stop(self) -> list[str]:
        """Stop everything; what was still running afterwards (should be nothing)."""
        if self.procs.get("slurmctld") and self.procs["slurmctld"].poll() is None:
            ids = self.run(["squeue", "-h", "-o", "%A"], timeout=30).stdout.split()
            if ids:
                self.run(["scancel"] + sorted(set(ids)), timeout=30)
                end = time.monotonic() + 15
                while time.monotonic() < end:
                    if not self.run(["squeue", "-h"], timeout=30).stdout.strip():
                        break
                    time.sleep(0.5)
        for name in ("slurmd", "slurmctld", "munged"):
            p = self.procs.get(name)
            if p is None or p.poll() is not None:
                continue
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
        for pid in self.ours():  # e.g. a slurmstepd that outlived slurmd
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.5)
        left = []
        for pid in self.ours():
            try:
                left.append(f"{pid}: " + Path(f"/proc/{pid}/cmdline").read_bytes()
                            .replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                pass
        return left


def bins(path: Path) -> dict:
    j = json.loads(path.read_text())
    return {(g["name"], b["name"]): b["count"] for g in j["groups"] for b in g["bins"]}


def summed(paths: list[Path]) -> dict:
    total: dict = {}
    for p in paths:
        for k, c in bins(p).items():
            total[k] = total.get(k, 0) + c
    return total


class Checks:
    def __init__(self):
        self.failures = 0

    def __call__(self, ok: bool, what: str, detail: str = "") -> bool:
        print(("ok   " if ok else "FAIL ") + what, flush=True)
        if not ok:
            self.failures += 1
            if detail:
                print("     " + detail.replace("\n", "\n     "))
        return ok


def check_merge(check: Checks, results: Path, plan_ids: list[str], passed: int, failed: int,
                missing: list[int], fail_id: str, label: str) -> dict:
    """The merged results of RESULTS: summary, JUnit, coverage."""
    s = json.loads((results / "summary.json").read_text())
    want = (len(plan_ids), passed, failed, len(missing))
    got = (s["runs"], s["passed"], s["failed"], s["missing"])
    check(got == want, f"{label}: summary: %d runs, %d passed, %d failed, %d no result" % want,
          "got %d runs, %d passed, %d failed, %d no result" % got)
    check(s["failing_ids"] == [fail_id], f"{label}: the failing run is {fail_id}",
          str(s["failing_ids"]))
    check(s["missing_indices"] == missing, f"{label}: runs with no result: {missing}",
          str(s["missing_indices"]))
    text = (results / "summary.txt").read_text()
    heads = ["Failing seeds"] + (["Seeds with no result"] if missing else []) + ["Passed:"]
    pos = [text.find(h) for h in heads]
    check(all(p >= 0 for p in pos) and pos == sorted(pos),
          f"{label}: summary.txt lists the failing seeds first, then "
          + ("the seeds with no result, then " if missing else "") + "the passing ones",
          text[:1500])
    check("timeout: no completion" in text and "reproduce: cd " in text,
          f"{label}: summary.txt gives the failure and its reproduce command")
    if missing:
        check("NO RESULT" in text and "--resubmit-missing" in text,
              f"{label}: summary.txt names the seeds with no result and how to resubmit them")
    check("code coverage: not collected" in text,
          f"{label}: summary.txt says code coverage was not collected "
          f"({SIM} is not a COVERAGE=1 build)")

    top = ET.parse(results / "junit.xml").getroot()
    cases = list(top.iter("testcase"))
    fails = [c for c in cases if c.find("failure") is not None]
    errs = [c for c in cases if c.find("error") is not None]
    check(top.tag == "testsuites" and len(cases) == len(plan_ids) and len(fails) == failed
          and len(errs) == len(missing) and top.get("tests") == str(len(plan_ids))
          and top.get("failures") == str(failed) and top.get("errors") == str(len(missing)),
          f"{label}: junit.xml: {len(plan_ids)} test cases, {failed} failure, "
          f"{len(missing)} errors",
          f"tests={top.get('tests')} failures={top.get('failures')} errors={top.get('errors')}, "
          f"{len(cases)} cases")
    if fails:
        f = fails[0].find("failure")
        check(fails[0].get("name") == "seed 9" and "timeout" in (f.get("message") or "")
              and "reproduce:" in (f.text or ""),
              f"{label}: junit.xml: the failure is seed 9's timeout, with its reproduce command")
    if errs:
        check(all("no result" in (c.find("error").get("message") or "") for c in errs),
              f"{label}: junit.xml: the seeds with no result are errors saying so")

    pass_ids = [p["id"] for p in s["per_run"] if p["status"] == "pass"]
    merged = bins(results / "coverage" / "functional.json")
    want = summed([results / "runs" / i / "coverage.json" for i in pass_ids])
    check(merged == want and len(pass_ids) == passed,
          f"{label}: merged functional coverage = the per-bin sums of the {passed} passing runs",
          f"{sum(1 for k in want if merged.get(k) != want[k])} bins differ")
    check(s["coverage"]["code"] is None, f"{label}: no code coverage claimed")
    return s


def scenario(check: Checks, cluster: Cluster, tmp: Path) -> None:
    results = tmp / "results"
    bad = tmp / "fail_timeout.json"
    # Must fail: 500 transfers take about 3000 cycles, the configuration stops the run at 1000.
    bad.write_text(json.dumps({"max_cycles": 1000}) + "\n")
    t0 = time.monotonic()
    p = cluster.run(MAKE + ["regress-slurm", "SEEDS=1-8", "TRANSFERS=500",
                            "CONFIG=sim/configs/regress.json", "MAX_PARALLEL=2",
                            f"RESULTS={results}", f"SLURM_ARGS=--group {bad}:9"])
    if not check(p.returncode == 0, "make regress-slurm submits", p.stdout):
        return
    subs = json.loads((results / "slurm" / "submissions.json").read_text())["submissions"]
    arr = subs[0]["arrays"][0]
    job = arr["job"]
    check(arr["spec"] == "0-8%2" and len(subs[0]["arrays"]) == 1,
          f"one job array of 9 tasks, at most 2 at once (--array={arr['spec']})")
    # Cancel one pending task (seed 8, plan index 7; MAX_PARALLEL=2 keeps it queued), as if
    # it had been killed. Another pending one if (unexpectedly) it already ran.
    pend = cluster.run(["squeue", "-h", "-r", "-t", "PD", "-j", job, "-o", "%K"]).stdout.split()
    pend = [int(x) for x in pend if x.isdigit() and int(x) < 8]
    victim = 7 if 7 in pend else (max(pend) if pend else None)
    if not check(victim is not None, "a regress.json task is still pending right after submission",
                 str(pend)):
        return
    cluster.run(["scancel", f"{job}_{victim}"])
    info = cluster.run(["scontrol", "show", "job", job]).stdout
    check("ArrayTaskThrottle=2" in info,
          "Slurm holds the array to 2 tasks at once (ArrayTaskThrottle=2)")
    check("Requeue=1" in info, "the array may be requeued by Slurm (--requeue: Requeue=1)")

    p = cluster.run([PY, "scripts/slurm_regress.py", "--wait-for", str(results), "--poll", "1"])
    first = time.monotonic() - t0
    check(p.returncode == 1 and "7 passed, 1 failed, 1 no result" in p.stdout,
          "the merge job ran after the array; --wait-for prints its summary and exits 1 "
          f"({first:.0f} s)",
          p.stdout)
    plan = json.loads((results / "regress.json").read_text())
    ids = [r["id"] for r in plan["runs"]]
    fail_id = "fail_timeout.seed-9"
    check_merge(check, results, ids, 7, 1, [victim], fail_id, "first submission")

    # Every finished run: its files, and it ran as a task of the array on our node.
    done = [r for r in plan["runs"] if r["index"] != victim]
    bad_files = []
    for r in done:
        rd = results / "runs" / r["id"]
        need = ["report.json", "junit.xml", "result.json", "coverage.json", "output.txt",
                "started.json"]
        if r["id"] == fail_id:
            need.append("reproduce.sh")
        bad_files += [f"{r['id']}/{n}" for n in need if not (rd / n).exists()]
        res = json.loads((rd / "result.json").read_text())
        if res["slurm"].get("array_job") != job or res["slurm"].get("task") != str(r["index"]) \
                or res["host"].split(".")[0] != cluster.host:
            bad_files.append(f"{r['id']}: ran as {res['slurm']} on {res['host']}")
    check(not bad_files, "each of the 8 finished tasks wrote its report, JUnit, coverage and "
          "result as array task <index> on the node", "\n".join(bad_files))
    check(not (results / "runs" / ids[victim] / "result.json").exists(),
          f"the cancelled task ({ids[victim]}) has no result")

    # The failure's reproduce command reproduces it.
    res = json.loads((results / "runs" / fail_id / "result.json").read_text())
    out = (results / "runs" / fail_id / "output.txt").read_text()
    again = subprocess.run(["sh", str(results / "runs" / fail_id / "reproduce.sh")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    first_line = next((l for l in out.splitlines() if l.startswith("FAIL")), "?")
    check(again.returncode == 1 and first_line in again.stdout,
          f"the reproduce command ({res['reproduce']}) fails again the same way",
          again.stdout[-800:])

    # Resubmit only the seed with no result.
    t1 = time.monotonic()
    p = cluster.run(MAKE + ["regress-slurm-resubmit", f"RESULTS={results}", "WAIT=1",
                            "SLURM_ARGS=--poll 1"])
    check(p.returncode != 0 and "resubmitting 1 runs" in p.stdout
          and "8 passed, 1 failed, 0 no result" in p.stdout,
          "make regress-slurm-resubmit reruns the seed with no result "
          f"({time.monotonic() - t1:.0f} s)",
          p.stdout)
    subs = json.loads((results / "slurm" / "submissions.json").read_text())["submissions"]
    check(len(subs) == 2 and [a["indices"] for a in subs[1]["arrays"]] == [[victim]],
          f"the resubmission is an array of only plan index {victim}",
          json.dumps(subs[-1]["arrays"]))
    res = json.loads((results / "runs" / ids[victim] / "result.json").read_text())
    check(res["status"] == "pass" and res["slurm"].get("array_job") == subs[1]["arrays"][0]["job"],
          f"{ids[victim]} passed as a task of the new array")
    s = check_merge(check, results, ids, 8, 1, [], fail_id, "after resubmission")

    # The same runs on this machine (make regress-seeds' path) report alike.
    local = tmp / "local"
    p = subprocess.run([PY, "scripts/regress_seeds.py", "--seeds", "1-8", "--config",
                        "sim/configs/regress.json", "--group", f"{bad}:9", "--transfers", "500",
                        "-j", "2", "--results", str(local)], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    ls = json.loads((local / "summary.json").read_text())
    def statuses(summary: dict) -> list:
        return [(r["id"], r["status"]) for r in summary["per_run"]]
    same = statuses(ls) == statuses(s)
    check(p.returncode == 1 and same, "regress_seeds.py on this machine: the same status per run",
          p.stdout[-1500:])
    check(bins(local / "coverage" / "functional.json")
          == bins(results / "coverage" / "functional.json"),
          "regress_seeds.py on this machine: the same merged functional coverage")
    killed_task(check, cluster, tmp)
    print(f"timing: first submission to merged summary {first:.0f} s; whole scenario "
          f"{time.monotonic() - t0:.0f} s", flush=True)


def killed_task(check: Checks, cluster: Cluster, tmp: Path) -> None:
    """A task killed while it runs (as by a time limit or a lost node) has no result, and
    the summary says where it started and why Slurm ended it."""
    results = tmp / "killed"
    # A long run (about a minute): scancel ends it a moment after it has started.
    p = cluster.run([PY, "scripts/slurm_regress.py", "--seeds", "3", "--transfers", "3000000",
                     "--config", "sim/configs/regress.json", "--results", str(results)])
    if not check(p.returncode == 0, "a one-task regression submits", p.stdout):
        return
    subs = json.loads((results / "slurm" / "submissions.json").read_text())["submissions"]
    job = subs[0]["arrays"][0]["job"]
    started = results / "runs" / "seed-3" / "started.json"
    end = time.monotonic() + 60
    while not started.exists() and time.monotonic() < end:
        time.sleep(0.2)
    if not check(started.exists(), "the long task started"):
        return
    time.sleep(1)
    cluster.run(["scancel", f"{job}_0"])
    p = cluster.run([PY, "scripts/slurm_regress.py", "--wait-for", str(results), "--poll", "1"])
    s = json.loads((results / "summary.json").read_text())
    text = (results / "summary.txt").read_text()
    check(p.returncode == 1 and s["missing_indices"] == [0] and s["passed"] == 0
          and f"started on {cluster.host}" in text and "CANCELLED" in text,
          "a task killed while running: no result, the summary says it started and was cancelled",
          text[:1200])
    top = ET.parse(results / "junit.xml").getroot()
    check(top.get("errors") == "1" and top.get("tests") == "1",
          "a task killed while running: an error in junit.xml")


def main() -> int:
    check = Checks()
    verbose = "-v" in sys.argv[1:]
    why = []
    if os.geteuid() != 0:
        why.append("not root: slurmd and munged run as root here (SlurmUser=root)")
    for tool, pkg in TOOLS.items():
        if shutil.which(tool) is None:
            why.append(f"{tool} not found (Debian package {pkg}; scripts/deps.sh installs it)")
    if not (ROOT / SIM).exists():
        why.append(f"{SIM} not built (make sim)")
    if why:
        print("FAIL cannot bring up a Slurm cluster on this machine: " + "; ".join(why))
        return 1

    tmp = Path(tempfile.mkdtemp(prefix="ni-slurm-"))
    tmp.chmod(0o755)  # munged: the socket's directory must be searchable by everyone
    cluster = Cluster(tmp)
    t0 = time.monotonic()
    left: list[str] = []
    try:
        try:
            cluster.start()
            check(True, f"single-machine cluster up: munged, slurmctld, slurmd on {cluster.host} "
                  f"({time.monotonic() - t0:.1f} s)")
        except CannotRun as e:
            check(False, "cannot bring up a Slurm cluster on this machine", str(e))
            return 1
        scenario(check, cluster, tmp)
    except subprocess.TimeoutExpired as e:
        check(False, f"timed out: {shlex.join(map(str, e.cmd))}", str(e.output or "")[-1500:])
    finally:
        left = cluster.stop()
        check(not left, "shut down: no munged, slurmctld, slurmd, slurmstepd or task left running",
              "\n".join(left))
        if check.failures or verbose:
            for name in ("slurmctld.log", "slurmd.log", "munged.log"):
                print(f"--- {name} (last lines)\n{tail(tmp / 'log' / name, 25)}")
        if not left:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"(kept {tmp})")
    print(f"{'FAIL' if check.failures else 'PASS'}: {check.failures} failed checks "
          f"[{time.monotonic() - t0:.0f} s]")
    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())
