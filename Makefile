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

install: $(STAMP) system-packages

# The mail program the tests compose replies with (tests/mailer/replies/test_mutt.py) and the
# browser that shows the HTML reports on a phone-sized screen (tests/reports/test_browser.py).
# Installed when missing, as root or through sudo, where apt-get is the package manager; nothing
# is done when they are there already. Where they cannot be installed the build goes on, and
# their tests skip, except in CI (CI set, as .ci/run sets it), where both fail.
SYSTEM_PACKAGES := mutt chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo -n)

system-packages:
	@missing=""; for p in $(SYSTEM_PACKAGES); do command -v $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	[ -z "$$missing" ] && exit 0; \
	if command -v apt-get >/dev/null 2>&1 && { [ -z "$(SUDO)" ] || command -v sudo >/dev/null 2>&1; }; then \
	  echo "installing$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing >/dev/null \
	    && exit 0; \
	fi; \
	echo "could not install$$missing (this needs apt-get, and root or sudo)"; \
	case "$${CI:-}" in ""|0|false) exit 0;; *) exit 1;; esac

test: $(STAMP) system-packages
	$(BIN)/python -m pytest -n auto -q $(PYTEST_ARGS)

# A whole game by mail on loopback; e.g. make demo DEMO_ARGS="--game porto-carthago --keep"
demo: $(STAMP)
	$(BIN)/referee demo $(DEMO_ARGS)

bench: $(STAMP)
	@for script in bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
