"""STATUS, HELP, VACATION and TIMEZONE by real mail: smtplib → aiosmtpd ingest → spool →
worker → service → outbox → a second aiosmtpd as the relay. Also late orders by mail."""

import email
import smtplib
from email.message import EmailMessage
from types import SimpleNamespace

import pytest
from aiosmtpd.controller import Controller

from mailer.daemon.mail_commands import mail_command
from mailer.inbound.message import parse_message
from mailer.inbound.smtp_server import IngestHandler, make_controller
from mailer.outbound.relay import SMTPRelay
from referee.service import PressRequest, Talk

from ..mailer.net import free_port
from ..mailer.daemon.test_play_by_mail import Inbox  # the capturing relay
from .conftest import HOST, events, race, simul


@pytest.fixture
def post(svc, clock):
    ingest = make_controller(IngestHandler(svc.spool, svc.settings, svc.known_address), svc.settings, port=free_port())
    inbox = Inbox()
    relay_ctl = Controller(inbox, hostname="127.0.0.1", port=free_port(), server_hostname="relay.test")
    ingest.start()
    relay_ctl.start()
    relay = SMTPRelay("127.0.0.1", relay_ctl.port, timeout=5)
    worker = svc.worker()

    def send(frm, to, body, subject="orders", mid=None):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = frm, to, subject
        msg["Message-ID"] = mid or email.utils.make_msgid(domain="players.test")
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", ingest.port, timeout=10) as smtp:
            smtp.send_message(msg)
        return msg["Message-ID"]

    def pump():
        handled = worker.run_once(svc.spool)
        svc.send(relay)
        return [(h.outcome, h.detail) for h in handled]

    def last(to, subject=None):
        """The last mail to `to` (with this subject: mail of several games and the system
        outbox goes out in turns, not one outbox after the other)."""
        mail = [m for m in inbox.to(to) if subject is None or m["Subject"] == subject][-1]
        return mail, mail.get_body(("plain",)).get_content().replace("\r\n", "\n")

    yield SimpleNamespace(send=send, pump=pump, inbox=inbox, last=last)
    ingest.stop()
    relay_ctl.stop()


def address(tokens, player, game="race-1"):
    return f"{game}+{player}+{tokens[player]}@{HOST}"


def test_commands_are_recognised_only_alone_and_without_an_orders_block():
    def cmd(subject, body):
        raw = f"From: a@p.test\r\nTo: g@x\r\nSubject: {subject}\r\nMessage-ID: <1@p>\r\n\r\n{body}".encode()
        return mail_command(parse_message(raw))

    assert cmd("x", "STATUS\r\n") == ("STATUS", "")
    assert cmd("Re: [race-1] STATUS", "") == ("STATUS", "")
    assert cmd("help", "\r\n") == ("HELP", "")
    assert cmd("x", "HISTORY\r\n") == ("HISTORY", "") and cmd("Verlauf", "") == ("HISTORY", "")
    assert cmd("x", "vacation 5d\r\n-- \r\nAnn\r\n") == ("VACATION", "5d")
    assert cmd("x", "Timezone: Europe/Berlin\r\n") == ("TIMEZONE", "Europe/Berlin")
    assert cmd("x", "TZ America/New_York\r\n") == ("TIMEZONE", "America/New_York")
    assert cmd("STATUS", "ADD 2\r\n") is None  # the body holds orders
    assert cmd("x", "ORDERS race-1 t0\r\nSTATUS\r\nEND\r\n") is None
    assert cmd("x", "STATUS please\r\n") is None and cmd("x", "VACATION\r\n") is None
    assert cmd("Re: [race-1] Round 0: add", "") is None
    assert cmd("x", "HISTORY\r\n") == cmd("x", "Verlauf\r\n") == cmd("CRONOLOGIA", "") == ("HISTORY", "")


def test_history_by_mail_answers_with_the_table_talk_the_player_sent_and_got(svc, clock, post):
    tokens = simul(svc)
    svc.referee.press("simul-1", PressRequest("ann", (Talk(None, "Hello table."),), token=tokens["ann"]))
    svc.referee.press("simul-1", PressRequest("ann", (Talk(("cid",), "Only for cid."),), token=tokens["ann"]))
    post.send("bob@players.test", address(tokens, "bob", "simul-1"), "VERLAUF\n\n-- \nBob\n")
    assert post.pump() == [("command", "HISTORY")]
    mail, body = post.last("bob@players.test", "[simul-1] History: everything since your last report")
    assert mail["Auto-Submitted"] == "auto-replied"
    assert "ann to everyone:\n    Hello table." in body and "Only for cid" not in body


def test_status_sends_the_current_report_again(svc, clock, post):
    tokens = race(svc)
    svc.referee.submit("race-1", "ann", "ADD 2")
    post.send("bob@players.test", address(tokens, "bob"), "STATUS\n")
    assert post.pump() == [("command", "STATUS")]
    mail, body = post.last("bob@players.test")
    assert mail["Subject"] == "[race-1] Your move: round 1, add (by Wed 4 Mar 09:00 UTC)"
    assert mail["Auto-Submitted"] == "auto-replied"
    assert "ann adds 2; the total is 2." in body and "ORDERS race-1 t1" in body
    assert "Deadline: Wed 4 Mar 2026 09:00 UTC" in body
    assert mail.get_body(("html",)) is not None


def test_history_sends_every_event_from_the_last_report_on_in_full(svc, clock, post):
    """A report's text may tell a long stretch of events in short; HISTORY has them all."""
    tokens = race(svc)
    svc.referee.submit("race-1", "ann", "ADD 2")
    svc.referee.submit("race-1", "bob", "ADD 3")
    post.send("bob@players.test", address(tokens, "bob"), "HISTORY\n")
    assert post.pump() == [("command", "HISTORY")]
    # the round's mail, queued before, may reach the relay after this answer: both go at this pump
    mail, body = post.last("bob@players.test", "[race-1] History: everything since your last report")
    assert mail["Auto-Submitted"] == "auto-replied" and mail["In-Reply-To"]
    assert "Everything that happened from your last report on, in full:" in body
    # bob's last report began after ann's move (it told him of it); his own move came since
    assert "- bob adds 3; the total is 5." in body and "ann adds 2" not in body and "ORDERS" not in body


def test_help_lists_every_order_of_the_decision_and_the_commands(svc, clock, post):
    tokens = simul(svc)
    post.send("ann@players.test", address(tokens, "ann", "simul-1"), "", subject="HELP")
    assert post.pump() == [("command", "HELP")]
    mail, body = post.last("ann@players.test")
    assert mail["Subject"] == "[simul-1] Help: your orders now"
    # the decision's help, filled to the mail's width as every paragraph of it
    assert "PICK <n> choose a number; DONE end your part" in " ".join(body.split())
    assert "  PICK 1\n" in body and "  PICK 9\n" in body
    assert "VACATION 5d" in body and "TIMEZONE Europe/Berlin" in body and "STATUS" in body
    # each command's meaning in a column of its own, filled within the mail's 78 columns
    assert "\n  HISTORY                  everything that happened from your last report on,\n" \
           "                           in full\n" in body


def test_timezone_by_mail_changes_every_deadline_the_player_sees(svc, clock, post):
    tokens = race(svc)
    post.send("ann@players.test", address(tokens, "ann"), "TIMEZONE america/new_york\n")
    assert post.pump() == [("command", "TIMEZONE")]
    mail, body = post.last("ann@players.test")
    assert mail["Subject"] == "[race-1] Time zone set: America/New_York"
    assert "The current deadline: Wed 4 Mar 2026 04:00 EST (09:00 UTC)" in body
    svc.clock.advance(hours=24)
    svc.tick()
    post.pump()
    reminder, body = post.last("ann@players.test")
    assert reminder["Subject"] == "[race-1] Your move (reminder, 1d left): round 0, add (by Wed 4 Mar 04:00 EST)"
    assert "Deadline: Wed 4 Mar 2026 04:00 EST (09:00 UTC)" in body
    receipt = svc.referee.submit("race-1", "ann", "ADD 1")
    assert "Deadline for phase t1: Thu 5 Mar 2026 04:00 EST (09:00 UTC)" in receipt.render()
    post.pump()
    report = [m for m in post.inbox.to("bob@players.test") if "round 1" in m["Subject"].lower()][-1]
    assert report["Subject"] == "[race-1] Your move: round 1, add (by Thu 5 Mar 09:00 UTC)"  # bob: UTC
    assert "Deadline: Thu 5 Mar 2026 09:00 UTC" in report.get_body(("plain",)).get_content()  # bob: UTC
    post.send("ann@players.test", address(tokens, "ann"), "TIMEZONE Mars/Olympus\n")
    assert post.pump() == [("rejected", "TIMEZONE: unknown time zone 'Mars/Olympus'; use a name like "
                                        "Europe/Berlin, America/New_York or UTC")]
    mail, body = post.last("ann@players.test")
    assert mail["Subject"] == "[race-1] TIMEZONE not done" and "Nothing was changed" in body
    assert [e["zone"] for e in events(svc, "race-1", "timezone")] == ["America/New_York"]


def test_vacation_by_mail_is_announced_and_moves_the_deadline(svc, clock, post):
    tokens = race(svc)  # standard: 2d deadlines, 14d vacation quota
    mid = post.send("ann@players.test", address(tokens, "ann"), "VACATION 5d\n")
    assert post.pump() == [("command", "VACATION")]
    for player in ("ann", "bob"):
        mail, body = post.last(f"{player}@players.test")
        assert mail["Subject"] == "[race-1] Deadline moved for a vacation"
    notices = [m["Subject"] for m in post.inbox.to("bob@players.test")]
    assert "[race-1] ann is on vacation" in notices
    # back on Saturday 09:00, then a normal two-day deadline
    assert svc.referee.status("race-1")["deadline"]["due"] == "2026-03-09T09:00:00Z"
    # the same mail again changes nothing
    post.send("ann@players.test", address(tokens, "ann"), "VACATION 5d\n", mid=mid)
    assert post.pump() == [("command", "VACATION")]
    assert len(events(svc, "race-1", "vacation")) == 1
    post.send("ann@players.test", address(tokens, "ann"), "VACATION off\n")
    assert post.pump() == [("command", "VACATION")]
    mail, body = post.last("bob@players.test")
    assert mail["Subject"] == "[race-1] ann is back"
    post.send("ann@players.test", address(tokens, "ann"), "VACATION soon\n")
    assert post.pump()[0][0] == "rejected"
    assert "'soon' is not a duration" in post.last("ann@players.test")[1]


def test_lines_after_a_command_are_named_as_not_read(svc, clock, post):
    tokens = race(svc)
    post.send("bob@players.test", address(tokens, "bob"), "STATUS\nADD 2\nADD 1\n\nthanks\n-- \nBob\n")
    assert post.pump() == [("command", "STATUS")]
    subjects = [m["Subject"] for m in post.inbox.to("bob@players.test")]
    assert "[race-1] Only STATUS was done" in subjects
    notice = next(m for m in post.inbox.to("bob@players.test") if m["Subject"] == "[race-1] Only STATUS was done")
    text = notice.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert "2 lines after it were not read" in text and "    ADD 2\n    ADD 1\n" in text
    assert "thanks" not in text and "Bob" not in text  # closing words and signature are not read as text
    assert not [e for e in events(svc, "race-1", "order") if e["player"] == "bob"]
    # a command alone gets its answer and nothing more; the same mail again, no second notice
    post.send("bob@players.test", address(tokens, "bob"), "STATUS\n")
    post.pump()
    assert [m["Subject"] for m in post.inbox.to("bob@players.test")].count("[race-1] Only STATUS was done") == 1
    # a command that fails says so, and names the lines it did not read
    post.send("ann@players.test", address(tokens, "ann"), "TIMEZONE Mars/Base\nADD 1\n")
    assert post.pump()[0][0] == "rejected"
    mail, body = post.last("ann@players.test")
    assert mail["Subject"] == "[race-1] TIMEZONE not done"
    assert "1 line after it was not read" in body and "    ADD 1\n" in body


def test_commands_need_the_token_like_orders(svc, clock, post):
    race(svc)
    post.send("eve@evil.test", f"race-1+ann+wrongtoken@{HOST}", "STATUS\n")
    post.send("eve@evil.test", f"race-1@{HOST}", "PLAYER ann wrongtoken\nVACATION 5d\n")
    assert [o for o, _ in post.pump()] == ["refused", "refused"]
    assert not events(svc, "race-1", "vacation")
    assert [m["Subject"] for m in post.inbox.to("ann@players.test")] == ["[race-1] Your move: round 0, add (by Wed 4 Mar 09:00 UTC)"]  # the opening


def test_the_plain_game_address_with_a_player_line_works_for_commands(svc, clock, post):
    tokens = race(svc)
    post.send("ann@elsewhere.test", f"race-1@{HOST}", f"PLAYER ann {tokens['ann']}\nSTATUS\n")
    assert post.pump() == [("command", "STATUS")]
    assert post.inbox.to("ann@players.test") and not post.inbox.to("ann@elsewhere.test")


def test_orders_after_the_deadline_closed_the_phase_are_refused_by_mail(svc, clock, post):
    tokens = race(svc)
    svc.clock.advance(hours=49)
    svc.tick()
    post.send("ann@players.test", address(tokens, "ann"), "ORDERS race-1 t0\nADD 3\nEND\n")
    [(outcome, reason)] = post.pump()
    assert outcome == "refused" and "closed at its deadline" in reason
    mail, body = post.last("ann@players.test", "[race-1] Too late: phase t0 is closed, t1 is open")
    assert ("these orders are for phase t0, which closed at its deadline (your default orders were played); "
            "the phase now open is add (round 1, phase t1)") in " ".join(body.split())
