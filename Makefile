PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_PROCESSES ?= 2

.PHONY: setup run test lint typecheck bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,ray]'
	touch $(STAMP)

setup: $(STAMP)
	$(BIN)/voevoda compile-simulator

run: setup
	$(BIN)/voevoda serve --demo --init-gm "Ведущий" --db voevoda.db

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy src

test: lint typecheck
	$(BIN)/pytest -n $(TEST_PROCESSES)

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
