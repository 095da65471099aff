"""A player's choice of mail (`NOTIFY each|turn|digest [HH:MM]`) and when their next mail is due.

- `turn` (the default): a mail when something is asked of the player, at the end of each round,
  and when the game ends. What only says that something changed (another player's move, a
  notice from the moderator) waits and is folded into that next mail.
- `each`: a mail for everything, as it happens: every receipt, every report, every notice.
- `digest`: at most one mail a day, at the player's chosen local time (their TIMEZONE), with
  everything since the last one; sooner only when a deadline of theirs is less than a day away.

Deadline reminders always go out at once, whatever the choice. Answers to a player's own
mail (the receipt of their orders, STATUS, HELP, HISTORY, a time zone set) and refusals of
their mail are answers, not news, and go at once too: a receipt opens the mail due at that
moment, or goes alone.

What waits is kept in the game's meta (`mailbag`, one entry per player) in the same unit of
work as the turn that caused it, so nothing is lost in a crash. This module is pure: the
mailer's notifier decides with it what to send, and the service's `next_wake` with it when a
digest wakes the game.

    mailbag[player] = {
        "parts":  [{"kind", "subject", "text", "reply", "urgent", "fresh"}],  # receipts, notices, waiting
        "ask":    phase key of the last mail that asked for orders (None: none),
        "round":  round of the last mail (None: no mail yet),
        "ended":  whether the final standings were mailed,
        "since":  ISO moment the oldest unmailed news arrived (None: nothing waits),
        "waiting": phase key the player is asked in and was not yet mailed about (digest),
        "seen":   {section: hash} of the view at the last mail (the text shows what changed),
        "urgent": the next mail goes at once, whatever the choice (the moderator took the game back),
        "planner": the player has sent a plan: their reports leave the plan template to HELP,
        "count":  mails sent this way (names each mail's Message-ID),
    }
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any, Mapping

from .i18n import DEFAULT_LANGUAGE, translations
from .timekeeping import UTC, from_iso, get_zone

EACH, TURN, DIGEST = "each", "turn", "digest"
MODES = (EACH, TURN, DIGEST)
DEFAULT_MODE = TURN
DEFAULT_DIGEST_AT = "08:00"
SOON = timedelta(days=1)  # a digest player's deadline this close gets its mail at once

# The command and its choices as German and Italian players write them (and read them in the
# footer of every mail); English is always understood too.
NOTIFY_WORDS = {"de": "BENACHRICHTIGUNG", "it": "AVVISI"}
MODE_WORDS = {"de": {EACH: "jede", TURN: "Zug", DIGEST: "sammeln"},
              "it": {EACH: "ogni", TURN: "turno", DIGEST: "riepilogo"}}
_LOCAL_MODES = {word.lower(): mode for words in MODE_WORDS.values() for mode, word in words.items()}
_LOCAL_MODES["sammel"] = DIGEST  # the word of earlier footers, still understood


def read_mode(word: str) -> str:
    """A choice's English name from any language's word for it (`sammel` -> `digest`)."""
    return _LOCAL_MODES.get(word.strip().lower(), word.strip().lower())


def mode_word(mode: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A choice as a player of `lang` writes it (`digest` -> `sammel`)."""
    return MODE_WORDS.get(lang, {}).get(mode, mode)

_HHMM = re.compile(r"^([01]?\d|2[0-3])[:.h]?([0-5]\d)$")


class NotifyError(ValueError):
    """A NOTIFY request that cannot be understood; the message says how to write it."""


@dataclass(frozen=True)
class Notify:
    mode: str = DEFAULT_MODE
    at: str | None = None  # HH:MM, for a digest

    @classmethod
    def parse(cls, spec: str) -> "Notify":
        """`each`, `turn`, `digest` or `digest 18:30` (also `18.30`, `1830`, `18h30`)."""
        words = spec.strip().lower().split()
        words = [_LOCAL_MODES.get(words[0], words[0]), *words[1:]] if words else words
        usage = "write NOTIFY each, NOTIFY turn or NOTIFY digest 08:00 (a time of day in your time zone)"
        if not words or words[0] not in MODES:
            shown = f"{spec.strip()[:30]!r} is not a choice; " if spec.strip() else ""
            raise NotifyError(shown + usage)
        mode, rest = words[0], words[1:]
        if mode != DIGEST:
            if rest:
                raise NotifyError(f"NOTIFY {mode} takes no time; only a digest has one")
            return cls(mode)
        if len(rest) > 1:
            raise NotifyError(usage)
        if not rest:
            return cls(DIGEST, DEFAULT_DIGEST_AT)
        match = _HHMM.match(rest[0])
        if not match:
            raise NotifyError(f"{rest[0][:12]!r} is not a time of day; write it like 08:00 or 18:30")
        return cls(DIGEST, f"{int(match.group(1)):02d}:{match.group(2)}")

    @classmethod
    def of_seat(cls, seat: Mapping[str, Any]) -> "Notify":
        raw = seat.get("notify") or {}
        mode = raw.get("mode") if raw.get("mode") in MODES else DEFAULT_MODE
        return cls(mode, raw.get("at") or (DEFAULT_DIGEST_AT if mode == DIGEST else None))

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "at": self.at} if self.mode == DIGEST else {"mode": self.mode}

    def command(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The mail command that makes this choice, in the words of `lang`."""
        mode = MODE_WORDS.get(lang, {}).get(self.mode, self.mode)
        return f"{NOTIFY_WORDS.get(lang, 'NOTIFY')} {mode}" + (f" {self.at}" if self.mode == DIGEST else "")

    def short(self, zone: str | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
        """The choice in a few words, for the last line of every mail, in the reader's language."""
        t = translations(lang)
        if self.mode == EACH:
            return t.gettext("mail for everything")
        if self.mode == DIGEST:
            return t.gettext("daily at {at} {zone}").format(at=self.at, zone=zone or "UTC")
        return t.gettext("mail when asked, round ends")

    def describe(self, zone: str | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
        """What the player gets, in a few words, for the footer of every mail."""
        t = translations(lang)
        if self.mode == EACH:
            return t.gettext("You get a mail for everything as it happens")
        if self.mode == DIGEST:
            return t.gettext("You get one mail a day at {at} {zone}, sooner when a deadline of yours is less "
                             "than a day away, and reminders").format(at=self.at, zone=zone or "UTC")
        return t.gettext("You get mail when you are asked something, at round ends, and reminders")


def next_slot(after: datetime, at: str, zone: str | None) -> datetime:
    """The first moment strictly after `after` when the clock in `zone` shows `at` (HH:MM).
    A time that a change to summer time skips falls an hour later that day, as clocks do."""
    tz = get_zone(zone or "UTC")
    hours, minutes = (int(x) for x in at.split(":"))
    local = after.astimezone(tz)
    day = local.date()
    for _ in range(3):
        moment = datetime.combine(day, time(hours, minutes), tzinfo=tz)
        # a wall time repeated or skipped by a clock change: normalise through UTC
        moment = moment.astimezone(UTC)
        if moment > after:
            return moment
        day += timedelta(days=1)
    raise AssertionError("no slot within three days")  # pragma: no cover - a day always has its HH:MM


def bag_of(meta: Mapping[str, Any], player: str) -> dict[str, Any]:
    """A copy of the player's mailbag entry, with every field present."""
    bag = dict((meta.get("mailbag") or {}).get(player) or {})
    bag.setdefault("parts", [])
    for key in ("ask", "round", "since", "waiting"):
        bag.setdefault(key, None)
    bag.setdefault("ended", False)
    bag.setdefault("urgent", False)
    bag.setdefault("planner", False)
    bag.setdefault("seen", {})
    bag.setdefault("count", 0)
    bag["parts"] = [dict(p) for p in bag["parts"]]
    return bag


def digest_wake(meta: Mapping[str, Any]) -> float | None:
    """The earliest moment (POSIX time) a digest of this game falls due: the slot after the
    oldest waiting news of each digest player, or a day before the deadline of a decision
    they were not yet mailed about. None when no digest waits."""
    times: list[float] = []
    schedule = meta.get("schedule") or {}
    for seat in meta.get("seats", []):
        choice = Notify.of_seat(seat)
        if choice.mode != DIGEST:
            continue
        bag = (meta.get("mailbag") or {}).get(seat["name"]) or {}
        if bag.get("since"):
            times.append(next_slot(from_iso(bag["since"]), choice.at or DEFAULT_DIGEST_AT,
                                   seat.get("timezone")).timestamp())
        if bag.get("waiting") and bag["waiting"] == schedule.get("phase") and schedule.get("due"):
            times.append((from_iso(schedule["due"]) - SOON).timestamp())
    return min(times) if times else None
