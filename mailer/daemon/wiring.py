"""Builds the running parts from the settings, the same way for the CLI and the daemon.

Layout under the data directory::

    index.json, games/        the game store
    outbox-pending/           which games have mail waiting; .claims/: mail a sender holds (mailer/outbound/claims.py)
    system/                   mail not tied to a game (refusals, rejected orders), refusals.json, desk.json
    spool/                    inbound mail: segments/ and new/ waiting, archive/ and cur/ done (kept spool_keep_days)
    serve.lock                held by the one `referee serve` of the data directory (mailer/daemon/one_daemon.py)
    signup-codes/             which game each sign-up's code belongs to (referee/signup_codes.py)
    wake/                     per game, when a tick next needs to look at it (referee/wakeups.py)
    relay/                    captured outgoing mail when no relay is configured
    tournaments/              one file per tournament, and ratings.json (referee/tournament/store.py)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Callable

from mailer.inbound.addresses import is_game_address
from mailer.inbound.spool import Spool
from mailer.outbound.bounced import FailureWatch
from mailer.outbound.notifier import MailNotifier
from mailer.outbound.outbox import KEEP_SENT, Outbox, SendReport
from mailer.outbound.relay import Relay, relay_from_url
from mailer.outbound.sending import send_all
from referee import registry, rendering
from referee.computer.thinking import Thinker
from referee.config import Settings
from referee.service import Referee, TickAction, next_wake, stored_game_problem, system_clock
from referee.press import PressLimits
from referee.signups import SignupLimits
from referee.store import TinyDBStore
from referee.tournament.organiser import Organiser
from referee.tournament.store import TournamentStore

if TYPE_CHECKING:
    from .worker import MailWorker


# the system outbox holds the answers of every game's rejected orders and of the desk: it keeps
# more sent records than one game's outbox, for the same two days
SYSTEM_KEEP_SENT_RECORDS = 1000


@dataclass
class Services:
    settings: Settings
    clock: Callable[[], datetime]
    store: TinyDBStore
    outbox: Outbox
    system_outbox: Outbox
    notifier: MailNotifier
    referee: Referee
    spool: Spool
    tournaments: Organiser

    def relay(self) -> Relay:
        s = self.settings
        return relay_from_url(s.relay_url, user=s.relay_user, password=s.relay_password, local_hostname=s.hostname)

    def worker(self) -> MailWorker:
        """The mail worker, whose module (the reading of mail, the handler) is imported here:
        the command line and the sender's process build the services without reading mail."""
        from .worker import MailWorker

        return MailWorker(self.referee, self.notifier, self.settings)

    def send(self, relay: Relay | None = None, *, full_scan: bool = False,
             keep_going: Callable[[], bool] = lambda: True, nudge: threading.Event | None = None) -> SendReport:
        """Deliver whatever is due from both outboxes, over up to `relay_connections`
        connections (mailer/outbound/sending.py, also for `keep_going` and `nudge`). Any
        number of processes may do this at once: each mail goes to the relay once."""
        return send_all([self.outbox, self.system_outbox], relay or self.relay(), self.clock,
                        connections=self.settings.relay_connections, full_scan=full_scan, keep_going=keep_going,
                        nudge=nudge)

    def warm_up(self) -> list[str]:
        """Load the installed games and compile the templates before mail arrives; what
        could not be loaded or compiled."""
        problems = [f"game {name}: {why}" for name, why in registry.broken().items()]
        return problems + [f"template {why}" for why in rendering.preload()]

    def broken_games(self) -> list[str]:
        """What makes each unusable game file unusable, one line per file (a full read of
        every game file: for the daemon's start, not for every pass)."""
        return [problem for _, _, problem in self.store.scan() if problem]

    def sweep(self) -> list[str]:
        """Temporary files that writes cut short by a crash left behind, deleted: the game
        files' and the spool's."""
        return self.store.sweep_temporary() + self.spool.sweep_tmp()

    def prune_spool(self) -> int:
        """Processed mail older than `spool_keep_days` deleted from the spool; how many files."""
        return self.spool.prune(self.settings.spool_keep_days)

    def tick(self, now: datetime | None = None, *, computers: bool = False) -> list[TickAction]:
        """Due deadlines and reminders, for the daemon's timer and `referee tick`; with
        `computers` also the decisions computer seats owe, each thought in a process of its
        own (the daemon has a thread for them, mailer/daemon/computers.py)."""
        if not computers:
            return self.referee.tick(now)
        thinker = Thinker(self.settings.computer_seconds)
        try:
            return self.referee.tick(now, think=thinker.decide)
        finally:
            thinker.close()

    def known_address(self, address: str) -> bool:
        """For the SMTP server: is this one of our game addresses? Cheap, no parsing of mail."""
        return is_game_address(address, self.settings.hostname, self.store.exists)


def build(settings: Settings, clock: Callable[[], datetime] = system_clock) -> Services:
    root = settings.data_dir
    store = TinyDBStore(root, wake_of=next_wake, check=stored_game_problem)
    outbox = Outbox(store, root / "outbox-pending", keep_sent=KEEP_SENT,
                    keep_sent_records=settings.limits.sent_records_per_game or None)
    system_outbox = Outbox(TinyDBStore(root / "system", label="system/"), root / "system" / "outbox-pending",
                           keep_sent=KEEP_SENT, keep_sent_records=SYSTEM_KEEP_SENT_RECORDS)
    notifier = MailNotifier(settings, clock, outbox, system_outbox)
    outbox.watch = FailureWatch(notifier)
    referee = Referee(store, clock=clock, notifier=notifier, default_preset=settings.default_policy)
    referee.signup_limits = SignupLimits(settings.limits.pending_signups_per_address,
                                         settings.limits.signups_per_address_per_hour,
                                         settings.limits.pending_signups_per_seat)
    referee.press_limits = PressLimits(settings.limits.press_per_player_per_hour, settings.limits.press_max_bytes)
    # tournaments: their standings go to each player through the system outbox (mail not tied to a game)
    tournaments = Organiser(referee, TournamentStore(root), mail=lambda to, subject, text, serial: notifier.system_mail(
        to, subject, text, in_reply_to=None, serial=serial))
    referee.finished_hooks.append(tournaments.game_finished)
    return Services(settings, clock, store, outbox, system_outbox, notifier, referee, Spool(root / "spool"),
                    tournaments)
