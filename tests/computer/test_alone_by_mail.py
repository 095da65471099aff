"""Playing alone by mail: a person plays a whole game against three computer players through
the real daemon on loopback. The person is a bot that reads its own mailbox and replies by
SMTP (commands/demo/bot.py); the daemon's outgoing mail goes to a capture relay that files it
into that mailbox; the computer seats are played by the daemon itself, thought in a process
of their own. The game reaches its end, nobody but the person gets mail, and the game's
record holds the computer seats' orders like anyone's and replays."""

from __future__ import annotations

import threading
import time

import pytest

from commands.demo.bot import MailBot
from commands.demo.capture import CaptureHandler, capture_server
from commands.demo.run import PLAYER_HOST, demo_settings, free_port
from mailer.daemon.serve import serve
from mailer.daemon.wiring import build
from referee import registry
from referee.gamelog import replay_log, write_log

LIMIT_SECONDS = 900.0  # a busy machine: the game usually takes a minute or two


@pytest.mark.long
def test_a_person_plays_a_whole_game_by_mail_against_computer_players(tmp_path):
    game = registry.get("porto-carthago")
    listen, relay = free_port(), free_port()
    services = build(demo_settings(tmp_path, listen, relay))
    address = f"me@{PLAYER_HOST}"
    made = services.referee.new_game(game.name, [("me", address)], seed="alone by mail",
                                     bots=[("dmitri", "fast"), ("ada", "fast"), ("bruno", "strong")])
    capture = CaptureHandler(tmp_path / "mailboxes", {address: "me"}, on_delivery=lambda name, raw: bot.wake.set())
    bot = MailBot("me", address, game, made.id, services.store, capture.path("me"), listen, "me")
    relay_server = capture_server(capture, relay)
    relay_server.start()
    stop, ready = threading.Event(), threading.Event()
    daemon = threading.Thread(target=serve, args=(services, stop), kwargs={"port": listen, "on_ready": ready},
                              daemon=True)
    player = threading.Thread(target=bot.run, args=(stop,), daemon=True)
    try:
        daemon.start()
        assert ready.wait(60), "the daemon did not start"
        player.start()
        end = time.monotonic() + LIMIT_SECONDS
        while not bot.finished and bot.problem is None and time.monotonic() < end and daemon.is_alive():
            time.sleep(0.5)
    finally:
        stop.set()
        bot.wake.set()
        daemon.join(60)
        player.join(30)
        relay_server.stop()
    assert bot.problem is None, bot.problem
    stored = services.store.load(made.id)
    assert stored.meta["status"] == "finished" and bot.finished
    computer = [e for e in stored.events if e.get("source") == "computer"]
    assert {e["player"] for e in computer} == {"dmitri", "ada", "bruno"}
    assert all(e["type"] == "order" for e in computer), [e.get("reason") for e in computer if e["type"] != "order"]
    assert bot.counters.sent > 10 and capture.delivered >= bot.counters.received > 10
    assert [p.name for p in (tmp_path / "mailboxes").iterdir()] == ["me"]
    assert replay_log(write_log(stored.meta, stored.events, stored.state, reveal_seed=True), registry.get).ok
