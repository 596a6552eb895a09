#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The test plan, tests/testplan.json: the one list of the project's tests and random runs
that scripts/run_tests.py (make smoke / test / nightly), scripts/mutants.py,
scripts/coverage_report.py and the nightly seed sweeps read (see the file's "about").

As a program it prints the plan: `testplan.py [--tier T]` lists the tests of a tier, and
`testplan.py --check` validates the file (every config and script it names exists).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAN = ROOT / "tests" / "testplan.json"
TIERS = ("smoke", "test", "nightly")
SETS = TIERS + ("mutants", "coverage")


class PlanError(Exception):
    pass


def load(path: Path = PLAN) -> dict:
    try:
        plan = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise PlanError(f"{path}: {e}")
    if plan.get("format") != "ni-testplan/1":
        raise PlanError(f"{path}: \"format\" must be \"ni-testplan/1\"")
    for i, r in enumerate(plan.get("random_runs", [])):
        where = f"{path.name}: random_runs[{i}] ({r.get('name')})"
        for key in ("name", "seed", "transfers", "sets"):
            if key not in r:
                raise PlanError(f"{where}: no \"{key}\"")
        bad = [s for s in r["sets"] if s not in SETS]
        if bad:
            raise PlanError(f"{where}: unknown set(s) {bad} (known: {', '.join(SETS)})")
        if r.get("config") and not (ROOT / r["config"]).is_file():
            raise PlanError(f"{where}: {r['config']} does not exist")
    for i, c in enumerate(plan.get("commands", [])):
        where = f"{path.name}: commands[{i}] ({c.get('name')})"
        bad = [t for t in c.get("tiers", []) if t not in TIERS]
        if bad or not c.get("tiers"):
            raise PlanError(f"{where}: tiers must be among {', '.join(TIERS)}")
        for a in c.get("argv", []):
            if a.endswith(".py") and not (ROOT / a).is_file():
                raise PlanError(f"{where}: {a} does not exist")
    for i, s in enumerate(plan.get("seed_sweeps", [])):
        if not (ROOT / s["config"]).is_file():
            raise PlanError(f"{path.name}: seed_sweeps[{i}]: {s['config']} does not exist")
    return plan


def runs(plan: dict, set_name: str) -> list[dict]:
    """The random runs of a tier or of the mutants / coverage set."""
    return [r for r in plan["random_runs"] if set_name in r["sets"]]


def run_args(r: dict, transfers: int | None = None) -> list[str]:
    """ni_sim's arguments for a random run (without the binary); `transfers` overrides."""
    argv = ["--seed", str(r["seed"]), "--transfers", str(transfers or r["transfers"])]
    if r.get("config"):
        argv += ["--config", r["config"]]
    if r.get("nodes") is not None:
        argv += ["--nodes", str(r["nodes"])]
    return argv


def run_name(r: dict) -> str:
    nodes = f" {r['nodes']} node(s)" if r.get("nodes") is not None else ""
    return f"sim {r['name']}{nodes} seed {r['seed']}"


def commands(plan: dict, tier: str) -> list[dict]:
    return [c for c in plan["commands"] if tier in c["tiers"]]


def seed_sweeps(plan: dict, tier: str) -> list[dict]:
    return [s for s in plan.get("seed_sweeps", []) if tier in s["tiers"]]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tier", choices=SETS, default="test")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    try:
        plan = load()
    except PlanError as e:
        print(f"testplan: {e}", file=sys.stderr)
        return 2
    if a.check:
        print(f"testplan: {PLAN.relative_to(ROOT)} is valid ({len(plan['random_runs'])} random "
              f"runs, {len(plan['commands'])} commands, {len(plan.get('seed_sweeps', []))} sweeps)")
        return 0
    for c in commands(plan, a.tier) if a.tier in TIERS else []:
        print(f"command  {c['name']}")
    for r in runs(plan, a.tier):
        print(f"run      {run_name(r)}: {' '.join(run_args(r))}")
    for s in seed_sweeps(plan, a.tier) if a.tier in TIERS else []:
        print(f"sweep    {s['name']}: seeds {s['seeds']}, {s['transfers']} transfers, {s['config']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
