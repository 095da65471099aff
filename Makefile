# Every target installs what it needs into .venv first, so a fresh machine with Python 3.11
# and make is enough.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

LOCALES := referee/i18n/locale
MO     := $(patsubst %.po,%.mo,$(wildcard $(LOCALES)/*/LC_MESSAGES/referee.po))

.PHONY: test test-quick demo bench install clean system-packages catalogues

# The build backend (pyproject.toml's [build-system] requires, and editables, which hatchling
# asks for to build an editable install) is installed into .venv first and the project is built
# with it there: the test extra needs hatchling anyway (tests/test_packaging.py builds the
# wheel), and an isolated build installed it and editables a second time into a throwaway
# environment for every install. pip comes from the system's pip when it can install into
# another interpreter (--python, pip 22.3 and later), else from ensurepip: ensurepip installs
# setuptools too, which nothing here uses, and compiles both. Where Python is told not to
# write bytecode (PYTHONDONTWRITEBYTECODE), pip does not compile what it installs either: the
# test run keeps its bytecode in a directory of its own (tests/conftest.py) and never reads it.
BUILD_REQUIRES = $$($(BIN)/python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires'])") editables
PIP_FLAGS := --quiet --disable-pip-version-check $(if $(PYTHONDONTWRITEBYTECODE),--no-compile)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	$(BIN)/python -m pip --version >/dev/null 2>&1 || $(PYTHON) -m pip --python $(BIN)/python install $(PIP_FLAGS) pip \
	  || $(BIN)/python -m ensurepip --default-pip
	$(BIN)/python -m pip install $(PIP_FLAGS) $(BUILD_REQUIRES)
	$(BIN)/python -m pip install $(PIP_FLAGS) --no-build-isolation -e '.[test]'
	touch $(STAMP)

# The message catalogues players' mail is written from, compiled for the running code.
$(LOCALES)/%/LC_MESSAGES/referee.mo: $(LOCALES)/%/LC_MESSAGES/referee.po $(STAMP)
	$(BIN)/pybabel -q compile -D referee -d $(LOCALES) -l $* --statistics

install: $(STAMP) system-packages $(MO)

# The mail program the tests compose replies with (tests/mailer/inbound/replies/test_mutt.py), the
# browser that shows the HTML reports on a phone-sized screen (tests/reports/test_browser.py) and
# the mail server the daemon is tested behind (tests/mailer/daemon/test_postfix.py, which runs a
# private instance of its own on loopback). Installed when missing, as root or through sudo,
# where apt-get is the package manager; nothing is done when they are there already. Postfix is
# installed with Debian's "No configuration": the system's own instance stays unconfigured and
# is not started. Where they cannot be installed the build goes on, and their tests skip, except
# in CI (CI set, as .ci/run sets it), where they fail.
SYSTEM_PACKAGES := mutt chromium postfix
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo -n)

system-packages:
	@missing=""; for p in $(SYSTEM_PACKAGES); do command -v $$p >/dev/null 2>&1 || [ -x /usr/sbin/$$p ] \
	  || missing="$$missing $$p"; done; \
	[ -z "$$missing" ] && exit 0; \
	if command -v apt-get >/dev/null 2>&1 && { [ -z "$(SUDO)" ] || command -v sudo >/dev/null 2>&1; }; then \
	  echo "installing$$missing"; \
	  echo "postfix postfix/main_mailer_type select No configuration" | $(SUDO) debconf-set-selections; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing >/dev/null \
	    && exit 0; \
	fi; \
	echo "could not install$$missing (this needs apt-get, and root or sudo)"; \
	case "$${CI:-}" in ""|0|false) exit 0;; *) exit 1;; esac

# After changing a message in the code or a template: extract, merge into every .po, and
# fill the English one; then translate what `python -m referee.i18n.catalogues check` lists.
catalogues: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg -k N_ -k msg -k phrase -k plural_phrase:2,3 --no-location --sort-output \
	    --project=referee --msgid-bugs-address= -o referee/i18n/referee.pot .
	$(BIN)/pybabel -q update -i referee/i18n/referee.pot -d $(LOCALES) -D referee --no-fuzzy-matching \
	    --ignore-obsolete --width=100
	$(BIN)/python -m referee.i18n.catalogues fill
	$(BIN)/python -m referee.i18n.catalogues check || true

# Two test processes a core: some of the longest tests mostly wait (bots and a daemon passing
# mail on loopback, deadlines on a fast clock), and with one process a core a waiting test
# leaves its core idle while the others queue. The tests of the files that mostly wait
# (tests/marks.py WAITING: a daemon killed and started again, Postfix, a relay away, mutt) go
# to one worker together, one after another, while the other workers keep both cores busy;
# the rest are handed out one at a time as workers free up, in the order tests/conftest.py
# sorts them (long, then slow, then the rest).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 2 )))
XDIST := -n $(TEST_WORKERS)

test: $(STAMP) system-packages $(MO)
	$(BIN)/python -m pytest $(XDIST) -q $(PYTEST_ARGS)

# For the edit-test loop: everything but the tests marked long or slow (the bulk of the property
# tests over many random games, whole games by mail; tests/marks.py). `make test` and CI run all.
test-quick: $(STAMP) $(MO)
	$(BIN)/python -m pytest $(XDIST) -q -m "not long and not slow" $(PYTEST_ARGS)

# A whole game by mail on loopback; e.g. make demo DEMO_ARGS="--game porto-carthago --keep"
demo: $(STAMP) $(MO)
	$(BIN)/referee demo $(DEMO_ARGS)

bench: $(STAMP)
	@for script in bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
