"""Durations, time zones and moments as players write and read them.

Durations are written the way people say them in a mail (`90m`, `36h`, `2d`, `1d12h`, `1w`);
moments are stored as ISO 8601 in UTC (`2026-12-01T18:00:00Z`) and shown in the reader's time
zone with UTC beside it, so nobody has to convert. Time zones are IANA names resolved by
`zoneinfo` (from the system database, or the `tzdata` package where the system has none).
"""

from __future__ import annotations

import difflib
import re
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

UTC = timezone.utc
ISO = "%Y-%m-%dT%H:%M:%SZ"

_DURATION = re.compile(r"^(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$")
_UNITS = (("w", 7 * 86400), ("d", 86400), ("h", 3600), ("m", 60))
MAX_DURATION = timedelta(days=366)
# Moments a game may be told about. Every duration is at most a year, so adding any number of
# them a few times over never leaves what `datetime` can hold (year 1 to 9999): 9999-12-31
# plus a day is an OverflowError, not a date.
EARLIEST = datetime(2000, 1, 1, tzinfo=timezone.utc)
LATEST = datetime(9000, 1, 1, tzinfo=timezone.utc)


class TimeError(ValueError):
    """Text that is not a duration, a time zone or a date; the message says what would be."""


@lru_cache(maxsize=256)  # a game's few policy durations are read on every unit of work
def parse_duration(text: str) -> timedelta:
    """`90m`, `36h`, `2d`, `1d12h`, `1w` (units in that order, each at most once)."""
    raw = text.strip().lower().replace(" ", "")
    match = _DURATION.match(raw)
    if not raw or not match or not any(match.groups()):
        raise TimeError(f"{_shown(text)} is not a duration; write it like 90m, 36h, 2d or 1d12h")
    # compared before a timedelta is made, which cannot hold `99999999999d`; a number of more
    # than nine digits is more than a year in any unit
    if any(n and len(n.lstrip("0")) > 9 for n in match.groups()):
        raise TimeError(f"{_shown(text)} is longer than a year")
    seconds = sum(int(n) * size for n, (_, size) in zip(match.groups(), _UNITS) if n)
    if seconds > MAX_DURATION.total_seconds():
        raise TimeError(f"{_shown(text)} is longer than a year")
    return timedelta(seconds=seconds)


def _shown(text: str, limit: int = 40) -> str:
    """Text a person typed, quoted for a message and cut to a readable length."""
    raw = text.strip()
    return repr(raw if len(raw) <= limit else raw[:limit] + "...")


def check_moment(moment: datetime, what: str = "that moment") -> datetime:
    """`moment`, or TimeError when it lies outside the years a game can be run in."""
    if not EARLIEST <= moment <= LATEST:
        raise TimeError(f"{what} must lie between {EARLIEST.year} and {LATEST.year}")
    return moment


def format_duration(value: timedelta) -> str:
    """The canonical spelling: the largest units first, `0m` for nothing."""
    seconds = int(value.total_seconds()) // 60 * 60
    if seconds <= 0:
        return "0m"
    parts = []
    for unit, size in _UNITS[1:]:  # weeks read worse than days in a deadline
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(parts)


@lru_cache(maxsize=1)
def _zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def get_zone(name: str) -> ZoneInfo:
    """An IANA time zone by name (letter case forgiven), or TimeError with a suggestion."""
    raw = name.strip()
    if raw.upper() in ("UTC", "GMT", "Z"):
        return ZoneInfo("UTC")
    by_lower = {n.lower(): n for n in _zone_names()}
    canonical = by_lower.get(raw.lower())
    if canonical is not None:
        return ZoneInfo(canonical)
    try:
        if raw and "/" in raw and ".." not in raw:
            return ZoneInfo(raw)
    except (ZoneInfoNotFoundError, ValueError):
        pass
    close = difflib.get_close_matches(raw, _zone_names(), n=1, cutoff=0.6)
    if not close:
        tail = raw.rpartition("/")[2].lower()
        close = [n for n in _zone_names() if n.lower().endswith("/" + tail)][:1] if tail else []
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise TimeError(f"unknown time zone {raw!r}{hint}; use a name like Europe/Berlin, America/New_York or UTC")


def zone_name(name: str | None) -> str:
    """The canonical spelling of a time zone name (TimeError if unknown)."""
    return str(get_zone(name or "UTC").key)


def to_iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("moments must be aware datetimes")
    return moment.astimezone(UTC).strftime(ISO)


def from_iso(text: str) -> datetime:
    """A stored moment back as an aware UTC datetime."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def parse_moment(text: str) -> datetime:
    """An ISO date or date-time from the command line; without an offset it is UTC."""
    raw = text.strip()
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        value = value.astimezone(UTC)
    except ValueError:
        raise TimeError(f"{_shown(raw)} is not a date and time; write it like 2026-12-01T18:00Z") from None
    except OverflowError:  # year 1 or 9999 with an offset: outside what can be held
        raise TimeError(f"{_shown(raw)} is too far away; it must lie between {EARLIEST.year} and "
                        f"{LATEST.year}") from None
    return check_moment(value, _shown(raw))


@lru_cache(maxsize=1024)  # every receipt shows its game's deadline
def show_moment(moment: datetime, zone: str | None = None, lang: str = "en") -> str:
    """`Tue 1 Dec 2026 19:00 CET (18:00 UTC)`; only the UTC part when the zone is UTC. The day
    and time are written as `lang` writes them (`Di., 1. Dez. 2026, 19:00 CET`)."""
    from .i18n import format_moment  # the language's conventions, through Babel

    utc = moment.astimezone(UTC)
    utc_text = f"{format_moment(utc, lang)} UTC"
    if not zone or zone_name(zone) == "UTC":
        return utc_text
    local = utc.astimezone(get_zone(zone))
    same_day = local.date() == utc.date()
    utc_short = f"{utc:%H:%M} UTC" if same_day else utc_text
    return f"{format_moment(local, lang)} {local.tzname()} ({utc_short})"


def show_moment_short(moment: datetime, zone: str | None = None, lang: str = "en") -> str:
    """`Sat 28 Nov 18:05 CET`: a moment in the reader's zone only, without the year, for a
    subject line (the mail itself gives it in full, with UTC beside it)."""
    from .i18n import format_moment

    local = moment.astimezone(get_zone(zone or "UTC"))
    return f"{format_moment(local, lang, year=False)} {local.tzname() or zone_name(zone)}"


def show_span(value: timedelta) -> str:
    """A rough "how long from now" for reminders: `1d 4h`, `2h 5m`, `40m`."""
    minutes = max(int(value.total_seconds() // 60), 0)
    days, rest = divmod(minutes, 1440)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h" if hours else f"{days}d"
    if hours:
        return f"{hours}h {mins}m" if mins else f"{hours}h"
    return f"{mins}m"


class StepClock:
    """A clock for games played without waiting (benchmarks, demos, tests): a minute later
    each time it is read, from a fixed start, so the same game is the same every run."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now
