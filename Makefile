# Keltis service: `make run` serves it, `make test` runs the whole suite.
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run worker test bench docs lint format clean screenshots axe

# uv (pinned) installs the pinned requirements in seconds where pip takes over a minute.
# No --compile-bytecode: compiling every installed package costs more (9 s) than compiling,
# on first import, the modules a run imports. The venv gets no pip of its own (ensurepip
# takes 5 s): the machine's pip puts uv in it, or, where it cannot, the venv's own pip;
# uv then installs the pinned pip with the rest.
UV_VERSION := 0.13.9
UV := $(BIN)/uv pip install -q --python $(BIN)/python

$(STAMP): requirements.txt pyproject.toml clients/python/pyproject.toml
	$(PYTHON) -m venv --clear --without-pip $(VENV)
	$(PYTHON) -m pip -q --python $(BIN)/python install uv==$(UV_VERSION) 2>/dev/null \
		|| ($(PYTHON) -m venv --clear $(VENV) && $(BIN)/pip install -q uv==$(UV_VERSION))
	$(UV) -r requirements.txt
	$(UV) --no-deps -e .
	$(UV) --no-deps --no-build-isolation -e ./clients/python  # the bot kit
	touch $(STAMP)

install: $(STAMP)

# CONNECTIONS: simultaneous connections per web process (2 processes; serve's default 200);
# all but a quarter (at most 500) may be held streams: 300 streams in all by default. For N
# streams give about N / 2 + 10% + 500, e.g. `make run CONNECTIONS=6000` for 10,000 (each
# idle stream is an open file and some KB: docs/OPERATIONS.md, "Many streams on one machine").
CONNECTIONS ?=

run: install
	$(BIN)/keltis serve --port $(PORT)$(if $(CONNECTIONS), --connections $(CONNECTIONS))

worker: install
	$(BIN)/keltis worker

# The suite runs in TEST_WORKERS parallel processes (pytest-xdist), a test file per process
# at a time: most tests wait on servers, workers and browsers, so 4 fit on 2 cores. Files
# with slow tests are handed out first (tests/conftest.py orders them; xdist's own reorder,
# by test count, would hand the minutes-long files out last, to finish alone).
TEST_WORKERS ?= 4
# The files of the tests marked serial (tests/support_tests/test_serial_files.py keeps this
# list equal to the marks): the serial run collects them alone, not the whole suite.
SERIAL_TESTS := tests/cli/test_serve_supervisor.py tests/support_tests/test_scale_out_bench.py
SERIAL_WORKERS ?= 2

# The suite's processes keep compiled modules (pytest's rewritten tests too): a machine that
# sets PYTHONDONTWRITEBYTECODE would have every worker, server and test process compile them
# again (a test process's collection: 17 s instead of 6).
test: export PYTHONDONTWRITEBYTECODE :=
test: install
	$(BIN)/ruff check .
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15 -m "not serial"
	# Tests of whole `keltis serve` trees, after the rest (only their files are collected),
	# two at a time: they mostly wait for processes to start and stop.
	$(BIN)/pytest -n $(SERIAL_WORKERS) -m serial $(SERIAL_TESTS)

# axe-core (pinned; tests/api/test_web_pages_quality.py injects it into the pages in Chromium;
# never served to users). Without npm the accessibility test installs nothing and skips.
AXE_VERSION := 4.14.1
AXE_JS := var/npm/node_modules/axe-core/axe.min.js
$(AXE_JS):
	npm install --prefix var/npm --no-audit --no-fund axe-core@$(AXE_VERSION)

axe: $(AXE_JS)

bench: install
	$(BIN)/python -m bench

# The documentation site (mkdocs, pinned, offline) from docs/ into var/site/; strict: a
# broken link, a missing anchor or a page left out of mkdocs.yml's nav fails the build.
docs: install
	$(BIN)/mkdocs build --strict

# Screenshots of the web client (lobby, card table, dice table) for the README.
screenshots: install
	$(BIN)/python scripts/screenshots.py --out docs/screenshots

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis
