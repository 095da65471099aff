"""Finds installed games through the `referee.games` entry-point group.

A game package declares ``name = "package.module:GAME"`` under
``[project.entry-points."referee.games"]``; the core never imports a game by name.
A game that fails to load is reported, not fatal: the other games keep working.
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from importlib.metadata import entry_points

from .contract import Game

GROUP = "referee.games"


class UnknownGame(LookupError):
    def __init__(self, name: str, known: list[str]) -> None:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        listing = ", ".join(known) if known else "none installed"
        super().__init__(f"Unknown game type {name!r}.{hint} Installed: {listing}.")
        self.name = name


@lru_cache(maxsize=1)
def _scan() -> tuple[dict[str, Game], dict[str, str]]:
    found: dict[str, Game] = {}
    broken: dict[str, str] = {}
    for ep in entry_points(group=GROUP):
        try:
            game = ep.load()
        except Exception as exc:  # a broken plug-in must not take the others down
            broken[ep.name] = f"cannot load {ep.value}: {exc.__class__.__name__}: {exc}"
            continue
        if not isinstance(game, Game):
            broken[ep.name] = f"{ep.value} does not implement the Game contract"
        elif game.name != ep.name:
            broken[ep.name] = f"{ep.value} is a game named {game.name!r}, not {ep.name!r}"
        else:
            found[game.name] = game
    return dict(sorted(found.items())), broken


def games() -> dict[str, Game]:
    """Every installed game that loads, by name."""
    return dict(_scan()[0])


def broken() -> dict[str, str]:
    """Registered games that failed to load, with the reason."""
    return dict(_scan()[1])


def get(name: str) -> Game:
    """The game called `name`; letter case and underscores for hyphens are forgiven."""
    table = games()
    key = name.strip().lower().replace("_", "-")
    if key in table:
        return table[key]
    raise UnknownGame(name, list(table))
