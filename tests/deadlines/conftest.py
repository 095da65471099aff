"""Fixtures for deadline tests: a clock that moves only when told, and the whole service
(store, outbox, notifier, worker) on a data directory in tmp_path."""

from __future__ import annotations

import email
from datetime import datetime, timedelta, timezone
from email import policy as email_policy

import pytest
from click.testing import CliRunner

from commands.main import cli
from mailer.daemon.wiring import build
from referee.config import Settings

from ..service.conftest import each_mail, games  # noqa: F401  (the race and simul test games)

HOST = "games.test"
START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)  # a Monday


class ManualClock:
    """Stands still until a test moves it, so every moment in a test is exact."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    def set(self, moment: datetime) -> datetime:
        self.now = moment
        return self.now


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def svc(tmp_path, clock, games):  # noqa: F811
    settings = Settings(hostname=HOST, data_dir=tmp_path / "var", moderator_email="mod@club.test")
    return build(settings, clock=clock)


@pytest.fixture
def cli_run(tmp_path, games):  # noqa: F811
    """Invoke the CLI on a data directory in tmp_path with a clock that stands still
    (`cli_run.clock`, `cli_run.data`)."""
    clock = ManualClock()
    data = tmp_path / "var"
    runner = CliRunner()

    def run(*args):
        return runner.invoke(cli, ["--data-dir", str(data), *args], obj={"clock": clock}, catch_exceptions=False)

    run.clock, run.data = clock, data
    return run


def mails(svc, to: str | None = None, kind: str | None = None, game: str | None = None):
    """Every mail the referee queued (sent or not), oldest first, parsed; filtered by
    recipient, outbox kind and game."""
    rows = svc.outbox.pending(include_sent=True) + svc.system_outbox.pending(include_sent=True)
    rows.sort(key=lambda r: (r["created_at"], r["game"], r["id"]))
    out = []
    for r in rows:
        if (to and r["to"] != to) or (kind and r["kind"] != kind) or (game and r["game"] != game):
            continue
        msg = email.message_from_bytes(r["raw"].encode("utf-8", "surrogateescape"), policy=email_policy.default)
        msg.kind = r["kind"]
        out.append(msg)
    return out


def text(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def flat(msg) -> str:
    """The mail's text with its lines joined: a report wraps its paragraphs at 78 columns."""
    return " ".join(text(msg).split())


def events(svc, game_id: str, kind: str | None = None):
    return [e for e in svc.store.load(game_id).events if kind is None or e["type"] == kind]


def each(svc, game_id: str) -> None:
    """These tests read each notice, reminder and report as a mail of its own."""
    each_mail(svc.store, game_id)


def race(svc, game_id="race-1", players=("ann", "bob"), policy="standard", sets=(), target="21", notify="each"):
    made = svc.referee.new_game("race", [(p, f"{p}@players.test") for p in players], seed="s",
                                options={"target": target}, game_id=game_id, policy=policy, policy_set=list(sets))
    if notify == "each":
        each(svc, game_id)
    return {p["name"]: p["token"] for p in made.players}


def simul(svc, game_id="simul-1", players=("ann", "bob", "cid"), policy="standard", sets=(), rounds="2",
          notify="each"):
    made = svc.referee.new_game("simul", [(p, f"{p}@players.test") for p in players], seed="s",
                                options={"rounds": rounds}, game_id=game_id, policy=policy, policy_set=list(sets))
    if notify == "each":
        each(svc, game_id)
    return {p["name"]: p["token"] for p in made.players}
