"""The durable outbox: mail is queued in the same atomic write as the turn that caused it.

Records live in the game's own file (table "outbox"), so a turn and its reports are stored
together or not at all. A marker file per game with pending mail lets the sender skip idle
games; a full scan at start catches a marker lost in a crash. Delivery happens outside the
game's lock (the relay may be slow). As soon as the relay has taken a mail its Message-ID is
appended to a small journal and fsync'ed; the game's records are marked sent together after
its batch, and a record found in the journal is never sent again. So a crash re-sends at most
the one mail that was in flight, with the same Message-ID, which the capture relay and mail
clients recognise, without rewriting the game file once per mail. A sent record keeps who got
what and when but drops the raw mail: otherwise every report ever sent would be rewritten
with each later turn of the game.
"""

from __future__ import annotations

import os
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable

from referee.storage import write_atomically
from referee.store import GameFileBroken, GameNotFound, GameStore, GameTransaction, StoreError

from .compose import OutgoingMail, build
from .relay import Relay, RelayError

TABLE = "outbox"
MAX_ATTEMPTS = 12
BASE_DELAY = timedelta(seconds=30)
MAX_DELAY = timedelta(hours=6)
JOURNAL = ".sent"  # in the marker directory: "<game id> <Message-ID>" per line


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min … capped at six hours: twelve tries span more than a day."""
    return min(BASE_DELAY * (2 ** min(max(attempts - 1, 0), 20)), MAX_DELAY)


def queue(tx: GameTransaction, mail: OutgoingMail, *, host: str, sender_name: str, now: datetime) -> None:
    """Add a mail to the game's outbox inside the caller's unit of work. A mail whose
    Message-ID is already queued is not queued again."""
    if tx.find_record(TABLE, "message_id", mail.message_id) is not None:
        return
    raw = build(mail, host=host, sender_name=sender_name, date=now)
    tx.add_record(TABLE, {
        "message_id": mail.message_id,
        "kind": mail.kind,
        "to": mail.to,
        "from": f"{mail.game_id}@{host}" if mail.game_id else f"referee@{host}",
        "subject": mail.subject,
        "raw": raw.decode("utf-8", "surrogateescape"),
        "status": "pending",
        "attempts": 0,
        "created_at": now.isoformat(),
        "next_attempt_at": now.isoformat(),
        "last_error": None,
    })


@dataclass
class SendReport:
    sent: list[str] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # games whose mail could not be looked at, and why


class Outbox:
    def __init__(self, store: GameStore, markers: str | os.PathLike[str]) -> None:
        self.store = store
        self.markers = Path(markers)
        self.markers.mkdir(parents=True, exist_ok=True)

    def mark(self, game_id: str) -> None:
        """Call after a unit of work that queued mail has been written. Only the marker's
        existence counts, so an existing one is left as it is."""
        os.close(os.open(f"{self.markers}/{game_id}", os.O_WRONLY | os.O_CREAT, 0o644))

    def _games(self, full_scan: bool) -> list[str]:
        if full_scan:
            return [row["id"] for row in self.store.list()]
        return sorted(p.name for p in self.markers.iterdir() if not p.name.startswith("."))

    def pending(self, *, include_sent: bool = False, unreadable: list[str] | None = None) -> list[dict[str, Any]]:
        """Mail not yet sent, of every game; a game whose file cannot be read is left out and
        its problem added to `unreadable`, when given."""
        rows = []
        for game_id in self._games(full_scan=True):
            try:
                with self.store.transaction(game_id) as tx:
                    records = tx.records(TABLE)
            except GameNotFound:
                continue
            except GameFileBroken as exc:
                _left_out(exc, unreadable)
                continue
            rows.extend(dict(r, game=game_id) for r in records
                        if include_sent or r["status"] not in ("sent", "dropped"))
        return rows

    def retry_now(self, now: datetime, unreadable: list[str] | None = None) -> int:
        """Make every pending or failed mail due at once (moderator's `outbox retry`); a game
        whose file cannot be read is left out and its problem added to `unreadable`, when given."""
        count = 0
        for game_id in self._games(full_scan=True):
            try:
                with self.store.transaction(game_id) as tx:
                    for record in tx.records(TABLE):
                        if record["status"] in ("pending", "failed"):
                            tx.update_record(TABLE, record["id"], {"status": "pending",
                                                                   "next_attempt_at": now.isoformat()})
                            count += 1
            except GameNotFound:
                continue
            except GameFileBroken as exc:
                _left_out(exc, unreadable)
                continue
            if count:
                self.mark(game_id)
        return count

    def deliver(self, relay: Relay, now: datetime, *, full_scan: bool = False,
                keep_going: Callable[[], bool] = lambda: True) -> SendReport:
        """Deliver what is due. `keep_going` is asked before each mail: when it says no, the
        rest stays pending for the next pass (a stopping daemon waits for one mail at most)."""
        report = SendReport()
        taken = self._journal()  # delivered before a crash, maybe not yet marked in its game
        marked: set[str] = set()
        with open(self.markers / JOURNAL, "a", encoding="utf-8") as log:
            for game_id in self._games(full_scan):
                if not keep_going():
                    break
                try:
                    marked |= self._deliver_game(game_id, relay, now, taken, log, report, keep_going)
                except GameNotFound:
                    (self.markers / game_id).unlink(missing_ok=True)
                except (StoreError, OSError) as exc:  # a broken or busy game file: the others go on
                    report.skipped.append(str(exc) if isinstance(exc, StoreError) else f"game {game_id}: {exc}")
                    with suppress(OSError):  # looked at again by every pass until it can be read
                        self.mark(game_id)
        if marked or taken:  # keep only what no game file records yet
            rest = "".join(f"{line}\n" for line in sorted(taken - marked))
            write_atomically(self.markers / JOURNAL, rest.encode("utf-8"))
        return report

    def _journal(self) -> set[str]:
        try:
            text = (self.markers / JOURNAL).read_text(encoding="utf-8")
        except FileNotFoundError:
            return set()
        return {line for line in text.splitlines() if line}

    def _deliver_game(self, game_id: str, relay: Relay, now: datetime, taken: set[str], log: Any,
                      report: SendReport, keep_going: Callable[[], bool]) -> set[str]:
        """Deliver one game's due mail; the journal lines now recorded in the game file."""
        with self.store.transaction(game_id) as tx:
            pending = [r for r in tx.records(TABLE) if r["status"] == "pending"]
            if not any(f"{game_id} {r['message_id']}" in taken or r["next_attempt_at"] <= now.isoformat()
                       for r in pending):
                self._settle(game_id, tx)
                return set()
        outcomes: dict[int, dict[str, Any]] = {}
        lines: set[str] = set()
        for record in pending:
            line = f"{game_id} {record['message_id']}"
            if line in taken:  # the relay took it before a crash: never again
                outcomes[record["id"]] = _sent(record, now)
                lines.add(line)
                continue
            if record["next_attempt_at"] > now.isoformat():
                continue
            if not keep_going():
                break
            try:
                relay.deliver(record["raw"].encode("utf-8", "surrogateescape"), record["from"],
                              [record["to"]], record["message_id"])
            except RelayError as exc:
                attempts = record["attempts"] + 1
                if exc.temporary and attempts < MAX_ATTEMPTS:
                    outcomes[record["id"]] = {"attempts": attempts, "last_error": str(exc)[:300],
                                              "next_attempt_at": (now + backoff(attempts)).isoformat()}
                    report.deferred.append(record["message_id"])
                else:
                    outcomes[record["id"]] = {"attempts": attempts, "last_error": str(exc)[:300], "status": "failed"}
                    report.failed.append(record["message_id"])
                continue
            log.write(line + "\n")
            log.flush()
            os.fsync(log.fileno())
            outcomes[record["id"]] = _sent(record, now)
            lines.add(line)
            report.sent.append(record["message_id"])
        with self.store.transaction(game_id) as tx:
            for record_id, fields in outcomes.items():
                tx.update_record(TABLE, record_id, fields)
            self._settle(game_id, tx)
        return lines

    def _settle(self, game_id: str, tx: GameTransaction) -> None:
        """Keep or clear the game's marker while its lock is held, so that a turn queueing mail
        just after cannot have its fresh marker removed by this pass."""
        if any(r["status"] == "pending" for r in tx.records(TABLE)):
            self.mark(game_id)
        else:
            (self.markers / game_id).unlink(missing_ok=True)


def _left_out(exc: GameFileBroken, unreadable: list[str] | None) -> None:
    """A game whose file is broken is left out of a moderator's listing and named in
    `unreadable`; without that list the error stands."""
    if unreadable is None:
        raise exc
    unreadable.append(str(exc))


def _sent(record: dict[str, Any], now: datetime) -> dict[str, Any]:
    return {"status": "sent", "attempts": record["attempts"] + 1, "sent_at": now.isoformat(), "last_error": None,
            "raw": None}
