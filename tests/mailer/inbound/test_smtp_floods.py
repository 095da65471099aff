"""The SMTP server under a stranger's flood, driven by real smtplib clients on loopback: a
player cannot be locked out, the sender table forgets and stays small, players' mail has spool
room of its own, and running out of descriptors is logged once a minute, not per connection."""

import os
import pickle
import resource
import smtplib
import socket
import subprocess
import sys
import time
import tracemalloc
from email.message import EmailMessage
from pathlib import Path

import pytest

from mailer.daemon.wiring import build
from mailer.inbound.directory import SeatTokens
from mailer.inbound.sender_limits import MAX_SENDERS, SenderRateLimit
from mailer.inbound.smtp_server import IngestHandler, make_controller
from referee.config import Limits, Settings
from referee.press import reply_code

from ..net import free_port

HOST = "games.test"
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def server(tmp_path, race_registered):
    """The SMTP server on a data directory with one game; (controller, services, ann's token)."""
    settings = Settings(hostname=HOST, data_dir=tmp_path / "var",
                        limits=Limits(mails_per_sender_per_hour=5, max_spool_messages=10, spool_reserved_percent=30))
    svc = build(settings)
    made = svc.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")], seed="s",
                                game_id="g-1")
    handler = IngestHandler(svc.spool, settings, svc.known_address,
                            SeatTokens(svc.store.games_dir, HOST, svc.store.exists).valid)
    controller = make_controller(handler, settings, port=free_port())
    controller.start()
    yield controller, svc, next(s["token"] for s in made.players if s["name"] == "ann")
    controller.stop()


def message(to: str, sender: str = "ann@players.test") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, "orders"
    msg.set_content("ADD 1\n")
    return msg


def send(controller, to: str, sender: str = "ann@players.test") -> int:
    """The SMTP code the mail got: 250 when taken."""
    try:
        with smtplib.SMTP(controller.hostname, controller.port, timeout=10) as smtp:
            smtp.send_message(message(to, sender), from_addr=sender, to_addrs=[to])
    except smtplib.SMTPRecipientsRefused as exc:
        return next(iter(exc.recipients.values()))[0]
    except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
        return exc.smtp_code
    return 250


def drain(svc) -> None:
    for key in list(svc.spool.keys()):
        svc.spool.done(key, "S")


def test_mail_commands_and_refused_recipients_do_not_use_up_a_players_allowance(server):
    controller, svc, token = server
    for _ in range(3):  # 60 MAIL commands in the player's name, nothing sent
        with smtplib.SMTP(controller.hostname, controller.port, timeout=10) as smtp:
            smtp.ehlo()
            for _ in range(20):
                assert smtp.docmd("MAIL FROM:<ann@players.test>")[0] == 250
                assert smtp.docmd("RSET")[0] == 250
    for _ in range(10):  # and mail to addresses that are not ours
        assert send(controller, "nobody@games.test") == 550
    assert send(controller, "g-1@games.test") == 250


def test_a_stranger_writing_as_a_player_cannot_stop_the_players_own_mail(server):
    controller, svc, token = server
    for _ in range(5):
        assert send(controller, "g-1@games.test") == 250
        drain(svc)
    assert send(controller, "g-1@games.test") == 450  # the allowance is used up
    assert send(controller, "g-1+ann+wrongtoken@games.test") == 450
    for _ in range(5):  # the player's replies, to the address with her token, have their own
        assert send(controller, f"g-1+ann+{token}@games.test") == 250
        drain(svc)
    assert send(controller, f"g-1+ann+{token}@games.test") == 450
    assert send(controller, "g-1@games.test", sender="bob@players.test") == 250


def test_mail_to_a_valid_token_address_has_spool_room_strangers_cannot_take(server):
    controller, svc, token = server  # 10 places, 3 of them kept for players' replies
    for n in range(7):
        assert send(controller, "g-1@games.test", sender=f"stranger{n}@elsewhere.test") == 250
    assert send(controller, "g-1@games.test", sender="stranger@elsewhere.test") == 452
    assert send(controller, "g-1+ann+wrongtoken@games.test", sender="stranger@elsewhere.test") == 452
    for _ in range(3):
        assert send(controller, f"g-1+ann+{token}@games.test") == 250
    assert send(controller, f"g-1+ann+{token}@games.test") == 452  # now it is full for everyone
    assert svc.spool.pending() == 10


def test_a_reply_address_of_table_talk_has_the_players_spool_room_too(server):
    controller, svc, token = server
    for n in range(7):
        assert send(controller, "g-1@games.test", sender=f"stranger{n}@elsewhere.test") == 250
    answer_bob = f"g-1+ann+{reply_code(token, ['bob'])}@games.test"
    assert send(controller, f"g-1+ann+{reply_code('guessed', ['bob'])}@games.test",
                sender="stranger@elsewhere.test") == 452
    assert send(controller, f"g-1+bob+{reply_code(token, ['ann'])}@games.test") == 452  # ann's code is not bob's
    assert send(controller, answer_bob) == 250
    assert send(controller, f"g-1+ann+{reply_code(token, None)}@games.test") == 250


def test_the_sender_table_forgets_after_its_window_and_stays_small():
    now = [0.0]
    limit = SenderRateLimit(3, window=3600, clock=lambda: now[0])
    for _ in range(3):
        limit.count("ann@x")
    assert limit.full("ann@x")
    now[0] = 3601
    assert not limit.full("ann@x") and len(limit) == 0
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for n in range(88_000):
        limit.count(f"sender{n}@flood.example")
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert len(limit) == MAX_SENDERS
    assert grown < 8_000_000, grown
    assert limit.full("ann@x") is False


def test_running_out_of_descriptors_is_logged_once_with_a_count(tmp_path):
    """The SMTP server process at a descriptor limit of 48 while clients open connections
    for four seconds: asyncio fails to accept hundreds of times a second."""
    settings = Settings(hostname=HOST, data_dir=tmp_path / "var")
    port, log = free_port(), tmp_path / "smtp.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(log, "wb") as err:
        child = subprocess.Popen([sys.executable, "-m", "mailer.inbound.ingest"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=err, env=env, cwd=ROOT,
                                 preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48)))
    payload = pickle.dumps((settings, port))
    child.stdin.write(len(payload).to_bytes(8, "big") + payload)
    child.stdin.flush()
    assert child.stdout.readline().strip() == b"ready"
    sockets, deadline = [], time.monotonic() + 4
    try:
        while time.monotonic() < deadline:
            try:
                sockets.append(socket.create_connection(("127.0.0.1", port), timeout=1))
            except OSError:
                time.sleep(0.01)
    finally:
        for sock in sockets:
            sock.close()
        child.stdin.close()
        child.wait(30)
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[:2000]
    lines = [line for line in text.splitlines() if "out of system resource" in line]
    assert 1 <= len(lines) <= 2, lines
    assert "more time(s) in the last 60 s" in lines[-1], lines
