"""What a moderator should know about a seat at a glance (`referee status`, `referee list`):
a player on vacation, deadlines missed in a row, a seat offered to a replacement, mail to the
seat's address that bounces.

Each flag is plain data, a list per seat, so that another kind joins the others without
changing their readers: `{"flag": kind, "text": the moderator's words, "short": the same in a
few words for `referee list`, "attention": bool}` plus the flag's own values. `attention`
marks what asks the moderator to act (a seat to fill, misses that lead to an escalation, an
address that bounces); a vacation is only worth knowing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from .bouncing import bouncing_seats
from .timekeeping import from_iso, show_moment

VACATION, MISSED, OFFERED, BOUNCES = "vacation", "missed", "offered", "bounces"


def seat_flags(meta: Mapping[str, Any], now: datetime) -> dict[str, list[dict[str, Any]]]:
    """Every seat's flags, in seat order; a seat with none has an empty list."""
    flags: dict[str, list[dict[str, Any]]] = {seat["name"]: [] for seat in meta.get("seats", [])}
    for name, away in (meta.get("vacations") or {}).items():
        until = from_iso(away["until"])
        if name in flags and until > now:  # an ended one stays in the meta until the next tick
            flags[name].append({"flag": VACATION, "until": away["until"], "attention": False,
                                "text": f"on vacation until {show_moment(until)}",
                                "short": f"on vacation until {until:%d %b}"})
    for name, count in (meta.get("misses") or {}).items():
        if name in flags and count:
            said = f"missed {count} deadline{'s' if count != 1 else ''}"
            flags[name].append({"flag": MISSED, "count": count, "attention": True,
                                "text": f"{said} in a row", "short": said})
    for name in meta.get("offered") or []:
        if name in flags:
            flags[name].append({"flag": OFFERED, "attention": True, "short": "seat offered",
                                "text": "seat offered to a replacement (`referee replace`)"})
    for seat in bouncing_seats(meta):
        if seat["player"] in flags:
            since = f" since {show_moment(from_iso(seat['since']))}" if seat.get("since") else ""
            flags[seat["player"]].append({"flag": BOUNCES, "email": seat["email"], "since": seat.get("since"),
                                          "attention": True, "short": "mail bounces",
                                          "text": f"mail to <{seat['email']}> bounces{since}: {seat['why']}"})
    return flags
