#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The documentation names only what exists (run by `make test` as "docs links and names").

Reads README.md and every docs/**/*.md and checks:

  links    every relative link and image ([text](target), <img src>) resolves to a file or
           folder of the checkout, and a #fragment to a heading of the page it points to
           (GitHub's anchors);
  paths    every repository path written in backticks exists: a token whose first folder is a
           top-level entry of the repository (`rtl/recv/recv_unit.sv`, `sim/configs/*.json`,
           `tests/formal/<name>.sby`, `file.sv:120`), in a code span or a code block, and a
           code span that is one file name with a known extension (`recv_unit.sv`) must match
           a file somewhere in the repository; build/ and .venv/ (generated) are not checked;
  names    every code span that is a snake_case name (`trc_enq_src`, `u_mh.wake_ctrl`,
           `drop_pct`, `s_axi_*`) occurs as a word in the sources (rtl/, sim/, ref_model/,
           tests/, scripts/, bench/, mk/, vectors/): signals, instances, config keys and report
           fields that no longer exist are caught;
  flags    every --flag of an ni_sim command line (build/ni_sim ..., in a code span or block)
           is in `build/ni_sim --help`, and a code span that is a bare --flag is one of
           ni_sim's, of a script's argparse options or of the few external tools' listed below
           (SKIP, not a pass, when build/ni_sim is not built);
  targets  every `make X` names a target of the Makefile (mk/*.mk), and docs/make_targets.md
           lists exactly the targets of `make help`;
  results  docs/results/*.md, and the synthesis table of README.md, are what
           scripts/gen_docs.py writes from today's data (it is run into a temporary folder,
           on a copy of README.md, and compared);
  pictures every docs/img/*.dot has its rendered .svg next to it.

The generated results pages (docs/results/) are checked for links only: they describe the RTL
and scripts of the commit their data measured, as their stamp says.

Output: one line per check (PASS, FAIL with the offending file:line and name, or SKIP) and a
last line `docs: N passed, N failed, N skipped`. Exit status 1 when a check failed.
Usage: test_docs.py
"""

from __future__ import annotations

import argparse
import difflib
import fnmatch
import glob
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NI_SIM = ROOT / "build" / "ni_sim"
GEN_DOCS = ROOT / "scripts" / "gen_docs.py"
RESULTS = "docs/results"
TARGETS_PAGE = "docs/make_targets.md"

# File names with these endings, alone in a code span, must be files of the repository.
EXTENSIONS = (".sv", ".svh", ".cpp", ".hpp", ".py", ".json", ".md", ".mk", ".sh", ".core",
              ".sby", ".gtkw", ".dot", ".svg", ".png", ".txt")
# Generated (or local) trees: paths into them are not repository paths.
GENERATED = ("build", ".venv")
# Folders whose words are "the sources" for the names check.
SOURCE_DIRS = ("rtl", "sim", "ref_model", "tests", "scripts", "bench", "mk", "vectors", ".ci")
SOURCE_FILES = ("Makefile", "fusesoc.core")
# Options of tools other than ni_sim and the project's scripts that the docs name in a code
# span of their own: Verilator, Slurm (sbatch) and make.
EXTERNAL_FLAGS = {"--trace-fst", "--trace", "--coverage", "--threads", "--assert",
                  "--lint-only", "--coverage-max-width", "--vpi", "--public-flat-rw",
                  "--array", "--requeue", "--dependency", "--time", "--account", "--partition",
                  "--no-print-directory"}


@dataclass
class Page:
    path: Path
    rel: str
    text: str
    generated: bool
    prose: list[tuple[int, str]] = field(default_factory=list)  # (line, text) outside fences
    blocks: list[tuple[int, str]] = field(default_factory=list)  # (line, text) inside fences
    spans: list[tuple[int, str]] = field(default_factory=list)  # (line, code span)


@dataclass
class Check:
    name: str
    problems: list[str] = field(default_factory=list)
    summary: str = ""
    skipped: str = ""


# ------------------------------------------------------------------------------------------
# Reading the pages
# ------------------------------------------------------------------------------------------
SPAN_RE = re.compile(r"(`+)(.+?)\1", re.S)


def read_page(path: Path) -> Page:
    rel = path.relative_to(ROOT).as_posix()
    page = Page(path, rel, path.read_text(encoding="utf-8"), rel.startswith(RESULTS + "/"))
    fence = None
    for no, line in enumerate(page.text.splitlines(), 1):
        m = re.match(r"\s*(```+|~~~+)", line)
        if m:
            fence = None if fence and m.group(1).startswith(fence) else (fence or m.group(1))
            continue
        if fence:
            page.blocks.append((no, line))
        else:
            page.prose.append((no, line))
    # Code spans, also those a line break splits: per paragraph (consecutive prose lines).
    para: list[tuple[int, str]] = []
    for no, line in page.prose + [(0, "")]:
        if line.strip() and (not para or no == para[-1][0] + 1):
            para.append((no, line))
            continue
        text = "\n".join(x for _, x in para)
        for s in SPAN_RE.finditer(text):
            at = para[0][0] + text.count("\n", 0, s.start())
            page.spans.append((at, " ".join(s.group(2).split())))
        para = [(no, line)] if line.strip() else []
    return page


def pages() -> list[Page]:
    found = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    return [read_page(p) for p in found if p.is_file()]


def tracked_files() -> list[str]:
    """The repository's files (git ls-files, or a walk when this is not a git checkout), and
    files added to the working tree but not committed yet."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, check=True).stdout.split("\n")
        return [f for f in out if f and (ROOT / f).exists()]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(ROOT):
            dirs[:] = [x for x in dirs if x not in (".git",) + GENERATED]
            files += [Path(d, n).relative_to(ROOT).as_posix() for n in names]
        return files


# ------------------------------------------------------------------------------------------
# links
# ------------------------------------------------------------------------------------------
LINK_RE = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMG_RE = re.compile(r"<img\s[^>]*src=\"([^\"]+)\"")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: markup removed, lower case, punctuation dropped, spaces
    to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = text.replace("`", "").replace("*", "").strip().lower()
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "-_ " or cat[0] in "LN" or cat == "Mn":
            out.append("-" if ch == " " else ch)
    return "".join(out)


def anchors(page: Page) -> set[str]:
    seen: dict[str, int] = {}
    result = set()
    for _, line in page.prose:
        m = re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f"{base}-{n}")
    return result


def check_links(all_pages: list[Page]) -> Check:
    c = Check("links")
    by_path = {p.path.resolve(): p for p in all_pages}
    count = 0
    for page in all_pages:
        for no, line in page.prose:
            bare = SPAN_RE.sub("", line)
            for target in LINK_RE.findall(bare) + IMG_RE.findall(bare):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                    continue
                count += 1
                where = f"{page.rel}:{no}: link {target}"
                path, _, frag = target.partition("#")
                dest = (page.path.parent / path).resolve() if path else page.path.resolve()
                if not dest.exists():
                    c.problems.append(f"{where}: {path} does not exist")
                    continue
                try:
                    dest.relative_to(ROOT)
                except ValueError:
                    c.problems.append(f"{where}: points outside the repository")
                    continue
                if frag:
                    target_page = by_path.get(dest)
                    if target_page is None:
                        if dest.suffix == ".md":
                            target_page = read_page(dest)
                        else:
                            c.problems.append(f"{where}: #{frag} on a file that is not a page")
                            continue
                    if frag not in anchors(target_page):
                        c.problems.append(f"{where}: no heading with anchor #{frag} in "
                                          f"{target_page.rel}")
    c.summary = f"{count} relative links in {len(all_pages)} pages"
    return c


# ------------------------------------------------------------------------------------------
# paths
# ------------------------------------------------------------------------------------------
def braces(text: str) -> list[str]:
    """Brace expansion: a{b,c}d -> abd, acd (one level, any number of groups)."""
    parts = re.split(r"(\{[^{}]*\})", text)
    choices = [p[1:-1].split(",") if p.startswith("{") and "," in p else [p] for p in parts]
    return ["".join(x) for x in itertools.product(*choices)]


def as_glob(path: str) -> str:
    path = re.sub(r"<[^>]*>", "*", path)
    return path.replace("...", "*")


def exists(path: str) -> bool:
    """The path, or a file of that stem (`sim/agents/network` for network.cpp/.hpp)."""
    return all(glob.glob(str(ROOT / as_glob(p))) or glob.glob(str(ROOT / as_glob(p)) + ".*")
               for p in braces(path))


TOKEN_STRIP = "\"'`,;()[]"


def path_tokens(text: str) -> list[str]:
    out = []
    for tok in re.split(r"[\s=]+", text):
        tok = tok.strip(TOKEN_STRIP).rstrip(".:").removesuffix("'s")
        tok = re.sub(r":\d+(-\d+)?$", "", tok)
        if tok.startswith("./"):
            tok = tok[2:]
        if tok:
            out.append(tok)
    return out


def check_paths(all_pages: list[Page], top: set[str], basenames: set[str]) -> Check:
    c = Check("paths")
    count = 0
    for page in all_pages:
        if page.generated:
            continue
        items = [(no, s, True) for no, s in page.spans] + [(no, b, False) for no, b in page.blocks]
        for no, text, is_span in items:
            tokens = path_tokens(text)
            for tok in tokens:
                if "://" in tok or tok.startswith(("/", "~", "$", "-", "../")):
                    continue
                first = tok.split("/", 1)[0]
                if first in GENERATED:
                    continue
                if "/" in tok and first in top:
                    count += 1
                    if not exists(tok):
                        c.problems.append(f"{page.rel}:{no}: {tok} does not exist")
                elif (is_span and len(tokens) == 1 and "/" not in tok and not tok.startswith(".")
                      and tok.endswith(EXTENSIONS)):
                    count += 1
                    pats = [as_glob(p) for p in braces(tok)]
                    if not all(any(fnmatch.fnmatch(b, p) for b in basenames) for p in pats):
                        c.problems.append(f"{page.rel}:{no}: no file named {tok} in the "
                                          "repository")
    c.summary = f"{count} paths"
    return c


# ------------------------------------------------------------------------------------------
# names
# ------------------------------------------------------------------------------------------
NAME_SPAN_RE = re.compile(r"^[A-Za-z_][\w*{},]*(?:(?:\.|::)[A-Za-z_][\w*{},]*)*(?:\[[\d:]*\])?$")
SNAKE_RE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9*]*)+$|^[a-z][a-z0-9]*_$")


def source_words(files: list[str]) -> set[str]:
    """Every word of the sources, and the name of every file (a vector, a test)."""
    words: set[str] = {Path(f).stem for f in files}
    for f in files:
        if not (f.startswith(tuple(d + "/" for d in SOURCE_DIRS)) or f in SOURCE_FILES):
            continue
        try:
            words.update(re.findall(r"\w+", (ROOT / f).read_text(encoding="utf-8",
                                                                  errors="replace")))
        except OSError:
            pass
    return words


def check_names(all_pages: list[Page], words: set[str]) -> Check:
    c = Check("names")
    count = 0
    for page in all_pages:
        if page.generated:
            continue
        for no, span in page.spans:
            if not NAME_SPAN_RE.match(span) or span.endswith(EXTENSIONS):
                continue
            span = re.sub(r"\[[\d:]*\]$", "", span)
            for name in braces(span):
                for part in re.split(r"\.|::", name):
                    if not SNAKE_RE.match(part):
                        continue
                    count += 1
                    if "*" in part:
                        rx = re.compile("^" + re.escape(part).replace(r"\*", r"\w*") + "$")
                        ok = any(rx.match(w) for w in words)
                    else:  # a port may be named without its _i / _o / _ni suffix
                        ok = any(part + sfx in words for sfx in ("", "_i", "_o", "_ni"))
                    if not ok:
                        c.problems.append(f"{page.rel}:{no}: `{span}`: {part} occurs nowhere "
                                          "in the sources")
    c.summary = f"{count} names"
    return c


# ------------------------------------------------------------------------------------------
# ni_sim flags
# ------------------------------------------------------------------------------------------
FLAG_RE = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
NI_SIM_CMD_RE = re.compile(r"(?:^|[\s/(])ni_sim(?=\s|$)")


def script_flags(files: list[str]) -> set[str]:
    flags = set()
    for f in files:
        if f.endswith(".py"):
            text = (ROOT / f).read_text(encoding="utf-8", errors="replace")
            flags.update(re.findall(r"add_argument\(\s*(?:\"-\w\",\s*)?\"(--[a-z][a-z0-9-]*)\"",
                                    text))
    return flags


def check_flags(all_pages: list[Page], files: list[str]) -> Check:
    c = Check("ni_sim flags")
    if not NI_SIM.exists():
        c.skipped = "build/ni_sim is not built (make sim): ni_sim's flags not checked"
        return c
    try:
        help_text = subprocess.run([str(NI_SIM), "--help"], cwd=ROOT, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as e:
        c.problems.append(f"build/ni_sim --help did not run: {e}")
        return c
    known = set(FLAG_RE.findall(help_text))
    others = script_flags(files) | EXTERNAL_FLAGS
    count = 0
    for page in all_pages:
        if page.generated:
            continue
        items = page.spans + page.blocks
        for no, text in items:
            for m in NI_SIM_CMD_RE.finditer(text):
                command = re.split(r"\s(?:&&|\||;|#)\s?", text[m.end():])[0]
                for flag in FLAG_RE.findall(command):
                    count += 1
                    if flag not in known:
                        c.problems.append(f"{page.rel}:{no}: ni_sim {flag}: not an option of "
                                          "build/ni_sim (see build/ni_sim --help)")
        for no, span in page.spans:
            if span.startswith("--") and not NI_SIM_CMD_RE.search(span):
                flag = FLAG_RE.match(span)
                if flag is None:
                    continue
                count += 1
                if flag.group(0) not in known | others:
                    c.problems.append(f"{page.rel}:{no}: {flag.group(0)}: neither an ni_sim "
                                      "option nor a script's")
    c.summary = f"{count} flags against build/ni_sim --help"
    return c


# ------------------------------------------------------------------------------------------
# make targets
# ------------------------------------------------------------------------------------------
def makefiles() -> list[Path]:
    return [ROOT / "Makefile"] + sorted((ROOT / "mk").glob("*.mk"))


def help_targets() -> list[str]:
    """The targets `make help` lists (its `## name:` lines)."""
    out = []
    for mf in makefiles():
        out += re.findall(r"^## ([\w.-]+):", mf.read_text(), re.M)
    return out


def make_targets() -> set[str]:
    names = set(help_targets())
    for mf in makefiles():
        text = mf.read_text()
        for line in re.findall(r"^\.PHONY:(.*)$", text, re.M):
            names.update(line.split())
        names.update(re.findall(r"^([A-Za-z][\w.-]*)\s*:(?!=)", text, re.M))
    return names


MAKE_RE = re.compile(r"(?:^|&&|;|\(|\$ )\s*make((?:\s+\S+)*)")


def named_targets(text: str) -> list[str]:
    out = []
    for m in MAKE_RE.finditer(text):
        for tok in m.group(1).split():
            if tok.startswith("#"):
                break
            if "=" in tok or tok.startswith("-"):
                continue
            out.append(tok.strip("`,.;)"))
            break
    return out


def check_targets(all_pages: list[Page]) -> Check:
    c = Check("make targets")
    targets = make_targets()
    count = 0
    for page in all_pages:
        for no, text in page.spans + page.blocks:
            for t in named_targets(text):
                count += 1
                if t not in targets and not t.startswith(GENERATED[0] + "/"):
                    c.problems.append(f"{page.rel}:{no}: make {t}: no such target in the "
                                      "Makefile (make help)")
    # docs/make_targets.md: exactly the targets of make help
    table = ROOT / TARGETS_PAGE
    if not table.exists():
        c.problems.append(f"{TARGETS_PAGE} is missing")
    else:
        page = read_page(table)
        listed = set()
        for no, line in page.prose:
            if line.startswith("|"):
                first = line.split("|")[1]
                listed.update(named_targets_in_cell(first))
        for t in help_targets():
            if t not in listed:
                c.problems.append(f"{TARGETS_PAGE}: make help lists `{t}`, the table does not")
        for t in sorted(listed - targets):
            c.problems.append(f"{TARGETS_PAGE}: `make {t}` is in the table but not a target")
    c.summary = f"{count} make commands; {TARGETS_PAGE} against make help"
    return c


def named_targets_in_cell(cell: str) -> set[str]:
    out = set()
    for span in SPAN_RE.finditer(cell):
        out.update(named_targets(span.group(2)))
    return out


# ------------------------------------------------------------------------------------------
# results pages, pictures
# ------------------------------------------------------------------------------------------
def check_results() -> Check:
    c = Check("results pages up to date")
    with tempfile.TemporaryDirectory(prefix="gen-docs-") as d:
        readme = Path(d) / "README.md.txt"  # not *.md: not one of the results pages
        shutil.copyfile(ROOT / "README.md", readme)
        p = subprocess.run([sys.executable, str(GEN_DOCS), "--out", d, "--readme", str(readme)],
                           cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            c.problems.append(f"scripts/gen_docs.py failed:\n{p.stdout}")
            return c
        names = sorted(x.name for x in Path(d).glob("*.md"))
        for name in names:
            want = (Path(d) / name).read_text()
            have_path = ROOT / RESULTS / name
            have = have_path.read_text() if have_path.exists() else ""
            if want != have:
                diff = list(difflib.unified_diff(have.splitlines(), want.splitlines(),
                                                 f"{RESULTS}/{name} (committed)",
                                                 f"{RESULTS}/{name} (from today's data)",
                                                 lineterm="", n=0))
                c.problems.append(f"{RESULTS}/{name} is not up to date with its data: run "
                                  "`make docs` (after committing the data: the page is stamped "
                                  "with the data's commit) and commit it\n      "
                                  + "\n      ".join(diff[:12]))
        for extra in sorted(set(x.name for x in (ROOT / RESULTS).glob("*.md")) - set(names)):
            c.problems.append(f"{RESULTS}/{extra}: not written by scripts/gen_docs.py")
        want, have = readme.read_text(), (ROOT / "README.md").read_text()
        if want != have:
            diff = list(difflib.unified_diff(have.splitlines(), want.splitlines(),
                                             "README.md (committed)", "README.md (from today's data)",
                                             lineterm="", n=0))
            c.problems.append("README.md's synthesis table is not up to date with "
                              "synth/report.json: run `make docs` and commit it\n      "
                              + "\n      ".join(diff[:12]))
    c.summary = ", ".join(f"{RESULTS}/{n}" for n in names) + ", README.md's synthesis table"
    return c


def check_pictures() -> Check:
    c = Check("pictures")
    dots = sorted((ROOT / "docs" / "img").glob("*.dot"))
    for dot in dots:
        if not dot.with_suffix(".svg").exists():
            c.problems.append(f"{dot.relative_to(ROOT)}: no {dot.with_suffix('.svg').name} "
                              "(make docs renders it)")
    c.summary = f"{len(dots)} Graphviz sources with their SVGs"
    return c


# ------------------------------------------------------------------------------------------
def main() -> int:
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args()
    all_pages = pages()
    files = tracked_files()
    top = {f.split("/", 1)[0] for f in files} | set(GENERATED)
    basenames = {f.rsplit("/", 1)[-1] for f in files}
    words = source_words(files)
    checks = [check_links(all_pages), check_paths(all_pages, top, basenames),
              check_names(all_pages, words), check_flags(all_pages, files),
              check_targets(all_pages), check_results(), check_pictures()]
    passed = failed = skipped = 0
    for c in checks:
        if c.skipped:
            skipped += 1
            print(f"SKIP  {c.name}: {c.skipped}")
        elif c.problems:
            failed += 1
            print(f"FAIL  {c.name}: {len(c.problems)} problem(s) ({c.summary})")
            for p in c.problems:
                print(f"    {p}")
        else:
            passed += 1
            print(f"PASS  {c.name} ({c.summary})")
    print(f"docs: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
