"""A game's deadline policy: plain data, built from a named preset plus overrides.

Every value is kept as canonical text (`48h`, `24h,2h`, `20:00 Europe/Berlin after 12h`), so
the policy stored in a game's meta reads the same as what a moderator types, and the typed
form is derived from it. The full set of values is stored when a game is created: a later
change to a preset never changes the rules of a game already running.

Keys (see docs/deadlines.md for what each one does):

    deadline            default deadline of every phase kind: a duration, `HH:MM [ZONE]
                        [after DURATION]` (the first such time at least DURATION, default 12h,
                        after the phase opens), or `none`
    deadline.<kind>     the same for one phase kind (`deadline.auction=36h`)
    reminders           durations before the deadline, `24h,2h`, or `none`
    grace               how long after the deadline orders still count
    missed              what a missed order becomes: `default` (the engine's default orders)
                        or `wait` (the moderator is alerted and the phase waits)
    escalation.after    consecutive misses before escalating; 0 never escalates
    escalation.action   `alert` (the moderator), `replace` (the seat is offered to a
                        replacement) or `drop` (where the game allows it; else an alert)
    early               true: a phase resolves as soon as everyone is in
    vacation.quota      how far one player's vacations may move deadlines in this game
    moderator           the address alerts go to (empty: the server's `moderator_email`)
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from .timekeeping import TimeError, UTC, format_duration, get_zone, parse_duration, zone_name
from .tokens import normalise_email

ACTIONS = ("alert", "replace", "drop")
MISSED = ("default", "wait")
DEFAULT_FLOOR = timedelta(hours=12)
_KIND = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})$")

PRESETS: dict[str, dict[str, str]] = {
    # friends who play when they can: long deadlines, a day of grace, only an alert
    "casual": {"deadline": "5d", "reminders": "24h", "grace": "1d", "missed": "default",
               "escalation.after": "3", "escalation.action": "alert", "early": "true",
               "vacation.quota": "21d", "moderator": ""},
    # the usual club game: two days, two reminders, a replacement offered after two misses
    "standard": {"deadline": "2d", "reminders": "24h,2h", "grace": "1h", "missed": "default",
                 "escalation.after": "2", "escalation.action": "replace", "early": "true",
                 "vacation.quota": "14d", "moderator": ""},
    # a timed event: one day, no grace, no early resolution, dropped after two misses
    "tournament": {"deadline": "1d", "reminders": "12h,1h", "grace": "0m", "missed": "default",
                   "escalation.after": "2", "escalation.action": "drop", "early": "false",
                   "vacation.quota": "3d", "moderator": ""},
}
DEFAULT_PRESET = "standard"


class PolicyError(ValueError):
    """Policy text that cannot work; `problems` lists every one found."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


# --------------------------------------------------------------------------- deadline rules


@dataclass(frozen=True)
class Rule:
    """How far away a phase's deadline is from the moment the phase opens."""

    length: timedelta | None = None  # a plain duration
    hour: int | None = None  # or a fixed time of day ...
    minute: int = 0
    zone: str = "UTC"  # ... in this zone
    floor: timedelta = DEFAULT_FLOOR  # ... at least this long after the opening

    @property
    def none(self) -> bool:
        return self.length is None and self.hour is None

    def due(self, opened: datetime) -> datetime | None:
        """The deadline of a phase that opened at `opened` (aware), or None for no deadline.

        A fixed time of day in a zone with daylight saving is taken as a wall-clock time: a
        time that does not exist on the night the clocks go forward is read with the offset
        before the change (so 02:30 becomes 03:30), and one that happens twice is the first.
        """
        if self.length is not None:
            return opened + self.length
        if self.hour is None:
            return None
        zone = get_zone(self.zone)
        earliest = (opened + self.floor).astimezone(zone)
        day = earliest.date()
        for _ in range(3):
            wall = datetime(day.year, day.month, day.day, self.hour, self.minute, tzinfo=zone)
            candidate = wall.astimezone(UTC)
            if candidate >= earliest:
                return candidate
            day = day + timedelta(days=1)
        raise AssertionError("a time of day always comes within three days")  # pragma: no cover

    def text(self) -> str:
        if self.length is not None:
            return format_duration(self.length)
        if self.hour is None:
            return "none"
        floor = "" if self.floor == DEFAULT_FLOOR else f" after {format_duration(self.floor)}"
        return f"{self.hour:02d}:{self.minute:02d} {self.zone}{floor}"


@lru_cache(maxsize=256)  # read at every phase that opens; a Rule cannot change
def parse_rule(text: str) -> Rule:
    raw = " ".join(text.split())
    if raw.lower() == "none":
        return Rule()
    words = raw.split(" ")
    clock = _TIME.match(words[0])
    if clock is None:
        length = parse_duration(raw)
        if length <= timedelta(0):
            raise TimeError("a deadline must be longer than 0m (or `none`)")
        return Rule(length=length)
    hour, minute = int(clock.group(1)), int(clock.group(2))
    if hour > 23 or minute > 59:
        raise TimeError(f"{words[0]!r} is not a time of day (00:00 to 23:59)")
    rest = words[1:]
    floor = DEFAULT_FLOOR
    if len(rest) >= 2 and rest[-2].lower() == "after":
        floor = parse_duration(rest[-1])
        rest = rest[:-2]
    if len(rest) > 1:
        raise TimeError(f"deadline {raw!r}: write HH:MM, then a time zone, then optionally 'after DURATION'")
    zone = zone_name(rest[0]) if rest else "UTC"
    return Rule(hour=hour, minute=minute, zone=zone, floor=floor)


# --------------------------------------------------------------------------- values


def _canon_reminders(text: str) -> str:
    raw = text.strip().lower()
    if raw in ("none", "off", ""):
        return "none"
    items = [parse_duration(part) for part in raw.split(",")]
    if any(i <= timedelta(0) for i in items):
        raise TimeError("a reminder must come more than 0m before the deadline")
    return ",".join(format_duration(i) for i in sorted(set(items), reverse=True))


def _canon_duration(text: str) -> str:
    return format_duration(parse_duration(text))


def _canon_choice(choices: Sequence[str]) -> Callable[[str], str]:
    def canon(text: str) -> str:
        raw = text.strip().lower()
        if raw not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}, not {text.strip()!r}")
        return raw
    return canon


def _canon_bool(text: str) -> str:
    raw = text.strip().lower()
    if raw in ("true", "yes", "on", "1"):
        return "true"
    if raw in ("false", "no", "off", "0"):
        return "false"
    raise ValueError(f"takes true or false, not {text.strip()!r}")


def _canon_count(text: str) -> str:
    raw = text.strip()
    if not raw.isdigit() or int(raw) > 100:
        raise ValueError(f"takes a whole number from 0 (never) to 100, not {raw!r}")
    return str(int(raw))


def _canon_address(text: str) -> str:
    raw = text.strip()
    if raw.lower() in ("", "none"):
        return ""
    return normalise_email(raw)


CANON: dict[str, Callable[[str], str]] = {
    "deadline": lambda t: parse_rule(t).text(),
    "reminders": _canon_reminders,
    "grace": _canon_duration,
    "missed": _canon_choice(MISSED),
    "escalation.after": _canon_count,
    "escalation.action": _canon_choice(ACTIONS),
    "early": _canon_bool,
    "vacation.quota": _canon_duration,
    "moderator": _canon_address,
}
KEYS = tuple(CANON)


def _canon(key: str, value: str) -> str:
    if key.startswith("deadline."):
        return CANON["deadline"](value)
    return CANON[key](value)


def check_key(key: str) -> str | None:
    """None if `key` is a policy key, else the problem with a suggestion."""
    if key in CANON:
        return None
    if key.startswith("deadline."):
        kind = key.partition(".")[2]
        if _KIND.match(kind):
            return None
        return f"{key!r}: a phase kind is lower-case letters, digits, '_' or '-'"
    close = difflib.get_close_matches(key, [*KEYS, "preset"], n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown policy key {key!r}{hint}; keys: {', '.join(KEYS)}, deadline.<phase kind>, preset"


def kind_problems(policy: "Policy", kinds: Sequence[str] | None) -> list[str]:
    """`deadline.<kind>` overrides naming no phase kind of the game (when the game lists its
    kinds): a misspelt kind would otherwise be ignored without a word."""
    if kinds is None:
        return []
    problems = []
    for key in policy.values:
        kind = key.partition(".")[2] if key.startswith("deadline.") else None
        if kind is not None and kind not in kinds:
            close = difflib.get_close_matches(kind, list(kinds), n=1)
            hint = f" (did you mean 'deadline.{close[0]}'?)" if close else ""
            problems.append(f"{key!r}: this game has no phase kind {kind!r}{hint}; its kinds: {', '.join(kinds)}")
    return problems


def split_assignment(item: str) -> tuple[str, str]:
    """`KEY=VALUE` as typed; PolicyError when there is no `=`."""
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise PolicyError([f"{item!r} is not KEY=VALUE"])
    return key.strip().lower(), value.strip()


@dataclass(frozen=True)
class Change:
    key: str
    old: str | None
    new: str | None

    def text(self) -> str:
        old = "(preset)" if self.old is None else (self.old or "(empty)")
        new = "(preset)" if self.new is None else (self.new or "(empty)")
        return f"{self.key}: {old} -> {new}"


@dataclass(frozen=True)
class Policy:
    """The effective policy of one game."""

    preset: str
    values: Mapping[str, str]  # every key of the preset, plus deadline.<kind> overrides
    overrides: tuple[str, ...] = field(default_factory=tuple)  # keys set apart from the preset

    # -- building

    @classmethod
    def build(cls, preset: str = DEFAULT_PRESET, overrides: Mapping[str, str] | None = None) -> "Policy":
        base = preset.strip().lower()
        if base not in PRESETS:
            close = difflib.get_close_matches(base, list(PRESETS), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise PolicyError([f"unknown policy preset {preset!r}{hint}; presets: {', '.join(PRESETS)}"])
        return cls(base, dict(PRESETS[base]), ()).changed(overrides or {})[0]

    @classmethod
    def from_meta(cls, data: Mapping[str, Any] | None) -> "Policy | None":
        if not data:
            return None
        return cls(data["preset"], dict(data["values"]), tuple(data.get("overrides", ())))

    def to_meta(self) -> dict[str, Any]:
        return {"preset": self.preset, "values": dict(self.values), "overrides": list(self.overrides)}

    def changed(self, assignments: Mapping[str, str]) -> tuple["Policy", list[Change]]:
        """A new policy with `assignments` applied, and what changed. `preset=NAME` starts
        again from that preset (earlier overrides are dropped); `KEY=` (empty) returns a key
        to the preset's value (for `deadline.<kind>`: removes it). Every problem is listed."""
        problems: list[str] = []
        preset = self.preset
        values = dict(self.values)
        overrides = list(self.overrides)
        items = dict(assignments)
        if "preset" in items:
            name = items.pop("preset").strip().lower()
            if name not in PRESETS:
                close = difflib.get_close_matches(name, list(PRESETS), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                problems.append(f"unknown policy preset {name!r}{hint}; presets: {', '.join(PRESETS)}")
            else:
                preset, values, overrides = name, dict(PRESETS[name]), []
        for key, raw in items.items():
            problem = check_key(key)
            if problem:
                problems.append(problem)
                continue
            if raw.strip() == "":
                if key in PRESETS[preset]:
                    values[key] = PRESETS[preset][key]
                else:
                    values.pop(key, None)
                overrides = [k for k in overrides if k != key]
                continue
            try:
                values[key] = _canon(key, raw)
            except ValueError as exc:  # TimeError included
                problems.append(f"{key}={raw.strip()}: {exc}")
                continue
            if key not in overrides:
                overrides.append(key)
        if problems:
            raise PolicyError(problems)
        new = Policy(preset, values, tuple(sorted(overrides)))
        changes = [Change("preset", self.preset, preset)] if preset != self.preset else []
        for key in sorted(set(self.values) | set(values)):
            if self.values.get(key) != values.get(key):
                changes.append(Change(key, self.values.get(key), values.get(key)))
        return new, changes

    # -- typed reading

    def rule(self, kind: str) -> Rule:
        return parse_rule(self.values.get(f"deadline.{kind}", self.values["deadline"]))

    @property
    def reminders(self) -> tuple[timedelta, ...]:
        text = self.values["reminders"]
        return () if text == "none" else tuple(parse_duration(t) for t in text.split(","))

    @property
    def grace(self) -> timedelta:
        return parse_duration(self.values["grace"])

    @property
    def missed(self) -> str:
        return self.values["missed"]

    @property
    def escalate_after(self) -> int:
        return int(self.values["escalation.after"])

    @property
    def escalation(self) -> str:
        return self.values["escalation.action"]

    @property
    def early(self) -> bool:
        return self.values["early"] == "true"

    @property
    def vacation_quota(self) -> timedelta:
        return parse_duration(self.values["vacation.quota"])

    @property
    def moderator(self) -> str:
        return self.values.get("moderator", "")

    def rows(self) -> list[dict[str, str]]:
        """Key, value and where it comes from, in a stable order, for `policy show`."""
        order = [k for k in KEYS if k in self.values] + sorted(k for k in self.values if k not in CANON)
        return [{"key": k, "value": self.values[k], "from": "set" if k in self.overrides else self.preset}
                for k in order]

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "values": dict(self.values), "overrides": list(self.overrides)}
