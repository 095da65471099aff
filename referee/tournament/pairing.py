"""Tables for one tournament round: who sits with whom, and in which seat.

What a good round is, in order of importance:

1. Tables as even as the player count allows: sizes differ by at most one, each within the
   sizes allowed (`table_sizes`), and as few tables as that allows.
2. Nobody meets a player they met in an earlier round, whenever that can be avoided.
3. Players sit with those nearest them in the order given: the standings after round one
   (a Swiss system), or, for round one, the ratings dealt out so that the strongest are
   spread over the tables, or a shuffle when there are no ratings.
4. Seat positions are balanced across rounds: within a table each player gets the seat
   they have had least often so far (the total of earlier uses of the seats given is the
   least possible), and between tables, among groupings equally good by 1-3, one that lets
   this happen is preferred.

The search: start from the grouping of rule 3, and swap pairs of players between tables
while that lowers the cost (repeat meetings count far more than anything else). When
repeats remain, an exact search (tables as the colours of an equitable colouring of the
"have met" graph) looks for a grouping without any, within a budget of steps; if it finds
one, swapping goes on from there without giving it up. The search proves a repeat
unavoidable when it runs out of possibilities within the budget; past the budget it keeps
the best grouping found (`Plan.proved`). Everything is deterministic: the same inputs give
the same tables, which is how `verify` recomputes them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Mapping, Sequence

REPEAT = 1_000_000  # the cost of one pair meeting again: more than any other cost can add up to
NEAR = 4  # the cost of each table a player sits away from the table the order gives them
SEARCH_BUDGET = 200_000  # steps of the exact search for a round without repeats


class PairingError(ValueError):
    """A round that cannot be made; the message says why and what would work."""


def parse_sizes(text: str, low: int, high: int) -> tuple[int, int]:
    """`4` or `3-5` as the (smallest, largest) table; `low`-`high` is what the game takes."""
    raw = str(text).strip().replace(" ", "")
    first, sep, last = raw.partition("-")
    if not first.isdigit() or (sep and not last.isdigit()):
        raise PairingError(f"table size {text!r}: write one size (4) or a range (3-5)")
    a, b = int(first), int(last) if sep else int(first)
    if a > b:
        raise PairingError(f"table size {text!r}: the smaller size comes first (e.g. {b}-{a})")
    if a < low or b > high:
        allowed = f"{low}" if low == high else f"{low}-{high}"
        raise PairingError(f"table size {text!r} is not one the game allows: it takes {allowed} players a table")
    return a, b


def table_sizes(count: int, low: int, high: int) -> list[int]:
    """Sizes of the tables for `count` players, each from `low` to `high`, differing by at most
    one, with as few tables as that allows; larger tables first."""
    if count < low:
        raise PairingError(f"{count} player(s) are too few: a table needs at least {low}")
    for tables in range(-(-count // high), count // low + 1):
        base, extra = divmod(count, tables)
        if base >= low and base + (1 if extra else 0) <= high:
            return [base + 1] * extra + [base] * (tables - extra)
    wanted = f"{low}" if low == high else f"{low}-{high}"
    hints = [f"{a}-{b}" for a, b in ((low - 1, high), (low, high + 1)) if a >= 2 and _fits(count, a, b)]
    hint = f"; a range such as --table-size {' or '.join(hints)} would work" if hints else ""
    raise PairingError(f"{count} players cannot be seated at tables of {wanted}{hint}")


def _fits(count: int, low: int, high: int) -> bool:
    try:
        table_sizes(count, low, high)
        return True
    except PairingError:
        return False


def snake(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Deal the players out over the tables 1, 2, ... k, k, ..., 2, 1, 1, 2, ...: the first
    `len(sizes)` players each head a different table (round one with ratings)."""
    tables: list[list[str]] = [[] for _ in sizes]
    lanes = list(range(len(sizes)))
    sweep = lanes + lanes[::-1]
    position = 0
    for player in order:
        while len(tables[sweep[position % len(sweep)]]) >= sizes[sweep[position % len(sweep)]]:
            position += 1
        tables[sweep[position % len(sweep)]].append(player)
        position += 1
    return tables


def chunks(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """The first `sizes[0]` players at table 1, the next at table 2, ... (the Swiss grouping)."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start:start + size]))
        start += size
    return tables


@dataclass
class Plan:
    """A round's tables (players in seat order) and what it cost to make them."""

    tables: list[list[str]]
    repeats: int  # pairs that meet again
    proved: bool  # True when no grouping with fewer repeats exists (or there are none)


class _Costs:
    """Costs of a table, remembered: the search asks about the same groups again and again."""

    def __init__(self, target: Mapping[str, int], met: Mapping[str, frozenset[str]],
                 seats: Mapping[str, Sequence[int]]) -> None:
        self.target, self.met, self.seats = target, met, seats
        self._seat: dict[tuple[str, ...], tuple[int, tuple[str, ...]]] = {}

    def repeats(self, members: Sequence[str]) -> int:
        return sum(1 for a, b in itertools.combinations(members, 2) if b in self.met.get(a, ()))

    def seating(self, members: Sequence[str]) -> tuple[int, tuple[str, ...]]:
        """The least total of earlier uses of the seats given, and a seat order that gives it
        (ties go to the order in which `members` is given). Dynamic programming over the
        subsets of the table: seat s goes to one of the players not yet seated."""
        key = tuple(members)
        found = self._seat.get(key)
        if found is None:
            uses = [[seat_uses(self.seats.get(p, ()), s) for s in range(1, len(key) + 1)] for p in key]
            full = (1 << len(key)) - 1
            best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
            for mask in range(1, full + 1):
                seat = bin(mask).count("1") - 1
                options = [(best[mask ^ (1 << i)][0] + uses[i][seat], best[mask ^ (1 << i)][1] + (i,))
                           for i in range(len(key)) if mask >> i & 1]
                best[mask] = min(options)
            cost, picks = best[full]
            found = self._seat[key] = (cost, tuple(key[i] for i in picks))
        return found

    def table(self, index: int, members: Sequence[str]) -> int:
        near = sum(abs(index - self.target[p]) for p in members)
        return REPEAT * self.repeats(members) + NEAR * near + self.seating(sorted(members))[0]


def seat_uses(history: Sequence[int], seat: int) -> int:
    return sum(1 for s in history if s == seat)


def plan_round(order: Sequence[str], sizes: Sequence[int], met: Mapping[str, frozenset[str]],
               seats: Mapping[str, Sequence[int]], *, spread: bool = False,
               budget: int = SEARCH_BUDGET) -> Plan:
    """The round's tables for the players in `order` (best first): `met` holds whom each
    player met before, `seats` the seat numbers each has had. `spread` deals the order out
    (round one by rating) instead of grouping neighbours."""
    if sum(sizes) != len(order) or len(set(order)) != len(order):
        raise PairingError("the table sizes do not add up to the players")
    start = snake(order, sizes) if spread else chunks(order, sizes)
    target = {p: i for i, table in enumerate(start) for p in table}
    rank = {p: i for i, p in enumerate(order)}
    costs = _Costs(target, met, seats)
    tables = _improve([sorted(t, key=rank.__getitem__) for t in start], costs, rank)
    repeats = sum(costs.repeats(t) for t in tables)
    proved = True
    if repeats:
        found, proved = _without_repeats(order, sizes, met, budget)
        if found is not None:
            tables = _improve([sorted(t, key=rank.__getitem__) for t in _align(found, target)], costs, rank)
            repeats = sum(costs.repeats(t) for t in tables)
            proved = True
    seated = [list(costs.seating(sorted(t, key=rank.__getitem__))[1]) for t in tables]
    return Plan(seated, repeats, proved)


def _improve(tables: list[list[str]], costs: _Costs, rank: Mapping[str, int]) -> list[list[str]]:
    """Swap players between tables while a swap lowers the total cost (first improvement,
    in a fixed order, so the result is the same every time)."""
    current = [costs.table(i, t) for i, t in enumerate(tables)]
    improved = True
    while improved:
        improved = False
        for a, b in itertools.combinations(range(len(tables)), 2):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    ta, tb = list(tables[a]), list(tables[b])
                    ta[i], tb[j] = tb[j], ta[i]
                    ca, cb = costs.table(a, ta), costs.table(b, tb)
                    if ca + cb < current[a] + current[b]:
                        tables[a] = sorted(ta, key=rank.__getitem__)
                        tables[b] = sorted(tb, key=rank.__getitem__)
                        current[a], current[b] = ca, cb
                        improved = True
    return tables


def _align(groups: list[list[str]], target: Mapping[str, int]) -> list[list[str]]:
    """Number the groups of an exact solution so that each lands nearest where its players
    were meant to sit (by the mean of their target tables)."""
    order = sorted(range(len(groups)), key=lambda g: (sum(target[p] for p in groups[g]) / max(len(groups[g]), 1), g))
    sizes = [len(g) for g in groups]
    # groups of equal size may trade places freely; keep the table sizes where they were
    slots: dict[int, list[int]] = {}
    for index, size in enumerate(sizes):
        slots.setdefault(size, []).append(index)
    placed: list[list[str]] = [[] for _ in groups]
    for g in order:
        placed[slots[len(groups[g])].pop(0)] = groups[g]
    return placed


def _without_repeats(order: Sequence[str], sizes: Sequence[int], met: Mapping[str, frozenset[str]],
                     budget: int) -> tuple[list[list[str]] | None, bool]:
    """Exact search for tables of `sizes` in which nobody has met: (tables, True) when found;
    (None, True) when there are none; (None, False) when the budget ran out first."""
    players = list(order)
    conflicts = {p: frozenset(q for q in met.get(p, ()) if q in set(players)) for p in players}
    tables: list[list[str]] = [[] for _ in sizes]
    steps = 0

    def choose(left: set[str]) -> str:
        # the player with the fewest tables still open to them (then the most conflicts)
        def options(p: str) -> int:
            return sum(1 for i, t in enumerate(tables) if len(t) < sizes[i] and not conflicts[p] & set(t))
        return min(left, key=lambda p: (options(p), -len(conflicts[p]), order.index(p)))

    def search(left: set[str]) -> bool:
        nonlocal steps
        if not left:
            return True
        steps += 1
        if steps > budget:
            raise _OutOfBudget
        player = choose(left)
        tried_empty: set[int] = set()
        for i, table in enumerate(tables):
            if len(table) >= sizes[i] or conflicts[player] & set(table):
                continue
            if not table:  # empty tables of one size are alike: try one of them
                if sizes[i] in tried_empty:
                    continue
                tried_empty.add(sizes[i])
            table.append(player)
            left.discard(player)
            if search(left):
                return True
            left.add(player)
            table.pop()
        return False

    try:
        found = search(set(players))
    except _OutOfBudget:
        return None, False
    return ([list(t) for t in tables] if found else None), True


class _OutOfBudget(Exception):
    """The search for tables without repeat meetings used up its step budget."""
