"""Mail that matches no seat: a stranger gets no answer, a player's address at most one an
hour, and the record of refusals stays small however many there are. Real SMTP on loopback
into the real worker and store, answers through a real relay."""

import email
import json
import smtplib
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from types import SimpleNamespace

import pytest
from aiosmtpd.controller import Controller

from mailer.daemon.wiring import build
from mailer.inbound.smtp_server import IngestHandler, make_controller
from mailer.outbound.relay import SMTPRelay
from referee.config import Settings

from ..net import free_port
from .test_play_by_mail import Inbox as PlayersInbox

HOST = "games.test"
REFUSAL_SUBJECT = "Your mail to the referee"


class Clock:
    def __init__(self):
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)

    def __call__(self):
        return self.now


class Inbox(PlayersInbox):
    def refusals(self, to=None):
        return [m for m in self.mails if m["Subject"] == REFUSAL_SUBJECT and (to is None or m["To"] == to)]


@pytest.fixture
def post(tmp_path, race_registered):
    clock = Clock()
    svc = build(Settings(hostname=HOST, data_dir=tmp_path / "var"), clock=clock)
    made = svc.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")], seed="s",
                                game_id="race-1")
    svc.referee.set_notify("race-1", "ann", "each")  # her receipts come as mails of their own
    ingest = make_controller(IngestHandler(svc.spool, svc.settings, svc.known_address), svc.settings, port=free_port())
    inbox = Inbox()
    relay = Controller(inbox, hostname="127.0.0.1", port=free_port(), server_hostname="relay.test")
    ingest.start()
    relay.start()
    worker = svc.worker()

    def send(frm, to, body="ADD 1\n"):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = frm, to, "orders"
        msg["Message-ID"] = email.utils.make_msgid(domain="players.test")
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", ingest.port, timeout=10) as smtp:
            smtp.send_message(msg)

    def pump():
        handled = worker.run_once(svc.spool)
        svc.send(SMTPRelay("127.0.0.1", relay.port, timeout=10))
        return handled

    pump()  # the opening reports
    yield SimpleNamespace(svc=svc, clock=clock, send=send, pump=pump, inbox=inbox, worker=worker,
                          tokens={s["name"]: s["token"] for s in made.players})
    ingest.stop()
    relay.stop()


def test_a_stranger_gets_no_answer_at_all(post):
    for to in ("race-1@games.test", "race-1+ann+wrongtoken@games.test", "race-1+nobody+abc@games.test"):
        post.send("victim@elsewhere.test", to)
    handled = post.pump()
    assert [h.outcome for h in handled] == ["unmatched", "refused", "refused"]
    assert all("the sender is in no game" in h.detail for h in handled)
    assert post.inbox.refusals() == []
    (day,) = post.worker.refusals.days().values()
    assert day == {"strangers": 3, "senders": {}}


def test_a_players_address_gets_one_refusal_an_hour(post):
    for _ in range(5):  # forged in ann's name, or ann with an old token: the same to us
        post.send("ann@players.test", "race-1+ann+wrongtoken@games.test")
    post.pump()
    assert len(post.inbox.refusals("ann@players.test")) == 1
    post.clock.now += timedelta(minutes=59)
    post.send("Ann@Players.test", "race-1+nobody+abc@games.test")
    post.pump()
    assert len(post.inbox.refusals()) == 1
    post.clock.now += timedelta(minutes=2)
    post.send("ann@players.test", "race-1+nobody+abc@games.test")
    post.pump()
    assert len(post.inbox.refusals("ann@players.test")) == 2
    (day,) = post.worker.refusals.days().values()
    assert day["senders"]["ann@players.test"]["refused"] == 7
    assert day["senders"]["ann@players.test"]["answered"] == 2


def test_orders_with_the_right_token_are_still_answered_in_full(post):
    post.send("ann@players.test", f"race-1+ann+{post.tokens['ann']}@games.test")
    assert [h.outcome for h in post.pump()] == ["accepted"]
    assert any(m["Subject"].startswith("[race-1] Orders received") for m in post.inbox.mails)


def test_the_refusal_record_and_the_system_outbox_stay_small(post):
    """2,400 forged mails, half in a player's name and half from as many made-up strangers:
    one refusal goes out, and neither file grows with the number of mails after the first
    hundred (so neither does the cost of the next mail)."""
    svc = post.svc
    postmaster = svc.system_outbox.store.path("postmaster")
    record = svc.system_outbox.store.root / "refusals.json"

    def flood(start, count):
        for n in range(start, start + count):
            sender = "bob@players.test" if n % 2 else f"stranger{n}@elsewhere.test"
            raw = (f"Return-Path: <{sender}>\r\nDelivered-To: race-1+ann+guess{n}@games.test\r\n"
                   f"From: {sender}\r\nTo: race-1+ann+guess{n}@games.test\r\nSubject: orders\r\n"
                   f"Message-ID: <forged{n}@elsewhere.test>\r\n\r\nADD 1\r\n").encode()
            svc.spool.add(raw, durable=False)
        post.pump()

    flood(0, 100)
    sizes = (postmaster.stat().st_size, record.stat().st_size)
    flood(100, 2300)
    assert len(post.inbox.refusals()) == 1
    assert postmaster.stat().st_size == sizes[0]
    assert record.stat().st_size <= sizes[1] + 8  # the counts have more digits
    (day,) = json.loads(record.read_text())["days"].values()
    assert day["strangers"] == 1200 and day["senders"]["bob@players.test"]["refused"] == 1200


def test_the_system_outbox_forgets_what_it_sent_two_days_ago(post):
    svc = post.svc
    post.send("bob@players.test", "race-1+bob+wrongtoken@games.test")
    post.pump()
    with svc.system_outbox.store.transaction("postmaster") as tx:
        assert [r["status"] for r in tx.records("outbox")] == ["sent"]
    post.clock.now += timedelta(days=3)
    post.send("ann@players.test", "race-1+ann+wrongtoken@games.test")
    post.pump()
    with svc.system_outbox.store.transaction("postmaster") as tx:
        assert [r["to"] for r in tx.records("outbox")] == ["ann@players.test"]
