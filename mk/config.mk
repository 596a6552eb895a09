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

VERILATOR      ?= verilator
# Debian's location is the fallback for a fresh machine, where deps.sh installs Verilator only
# after this file has been read.
VERILATOR_ROOT ?= $(or $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null),\
                        /usr/share/verilator)

# Generated model code: optimised for speed (Verilator's default is -Os).
VL_MAKEOPTS := OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2

CXX      ?= g++
AR       ?= ar
CXXFLAGS := -std=c++17 -Wall -Wextra -O2 $(EXTRA_CXXFLAGS)
VL_DEFS  := $(if $(TRACE),-DVM_TRACE=1 -DVM_TRACE_FST=1) $(if $(COVERAGE),-DVM_COVERAGE=1)
CPPFLAGS := -I. -I$(BUILD)/gen $(VL_DEFS) \
            -isystem $(VERILATOR_ROOT)/include -isystem $(VERILATOR_ROOT)/include/vltstd
LDFLAGS  := $(EXTRA_LDFLAGS)
LDLIBS   := -pthread $(if $(TRACE),-lz)

# $(call vardep,FILE,TEXT): keep TEXT in FILE, rewriting FILE only when TEXT changed, so that
# whatever depends on FILE is rebuilt when (and only when) its flags change.
neq    = $(or $(subst x$1,,x$2),$(subst x$2,,x$1))
vardep = $(if $(call neq,$(strip $2),$(strip $(file <$1))),\
            $(shell mkdir -p $(dir $1))$(file >$1,$(strip $2)))

$(call vardep,$(BUILD)/cxxflags,$(CXX) $(CXXFLAGS) $(CPPFLAGS))
$(call vardep,$(BUILD)/ldflags,$(CXX) $(LDFLAGS) $(LDLIBS))
