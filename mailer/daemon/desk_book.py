"""The desk's record: whom the referee's own address answered in the last hour, how many of
those answers went to newcomers, and how much mail it took without an answer.

From proves nothing, so every answer of the desk may go to someone who never wrote. Two
bounds keep it from being used as a reflector: answers to one address in an hour
(`desk_answers_per_address_per_hour`), and answers in an hour to newcomers over all of them
(`desk_answers_to_newcomers_per_hour`): addresses that hold no seat in any game here, whom
the desk cannot tell from made-up ones. Beyond either bound a mail is taken silently:
counted here, for `referee status --desk`, and nothing is sent.

The record is one small JSON file (`system/desk.json`), rewritten under a lock for each mail
that would be answered. It holds the times of the answers of the last hour for at most
MAX_ADDRESSES addresses (the oldest forgotten first) and only counts of the mail taken
silently, per hour for a day and per day for a week: its size, and so the cost of each
update, are the same after a flood from a million made-up senders as after the first mail.
Like the refusal record it is written in place without a sync: a crash may lose its last
counts, never a mail.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

from referee.config import Settings
from referee.locking import exclusive

from .refusals import write_in_place

RECORD = "desk.json"  # in system/
MAX_ADDRESSES = 1000
HOURS_KEPT, DAYS_KEPT = 24, 7
LOCK_TIMEOUT = 30.0
OLDER_RECORD = "desk-answers.json"  # what versions before this one kept: an entry per address for 30 days
SPENT_ON_NEWCOMERS = "the hour's answers to newcomers are used up"
ANSWERED_LATELY = "answered lately"


@dataclass(frozen=True)
class Verdict:
    answered: bool
    why: str = ""  # why not, for the log


class DeskBook:
    def __init__(self, path: str | os.PathLike[str], per_address: int, newcomers_per_hour: int,
                 clock: Callable[[], datetime], max_addresses: int = MAX_ADDRESSES) -> None:
        self.path = Path(path)
        self.per_address, self.newcomers_per_hour, self.max_addresses = per_address, newcomers_per_hour, max_addresses
        self.clock = clock
        self._older_gone = False

    def answer(self, address: str, *, newcomer: bool, send: Callable[[], None]) -> Verdict:
        """Call `send` if `address` may be answered now, and count it; else count the mail as
        taken silently. Under the record's lock, `send` first: a crash before the record is
        written answers the mail again when it is read again (queued once, by its serial),
        rather than never."""
        now = self.clock()
        stamp = int(now.timestamp())
        with exclusive(f"{self.path}.lock", LOCK_TIMEOUT):
            record = self._read()
            hour_ago = stamp - 3600
            answers = {a: kept for a, times in record["answers"].items() if (kept := [t for t in times if t > hour_ago])}
            newcomers = [t for t in record["newcomers"] if t > hour_ago]
            key = address.strip().lower()
            mine = answers.pop(key, [])
            if len(mine) >= self.per_address:
                verdict = Verdict(False, ANSWERED_LATELY)
            elif newcomer and len(newcomers) >= self.newcomers_per_hour:
                verdict = Verdict(False, SPENT_ON_NEWCOMERS)
            else:
                send()
                mine = [*mine, stamp]
                if newcomer:
                    newcomers.append(stamp)
                verdict = Verdict(True)
            if mine:
                answers[key] = mine  # the most recent last
            while len(answers) > self.max_addresses:
                del answers[next(iter(answers))]
            record["answers"], record["newcomers"] = answers, newcomers
            _count(record, now, "answered" if verdict.answered else "silent")
            self._write(record)
        return verdict

    def summary(self) -> dict[str, Any]:
        """What the moderator reads: the hour's answers to newcomers against their bound, the
        mail taken silently (the last hour, the last day, per day, in all), the addresses
        remembered."""
        now = self.clock()
        stamp = int(now.timestamp())
        record = self._read()
        hours = record["hours"]
        this_hour = _hour(now)
        day_ago = _hour(now - timedelta(hours=HOURS_KEPT - 1))
        return {
            "newcomers_answered_last_hour": sum(1 for t in record["newcomers"] if t > stamp - 3600),
            "newcomers_per_hour": self.newcomers_per_hour,
            "per_address_per_hour": self.per_address,
            "addresses_remembered": sum(1 for times in record["answers"].values() if any(t > stamp - 3600 for t in times)),
            "max_addresses": self.max_addresses,
            "silent_this_hour": hours.get(this_hour, {}).get("silent", 0),
            "silent_last_day": sum(h.get("silent", 0) for k, h in hours.items() if k >= day_ago),
            "answered_last_day": sum(h.get("answered", 0) for k, h in hours.items() if k >= day_ago),
            "days": {day: dict(counts) for day, counts in sorted(record["days"].items())},
            "silent_total": record["total"].get("silent", 0),
            "answered_total": record["total"].get("answered", 0),
            "since": record["since"],
            "last_silent": record["last_silent"],
        }

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # missing or damaged: it only counts, and starts again
            data = {}
        if not isinstance(data, dict):
            data = {}
        record: dict[str, Any] = {"answers": {}, "newcomers": [], "hours": {}, "days": {}, "total": {},
                                  "since": None, "last_silent": None}
        for key, empty in record.items():
            value = data.get(key, empty)
            if empty is not None and not isinstance(value, type(empty)):
                value = empty
            record[key] = value
        return record

    def _write(self, record: dict[str, Any]) -> None:
        """Overwrite in place, under the lock (see mailer/daemon/refusals.py for why not a
        file renamed over the old one)."""
        if not self._older_gone:  # the older record could only grow; this one replaces it
            (self.path.parent / OLDER_RECORD).unlink(missing_ok=True)
            self._older_gone = True
        payload = json.dumps(record, separators=(",", ":")).encode("utf-8")
        write_in_place(self.path, payload)


def _hour(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H")


def _count(record: dict[str, Any], now: datetime, what: str) -> None:
    """One more mail answered or taken silently, in the hour's, the day's and the total
    counts; hours and days past what is kept are dropped."""
    hour, day = _hour(now), _hour(now)[:10]
    for table, key, kept in ((record["hours"], hour, HOURS_KEPT), (record["days"], day, DAYS_KEPT)):
        counts = table.setdefault(key, {})
        counts[what] = counts.get(what, 0) + 1
        for old in sorted(table)[:-kept]:
            del table[old]
    record["total"][what] = record["total"].get(what, 0) + 1
    stamp = now.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    record["since"] = record["since"] or stamp
    if what == "silent":
        record["last_silent"] = stamp


def desk_book(settings: Settings, notifier: Any) -> DeskBook:
    """The desk's record of a data directory, with the bounds of its settings."""
    return DeskBook(notifier.system_outbox.store.root / RECORD, settings.limits.desk_answers_per_address_per_hour,
                    settings.limits.desk_answers_to_newcomers_per_hour, notifier.clock)
