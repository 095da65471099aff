"""Mail to a player that cannot be delivered is noticed: a report of failure that comes back to
the game's address, or the relay's refusal at send time, marks the seat as bouncing (history,
`status`, `outbox`) and tells the moderator, until a later mail to it goes through. Real SMTP
on loopback for the relay, the real worker and store."""

import email
from datetime import datetime, timedelta, timezone
from email import policy
from types import SimpleNamespace

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner

from commands.main import cli
from mailer.daemon.wiring import build
from mailer.outbound.outbox import TABLE
from mailer.outbound.relay import SMTPRelay
from referee.config import Settings

from ...service.conftest import each_mail
from ..net import free_port

HOST = "games.test"
MODERATOR = "mod@admin.test"


class Relay:
    """Takes every mail but those to `refused`, which get a 550 at RCPT."""

    def __init__(self):
        self.mails, self.refused = [], set()

    async def handle_RCPT(self, server, session, envelope, address, options):
        if address in self.refused:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.mails.append(email.message_from_bytes(envelope.original_content, policy=policy.default))
        return "250 OK"

    def to(self, address):
        return [m for m in self.mails if m["To"] == address]


class Clock:
    def __init__(self):
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)

    def __call__(self):
        return self.now


@pytest.fixture
def post(tmp_path, race_registered):
    clock = Clock()
    svc = build(Settings(hostname=HOST, data_dir=tmp_path / "var", moderator_email=MODERATOR), clock=clock)
    inbox = Relay()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(), server_hostname="relay.test")
    controller.start()
    relay = SMTPRelay("127.0.0.1", controller.port, timeout=10)
    worker = svc.worker()

    def pump():
        handled = worker.run_once(svc.spool)
        report = svc.send(relay)
        return handled, report

    post = SimpleNamespace(svc=svc, clock=clock, inbox=inbox, pump=pump, data=tmp_path / "var")
    yield post
    controller.stop()


def new_game(post, bob="bob@players.test"):
    made = post.svc.referee.new_game("race", [("ann", "ann@players.test"), ("bob", bob)], seed="s",
                                     game_id="race-1")
    each_mail(post.svc.store, "race-1")  # the notice of an extension is a mail of its own
    return {s["name"]: s["token"] for s in made.players}


def records(post):
    with post.svc.store.transaction("race-1") as tx:
        return tx.records(TABLE)


def dsn(message_id, recipient="ann@players.test", report_id="<dsn-1@mx.games.test>"):
    return ("Return-Path: <>\r\nDelivered-To: race-1@games.test\r\n"
            "From: MAILER-DAEMON@mx.games.test (Mail Delivery System)\r\nTo: race-1@games.test\r\n"
            f"Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: {report_id}\r\n"
            "Auto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
            "--b\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n\r\n"
            "--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.games.test\r\n\r\n"
            f"Final-Recipient: rfc822; {recipient}\r\nAction: failed\r\nStatus: 5.1.1\r\n"
            "Diagnostic-Code: smtp; 550 5.1.1 User unknown\r\n\r\n"
            "--b\r\nContent-Type: text/rfc822-headers\r\n\r\n"
            f"From: race-1@games.test\r\nTo: {recipient}\r\nMessage-ID: {message_id}\r\n\r\n--b--\r\n").encode()


def cli_output(post, *args):
    result = CliRunner().invoke(cli, ["--data-dir", str(post.data), *args], catch_exceptions=False)
    return result.output


def test_a_report_of_failure_marks_the_seat_tells_the_moderator_and_clears_when_mail_goes_through(post):
    new_game(post)
    post.pump()
    report = next(r for r in records(post) if r["to"] == "ann@players.test" and r["status"] == "sent")
    post.clock.now += timedelta(minutes=1)
    post.svc.spool.add(dsn(report["message_id"]))
    handled, _ = post.pump()
    assert [(h.outcome, h.game, h.player) for h in handled] == [("bounce", "race-1", "ann")]
    assert handled[0].message_id == "<dsn-1@mx.games.test>"

    status = post.svc.referee.status("race-1")
    assert [(b["player"], b["email"], b["source"]) for b in status["bouncing"]] == [
        ("ann", "ann@players.test", "dsn")]
    assert "ann: mail to <ann@players.test> bounces since" in cli_output(post, "status", "race-1")
    assert "ann mail bounces" in cli_output(post, "list")  # and the game is marked as needing attention
    assert "550 5.1.1 User unknown" in cli_output(post, "status", "race-1")
    listed = cli_output(post, "outbox")
    assert "bounced" in listed and "ann@players.test" in listed and "550 5.1.1 User unknown" in listed
    history = cli_output(post, "history", "race-1")
    assert "mail to ann <ann@players.test> not delivered (returned by the mail system)" in history
    alert = post.inbox.to(MODERATOR)
    assert len(alert) == 1 and "ann" in alert[0]["Subject"]
    text = alert[0].get_content()
    assert "ann@players.test" in text and report["message_id"] in text and "referee replace race-1 ann" in text

    # the same report read again (a second copy, a retry) changes nothing and tells nobody again
    post.svc.spool.add(dsn(report["message_id"], report_id="<dsn-1-again@mx.games.test>"))
    post.pump()
    assert [e["type"] for e in post.svc.referee.history("race-1")].count("bounce") == 1
    assert len(post.inbox.to(MODERATOR)) == 1

    # a report naming another recipient than the mail's is not believed
    bob_report = next(r for r in records(post) if r["to"] == "bob@players.test")
    post.svc.spool.add(dsn(bob_report["message_id"], recipient="someone@else.test", report_id="<dsn-2@x.test>"))
    post.pump()
    assert [b["player"] for b in post.svc.referee.status("race-1")["bouncing"]] == ["ann"]

    # a mail queued after the failure goes through: the seat is no longer marked
    post.clock.now += timedelta(minutes=1)
    post.svc.referee.extend("race-1", "1d", "a test")
    post.pump()
    assert post.svc.referee.status("race-1")["bouncing"] == []
    assert "mail to ann <ann@players.test> goes through again" in cli_output(post, "history", "race-1")
    assert "bounces" not in cli_output(post, "status", "race-1")
    assert "bounces" not in cli_output(post, "list")


def test_a_relay_refusal_at_send_time_is_handled_the_same(post, caplog):
    post.inbox.refused.add("gone@players.test")
    new_game(post, bob="gone@players.test")
    _, report = post.pump()
    failed = [r for r in records(post) if r["to"] == "gone@players.test"]
    assert failed and all(r["status"] == "failed" for r in failed)
    summary = report.summary()
    assert f"{failed[0]['message_id']} to <gone@players.test> failed: 550" in summary
    status = post.svc.referee.status("race-1")
    assert [(b["player"], b["source"]) for b in status["bouncing"]] == [("bob", "relay")]
    assert "User unknown" in status["bouncing"][0]["why"]
    post.pump()  # the alert queued when the failure was recorded goes out
    alert = post.inbox.to(MODERATOR)
    assert len(alert) == 1 and "gone@players.test" in alert[0].get_content()
    assert "refused it when it was handed over" in " ".join(alert[0].get_content().split())
    assert "mail to bob <gone@players.test> not delivered (refused by the relay)" in cli_output(
        post, "history", "race-1")


def test_mail_from_the_null_sender_is_never_read_as_orders_however_the_mta_writes_it(post):
    tokens = new_game(post)
    post.pump()
    for n, envelope in enumerate(("<>", "<MAILER-DAEMON>")):
        raw = (f"Return-Path: {envelope}\r\nDelivered-To: race-1+ann+{tokens['ann']}@games.test\r\n"
               f"From: ann@players.test\r\nTo: race-1+ann+{tokens['ann']}@games.test\r\nSubject: orders\r\n"
               f"Message-ID: <null-{n}@players.test>\r\n\r\nADD 1\r\n").encode()
        post.svc.spool.add(raw)
    handled, _ = post.pump()
    assert [h.outcome for h in handled] == ["ignored", "ignored"]
    assert not [e for e in post.svc.referee.history("race-1") if e["type"] == "order"]
