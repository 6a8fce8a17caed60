# tpu-assist — everything a fresh machine needs, in two commands: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# CPU build of torch, installed first so sentence-transformers does not pull a CUDA build.
TORCH  ?= torch==2.13.0

.PHONY: run test test-fast install index eval calibrate bench lint snapshots-update clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "$(TORCH)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test,lint]"
	@touch $(STAMP)

install: $(STAMP)

index: install
	@$(BIN)/tpu-assist kb build

run: index
	@$(BIN)/tpu-assist

test: index
	@command -v tmux >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq tmux; } >/dev/null 2>&1 \
		|| echo "tmux could not be installed: the end-to-end terminal test will be skipped"
	$(BIN)/python -m pytest

# The fast tier: no model load and no index built with the model (a hashing embedder stands in
# where a test needs vectors; tests/fakes.py). Needs no `make index`.
# On both cores (pytest-xdist, work stealing). Bytecode is cached even where the environment says
# not to (PYTHONDONTWRITEBYTECODE, set on this project's machines): pytest's rewritten test
# modules are then compiled once, not at every run (~4 s of the tier).
test-fast: install
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -m "not slow" -q -n 2 --dist worksteal

eval: index
	$(BIN)/python scripts/eval.py ../shared/eval/dev_queries.jsonl

calibrate: index
	$(BIN)/python scripts/calibrate.py

bench: index
	$(BIN)/python scripts/bench.py

# Every check runs, so one report shows all that is wrong; the exit status is non-zero if any failed.
lint: install
	@status=0; \
	echo "ruff check";          $(BIN)/ruff check . || status=1; \
	echo "ruff format --check"; $(BIN)/ruff format --check . || status=1; \
	echo "mypy";                $(BIN)/mypy || status=1; \
	echo "tpu-assist kb validate"; $(BIN)/tpu-assist kb validate || status=1; \
	exit $$status

# After a deliberate change of the screens (or a textual upgrade): rewrite the SVG snapshots, then
# review them (snapshot_report.html, git diff tests/tui/__snapshots__).
snapshots-update: index
	$(BIN)/python -m pytest tests/tui --snapshot-update

clean:
	rm -rf $(VENV) index/v-* index/.tmp-* index/CURRENT index/.lock .pytest_cache .mypy_cache .ruff_cache
