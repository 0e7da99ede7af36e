PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WEB_STAMP := $(VENV)/.installed-web

.PHONY: run play test system-deps bench bench-rl clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(WEB_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[web,tui]'
	touch $(WEB_STAMP)

# What the tests need from the system: Chromium for the browser tests, PostgreSQL for the
# database tests (the tests start their own server on loopback).
system-deps:
	@if ! command -v chromium >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		echo "installing chromium and postgresql with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium postgresql >/dev/null; \
	fi

ARGS ?=

run: $(WEB_STAMP)
	@echo "rummykit is installed in $(BIN): run it as $(BIN)/rummykit, or put it on your PATH with: . $(BIN)/activate"
	$(BIN)/rummykit serve $(ARGS)

play: $(WEB_STAMP)
	$(BIN)/rummykit play $(ARGS)

test: $(STAMP) system-deps
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy --strict src/rummykit
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python bench/run.py

bench-rl: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python bench/rl.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
