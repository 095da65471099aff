"""Seats the referee plays itself: how a game's meta marks them, and their names.

A computer seat is a seat like any other (a name, a token) with no address and a
`computer` record: the level it plays at and a seed of its own for its choices (never the
game's seed, which would tell it the decks' order). Its moves go through the submission
path like a person's (referee/service/computer_turns.py); it gets no mail.
"""

from __future__ import annotations

import secrets
from typing import Any, Iterable, Mapping, Sequence

from .computer import DEFAULT_LEVEL, LEVELS
from .tokens import new_token

# Names given to computer players that fill an open game's empty seats, first free first.
NAMES = ("dmitri", "ada", "bruno", "clara", "elena", "felix", "greta", "hugo", "irene", "jonas")


class BadLevel(ValueError):
    """A level that is not one of `LEVELS`."""


def is_computer(seat: Mapping[str, Any]) -> bool:
    return isinstance(seat.get("computer"), Mapping)


def level_of(seat: Mapping[str, Any]) -> str | None:
    """The level a computer seat plays at; None for a person's seat."""
    return seat["computer"]["level"] if is_computer(seat) else None


def computer_names(meta: Mapping[str, Any]) -> list[str]:
    """The game's computer seats, in seat order."""
    return [s["name"] for s in meta.get("seats", []) if is_computer(s)]


def checked_level(level: str | None) -> str:
    """The level named, or the default; BadLevel for an unknown one."""
    chosen = (level or DEFAULT_LEVEL).strip().lower()
    if chosen not in LEVELS:
        raise BadLevel(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    return chosen


def split_bot(spec: str) -> tuple[str, str]:
    """`NAME[:LEVEL]` as given to `referee new --bot`: (name, level). BadLevel for an
    unknown level."""
    name, _, level = spec.partition(":")
    return name.strip().lower(), checked_level(level or None)


def computer_seat(name: str, level: str) -> dict[str, Any]:
    """A new computer seat: no address, a token (the seat's orders are checked like anyone's)
    and a seed of its own for its choices."""
    return {"name": name, "email": "", "token": new_token(), "computer": {"level": level,
                                                                         "seed": secrets.token_hex(16)}}


def free_names(taken: Iterable[str], count: int) -> list[str]:
    """`count` names for computer players that no seat has yet."""
    used = set(taken)
    out = [n for n in NAMES if n not in used][:count]
    k = 1
    while len(out) < count:
        name = f"computer{k}"
        if name not in used and name not in out:
            out.append(name)
        k += 1
    return out


def due_computers(meta: Mapping[str, Any], waiting: Sequence[str]) -> list[str]:
    """The computer seats among the players the game waits for now."""
    mine = set(computer_names(meta))
    return [p for p in waiting if p in mine]
