# SPDX-License-Identifier: Apache-2.0
# The generated parts of the documentation: the results pages docs/results/*.md (written by
# scripts/gen_docs.py from bench/results.json and synth/report.json) and the pictures
# docs/img/*.svg (Graphviz dot, from docs/img/*.dot). tests/docs/test_docs.py, part of
# make test, checks that the results pages are up to date with their data and that every link,
# path, ni_sim flag and make target the docs name exists.

.PHONY: docs

DOC_DOTS := $(wildcard docs/img/*.dot)
DOC_SVGS := $(DOC_DOTS:.dot=.svg)

## docs: regenerate docs/results/*.md from bench/results.json and synth/report.json
##       (scripts/gen_docs.py) and render docs/img/*.dot to SVG (Graphviz)
docs: $(DOC_SVGS) | deps
	$(Q)$(PYTHON) scripts/gen_docs.py

docs/img/%.svg: docs/img/%.dot | deps
	@echo "DOT      $@"
	$(Q)dot -Tsvg $< -o $@
