"""The wake index: a tick opens only the games whose next possible deadline event has come,
and never misses one."""

import os

import pytest

from referee.wakeups import WakeIndex

from .conftest import race


def opened_by_tick(svc, monkeypatch) -> list[str]:
    """The games a tick looks into."""
    seen: list[str] = []
    real = svc.referee._tick_game

    def spy(game_id, now):
        seen.append(game_id)
        return real(game_id, now)

    monkeypatch.setattr(svc.referee, "_tick_game", spy)
    svc.tick()
    monkeypatch.setattr(svc.referee, "_tick_game", real)
    return seen


def test_a_tick_opens_only_games_whose_time_has_come(svc, clock, monkeypatch):
    # standard policy: a 2d deadline with reminders 24h and 2h before it
    for n in range(5):
        race(svc, game_id=f"race-{n}")
    clock.advance(hours=12)
    race(svc, game_id="race-late")  # its deadline is 12 hours later than the others'
    assert opened_by_tick(svc, monkeypatch) == []
    clock.advance(hours=12)  # 24h before the first five deadlines: their first reminder
    assert sorted(opened_by_tick(svc, monkeypatch)) == [f"race-{n}" for n in range(5)]
    assert [a.action for a in svc.tick()] == []  # the reminders went with the first tick
    clock.advance(hours=12)
    assert "race-late" in opened_by_tick(svc, monkeypatch)


def test_the_wake_time_is_never_later_than_the_first_reminder(svc, clock):
    race(svc, game_id="race-1")
    wake = svc.store.wakeups.get("race-1")
    assert wake == (clock.now.timestamp() + 48 * 3600 - 24 * 3600)
    # without reminders, the deadline itself
    race(svc, game_id="race-2", sets=["reminders=none"])
    assert svc.store.wakeups.get("race-2") == clock.now.timestamp() + 48 * 3600


def test_a_paused_game_sleeps_until_it_resumes(svc, clock, monkeypatch):
    race(svc, game_id="race-1")
    svc.referee.pause("race-1", "holidays")
    assert svc.store.wakeups.get("race-1") > clock.now.timestamp() + 10 * 365 * 86400  # NEVER, or the disk's latest
    clock.advance(days=3)
    assert opened_by_tick(svc, monkeypatch) == []
    svc.referee.resume("race-1")
    assert svc.store.wakeups.get("race-1") <= clock.now.timestamp() + 48 * 3600


def test_a_game_without_a_wake_time_is_always_looked_at(svc, clock, monkeypatch):
    race(svc, game_id="race-1")
    os.unlink(svc.store.wakeups.dir / "race-1")
    assert opened_by_tick(svc, monkeypatch) == ["race-1"]


def test_a_failed_unit_of_work_leaves_the_wake_time_alone(svc, clock):
    race(svc, game_id="race-1")
    before = svc.store.wakeups.get("race-1")
    with pytest.raises(RuntimeError):
        with svc.store.transaction("race-1") as tx:
            tx.set_meta(paused={"since": "x", "reason": "y"})
            raise RuntimeError("the unit of work fails")
    assert svc.store.wakeups.get("race-1") == before


def test_lowering_only_ever_moves_the_time_earlier(tmp_path):
    index = WakeIndex(tmp_path / "wake")
    index.lower("g", 1000.0)
    assert index.get("g") == 1000.0
    index.lower("g", 2000.0)
    assert index.get("g") == 1000.0
    index.lower("g", 500.0)
    assert index.get("g") == 500.0
    index.set("g", 2000.0)
    assert index.due(1999.0) == {"g": False} and index.due(2000.0) == {"g": True}
