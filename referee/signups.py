"""Open games: the sign-up record kept in a game's meta until it starts, its start rule, the
limits on pending sign-ups, and the seat order drawn from the game's seed.

Pure functions of plain data; the service (referee/service/signing_up.py) applies them inside
the game's unit of work, so a sign-up and the mail it causes are written together.

The record (`meta["signup"]`)::

    min, max        how many seats the game takes
    starts_when     "full", or a moment (ISO, UTC): start then if at least `min` are seated
    approve         the moderator approves each sign-up instead of a reply from the address
    language        what the table speaks, as the moderator wrote it (shown by LIST)
    pending         sign-ups waiting for their reply or approval: name, email, code, at
    requests        JOIN requests of the last hour (email, at), for the hourly limit
    fill            (only when asked for) the level of the computer players that take the
                    seats still empty at the start date

Both lists are bounded whatever the number of addresses that write: a sign-up lapses after
PENDING_FOR, a game keeps at most `pending_per_seat` waiting sign-ups per seat (a new one
pushes the oldest out, so a flood of made-up addresses cannot keep the game closed to real
players for the two days its sign-ups would wait), and the requests are those of one hour,
MAX_REQUESTS at most.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Mapping, Sequence

from .i18n.messages import moment, msg, say
from .rng import Rng
from .timekeeping import TimeError, from_iso, parse_moment, to_iso

OPEN = "open"
FULL = "full"
PENDING_FOR = timedelta(days=2)  # a sign-up nobody confirms is forgotten after this
HOUR = timedelta(hours=1)
MAX_REQUESTS = 200  # JOIN requests of the hour remembered per game; far more than the desk answers in an hour
_SEATS = re.compile(r"^\s*(\d+)\s*(?:\.\.|-)\s*(\d+)\s*$|^\s*(\d+)\s*$")


class SignupError(ValueError):
    """A start rule or seat range that cannot be used; the message says why."""


@dataclass(frozen=True)
class SignupLimits:
    pending_per_address: int = 3  # sign-ups one address may have waiting, across all open games
    per_address_per_hour: int = 5  # JOIN requests one address may make in an hour
    pending_per_seat: int = 3  # sign-ups a game keeps waiting, per seat it has; beyond, the oldest go


def parse_seats(text: str) -> tuple[int, int]:
    """`3..5` (or `3-5`, or `4`) as (min, max)."""
    found = _SEATS.match(text or "")
    if not found:
        raise SignupError(f"seats {text!r}: write MIN..MAX, e.g. 3..5, or one number")
    low, high = (int(found[1]), int(found[2])) if found[1] else (int(found[3]), int(found[3]))
    if low < 1 or low > high:
        raise SignupError(f"seats {text!r}: the least must be at least 1 and not above the most")
    return low, high


def parse_start(text: str | None, now: datetime) -> str:
    """`full` (the default) or a moment in the future, stored as ISO UTC."""
    if text is None or text.strip().lower() == FULL:
        return FULL
    try:
        moment = parse_moment(text)
    except TimeError as exc:
        raise SignupError(f"--starts-when {text!r}: write 'full' or a date ({exc})") from None
    if moment <= now:
        raise SignupError(f"--starts-when {text!r} is already past")
    return to_iso(moment)


def new_record(seats: tuple[int, int], starts_when: str, approve: bool, language: str,
               fill: str | None = None) -> dict[str, Any]:
    record = {"min": seats[0], "max": seats[1], "starts_when": starts_when, "approve": approve,
              "language": language, "pending": [], "requests": []}
    if fill is not None:
        record["fill"] = fill
    return record


def start_rule(record: Mapping[str, Any]) -> dict[str, Any]:
    """The start rule as LIST and the sign-up mails say it, a message for the reader's language."""
    if record["starts_when"] == FULL:
        return msg("starts when all {max} seats are taken", max=record["max"])
    if record.get("fill"):
        return msg("starts at {moment}, with computer players in the seats still empty then (at once if all {max} "
                   "seats are taken first)", moment=moment(from_iso(record["starts_when"])), max=record["max"])
    return msg("starts at {moment} with at least {min} players (at once if all {max} seats are taken first)",
               moment=moment(from_iso(record["starts_when"])), min=record["min"], max=record["max"])


def start_rule_text(record: Mapping[str, Any]) -> str:
    """The start rule as the moderator's command line shows it."""
    return say(start_rule(record), "en")


def start_due(record: Mapping[str, Any], seated: int, now: datetime) -> bool:
    """Whether the game starts now: all seats taken, or its date come with enough players."""
    if seated >= record["max"]:
        return True
    when = record["starts_when"]
    least = 1 if record.get("fill") else record["min"]  # computer players take the empty seats
    return when != FULL and seated >= least and now >= from_iso(when)


def start_wake(record: Mapping[str, Any]) -> float | None:
    """When a tick must look at the game (POSIX time): its start date; None for `full`, which
    a sign-up starts."""
    when = record["starts_when"]
    return None if when == FULL else from_iso(when).timestamp()


def forget_old(record: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """The record without sign-ups past PENDING_FOR and requests older than an hour."""
    return dict(record,
                pending=[p for p in record["pending"] if now - from_iso(p["at"]) < PENDING_FOR],
                requests=[r for r in record["requests"] if now - from_iso(r["at"]) < HOUR])


def with_pending(record: Mapping[str, Any], entry: Mapping[str, Any], request: Mapping[str, Any],
                 limits: SignupLimits) -> dict[str, Any]:
    """The record with a new sign-up (replacing one of the same address) and its request,
    keeping at most `pending_per_seat` sign-ups per seat: the oldest are pushed out, and
    their codes lapse."""
    address = entry["email"].lower()
    pending = [p for p in record["pending"] if p["email"].lower() != address] + [dict(entry)]
    most = max(1, limits.pending_per_seat * record["max"])
    requests = [*record["requests"], dict(request)][-MAX_REQUESTS:]
    return dict(record, pending=pending[-most:], requests=requests)


def limit_problem(email: str, records: Sequence[Mapping[str, Any]], limits: SignupLimits,
                  now: datetime) -> dict[str, Any] | None:
    """Why one more JOIN from `email` is refused, over the records of every open game; None
    when it is not. Counts the address's pending sign-ups and its requests of the last hour."""
    email = email.lower()
    pending = sum(1 for r in records for p in r["pending"]
                  if p["email"].lower() == email and now - from_iso(p["at"]) < PENDING_FOR)
    if pending >= limits.pending_per_address:
        return msg("this address already has {count} sign-ups waiting for a reply (the most is {most}); reply "
                   "to those first, or wait until they lapse", count=pending, most=limits.pending_per_address)
    recent = sum(1 for r in records for q in r["requests"] if q["email"] == email and now - from_iso(q["at"]) < HOUR)
    if recent >= limits.per_address_per_hour:
        return msg("this address sent {count} JOIN requests in the last hour (the most is {most}); try again "
                   "later", count=recent, most=limits.per_address_per_hour)
    return None


def seat_order(seed: str, names: Sequence[str]) -> list[str]:
    """The seat order, drawn from the game's seed (committed before anyone joined) over the
    names in the order they were seated, so anyone given the seed can check it."""
    return Rng.from_seed(seed, "seat order").shuffled(list(names))
