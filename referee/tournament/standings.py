"""Standings: tournament points, tie-breaks, games played and ratings, from finished tables.

Order: tournament points (scoring.py), then the sum of game scores, then head-to-head among
the players still tied (in every game where two of them met, each player ahead of another of
them gains one and the one behind loses one), and players still level share the place.
Once a final has been played its players come first, in the order of the final; everyone
else follows in the order above. A player who dropped out keeps what they scored and is
marked with the round they left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from .model import FINAL, Tournament
from .ratings import ordinal, rate
from .scoring import Scheme, game_points, game_score, parse_scheme, places, show

TOLERANCE = 1e-6  # how far two recomputed figures may differ and still match


@dataclass
class Row:
    rank: int
    name: str
    points: float
    score: float  # sum of game scores
    head_to_head: int
    games: int
    places: list[str]  # per round: "1st" ... or "-" when not seated, "?" while playing
    mu: float
    sigma: float
    dropped: dict[str, Any] | None = None
    finalist: int | None = None  # place in the final
    shared: bool = False

    @property
    def rating(self) -> float:
        return ordinal(self.mu, self.sigma)

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "shared": self.shared, "name": self.name, "points": round(self.points, 6),
                "score": round(self.score, 6), "head_to_head": self.head_to_head, "games": self.games,
                "places": self.places, "rating": round(self.rating, 6), "mu": round(self.mu, 6),
                "sigma": round(self.sigma, 6), "dropped": self.dropped, "final_place": self.finalist}


@dataclass
class Standings:
    tournament: str
    title: str
    scheme: Scheme
    rounds_played: int
    rounds_planned: int
    rows: list[Row] = field(default_factory=list)
    complete: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "game": self.title, "scoring": self.scheme.name,
                "rounds_played": self.rounds_played, "rounds": self.rounds_planned, "complete": self.complete,
                "standings": [r.to_json() for r in self.rows]}


def ordinal_text(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def compute(t: Tournament) -> Standings:
    """The standings from the results held in `t` (tables without a result are still playing)."""
    scheme = parse_scheme(t.scoring)
    names = [p.name for p in t.players]
    points = {n: 0.0 for n in names}
    score = {n: 0.0 for n in names}
    games = {n: 0 for n in names}
    shown = {n: ["-"] * len(t.rounds) for n in names}
    ahead: dict[tuple[str, str], int] = {}  # (a, b): games a finished ahead of b
    rated: list[tuple[Sequence[str], Sequence[Sequence[str]]]] = []
    final_places: dict[str, int] = {}
    for index, rnd in enumerate(t.rounds):
        for table in rnd.tables:
            for seat in table.seats:
                shown[seat][index] = "?"
            if table.result is None:
                continue
            ranking = table.result["ranking"]
            place = places(table.seats, ranking)
            for player, got in game_points(scheme, table.seats, ranking).items():
                points[player] += got
                games[player] += 1
                score[player] += game_score(table.result.get("scores", {}).get(player, {}))
                shown[player][index] = ordinal_text(place[player])
            for a in table.seats:
                for b in table.seats:
                    if place[a] < place[b]:
                        ahead[(a, b)] = ahead.get((a, b), 0) + 1
            rated.append((table.seats, ranking))
            if rnd.kind == FINAL:
                final_places.update(place)
    ratings = rate({p.name: (p.mu, p.sigma) for p in t.players}, rated)
    rows = [Row(0, n, points[n], score[n], 0, games[n], shown[n], *ratings[n], dropped=p.dropped,
                finalist=final_places.get(n)) for n, p in zip(names, t.players)]
    last = t.current
    final_done = last is not None and last.kind == FINAL and last.finished
    finalists = [r for r in rows if final_done and r.finalist is not None]
    others = [r for r in rows if not (final_done and r.finalist is not None)]
    ordered = _order(finalists, ahead, lambda r: (r.finalist,)) + _order(others, ahead, lambda r: ())
    _number(ordered, ahead, final_done)
    return Standings(t.name, t.title, scheme, sum(1 for r in t.rounds if r.finished), t.planned, ordered,
                     t.complete)


def _key(row: Row, first: Any) -> tuple:
    return (*first(row), -round(row.points, 6), -round(row.score, 6))


def _order(rows: list[Row], ahead: dict[tuple[str, str], int], first: Any) -> list[Row]:
    """Sort by the main keys; players level on them are sorted by head-to-head, then by name."""
    rows = sorted(rows, key=lambda r: (_key(r, first), r.name))
    out: list[Row] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and _key(rows[j], first) == _key(rows[i], first):
            j += 1
        group = rows[i:j]
        names = [r.name for r in group]
        for row in group:
            row.head_to_head = sum(ahead.get((row.name, o), 0) - ahead.get((o, row.name), 0)
                                   for o in names if o != row.name)
        out += sorted(group, key=lambda r: (-r.head_to_head, r.name))
        i = j
    return out


def _number(rows: list[Row], ahead: dict[tuple[str, str], int], final_done: bool) -> None:
    """Places: a player level with the one above on every key shares their place."""
    for i, row in enumerate(rows):
        prev = rows[i - 1] if i else None
        same = prev is not None and (prev.finalist if final_done else None) == (row.finalist if final_done else None) \
            and round(prev.points, 6) == round(row.points, 6) and round(prev.score, 6) == round(row.score, 6) \
            and prev.head_to_head == row.head_to_head
        if same:
            row.rank, row.shared, prev.shared = prev.rank, True, True
        else:
            row.rank = i + 1


def differences(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Where two JSON standings differ, each as "path: expected X, recomputed Y"; numbers are
    compared within TOLERANCE (ratings are floating point)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in sorted(set(expected) | set(actual), key=str):
            out += differences(expected.get(key), actual.get(key), f"{where}.{key}" if where else str(key))
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{where}: {len(expected)} entries, recomputed {len(actual)}"]
        out = []
        for i, (a, b) in enumerate(zip(expected, actual)):
            out += differences(a, b, f"{where}[{i}]")
        return out
    numbers = (int, float)
    if isinstance(expected, numbers) and isinstance(actual, numbers) and not isinstance(expected, bool) \
            and not isinstance(actual, bool):
        return [] if abs(expected - actual) <= TOLERANCE else [f"{where}: {show(expected)}, recomputed {show(actual)}"]
    return [] if expected == actual else [f"{where}: {expected!r}, recomputed {actual!r}"]
