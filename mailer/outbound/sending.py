"""Sending: due mail from the outboxes to the relay, over several connections, fairly.

A pass claims due mail game by game (mailer/outbound/claims.py: whatever another sender holds
is left to it) and hands it to a pool of relay connections, each used for one mail after
another. Which mail goes next: games take turns, the one whose turn came longest ago (or never,
in this pass) first, and among those never served the one with the oldest mail; within a game
mail goes oldest first. So every game's oldest mail goes before any game's second, and a
receipt for a new order in one game does not wait behind another game's backlog. A game has at
most BATCH mails claimed at a time, and all games together at most QUEUE_LIMIT waiting for a
connection: a claim is an open file, and a claimed mail is held in memory.

Connections open as they are needed, up to `connections`: one at first, and once a mail has
waited SLOW_START_SECONDS for one, one more for each mail waiting. A relay that answers quickly
is served by a single connection (and at most that one mail can be in the state a crash
repeats, mailer/outbound/claims.py); a slow one gets them all. While it sends, the pass looks
for new mail every REFRESH_SECONDS (or at once when `nudge` is set), records what became of the
mails sent since (one write per game), and ends when nothing is due and nothing is in hand.

`keep_going` is asked before each mail: when it says no, the pass takes no more mail, waits
for the mails on its connections, records everything and returns; the rest stays pending.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Sequence

from mailer.repeated import RepeatedLog
from referee.store import GameFileBroken, GameNotFound, StoreBusy

from .outbox import Held, Outbox, SendReport, refused_fields, sent_fields
from .relay import Relay, RelayError

log = logging.getLogger("referee.sender")

SLOW_START_SECONDS = 0.3
REFRESH_SECONDS = 1.0
RECORD_SECONDS = 2.0  # a game's finished mails are recorded in its file at its next look for new mail, or after this
BATCH = 32
QUEUE_LIMIT = 128  # mails claimed and waiting for a connection, all games together (each holds a file open)
RECORD_AFTER = 64  # finished mails that make the pass record them before its next look
_TICK = 0.1  # how often the pass looks at its connections, the nudge and `keep_going`


@dataclass
class _Game:
    outbox: Outbox
    game_id: str
    queued: deque[tuple[float, Held]] = field(default_factory=deque)  # (when queued, mail), oldest first
    in_hand: set[int] = field(default_factory=set)  # record ids on a connection now
    outcomes: dict[int, tuple[dict[str, Any], Held]] = field(default_factory=dict)  # to record
    turn: int = 0  # when a mail of this game last went to a connection (0: not yet in this pass)
    mark_seen: int | None = -1  # the game's marker time at this pass's last look (-1: not looked yet)
    looked_at: float = 0.0  # monotonic: this pass's last look
    due_at: float = 0.0  # monotonic: when mail left waiting at the last look (a retry, a full batch) is due
    recorded_at: float = 0.0  # monotonic: when this pass last wrote the game's file


def send_all(outboxes: Sequence[Outbox], relay: Relay, clock: Callable[[], datetime], *, connections: int = 1,
             full_scan: bool = False, keep_going: Callable[[], bool] = lambda: True,
             nudge: threading.Event | None = None) -> SendReport:
    """One sending pass over `outboxes`; what was sent, deferred and given up."""
    return _Pass(list(outboxes), relay, clock, max(1, connections), keep_going, nudge).run(full_scan)


def deliver(outbox: Outbox, relay: Relay, now: datetime, *, full_scan: bool = False,
            keep_going: Callable[[], bool] = lambda: True, connections: int = 1) -> SendReport:
    """What is due from one outbox alone, as of `now`: a pass of `send_all` with a fixed clock."""
    return send_all([outbox], relay, lambda: now, connections=connections, full_scan=full_scan,
                    keep_going=keep_going)


class _Pass:
    def __init__(self, outboxes: list[Outbox], relay: Relay, clock: Callable[[], datetime], connections: int,
                 keep_going: Callable[[], bool], nudge: threading.Event | None) -> None:
        self.outboxes, self.relay, self.clock = outboxes, relay, clock
        self.connections, self.keep_going, self.nudge = connections, keep_going, nudge
        self.report = SendReport()
        self._cv = threading.Condition()
        self._games: dict[tuple[int, str], _Game] = {}
        self._queued = self._in_hand = self._idle = self._turns = self._refreshes = self._finished = 0
        self._threads: list[threading.Thread] = []
        self._closing = False
        self._error: BaseException | None = None
        self._orphans: list[Held] = []  # in hand on a connection that died
        self._errors = RepeatedLog(log)

    # -- the pass

    def run(self, full_scan: bool) -> SendReport:
        for outbox in self.outboxes:
            outbox.adopt_legacy_journal()
        try:
            self._loop(full_scan)
        finally:
            self._close()
        if self._error is not None:
            raise self._error
        return self.report

    def _loop(self, full_scan: bool) -> None:
        found, next_refresh = self._refresh(full_scan), time.monotonic() + REFRESH_SECONDS
        while True:
            if not self.keep_going():
                with self._cv:
                    self._closing = True  # the mails on the connections finish; nothing else starts
                    self._cv.notify_all()
                return
            nudged = self.nudge is not None and self.nudge.is_set()
            with self._cv:
                short = self._queued < max(1, len(self._threads))
                piled = self._finished >= RECORD_AFTER
            if nudged or piled or time.monotonic() >= next_refresh or (found and short):
                if nudged:
                    self.nudge.clear()  # type: ignore[union-attr]
                found, next_refresh = self._refresh(False), time.monotonic() + REFRESH_SECONDS
            with self._cv:
                if self._error is not None:
                    return
                if not self._queued and not self._in_hand and not found:
                    return
                self._grow()
                self._cv.wait(_TICK)

    def _refresh(self, full_scan: bool) -> bool:
        """Record finished mail and claim due mail, game by game; whether anything was claimed.
        The games are visited from a different one each time, so that when QUEUE_LIMIT is
        reached it is not always the same games that wait."""
        now, found = self.clock(), False
        self._refreshes += 1
        with self._cv:
            self._finished = 0
        for index, outbox in enumerate(self.outboxes):
            try:
                game_ids = outbox.games(full_scan)
            except Exception as exc:  # the catalogue cannot be read: the markers still can
                self._errors.error(f"list {index}", f"cannot list the games to send for: {exc}")
                game_ids = outbox.games(False)
            start = self._refreshes % len(game_ids) if game_ids else 0
            for game_id in game_ids[start:] + game_ids[:start]:
                mark = outbox.mark_time(game_id)
                with self._cv:
                    game = self._games.setdefault((index, game_id), _Game(outbox, game_id))
                    if not self._worth_a_look(game, mark):
                        continue
                    outcomes, game.outcomes = game.outcomes, {}
                    held = {mail.record_id for _, mail in game.queued} | game.in_hand
                    room = min(BATCH - len(held), QUEUE_LIMIT - self._queued)
                if room <= 0 and not outcomes:
                    continue
                claimed = self._visit(game, now, outcomes, held, max(room, 0), mark)
                if claimed:
                    found = True
                    at = time.monotonic()
                    with self._cv:
                        game.queued.extend((at, mail) for mail in claimed)
                        self._queued += len(claimed)
                        self._cv.notify_all()
        return found

    def _worth_a_look(self, game: _Game, mark: int | None) -> bool:
        """Whether to open a game's file now: its marker changed since the last look (a unit
        of work queued mail), mail it left waiting is due, finished mail has waited long
        enough to be recorded, or REFRESH_SECONDS have passed (a marker set twice within the
        file system's clock tick looks unchanged). Looking at every game with mail at every
        refresh read and decoded each file again and again while nothing in it had changed."""
        at = time.monotonic()
        if mark is None or mark != game.mark_seen or at >= game.due_at or at - game.looked_at >= REFRESH_SECONDS:
            return True
        return bool(game.outcomes) and (at - game.recorded_at >= RECORD_SECONDS or len(game.outcomes) >= BATCH)

    def _visit(self, game: _Game, now: datetime, outcomes: dict[int, tuple[dict[str, Any], Held]],
               held: set[int], room: int, mark: int | None = None) -> list[Held]:
        later: list[str] = []
        try:
            claimed = game.outbox.visit(game.game_id, now, outcomes=outcomes, held=held, limit=room, later=later)
            at = time.monotonic()
            game.mark_seen, game.looked_at, game.recorded_at = mark, at, at if outcomes else game.recorded_at
            game.due_at = at + max((datetime.fromisoformat(min(later)) - now).total_seconds(), 0.0) \
                if later else float("inf")
            return claimed
        except GameNotFound:
            (game.outbox.markers / game.game_id).unlink(missing_ok=True)
            for _, mail in outcomes.values():
                mail.claim.release(remove=False)
            return []
        except Exception as exc:  # a busy lock, a full disk, a broken file: this game waits, the others go on
            with self._cv:
                game.outcomes.update(outcomes)  # tried again at the next refresh
            if isinstance(exc, GameFileBroken):  # said by the caller (the daemon logs it hourly)
                self.report.skipped.append(str(exc))
            elif not isinstance(exc, StoreBusy):
                self._errors.error(f"game {game.game_id} {type(exc).__name__}",
                                   f"cannot send the mail of {game.game_id} now: {type(exc).__name__}: {exc}")
            return []

    def _grow(self) -> None:
        """Open connections when mail is waiting and the connections are all busy: the first
        at once, more once a mail has waited SLOW_START_SECONDS (one for each mail waiting)."""
        if not self._queued or self._idle or len(self._threads) >= self.connections:
            return
        if self._threads:
            waited = time.monotonic() - min(g.queued[0][0] for g in self._games.values() if g.queued)
            if waited < SLOW_START_SECONDS:
                return
        for _ in range(min(self._queued, self.connections - len(self._threads))):
            thread = threading.Thread(target=self._connection, name=f"relay-{len(self._threads) + 1}", daemon=True)
            self._threads.append(thread)
            thread.start()
            if len(self._threads) == 1:
                return  # the first alone: most relays answer fast enough for one

    def _close(self) -> None:
        """Wait for the mails on the connections, record everything, let go of the rest."""
        with self._cv:
            self._closing = True
            self._cv.notify_all()
        for thread in self._threads:
            thread.join()
        now = self.clock()
        for game in self._games.values():
            for _, mail in game.queued:
                mail.claim.release(remove=False)
            game.queued.clear()
            if game.outcomes:
                outcomes, game.outcomes = game.outcomes, {}
                try:
                    game.outbox.visit(game.game_id, now, outcomes=outcomes, held=set(), limit=0)
                except Exception as exc:  # the claims say "sent" where it matters; the next pass records it
                    log.error("cannot record the mail sent for %s: %s: %s", game.game_id, type(exc).__name__, exc)
                    for _, mail in outcomes.values():
                        mail.claim.release(remove=False)
        for mail in self._orphans:
            mail.claim.release(remove=False)
        self._errors.flush(everything=True)

    # -- the connections

    def _connection(self) -> None:
        session = getattr(self.relay, "session", None)
        session = session() if session is not None else self.relay
        mail: Held | None = None
        try:
            while True:
                mail = self._take()
                if mail is None:
                    return
                fields, outcome = self._hand_over(session, mail)
                self._finish(mail, fields, outcome)
                mail = None
        except BaseException as exc:  # the process is going down: the mail in hand stays pending
            with self._cv:
                if mail is not None:
                    self._release_hand(mail)
                    self._orphans.append(mail)
                self._error = self._error or exc
                self._closing = True
                self._cv.notify_all()
        finally:
            close = getattr(session, "close", None)
            if close is not None and session is not self.relay:
                try:
                    close()
                except Exception:  # the mail is handed over or not; a failing QUIT changes neither
                    pass

    def _take(self) -> Held | None:
        with self._cv:
            while True:
                if self._closing or not self.keep_going():
                    return None
                waiting = [g for g in self._games.values() if g.queued]
                if waiting:
                    game = min(waiting, key=lambda g: (g.turn, g.queued[0][1].created_at))
                    _, mail = game.queued.popleft()
                    self._turns += 1
                    game.turn = self._turns
                    self._queued -= 1
                    self._in_hand += 1
                    game.in_hand.add(mail.record_id)
                    self._cv.notify_all()
                    return mail
                self._idle += 1
                self._cv.wait(_TICK * 5)
                self._idle -= 1

    def _hand_over(self, session: Any, mail: Held) -> tuple[dict[str, Any], str]:
        try:
            session.deliver(mail.raw, mail.mail_from, [mail.to], mail.message_id)
        except RelayError as exc:
            fields = refused_fields(mail.attempts, self.clock(), str(exc), exc.temporary)
            return fields, "failed" if fields.get("status") == "failed" else "deferred"
        try:
            mail.claim.record_sent()
        except OSError as exc:  # it is recorded in the game file below, if that can be written
            log.error("the relay took %s, but its claim could not be written: %s", mail.message_id, exc)
        return sent_fields(mail.attempts, self.clock()), "sent"

    def _finish(self, mail: Held, fields: dict[str, Any], outcome: str) -> None:
        with self._cv:
            game = self._release_hand(mail)
            game.outcomes[mail.record_id] = (fields, mail)
            self._finished += 1
            getattr(self.report, outcome).append(mail.message_id)
            if outcome != "sent":
                self.report.troubles.append((mail.message_id, mail.to, str(fields.get("last_error") or "")))
            self._cv.notify_all()

    def _release_hand(self, mail: Held) -> _Game:
        game = self._games[(self.outboxes.index(mail.outbox), mail.game_id)]
        game.in_hand.discard(mail.record_id)
        self._in_hand -= 1
        return game
