"""The moderator's words for a game's facts (referee/service/glance.py): the lines of
`referee status` and the one line a game of `referee list`."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Sequence

from referee.schedule import grace_end
from referee.timekeeping import from_iso, show_moment, show_span

ATTENTION = "!"  # the mark of a game that asks the moderator to act


def ago(moment: str, now: datetime) -> str:
    """`3h 5m ago`, `in 1d 4h`: a moment from now, roughly."""
    when = from_iso(moment)
    return f"in {show_span(when - now)}" if when > now else f"{show_span(now - when)} ago"


def who_and_what(line: Mapping[str, Any]) -> str:
    """`ann: construction turn`; players asked the same at once are named together."""
    players = ", ".join(line["players"])
    how = " (at the same time, each on their own)" if line["simultaneous"] and len(line["players"]) > 1 else ""
    return f"{players}: {line['what']}{how}"


def deadline_line(facts: Mapping[str, Any], now: datetime) -> str:
    """Until when the phase waits, and how late it is."""
    paused = facts.get("paused")
    if paused:
        since = paused.get("since")
        return ("none while the game is paused" + (f" (since {show_moment(from_iso(since))}" if since else "")
                + (f": {paused['reason']})" if paused.get("reason") else ")" if since else ""))
    if not facts.get("due"):
        return "none set"
    due = from_iso(facts["due"])
    text = f"{show_moment(due)} ({ago(facts['due'], now)})"
    grace = facts.get("grace_until")
    if grace and from_iso(grace) > due:
        text += f"; grace until {grace_end(due, from_iso(grace), None, 'en')}"
    if facts.get("late") == "grace":
        text += "; the deadline has passed, the grace period runs"
    elif facts.get("late") == "passed":
        text += "; deadline and grace have passed"
    if facts.get("held"):
        text += "; everyone is in, the phase resolves at its deadline (early resolution is off)"
    return text


def status_lines(facts: Mapping[str, Any], now: datetime) -> list[str]:
    """What `referee status` says about whom the game waits for, until when, and the seats
    worth knowing about (after the round and phase line)."""
    lines = []
    if facts.get("since") and facts.get("waiting"):
        lines.append(f"Open since {show_moment(from_iso(facts['since']))} ({ago(facts['since'], now)})")
    for line in facts.get("waiting", []):
        lines.append(f"Waiting for {who_and_what(line)}")
    if facts.get("waiting"):
        lines.append(f"Deadline: {deadline_line(facts, now)}")
    lines += flag_lines(facts)
    if facts.get("attention"):
        lines.append(f"Needs attention: {'; '.join(facts['attention'])}")
    return lines


def flag_lines(facts: Mapping[str, Any]) -> list[str]:
    """The seats worth knowing about, each with its flags; none when no seat has one."""
    flagged = {name: flags for name, flags in facts.get("flags", {}).items() if flags}
    if not flagged:
        return []
    return ["Seats to know about:",
            *(f"  {name}: {'; '.join(flag['text'] for flag in flags)}" for name, flags in flagged.items())]


def _moment(iso: str) -> str:
    return f"{from_iso(iso):%d %b %H:%M}"


def _where(facts: Mapping[str, Any]) -> str:
    status = facts.get("status")
    if status == "open":
        signup = facts["signup"]
        return f"sign-ups, {signup['taken']} of {signup['max']} seats"
    if status == "broken":
        return "file damaged"
    phase = facts.get("phase")
    if status == "finished" or not phase or not facts.get("waiting"):
        return "over"
    return f"r{phase['round']} {phase['name']}"


def _waiting(facts: Mapping[str, Any]) -> str:
    if facts.get("phase") and not facts.get("waiting"):
        winners = facts.get("winners")
        return f"won by {', '.join(winners)}" if winners else "-"
    return ", ".join(p for line in facts.get("waiting", []) for p in line["players"]) or "-"


def _when(facts: Mapping[str, Any], now: datetime) -> str:
    if facts.get("paused"):
        return "paused"
    if facts.get("status") == "open":
        starts = facts["signup"]["starts_at"]
        return f"starts {_moment(starts)}" if starts else "starts when full"
    if not facts.get("waiting") or not facts.get("due"):
        return "-"
    late = facts.get("late")
    if late:
        return f"late {show_span(now - from_iso(facts['due']))}" + (", grace" if late == "grace" else "")
    return f"in {show_span(from_iso(facts['due']) - now)}"


def _notes(facts: Mapping[str, Any]) -> str:
    """Attention first, then the flags that ask nothing (a vacation)."""
    notes = list(facts.get("attention", []))
    for name, flags in facts.get("flags", {}).items():
        notes += [f"{name} {flag['short']}" for flag in flags if not flag.get("attention")]
    return "; ".join(notes)


def list_rows(games: Sequence[Mapping[str, Any]], now: datetime) -> list[str]:
    """A line a game, columns as wide as their longest cell, a header above; a game that
    needs attention starts with `!`, and the last line counts them."""
    header = ["", "GAME", "TYPE", "WHERE", "WAITING FOR", "DEADLINE", "NOTES"]
    rows = [[ATTENTION if facts.get("attention") else "", facts["id"], facts.get("game") or "?", _where(facts),
             _waiting(facts), _when(facts, now), _notes(facts)] for facts in games]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in [header, *rows]]
    marked = sum(1 for facts in games if facts.get("attention"))
    count = f"{len(games)} game{'s' if len(games) != 1 else ''}"
    lines.append(f"{marked} of {count} need{'s' if marked == 1 else ''} attention ({ATTENTION}); "
                 "`referee status GAME` says why" if marked else f"{count}; none needs attention")
    return lines
