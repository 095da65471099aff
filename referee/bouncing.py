"""Seats whose mail bounces: marked when mail to their address could not be delivered (a
report of failure came back, or the relay refused it for good), until mail to it goes through
again. Every change is an event of the game's history.

The mark lives in the seat (`bouncing`: since when, the latest failure, the mails that failed),
so `status` shows it without reading the history. These functions work inside the caller's
unit of work on the game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

MAILS_KEPT = 10  # the latest failed mails a seat's mark names, so that a report read twice counts once

__all__ = ["bouncing_seats", "clear", "mark"]


def mark(tx: Any, address: str, *, message_id: str, why: str, source: str, at: str,
         report: str | None = None) -> list[tuple[str, bool]]:
    """Record that `message_id`, sent to `address`, could not be delivered (`source`: `dsn`, a
    report that came back, or `relay`, refused when it was handed over). Each seat at that
    address is marked; returns (player, newly marked) for each seat recorded now (none when the
    failure was recorded before, or no seat has the address)."""
    wanted = address.strip().lower()
    seats = [dict(seat) for seat in tx.meta["seats"]]
    done: list[tuple[str, bool]] = []
    for seat in seats:
        if seat["email"].lower() != wanted:
            continue
        earlier = seat.get("bouncing") or {}
        if message_id in earlier.get("mails", ()):
            continue
        tx.append({"type": "bounce", "at": at, "player": seat["name"], "email": seat["email"],
                   "message_id": message_id, "why": why, "source": source, "report": report})
        seat["bouncing"] = {"since": earlier.get("since") or at, "at": at, "why": why, "source": source,
                            "mails": [*earlier.get("mails", ()), message_id][-MAILS_KEPT:]}
        done.append((seat["name"], not earlier))
    if done:
        tx.set_meta(seats=seats)
    return done


def clear(tx: Any, address: str, *, queued_at: str, at: str) -> list[str]:
    """Mail to `address` that was queued at `queued_at` went through: a seat at that address
    marked before that mail was queued is no longer bouncing. The players cleared."""
    if not any(seat.get("bouncing") for seat in tx.meta["seats"]):
        return []  # the common case, at every mail sent: nothing to look at
    wanted = address.strip().lower()
    seats = [dict(seat) for seat in tx.meta["seats"]]
    cleared = []
    for seat in seats:
        mark_ = seat.get("bouncing")
        if not mark_ or seat["email"].lower() != wanted or not _later(queued_at, mark_.get("at")):
            continue
        del seat["bouncing"]
        tx.append({"type": "bounce_cleared", "at": at, "player": seat["name"], "email": seat["email"]})
        cleared.append(seat["name"])
    if cleared:
        tx.set_meta(seats=seats)
    return cleared


def _later(one: str, other: str | None) -> bool:
    """Whether moment `one` comes after `other` (ISO texts, written with `Z` or an offset)."""
    if not other:
        return True
    try:
        return datetime.fromisoformat(one) > datetime.fromisoformat(other)
    except ValueError:
        return one > other


def bouncing_seats(meta: Any) -> list[dict[str, Any]]:
    """The seats marked as bouncing: player, address, since, the latest failure."""
    return [{"player": seat["name"], "email": seat["email"], "since": seat["bouncing"].get("since"),
             "why": seat["bouncing"].get("why", ""), "source": seat["bouncing"].get("source", "")}
            for seat in meta.get("seats", ()) if isinstance(seat, dict) and seat.get("bouncing")]
