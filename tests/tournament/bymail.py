"""A tournament played by mail, the way `referee demo` plays one game: the real daemon
(`mailer.daemon.serve`), a capture relay that files each mail into the player's own Maildir
(`mailer.capture`), and one bot per seat (`mailer.bot.MailBot`) that reads its reports and
answers by SMTP. Only the orchestration is new: a round's bots start when its games exist
and stop when their game is over; the organiser makes the next round from the standings.

The daemon runs on a clock `SPEED` times faster than the wall clock, so a one-minute
deadline (the shortest a policy takes) passes in a couple of seconds: a bot that is slow to
answer has its default orders played by the daemon's own tick, as a player would. The
sender runs every 50 ms rather than after every pass of the worker, as the demo's does: three
games at once give it enough mail to batch, and each batch rewrites a game file once.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

from commands.demo.bot import MailBot
from commands.demo.capture import CaptureHandler, capture_server
from mailer.daemon.serve import serve
from commands.demo.run import PLAYER_HOST, READY_SECONDS, demo_settings, free_port
from mailer.daemon.wiring import Services, build
from referee import registry
from referee.tournament.model import Tournament

SPEED = 30.0
STALL_SECONDS = 30.0


class FastClock:
    """UTC time running SPEED times faster than the wall clock, from now."""

    def __init__(self, speed: float = SPEED) -> None:
        self.speed = speed
        self.start = datetime.now(timezone.utc)
        self.origin = time.monotonic()

    def __call__(self) -> datetime:
        return self.start + timedelta(seconds=(time.monotonic() - self.origin) * self.speed)


class Stalled(AssertionError):
    """The tournament by mail stopped moving before its games ended."""


@dataclass
class TournamentByMail:
    data_dir: Path
    players: list[str]
    services: Services | None = None
    capture: CaptureHandler | None = None
    bots: dict[str, MailBot] = field(default_factory=dict)  # the current round's, by player

    def start(self) -> None:
        self.listen_port, self.capture_port = free_port(), free_port()
        settings = replace(demo_settings(self.data_dir, self.listen_port, self.capture_port),
                           tick_interval_seconds=0.2, sender_interval_seconds=0.05)
        self.services = build(settings, clock=FastClock())
        self.addresses = {name: f"{name}@{PLAYER_HOST}" for name in self.players}
        self.capture = CaptureHandler(self.data_dir / "mailboxes", {a: n for n, a in self.addresses.items()},
                                      on_delivery=self._delivered)
        self.relay = capture_server(self.capture, self.capture_port)
        self.relay.start()
        self.stop = threading.Event()
        ready = threading.Event()
        self.failure: list[BaseException] = []

        def daemon() -> None:
            try:
                serve(self.services, self.stop, port=self.listen_port, on_ready=ready)  # type: ignore[arg-type]
            except BaseException as exc:
                self.failure.append(exc)
                ready.set()

        self.daemon = threading.Thread(target=daemon, name="referee-daemon", daemon=True)
        self.daemon.start()
        if not ready.wait(READY_SECONDS) or self.failure:
            raise Stalled(f"the daemon did not start: {self.failure}")

    def close(self) -> None:
        self.stop.set()
        for bot in self.bots.values():
            bot.wake.set()
        self.daemon.join(timeout=10)
        self.relay.stop()

    def mailbox(self, player: str) -> Path:
        return self.data_dir / "mailboxes" / player

    def _delivered(self, name: str, raw: bytes) -> None:
        bot = self.bots.get(name)
        if bot is not None:
            bot.wake.set()

    def play_round(self, t: Tournament, seed: str) -> None:
        """Play every game of the tournament's current round to its end, one bot per seat."""
        assert self.services is not None and t.current is not None
        game = registry.get(t.game)
        self.bots = {}
        for table in t.current.tables:
            for player in table.seats:
                self.bots[player] = MailBot(player, self.addresses[player], game, table.game, self.services.store,
                                            self.mailbox(player), self.listen_port,
                                            random.Random(f"{seed}/{table.game}/{player}"))
        threads = [threading.Thread(target=bot.run, args=(self.stop,), daemon=True) for bot in self.bots.values()]
        for bot in self.bots.values():
            bot.wake.set()  # reports filed before the bot existed are waiting in its mailbox
        for thread in threads:
            thread.start()
        last, moved = -1, time.monotonic()
        while not all(bot.finished for bot in self.bots.values()):
            time.sleep(0.1)
            problems = [bot.problem for bot in self.bots.values() if bot.problem]
            if problems or self.failure or not self.daemon.is_alive():
                raise Stalled(f"round {t.current.number}: {problems or self.failure or 'the daemon stopped'}")
            sent = sum(bot.counters.received + bot.counters.sent for bot in self.bots.values())
            if sent != last:
                last, moved = sent, time.monotonic()
            elif time.monotonic() - moved > STALL_SECONDS:
                waiting = {x.game: self.services.referee.status(x.game)["waiting_for"] for x in t.current.tables}
                raise Stalled(f"round {t.current.number}: no mail for {STALL_SECONDS:.0f} s; {waiting}")
        for thread in threads:
            thread.join(timeout=10)

    def wait_for(self, player: str, subject: str, count: int, seconds: float = 20.0) -> list[bytes]:
        """The mails in a player's mailbox whose subject contains `subject`, once there are `count`."""
        until = time.monotonic() + seconds
        while True:
            found = []
            for sub in ("new", "cur"):
                for path in sorted((self.mailbox(player) / sub).iterdir()):
                    raw = path.read_bytes()
                    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
                    if subject.encode() in head:
                        found.append(raw)
            if len(found) >= count or time.monotonic() > until:
                return found
            time.sleep(0.1)
