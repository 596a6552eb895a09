# SPDX-License-Identifier: Apache-2.0
# build/ni_sim, the directed tests that use its harness (tests/qos/), and the benchmarks.
#
# sim/core    the simulation kernel: clock and run of the tops (SimCtrl), ports, events and
#             the event bus, the checker interface, capture, progress (includes no agent)
# sim/agents  reusable agents, monitors and checkers bound to port bundles (AXI master, CPU,
#             responder, memory, network, the unit checkers, the end-to-end scoreboard)
# sim/env     the environment (Env: run loop, verdict, report, record) and what a run reads
#             and writes (config, scenarios, log, shrinking)
# sim/tb      one folder per system with its port adapter and its wiring of the Env;
#             sim/tb/main.cpp

# The models of ni_sim are always verilated with FST tracing compiled in, so that --trace and
# --trace-window work without a rebuild (dumping costs nothing until enabled).
SIM_TRACE := $(if $(TRACE),,--trace-fst)
$(eval $(call VERILATED_MODEL,$(QOS_TOP),$(QOS_TOP),$(QOS_FILES),$(SIM_TRACE)))

# The engine-alone harness (sim/core, sim/agents, sim/tb/qos) is shared with the engine's
# directed tests and the benchmarks; sim/tb/node (the N-node system on verilated ni_nodes,
# ICD 15) is linked into ni_sim only, with the ni_node model of mk/tests.mk.
NODE_SIM_SRCS := $(sort $(wildcard sim/tb/node/*.cpp))
SIM_SRCS     := $(filter-out $(NODE_SIM_SRCS),$(sort $(wildcard sim/core/*.cpp sim/agents/*.cpp sim/env/*.cpp sim/tb/*/*.cpp))) sim/tb/main.cpp
SIM_MAIN     := sim/tb/main.cpp
SIM_LIB_SRCS := $(filter-out $(SIM_MAIN),$(SIM_SRCS))
SIM_MODELS   := $(QOS_TOP)
SIM_BIN      := $(BUILD)/ni_sim
SIM_OBJS     := $(call obj_of,$(SIM_SRCS))
NODE_SIM_OBJS := $(call obj_of,$(NODE_SIM_SRCS))
# The N-node save file is written from ni_node's generated port list (mk/rtl.mk).
$(call obj_of,sim/tb/node/ni_node_dut.cpp): $(BUILD)/gen/ni_node_ports.hpp
SIM_DEFS     := -DVM_TRACE=1 -DVM_TRACE_FST=1
CPP_OBJS     += $(SIM_OBJS) $(NODE_SIM_OBJS)
sim_model_inc = $(foreach m,$1,-isystem $($(m)_OBJ)) $(SIM_DEFS)
sim_model_dep = $(foreach m,$1,$($(m)_STAMP))
sim_model_lib = $(foreach m,$1,$($(m)_LIB)) $($(firstword $1)_RT)

$(SIM_OBJS): MODEL_INC := $(call sim_model_inc,$(SIM_MODELS))
$(SIM_OBJS): $(call sim_model_dep,$(SIM_MODELS))
$(NODE_SIM_OBJS): MODEL_INC := $(call sim_model_inc,ni_node)
$(NODE_SIM_OBJS): $(call sim_model_dep,ni_node)
$(SIM_BIN): $(SIM_OBJS) $(NODE_SIM_OBJS) $(REF_LIB) $(call sim_model_lib,$(SIM_MODELS) ni_node) $(BUILD)/ldflags
	@echo "LINK     $@"
	$(Q)$(CXX) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS) $(FST_LIBS)

# ---- directed tests of the engine: tests/qos/ ----------------------------------------------
# build/tests/tb_engine: tests/qos/*.cpp (but *_acc16.cpp) on the harness objects of ni_sim
# (all but its main()) and the same verilated qos_engine.
# build/tests/tb_engine_acc16: tests/qos/*_acc16.cpp on a second engine, verilated with
# -GAccSets=16 under the same class name Vqos_engine, so the harness compiles against it
# unchanged: the harness sources are compiled again, with -DNI_ACC_SETS=16 (read by
# sim::built_params()), into their own tree build/obj-acc16/.
ENGINE_TEST_SRCS  := $(filter-out %_acc16.cpp,$(wildcard tests/qos/*.cpp))
ENGINE_ACC16_SRCS := $(wildcard tests/qos/*_acc16.cpp)
$(eval $(call CATCH_TB,tb_engine,$(ENGINE_TEST_SRCS),$(SIM_MODELS),$(call obj_of,$(SIM_LIB_SRCS)) $(REF_LIB)))
$(tb_engine_OBJS): MODEL_INC += $(SIM_DEFS)
$(BUILD)/tests/tb_engine: LDLIBS += $(FST_LIBS)

$(eval $(call VERILATED_MODEL,qos_engine_acc16,$(QOS_TOP),$(QOS_FILES),-GAccSets=16 $(SIM_TRACE),Vqos_engine))
ACC16_SIM_OBJS := $(patsubst %.cpp,$(BUILD)/obj-acc16/%.o,$(SIM_LIB_SRCS))
CPP_OBJS       += $(ACC16_SIM_OBJS)
$(BUILD)/obj-acc16/%.o: %.cpp $(BUILD)/cxxflags $(GEN_HDRS) $(qos_engine_acc16_STAMP) | deps
	@echo "CXX      $< (AccSets=16)"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(CXXFLAGS) $(CPPFLAGS) -isystem $(qos_engine_acc16_OBJ) $(SIM_DEFS) \
	  -DNI_ACC_SETS=16 -MMD -MP -c -o $@ $<
$(eval $(call CATCH_TB,tb_engine_acc16,$(ENGINE_ACC16_SRCS),qos_engine_acc16,\
  $(ACC16_SIM_OBJS) $(REF_LIB)))
$(tb_engine_acc16_OBJS): MODEL_INC += $(SIM_DEFS) -DNI_ACC_SETS=16
$(BUILD)/tests/tb_engine_acc16: LDLIBS += $(FST_LIBS)

# ---- benchmarks (make bench): build/bench/ni_bench, build/bench/ni_sim_threads2 ------------
# ni_bench: bench/*.cpp on the harness objects of ni_sim (all but its main()) and the same
# verilated models; built by `make all` too, so that it keeps compiling.
# ni_sim_threads2: ni_sim on a second engine model verilated with --threads 2 (its own obj dir
# build/vl/qos_engine_threads2, same class name; the sim/ sources compiled again against it
# into build/bench/obj-threads2/), for the bench's multi-threaded model speed figure. Only
# `make bench` builds it.
BENCH_SRCS := $(wildcard bench/*.cpp)
BENCH_BIN  := $(BUILD)/bench/ni_bench
BENCH_OBJS := $(call obj_of,$(BENCH_SRCS))
CPP_OBJS   += $(BENCH_OBJS)
$(BENCH_OBJS): MODEL_INC := $(call sim_model_inc,$(SIM_MODELS))
$(BENCH_OBJS): $(call sim_model_dep,$(SIM_MODELS))
$(BENCH_BIN): $(BENCH_OBJS) $(call obj_of,$(SIM_LIB_SRCS)) $(REF_LIB) \
    $(call sim_model_lib,$(SIM_MODELS)) $(BUILD)/ldflags
	@echo "LINK     $@"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS) $(FST_LIBS)

# ni_unit_bench: the unit throughput benchmarks (bench/units/*.cpp): the send unit alone on
# the send_unit model and the receive unit in one ni_node (NodeAgents on the network model),
# on the memory model and the golden models (the models of mk/tests.mk; the harness objects
# of the unit tests).
UNIT_BENCH_SRCS := $(wildcard bench/units/*.cpp)
UNIT_BENCH_BIN  := $(BUILD)/bench/ni_unit_bench
UNIT_BENCH_OBJS := $(call obj_of,$(UNIT_BENCH_SRCS))
CPP_OBJS        += $(UNIT_BENCH_OBJS)
$(UNIT_BENCH_OBJS): MODEL_INC := $(call sim_model_inc,send_unit ni_node)
$(UNIT_BENCH_OBJS): $(call sim_model_dep,send_unit ni_node)
$(UNIT_BENCH_BIN): $(UNIT_BENCH_OBJS) $(NODE_TB_OBJS) \
    $(REF_LIB) $(call sim_model_lib,send_unit ni_node) $(BUILD)/ldflags
	@echo "LINK     $@"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS) $(FST_LIBS)

$(eval $(call VERILATED_MODEL,qos_engine_threads2,$(QOS_TOP),$(QOS_FILES),--threads 2 $(SIM_TRACE),Vqos_engine))
THREADS2_BIN  := $(BUILD)/bench/ni_sim_threads2
THREADS2_OBJS := $(patsubst %.cpp,$(BUILD)/bench/obj-threads2/%.o,$(SIM_SRCS))
CPP_OBJS      += $(THREADS2_OBJS)
$(BUILD)/bench/obj-threads2/%.o: %.cpp $(BUILD)/cxxflags $(GEN_HDRS) $(qos_engine_threads2_STAMP) | deps
	@echo "CXX      $< (--threads 2)"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(CXXFLAGS) $(CPPFLAGS) -isystem $(qos_engine_threads2_OBJ) $(SIM_DEFS) \
	  -DNI_SIM_QOS_ONLY -MMD -MP -c -o $@ $<
$(THREADS2_BIN): $(THREADS2_OBJS) $(REF_LIB) $(qos_engine_threads2_LIB) $(qos_engine_threads2_RT) \
    $(BUILD)/ldflags
	@echo "LINK     $@"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS) $(FST_LIBS)
