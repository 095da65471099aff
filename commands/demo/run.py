"""A whole game played by mail on loopback: the real daemon, a capture relay, one bot per
player. `referee demo` drives it and prints what it reports.

The daemon is `serve` (mailer/daemon/serve.py), unchanged, with its outgoing relay pointed by
SMTP at a capture server (`commands.demo.capture`) on another loopback port. The capture server
files each mail into the recipient's own Maildir, and each bot reads only its own mailbox and
answers through the daemon's SMTP port. So every order crosses the network twice, the way it
does in production; only the last hop (an MTA delivering to a mailbox) is replaced. The
built-in `maildir:` relay would have been simpler but puts every player's mail in one folder
and skips the SMTP client path (`SMTPRelay`), which is the part a deployment actually uses.

The settings are the demo's own, never the operator's config file: game addresses under
`games.localhost`, players under `players.localhost`, short worker and sender intervals, and
a sender rate limit high enough for bots that answer within milliseconds.
"""

from __future__ import annotations

import logging
import queue
import socket
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Callable

from mailer.daemon.serve import serve
from mailer.daemon.wiring import Services, build
from referee.config import Limits, Settings
from referee.bots import Bot, make_bot
from referee.contract import Game
from referee.i18n import DEFAULT_LANGUAGE

from . import mailstats
from .bot import MailBot
from .mailstats import MailStats
from .capture import CaptureHandler, capture_server
from .defaults import PLAYER_NAMES, STALL_SECONDS

GAME_HOST = "games.localhost"
PLAYER_HOST = "players.localhost"
READY_SECONDS = 60.0  # a busy machine starts the daemon's processes slowly (mailer/children.py waits as long)


class DemoFailed(Exception):
    """The game did not reach its end: a stall, a bot that gave up, a daemon that died."""


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


LOG_NAME = "daemon.log"  # the daemon's log, in the data directory, unless it goes to the terminal


def demo_settings(data_dir: Path, listen_port: int, capture_port: int, log_file: str | None = None) -> Settings:
    """The demo's own settings; the daemon logs to `log_file` (None: `daemon.log` in the data
    directory; "": the terminal's standard error)."""
    return Settings(
        hostname=GAME_HOST, listen_host="127.0.0.1", listen_port=listen_port, data_dir=data_dir,
        relay=f"smtp://127.0.0.1:{capture_port}", worker_interval_seconds=0.005,
        sender_interval_seconds=0.0, limits=replace(Limits(), mails_per_sender_per_hour=1_000_000),
        log_file=str(data_dir / LOG_NAME) if log_file is None else log_file)


@dataclass(frozen=True)
class Tick:
    """A progress note: a new round or phase seen in the reports, or a periodic count."""

    elapsed: float
    round: int | None
    phase: str | None
    mails_in: int
    mails_out: int


@dataclass
class DemoRun:
    """One demo game from creation to its last report. `run()` blocks; `on_tick` is called on
    the caller's thread."""

    game: Game
    players: list[str]
    seed: str
    data_dir: Path
    stall_seconds: float = STALL_SECONDS
    on_tick: Callable[[Tick], None] = lambda tick: None
    tick_seconds: float = 10.0
    languages: dict[str, str] = field(default_factory=dict)  # a player's language, when not English
    game_id: str = ""
    services: Services | None = None
    bots: dict[str, MailBot] = field(default_factory=dict)
    capture: CaptureHandler | None = None
    elapsed: float = 0.0
    listen_port: int = 0
    capture_port: int = 0
    notify: str | None = None  # every player's mail setting (None: the default, `turn`)
    bots_kind: str = "plans"  # referee/bots: "plans" or "ask-only"; a game without bots: random orders
    chooser: str = "taste"  # referee/bots: how the bots choose ("fast": the computer player's fast level)
    talk: bool = False  # the bots greet the table and answer the first table talk they get
    verbose: bool = False  # the daemon's log on standard error instead of in `daemon.log`

    def __post_init__(self) -> None:
        self._notes: queue.Queue[tuple[float, str]] = queue.Queue()
        self._last_activity = time.monotonic()
        self._start = time.monotonic()

    def mailbox(self, player: str) -> Path:
        return self.data_dir / "mailboxes" / player

    def _brain(self, player: str) -> Bot | None:
        """The game's own bot of the chosen kind for this player, seeded by the demo's seed;
        None for a game that has none (its bots pick random legal orders)."""
        try:
            return make_bot(self.game.name, self.bots_kind, f"{self.seed}/{player}", self.chooser)
        except ValueError:
            return None

    def mail_stats(self) -> MailStats:
        """What the players got by mail, from their mailboxes (after `run`)."""
        assert self.services is not None
        state = self.services.store.load(self.game_id).state
        rounds = self.game.phase(state).round
        return mailstats.read(self.data_dir / "mailboxes", self.players, max(rounds, 1))

    @property
    def log_path(self) -> Path:
        return self.data_dir / LOG_NAME

    @property
    def mails_in(self) -> int:
        return sum(bot.counters.sent for bot in self.bots.values())

    @property
    def mails_out(self) -> int:
        return self.capture.delivered if self.capture else 0

    def run(self) -> None:
        self._start = time.monotonic()
        self.listen_port, self.capture_port = free_port(), free_port()
        settings = demo_settings(self.data_dir, self.listen_port, self.capture_port, "" if self.verbose else None)
        self.services = build(settings)
        addresses = {name: f"{name}@{PLAYER_HOST}" for name in self.players}
        created = self.services.referee.new_game(
            self.game.name, list(addresses.items()), seed=self.seed,
            notify={name: self.notify for name in self.players} if self.notify else None, languages=self.languages)
        self.game_id = created.id
        self.capture = CaptureHandler(self.data_dir / "mailboxes", {a: n for n, a in addresses.items()},
                                      on_delivery=self._delivered)
        for name, address in addresses.items():
            self.bots[name] = MailBot(name, address, self.game, self.game_id, self.services.store,
                                      self.mailbox(name), self.listen_port, self.seed,
                                      brain=self._brain(name), language=self.languages.get(name, DEFAULT_LANGUAGE),
                                      talk=self.talk)
        stop, ready = threading.Event(), threading.Event()
        relay_server = capture_server(self.capture, self.capture_port)
        relay_server.start()
        failure: list[BaseException] = []

        def daemon() -> None:
            try:
                serve(self.services, stop, port=self.listen_port, on_ready=ready)  # type: ignore[arg-type]
            except BaseException as exc:  # reported by the main thread
                failure.append(exc)
                ready.set()

        threads = [threading.Thread(target=daemon, name="referee-daemon", daemon=True)]
        threads += [threading.Thread(target=bot.run, args=(stop,), name=f"bot-{bot.name}", daemon=True)
                    for bot in self.bots.values()]
        logged = DaemonLog(settings.log_file)
        try:
            threads[0].start()
            if not ready.wait(READY_SECONDS) or failure:
                raise DemoFailed(f"the daemon did not start: {failure[0] if failure else 'timed out'}")
            for thread in threads[1:]:
                thread.start()
            self._watch(threads[0], failure)
        finally:
            stop.set()
            for bot in self.bots.values():
                bot.wake.set()
            for thread in threads:
                if thread.is_alive() or thread.ident is not None:
                    thread.join(timeout=10)
            relay_server.stop()
            logged.close()
            self.elapsed = time.monotonic() - self._start

    # -- watching

    def _delivered(self, name: str, raw: bytes) -> None:
        """Runs on the capture server's thread for every mail filed."""
        self._last_activity = time.monotonic()
        self._notes.put((self._last_activity, _phase(raw)))
        self.bots[name].wake.set()

    def _watch(self, daemon: threading.Thread, failure: list[BaseException]) -> None:
        """A tick for every phase the reports name (X-Referee-Phase: the game's own name, one
        line a phase whatever the players' languages), and one every `tick_seconds` between."""
        round_shown, phases_shown = -1, set()
        sent = 0
        next_tick = time.monotonic() + self.tick_seconds
        while not all(bot.finished for bot in self.bots.values()):
            try:
                at, found = self._notes.get(timeout=0.25)
            except queue.Empty:
                at, found = time.monotonic(), None
            if found is not None:
                round_number, phase = found
                if round_number != round_shown:
                    round_shown, phases_shown = round_number, set()
                if phase not in phases_shown:  # a phase met again in the same round is not news
                    phases_shown.add(phase)
                    self.on_tick(Tick(at - self._start, round_number, phase, self.mails_in, self.mails_out))
                    next_tick = time.monotonic() + self.tick_seconds
            if time.monotonic() >= next_tick:
                self.on_tick(Tick(time.monotonic() - self._start, None, None, self.mails_in, self.mails_out))
                next_tick = time.monotonic() + self.tick_seconds
            if self.mails_in != sent:
                sent, self._last_activity = self.mails_in, time.monotonic()
            self._check(daemon, failure)

    def _check(self, daemon: threading.Thread, failure: list[BaseException]) -> None:
        if failure or not daemon.is_alive():
            raise DemoFailed(f"the daemon stopped: {failure[0] if failure else 'no reason given'}")
        problems = [bot.problem for bot in self.bots.values() if bot.problem]
        if problems:
            raise DemoFailed("; ".join(problems))
        quiet = time.monotonic() - self._last_activity
        if quiet > self.stall_seconds:
            raise DemoFailed(f"the game stalled: no mail for {quiet:.0f} s; {self.waiting()}")

    def waiting(self) -> str:
        """Where the game stands, for an error message."""
        assert self.services is not None
        try:
            status = self.services.referee.status(self.game_id)
        except Exception as exc:  # the message must come out even if the store is broken
            return f"the game cannot be read ({exc})"
        who = ", ".join(sorted({w["player"] for w in status["waiting_for"]})) or "nobody"
        phase = status["phase"]
        bots = "; ".join(
            f"{b.name}: {b.counters.received} received, {b.counters.sent} sent, {b.counters.refused} refused"
            for b in self.bots.values())
        return f"phase {phase['key']} ({phase['name']}) waits for {who}; {bots}"


class DaemonLog:
    """The log of the daemon's threads in this process, to `path` (empty: standard error),
    as its child processes write theirs; `close` puts the logging back as it was."""

    def __init__(self, path: str) -> None:
        self.logger = logging.getLogger("referee")
        self.level = self.logger.level
        self.handler: logging.Handler = logging.FileHandler(path) if path else logging.StreamHandler(sys.stderr)
        self.handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
        self.logger.addHandler(self.handler)
        self.logger.setLevel(logging.INFO)

    def close(self) -> None:
        self.logger.removeHandler(self.handler)
        self.logger.setLevel(self.level)
        self.handler.close()


def _phase(raw: bytes) -> tuple[int, str] | None:
    """The round and the phase's name a mail reports (its X-Referee-Phase), if it reports one."""
    head = BytesParser(policy=policy.default).parsebytes(raw[:8192], headersonly=True)
    parts = [part.strip() for part in str(head.get("X-Referee-Phase") or "").split(";", 2)]
    if len(parts) != 3 or not parts[0].lstrip("-").isdigit():
        return None
    return int(parts[0]), parts[2]
