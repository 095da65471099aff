"""A game's mail that could not be delivered, recorded in the game and told to the moderator.

Two ways of learning it, handled the same: the relay refused a mail for good when it was
handed over (`FailureWatch`, called by the outbox as it records what became of each mail), or
a report of failure came back to the game's address later (`note_failure`, called by the
worker with what mailer/inbound/bounces.py read). The mail's record in the game's outbox says
who it went to; the seat at that address is marked as bouncing (referee/bouncing.py) until a
mail queued after the failure goes through.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Mapping, Sequence

from referee import bouncing
from referee.policy import Policy
from referee.store import GameTransaction

from .outbox import TABLE, Held

SOURCES = {"dsn": "a report of failure came back from the mail system",
           "relay": "the relay refused it when it was handed over"}


def note_failure(tx: GameTransaction, notifier: Any, *, message_id: str, why: str, source: str, now: datetime,
                 recipients: Sequence[str] = (), report: str | None = None) -> list[tuple[str, bool]]:
    """Record that the game's mail `message_id` could not be delivered: its outbox record says
    so (`bounced`, for a report that came back), the seat at its address is marked and the
    moderator told the first time. A report that names recipients must name the mail's own.
    (player, newly marked) for each seat recorded now."""
    record = tx.find_record(TABLE, "message_id", message_id)
    wanted = [address.lower() for address in recipients]
    if record is not None:
        address = record["to"]
        if wanted and address.lower() not in wanted:
            return []  # the report is about another address than this mail's
    elif len(wanted) == 1:  # a record no longer kept: the report names the address itself
        address = wanted[0]
    else:
        return []
    if record is not None and source == "dsn" and record["status"] == "sent":
        tx.update_record(TABLE, record["id"], {"status": "bounced", "last_error": why[:300]})
    marked = bouncing.mark(tx, address, message_id=message_id, why=why, source=source, at=now.isoformat(),
                           report=report)
    for player, newly in marked:
        if newly:
            _tell_moderator(tx, notifier, player, address, message_id, why, source, record)
    return marked


def _tell_moderator(tx: GameTransaction, notifier: Any, player: str, address: str, message_id: str, why: str,
                    source: str, record: Mapping[str, Any] | None) -> None:
    policy = Policy.from_meta(tx.meta.get("policy"))
    subject = f"Mail to {player} <{address}> bounces"
    mail = f"{record['subject']} ({message_id})" if record is not None else message_id
    lines = [f"Mail to {player} at <{address}> could not be delivered: {why}",
             f"The mail: {mail}; {SOURCES.get(source, source)}.",
             f"`referee status {tx.game_id}` marks the seat as bouncing until mail to it goes through again; "
             f"if the address is wrong, `referee replace {tx.game_id} {player} --email ADDRESS` gives the seat "
             "a new one (and a new token)."]
    serial = f"bounce-{player}-{hashlib.sha256(message_id.encode('utf-8')).hexdigest()[:12]}"
    notifier.alert(tx, subject, lines, serial, policy.moderator if policy else "")


class FailureWatch:
    """Called by the game outbox for each mail whose outcome it records, in the same unit of
    work: a mail given up (a 5xx, or too many temporary failures) is a failure of delivery; a
    mail the relay took clears the mark of a seat marked before it was queued."""

    def __init__(self, notifier: Any) -> None:
        self.notifier = notifier

    def __call__(self, tx: GameTransaction, mail: Held, fields: Mapping[str, Any], now: datetime) -> None:
        if "seats" not in tx.meta:
            return
        if fields.get("status") == "failed":
            note_failure(tx, self.notifier, message_id=mail.message_id, why=str(fields.get("last_error") or ""),
                         source="relay", now=now)
        elif fields.get("status") == "sent":
            bouncing.clear(tx, mail.to, queued_at=mail.created_at, at=now.isoformat())
