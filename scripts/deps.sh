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
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

DEB_PKGS=(
  verilator          # lint and C++ models of the RTL
  g++ make           # build
  catch2             # v2, header catch2/catch.hpp
  libboost-dev       # Boost.Random for portable random streams
  nlohmann-json3-dev # JSON (scenario, log and report files of ni_sim)
  gtkwave            # viewing FST waves
  zlib1g-dev         # FST tracing
  python3-venv       # the project-local venv
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
