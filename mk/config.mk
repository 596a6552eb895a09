# SPDX-License-Identifier: Apache-2.0
# Tools, flags and the layout of build/ (everything generated lives there; `make clean`
# removes it):
#   build/vl/<model>/      one verilated model: obj/ (Verilator output, V<model>__ALL.a,
#                          vl_runtime.a), vargs (its Verilator arguments), verilated.stamp
#   build/obj/             objects of our C++ (mirrors the source tree), with .d files
#   build/gen/             headers generated from rtl/common/ni_pkg.sv (scripts/gen_pkg.py)
#   build/libref_model.a   ref_model/**/*.cpp
#   build/tests/           Catch2 binaries: test_ref_model, tb_<prim>, tb_engine, ...
#   build/ni_sim           the simulator
#   build/lint/            lint stamps; build/fusesoc/ FuseSoC's work tree
#   build/test-results/    JUnit XML written by scripts/run_tests.py

SHELL         := /bin/bash
.SHELLFLAGS   := -eu -o pipefail -c
.DEFAULT_GOAL := all
JOBS          ?= 2
MAKEFLAGS     += -j$(JOBS) --no-builtin-rules
.DELETE_ON_ERROR:
.SUFFIXES:

BUILD   := build
Q       := $(if $(V),,@)
PYTHON  := .venv/bin/python
FUSESOC := .venv/bin/fusesoc

# The pinned Verilator of scripts/requirements.txt, installed into the venv by scripts/deps.sh
# (.venv/bin/verilator; .venv/verilator is its root). Paths only: on a fresh machine deps.sh
# creates them after this file has been read.
# VERILATOR=... selects another one (its root is then asked from it).
VERILATOR      ?= $(CURDIR)/.venv/bin/verilator
VERILATOR_ROOT := $(if $(filter $(CURDIR)/.venv/bin/verilator,$(VERILATOR)),$(CURDIR)/.venv/verilator,\
                    $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null))
export VERILATOR_ROOT

# Clang builds the verilated models and our C++: the simulator runs ~1.25x faster than with
# g++ 12 (docs/design.md section 18). CXX=g++ on the make line selects g++.
CXX      := clang++-14
AR       ?= ar

# Generated model code: optimised for speed (Verilator's default is -Os), with our compiler.
VL_MAKEOPTS := OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2 CXX=$(CXX)
# Verilator's FST writer compresses with zlib and LZ4.
FST_LIBS := -lz -llz4

CXXFLAGS := -std=c++17 -Wall -Wextra -O2 $(EXTRA_CXXFLAGS)
VL_DEFS  := $(if $(TRACE),-DVM_TRACE=1 -DVM_TRACE_FST=1) $(if $(COVERAGE),-DVM_COVERAGE=1)
CPPFLAGS := -I. -I$(BUILD)/gen $(VL_DEFS) \
            -isystem $(VERILATOR_ROOT)/include -isystem $(VERILATOR_ROOT)/include/vltstd
LDFLAGS  := $(EXTRA_LDFLAGS)
# libatomic: Verilator's run time (verilated_threads) asks it for atomics clang does not inline;
# zlib: the golden models' CRC-32 (ref_model/common/crc32.cpp).
LDLIBS   := -pthread -latomic -lz $(if $(TRACE),$(FST_LIBS))

# $(call vardep,FILE,TEXT): keep TEXT in FILE, rewriting FILE only when TEXT changed, so that
# whatever depends on FILE is rebuilt when (and only when) its flags change.
neq    = $(or $(subst x$1,,x$2),$(subst x$2,,x$1))
vardep = $(if $(call neq,$(strip $2),$(strip $(file <$1))),\
            $(shell mkdir -p $(dir $1))$(file >$1,$(strip $2)))

$(call vardep,$(BUILD)/cxxflags,$(CXX) $(CXXFLAGS) $(CPPFLAGS))
$(call vardep,$(BUILD)/ldflags,$(CXX) $(LDFLAGS) $(LDLIBS))
