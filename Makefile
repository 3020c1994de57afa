# Keltis service: `make run` serves it, `make test` runs the whole suite.
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run worker test bench lint format clean screenshots axe

$(STAMP): requirements.txt pyproject.toml clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements.txt
	$(BIN)/pip install -q --no-deps -e .
	$(BIN)/pip install -q --no-deps --no-build-isolation -e ./clients/python  # the bot kit
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/keltis serve --port $(PORT)

worker: install
	$(BIN)/keltis worker

# The suite runs in TEST_WORKERS parallel processes (pytest-xdist), a test file per process
# at a time: most tests wait on servers, workers and browsers, so 4 fit on 2 cores. (Handing
# the files with slow tests out first was faster, but ran the heaviest files all at once, and
# the niced tournament workers' tests then missed their deadlines: issue 27's note.)
TEST_WORKERS ?= 4

test: install
	$(BIN)/ruff check .
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --durations=15 -m "not serial"
	# Tests of whole `keltis serve` trees, alone.
	$(BIN)/pytest -m serial

# axe-core (pinned; tests/api/test_web_pages_quality.py injects it into the pages in Chromium;
# never served to users). Without npm the accessibility test installs nothing and skips.
AXE_VERSION := 4.14.1
AXE_JS := var/npm/node_modules/axe-core/axe.min.js
$(AXE_JS):
	npm install --prefix var/npm --no-audit --no-fund axe-core@$(AXE_VERSION)

axe: $(AXE_JS)

bench: install
	$(BIN)/python -m bench

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
