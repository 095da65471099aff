"""The durable outbox: mail is queued in the same atomic write as the turn that caused it.

Records live in the game's own file (table "outbox"), so a turn and its reports are stored
together or not at all. A marker file per game with pending mail lets the sender skip idle
games; a full scan at start catches a marker lost in a crash. Delivery happens outside the
game's lock (the relay may be slow) and each mail is marked sent as soon as the relay has
taken it, so a crash re-sends at most the one mail that was in flight, with the same
Message-ID, which the capture relay and mail clients recognise. A sent record keeps who got
what and when but drops the raw mail: otherwise every report ever sent would be rewritten
with each later turn of the game.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from referee.store import GameNotFound, GameStore, GameTransaction

from .compose import OutgoingMail, build
from .relay import Relay, RelayError

TABLE = "outbox"
MAX_ATTEMPTS = 12
BASE_DELAY = timedelta(seconds=30)
MAX_DELAY = timedelta(hours=6)


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min … capped at six hours: twelve tries span more than a day."""
    return min(BASE_DELAY * (2 ** min(max(attempts - 1, 0), 20)), MAX_DELAY)


def queue(tx: GameTransaction, mail: OutgoingMail, *, host: str, sender_name: str, now: datetime) -> None:
    """Add a mail to the game's outbox inside the caller's unit of work. A mail whose
    Message-ID is already queued is not queued again."""
    if any(r["message_id"] == mail.message_id for r in tx.records(TABLE)):
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


class Outbox:
    def __init__(self, store: GameStore, markers: str | os.PathLike[str]) -> None:
        self.store = store
        self.markers = Path(markers)
        self.markers.mkdir(parents=True, exist_ok=True)

    def mark(self, game_id: str) -> None:
        """Call after a unit of work that queued mail has been written."""
        (self.markers / game_id).touch()

    def _games(self, full_scan: bool) -> list[str]:
        if full_scan:
            return [row["id"] for row in self.store.list()]
        return sorted(p.name for p in self.markers.iterdir() if not p.name.startswith("."))

    def pending(self, *, include_sent: bool = False) -> list[dict[str, Any]]:
        rows = []
        for game_id in self._games(full_scan=True):
            try:
                with self.store.transaction(game_id) as tx:
                    records = tx.records(TABLE)
            except GameNotFound:
                continue
            rows.extend(dict(r, game=game_id) for r in records if include_sent or r["status"] != "sent")
        return rows

    def retry_now(self, now: datetime) -> int:
        """Make every pending or failed mail due at once (moderator's `outbox retry`)."""
        count = 0
        for game_id in self._games(full_scan=True):
            with self.store.transaction(game_id) as tx:
                for record in tx.records(TABLE):
                    if record["status"] in ("pending", "failed"):
                        tx.update_record(TABLE, record["id"], {"status": "pending", "next_attempt_at": now.isoformat()})
                        count += 1
            if count:
                self.mark(game_id)
        return count

    def deliver(self, relay: Relay, now: datetime, *, full_scan: bool = False) -> SendReport:
        report = SendReport()
        for game_id in self._games(full_scan):
            try:
                with self.store.transaction(game_id) as tx:
                    due = [r for r in tx.records(TABLE)
                           if r["status"] == "pending" and r["next_attempt_at"] <= now.isoformat()]
                    if not due:
                        self._settle(game_id, tx)
            except GameNotFound:
                (self.markers / game_id).unlink(missing_ok=True)
                continue
            if not due:
                continue
            retries: dict[int, dict[str, Any]] = {}
            for record in due:
                try:
                    relay.deliver(record["raw"].encode("utf-8", "surrogateescape"), record["from"],
                                  [record["to"]], record["message_id"])
                except RelayError as exc:
                    attempts = record["attempts"] + 1
                    if exc.temporary and attempts < MAX_ATTEMPTS:
                        retries[record["id"]] = {"attempts": attempts, "last_error": str(exc)[:300],
                                                 "next_attempt_at": (now + backoff(attempts)).isoformat()}
                        report.deferred.append(record["message_id"])
                    else:
                        retries[record["id"]] = {"attempts": attempts, "last_error": str(exc)[:300], "status": "failed"}
                        report.failed.append(record["message_id"])
                    continue
                # recorded at once: the window in which a crash causes a second copy is one mail
                with self.store.transaction(game_id) as tx:
                    tx.update_record(TABLE, record["id"], {"status": "sent", "attempts": record["attempts"] + 1,
                                                           "sent_at": now.isoformat(), "last_error": None,
                                                           "raw": None})
                report.sent.append(record["message_id"])
            with self.store.transaction(game_id) as tx:
                for record_id, fields in retries.items():
                    tx.update_record(TABLE, record_id, fields)
                self._settle(game_id, tx)
        return report

    def _settle(self, game_id: str, tx: GameTransaction) -> None:
        """Keep or clear the game's marker while its lock is held, so that a turn queueing mail
        just after cannot have its fresh marker removed by this pass."""
        if any(r["status"] == "pending" for r in tx.records(TABLE)):
            self.mark(game_id)
        else:
            (self.markers / game_id).unlink(missing_ok=True)
