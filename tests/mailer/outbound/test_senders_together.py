"""Every kind of sender at once, as separate processes, against one relay that takes 1.5 s per
mail: a `referee tick` loop (cron), an `referee outbox retry` loop (a moderator), three
`referee ingest` (the MTA's pipe, each answering an order and then sending) and `referee
serve`. Each mail any outbox holds reaches the relay exactly once.

The ingest processes start one after another, each once the one before has filed its mail,
so that their sending overlaps but two of them never read the same spooled mail.
"""

from __future__ import annotations

import asyncio
import os
import signal
import smtplib
import subprocess
import sys
import threading
import time
from collections import Counter
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path

from aiosmtpd.controller import Controller

from mailer.daemon.wiring import build
from referee import registry
from referee.config import Settings

from ..net import free_port
from ...service.conftest import each_mail
from ...marks import slow

ROOT = Path(__file__).resolve().parents[3]
HOST = "games.test"
PLAYERS = ["ann", "bob", "cid"]
SECONDS_PER_MAIL = 1.5


class SlowRelay:
    def __init__(self) -> None:
        self.taken: list[str] = []
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port(), server_hostname="relay.test")

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(SECONDS_PER_MAIL)
        self.taken.append(str(BytesHeaderParser().parsebytes(envelope.original_content)["Message-ID"]))
        return "250 OK"


def environment(data: Path, relay_port: int, **extra: str) -> dict[str, str]:
    return {**os.environ, "REFEREE_DATA": str(data), "REFEREE_HOSTNAME": HOST, "PYTHONPATH": str(ROOT),
            "REFEREE_RELAY": f"smtp://127.0.0.1:{relay_port}", **extra}


def referee(env: dict[str, str], *args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "commands", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def order(game_id: str, player: str, token: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{player}@players.test", f"{game_id}+{player}+{token}@{HOST}", "orders"
    msg["Message-ID"] = f"<{game_id}.{player}@players.test>"
    msg.set_content("TALENTS\n")
    return bytes(msg)


def loop(env: dict[str, str], args: tuple[str, ...], stop: threading.Event, failures: list[str]) -> None:
    while not stop.is_set():
        proc = referee(env, *args)
        out, err = proc.communicate(timeout=120)
        if proc.returncode != 0:
            failures.append(f"{' '.join(args)}: {proc.returncode} {err.decode(errors='replace')[-500:]}")


@slow
def test_serve_tick_ingest_and_outbox_retry_at_once_give_the_relay_each_mail_once(tmp_path):
    data = tmp_path / "var"
    relay = SlowRelay()
    relay.controller.start()
    svc = build(Settings(hostname=HOST, data_dir=data))
    game = registry.get("porto-carthago")
    idle: list[tuple[str, str, str]] = []  # (game, player, token) of players whose next turn is queued
    for n in range(4):
        made = svc.referee.new_game("porto-carthago", [(p, f"{p}@players.test") for p in PLAYERS], seed=f"s{n}",
                                    game_id=f"pc-{n}")
        each_mail(svc.store, f"pc-{n}")  # every receipt is a mail of its own
        asked = {prompt.player for prompt in game.prompts(svc.store.load(f"pc-{n}").state)}
        seat = next(s for s in made.players if s["name"] not in asked)
        idle.append((f"pc-{n}", seat["name"], seat["token"]))
    env = environment(data, relay.controller.port)
    port = free_port()
    daemon_env = dict(env, REFEREE_LISTEN_PORT=str(port), REFEREE_WORKER_INTERVAL_SECONDS="0.05",
                      REFEREE_SENDER_INTERVAL_SECONDS="0.2")
    stop, failures = threading.Event(), []
    loops = [threading.Thread(target=loop, args=(env, args, stop, failures)) for args in (("tick",), ("outbox", "retry"))]
    ingests, daemon = [], None
    try:
        for thread in loops:
            thread.start()
        for n, (game_id, player, token) in enumerate(idle[:3], start=1):
            ingests.append(referee(env, "ingest", stdin=subprocess.PIPE))
            ingests[-1].stdin.write(order(game_id, player, token))
            ingests[-1].stdin.close()
            wait_for(lambda: len(list((data / "spool" / "cur").iterdir())) == n)  # filed; now it sends
        daemon = referee(daemon_env, "serve")
        wait_for(lambda: listening(port, daemon))
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:  # the fourth order comes in by SMTP
            game_id, player, token = idle[3]
            smtp.sendmail(f"{player}@players.test", [f"{game_id}+{player}+{token}@{HOST}"],
                          order(game_id, player, token))
        wait_for(lambda: receipts(svc) == 4 and not pending(svc) and len(relay.taken) >= len(queued(svc)), 180)
    finally:
        stop.set()
        for thread in loops:
            thread.join(180)
        if daemon is not None:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(60)
        for proc in ingests:
            proc.wait(120)
        relay.controller.stop()
    twice = [mid for mid, count in Counter(relay.taken).items() if count > 1]
    assert not twice, f"delivered more than once: {twice}"
    assert set(relay.taken) == queued(svc)
    assert len(relay.taken) >= 16  # 12 opening reports and 4 receipts
    assert failures == []
    assert [proc.returncode for proc in ingests] == [0, 0, 0], [p.stderr.read() for p in ingests]


def wait_for(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def listening(port: int, daemon: subprocess.Popen) -> bool:
    assert daemon.poll() is None, daemon.stderr.read().decode(errors="replace")[-2000:]
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=5) as smtp:
            smtp.noop()
        return True
    except OSError:
        return False


def queued(svc) -> set[str]:
    rows = svc.outbox.pending(include_sent=True) + svc.system_outbox.pending(include_sent=True)
    return {r["message_id"] for r in rows}


def pending(svc) -> list:
    return svc.outbox.pending() + svc.system_outbox.pending()


def receipts(svc) -> int:
    return sum(1 for r in svc.outbox.pending(include_sent=True) if r["kind"] == "receipt")
