# SPDX-License-Identifier: Apache-2.0
# The regression on a Slurm cluster (scripts/slurm_regress.py): one job array, one seed per
# task, and a dependent job that merges the results (scripts/merge_results.py, the same merge
# as `make regress-seeds`).

.PHONY: regress-slurm regress-slurm-resubmit

# Options of both targets.
SLURM_OPTS = $(if $(PARTITION),--partition $(PARTITION)) \
             $(if $(MAX_PARALLEL),--max-parallel $(MAX_PARALLEL)) $(if $(TIME),--time $(TIME)) \
             $(if $(WAIT),--wait)

## regress-slurm: the regression as one Slurm job array from a login node (SEEDS=1-100,
##                TRANSFERS, CONFIG (default REGRESS_CONFIG; several: every seed with each),
##                PARTITION, MAX_PARALLEL, TIME, RESULTS=build/regress-slurm/<date>,
##                SIM=build/ni_sim, WAIT=1 to wait for the summary, SLURM_ARGS for more)
regress-slurm: $(SIM_BIN) | deps
	$(Q)$(PYTHON) scripts/slurm_regress.py --seeds $(or $(SEEDS),1-100) --transfers $(TRANSFERS) \
	  $(foreach c,$(or $(CONFIG),$(REGRESS_CONFIG)),--config $(c)) --sim $(or $(SIM),$(SIM_BIN)) \
	  $(SLURM_OPTS) $(if $(RESULTS),--results $(RESULTS)) $(SLURM_ARGS)

## regress-slurm-resubmit: submit again only the seeds of RESULTS=dir that have no result
##                         (killed, timed out, node lost), and a new merge job (WAIT=1)
regress-slurm-resubmit: | deps
	@test -n "$(RESULTS)" || { echo "regress-slurm-resubmit: give RESULTS=dir" \
	  "(the results directory of a make regress-slurm)" >&2; exit 1; }
	$(Q)$(PYTHON) scripts/slurm_regress.py --resubmit-missing $(RESULTS) $(SLURM_OPTS) $(SLURM_ARGS)
