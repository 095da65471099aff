# Every target installs what it needs into .venv first, so a fresh machine with Python 3.11
# and make is enough.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

LOCALES := referee/i18n/locale
MO     := $(patsubst %.po,%.mo,$(wildcard $(LOCALES)/*/LC_MESSAGES/referee.po))

.PHONY: test demo bench install clean catalogues

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

# The message catalogues players' mail is written from, compiled for the running code.
$(LOCALES)/%/LC_MESSAGES/referee.mo: $(LOCALES)/%/LC_MESSAGES/referee.po $(STAMP)
	$(BIN)/pybabel -q compile -D referee -d $(LOCALES) -l $* --statistics

install: $(STAMP) $(MO)

# After changing a message in the code or a template: extract, merge into every .po, and
# fill the English one; then translate what `python -m referee.i18n.catalogues check` lists.
catalogues: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg -k N_ -k msg --no-location --sort-output \
	    --project=referee --msgid-bugs-address= -o referee/i18n/referee.pot .
	$(BIN)/pybabel -q update -i referee/i18n/referee.pot -d $(LOCALES) -D referee --no-fuzzy-matching \
	    --ignore-obsolete --width=100
	$(BIN)/python -m referee.i18n.catalogues fill
	$(BIN)/python -m referee.i18n.catalogues check || true

test: $(STAMP) $(MO)
	$(BIN)/python -m pytest -n auto -q $(PYTEST_ARGS)

# A whole game by mail on loopback; e.g. make demo DEMO_ARGS="--game porto-carthago --keep"
demo: $(STAMP) $(MO)
	$(BIN)/referee demo $(DEMO_ARGS)

bench: $(STAMP)
	@for script in bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
