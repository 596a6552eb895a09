#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate the C++ view of a SystemVerilog package: one source of truth for formats.

Elaborates the package with slang (pyslang) and writes a C++17 header with, for every
  * integer localparam of at most 64 bits:  `inline constexpr uint64_t Name = value;`
  * enum typedef:      a namespace with one constant per value and `width`;
  * packed struct typedef: a namespace with `width`, one `Field` per member (bit offset from
    the LSB and width, as the ICD lists them) and `fields`, every member LSB first; and its
    decoder: `Value` (the members of at most 64 bits) and `unpack(words)`, which reads them
    from a 64-bit value, an array of 64-bit words or Verilator's 32-bit words of a wide port.
The golden models and the simulator take their constants, field layouts and decoders from
this header, so a change to the package changes them too (and tests/ref_model/test_types.cpp
checks the package against the ICD's values).

With --ports MODULE it writes instead the port list of a module (name, width, direction, in
declaration order), from the module's file and the package it imports: the simulator's
GTKWave save file of an N-node trace is made from it, so it names only ports that exist.

usage: gen_pkg.py rtl/common/ni_pkg.sv [-o build/gen/ni_pkg_gen.hpp] [--package ni_pkg]
       gen_pkg.py --ports ni_node rtl/common/ni_pkg.sv rtl/top/ni_node.sv [-o FILE]
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


# The decoders' field readers, emitted once at the top of the package header.
GETTERS = """// A field of at most 64 bits, from a packed value held in one 64-bit word, in 64-bit words
// (word 0 = bits 63:0), or in Verilator's 32-bit words of a wide port (word 0 = bits 31:0).
constexpr uint64_t keep(uint64_t v, unsigned width) {
  return width >= 64 ? v : v & ((uint64_t{1} << width) - 1);
}
constexpr uint64_t get(uint64_t v, Field f) { return f.lsb >= 64 ? 0 : keep(v >> f.lsb, f.width); }
template <std::size_t N>
constexpr uint64_t get(const std::array<uint64_t, N>& v, Field f) {
  const unsigned i = f.lsb / 64, b = f.lsb % 64;
  uint64_t r = v[i] >> b;
  if (b != 0 && b + f.width > 64 && i + 1 < N) r |= v[i + 1] << (64 - b);
  return keep(r, f.width);
}
inline uint64_t get(const uint32_t* w, Field f) {
  const unsigned i = f.lsb / 32, b = f.lsb % 32;
  uint64_t r = uint64_t{w[i]} >> b;
  for (unsigned k = i + 1, have = 32 - b; have < f.width; ++k, have += 32) r |= uint64_t{w[k]} << have;
  return keep(r, f.width);
}
"""


def generate(path: str, package: str) -> str:
    _, pkg = elaborate(path, package)
    out = [
        f"// Generated from {path} (package {package}) by scripts/gen_pkg.py: do not edit.",
        "// Constants, enum values and packed-struct layouts (fields LSB first) of the package,",
        "// and a decoder per packed struct.",
        "#pragma once",
        "",
        "#include <array>",
        "#include <cstddef>",
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
        GETTERS,
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
                small = [f.name for f in fields if f.type.bitWidth <= 64]
                if small:
                    out.append("// The members of at most 64 bits, decoded.")
                    out.append("struct Value {")
                    out += [f"  uint64_t {n};" for n in small]
                    out.append("};")
                    out.append("template <class Words>")
                    out.append("constexpr Value unpack(const Words& w) {")
                    out.append(f"  return Value{{{', '.join(f'get(w, {n})' for n in small)}}};")
                    out.append("}")
                out.append(f"}}  // namespace {m.name}")
            elif t.kind in (ast.SymbolKind.PackedArrayType, ast.SymbolKind.ScalarType):
                out.append(f"namespace {m.name} {{ inline constexpr unsigned width = {t.bitWidth}; }}")
    out += ["", f"}}  // namespace ni::{package.removesuffix('_pkg')}_pkg", ""]
    return "\n".join(out)


def ports(paths: list[str], module: str) -> str:
    """The port list of `module` (its file and the package it imports; the modules it
    instantiates are not needed: their diagnostics are ignored)."""
    comp = ast.Compilation()
    for p in paths:
        comp.addSyntaxTree(syntax.SyntaxTree.fromFile(p))
    tops = [i for i in comp.getRoot().topInstances if i.name == module]
    if not tops:
        raise SystemExit(f"gen_pkg: {' '.join(paths)}: no module {module}")
    out = [
        f"// Generated from {' '.join(paths)} (module {module}) by scripts/gen_pkg.py: do not edit.",
        "// The module's ports in declaration order, with their widths (default parameters).",
        "#pragma once",
        "",
        f"namespace ni::{module}_ports {{",
        "",
        "struct Port {",
        "  const char* name;",
        "  unsigned width;  // bits",
        "  bool output;",
        "};",
        "",
        "inline constexpr Port ports[] = {",
    ]
    for p in tops[0].body.portList:
        width = p.type.bitWidth
        if width <= 0 or p.type.isError:
            raise SystemExit(f"gen_pkg: {module}: port {p.name} has no width")
        output = "true" if p.direction == ast.ArgumentDirection.Out else "false"
        out.append(f'    {{"{p.name}", {width}, {output}}},')
    out += ["};", "", f"}}  // namespace ni::{module}_ports", ""]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="the package file (with --ports: and the module's)")
    ap.add_argument("-o", "--output")
    ap.add_argument("--package", default="ni_pkg")
    ap.add_argument("--ports", metavar="MODULE", help="write MODULE's port list instead")
    args = ap.parse_args()
    if args.ports:
        text = ports(args.files, args.ports)
    elif len(args.files) != 1:
        raise SystemExit("gen_pkg: one package file (or --ports MODULE FILES...)")
    else:
        text = generate(args.files[0], args.package)
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
