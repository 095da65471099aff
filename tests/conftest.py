import os
import shutil
import sys
import tempfile

import pytest

from referee import registry

from .race import GAME as RACE


@pytest.fixture
def race_registered(monkeypatch):
    """Make the test game `race` installed, alongside whatever real games there are."""
    real = registry.games()
    monkeypatch.setattr(registry, "games", lambda: {**real, "race": RACE})
    return RACE


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked `long` first, then those marked `slow` (each costing seconds where most
    cost milliseconds): with several workers the short ones fill the remaining workers
    meanwhile and at the end, instead of one worker running a long test alone at the end."""
    items.sort(key=lambda item: (item.get_closest_marker("long") is None, item.get_closest_marker("slow") is None))


_BYTECODE: list[str] = []  # the bytecode directory this process made for the run, removed at its end


def pytest_configure(config: pytest.Config) -> None:
    """Where Python is told not to write bytecode (PYTHONDONTWRITEBYTECODE, as some CI images
    and containers set it), every process the tests start compiles every module it imports
    from source again: the daemon the kill test starts 51 times, its worker processes, each
    command line, each pytest worker. For this run the compiled modules are kept in a
    directory of the run's own (PYTHONPYCACHEPREFIX), removed at its end: the checkout still
    gets no bytecode, and what runs is the same source. Set by the first process (the one
    that starts the workers), inherited by every other."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    prefix = tempfile.mkdtemp(prefix="referee-test-bytecode-")
    _BYTECODE.append(prefix)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    sys.pycache_prefix, sys.dont_write_bytecode = prefix, False


def pytest_unconfigure(config: pytest.Config) -> None:
    for prefix in _BYTECODE:
        shutil.rmtree(prefix, ignore_errors=True)
