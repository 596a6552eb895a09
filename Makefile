# SPDX-License-Identifier: Apache-2.0
# RDMA NI (QoS engine, send unit, receive unit, ni_node): build, lint and tests.
# `make help` lists the targets. The rules live in mk/, one file per concern:
#   mk/config.mk    tools, flags, the build/ layout, helpers
#   mk/rtl.mk       the RTL file lists (rtl/common, rtl/qos, rtl/send, rtl/recv, rtl/top)
#   mk/verilate.mk  VERILATED_MODEL / CATCH_TB: verilated models, C++ objects, Catch2 binaries
#   mk/tests.mk     golden-model library and the Catch2 test binaries
#   mk/sim.mk       build/ni_sim and the benchmarks
#   mk/lint.mk      Verilator, slang, FuseSoC and clang-format checks
#   mk/flows.mk     regressions, synthesis, coverage, mutants, formal, waves
#   mk/formal.mk    formal proofs (SymbiYosys): make formal, make formal-mutants
#   mk/cocotb.mk    the cocotb testbench of ni_node: make cocotb
#
# Knobs: V=1 (echo commands), TRACE=1 (--trace-fst), COVERAGE=1 (--coverage), JOBS=N.
# Test knobs (read by the test binaries): LOCKSTEP_CYCLES, LOCKSTEP_SEED.

include mk/config.mk
include mk/rtl.mk
include mk/verilate.mk
include mk/tests.mk
include mk/sim.mk
include mk/lint.mk
include mk/flows.mk
include mk/formal.mk
include mk/cocotb.mk
include mk/slurm.mk
include mk/docs.mk

-include $(CPP_OBJS:.o=.d)

.PHONY: all deps sim smoke test nightly clean distclean help

## all: build every library, test binary, build/ni_sim and the benchmark binaries
all: $(REF_LIB) $(TEST_BINS) $(SIM_BIN) $(BENCH_BIN) $(UNIT_BENCH_BIN)

## deps: install missing Debian packages and the Python venv (.venv); fast when all present
deps:
	@scripts/deps.sh

## sim: build build/ni_sim (sim/ + verilated qos_engine and ni_node + libref_model.a)
sim: $(SIM_BIN)

## smoke: build all, then a few fast checks (under 2 minutes once built): a random run of the
##        engine and of 2 nodes, two vectors, the golden models' and agents' unit tests
smoke: all | deps
	$(Q)$(PYTHON) scripts/run_tests.py --tier smoke --catch2 $(TEST_BINS)

## test: build all, run the CI tier of tests/testplan.json (scripts/run_tests.py): lint,
##       formal, random runs, vectors, every Catch2 binary, cocotb; last line "N passed, N
##       failed". Tests that start system daemons (the Slurm cluster) run only with CI=1.
test: all | deps
	$(Q)$(PYTHON) scripts/run_tests.py --tier test --catch2 $(TEST_BINS)

## nightly: the test tier and the long runs: every seed sweep of the plan, mutants, formal
##          mutants, the Slurm cluster (hours; results under build/nightly/)
nightly: all | deps
	$(Q)$(PYTHON) scripts/run_tests.py --tier nightly --catch2 $(TEST_BINS)

## clean: remove build/ (the venv .venv stays; `make distclean` removes it too)
clean:
	rm -rf $(BUILD)

distclean: clean
	rm -rf .venv

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
