# Groundwork — the two commands a fresh machine needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run
LINT_DIR := tests/kg/cypher_lint
# A development machine: the settings default to production (DEBUG off, which refuses the
# development SECRET_KEY); every make target runs with DEBUG on unless told otherwise.
export DEBUG ?= true

.PHONY: run test install install-test lint format migrate demo services worker faults bench gate check-local-model clean

# Running needs the product only; the test tools (Playwright, schemathesis, …) come with `make test`.
$(RUN_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)  ## install the product and its test tools into .venv

$(LINT_DIR)/node_modules: $(LINT_DIR)/package.json
	cd $(LINT_DIR) && npm install --no-audit --no-fund --silent
	touch $(LINT_DIR)/node_modules

install-test: $(STAMP) $(LINT_DIR)/node_modules  ## also Neo4j's Cypher linter (Node.js)

migrate: $(RUN_STAMP)
	$(BIN)/python manage.py migrate --noinput

demo: migrate  ## create the demo organization, project and user
	$(BIN)/python manage.py seed_demo

run: demo  ## install, migrate, seed and run everything in the foreground on 127.0.0.1:8000
	$(BIN)/python manage.py run_local

services: $(RUN_STAMP)  ## only the embedded graph + broker
	$(BIN)/python manage.py embedded_services

test: install-test  ## install what the tests need and run the whole suite
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

faults: install-test  ## fault injection: kill workers, broker and graph during imports
	GROUNDWORK_FAULTS=1 $(BIN)/python -m pytest tests/faults -p no:randomly -s $(PYTEST_ARGS)

bench: $(STAMP)  ## run the benchmarks and record their figures under benchmarks/results/
	$(BIN)/python -m benchmarks

gate: $(STAMP)  ## retrain the extraction gate on the dev splits into kg/llm/offline/gate_weights.json (the same data and versions write the same bytes)
	$(BIN)/python manage.py kg_train_gate

check-local-model: $(STAMP)  ## plumbing smoke test: the openai engine against a local llama.cpp server with SmolLM2-135M-Instruct (not in `make test`: the build takes minutes)
	$(BIN)/python -m benchmarks.local_model $(LOCAL_MODEL_ARGS)

clean:
	rm -rf $(VENV) $(LINT_DIR)/node_modules
