"""Table talk by mail through the daemon's parts on loopback: smtplib → the SMTP ingest server
(with its recipient check and the seat tokens of the reserved spool room) → spool → worker →
service → outbox → sender → a relay on loopback that collects what goes out.

A round of play with table talk to everyone and in private (and answers through the reply
addresses), NOTIFY press digest, talk refused when the moderator turned it off, the limits,
files and header lines that are not passed on."""

from __future__ import annotations

import email.utils
import re
import smtplib
from dataclasses import replace
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner

from commands.main import cli
from mailer.daemon.wiring import build
from mailer.inbound.directory import SeatTokens
from mailer.inbound.smtp_server import IngestHandler, make_controller
from mailer.outbound.relay import SMTPRelay
from referee.config import Limits, Settings

from ...service.conftest import each_mail
from ..net import free_port
from .test_bounces_noticed import Clock, Relay

HOST = "games.test"
PLAYERS = ("ann", "bob", "cid")


@pytest.fixture
def table(tmp_path, race_registered):
    clock = Clock()
    settings = Settings(hostname=HOST, data_dir=tmp_path / "var",
                        limits=replace(Limits(), press_per_player_per_hour=3, press_max_bytes=400))
    svc = build(settings, clock=clock)
    ingest = make_controller(IngestHandler(svc.spool, settings, svc.known_address,
                                           SeatTokens(svc.store.games_dir, HOST, svc.store.exists).valid),
                             settings, port=free_port())
    inbox = Relay()
    relay_ctl = Controller(inbox, hostname="127.0.0.1", port=free_port(), server_hostname="relay.test")
    ingest.start()
    relay_ctl.start()
    relay = SMTPRelay("127.0.0.1", relay_ctl.port, timeout=10)
    worker = svc.worker()
    made = svc.referee.new_game("race", [(p, f"{p}@players.test") for p in PLAYERS], seed="s", game_id="race-1",
                                options={"target": "30"})
    each_mail(svc.store, "race-1")  # every receipt a mail of its own, to read here

    class Table:
        tokens = {s["name"]: s["token"] for s in made.players}

        @staticmethod
        def send(frm, to, body, subject="orders", attach=None):
            msg = EmailMessage()
            msg["From"] = f"{frm}@players.test"
            msg["To"] = to if "@" in to else f"race-1+{to}+{Table.tokens[to]}@{HOST}"
            msg["Subject"] = subject
            msg["Message-ID"] = email.utils.make_msgid(domain="players.test")
            msg.set_content(body)
            if attach:
                msg.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename=attach)
            with smtplib.SMTP("127.0.0.1", ingest.port, timeout=10) as smtp:
                smtp.send_message(msg)
            return msg["Message-ID"]

        @staticmethod
        def pump():
            handled = worker.run_once(svc.spool)
            svc.send(relay)
            return handled

        @staticmethod
        def to(player, since=0):
            return [m for m in inbox.mails[since:] if m["To"] == f"{player}@players.test"]

        @staticmethod
        def talk(player, since=0):
            return [m for m in Table.to(player, since) if " via Referee" in m["From"]]

        @staticmethod
        def run(*args):
            return CliRunner().invoke(cli, ["--data-dir", str(settings.data_dir), *args], obj={"clock": clock})

    Table.svc, Table.inbox, Table.clock = svc, inbox, clock
    Table.pump()
    yield Table
    ingest.stop()
    relay_ctl.stop()


def text(mail):
    return mail.get_body(("plain",)).get_content()


def flat(mail):
    return " ".join(text(mail).split())


def test_a_round_with_table_talk_to_everyone_and_in_private(table):
    start = len(table.inbox.mails)
    table.send("ann", "ann", "PRESS ALL\nGood luck, everyone.\nEND PRESS\nADD 2\n")
    assert [h.outcome for h in table.pump()] == ["accepted"]
    for reader in ("bob", "cid"):
        (talk,) = table.talk(reader, start)
        assert talk["From"] == "ann via Referee <race-1@games.test>"
        assert talk["Subject"] == "[race-1] Table talk from ann to everyone"
        assert "Good luck, everyone." in text(talk) and "ADD 2" not in text(talk)
    receipt = [m for m in table.to("ann", start) if "Orders received" in m["Subject"]]
    assert receipt and "Lines 1-3: table talk to everyone, sent to bob, cid." in flat(receipt[0])
    assert "Line 4 was read as orders." in flat(receipt[0])
    # nobody but ann ever sees her address or her token
    for mail in table.inbox.mails[start:]:
        if mail["To"] != "ann@players.test":
            assert "ann@players.test" not in mail.as_string() and table.tokens["ann"] not in mail.as_string()

    # bob answers ann alone by replying, quoting her; the quote is not passed on
    (to_bob,) = table.talk("bob", start)
    mark = len(table.inbox.mails)
    table.send("bob", to_bob["Reply-To"], "Thanks! Shall we work together against cid?\n\n"
               "On Sat, 21 Nov 2026, ann via Referee wrote:\n> Good luck, everyone.\n", subject="Re: table talk")
    assert [h.outcome for h in table.pump()] == ["press"]
    (to_ann,) = table.talk("ann", mark)
    assert to_ann["From"] == "bob via Referee <race-1@games.test>"
    assert "work together against cid" in text(to_ann) and "Good luck" not in text(to_ann)
    assert table.talk("cid", mark) == []
    (sent,) = table.to("bob", mark)
    assert sent["Subject"] == "[race-1] Table talk sent to ann"
    # and ann answers bob the same way, in private, with her orders after END PRESS
    mark = len(table.inbox.mails)
    table.send("bob", "bob", "ADD 1\n")
    table.pump()
    table.send("ann", to_ann["Reply-To"], "Agreed.\nEND PRESS\n", subject="Re: deal")
    table.pump()
    assert [flat(m) for m in table.talk("bob", mark)][0].startswith("Table talk from ann to bob")

    # cid writes to everyone the first piece went to, with the address its text gives
    (to_cid,) = table.talk("cid", start)
    everyone = re.search(r"write to (\S+)\.", flat(to_cid)).group(1)
    mark = len(table.inbox.mails)
    table.send("cid", everyone, "I can read the total too.")
    table.send("cid", "cid", "ADD 3\n")
    handled = table.pump()
    assert [h.outcome for h in handled] == ["press", "accepted"]
    assert [m["Subject"] for m in table.talk("ann", mark)] == ["[race-1] Table talk from cid to everyone"]
    assert len(table.talk("bob", mark)) == 1
    # the private words never reached cid, in any mail
    assert not any("work together" in m.as_string() or "Agreed." in m.as_string() for m in table.to("cid"))
    # the moderator reads it all, in order
    listed = table.run("press", "race-1")
    assert listed.exit_code == 0
    assert [line.split(":")[-1].strip() for line in listed.output.splitlines() if line.startswith("#")] == \
        ["ann to everyone (bob, cid)", "bob to ann", "ann to bob", "cid to everyone (ann, bob)"]
    history = table.run("history", "race-1").output
    assert "table talk #2 from bob to ann" in history and "\n  p2 " in history


def test_notify_press_digest_folds_talk_into_the_next_mail(table):
    table.send("bob", "bob", "NOTIFY press digest\n")
    table.pump()
    (answer,) = [m for m in table.to("bob") if "Table talk setting" in m["Subject"]]
    assert answer["Subject"] == "[race-1] Table talk setting: NOTIFY press digest"
    mark = len(table.inbox.mails)
    table.send("cid", "cid", "PRESS ALL\nBlue skies.\n")
    table.pump()
    assert len(table.talk("ann", mark)) == 1 and table.talk("bob", mark) == []
    assert table.to("bob", mark) == []  # no mail of its own, and no mail sooner
    table.send("ann", "ann", "ADD 1\n")  # bob is asked now: his report carries the talk
    table.pump()
    (report,) = table.to("bob", mark)
    assert "Table talk from cid to everyone" in text(report) and "Blue skies." in text(report)


def test_talk_refused_when_the_moderator_turned_it_off(table):
    changed = table.run("press", "race-1", "--set", "press=none")
    assert changed.exit_code == 0 and "Table talk in race-1: none" in changed.output
    table.pump()
    told = [m for m in table.to("cid") if "Table talk" in m["Subject"] and "moderator" in m["Subject"]]
    assert told and "off in this game" in flat(told[0])
    game_file = table.svc.store.path("race-1").read_bytes()
    mark = len(table.inbox.mails)
    table.send("ann", "ann", "PRESS ALL\nAnyone there?\n")
    assert [h.outcome for h in table.pump()] == ["refused"]
    assert table.svc.store.path("race-1").read_bytes() == game_file  # nothing played, nothing written
    (answer,) = table.to("ann", mark)
    assert answer["Subject"] == "[race-1] Table talk NOT sent"
    assert "table talk is off in this game (the moderator's choice)" in flat(answer)
    assert table.talk("bob", mark) == table.talk("cid", mark) == []


def test_limits_per_hour_and_size(table):
    mark = len(table.inbox.mails)
    for n in range(4):
        table.send("ann", "ann", f"PRESS bob\nnote {n}\n")
    table.pump()
    assert [re.search(r"note \d", text(m)).group() for m in table.talk("bob", mark)] == ["note 0", "note 1", "note 2"]
    refused = [m for m in table.to("ann", mark) if "NOT sent" in m["Subject"]]
    assert len(refused) == 1 and "3 pieces of table talk an hour" in flat(refused[0])
    table.clock.now = table.clock.now.replace(hour=table.clock.now.hour + 2)
    mark = len(table.inbox.mails)
    table.send("ann", "ann", "PRESS bob\n" + "long words " * 40)
    table.send("ann", "ann", "PRESS bob\nshort again\n")
    table.pump()
    assert ["short again" in text(m) for m in table.talk("bob", mark)] == [True]
    (too_long,) = [m for m in table.to("ann", mark) if "NOT sent" in m["Subject"]]
    assert "it is 439 bytes long, and table talk may have at most 400" in flat(too_long)


def test_files_and_header_lines_are_not_passed_on(table):
    mark = len(table.inbox.mails)
    table.send("ann", "ann", "PRESS cid\nBcc: victim@elsewhere.test\nSubject: urgent\n\nThe plan is attached.\n",
               attach="plan.pdf")
    table.pump()
    (talk,) = table.talk("cid", mark)
    assert talk.get_body(("plain",)) is not None and not list(talk.iter_attachments())
    assert "victim@elsewhere.test" not in talk.as_string() and "Subject: urgent" not in text(talk)
    assert "carried 1 file (plan.pdf); files are not passed on" in flat(talk)
    (receipt,) = table.to("ann", mark)
    assert "Lines that looked like mail headers were left out of its top: 2." in flat(receipt)
    assert "plan.pdf stayed with the referee" in flat(receipt)
