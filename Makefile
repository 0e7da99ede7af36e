PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WEB_STAMP := $(VENV)/.installed-web

.PHONY: run play test test-suite test-compiled checks docs compiled system-deps bench bench-rl bench-load bench-instructions clean

# The packages are installed with uv (itself installed into the virtual environment with
# pip): the same versions pip picks, compiled to bytecode as pip does, in seconds instead of
# half a minute. The environment keeps its pip for anything installed by hand.
INSTALL := $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv

$(STAMP): pyproject.toml | $(BIN)/python
	$(INSTALL) -e '.[dev]'
	touch $(STAMP)

$(WEB_STAMP): pyproject.toml | $(BIN)/python
	$(INSTALL) -e '.[web,tui]'
	touch $(WEB_STAMP)

# What the tests need from the system: Chromium's headless shell for the browser tests (the
# browser without its window, as Playwright runs headless pages: half the work of the whole
# browser), PostgreSQL for the database tests (the tests start their own server on
# loopback), a C compiler for the compiled build of the engine.
system-deps:
	@if ! command -v chromium-headless-shell >/dev/null 2>&1 \
		|| ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1; then \
		echo "installing chromium-headless-shell, postgresql and gcc with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium-headless-shell postgresql gcc >/dev/null; \
	fi

ARGS ?=

run: $(WEB_STAMP)
	@echo "rummykit is installed in $(BIN): run it as $(BIN)/rummykit, or put it on your PATH with: . $(BIN)/activate"
	$(BIN)/rummykit serve $(ARGS)

play: $(WEB_STAMP)
	$(BIN)/rummykit play $(ARGS)

# The compiled build of the engine (setup.py, RUMMYKIT_COMPILE=1), made in a copy of the
# sources so that the package in $(VENV) stays pure Python. It is built again only when a
# module that setup.py compiles (its COMPILED list), setup.py or pyproject.toml changes; the
# other modules of the copy are refreshed from src before each run of its tests. The tests
# of the compiled modules run against it too (RUMMYKIT_COMPILED=1 makes the tests check
# that they use it): tests/engine, the rollout policy's and the RL environment's.
COMPILED := build/compiled
COMPILED_MODULES := $(shell grep -o '"src/rummykit/[A-Za-z0-9_/]*\.py"' setup.py | tr -d '"')
COMPILED_TESTS := tests/engine tests/bots/test_rollout.py tests/rl

$(COMPILED)/.built: $(STAMP) setup.py pyproject.toml $(COMPILED_MODULES)
	rm -rf $(COMPILED) && mkdir -p $(COMPILED)
	cp -r src setup.py pyproject.toml README.md $(COMPILED)/
	cd $(COMPILED) && RUMMYKIT_COMPILE=1 $(abspath $(BIN))/python setup.py -q build_ext \
		--inplace >build.log 2>&1 || { tail -40 build.log; exit 1; }
	touch $@

compiled: $(COMPILED)/.built
	cp -a src/. $(COMPILED)/src/

# The documentation site (mkdocs.yml: MkDocs with the Material theme, the API reference
# from the docstrings with mkdocstrings) built into site/; a warning (a broken link or
# anchor, a page left out of the navigation, a docstring that cannot be read) is an error.
MKDOCS := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs: $(STAMP)
	$(MKDOCS)

# One run of every test on both cores. The Python packages (uv) install beside the
# system's (apt-get); then three jobs run side by side, each printing its output when it
# ends: the suite (pytest-xdist with three processes, so that one process's waits on a
# browser, a server or a subprocess leave the cores to the others; each process has its own
# servers on free ports, its own PostgreSQL and its own Chromium), the static checks, and
# the compiled build followed by the compiled modules' tests against it. The tests that
# take longest start first, spread over the processes (tests/conftest.py), so that none is
# left running alone at the end.
TEST_WORKERS ?= 3

# The test processes write Python's bytecode caches, as Python does unless told not to
# (PYTHONDONTWRITEBYTECODE), so that the servers and programs the tests start do not each
# compile the package again, nor the compiled run the tests the suite has read.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest

test:
	@$(MAKE) --no-print-directory -j2 $(STAMP) system-deps
	@$(MAKE) --no-print-directory -j3 --output-sync=target test-suite checks test-compiled

test-suite: $(STAMP)
	$(PYTEST) -n $(TEST_WORKERS) --dist worksteal

# The compiled modules' tests against the compiled build, in one process (they run beside
# the suite, which has the other cores' worth of processes).
test-compiled: compiled
	RUMMYKIT_COMPILED=1 PYTHONPATH=$(COMPILED)/src $(PYTEST) -p no:cacheprovider \
		--basetemp=$(COMPILED)/tmp $(COMPILED_TESTS)

# The static checks: lint, strict types, the layers contract, the docs build.
checks: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/mypy --strict src/rummykit
	$(BIN)/lint-imports
	$(MKDOCS) --quiet

bench: $(STAMP)
	$(INSTALL) -e '.[bench]'
	$(BIN)/python bench/run.py

# The web app under load (docs/server.md): 200 paced tables, then 100 at saturation.
bench-load: $(STAMP) $(WEB_STAMP)
	$(BIN)/python bench/load.py --tables 200 --seconds 30
	$(BIN)/python bench/load.py --tables 100 --think 0 --seconds 15

bench-rl: $(STAMP)
	$(INSTALL) -e '.[bench]'
	$(BIN)/python bench/rl.py

# Instructions per decision under callgrind, Python build then compiled (minutes; valgrind
# is installed with apt-get where missing).
bench-instructions: $(STAMP) compiled
	@command -v valgrind >/dev/null 2>&1 || { echo "installing valgrind with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }
	$(BIN)/python bench/instructions.py --players 2 6
	$(BIN)/python bench/instructions.py --players 2 6 --src $(COMPILED)/src

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build site
