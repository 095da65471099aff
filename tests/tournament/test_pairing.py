"""Pairing properties over rosters of 5 to 40 players and several rounds: tables as even as
the count allows, no repeat meetings whenever they can be avoided, seats balanced.

"Can be avoided" is decided independently of the pairing's own search: by the
Hajnal-Szemeredi theorem (a graph whose degrees are all below t has an equitable colouring
with t colours, i.e. t tables of sizes differing by at most one with nobody at a table with
someone they met), and, for rosters of up to ten, by trying every possible seating."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from referee.tournament.pairing import PairingError, plan_round, seat_uses, snake, table_sizes


@st.composite
def tournaments(draw):
    count = draw(st.integers(5, 40))
    low = draw(st.integers(2, 5))
    high = draw(st.integers(low, 5))
    try:
        sizes = table_sizes(count, low, high)
    except PairingError:
        assume(False)
    rounds = draw(st.integers(1, 4))
    players = [f"p{i:02d}" for i in range(count)]
    orders = [draw(st.permutations(players)) for _ in range(rounds)]
    return players, sizes, orders, draw(st.booleans())


def partitions(players, sizes):
    """Every way to seat `players` at tables of `sizes` (as sets; equal tables not told apart)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, sizes[0] - 1):
        left = [p for p in rest if p not in others]
        for tail in partitions(left, sizes[1:]):
            yield [(first, *others), *tail]


def repeat_free_exists(players, sizes, met):
    # the table holding the first player may be any of the sizes
    for size in sorted(set(sizes)):
        others = list(sizes)
        others.remove(size)
        for seating in partitions(players, [size, *others]):
            if all(not (set(t) - {p}) & met[p] for t in seating for p in t):
                return True
    return False


def repeats(tables, met):
    return sum(1 for t in tables for a, b in itertools.combinations(t, 2) if b in met[a])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_pairing_properties(case):
    players, sizes, orders, spread = case
    met = {p: frozenset() for p in players}
    seats = {p: [] for p in players}
    for number, order in enumerate(orders, 1):
        plan = plan_round(order, sizes, met, seats, spread=spread and number == 1)
        # as even as the count allows: the sizes asked for, everyone seated once
        assert sorted(len(t) for t in plan.tables) == sorted(sizes)
        assert sorted(p for t in plan.tables for p in t) == sorted(players)
        assert plan.repeats == repeats(plan.tables, met)
        # no repeat meetings when they can be avoided
        degree = max(len(met[p]) for p in players)
        if len(sizes) >= degree + 1:  # Hajnal-Szemeredi: a seating without repeats exists
            assert plan.repeats == 0, (number, plan.tables)
        if len(players) <= 10 and repeat_free_exists(players, sizes, met):
            assert plan.repeats == 0, (number, plan.tables)
        if plan.repeats and len(players) <= 10:
            assert plan.proved
        # within each table, seats go where they have been used least: no other order is better
        for table in plan.tables:
            given_cost = sum(seat_uses(seats[p], s) for s, p in enumerate(table, 1))
            best = min(sum(seat_uses(seats[p], s) for s, p in enumerate(perm, 1))
                       for perm in itertools.permutations(table))
            assert given_cost == best, table
        for table in plan.tables:
            for seat, player in enumerate(table, 1):
                seats[player].append(seat)
                met[player] = met[player] | (set(table) - {player})
    # across the rounds no player has had any one seat much more often than an even share
    rounds = len(orders)
    for player in players:
        for seat in set(seats[player]):
            assert seats[player].count(seat) <= math.ceil(rounds / max(sizes)) + 1, (player, seats[player])


def test_the_first_round_with_ratings_puts_the_strongest_at_different_tables():
    order = [f"p{i}" for i in range(12)]  # best first
    tables = snake(order, [4, 4, 4])
    assert [t[0] for t in tables] == ["p0", "p1", "p2"]
    assert tables[2][:2] == ["p2", "p3"]


@pytest.mark.parametrize("count, low, high, sizes", [
    (12, 4, 4, [4, 4, 4]), (13, 3, 4, [4, 3, 3, 3]), (5, 3, 5, [5]), (11, 3, 5, [4, 4, 3]), (40, 4, 5, [5] * 8),
])
def test_table_sizes(count, low, high, sizes):
    assert table_sizes(count, low, high) == sizes


def test_table_sizes_that_cannot_work_say_what_would():
    with pytest.raises(PairingError, match="13 players cannot be seated at tables of 4; a range such as "
                                           "--table-size 3-4 or 4-5 would work"):
        table_sizes(13, 4, 4)
    with pytest.raises(PairingError, match="2 player.* are too few: a table needs at least 3"):
        table_sizes(2, 3, 5)
