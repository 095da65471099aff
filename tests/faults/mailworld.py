"""A mail world on loopback for the fault tests: `referee serve` in a process of its own, a
capture relay recording every mail it is given, and players who mail orders like an MTA
(a message that could not be handed over is tried again later, same bytes, same Message-ID).
"""

from __future__ import annotations

import os
import random
import signal
import smtplib
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from email import policy
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any, Callable, Iterator

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP

from mailer.daemon.wiring import Services, build
from referee import registry
from referee.config import Limits, Settings
from referee.playthrough import BotStuck, bot_submission
from referee.rng import Rng

from ..mailer.net import free_port
from ..service.conftest import each_mail

HOST = "games.test"
ROOT = Path(__file__).resolve().parents[2]
# the games the daemon tests play: id, game, players, options
GAMES = [("race-1", "race", 4, {"target": 200}), ("race-2", "race", 2, {"target": 60}),
         ("simul-1", "simul", 3, {"rounds": 30}), ("simul-2", "simul", 4, {"rounds": 30}),
         ("porto-1", "porto-carthago", 3, {}), ("const-1", "constantinopolis", 3, {})]
PLAYER_NAMES = ["ann", "bob", "cid", "dee"]


@dataclass
class Delivery:
    message_id: str
    in_reply_to: str
    subject: str
    to: str
    at: float


class _Counted(SMTP):
    """An SMTP session that tells its sink when it opens and when it is gone."""

    def __init__(self, sink: "Sink", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sink = sink

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._sink._opened(+1)

    def connection_lost(self, error) -> None:
        try:
            super().connection_lost(error)
        finally:
            self._sink._opened(-1)


class _Controller(Controller):
    def __init__(self, sink: "Sink", **kwargs: Any) -> None:
        super().__init__(sink, **kwargs)
        self._sink = sink

    def factory(self):
        return _Counted(self._sink, self.handler, **self.SMTP_kwargs)


class Sink:
    """The relay: an aiosmtpd server that records every mail in order. `down` makes it answer
    421 (a relay in trouble); `stop()` closes the port (a relay that is gone)."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.deliveries: list[Delivery] = []
        self.down = False
        self._lock = threading.Lock()
        self._sessions = 0
        self._closed = threading.Condition(self._lock)
        self._controller: Controller | None = None

    def _opened(self, change: int) -> None:
        with self._lock:
            self._sessions += change
            if not self._sessions:
                self._closed.notify_all()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.down:
            return "421 4.3.2 Relay not available"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        head = BytesHeaderParser(policy=policy.compat32).parsebytes(envelope.original_content)
        with self._lock:
            self.deliveries.append(Delivery(str(head["Message-ID"]), str(head["In-Reply-To"] or ""),
                                            str(head["Subject"] or ""), str(head["To"] or ""), time.monotonic()))
        return "250 OK"

    def start(self) -> None:
        self._controller = _Controller(self, hostname="127.0.0.1", port=self.port, server_hostname="relay.test")
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def count(self) -> int:
        with self._lock:
            return len(self.deliveries)

    def quiet_count(self, quiet: float = 0.3, most: float = 5.0) -> int:
        """The count once no mail has come for `quiet` seconds (at most `most`): after a kill,
        what the relay was still reading from the dead daemon is recorded first, which takes a
        while on a busy machine."""
        until = time.monotonic() + most
        count = self.count()
        while time.monotonic() < until:
            time.sleep(quiet)
            now = self.count()
            if now == count:
                break
            count = now
        return count

    def count_once_closed(self, most: float = 30.0) -> int:
        """The count once every SMTP session is gone (at most `most` seconds): after a kill, the
        dead daemon's connections end, and what the relay was reading from them is recorded
        before its session closes, so nothing from the dead daemon can come after this count
        (no new daemon is started meanwhile). Exact where `quiet_count` guesses by a pause."""
        with self._closed:
            if not self._closed.wait_for(lambda: self._sessions == 0, timeout=most):
                raise AssertionError(f"{self._sessions} relay session(s) still open {most:.0f} s after the kill")
            return len(self.deliveries)

    def snapshot(self) -> list[Delivery]:
        with self._lock:
            return list(self.deliveries)

    def answered(self) -> set[str]:
        with self._lock:
            return {d.in_reply_to for d in self.deliveries}


def settings(data: Path, relay_port: int, **extra: Any) -> Settings:
    return Settings(hostname=HOST, data_dir=data, relay=f"smtp://127.0.0.1:{relay_port}",
                    limits=Limits(mails_per_sender_per_hour=10**9, max_spool_messages=10**6,
                                  refusals_per_sender_per_hour=10**9, sent_records_per_game=0), **extra)


class Daemon:
    """`referee serve` with the test games, in its own process, on a loopback port."""

    def __init__(self, data: Path, relay_port: int, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.env = {**os.environ, "REFEREE_DATA": str(data), "REFEREE_HOSTNAME": HOST,
                    "REFEREE_LISTEN_PORT": str(self.port), "REFEREE_RELAY": f"smtp://127.0.0.1:{relay_port}",
                    "REFEREE_WORKER_INTERVAL_SECONDS": "0.02", "REFEREE_SENDER_INTERVAL_SECONDS": "0.05",
                    "REFEREE_LIMITS_MAILS_PER_SENDER_PER_HOUR": "1000000000",
                    # players who guess a wrong token are answered every time, so that "every mail
                    # taken was answered" can be checked (a live server answers once an hour)
                    "REFEREE_LIMITS_REFUSALS_PER_SENDER_PER_HOUR": "1000000000",
                    "REFEREE_LIMITS_MAX_SPOOL_MESSAGES": "1000000", **(env or {})}
        self.proc: subprocess.Popen | None = None
        self.log = data.parent / "daemon.log"

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "tests.faults.referee_cli", "serve"], cwd=ROOT,
                                         env=self.env, stdout=log, stderr=log)

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with smtplib.SMTP("127.0.0.1", self.port, timeout=5) as smtp:
                    smtp.noop()
                return
            except OSError:
                assert self.proc is not None and self.proc.poll() is None, f"the daemon died: {self.tail()}"
                assert time.monotonic() < deadline, "the daemon did not start listening"
                time.sleep(0.02)

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> int:
        """SIGTERM, as systemd does; the exit status."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=60)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""


@dataclass
class Sent:
    game: str
    player: str
    raw: bytes
    to: str
    accepted: bool = False  # the SMTP server answered 250


@dataclass
class Players:
    """Bots that mail their orders to the daemon. Each game has at most one mail on its way:
    the next is written once the answer to the last has arrived (or after a while, since a
    mail taken twice is answered once)."""

    svc: Services
    games: list[str]
    sink: Sink
    port: Callable[[], int]
    seed: str
    mails: dict[str, Sent] = field(default_factory=dict)  # by Message-ID
    waiting: dict[str, tuple[str, float]] = field(default_factory=dict)  # game -> (Message-ID, sent at)
    stuck: list[str] = field(default_factory=list)  # games a moderator must adjudicate
    stop: threading.Event = field(default_factory=threading.Event)
    errors: list[BaseException] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.bots = Rng.from_seed(self.seed, "players")
        self.tokens = {gid: {s["name"]: s["token"] for s in self.svc.store.load(gid).meta["seats"]}
                       for gid in self.games}
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def finish(self, timeout: float = 120.0) -> None:
        """Stop writing new mail, but hand over every mail already written."""
        self.stop.set()
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the players did not finish handing over their mail"
        if self.errors:
            raise self.errors[0]

    def _run(self) -> None:
        try:
            while not self.stop.is_set():
                self._hand_over()
                for gid in self.games:
                    self._next(gid)
                time.sleep(0.01)
            deadline = time.monotonic() + 90
            while any(not m.accepted for m in self.mails.values()) and time.monotonic() < deadline:
                self._hand_over()
                time.sleep(0.05)
        except BaseException as exc:  # reported by finish()
            self.errors.append(exc)

    def _next(self, gid: str) -> None:
        if gid in self.waiting:
            mid, at = self.waiting[gid]
            if mid not in self.sink.answered() and time.monotonic() - at < 3.0:
                return
            del self.waiting[gid]
        stored = self.svc.store.load(gid)
        game = registry.get(stored.meta["game"])
        try:
            turn = bot_submission(game, stored, self.bots)
        except BotStuck:
            if gid not in self.stuck:
                self.stuck.append(gid)
            return
        if turn is None:
            return
        player, text = turn
        key = game.phase(stored.state).key
        roll = self.rng.random()
        token = self.tokens[gid][player]
        if roll < 0.05:
            token = "wrong" + token[5:]  # a stranger guessing
        elif roll < 0.10:
            text = "ADD 99\nFLY"  # nonsense
        self._write(gid, player, token, f"ORDERS {gid} {key}\n{text}\nEND\n")

    def _write(self, gid: str, player: str, token: str, body: str) -> None:
        n = len(self.mails)
        mid = f"<{self.seed}.{n}@players.test>"
        to = f"{gid}+{player}+{token}@{HOST}"
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = f"{player}@players.test", to, "orders", mid
        msg.set_content(body)
        self.mails[mid] = Sent(gid, player, bytes(msg), to)
        self.waiting[gid] = (mid, time.monotonic())

    def _hand_over(self) -> None:
        for mid, mail in list(self.mails.items()):
            if mail.accepted:
                continue
            try:
                with smtplib.SMTP("127.0.0.1", self.port(), timeout=10) as smtp:
                    smtp.sendmail(f"{mail.player}@players.test", [mail.to], mail.raw)
            except (OSError, smtplib.SMTPException):
                return  # the daemon is down or busy: like an MTA, try again later
            mail.accepted = True


def create_games(svc) -> None:
    for gid, name, count, options in GAMES:
        svc.referee.new_game(name, [(p, f"{p}@players.test") for p in PLAYER_NAMES[:count]], seed=f"kill-{gid}",
                             options=options, game_id=gid)
        each_mail(svc.store, gid)  # every receipt a mail of its own, with an id of its own


def settle(svc, sink: Sink, players: Players, timeout: float = 120.0) -> None:
    """Wait until every mail has been taken, processed, and every outbox is empty."""
    deadline = time.monotonic() + timeout
    while True:
        spool_empty = svc.spool.pending() == 0
        pending = svc.outbox.pending() + svc.system_outbox.pending()
        if spool_empty and not pending and all(m.accepted for m in players.mails.values()):
            return
        assert time.monotonic() < deadline, f"not settled: {len(pending)} mail(s) pending"
        time.sleep(0.2)


@dataclass
class World:
    """The daemon, its relay and the players, running; `mail_world` builds and tears it down."""

    data: Path
    svc: Services
    sink: Sink
    daemon: Daemon
    players: Players

    def wind_down(self) -> None:
        """The players hand over their last mail, everything is processed and sent, and the
        daemon stops cleanly on SIGTERM."""
        self.players.finish()
        settle(self.svc, self.sink, self.players)
        assert self.daemon.stop() == 0, self.daemon.tail()

    def queued(self) -> set[str]:
        """Every Message-ID any outbox holds, sent or not."""
        rows = self.svc.outbox.pending(include_sent=True) + self.svc.system_outbox.pending(include_sent=True)
        return {r["message_id"] for r in rows}


@contextmanager
def mail_world(tmp_path: Path, seed: str, env: dict[str, str] | None = None) -> Iterator[World]:
    data = tmp_path / "var"
    sink = Sink()
    sink.start()
    svc = build(settings(data, sink.port))
    create_games(svc)
    daemon = Daemon(data, sink.port, env)
    players = Players(svc, [g[0] for g in GAMES], sink, lambda: daemon.port, seed=seed)
    try:
        daemon.start()
        daemon.wait_ready()
        players.start()
        yield World(data, svc, sink, daemon, players)
    finally:
        players.stop.set()
        if daemon.proc is not None and daemon.proc.poll() is None:
            daemon.kill()
        sink.stop()


__all__ = ["GAMES", "Daemon", "Delivery", "HOST", "Players", "Sent", "Sink", "World", "build", "mail_world", "settings"]
