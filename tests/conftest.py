import gc
import os
import shutil
import subprocess
import sys
import tempfile

import pytest
from hypothesis import settings

from referee import registry

from .marks import WAITING
from .race import GAME as RACE

# In CI the property tests draw the same examples on every run, so that a red build names a
# change, not a lucky draw; on a developer's machine they draw new ones each run and find more.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI", "") not in ("", "0", "false"):
    settings.load_profile("ci")

# The tests play whole games by the thousand and keep many positions to compare, each a tree of
# small dicts and lists, in worker processes that live for the whole run. Python's cycle
# collector looks at the young objects often (cheap, and it frees the cycles raised
# exceptions leave) but also, every hundred young collections, at every object the process
# holds: those walks over the kept games and everything imported found almost nothing, as game
# states hold no reference cycles. The older generations are looked at less often here, and
# what the process holds once its tests are collected is left out of the walks (gc.freeze).
gc.set_threshold(2_000, 50, 100)


def _memory_file_system(path: str) -> bool:
    """Whether `path` is a writable tmpfs mount."""
    try:
        with open("/proc/mounts", encoding="utf-8") as mounts:
            found = any(line.split()[1:3] == [path, "tmpfs"] for line in mounts)
    except OSError:
        return False
    return found and os.access(path, os.W_OK)


# The run's temporary files (every tmp_path: game files, spools, Maildirs) are kept in memory
# where the machine has a tmpfs at /dev/shm and TMPDIR names no other place.
# The product syncs each unit of work to disk, thousands a test in the games by mail; on a
# disk every sync waits for the device, on tmpfs it returns at once. What the tests prove is
# the same on both: they kill processes and fill file systems (the full-disk tests mount a
# tmpfs of their own), never the machine, and after a killed process what was written is in
# the page cache whatever the file system. Set first, so the workers inherit it.
if not os.environ.get("TMPDIR") and _memory_file_system("/dev/shm"):
    os.environ["TMPDIR"] = "/dev/shm"
    tempfile.tempdir = None


@pytest.fixture
def race_registered(monkeypatch):
    """Make the test game `race` installed, alongside whatever real games there are."""
    real = registry.games()
    monkeypatch.setattr(registry, "games", lambda: {**real, "race": RACE})
    return RACE


@pytest.hookimpl(optionalhook=True)  # xdist's hook: a run without xdist (-p no:xdist) never asks it
def pytest_xdist_make_scheduler(config: pytest.Config, log):  # type: ignore[no-untyped-def]
    """xdist's one-test-at-a-time handing out, but the tests of the files in `WAITING` go to
    one worker together (the first, as the largest unit of work), in the order sorted below."""
    from xdist.scheduler import LoadScopeScheduling

    class WaitingTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "waiting" if nodeid.split("::", 1)[0] in WAITING else nodeid

    return WaitingTogether(config, log)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What every test shares from here on (modules, collected tests) is never garbage."""
    gc.collect()
    gc.freeze()


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
    if getattr(config.option, "numprocesses", None):
        _compile_once(config)


def _compile_once(config: pytest.Config) -> None:
    """Before the workers start, one process collects the tests, so that the bytecode of
    every module they import (the libraries too: with a prefix Python no longer reads the
    bytecode installed beside them) and of every test module as pytest rewrites it is there
    once: the workers start at the same moment, and each compiled all of it on its own (about
    3.5 processor-seconds a worker). Its outcome does not matter: the workers collect again."""
    subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                    *config.args], cwd=config.rootpath, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)


def pytest_unconfigure(config: pytest.Config) -> None:
    for prefix in _BYTECODE:
        shutil.rmtree(prefix, ignore_errors=True)
