"""Ratings across games and tournaments, from openskill's Plackett-Luce model.

openskill rates free-for-all results of any number of players, ties included, directly,
which is what a table of three to five is; a two-player system would have to cut each game
into pairs. Each player has a skill estimate `mu` and an uncertainty `sigma`; the rating
shown is the conservative `mu - 3 sigma` (openskill's ordinal), which rises as results
confirm a player's skill. A new player starts at mu 25, sigma 25/3 (rating 0); a roster
rating sets the starting mu instead; a player with games in earlier tournaments of this data
directory starts where those left them (matched by email address, `RatingBook`).

Games are rated in a fixed order, round by round and table by table, so the same results
always give the same ratings; `verify` recomputes them from the archive.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from openskill.models import PlackettLuce

from .scoring import places

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate(start: Mapping[str, tuple[float, float]],
         games: Iterable[tuple[Sequence[str], Sequence[Sequence[str]]]]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) of each player after the `games` (seats, ranking), taken in order."""
    current = {p: (float(mu), float(sigma)) for p, (mu, sigma) in start.items()}
    for seats, ranking in games:
        place = places(seats, ranking)
        teams = [[MODEL.rating(mu=current[p][0], sigma=current[p][1], name=p)] for p in seats]
        rated = MODEL.rate(teams, ranks=[place[p] for p in seats])
        for p, team in zip(seats, rated):
            current[p] = (team[0].mu, team[0].sigma)
    return current
