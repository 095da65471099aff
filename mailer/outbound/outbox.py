"""The durable outbox: mail is queued in the same atomic write as the turn that caused it.

Records live in the game's own file (table "outbox"), so a turn and its reports are stored
together or not at all. A marker file per game with pending mail lets senders skip idle
games; a full scan at start catches a marker lost in a crash.

Sending (mailer/outbound/sending.py) happens outside the game's lock, since the relay may be
slow, and any number of senders may run at once. What keeps a mail from going out twice is its
claim (mailer/outbound/claims.py): a sender takes the game's lock only to look at its records,
to claim the mails it will send and to record what became of the mails it sent before. A sent
record keeps who got what and when but drops the raw mail: otherwise every report ever sent
would be rewritten with each later turn of the game. Sent records are forgotten after a while
and beyond a number (`keep_sent`, `keep_sent_records`), so that a file's size follows the
game, not the mail its players send: 2,200 STATUS mails once left a game file of 1 MB, all of
it sent records, rewritten with every later unit of work. Forgetting them costs nothing in
exactly-once delivery: a mail is claimed only while its record is pending, and a record is
forgotten only once it is sent (its claim was deleted when that was written). What a
forgotten record still did was recognise the same mail queued again, which happens when a
mail is read twice (two workers at once, a crash before it was filed) within moments, long
before its record goes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable

from mailer import sent_blocks
from referee.store import GameFileBroken, GameNotFound, GameStore, GameTransaction

from .claims import SENT, Claim, Claims, claim_name
from .compose import OutgoingMail, build

TABLE = "outbox"
MAX_ATTEMPTS = 12
BASE_DELAY = timedelta(seconds=30)
MAX_DELAY = timedelta(hours=6)
KEEP_SENT = timedelta(days=2)  # then a sent record is forgotten
DONE = ("sent", "dropped", "bounced")  # what becomes of a mail once nothing more is to be done with it
CLAIMS = ".claims"  # in the marker directory: one file per mail a sender holds (mailer/outbound/claims.py)
LEGACY_JOURNAL = ".sent"  # "<game> <Message-ID>" per line: what older versions wrote instead


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min … capped at six hours: twelve tries span more than a day."""
    return min(BASE_DELAY * (2 ** min(max(attempts - 1, 0), 20)), MAX_DELAY)


def queue(tx: GameTransaction, mail: OutgoingMail, *, host: str, sender_name: str, now: datetime,
          due: datetime | None = None) -> None:
    """Add a mail to the game's outbox inside the caller's unit of work, to be sent at once or
    from `due` on. A mail whose Message-ID is already queued is not queued again."""
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
        "next_attempt_at": (due or now).isoformat(),
        "last_error": None,
    })
    sent_blocks.remember(tx, mail.message_id, mail.to, mail.text)  # a reply is compared with it


@dataclass
class SendReport:
    sent: list[str] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # games whose mail could not be looked at, and why
    # each mail deferred or given up: (Message-ID, recipient, the relay's answer), for the logs
    troubles: list[tuple[str, str, str]] = field(default_factory=list)

    def summary(self) -> str:
        """One line for the logs: the counts, and which mail to which address failed and why."""
        line = f"sent {len(self.sent)}, deferred {len(self.deferred)}, failed {len(self.failed)}"
        failed = set(self.failed)
        named = [f"{message_id} to <{to}> {'failed' if message_id in failed else 'deferred'}: {why}"
                 for message_id, to, why in self.troubles]
        return line + ("; " + "; ".join(named) if named else "")


@dataclass
class Held:
    """A mail a sender has claimed: what it needs to hand it over."""

    outbox: "Outbox"
    game_id: str
    record_id: int
    message_id: str
    raw: bytes
    mail_from: str
    to: str
    attempts: int
    created_at: str
    claim: Claim


class Outbox:
    def __init__(self, store: GameStore, markers: str | os.PathLike[str], *,
                 keep_sent: timedelta | None = None, keep_sent_records: int | None = None) -> None:
        self.store = store
        self.markers = Path(markers)
        self.markers.mkdir(parents=True, exist_ok=True)
        self.claims = Claims(self.markers / CLAIMS)
        self.keep_sent = keep_sent  # None: sent records are kept whatever their age
        self.keep_sent_records = keep_sent_records  # None: whatever their number
        # called for each outcome recorded, inside the game's unit of work (tx, mail, fields,
        # now): the game's bookkeeping of mail that failed (mailer/outbound/bounced.py)
        self.watch: Callable[[GameTransaction, Held, dict[str, Any], datetime], None] | None = None

    def mark(self, game_id: str) -> None:
        """Call after a unit of work that queued mail has been written: the marker exists, and
        its time says when the game last queued mail (a sender looks again at a game whose
        marker changed since its last look, `mark_time`)."""
        path = f"{self.markers}/{game_id}"
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o644))
        os.utime(path)

    def mark_time(self, game_id: str) -> int | None:
        """When the game's marker was last set (ns), None without one."""
        try:
            return os.stat(f"{self.markers}/{game_id}").st_mtime_ns
        except FileNotFoundError:
            return None

    def games(self, full_scan: bool) -> list[str]:
        if full_scan:
            return [row["id"] for row in self.store.list()]
        return sorted(p.name for p in self.markers.iterdir() if not p.name.startswith("."))

    def pending(self, *, include_sent: bool = False, unreadable: list[str] | None = None) -> list[dict[str, Any]]:
        """Mail not yet sent, of every game; a game whose file cannot be read is left out and
        its problem added to `unreadable`, when given."""
        rows = []
        for game_id in self.games(full_scan=True):
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
        for game_id in self.games(full_scan=True):
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

    # -- what a sender does under a game's lock

    def visit(self, game_id: str, now: datetime, *, outcomes: dict[int, tuple[dict[str, Any], Held]],
              held: set[int], limit: int, later: list[str] | None = None) -> list[Held]:
        """Under the game's lock, in one unit of work: record `outcomes` (record id ->
        fields, mail), take note of mail another sender recorded as sent only in its claim,
        and claim up to `limit` due mails not in `held` (record ids this sender holds already);
        the mails claimed. `later`, when given, gets when each pending mail not yet due is due
        (ISO). Claim files are deleted after the write, once the game file says what became
        of them; on an error the caller keeps its outcomes and their claims."""
        claimed: list[Held] = []
        folded: list[Claim] = []
        stamp = now.isoformat()
        try:
            with self.store.transaction(game_id) as tx:
                records = tx.records(TABLE)  # as they were: a claim file of a mail sent before is stale
                for record_id, (fields, mail) in outcomes.items():
                    tx.update_record(TABLE, record_id, fields)
                    if self.watch is not None:
                        self.watch(tx, mail, fields, now)
                taken = False
                for record in sorted(records, key=lambda r: (r["created_at"], r["id"])):
                    if record["status"] != "pending" or record["id"] in held or record["id"] in outcomes:
                        continue
                    if record["next_attempt_at"] > stamp or len(claimed) >= limit:
                        if later is not None:  # due then, or now when only the limit kept it
                            later.append(max(record["next_attempt_at"], stamp))
                        continue
                    claim = self.claims.take(game_id, record["message_id"])
                    if claim is None:  # in another sender's hands
                        continue
                    taken = True
                    if claim.sent:  # the relay took it; its sender died or is about to record it
                        tx.update_record(TABLE, record["id"], sent_fields(record["attempts"], now))
                        folded.append(claim)
                    else:
                        claimed.append(_held(self, game_id, record, claim))
                if taken:
                    self.claims.sync()
                if outcomes or folded:
                    self._forget_sent(tx, now)
                self._tidy(game_id, records)
                self._settle(game_id, tx)
        except BaseException:
            for claim in folded + [mail.claim for mail in claimed]:
                claim.release(remove=False)
            raise
        for claim in folded + [mail.claim for _, mail in outcomes.values()]:
            claim.release(remove=True)  # the game file now says what became of each
        return claimed

    def _forget_sent(self, tx: GameTransaction, now: datetime) -> None:
        """Forget the records of mail sent (or dropped, never to be sent, or sent and
        returned later) longer ago than `keep_sent`, and beyond the newest
        `keep_sent_records`. A returned mail stays told in the game's history and on its
        seat (mailer/outbound/bounced.py); its record would only grow with the mail."""
        if self.keep_sent is None and self.keep_sent_records is None:
            return
        done = sorted((r for r in tx.records(TABLE) if r["status"] in DONE),
                      key=lambda r: (r.get("sent_at") or r["created_at"], r["id"]))
        old = []
        if self.keep_sent_records is not None and len(done) > self.keep_sent_records:
            old, done = done[:len(done) - self.keep_sent_records], done[len(done) - self.keep_sent_records:]
        if self.keep_sent is not None:
            horizon = (now - self.keep_sent).isoformat()
            old += [r for r in done if (r.get("sent_at") or r["created_at"]) < horizon]
        if old:
            tx.remove_records(TABLE, [r["id"] for r in old])

    def _tidy(self, game_id: str, records: list[dict[str, Any]]) -> None:
        """Delete claim files of mail the game file already recorded as sent, or no longer
        holds (their holder died between the write and the deletion)."""
        names = self.claims.of_game(game_id)
        if not names:
            return
        open_ids = {claim_name(game_id, r["message_id"]) for r in records if r["status"] != "sent"}
        for name in names:
            if name not in open_ids:
                self.claims.remove(name)

    def _settle(self, game_id: str, tx: GameTransaction) -> None:
        """Keep or clear the game's marker while its lock is held, so that a turn queueing mail
        just after cannot have its fresh marker removed by this pass."""
        if any(r["status"] == "pending" for r in tx.records(TABLE)):
            self.mark(game_id)
        else:
            (self.markers / game_id).unlink(missing_ok=True)

    def adopt_legacy_journal(self) -> None:
        """Turn the journal of mail sent but not yet marked, as older versions kept it, into
        claim files that say "sent"; then delete it."""
        path = self.markers / LEGACY_JOURNAL
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return
        for line in lines:
            game_id, _, message_id = line.partition(" ")
            if game_id and message_id:
                fd = os.open(self.claims.root / claim_name(game_id, message_id), os.O_RDWR | os.O_CREAT, 0o644)
                try:
                    os.pwrite(fd, SENT, 0)
                    os.fsync(fd)
                finally:
                    os.close(fd)
                self.mark(game_id)
        self.claims.sync()
        path.unlink(missing_ok=True)


def _held(outbox: Outbox, game_id: str, record: dict[str, Any], claim: Claim) -> Held:
    return Held(outbox, game_id, record["id"], record["message_id"], record["raw"].encode("utf-8", "surrogateescape"),
                record["from"], record["to"], record["attempts"], record["created_at"], claim)


def sent_fields(attempts: int, now: datetime) -> dict[str, Any]:
    """A record once the relay has taken its mail: the raw mail is dropped."""
    return {"status": "sent", "attempts": attempts + 1, "sent_at": now.isoformat(), "last_error": None, "raw": None}


def refused_fields(attempts: int, now: datetime, error: str, temporary: bool) -> dict[str, Any]:
    """A record whose mail the relay did not take: tried again later, or given up."""
    attempts += 1
    if temporary and attempts < MAX_ATTEMPTS:
        return {"attempts": attempts, "last_error": error[:300], "next_attempt_at": (now + backoff(attempts)).isoformat()}
    return {"attempts": attempts, "last_error": error[:300], "status": "failed"}


def _left_out(exc: GameFileBroken, unreadable: list[str] | None) -> None:
    """A game whose file is broken is left out of a moderator's listing and named in
    `unreadable`; without that list the error stands."""
    if unreadable is None:
        raise exc
    unreadable.append(str(exc))
