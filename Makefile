# tpu-assist — everything a fresh machine needs, in two commands: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# CPU build of torch, installed first so sentence-transformers does not pull a CUDA build.
TORCH  ?= torch==2.13.0

.PHONY: run test install index eval calibrate bench lint clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "$(TORCH)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
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

eval: index
	$(BIN)/python scripts/eval.py ../shared/eval/dev_queries.jsonl

calibrate: index
	$(BIN)/python scripts/calibrate.py

bench: index
	$(BIN)/python scripts/bench.py

lint: install
	$(BIN)/tpu-assist kb validate

clean:
	rm -rf $(VENV) index/v-* index/.tmp-* index/CURRENT index/.lock .pytest_cache
