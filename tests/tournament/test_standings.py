"""Tournament points, tie-breaks and ratings, on results written by hand."""

from __future__ import annotations

import pytest

from referee.tournament.model import FINAL, HEAT, Player, Round, Table, Tournament
from referee.tournament.scoring import ScoringError, game_points, parse_scheme
from referee.tournament.standings import compute


@pytest.mark.parametrize("scheme, size, points", [
    ("scaled", 4, [12, 8, 4, 0]), ("scaled", 3, [12, 6, 0]), ("scaled", 5, [12, 9, 6, 3, 0]),
    ("linear", 4, [3, 2, 1, 0]), ("win", 4, [1, 0, 0, 0]), ("10,6,3,1", 5, [10, 6, 3, 1, 0]),
])
def test_schemes(scheme, size, points):
    seats = [f"p{i}" for i in range(size)]
    got = game_points(parse_scheme(scheme), seats, [[p] for p in seats])
    assert [got[p] for p in seats] == points


def test_tied_players_share_the_points_of_their_places_and_a_player_who_left_scores_nothing():
    got = game_points(parse_scheme("scaled"), ["a", "b", "c", "d"], [["a"], ["b", "c"]])
    assert got == {"a": 12, "b": 6, "c": 6, "d": 0}


@pytest.mark.parametrize("text, message", [("golf", "unknown scoring 'golf'"), ("1,3", "cannot score fewer"),
                                            ("5,-1", "from 0 to")])
def test_bad_schemes(text, message):
    with pytest.raises(ScoringError, match=message):
        parse_scheme(text)


def tournament(rounds, players="abcdefgh", scoring="scaled", planned=2):
    return Tournament("t", "constantinopolis", "Constantinopolis", "2", "2026-01-01T00:00:00Z", "s", "c", planned,
                      (4, 4), scoring, "tournament",
                      players=[Player(p, mu=25.0, sigma=25 / 3) for p in players], rounds=rounds)


def table(number, game, ranking, fame):
    seats = [p for group in ranking for p in group]
    return Table(number, game, seats, "c", {"ranking": ranking, "scores": {p: {"fame": fame[p]} for p in seats}})


def test_points_then_game_scores_then_head_to_head_then_shared():
    r1 = Round(1, HEAT, [table(1, "t-r1-t1", [["a"], ["b"], ["c"], ["d"]], dict(a=9, b=5, c=4, d=1)),
                         table(2, "t-r1-t2", [["e"], ["f"], ["g"], ["h"]], dict(e=9, f=5, g=4, h=1))])
    r2 = Round(2, HEAT, [table(1, "t-r2-t1", [["b"], ["a"], ["g"], ["h"]], dict(a=5, b=9, g=3, h=2)),
                         table(2, "t-r2-t2", [["f"], ["e"], ["c"], ["d"]], dict(e=5, f=9, c=3, d=0))])
    rows = compute(tournament([r1, r2])).rows
    order = [(r.rank, r.name, r.points, r.score, r.head_to_head) for r in rows]
    # a, b, e, f all have 20 points and 14 fame; a and b met (1-1), e and f met (1-1): all shared
    assert order[:4] == [(1, "a", 20, 14, 0), (1, "b", 20, 14, 0), (1, "e", 20, 14, 0), (1, "f", 20, 14, 0)]
    # c and g: 8 points, 7 fame each, never met: shared; then d and h by fame (1 and 3)
    assert order[4:] == [(5, "c", 8, 7, 0), (5, "g", 8, 7, 0), (7, "h", 0, 3, 0), (8, "d", 0, 1, 0)]
    assert all(r.games == 2 for r in rows) and rows[0].places == ["1st", "2nd"]
    assert rows[0].rating > rows[-1].rating


def test_head_to_head_separates_players_level_on_points_and_score():
    r1 = Round(1, HEAT, [table(1, "t-r1-t1", [["a"], ["b"], ["c"], ["d"]], dict(a=5, b=5, c=1, d=1)),
                         table(2, "t-r1-t2", [["e"], ["f"], ["g"], ["h"]], dict(e=9, f=2, g=1, h=0))])
    r2 = Round(2, HEAT, [table(1, "t-r2-t1", [["b"], ["e"], ["c"], ["g"]], dict(b=5, e=5, c=1, g=0)),
                         table(2, "t-r2-t2", [["f"], ["a"], ["d"], ["h"]], dict(f=3, a=5, d=1, h=0))])
    rows = compute(tournament([r1, r2])).rows
    # e, a, b and f all have 20 points; e has the most fame; a and b have 10 each and met
    # once, a ahead of b
    assert [(r.name, r.rank, r.points, r.score, r.head_to_head) for r in rows[:4]] == [
        ("e", 1, 20, 14, 0), ("a", 2, 20, 10, 1), ("b", 3, 20, 10, -1), ("f", 4, 20, 5, 0)]
    assert not any(r.shared for r in rows[:4])


def test_finalists_come_first_in_the_order_of_the_final():
    r1 = Round(1, HEAT, [table(1, "t-r1-t1", [["a"], ["b"], ["c"], ["d"]], dict(a=9, b=5, c=4, d=1)),
                         table(2, "t-r1-t2", [["e"], ["f"], ["g"], ["h"]], dict(e=9, f=5, g=4, h=1))])
    final = Round(2, FINAL, [table(1, "t-r2-t1", [["f"], ["b"], ["e"], ["a"]], dict(a=1, b=5, e=3, f=7))], top=4)
    t = tournament([r1, final])
    rows = compute(t).rows
    assert [r.name for r in rows[:4]] == ["f", "b", "e", "a"] and [r.rank for r in rows[:4]] == [1, 2, 3, 4]
    assert [r.name for r in rows[4:]] == ["c", "g", "d", "h"] and rows[4].rank == 5 and rows[4].places == ["3rd", "-"]
    assert compute(t).complete
