#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate the C++ view of a SystemVerilog package: one source of truth for formats.

Elaborates the package with slang (pyslang) and writes a C++17 header with, for every
  * integer localparam of at most 64 bits:  `inline constexpr uint64_t Name = value;`
  * enum typedef:      a namespace with one constant per value and `width`;
  * packed struct typedef: a namespace with `width`, one `Field` per member (bit offset from
    the LSB and width, as the ICD lists them) and `fields`, every member LSB first.
The golden models take their constants and field layouts from this header, so a change to
the package changes them too (and tests/ref_model/test_types.cpp checks the package against
the ICD's values).

usage: gen_pkg.py rtl/common/ni_pkg.sv [-o build/gen/ni_pkg_gen.hpp] [--package ni_pkg]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pyslang import ast, syntax


def elaborate(path: str, package: str):
    tree = syntax.SyntaxTree.fromFile(path)
    comp = ast.Compilation()
    comp.addSyntaxTree(tree)
    errors = [d for d in comp.getAllDiagnostics() if d.isError()]
    if errors:
        raise SystemExit(f"gen_pkg: {path}: {len(errors)} errors; run `make lint` for details")
    pkg = comp.getPackage(package)
    if pkg is None:
        raise SystemExit(f"gen_pkg: {path}: no package {package}")
    return comp, pkg


def int_value(sym) -> int | None:
    """The value of an integer parameter of at most 64 bits, else None."""
    t = sym.type
    if not t.isIntegral or t.bitWidth > 64:
        return None
    v = sym.value
    if v is None or v.hasUnknown():
        return None
    s = str(v)
    # slang prints sized literals: 32'd16, 4'b1, 2'b10
    if "'" in s:
        base_val = s.split("'", 1)[1].lstrip("s")
        base, digits = base_val[0], base_val[1:]
        radix = {"d": 10, "b": 2, "h": 16, "o": 8}[base]
        return int(digits.replace("_", ""), radix)
    return int(s)


def generate(path: str, package: str) -> str:
    _, pkg = elaborate(path, package)
    out = [
        f"// Generated from {path} (package {package}) by scripts/gen_pkg.py: do not edit.",
        "// Constants, enum values and packed-struct layouts (fields LSB first) of the package.",
        "#pragma once",
        "",
        "#include <cstdint>",
        "",
        f"namespace ni::{package.removesuffix('_pkg')}_pkg {{",
        "",
        "struct Field {",
        "  const char* name;",
        "  unsigned lsb;    // bit offset from bit 0",
        "  unsigned width;  // bits",
        "};",
        "",
    ]
    for m in pkg:
        if m.kind == ast.SymbolKind.Parameter:
            v = int_value(m)
            if v is not None:
                out.append(f"inline constexpr uint64_t {m.name} = {v}ull;")
        elif m.kind == ast.SymbolKind.TypeAlias:
            t = m.targetType.type.canonicalType
            if t.kind == ast.SymbolKind.EnumType:
                out.append(f"namespace {m.name} {{")
                out.append(f"inline constexpr unsigned width = {t.bitWidth};")
                for e in t:
                    if e.kind == ast.SymbolKind.EnumValue:
                        s = str(e.value)
                        val = int(s.split("'", 1)[1][1:], {"b": 2, "d": 10, "h": 16}[s.split("'", 1)[1][0]])
                        out.append(f"inline constexpr uint64_t {e.name} = {val}ull;")
                out.append(f"}}  // namespace {m.name}")
            elif t.kind == ast.SymbolKind.PackedStructType:
                fields = [f for f in t if f.kind == ast.SymbolKind.Field]
                fields.sort(key=lambda f: f.bitOffset)
                out.append(f"namespace {m.name} {{")
                out.append(f"inline constexpr unsigned width = {t.bitWidth};")
                for f in fields:
                    out.append(f'inline constexpr Field {f.name}{{"{f.name}", {f.bitOffset}, {f.type.bitWidth}}};')
                out.append(f"inline constexpr Field fields[] = {{{', '.join(f.name for f in fields)}}};")
                out.append(f"}}  // namespace {m.name}")
            elif t.kind in (ast.SymbolKind.PackedArrayType, ast.SymbolKind.ScalarType):
                out.append(f"namespace {m.name} {{ inline constexpr unsigned width = {t.bitWidth}; }}")
    out += ["", f"}}  // namespace ni::{package.removesuffix('_pkg')}_pkg", ""]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("package_file")
    ap.add_argument("-o", "--output")
    ap.add_argument("--package", default="ni_pkg")
    args = ap.parse_args()
    text = generate(args.package_file, args.package)
    if args.output:
        p = Path(args.output)
        # Rewrite only on change, so that a package edit that changes nothing rebuilds nothing.
        if not p.exists() or p.read_text() != text:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
