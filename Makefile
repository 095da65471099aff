# Every target installs what it needs into .venv first, so a fresh machine with Python 3.11
# and make is enough.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test demo bench install clean system-packages

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# mutt composes the replies of tests/mailer/replies/mutt/ again in test_mutt.py. Installed once
# where the machine allows (root, apt); elsewhere that test skips and the committed replies,
# which mutt wrote, are read alone. Never fails the build.
system-packages:
	@command -v mutt >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mutt) >/dev/null 2>&1; } || \
	  echo "mutt could not be installed: the mutt replies are read from the committed corpus only"

test: $(STAMP) system-packages
	$(BIN)/python -m pytest -n auto -q $(PYTEST_ARGS)

# A whole game by mail on loopback; e.g. make demo DEMO_ARGS="--game porto-carthago --keep"
demo: $(STAMP)
	$(BIN)/referee demo $(DEMO_ARGS)

bench: $(STAMP)
	@for script in bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
