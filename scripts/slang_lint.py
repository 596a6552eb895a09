#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Second SystemVerilog front end: compile the RTL with slang (pyslang) and check its diagnostics.

Run by `make lint` (after Verilator's lint). The RTL is compiled twice, each time as one
pyslang Compilation of every file given, with every warning slang has enabled
(-Weverything) and the given tops elaborated (qos_engine and the primitives with their
default parameters):
  * the simulation view (assertions included, as Verilator --assert sees it);
  * the synthesis view (-DSYNTHESIS, as `make synth` sees it);
  * the formal view (-DSYNTHESIS -DFORMAL, as yosys-slang under SymbiYosys sees it: the
    assertion macros of rtl/common/ni_assert.svh as immediate assertions).
The directory of every file is an include directory (the RTL includes ni_assert.svh).

Every diagnostic is printed. The run fails (exit 1) on
  * any error, unless WAIVERS below lists it with `error=True`;
  * any warning that WAIVERS does not list;
  * any waiver that matched nothing (a stale waiver hides nothing and must go).
A waiver names the diagnostic code, the file, a regular expression that the source line of
the diagnostic must match, and the reason. Keep them narrow: a new occurrence of the same
warning elsewhere must fail until someone has looked at it.

usage: slang_lint.py [-I DIR] --top NAME [--top NAME ...] FILE...
"""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import re
import shlex
import sys
from pathlib import Path

import pyslang
from pyslang import driver


@dataclasses.dataclass
class Waiver:
    code: str       # slang diagnostic code name, e.g. "SignCompare"
    file: str       # glob on the file path as given on the command line
    line: str       # regular expression searched in the source line of the diagnostic
    reason: str
    error: bool = False  # True only for a deliberately waived error
    used: int = 0


# ------------------------------------------------------------------------------------------------
# Waivers. Each entry says why the diagnostic is harmless here (or, for an error, why it is
# tolerated and what fixes it).
# ------------------------------------------------------------------------------------------------
WAIVERS: list[Waiver] = [
    # -- house style ---------------------------------------------------------------------------
    Waiver("CaseRedundantDefault", "rtl/*/*.sv", r"unique case",
           "STYLE.md (lowRISC style): every `unique case` has a `default`, also when the items "
           "cover every value; the default keeps synthesis and X-propagation well defined."),
    # -- loop indices and integer constants -----------------------------------------------------
    Waiver("SignCompare", "rtl/*/*.sv", r"for \(int \w+ = 0; \w+ < \w+; \w+\+\+\)",
           "`int` loop index compared with an `int unsigned` parameter: both are small and "
           "non-negative, so the unsigned comparison is the intended one."),
    Waiver("SignCompare", "rtl/qos/transfer_segmenter.sv", r"if \(q == QTid\)",
           "`int` loop index 0..NumQueues-1 compared with the `int unsigned` constant QTid."),
    Waiver("SignCompare", "rtl/qos/transfer_segmenter.sv", r"if \(32'\(b\) >= b_q\.ctrl\.size\)",
           "byte index 0..31 against the 32-bit size: unsigned comparison, as intended."),
    Waiver("UselessCast", "rtl/qos/transfer_segmenter.sv", r"if \(32'\(b\) >= b_q\.ctrl\.size\)",
           "the explicit 32-bit size makes the comparison width visible (Verilator -Wall WIDTH)."),
    Waiver("UselessCast", "rtl/qos/id_init.sv", r"assign tid_o\s+= TidW'\(cnt_q\);",
           "parameter dependent: with the default parameters the counter is exactly TidW bits, "
           "with others (e.g. the id_init_small test model) the cast truncates."),
    Waiver("ArithOpMismatch", "rtl/common/ni_pkg.sv", r"return qid_t'\(2 \+ .*int'\(level\)\);",
           "queue index arithmetic on small non-negative values (0..65) mixing `int unsigned` "
           "parameters and the `int` level; the result is cast to qid_t."),
    Waiver("SignConversion", "rtl/common/ni_pkg.sv", r"return qid_t'\(2 \+ .*int'\(level\)\);",
           "as above: the level 0..15 is non-negative, the conversion to unsigned is exact."),
    Waiver("ArithOpMismatch", "rtl/common/ni_pkg.sv", r"return dst_lo \+ size_lo - BlockW'\(1\);",
           "`BlockW'(1)` is a signed 16-bit 1; the sum is meant modulo 2^16 (last block length - 1)."),
    Waiver("PackedArrayConv", "rtl/qos/axi_slave.sv", r"assign tt_wdata_o\s+= merged;",
           "the four accumulated words (logic [3:0][63:0]) are the Transfer Table line, word i "
           "at bits 64i+63:64i: the packed-array conversion is the intended layout."),
    Waiver("PackedArrayConv", "rtl/qos/status_regs.sv", r"status_q +<= \{NumWch\{StIdle\}\};",
           "reset value: every 2-bit code IDLE; the replication has the packed array's layout."),
    Waiver("PackedArrayConv", "rtl/qos/status_regs.sv", r"status_d\[g\*32 \+: 32\] = nxt;",
           "a group's 32 codes written from their 64-bit word, channel i at bits 2i+1:2i: the "
           "packed array's layout (Verilator 5.006 does not support a cast to a packed array "
           "of enums here)."),
]


def rtl_sort_key(path: str) -> tuple[int, str]:
    return (0 if path.endswith("_pkg.sv") else 1, path)


def compile_view(files: list[str], incdirs: list[str], tops: list[str], defines: list[str]):
    d = driver.Driver()
    d.addStandardArgs()
    # One compilation unit: ni_pkg.sv, listed first, then the modules, each of which includes
    # ni_assert.svh (Verilator and synthesis tools read a file list the same way).
    args = ["slang", "-Weverything", "--error-limit=0", "--single-unit"]
    args += [f"-I{i}" for i in incdirs]
    args += [f"-D{x}" for x in defines]
    for t in tops:
        args += ["--top", t]
    args += files
    if not d.parseCommandLine(shlex.join(args), driver.CommandLineOptions()):
        raise SystemExit("slang_lint: bad slang command line: " + shlex.join(args))
    if not d.processOptions():
        raise SystemExit("slang_lint: slang rejected its options")
    if not d.parseAllSources():
        raise SystemExit("slang_lint: slang could not read the sources")
    comp = d.createCompilation()
    return d, comp, list(comp.getAllDiagnostics())


def source_line(sm: pyslang.SourceManager, loc: pyslang.SourceLocation) -> str:
    text = sm.getSourceText(loc.buffer)
    # getSourceText returns the whole buffer; find the line around the offset.
    start = text.rfind("\n", 0, loc.offset) + 1
    end = text.find("\n", loc.offset)
    return text[start:end if end >= 0 else len(text)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-I", dest="incdirs", action="append", default=[])
    ap.add_argument("--top", dest="tops", action="append", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    files = sorted(args.files, key=rtl_sort_key)
    # Include directories: those given, then the directory of every file (the RTL includes
    # rtl/common/ni_assert.svh by its name; Verilator finds it through -y, as here).
    incdirs = list(dict.fromkeys(args.incdirs + [str(Path(f).parent) for f in files]))

    seen: set[tuple[str, str, int, int]] = set()
    failures: list[str] = []
    waived: list[str] = []
    printed = 0
    for view, defines in (("simulation", []), ("synthesis", ["SYNTHESIS"]),
                          ("formal", ["SYNTHESIS", "FORMAL"])):
        drv, comp, diags = compile_view(files, incdirs, args.tops, defines)
        sm = drv.sourceManager
        eng = drv.diagEngine
        for dg in diags:
            sev = eng.getSeverity(dg.code, dg.location)
            if sev == pyslang.DiagnosticSeverity.Ignored:
                continue
            loc = dg.location
            fname = sm.getFileName(loc)
            line = sm.getLineNumber(loc)
            col = sm.getColumnNumber(loc)
            code = str(dg.code).removeprefix("DiagCode(").removesuffix(")")
            key = (code, fname, line, col)
            if key in seen:
                continue
            seen.add(key)
            is_error = dg.isError()
            text = source_line(sm, loc)
            w = next((w for w in WAIVERS
                      if w.code == code and fnmatch.fnmatch(fname, w.file)
                      and re.search(w.line, text) and (w.error or not is_error)), None)
            report = pyslang.DiagnosticEngine.reportAll(sm, [dg]).rstrip()
            where = f"{fname}:{line}:{col} [{code}]"
            if w is not None:
                w.used += 1
                waived.append(f"{where} ({view} view): waived: {w.reason}")
                continue
            printed += 1
            print(report)
            failures.append(f"{where} ({view} view): {'error' if is_error else 'warning'} not waived")

    stale = [w for w in WAIVERS if w.used == 0]
    for w in stale:
        failures.append(f"stale waiver {w.code} in {w.file} /{w.line}/: it matched nothing; "
                        "remove it from scripts/slang_lint.py")

    print(f"slang {pyslang.__version__}: {len(seen)} diagnostics on tops {', '.join(args.tops)} "
          f"({len(files)} files, simulation, synthesis and formal views): {len(waived)} waived, "
          f"{len(failures)} failing")
    for line in waived:
        print("  " + line)
    if failures:
        print("slang_lint: FAILED:", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
