# Every target installs what it needs into .venv first, so a fresh machine with Python 3.11
# and make is enough.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test demo bench install clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -n auto -q $(PYTEST_ARGS)

# A whole game by mail on loopback; e.g. make demo DEMO_ARGS="--game porto-carthago --keep"
demo: $(STAMP)
	$(BIN)/referee demo $(DEMO_ARGS)

bench: $(STAMP)
	@for script in bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
