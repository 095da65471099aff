"""A data directory with the whole service, and tournaments finished quickly: every game
is closed phase by phase with default orders (`Referee.adjudicate`), as a moderator would."""

from __future__ import annotations

import os
import pickle
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, TypeVar

import pytest
from filelock import FileLock

from mailer.daemon.wiring import build
from referee.config import Settings
from referee.timekeeping import StepClock
from referee.tournament.roster import Entry

T = TypeVar("T")

NAMES = ["ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea"]


def Clock() -> StepClock:
    """Moves a minute each time it is read."""
    return StepClock(datetime(2026, 5, 1, 9, 0, tzinfo=timezone.utc))


def make_services(data_dir):
    return build(Settings(hostname="games.test", data_dir=data_dir), clock=Clock())


def roster(count: int) -> list[Entry]:
    return [Entry(name, f"{name}@club.test") for name in NAMES[:count]]


def finish(svc, game_id: str) -> None:
    """Play a game to its end with default orders."""
    if svc.referee.load(game_id).meta["status"] == "finished":
        return
    for _ in range(2000):
        if svc.referee.adjudicate(game_id).finished:
            return
    raise AssertionError(f"{game_id} did not end")


def finish_round(svc, name: str) -> None:
    t = svc.tournaments.tournament(name)
    for table in t.current.tables:
        finish(svc, table.game)


@pytest.fixture
def svc(tmp_path):
    return make_services(tmp_path / "data")


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]) -> T:
    """`make(folder)` run once for the whole test run, whatever the number of test processes:
    the first process to ask makes it in a folder all of the run's processes share (under a
    file lock, which the others wait on) and keeps what it gave, pickled, beside it; the
    others take that. For fixtures the tests only read. Without xdist a module fixture is
    made once anyway, so it is simply made in a folder of its own."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return make(tmp_path_factory.mktemp(name))
    shared = tmp_path_factory.getbasetemp().parent / f"shared-{name}"  # the run's folder, not a worker's
    made = shared.with_name(f"{shared.name}.made")
    with FileLock(f"{shared}.lock"):
        if not made.exists():
            shutil.rmtree(shared, ignore_errors=True)  # a maker that failed in another process
            shared.mkdir()
            result = make(shared)
            made.write_bytes(pickle.dumps(result))
            return result
    return pickle.loads(made.read_bytes())
