# ubao: every task starts here. `make run` and `make test` install what they need by themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 3000

.PHONY: help setup node run test test-fast contract lint-js test-js typecheck format lock lowest lint bench load package openapi site messages puzzles screenshots clean deploy deploy-waf smoke publish

help:
	@echo "make run      serve the API and the site on http://127.0.0.1:$(PORT) (PORT overrides)"
	@echo "make test     lint, format check, mypy and the whole test suite"
	@echo "make test-fast  the unit tier (rules, domain, in-memory store): under 30 s"
	@echo "make lint-js  ESLint and TypeScript's checker on the site's scripts; make test-js their node tests"
	@echo "make lock     regenerate requirements.lock (hashes) after a change to the requirements"
	@echo "make bench    benchmarks, each side by side with its reference"
	@echo "make load USERS=50 DURATION=60  simulated players against a running make run (docs/capacity.md)"
	@echo "make package  build the layer and one package per function for arm64 python3.13 (no Docker);"
	@echo "              PLATFORM=host builds the same layout for this machine into build/host/"
	@echo "make deploy   make package, then sam deploy (--guided the first time; samconfig.toml keeps the answers)"
	@echo "make publish BUCKET=... DISTRIBUTION=...  upload the site to a deployed stack"
	@echo "make smoke URL=https://...  a short end-to-end check of a running stack (or of make run)"
	@echo "make openapi  write the OpenAPI description to docs/openapi.json"
	@echo "make contract Schemathesis checks docs/openapi.json against make run's server (docs/contract.md)"
	@echo "make site     build the static site into site/build/"
	@echo "make messages extract the site's UI strings and update the sw, tl, en catalogs"
	@echo "make puzzles  verify the draughts puzzle sets deep (dropping what fails) and top them up to 1,500"
	@echo "make screenshots  retake the README's screenshots (needs /usr/bin/chromium)"

# Every target installs from the lock (exact versions, checked hashes); the project itself goes in editable.
$(STAMP): requirements.lock pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $(STAMP)

# The lock: every package for Python 3.11+ on every platform, with hashes (uv is in the lock itself).
lock: setup
	$(VENV)/bin/uv pip compile requirements-dev.txt functions/requirements.txt pyproject.toml --universal \
		--python-version 3.11 --generate-hashes --quiet -o requirements.lock

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
# PACKAGED=1 serves the host build of `make package` instead (build/host/, each function in its own
# isolated interpreter): exactly the files that would be deployed.
run: setup site node
ifdef PACKAGED
	$(PY) -m local.package --host
	@PORT=$(PORT) LOCAL_DYNAMODB_DIR="$(CURDIR)/.local/dynalite" $(PY) -m local.runner --packaged build/host
else
	@PORT=$(PORT) LOCAL_DYNAMODB_DIR="$(CURDIR)/.local/dynalite" $(PY) -m local.runner
endif

# --dist loadgroup: the browser tests (one xdist_group) share one worker, so one local server and one Chromium.
test: setup node lint-js test-js
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m pytest -q -n 2 --dist loadgroup --durations=25

# The unit tier: the rules layer, the games domain and service on the in-memory repository, the CLI. No
# moto, no dynalite, no browser; under 30 s on 2 cores. Run it while you work, `make test` before you push.
FAST_TESTS := tests/unit tests/rules tests/cli
test-fast: setup
	$(PY) -m pytest -q -n 2 -m "not slow" $(FAST_TESTS)

# The site's scripts (site/static, site/offline): ESLint (eslint.config.mjs) and TypeScript's checker on
# their JSDoc (`// @ts-check` in each; tsconfig.json for the pages, tsconfig.worker.json for the service
# worker; nothing is compiled), then node's own test runner on the pure modules (tests/js). The tools come
# from package-lock.json (`make node`).
NODE_BIN := node_modules/.bin
lint-js: node
	$(NODE_BIN)/eslint .
	$(NODE_BIN)/tsc -p tsconfig.json
	$(NODE_BIN)/tsc -p tsconfig.worker.json

test-js: node
	node --import ./tests/js/with_game_facts.js --test tests/js/*.test.js

typecheck: setup
	$(VENV)/bin/mypy

format: setup
	$(VENV)/bin/ruff format .

# CI's second run: the lowest version every requirement allows (uv's lowest-direct resolution), so each
# declared floor is one that was tested. It runs ruff and mypy at their floors (over the libraries' floors: the
# stubs and the typed packages), then the fast tier, the API tests (see .ci/run for why) and the Web Push
# sender's (pywebpush, urllib3: the notify package's floors), not
# the template checks (cfn-lint's and pydantic's output differ between tool versions; the main run checks
# them with the locked versions) nor the runner's subprocess tests (the main run has them).
lowest: setup
	@test -x .venv-lowest/bin/python || $(VENV)/bin/uv venv --quiet -p $(PY) .venv-lowest
	VIRTUAL_ENV=.venv-lowest $(VENV)/bin/uv pip install --quiet --resolution lowest-direct \
		-r requirements-dev.txt -r functions/requirements.txt -e .
	.venv-lowest/bin/ruff check --no-cache .
	.venv-lowest/bin/ruff format --check --no-cache .
	.venv-lowest/bin/mypy --cache-dir .venv-lowest/mypy-cache
	.venv-lowest/bin/python -m pytest -q -n 2 -m "not slow" $(FAST_TESTS) tests/api tests/push/test_notify.py \
		--ignore=tests/api/test_template.py --ignore=tests/api/test_local_runner.py

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/cfn-lint template.yaml waf.yaml

bench: setup
	$(PY) -m tests.bench

# Simulated players (tests/load/locustfile.py) against a running `make run` on 127.0.0.1:$(PORT) only, bounded in
# users and seconds; prints latency percentiles per route, errors by status, CPU and DynamoDB calls per request
# (docs/capacity.md). Not part of `make test`.
USERS ?= 50
DURATION ?= 60
SPECTATORS ?= 0
load: setup
	$(PY) -m tests.load --users $(USERS) --duration $(DURATION) --spectators $(SPECTATORS) --host http://127.0.0.1:$(PORT)

# Deployable artifacts in build/ for arm64 / CPython 3.13 without Docker (one code package per function,
# the rules layer, build/template.json); PLATFORM=host: the same for this machine, in build/host/.
package: setup
	$(PY) -m local.package $(if $(filter host,$(PLATFORM)),--host)

# The stack from build/template.json with the SAM CLI. The first time (no samconfig.toml) sam asks for the
# stack name, region and parameters and saves the answers in samconfig.toml (ignored by git); then it
# deploys without questions. docs/operations.md has what to do after (site upload, SiteUrl, alarms).
deploy: package
	@command -v sam >/dev/null || { echo "the SAM CLI is needed: https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/install-sam-cli.html" >&2; exit 1; }
	@if [ -f samconfig.toml ]; then sam deploy --template-file build/template.json; \
	else sam deploy --guided --template-file build/template.json --capabilities CAPABILITY_IAM --resolve-s3; fi

# The WAF web ACL (rate limits) for CloudFront: a stack of its own in us-east-1, whatever the main stack's
# region; pass its WebAclArn output to the main stack (docs/operations.md, "WAF").
deploy-waf:
	sam deploy --template-file waf.yaml --stack-name $(or $(WAF_STACK),ubao-waf) --region us-east-1 --no-fail-on-empty-changeset

# The site to the stack's bucket (BUCKET=SiteBucketName, DISTRIBUTION=SiteDistributionId, from the outputs).
# Hashed assets first and never deleted (a phone's saved page may still name them), then the pages,
# manifests and /sw.js, revalidated on every visit (docs/offline.md), then a CloudFront invalidation.
publish: site
	@test -n "$(BUCKET)" -a -n "$(DISTRIBUTION)" || { echo "usage: make publish BUCKET=... DISTRIBUTION=... (the stack's outputs)" >&2; exit 2; }
	aws s3 sync site/build/static/ "s3://$(BUCKET)/static/"
	aws s3 sync site/build/ "s3://$(BUCKET)/" --delete --exclude 'static/*' --cache-control no-cache
	aws s3 cp site/build/ "s3://$(BUCKET)/" --recursive --exclude '*' --include '*.webmanifest' \
		--cache-control no-cache --content-type application/manifest+json
	aws cloudfront create-invalidation --distribution-id "$(DISTRIBUTION)" --paths '/*'

# A short end-to-end run against any stack: make smoke URL=https://dxxxx.cloudfront.net (or make run's URL).
smoke: setup
	@test -n "$(URL)" || { echo "usage: make smoke URL=https://... (the stack's SiteUrl, or http://127.0.0.1:$(PORT))" >&2; exit 2; }
	$(PY) -m local.smoke "$(URL)"

# The OpenAPI description every function's resolver generates, merged (a test fails when it is stale).
openapi: setup
	$(PY) -m local.openapi

# The API description is the contract: Schemathesis runs every operation of docs/openapi.json against the local
# runner (a free port, a fresh dynalite, limits raised), bounded examples and a fixed seed (local/contract.py,
# docs/contract.md). CI runs it after `make test` (.ci/run). MAX_EXAMPLES and SEED override the defaults.
MAX_EXAMPLES ?= 15
SEED ?= 27
contract: setup node
	$(PY) -m local.contract --max-examples $(MAX_EXAMPLES) --seed $(SEED)

# The static site (Sheria, Jifunze, Fumbo, Mchezo in sw, tl, en) into site/build/; compiles the catalogs.
# SITE_URL sets the origin of canonical and hreflang links (default http://127.0.0.1:3000).
site: setup node
	$(PY) site/build_site.py

# UI strings: extract from templates, site/*.py and the notifications' texts (functions/notify), then merge into site/locale/{sw,tl,en} (.po are committed).
messages: setup
	@cp site/locale/messages.pot .venv/messages.pot.before 2>/dev/null || true
	$(VENV)/bin/pybabel extract -F site/babel.cfg -k N_ -k NP_:1,2 -k NC_:1c,2 -c TRANSLATORS: --no-location --sort-output \
		--project ubao -o site/locale/messages.pot site functions/notify
	$(PY) site/pot_date.py .venv/messages.pot.before site/locale/messages.pot
	$(VENV)/bin/pybabel update -i site/locale/messages.pot -d site/locale --no-fuzzy-matching --ignore-obsolete
	$(VENV)/bin/pybabel compile -d site/locale --statistics

# Puzzle sets: the draughts sets by self-play and search (seeded; 1,500 each, about an hour on 2 idle cores), and the
# chess set from the shared Lichess file (CC0) when it is present. The .jsonl files are committed.
# On the search compiled by mypyc (puzzles/compiled.py: the same code, nodes and verdicts, about 3x faster);
# on the plain code, saying so, where it cannot be built.
puzzles: setup
	nice -n 10 $(PY) -m puzzles.compiled verify --jobs 2
	nice -n 10 $(PY) -m puzzles.compiled generate --top-up --jobs 2
	$(PY) -m puzzles.lichess

# The README's screenshots (a rules page, a lesson, a puzzle, the new game form, a game) at 360x740 from the real site in headless Chromium.
screenshots: setup node
	$(PY) -m tests.browser.screenshots

clean:
	rm -rf build site/build .pytest_cache .ruff_cache .mypy_cache .hypothesis .venv-lowest
