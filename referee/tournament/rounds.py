"""Making a round from the tournament so far: a pure function of the tournament's data, its
seed and the organiser's choices for the round, so `verify` can make every round again and
compare.

Round one seats players by their starting rating, dealt out so the strongest head different
tables, or at random when nobody has a rating. Every later round groups players by the
standings so far (a Swiss system; players level in the standings in an order drawn from the
seed). A final seats the best `top` players still in at one table. Who met whom and who sat
where come from all earlier rounds (pairing.py).
"""

from __future__ import annotations

from ..rng import Rng
from .model import FINAL, HEAT, Round, Table, Tournament, game_id
from .pairing import PairingError, plan_round, table_sizes
from .standings import compute


def make_round(t: Tournament, *, top: int | None = None, sizes: tuple[int, int] | None = None,
               players_per_game: tuple[int, int] = (2, 5)) -> Round:
    """The next round of `t`: a final of the best `top` players, or a heat of everyone still
    in at tables of `sizes` (default: the tournament's). `players_per_game` is what the game
    takes, for a final's one table."""
    number = len(t.rounds) + 1
    rng = Rng.from_seed(t.seed, f"tournament/round/{number}")
    active = t.active(number)
    drawn = rng.shuffled(active)
    if number == 1:
        start = {p.name: p.mu for p in t.players}
        rated = len({start[p] for p in active}) > 1
        order = sorted(drawn, key=lambda p: -start[p]) if rated else drawn
        spread = rated
    else:
        rank = {row.name: row.rank for row in compute(t).rows}
        order = sorted(drawn, key=lambda p: rank[p])
        spread = False
    met: dict[str, frozenset[str]] = {p.name: frozenset() for p in t.players}
    seats: dict[str, list[int]] = {p.name: [] for p in t.players}
    for rnd in t.rounds:
        for table in rnd.tables:
            for seat, player in enumerate(table.seats, 1):
                met[player] = met[player] | (set(table.seats) - {player})
                seats[player].append(seat)
    if top is not None:
        low, high = players_per_game
        if not low <= top <= high:
            raise PairingError(f"a final is one table, and a table of this game takes {low}-{high} players, "
                               f"not {top}")
        if top > len(order):
            raise PairingError(f"a final of {top} needs {top} players still in; there are {len(order)}")
        order, layout, kind = order[:top], [top], FINAL
    else:
        low, high = sizes or t.sizes
        layout, kind = table_sizes(len(order), low, high), HEAT
    plan = plan_round(order, layout, met, seats, spread=spread)
    tables = [Table(i, game_id(t.name, number, i), seated) for i, seated in enumerate(plan.tables, 1)]
    return Round(number, kind, tables, top=top, sizes=sizes, repeats=plan.repeats)
