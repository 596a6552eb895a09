# SPDX-License-Identifier: Apache-2.0
# The RTL, one folder per part of the NI:
#   rtl/common  ni_pkg (types, formats, functions), ni_assert.svh (the assertion macros every
#               module includes) and the primitives
#   rtl/qos     the QoS engine (qos_engine and its blocks)
#   rtl/send    the send unit        rtl/recv  the receive unit        rtl/top  ni_node
# Every compilation lists the package first (every module imports it), then the rest of its
# files sorted by path. The include directory of ni_assert.svh, rtl/common, is one of the
# module search directories (RTL_YFLAGS), where Verilator also looks for included files.

RTL_PKG  := rtl/common/ni_pkg.sv
RTL_DIRS := $(patsubst %/,%,$(sort $(dir $(wildcard rtl/*/*.sv))))
rtl_part  = $(sort $(filter-out $(RTL_PKG),$(wildcard rtl/$1/*.sv)))

RTL_COMMON := $(RTL_PKG) $(call rtl_part,common)
RTL_QOS    := $(call rtl_part,qos)
RTL_SEND   := $(call rtl_part,send)
RTL_RECV   := $(call rtl_part,recv)
RTL_TOP    := $(call rtl_part,top)
RTL_FILES  := $(RTL_COMMON) $(RTL_QOS) $(RTL_SEND) $(RTL_RECV) $(RTL_TOP)
RTL_INCS   := $(wildcard rtl/*/*.svh)
# Module search path for Verilator: a stand-alone build finds what it instantiates.
RTL_YFLAGS := $(addprefix -y ,$(RTL_DIRS))

# The files of each top (the package and primitives, then its parts).
QOS_TOP   := qos_engine
QOS_FILES := $(RTL_COMMON) $(RTL_QOS)
NI_TOP    := ni_node
HAVE_NI   := $(wildcard rtl/top/$(NI_TOP).sv)
NI_FILES  := $(RTL_FILES)
TOPS      := $(QOS_TOP) $(if $(HAVE_NI),$(NI_TOP))

# Primitives: linted as their own top and verilated for tests/prim/tb_<prim>.cpp.
PRIMS := dp_ram first_set id_fifo id_init md_arbiter sched_queues sync_fifo
# Path of a module's file, from its name.
rtl_file    = $(firstword $(wildcard $(addsuffix /$1.sv,$(RTL_DIRS))))
# The sources of a stand-alone module: the package, then its own file (the modules it
# instantiates are found through RTL_YFLAGS).
module_srcs = $(RTL_PKG) $(call rtl_file,$1)

# C++ views of the package, generated from it (scripts/gen_pkg.py elaborates ni_pkg with
# pyslang): every constant and packed-struct field layout the golden models share with the RTL.
GEN_HDRS := $(BUILD)/gen/ni_pkg_gen.hpp
$(BUILD)/gen/ni_pkg_gen.hpp: $(RTL_PKG) scripts/gen_pkg.py | deps
	@echo "GEN      $@"
	@mkdir -p $(@D)
	$(Q)$(PYTHON) scripts/gen_pkg.py $(RTL_PKG) -o $@
# ni_node's port list, from which ni_sim writes the GTKWave save file of an N-node trace
# (sim/tb/node/ni_node_dut.cpp, the one file that includes it: see mk/sim.mk).
$(BUILD)/gen/ni_node_ports.hpp: $(RTL_PKG) $(call rtl_file,ni_node) scripts/gen_pkg.py | deps
	@echo "GEN      $@"
	@mkdir -p $(@D)
	$(Q)$(PYTHON) scripts/gen_pkg.py --ports ni_node $(RTL_PKG) $(call rtl_file,ni_node) -o $@
	@touch $@  # gen_pkg.py keeps an unchanged file as it is: newer than its sources from now on
