"""The deadline of the phase now open, as plain data kept in the game's meta.

When a phase opens, its deadline is computed from the policy and stored with the phase key,
so every later question (is a reminder due? has the deadline passed?) is answered from the
stored record and the time now, never recomputed from a policy that may have changed since.
Everything that was done about a deadline (reminders sent, the miss handled) is written
into the same record in the same unit of work as the mail it causes: that is what lets two
ticks, or a crash between two ticks, never do anything twice.

    schedule = {"phase": key, "kind": kind, "opened": iso, "due": iso | None,
                "armed": iso, "reminded": {offset: due}, "noted": due | None}

`armed` is the last moment the deadline was set (opened, extended, resumed, moved for a
vacation): a reminder is sent only if its time comes after that, so a deadline that is
already close when it is set does not start with a pile of reminders.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Mapping

from .contract import PhaseInfo
from .policy import Policy
from .i18n import DEFAULT_LANGUAGE, translations
from .timekeeping import format_duration, from_iso, get_zone, show_moment, show_moment_short, to_iso


def new_schedule(policy: Policy, phase: PhaseInfo, now: datetime) -> dict[str, Any]:
    due = policy.rule(phase.kind).due(now)
    return {"phase": phase.key, "kind": phase.kind, "opened": to_iso(now),
            "due": to_iso(due) if due is not None else None, "armed": to_iso(now),
            "reminded": {}, "noted": None}


def due_of(schedule: Mapping[str, Any] | None) -> datetime | None:
    if not schedule or not schedule.get("due"):
        return None
    return from_iso(schedule["due"])


def moved(schedule: Mapping[str, Any], by: timedelta, now: datetime) -> dict[str, Any]:
    """The schedule with its deadline moved by `by`; reminders re-arm from `now`."""
    due = due_of(schedule)
    assert due is not None
    return dict(schedule, due=to_iso(due + by), armed=to_iso(now))


def reminders_due(schedule: Mapping[str, Any], policy: Policy, now: datetime) -> list[timedelta]:
    """Reminder offsets whose time has come for the deadline as it stands, not yet sent.

    Only before the deadline; an offset whose time fell before the deadline was last set is
    skipped (the report that announced the deadline said as much)."""
    due = due_of(schedule)
    if due is None or now >= due:
        return []
    armed = from_iso(schedule["armed"])
    sent = schedule.get("reminded", {})
    return [o for o in policy.reminders
            if armed < due - o <= now and sent.get(format_duration(o)) != schedule["due"]]


def mark_reminded(schedule: Mapping[str, Any], offsets: list[timedelta]) -> dict[str, Any]:
    sent = dict(schedule.get("reminded", {}))
    for offset in offsets:
        sent[format_duration(offset)] = schedule["due"]
    return dict(schedule, reminded=sent)


def closes_at(schedule: Mapping[str, Any], policy: Policy) -> datetime | None:
    """When missing orders stop counting: the deadline plus the grace period."""
    due = due_of(schedule)
    return None if due is None else due + policy.grace


def deadline_info(meta: Mapping[str, Any]) -> dict[str, Any] | None:
    """The open phase's deadline for `status`: machine-readable, UTC."""
    schedule = meta.get("schedule")
    policy = Policy.from_meta(meta.get("policy"))
    if not schedule or policy is None:
        return None
    close = closes_at(schedule, policy)
    paused = meta.get("paused")
    return {"phase": schedule["phase"], "kind": schedule["kind"], "opened": schedule["opened"],
            "due": schedule.get("due"), "grace_until": to_iso(close) if close else None,
            "paused": bool(paused), "paused_since": paused["since"] if paused else None,
            "held": bool(meta.get("held"))}


def deadline_text(meta: Mapping[str, Any], zone: str | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
    """The open phase's deadline for a person, in `zone` (with UTC beside it), in `lang`."""
    schedule = meta.get("schedule")
    policy = Policy.from_meta(meta.get("policy"))
    t = translations(lang)
    if meta.get("paused"):
        return t.gettext("none while the game is paused (the clock stops until the moderator resumes it)")
    due = due_of(schedule)
    if policy is None or schedule is None or due is None:
        return t.gettext("none set")
    text = show_moment(due, zone, lang)
    if policy.grace > timedelta(0):
        assert schedule is not None
        text += t.gettext("; grace until {moment}").format(moment=grace_end(due, due + policy.grace, zone, lang))
    return text


def deadline_short(meta: Mapping[str, Any], zone: str | None = None, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """The open phase's deadline in a few words for a subject line (`Sat 28 Nov 18:05 CET`,
    in the reader's zone and language); None when there is none (no policy, paused)."""
    due = due_of(meta.get("schedule"))
    if meta.get("paused") or Policy.from_meta(meta.get("policy")) is None or due is None:
        return None
    return show_moment_short(due, zone, lang)


def grace_end(due: datetime, end: datetime, zone: str | None, lang: str) -> str:
    """The end of the grace period after `due`: only the time when it falls on the same day
    on the reader's clock (`20:00`), so the deadline stays on one line; else the moment."""
    tz = get_zone(zone or "UTC")
    if due.astimezone(tz).date() == end.astimezone(tz).date():
        return f"{end.astimezone(tz):%H:%M}"
    return show_moment(end, zone, lang)


def seat_zone(meta: Mapping[str, Any], player: str) -> str | None:
    for seat in meta.get("seats", []):
        if seat["name"] == player:
            return seat.get("timezone")
    return None
