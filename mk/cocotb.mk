# SPDX-License-Identifier: Apache-2.0
# The cocotb testbench of ni_node (tests/cocotb/, docs/cocotb.md): the Python reference is
# checked against the golden model's known values (pytest), then tests/cocotb/run.py builds
# ni_node and the two-node wrapper ni_pair with the pinned Verilator into build/cocotb/
# (Verilator and make keep them up to date) and runs every cocotb test. Knobs: SEED=N
# (default 1), TESTS=REGEX (test names).

.PHONY: cocotb

## cocotb: cocotb 2 tests of ni_node (cocotbext-axi CPU port and memory, Python network)
cocotb: | deps
	$(Q)$(PYTHON) -m pytest -q -p no:cacheprovider tests/cocotb/test_ni_ref.py
	$(Q)$(PYTHON) tests/cocotb/run.py --jobs $(JOBS) --seed $(or $(SEED),1) \
	  $(if $(TESTS),--filter '$(TESTS)')
