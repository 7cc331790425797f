# ubao: every task starts here. `make run` and `make test` install what they need by themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 3000

.PHONY: help setup run test lint bench package openapi site puzzles clean

help:
	@echo "make run      serve the API and the site on http://127.0.0.1:$(PORT) (PORT overrides)"
	@echo "make test     lint, cfn-lint and the whole test suite"
	@echo "make bench    benchmarks, each side by side with its reference"
	@echo "make package  build the Lambda layer and functions for arm64 python3.13 (no Docker)"
	@echo "make openapi  write the OpenAPI description to docs/openapi.json"
	@echo "make site     build the static site into site/build/"
	@echo "make puzzles  regenerate the draughts puzzle sets (seeded, reproducible)"

$(STAMP): requirements-dev.txt pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $(STAMP)

setup: $(STAMP)

run: setup
	$(VENV)/bin/ubao --help

test: setup
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q -n 2

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/cfn-lint template.yaml

bench: setup
	$(PY) -m tests.bench

clean:
	rm -rf build site/build .pytest_cache .ruff_cache .hypothesis
