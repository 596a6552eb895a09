# SPDX-License-Identifier: Apache-2.0
# Verilated models, our C++ objects and Catch2 binaries.

VFLAGS := -Wall --quiet-stats --assert $(RTL_YFLAGS) $(if $(TRACE),--trace-fst) $(if $(COVERAGE),--coverage)

# ------------------------------------------------------------------------------------------
# $(call VERILATED_MODEL,NAME,TOP,SOURCES,EXTRA_VERILATOR_FLAGS[,CLASS])
#   Verilates module TOP from SOURCES (plus whatever it instantiates, found through
#   RTL_YFLAGS) into the C++ class V<NAME>, e.g. a second parameterisation of a primitive:
#     $(eval $(call VERILATED_MODEL,id_fifo_d12,id_fifo,$(call module_srcs,id_fifo),-GDepth=12))
#   CLASS (optional) names the class instead, for a variant that code written against another
#   model's class must compile against unchanged; each model has its own obj dir, so only a
#   binary's link decides which one it gets.
#   Step 1: Verilator -> build/vl/NAME/obj (stamp; re-run when a file Verilator read changes,
#           from its V<NAME>__ver.d, or when its arguments or VL_MAKEOPTS change).
#   Step 2: its generated V<NAME>.mk builds V<NAME>__ALL.a and vl_runtime.a.
#   Defines NAME_STAMP, NAME_LIB, NAME_RT, NAME_OBJ for the link step.
# ------------------------------------------------------------------------------------------
# The models' compiler and flags: a change rebuilds every model from its Verilator run.
$(call vardep,$(BUILD)/vl/makeopts,$(VL_MAKEOPTS))

define VERILATED_MODEL
$(1)_OBJ   := $(BUILD)/vl/$(1)/obj
$(1)_STAMP := $(BUILD)/vl/$(1)/verilated.stamp
$(1)_LIB   := $(BUILD)/vl/$(1)/obj/$(or $(5),V$(1))__ALL.a
$(1)_RT    := $(BUILD)/vl/$(1)/obj/vl_runtime.a
$(1)_VARGS := --cc --top-module $(2) --prefix $(or $(5),V$(1)) $(VFLAGS) $(4) $(3)
$$(call vardep,$(BUILD)/vl/$(1)/vargs,$$($(1)_VARGS))
VL_MODELS += $(1)
-include $(BUILD)/vl/$(1)/deps.mk

$$($(1)_STAMP): $(BUILD)/vl/$(1)/vargs $(BUILD)/vl/makeopts $(3) | deps
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
# Our C++: one object per source under build/obj, header dependencies from -MMD. Every object
# may include the headers generated from ni_pkg (build/gen/), so they come first.
# ------------------------------------------------------------------------------------------
obj_of = $(patsubst %.cpp,$(BUILD)/obj/%.o,$1)

$(BUILD)/obj/%.o: %.cpp $(BUILD)/cxxflags $(GEN_HDRS) | deps
	@echo "CXX      $<"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(MODEL_INC) -MMD -MP -c -o $@ $<

CATCH_MAIN := $(call obj_of,tests/common/catch_main.cpp)

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
