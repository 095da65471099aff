"""The worker: spooled mail in, orders submitted, answers queued.

A pass takes the spool's mail per game in arrival order and submits a run of one game's orders
in one unit of work; games are worked on in several threads at once. A mail whose work fails
with an error that passes (a full disk, a busy or damaged game file) stays in the spool and is
tried again after a wait; any other failure sets the mail aside. What one mail is and what it
gets for an answer is mailer/daemon/handler.py.
"""

from __future__ import annotations

import logging
import threading
import time
import zlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Callable, TypeVar

from mailer.inbound.spool import Spool
from mailer.repeated import RepeatedLog
from mailer.outbound.notifier import MailNotifier
from referee.config import Settings
from referee.receipts import DUPLICATE
from referee.service import Referee
from referee.store import GameFileBroken, GameNotFound, StoreBusy

from .handler import PLAIN, Handled, IdentifiedMail, MailHandler

log = logging.getLogger("referee.worker")

PARALLEL_GAMES = 4
_T = TypeVar("_T")
# Errors that say something about the machine or about one game's file, not about the mail:
# a full disk, an I/O error, a permission, a lock held too long, a damaged game file. Such a
# mail stays in the spool and is tried again after a wait that doubles up to RETRY_MAX.
PASSING = (OSError, MemoryError, StoreBusy, GameNotFound, GameFileBroken)
RETRY_FIRST = 1.0
RETRY_MAX = 300.0

_GONE = Handled("gone", "filed by another worker on the spool")
# mail from strangers, taken without an answer: a flood of it must not write a log line per mail
_strangers = RepeatedLog(log)


def log_handled(handled: Handled) -> None:
    """The daemon's log line for a mail dealt with (no trailing blank when it has no detail);
    a stranger's mail unanswered is logged once a minute with a count."""
    line = (f"mail {handled.message_id or '<no Message-ID>'} {handled.outcome}: {handled.game or '-'} "
            f"{handled.player or '-'}" + (f" {handled.detail}" if handled.detail else ""))
    if handled.stranger:
        _strangers.error("stranger", f"{line} (mail from strangers taken without an answer)", level=logging.INFO)
    else:
        log.info("%s", line)


class MailWorker(MailHandler):
    """Works through the spool, pass after pass (`run_once`), keeping the mail it could not
    finish for a later pass."""

    def __init__(self, referee: Referee, notifier: MailNotifier, settings: Settings,
                 game_exists: Callable[[str], bool] | None = None) -> None:
        super().__init__(referee, notifier, settings, game_exists)
        self.parallel = PARALLEL_GAMES
        self.share = (0, 1)  # (which, of how many): this worker takes the mail of the games of its share
        self.clock: Callable[[], float] = time.monotonic
        self._retries: dict[str, tuple[int, float, str | None]] = {}  # spool key: failed tries, next try, game
        self._kept: Counter[str] = Counter()  # this pass: why mail was kept for a later try
        self._guard = threading.Lock()  # games are worked on in several threads

    @property
    def kept(self) -> int:
        """How many mails are waiting in the spool for a later try after an error that passes."""
        return len(self._retries)

    def _mine(self, spool: Spool, key: str) -> bool:
        """Whether a mail is in this worker's share (mailer/daemon/shares.py): by the game its
        Delivered-To names, so that one game's mail is always taken by the same worker."""
        index, count = self.share
        return count == 1 or zlib.crc32(spool.game_of(key).encode("utf-8")) % count == index

    def _take(self, spool: Spool, key: str) -> IdentifiedMail | Handled:
        """Read a spooled mail; `_GONE` when another worker on the spool has filed it since."""
        try:
            raw = spool.read(key)
        except FileNotFoundError:
            if not spool.has(key):
                return _GONE
            raise
        return self._read(raw)

    def run_once(self, spool: Spool) -> list[Handled]:
        """Process every spooled message once; a busy store leaves the message for later.

        Mail is taken per game in arrival order, and a run of orders to one game is submitted
        in one unit of work (one read and one write of the game's file). Games are
        independent, so several are worked on at once (`parallel` threads): most of a unit of
        work's time is spent waiting for the disk to confirm its write, and the waits overlap.

        A mail whose work fails with an error that passes (PASSING) stays in the spool and is
        tried again after a wait; one that fails otherwise is set aside (`_failed`)."""
        done: dict[str, Handled] = {}
        try:
            listed = [key for key in spool.keys() if self._mine(spool, key)]
        except OSError as exc:
            log.error("the spool cannot be listed (%s); trying again at the next pass", exc)
            return []
        now = self.clock()
        present = set(listed)
        with self._guard:
            self._retries = {key: entry for key, entry in self._retries.items() if key in present}
            keys = [key for key in listed if self._retries.get(key, (0, 0.0, None))[1] <= now]
            held: dict[str, str] = {}  # a game's oldest mail still waiting: its later mail waits too
            for key in listed:
                tries, after, game = self._retries.get(key, (0, 0.0, None))
                if after > now and game is not None:
                    held.setdefault(game, key)
        games: dict[str, list[tuple[str, IdentifiedMail]]] = {}
        for key in keys:
            read = self._attempt(spool, key, done, lambda key=key: self._take(spool, key))
            if read is None:
                continue
            if read is _GONE:  # taken and filed by another worker on this spool since it was listed
                continue
            if isinstance(read, Handled):
                self._file(spool, key, done, read)
            elif read.who[0] not in held or key < held[read.who[0]]:  # a game's mail in arrival order
                games.setdefault(read.who[0], []).append((key, read))
        for game_id, mails in games.items():
            games[game_id] = self._one_copy(spool, mails, done)
        if len(games) > 1 and self.parallel > 1:
            with ThreadPoolExecutor(min(self.parallel, len(games)), thread_name_prefix="worker") as pool:
                for finished in [pool.submit(self._game_apart, spool, game_id, mails, done)
                                 for game_id, mails in games.items()]:
                    finished.result()
        else:
            for game_id, mails in games.items():
                self._game_apart(spool, game_id, mails, done)
        self._report_kept()
        return [done[key] for key in keys if key in done]  # in arrival order

    def _one_copy(self, spool: Spool, mails: list[tuple[str, IdentifiedMail]],
                  done: dict[str, Handled]) -> list[tuple[str, IdentifiedMail]]:
        """One mail that reached a game at its plain address and at a token address (To the
        game, Bcc the player's reply address) is two copies in the spool: the copy that carries
        the token is read; the other is filed unanswered, so that the mail gets one answer.
        (Copies taken in different passes are matched in the game's file: mailer/daemon/handler.py.)"""
        tokened = {read.mail.message_id for _, read in mails if read.command is None or read.command[0] != PLAIN}
        kept = []
        for key, read in mails:
            if read.command is not None and read.command[0] == PLAIN and read.mail.message_id in tokened:
                self._file(spool, key, done, Handled(DUPLICATE, "a copy at the plain address of a mail that came "
                                                     "with the token too", read.who[0], read.who[1],
                                                     read.mail.message_id))
            else:
                kept.append((key, read))
        return kept

    def _game_apart(self, spool: Spool, game_id: str, mails: list[tuple[str, IdentifiedMail]],
                    done: dict[str, Handled]) -> None:
        """One game's mail; whatever goes wrong stays with this game's mail."""
        try:
            self._game(spool, game_id, mails, done)
        except Exception as exc:  # every step is guarded; this is the last line of defence
            log.exception("the mail of game %s could not be worked on", game_id)
            for key, _ in mails:
                if key not in done:
                    self._later(key, exc, game_id)

    def _game(self, spool: Spool, game_id: str, mails: list[tuple[str, IdentifiedMail]],
              done: dict[str, Handled]) -> None:
        """One game's mail, in order: runs of orders together, commands alone."""
        i = 0
        while i < len(mails):
            run = [mails[i]]
            while mails[i][1].command is None and i + len(run) < len(mails) \
                    and mails[i + len(run)][1].command is None:
                run.append(mails[i + len(run)])
            i += len(run)
            if len(run) > 1 and self._submit_run(spool, game_id, run, done):
                continue
            for key, read in run:  # alone, so that one bad mail cannot hold up the others
                self._one(spool, key, read, done)

    def _submit_run(self, spool: Spool, game_id: str, run: list[tuple[str, IdentifiedMail]],
                    done: dict[str, Handled]) -> bool:
        """Submit a run of orders together; False when it failed and must be done one by one."""
        try:
            receipts = self.referee.submit_many(game_id, [read.submission() for _, read in run])
        except PASSING as exc:
            for key, _ in run:  # the mail stays in the spool for a later pass
                self._later(key, exc, game_id)
            return True
        except Exception:
            log.info("a batch of %d mails to %s failed; taking them one by one", len(run), game_id)
            return False
        finally:
            self._flush_marks()
        for (key, read), receipt in zip(run, receipts):
            self._settle(spool, key, done, lambda read=read, receipt=receipt: self._answer(read, receipt), read)
        return True

    def _one(self, spool: Spool, key: str, read: IdentifiedMail, done: dict[str, Handled]) -> None:
        self._settle(spool, key, done, lambda: self._dispatch(read), read)

    def _settle(self, spool: Spool, key: str, done: dict[str, Handled], work: Callable[[], Handled],
                read: IdentifiedMail | None = None) -> None:
        """Do the rest of one mail's work and file the mail as done (or as `_attempt` says)."""
        handled = self._attempt(spool, key, done, work, read)
        if handled is not None:
            self._file(spool, key, done, replace(handled, message_id=read.mail.message_id) if read else handled)

    def _file(self, spool: Spool, key: str, done: dict[str, Handled], handled: Handled) -> None:
        """Move a mail whose work is done to cur/. If that fails the mail stays in new/ and is
        read again later: its Message-ID is recorded with its effect, so nothing is done twice."""
        try:
            spool.done(key, "S")
        except OSError as exc:
            if not (isinstance(exc, FileNotFoundError) and not spool.has(key)):
                self._later(key, exc, handled.game)
                return
            # another worker on this spool did the same work and filed it first; the mail's
            # Message-ID made its second submission a duplicate, so nothing was done twice
        with self._guard:
            self._retries.pop(key, None)
        done[key] = handled

    def _attempt(self, spool: Spool, key: str, done: dict[str, Handled], work: Callable[[], _T],
                 read: IdentifiedMail | None = None) -> _T | None:
        """Run one step of a mail's work. None when it did not finish: the mail is left for a
        later pass when the error passes (PASSING; a mail processed again is recognised by
        its Message-ID), and set aside on any other error."""
        try:
            return work()
        except PASSING as exc:
            self._later(key, exc, read.who[0] if read is not None else None)
            return None
        except Exception as exc:
            self._failed(spool, key, exc, done, read)
            return None
        finally:
            self._flush_marks()

    def _flush_marks(self) -> None:
        try:
            self.notifier.flush_marks()
        except OSError as exc:  # the notifier keeps the games and marks them at its next flush
            log.warning("outgoing mail could not be marked for sending yet: %s", exc)

    def _later(self, key: str, exc: BaseException, game: str | None = None) -> None:
        """Keep a mail in the spool and try it again after a wait that doubles each time; the
        later mail of its game (when known) waits for it, so that a game's mail is still
        taken in the order it arrived."""
        with self._guard:
            tries = self._retries.get(key, (0, 0.0, None))[0] + 1
            wait = min(RETRY_FIRST * 2 ** min(tries - 1, 30), RETRY_MAX)
            self._retries[key] = (tries, self.clock() + wait, game)
            self._kept[_why(exc)] += 1

    def _report_kept(self) -> None:
        """One line per kind of trouble per pass, however many mails it holds back."""
        with self._guard:
            kept, self._kept = self._kept, Counter()
        for why, count in kept.items():
            log.warning("%d mail(s) kept in the spool to be tried again later: %s", count, why)

    def _failed(self, spool: Spool, key: str, exc: Exception, done: dict[str, Handled],
                read: IdentifiedMail | None = None) -> None:
        """Never lose the mail, never stop the daemon. When the mail's game cannot be worked on
        at all, the game is at fault and the mail waits for it; otherwise the mail itself
        cannot be processed: it is set aside (`referee spool`), its sender is told when they
        are a known player, and the moderator is told."""
        if read is not None and not self._game_works(read.who[0]):
            log.error("game %s cannot be worked on; its mail waits in the spool", read.who[0], exc_info=exc)
            self._later(key, exc, read.who[0])
            return
        reason = f"{type(exc).__name__}: {exc}"[:300]
        game, player = (read.who[0], read.who[1]) if read is not None else (None, None)
        try:
            spool.set_aside(key, reason, game=game, player=player)
        except OSError as trouble:  # not even that: keep it where it is
            self._later(key, trouble, game)
            return
        with self._guard:
            self._retries.pop(key, None)
        log.error("mail %s set aside: %s; `referee spool` lists it and `referee spool requeue %s` "
                  "processes it again", key, reason, key, exc_info=exc)
        done[key] = Handled("error", f"set aside: {reason}", game, player,
                            read.mail.message_id if read is not None else None)
        self._tell_set_aside(key, reason, read)


def _why(exc: BaseException) -> str:
    """A short, stable description of an error that passes, for the pass's summary line."""
    return f"{type(exc).__name__}: {exc}"[:200]

