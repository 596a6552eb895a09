# SPDX-License-Identifier: Apache-2.0
# Read by `make -f V<model>.mk -f scripts/vl_runtime.mk` (see VERILATED_MODEL in the top-level
# Makefile): archives the Verilator run-time objects this model needs (verilated.o,
# verilated_threads.o, and verilated_fst_c.o / verilated_cov.o when tracing / coverage is on)
# as vl_runtime.a, so that a binary links them exactly once whatever models it holds.
# The archive rule itself is verilated.mk's `%.a`.
vl_runtime.a: $(VK_GLOBAL_OBJS)
