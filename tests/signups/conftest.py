"""A data directory wired as the daemon wires it, with the test games and a fixed clock; and
mail fed to the worker the way the SMTP server spools it."""

from __future__ import annotations

import email.utils
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from types import SimpleNamespace

import pytest

from mailer.daemon.wiring import build
from referee import registry
from referee.config import Settings

from ..race import GAME as RACE
from ..service.simul import GAME as SIMUL

HOST = "games.test"


class Clock:
    """A clock that stands still until moved."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def move(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def world(tmp_path, monkeypatch):
    table = {**registry.games(), "race": RACE, "simul": SIMUL}
    monkeypatch.setattr(registry, "games", lambda: table)
    clock = Clock()
    svc = build(Settings(hostname=HOST, data_dir=tmp_path / "var"), clock=clock)
    worker = svc.worker()
    counter = iter(range(10**6))

    def mail(frm: str, body: str, to: str = f"referee@{HOST}", subject: str = "hello",
             headers: dict[str, str] | None = None) -> str:
        """Spool one mail as the SMTP server does (Delivered-To on top), process the spool;
        the mail's Message-ID. The clock moves a second first, so the answers sort after
        everything sent before."""
        clock.move(seconds=1)
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = frm, to, subject
        mid = msg["Message-ID"] = f"<m{next(counter)}@players.test>"
        msg["Date"] = email.utils.format_datetime(clock.now)
        msg.set_content(body)
        for name, value in (headers or {}).items():  # after the content: it clears Content-*
            msg[name] = value
        svc.spool.add(f"Delivered-To: {to}\r\n".encode() + bytes(msg))
        worker.run_once(svc.spool)
        return mid

    def sent(to: str | None = None) -> list[EmailMessage]:
        """Every mail queued in both outboxes, oldest first, parsed."""
        rows = svc.outbox.pending(include_sent=True) + svc.system_outbox.pending(include_sent=True)
        rows.sort(key=lambda r: r["created_at"])
        out = [email.message_from_string(r["raw"], policy=email.policy.default) for r in rows if r.get("raw")]
        return [m for m in out if to is None or m["To"] == to]

    return SimpleNamespace(svc=svc, ref=svc.referee, clock=clock, mail=mail, sent=sent, worker=worker)


def confirmation_code(world, address: str) -> str:
    """The one-time code of the latest confirmation mail sent to `address`."""
    codes = [m["Reply-To"].split("@")[0].split("+")[1] for m in world.sent(address)
             if (m["Reply-To"] or "").startswith("referee+")]
    assert codes, f"no confirmation mail to {address}"
    return codes[-1]
