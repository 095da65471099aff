"""A game played by mail through real servers on loopback: smtplib → aiosmtpd ingest → spool
→ worker → service → outbox → a second aiosmtpd acting as the relay."""

import email
import smtplib
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from types import SimpleNamespace

import pytest
from aiosmtpd.controller import Controller

from mailer.daemon.worker import MailWorker
from mailer.inbound.smtp_server import IngestHandler, make_controller
from mailer.inbound.spool import Spool
from mailer.outbound.notifier import MailNotifier
from mailer.outbound.outbox import Outbox
from mailer.outbound.relay import SMTPRelay
from mailer.outbound.sending import deliver
from referee.config import Settings
from referee.service import Referee
from referee.store import TinyDBStore

from ...race import GAME
from ...service.conftest import each_mail

HOST = "games.test"
NOW = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)

from ..net import free_port


class Inbox:
    """The relay: collects what the referee sends, per recipient."""

    def __init__(self):
        self.mails = []

    async def handle_DATA(self, server, session, envelope):
        self.mails.append(email.message_from_bytes(envelope.original_content, policy=policy.default))
        return "250 OK"

    def to(self, address):
        return [m for m in self.mails if m["To"] == address]


@pytest.fixture
def world(tmp_path):
    settings = Settings(hostname=HOST, data_dir=tmp_path)
    store = TinyDBStore(tmp_path / "data")
    outbox = Outbox(store, tmp_path / "data" / "outbox-pending")
    system = TinyDBStore(tmp_path / "system")
    system_outbox = Outbox(system, tmp_path / "system" / "outbox-pending")
    notifier = MailNotifier(settings, lambda: NOW, outbox, system_outbox)
    referee = Referee(store, clock=lambda: NOW, games=lambda name: GAME, notifier=notifier)
    spool = Spool(tmp_path / "spool")

    def known(address):
        local, _, domain = address.lower().rpartition("@")
        game = local.split("+")[0]
        return domain == HOST and (store.exists(game) if game and game[0].isalnum() else False)

    ingest = make_controller(IngestHandler(spool, settings, known), settings, port=free_port())
    inbox = Inbox()
    relay_ctl = Controller(inbox, hostname="127.0.0.1", port=free_port(), server_hostname="relay.test")
    ingest.start()
    relay_ctl.start()
    relay = SMTPRelay("127.0.0.1", relay_ctl.port, timeout=5)
    worker = MailWorker(referee, notifier, settings)

    w = SimpleNamespace(**locals())
    created = referee.new_game

    def new_game(*args, **kwargs):
        """A game whose players chose NOTIFY each: these tests read every receipt as a mail."""
        made = created(*args, **kwargs)
        each_mail(store, made.id)
        return made

    w.referee.new_game = new_game

    def send(frm, to, body, subject="orders", in_reply_to=None, extra=None):
        msg = EmailMessage()
        msg["From"] = frm
        msg["To"] = to
        msg["Subject"] = subject
        msg["Message-ID"] = email.utils.make_msgid(domain="players.test")
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
        for k, v in (extra or {}).items():
            msg[k] = v
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", ingest.port, timeout=10) as smtp:
            smtp.send_message(msg)
        return msg["Message-ID"]

    def pump():
        handled = worker.run_once(spool)
        deliver(outbox, relay, NOW)
        deliver(system_outbox, relay, NOW)
        return handled

    w.send, w.pump = send, pump
    yield w
    ingest.stop()
    relay_ctl.stop()


def reply_to(mail):
    return mail["Reply-To"]


def test_a_game_played_by_mail_to_the_end(world):
    created = world.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                                     seed="mail-seed", options={"target": "5"}, game_id="race-1")
    world.pump()
    first = world.inbox.to("ann@players.test")[-1]
    assert first["Subject"].startswith("[race-1] Your move: round 0, add")  # it asks ann for orders
    assert "ORDERS race-1 t0" in first.get_body(("plain",)).get_content()
    assert first["List-Id"] == "race-1 <race-1.games.test>" and first["Auto-Submitted"] == "auto-generated"
    turn = 0
    while True:
        status = world.referee.status("race-1")
        if status["result"]:
            break
        player = status["waiting_for"][0]["player"]
        report = world.inbox.to(f"{player}@players.test")[-1]
        body = report.get_body(("plain",)).get_content()
        block = body[body.index("ORDERS race-1"):body.index("\nEND") + 4].replace("# ADD 2", "ADD 2")
        reply = f"{block}\n\nOn Sat, someone wrote:\n> ORDERS race-1 t0\n> ADD 3\n> END\n"
        world.send(f"{player}@players.test", reply_to(report), reply, subject="Re: " + report["Subject"],
                   in_reply_to=report["Message-ID"])
        handled = world.pump()
        assert [h.outcome for h in handled] == ["accepted"], (handled, world.inbox.to(f"{player}@players.test")[-1].get_body(("plain",)).get_content())
        receipt = world.inbox.to(f"{player}@players.test")[-2]
        assert receipt["Subject"] == "[race-1] Orders received: accepted"
        assert "ADD 2" in receipt.get_body(("plain",)).get_content()
        assert receipt["Auto-Submitted"] == "auto-replied"
        turn += 1
        assert turn < 10
    assert world.referee.status("race-1")["result"]["winners"] == ["ann"]  # 2 + 2 + 2 reaches 5 on ann's turn
    final = world.inbox.to("ann@players.test")[-1]
    assert final["Subject"] == "[race-1] Game over"


def test_bad_orders_get_a_receipt_with_line_and_class_and_change_nothing(world):
    world.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                           seed="s", game_id="race-2")
    world.pump()
    before = world.store.path("race-2").read_bytes()
    report = world.inbox.to("ann@players.test")[-1]
    world.send("ann@players.test", reply_to(report), "ORDERS race-2 t0\nADD 7\nEND\n")
    assert [h.outcome for h in world.pump()] == ["rejected"]
    assert world.store.path("race-2").read_bytes() == before
    text = world.inbox.to("ann@players.test")[-1].get_body(("plain",)).get_content()
    assert "NOT accepted" in text and "[illegal]" in text and "line 1" in text


def test_strangers_wrong_tokens_and_robots(world):
    world.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                           seed="s", game_id="race-3")
    world.pump()
    before = world.store.load("race-3")
    world.send("eve@evil.test", "race-3+ann+wrongtoken@games.test", "ADD 1\n")
    world.send("eve@evil.test", "race-3@games.test", "ADD 1\n")
    world.send("eve@evil.test", "race-3@games.test", "PLAYER ann nottoken\nADD 1\n")
    assert [h.outcome for h in world.pump()] == ["refused", "unmatched", "refused"]
    assert world.inbox.to("eve@evil.test") == []  # in no game: never answered, so never a victim of backscatter
    # a player's address is answered, once in the hour however often it writes (bob's mail to
    # the plain address of his own game is told his reply address, tests/mailer/daemon/test_loops_and_copies.py)
    world.send("bob@players.test", "race-3+ann+wrongtoken@games.test", "ADD 1\n")
    world.send("bob@players.test", "race-3@games.test", "ADD 1\n")
    world.send("bob@players.test", "race-3@games.test", "PLAYER ann nottoken\nADD 1\n")
    assert [h.outcome for h in world.pump()] == ["refused", "refused", "refused"]
    refusals = [m for m in world.inbox.to("bob@players.test") if m["Subject"] == "Your mail to the referee"]
    assert len(refusals) == 1
    for mail in refusals:
        text = mail.get_body(("plain",)).get_content()
        assert "race-3" not in text and "ann" not in text.lower().replace("cannot", "")
    world.send("MAILER-DAEMON@mx.test", "race-3@games.test", "bounce", extra={"Auto-Submitted": "auto-replied"})
    world.send("race-3@games.test", "race-3@games.test", "our own report coming back")
    assert [h.outcome for h in world.pump()] == ["ignored", "ignored"]
    after = world.store.load("race-3")
    assert (after.events, after.state) == (before.events, before.state)


def test_the_plain_game_address_with_a_player_line(world):
    created = world.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                                     seed="s", game_id="race-4")
    token = next(s["token"] for s in created.players if s["name"] == "ann")
    world.send("ann@elsewhere.test", "race-4@games.test", f"PLAYER ann {token}\nADD 1\n")
    assert [h.outcome for h in world.pump()] == ["accepted"]
    # the receipt goes to the registered address, not to whoever wrote From
    assert world.inbox.to("ann@elsewhere.test") == []


def test_a_reply_to_a_closed_phase_is_refused_naming_the_open_one(world):
    world.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                           seed="s", game_id="race-5")
    world.pump()
    report = world.inbox.to("ann@players.test")[-1]
    world.send("ann@players.test", reply_to(report), "ORDERS race-5 t0\nADD 1\nEND\n")
    world.pump()
    bob_report = world.inbox.to("bob@players.test")[-1]
    world.send("bob@players.test", reply_to(bob_report), "ORDERS race-5 t1\nADD 1\nEND\n")
    world.pump()
    world.send("ann@players.test", reply_to(report), "ORDERS race-5 t0\nADD 2\nEND\n")
    assert [h.outcome for h in world.pump()] == ["refused"]
    text = world.inbox.to("ann@players.test")[-1].get_body(("plain",)).get_content()
    assert "phase t0" in text and "not open" in text and "phase t2" in text


def test_the_same_mail_twice_is_processed_once(world):
    world.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                           seed="s", game_id="race-6")
    world.pump()
    report = world.inbox.to("ann@players.test")[-1]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@players.test", reply_to(report), "orders"
    msg["Message-ID"] = "<once@players.test>"
    msg.set_content("ADD 1\n")
    for _ in range(2):
        with smtplib.SMTP("127.0.0.1", world.ingest.port, timeout=10) as smtp:
            smtp.send_message(msg)
    assert [h.outcome for h in world.pump()] == ["accepted", "duplicate"]
    assert len([e for e in world.store.load("race-6").events if e["type"] == "order"]) == 1


HOSTILE = {
    "header injection in subject": b"From: ann@players.test\r\nTo: {to}\r\nSubject: =?utf-8?q?x=0D=0ABcc:_evil@evil.test?=\r\nMessage-ID: <h1@p>\r\n\r\nADD 9\r\n",
    "8-bit garbage body": b"From: ann@players.test\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <h2@p>\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\n\xff\xfe\x00\x81ADD\x00 1\xc3\x28\r\n",
    "empty body": b"From: ann@players.test\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <h3@p>\r\n\r\n",
    "giant line": b"From: ann@players.test\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <h4@p>\r\n\r\n" + b"ADD " + b"9" * 900 + b"\r\n",
    "no headers at all": b"\r\n\r\nADD 1\r\n",
    "broken multipart": b"From: ann@players.test\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <h5@p>\r\nContent-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\nContent-Type: text/plain\r\n\r\nADD 7\r\n--z",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_mail_changes_no_game_and_gets_a_clear_result(world, name):
    created = world.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                                     seed="s", game_id="race-9")
    world.pump()
    token = next(p["token"] for p in created.players if p["name"] == "ann")
    before = world.store.path("race-9").read_bytes()
    raw = HOSTILE[name].replace(b"{to}", f"race-9+ann+{token}@games.test".encode())
    handled = world.worker.handle(b"Delivered-To: race-9+ann+" + token.encode() + b"@games.test\r\n" + raw)
    assert handled.outcome in {"rejected", "ignored", "unmatched", "refused"}, handled
    assert world.store.path("race-9").read_bytes() == before
    world.pump()
    for mail in world.inbox.mails:
        for header in ("Subject", "To", "Bcc", "Cc"):
            assert "evil" not in str(mail.get(header, ""))


def _two_player_race(world, game_id):
    made = world.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                                  seed="runs", game_id=game_id)
    world.pump()
    return {s["name"]: f"{game_id}+{s['name']}+{s['token']}@{HOST}" for s in made.players}


def _orders_logged(world, game_id):
    return [(e["player"], e["text"]) for e in world.store.load(game_id).events if e["type"] == "order"]


def test_a_run_of_orders_to_one_game_is_one_unit_of_work(world):
    to = _two_player_race(world, "race-20")
    world.send("ann@players.test", to["ann"], "ADD 1\n")
    world.send("bob@players.test", to["bob"], "ADD 2\n")
    world.send("ann@players.test", to["ann"], "ADD 3\n")
    world.store.stats.reset()
    assert [h.outcome for h in world.worker.run_once(world.spool)] == ["accepted"] * 3
    assert world.store.stats.files_written == 1  # the game's file, once for all three
    assert _orders_logged(world, "race-20") == [("ann", "ADD 1"), ("bob", "ADD 2"), ("ann", "ADD 3")]


def test_a_games_mail_is_taken_in_arrival_order_around_commands(world):
    to = _two_player_race(world, "race-21")
    world.send("bob@players.test", to["bob"], "ADD 2\n")  # not bob's turn yet: rejected
    world.send("ann@players.test", to["ann"], "ADD 1\n")
    asked = world.send("bob@players.test", to["bob"], "STATUS\n")  # answered after ann's order
    world.send("bob@players.test", to["bob"], "ADD 2\n")
    assert [h.outcome for h in world.pump()] == ["refused", "accepted", "command", "accepted"]
    assert _orders_logged(world, "race-21") == [("ann", "ADD 1"), ("bob", "ADD 2")]
    (status,) = [m for m in world.inbox.to("bob@players.test") if m["In-Reply-To"] == asked]
    assert "ORDERS race-21 t1" in status.get_body(("plain",)).get_content()  # bob's turn, not ann's


def test_a_mail_that_breaks_its_run_is_set_aside_and_the_others_go_through(world, monkeypatch):
    to = _two_player_race(world, "race-22")
    real = world.referee._submit_in

    def fragile(tx, game_id, sub, *rest):
        if "ADD 2" in sub.text:
            raise RuntimeError("a bug met by this mail only")
        return real(tx, game_id, sub, *rest)

    monkeypatch.setattr(world.referee, "_submit_in", fragile)
    world.send("ann@players.test", to["ann"], "ADD 1\n")
    world.send("bob@players.test", to["bob"], "ADD 2\n")
    world.send("bob@players.test", to["bob"], "ADD 3\n")
    assert [h.outcome for h in world.worker.run_once(world.spool)] == ["accepted", "error", "accepted"]
    assert _orders_logged(world, "race-22") == [("ann", "ADD 1"), ("bob", "ADD 3")]
    assert len([p for p in (world.spool.root / "cur").iterdir() if p.name.endswith(",E")]) == 1


def test_several_games_are_worked_on_at_once_each_in_its_order(world):
    games = {f"race-3{n}": _two_player_race(world, f"race-3{n}") for n in range(6)}
    for round_ in range(2):
        for game_id, to in games.items():
            world.send("ann@players.test", to["ann"], f"ADD {round_ + 1}\n")
            world.send("bob@players.test", to["bob"], f"ADD {round_ + 2}\n")
    world.worker.parallel = 4
    assert [h.outcome for h in world.pump()] == ["accepted"] * 24
    for game_id in games:
        assert _orders_logged(world, game_id) == [("ann", "ADD 1"), ("bob", "ADD 2"), ("ann", "ADD 2"), ("bob", "ADD 3")]
    assert len([m for m in world.inbox.mails if "Orders received" in m["Subject"]]) == 24
