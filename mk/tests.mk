# SPDX-License-Identifier: Apache-2.0
# The golden-model library and the Catch2 test binaries (run by scripts/run_tests.py).

# ---- golden model: ref_model/<part>/*.cpp -> build/libref_model.a (plain C++) -------------
REF_SRCS := $(sort $(wildcard ref_model/*/*.cpp))
REF_OBJS := $(call obj_of,$(REF_SRCS))
REF_LIB  := $(BUILD)/libref_model.a
CPP_OBJS += $(REF_OBJS)
$(REF_LIB): $(REF_OBJS)
	@echo "AR       $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# ---- tests/ref_model/**/*.cpp -> build/tests/test_ref_model --------------------------------
REF_TEST_SRCS := $(sort $(wildcard tests/ref_model/*.cpp tests/ref_model/*/*.cpp))
$(eval $(call CATCH_TB,test_ref_model,$(REF_TEST_SRCS),,$(REF_LIB)))

# ---- primitives: tests/prim/tb_<prim>.cpp -> build/tests/tb_<prim> -------------------------
# Linked with the models TB_MODELS_<prim> (default: the primitive with default parameters).
TB_MODELS_dp_ram       := dp_ram dp_ram_d8
TB_MODELS_first_set    := first_set first_set_w10 first_set_w1
TB_MODELS_id_fifo      := id_fifo id_fifo_d12
TB_MODELS_id_init      := id_init id_init_small
TB_MODELS_sched_queues := sched_queues sched_queues_small
TB_MODELS_sync_fifo    := sync_fifo sync_fifo_d3

TB_PRIM_SRCS  := $(wildcard tests/prim/tb_*.cpp)
TB_PRIM_NAMES := $(patsubst tests/prim/tb_%.cpp,%,$(TB_PRIM_SRCS))

$(foreach p,$(sort $(PRIMS) $(TB_PRIM_NAMES)),\
  $(eval $(call VERILATED_MODEL,$(p),$(p),$(call module_srcs,$(p)),)))
$(eval $(call VERILATED_MODEL,dp_ram_d8,dp_ram,$(call module_srcs,dp_ram),-GDepth=8 -GWidth=12))
$(eval $(call VERILATED_MODEL,first_set_w10,first_set,$(call module_srcs,first_set),-GWidth=10))
$(eval $(call VERILATED_MODEL,first_set_w1,first_set,$(call module_srcs,first_set),-GWidth=1))
$(eval $(call VERILATED_MODEL,id_fifo_d12,id_fifo,$(call module_srcs,id_fifo),-GDepth=12 -GWidth=4))
$(eval $(call VERILATED_MODEL,id_init_small,id_init,$(call module_srcs,id_init),\
  -GTidCount=5 -GTidW=3 -GFid1Base=9 -GFid1Count=3 -GFid4Base=40 -GFid4Count=7 -GFid4Step=3))
$(eval $(call VERILATED_MODEL,sched_queues_small,sched_queues,$(call module_srcs,sched_queues),\
  -GNumQueues=3 -GNumNodes=8 -GNumSrc=3))
$(eval $(call VERILATED_MODEL,sync_fifo_d3,sync_fifo,$(call module_srcs,sync_fifo),-GDepth=3 -GWidth=20))

$(foreach p,$(TB_PRIM_NAMES),\
  $(eval $(call CATCH_TB,tb_$(p),tests/prim/tb_$(p).cpp,$(or $(TB_MODELS_$(p)),$(p)),)))

# ---- the send unit alone: tests/send/*.cpp -> build/tests/tb_send_unit -----------------------
# On the memory model and SimCtrl of the harness (their objects only, not ni_sim's tops).
$(eval $(call VERILATED_MODEL,send_unit,send_unit,$(call module_srcs,send_unit),--trace-fst))
SEND_TB_OBJS := $(call obj_of,sim/core/sim_ctrl.cpp sim/core/eval_pool.cpp sim/agents/mem_model.cpp)
$(eval $(call CATCH_TB,tb_send_unit,$(wildcard tests/send/*.cpp),send_unit,$(SEND_TB_OBJS) $(REF_LIB)))
$(tb_send_unit_OBJS): MODEL_INC += -DVM_TRACE=1 -DVM_TRACE_FST=1
$(BUILD)/tests/tb_send_unit: LDLIBS += $(FST_LIBS)

# ---- the receive unit alone: tests/recv/*.cpp -> build/tests/tb_recv_unit --------------------
# Its write port on the memory model, its ports watched by the harness's receive-unit checker
# (sim/agents/recv_unit_checker: the golden model ref_model/recv).
$(eval $(call VERILATED_MODEL,recv_unit,recv_unit,$(call module_srcs,recv_unit),--trace-fst))
RECV_TB_OBJS := $(call obj_of,sim/core/sim_ctrl.cpp sim/core/eval_pool.cpp sim/agents/mem_model.cpp sim/agents/rx_monitor.cpp sim/agents/monitors.cpp sim/agents/recv_unit_checker.cpp)
$(eval $(call CATCH_TB,tb_recv_unit,$(wildcard tests/recv/*.cpp),recv_unit,$(RECV_TB_OBJS) $(REF_LIB)))
$(tb_recv_unit_OBJS): MODEL_INC += -DVM_TRACE=1 -DVM_TRACE_FST=1
$(BUILD)/tests/tb_recv_unit: LDLIBS += $(FST_LIBS)

# ---- one ni_node on a loopback network: tests/top/*.cpp -> build/tests/tb_ni_node ----------
# The node as ni_sim builds it (sim/tb/node/node_agents: the node, its agents, monitors and
# unit checkers) on the network model; the objects are ni_sim's.
$(eval $(call VERILATED_MODEL,ni_node,ni_node,$(NI_FILES),--trace-fst))
NODE_TB_OBJS := $(call obj_of,$(sort $(wildcard sim/core/*.cpp sim/agents/*.cpp)) \
                  sim/tb/node/ni_node_dut.cpp sim/tb/node/node_agents.cpp)
$(eval $(call CATCH_TB,tb_ni_node,$(wildcard tests/top/*.cpp),ni_node,$(NODE_TB_OBJS) $(REF_LIB)))
$(tb_ni_node_OBJS): MODEL_INC += -DVM_TRACE=1 -DVM_TRACE_FST=1
$(BUILD)/tests/tb_ni_node: LDLIBS += $(FST_LIBS)

# ---- harness agents alone (no verilated model): tests/agents/*.cpp -> build/tests/test_agents
# The network and the scoreboard; the random CPU (on an AXI master never clocked), the
# configuration, scenarios and the log writer (tests/agents/test_rdma_read.cpp).
AGENTS_TB_OBJS := $(call obj_of,sim/agents/network.cpp sim/agents/e2e_scoreboard.cpp \
                    sim/agents/cpu.cpp sim/agents/axi_master.cpp sim/agents/responder.cpp \
                    sim/agents/stall_injector.cpp sim/env/config.cpp sim/env/scenario.cpp \
                    sim/env/log_writer.cpp)
$(eval $(call CATCH_TB,test_agents,$(wildcard tests/agents/*.cpp),,$(AGENTS_TB_OBJS) $(REF_LIB)))
