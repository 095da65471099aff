"""A game's file grows with the game, not with the mail its players send: its record of mail
sent is forgotten beyond the newest few and after two days, like the system outbox's, so 2,000
STATUS mails leave the file, and what each unit of work writes, as they were after the first
hundred; and nothing is sent twice for it."""

from __future__ import annotations

import email.utils
import os
from datetime import datetime, timedelta, timezone

import pytest

from mailer.daemon.wiring import build
from mailer.outbound.outbox import TABLE
from referee.config import Limits
from referee import registry
from referee.config import Limits, Settings

from ...race import GAME as RACE

HOST = "games.test"


class Relay:
    def __init__(self) -> None:
        self.ids: list[str] = []

    def deliver(self, raw, mail_from, recipients, message_id) -> None:
        self.ids.append(message_id)


@pytest.fixture
def game(tmp_path, monkeypatch):
    table = {**registry.games(), "race": RACE}
    monkeypatch.setattr(registry, "games", lambda: table)
    now = [datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)]
    svc = build(Settings(hostname=HOST, data_dir=tmp_path / "var",
                         limits=Limits(mails_per_sender_per_hour=10**9, max_spool_messages=10**9)), clock=lambda: now[0])
    svc.referee.new_game("race", [("ann", "ann@p.test"), ("bob", "bob@p.test")], game_id="g1")
    return svc, now


def status_mail(svc, token: str, n: int, now: datetime) -> None:
    to = f"g1+ann+{token}@{HOST}"
    svc.spool.add((f"Delivered-To: {to}\r\nFrom: ann@p.test\r\nTo: {to}\r\nSubject: STATUS\r\n"
                   f"Message-ID: <status{n}@p.test>\r\nDate: {email.utils.format_datetime(now)}\r\n\r\n"
                   "STATUS\r\n").encode(), durable=False)


def test_two_thousand_status_mails_leave_the_game_file_as_it_was(game, monkeypatch):
    svc, now = game
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # what is written is counted, not made durable
    token = next(s["token"] for s in svc.store.load("g1").meta["seats"] if s["name"] == "ann")
    relay = Relay()
    svc.send(relay)
    with svc.store.transaction("g1") as tx:  # bob's opening report came back: a returned mail goes too
        returned = next(r for r in tx.records(TABLE) if r["to"] == "bob@p.test")
        tx.update_record(TABLE, returned["id"], {"status": "bounced"})
    worker = svc.worker()
    sizes, written = [], []
    for batch in range(20):
        for n in range(batch * 100, batch * 100 + 100):
            status_mail(svc, token, n, now[0])
        now[0] += timedelta(minutes=1)
        svc.store.stats.reset()
        handled = worker.run_once(svc.spool)
        assert [h.outcome for h in handled] == ["command"] * 100
        svc.send(relay)
        written.append(svc.store.stats.bytes_written)
        sizes.append(svc.store.path("g1").stat().st_size)
    with svc.store.transaction("g1") as tx:
        records = tx.records(TABLE)
    assert len(records) <= Limits().sent_records_per_game and all(r["status"] == "sent" for r in records)
    assert returned["id"] not in {r["id"] for r in records}
    assert len(relay.ids) == len(set(relay.ids)) == 2000 + 2  # every answer once, and the two opening reports
    assert sizes[-1] <= sizes[1] * 1.02  # the file stopped growing once the newest were all it kept
    assert written[-1] <= written[1] * 1.05  # and so did what a pass writes
    now[0] += timedelta(days=2, minutes=1)
    svc.referee.request("g1", "ann", "status", token=token, in_reply_to=None, serial="late")
    svc.send(relay)
    with svc.store.transaction("g1") as tx:
        assert len(tx.records(TABLE)) == 1  # two days on, only the newest is remembered
