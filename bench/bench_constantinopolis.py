"""Constantinopolis throughput: random complete 4-player games per second on one core, and
the cost of one order (menu + apply) in round 1 against round 9, which must not grow."""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.constantinopolis import GAME  # noqa: E402
from referee.playthrough import play  # noqa: E402
from referee.rng import Rng  # noqa: E402

PLAYERS = ["ann", "bob", "cid", "dee"]


def games_per_second(seconds: float = 5.0) -> tuple[float, float]:
    start = time.perf_counter()
    games = steps = 0
    while time.perf_counter() - start < seconds:
        pt = play(GAME, PLAYERS, f"bench-{games}")
        games += 1
        steps += pt.steps
    elapsed = time.perf_counter() - start
    return games / elapsed, steps / games


def cost_per_order(games: int = 60) -> dict[int, float]:
    """Microseconds per order (legal_orders + apply), by round."""
    per_round: dict[int, list[float]] = defaultdict(list)
    comps = GAME.load_components(None)
    for g in range(games):
        st = GAME.setup(PLAYERS, f"cost-{g}", {}, comps)
        bots = Rng.from_seed(f"cost-{g}", "bots")
        while True:
            prompts = GAME.prompts(st)
            if not prompts:
                break
            player = prompts[bots.randbelow(len(prompts))].player if prompts[0].simultaneous else prompts[0].player
            rnd = st["round"]
            t0 = time.perf_counter()
            menu = GAME.legal_orders(st, player)
            order = menu[bots.randbelow(len(menu))]
            st, _ = GAME.apply(st, player, [order])
            per_round[rnd].append((time.perf_counter() - t0) * 1e6)
    return {r: statistics.median(v) for r, v in sorted(per_round.items())}


def main() -> None:
    rate, steps = games_per_second()
    print(f"constantinopolis: {rate:.1f} random complete 4-player games/s on one core ({steps:.0f} orders per game)")
    costs = cost_per_order()
    for r, us in costs.items():
        print(f"  round {r}: median {us:.0f} us per order (menu + apply)")
    first, last = costs[min(costs)], costs[max(costs)]
    print(f"  round {max(costs)} / round {min(costs)} cost ratio: {last / first:.2f}")


if __name__ == "__main__":
    main()
