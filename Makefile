# ubao: every task starts here. `make run` and `make test` install what they need by themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 3000

.PHONY: help setup node run test lint bench package openapi site messages puzzles screenshots clean

help:
	@echo "make run      serve the API and the site on http://127.0.0.1:$(PORT) (PORT overrides)"
	@echo "make test     lint, cfn-lint and the whole test suite"
	@echo "make bench    benchmarks, each side by side with its reference"
	@echo "make package  build the Lambda layer and functions for arm64 python3.13 (no Docker)"
	@echo "make openapi  write the OpenAPI description to docs/openapi.json"
	@echo "make site     build the static site into site/build/"
	@echo "make messages extract the site's UI strings and update the sw, tl, en catalogs"
	@echo "make puzzles  regenerate the draughts puzzle sets (seeded, reproducible)"
	@echo "make screenshots  retake the README's screenshots (needs /usr/bin/chromium)"

$(STAMP): requirements-dev.txt pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $(STAMP)

setup: $(STAMP)

# dynalite, the local DynamoDB of `make run` and of the tests (pinned in package-lock.json). Without npm
# the runner warns (games answer 503) and the dynalite tests are skipped; everything else works.
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm not found: install Node.js for the local DynamoDB (dynalite)" >&2; fi

node: $(NODE_STAMP)

# The API (every HttpApi route of template.yaml) and the site on one origin; Ctrl-C stops it.
# The runner starts dynalite on .local/dynalite/ (games survive a restart), creates the template's
# tables in it and passes DYNAMODB_ENDPOINT to every function; a DYNAMODB_ENDPOINT you set wins.
run: setup site node
	@PORT=$(PORT) LOCAL_DYNAMODB_DIR="$(CURDIR)/.local/dynalite" $(PY) -m local.runner

# --dist loadgroup: the browser tests (one xdist_group) share one worker, so one local server and one Chromium.
test: setup node
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q -n 2 --dist loadgroup

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/cfn-lint template.yaml

bench: setup
	$(PY) -m tests.bench

# Deployable artifacts in build/ for arm64 / CPython 3.13 without Docker; README "Deploy" says what next.
package: setup
	$(PY) -m local.package constraints
	$(MAKE) --no-print-directory -C shared_rules build-RulesLayer ARTIFACTS_DIR="$(CURDIR)/build/layer" \
		PIP="$(CURDIR)/$(PY) -m pip" CONSTRAINTS="$(CURDIR)/build/constraints.txt"
	$(PY) -m local.package functions

# The OpenAPI description every function's resolver generates, merged (a test fails when it is stale).
openapi: setup
	$(PY) -m local.openapi

# The static site (Sheria, Jifunze, Fumbo, Mchezo in sw, tl, en) into site/build/; compiles the catalogs.
# SITE_URL sets the origin of canonical and hreflang links (default http://127.0.0.1:3000).
site: setup
	$(PY) site/build_site.py

# UI strings: extract from templates and site/*.py, then merge into site/locale/{sw,tl,en} (.po are committed).
messages: setup
	$(VENV)/bin/pybabel extract -F site/babel.cfg -k N_ -k NP_:1,2 --no-location --sort-output \
		--project ubao -o site/locale/messages.pot site
	$(VENV)/bin/pybabel update -i site/locale/messages.pot -d site/locale --no-fuzzy-matching --ignore-obsolete
	$(VENV)/bin/pybabel compile -d site/locale --statistics

# Puzzle sets: the draughts sets by self-play and search (seeded; 1,500 each, about an hour on 2 idle cores), and the
# chess set from the shared Lichess file (CC0) when it is present. The .jsonl files are committed.
puzzles: setup
	$(PY) -m puzzles.generate --jobs 2
	$(PY) -m puzzles.lichess

# The README's two screenshots (a rules page, a game in progress) from the real site in headless Chromium.
screenshots: setup node
	$(PY) -m tests.browser.screenshots

clean:
	rm -rf build site/build .pytest_cache .ruff_cache .hypothesis
