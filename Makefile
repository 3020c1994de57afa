# Keltis service: `make run` serves it, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run worker test bench lint format clean screenshots

$(STAMP): requirements.txt pyproject.toml clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements.txt
	$(BIN)/pip install -q --no-deps -e .
	$(BIN)/pip install -q --no-deps --no-build-isolation -e ./clients/python  # the bot kit
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/keltis serve

worker: install
	$(BIN)/keltis worker

test: install
	$(BIN)/ruff check .
	$(BIN)/pytest

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
