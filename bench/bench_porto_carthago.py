"""Porto Carthago engine: random complete games per second on one core for 3, 4 and 5 players
(target: 100 for 4 players), and the cost of one order (menu + apply) in the first and the
last decade, which should not grow as the game goes on.

Bots pick uniformly from `legal_orders` through the public engine contract, as the playthrough
tests do but without the per-step invariant checks, drawing from Python's seeded Mersenne
Twister (as bench_constantinopolis.py does) so that the figure is the engine's, not the cost
of the HMAC stream the playthroughs use. The rate is CPU time of this process, pinned to one
core, which is the figure to compare with the target when the machine is shared; wall-clock
time is printed beside it.

Run: `make bench`, or `.venv/bin/python bench/bench_porto_carthago.py [--quick] [SECONDS]`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import defaultdict

from _support import machine, pin_to_one_core, quick, target

from games.porto_carthago import GAME
from referee.rng import Rng

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def random_game(players: list[str], seed: str, components: dict) -> int:
    """One complete game by bots choosing uniformly from the menus; the number of orders."""
    bots = random.Random(seed)
    state = GAME.setup(players, seed, {}, components)
    steps = 0
    while prompts := GAME.prompts(state):
        player = prompts[0].player
        state, _ = GAME.apply(state, player, [bots.choice(GAME.legal_orders(state, player))])
        steps += 1
    if GAME.result(state) is None:
        raise RuntimeError(f"game {seed} ended without a result")
    return steps


def games_per_second(players: list[str], seconds: float) -> tuple[float, float, float]:
    """(games/s in CPU time, games/s in wall time, orders per game)."""
    games = steps = 0
    components = GAME.load_components(None)
    start, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < seconds:
        steps += random_game(players, f"bench-{len(players)}-{games}", components)
        games += 1
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return games / used, games / wall, steps / games


def cost_by_decade(players: list[str], games: int) -> dict[int, float]:
    """Median microseconds per order (legal_orders + apply) in each decade."""
    per: dict[int, list[float]] = defaultdict(list)
    comps = GAME.load_components(None)
    for g in range(games):
        state = GAME.setup(players, f"cost-{g}", {}, comps)
        bots = Rng.from_seed(f"cost-{g}", "bots")
        while prompts := GAME.prompts(state):
            player = prompts[0].player
            decade = GAME.phase(state).round
            start = time.perf_counter()
            menu = GAME.legal_orders(state, player)
            state, _ = GAME.apply(state, player, [menu[bots.randbelow(len(menu))]])
            per[decade].append((time.perf_counter() - start) * 1e6)
    return {d: statistics.median(v) for d, v in sorted(per.items())}


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seconds = float(args[0]) if args else (1.0 if quick() else 5.0)
    print(f"porto-carthago: {machine()}, {pin_to_one_core()}")
    for count in (3, 4, 5):
        players = NAMES[:count]
        cpu_rate, wall_rate, orders = games_per_second(players, seconds)
        costs = cost_by_decade(players, 10 if quick() else 40)
        first, last = min(costs), max(costs)
        print(f"  {count} players: {cpu_rate:.1f} games/s in CPU time ({wall_rate:.1f} wall clock), "
              f"{orders:.0f} orders a game")
        print(f"    cost per order (menu + apply): decade {first} {costs[first]:.0f} us, "
              f"decade {last} {costs[last]:.0f} us (ratio {costs[last] / costs[first]:.2f})")
        if count == 4:
            target("4-player games per second, one core", cpu_rate, 100, at_least=True)


if __name__ == "__main__":
    main()
