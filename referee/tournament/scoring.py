"""Tournament points from the places of one game.

A scheme turns a place at a table of k players into points. Players tied for a place share
the points of the places they fill (two tied for 2nd at a table of four under `scaled` get
(8 + 4) / 2 = 6 each). A player who left a game under the game's own drop rule has no place
in its result: they count as last and score nothing for that game.

Schemes (`--scoring`):

    scaled   12 x (k - place) / (k - 1): first 12, last 0 at every table size, whole
             numbers for tables of 2 to 5 (3 players: 12 6 0; 4: 12 8 4 0; 5: 12 9 6 3 0).
             The default: a round with tables of different sizes stays fair.
    linear   k - place: at a table of four 3 2 1 0. Bigger tables give more points.
    win      1 for first place, 0 otherwise (tied winners share the point).
    N,N,...  points for 1st, 2nd, ... as listed (e.g. 10,6,3,1); places past the list score 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..i18n import DEFAULT_LANGUAGE, format_number, translations

SCHEMES = ("scaled", "linear", "win")
DEFAULT_SCHEME = "scaled"


class ScoringError(ValueError):
    """A scoring scheme or points list that cannot score a table."""


@dataclass(frozen=True)
class Scheme:
    name: str  # scaled, linear, win, or the list as written canonically ("10,6,3,1")
    values: tuple[float, ...] = ()

    def points(self, place: int, size: int) -> float:
        """Points for `place` (1 = first) at a table of `size` players."""
        if self.name == "scaled":
            return 12 * (size - place) / (size - 1) if size > 1 else 12.0
        if self.name == "linear":
            return float(size - place)
        if self.name == "win":
            return 1.0 if place == 1 else 0.0
        return self.values[place - 1] if place <= len(self.values) else 0.0

    def describe(self, lang: str = DEFAULT_LANGUAGE) -> str:
        tr = translations(lang)
        if self.name == "scaled":
            return tr.gettext("scaled: 12 x (table size - place) / (table size - 1); first 12, last 0")
        if self.name == "linear":
            return tr.gettext("linear: table size - place (at a table of four: 3, 2, 1, 0)")
        if self.name == "win":
            return tr.gettext("win: 1 point for first place, 0 otherwise")
        sep = ", " if lang == DEFAULT_LANGUAGE else " / "  # 6,5 holds a comma in German and Italian
        return tr.gettext("points by place: {values}; later places 0").format(
            values=sep.join(show(v, lang) for v in self.values))


def parse_scheme(text: str) -> Scheme:
    raw = str(text).strip().lower().replace(" ", "")
    if raw in SCHEMES:
        return Scheme(raw)
    parts = raw.split(",")
    try:
        values = tuple(float(p) for p in parts)
    except ValueError:
        raise ScoringError(f"unknown scoring {text!r}: use {', '.join(SCHEMES)}, or points by place such as "
                           "10,6,3,1") from None
    if any(v < 0 or v != v or v > 1e6 for v in values):
        raise ScoringError(f"scoring {text!r}: points must be numbers from 0 to 1000000")
    if list(values) != sorted(values, reverse=True):
        raise ScoringError(f"scoring {text!r}: a better place cannot score fewer points than a worse one")
    return Scheme(",".join(show(v) for v in values), values)


def show(value: float, lang: str = DEFAULT_LANGUAGE) -> str:
    """A number as people write it: 12, 6.5, 2.33; in German and Italian 6,5."""
    rounded = round(value, 2)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:g}" if lang == DEFAULT_LANGUAGE else format_number(rounded, lang)


def places(seats: Sequence[str], ranking: Sequence[Sequence[str]]) -> dict[str, int]:
    """Each seated player's place (1 = first; tied players share the best place of their group);
    a player missing from the ranking (they left the game) is placed after everyone ranked."""
    place, out = 1, {}
    for group in ranking:
        for player in group:
            out[player] = place
        place += len(group)
    for player in seats:
        out.setdefault(player, place)
    return out


def game_points(scheme: Scheme, seats: Sequence[str], ranking: Sequence[Sequence[str]]) -> dict[str, float]:
    """Tournament points of each player at one finished table."""
    size = len(seats)
    out: dict[str, float] = {p: 0.0 for p in seats}
    place = 1
    for group in ranking:
        shared = [scheme.points(place + i, size) for i in range(len(group))]
        for player in group:
            out[player] = sum(shared) / len(shared)
        place += len(group)
    return out


def game_score(scores: Mapping[str, Any]) -> float:
    """A player's score in one game, for the tie-break "sum of game scores": the first number
    in the game's score sheet for the player, which is what the game ranks by first (fame in
    Constantinopolis, palace seats in Porto Carthago)."""
    for value in scores.values():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return 0.0
