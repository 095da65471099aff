"""A data directory with the whole service, and tournaments finished quickly: every game
is closed phase by phase with default orders (`Referee.adjudicate`), as a moderator would."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from mailer.daemon.wiring import build
from referee.config import Settings
from referee.timekeeping import StepClock
from referee.tournament.roster import Entry

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
