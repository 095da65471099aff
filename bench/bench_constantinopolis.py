"""Constantinopolis throughput: random complete games per second on one core, for 2 to 5
players, and the cost of one order (menu + apply) by round, which must not grow as the game
goes on. A measurement, not a test: it prints PASS or FAIL against the targets and always
exits 0.

Rates are CPU time of this process, pinned to one core, so another process loading the
machine slows the wall clock but not the figure; the wall-clock rate is shown alongside.

The bots here draw their choices from Python's seeded Mersenne Twister rather than the HMAC
stream `referee.playthrough` uses (whose draws are pinned by the tests): the figure is meant
to measure the engine (setup, prompts, menus, apply, result), not the bots' dice, which cost
about a tenth of a step with HMAC-SHA256.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.constantinopolis import GAME  # noqa: E402
from referee.rng import Rng  # noqa: E402

NAMES = ["ann", "bob", "cid", "dee", "eve"]
TARGET_GAMES = 100.0  # random complete 4-player games per second on one core
TARGET_RATIO = 1.25  # last round's median cost per order over round 1's, at most


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core}"


def random_game(names: list[str], seed: str, components: dict) -> int:
    """One complete game by bots choosing uniformly from the menus; the number of orders."""
    bots = random.Random(seed)
    st = GAME.setup(names, seed, {}, components)
    steps = 0
    while prompts := GAME.prompts(st):
        player = (bots.choice(prompts) if prompts[0].simultaneous else prompts[0]).player
        st, _ = GAME.apply(st, player, [bots.choice(GAME.legal_orders(st, player))])
        steps += 1
    if GAME.result(st) is None:
        raise RuntimeError(f"game {seed} ended without a result")
    return steps


def games_per_second(players: int, seconds: float) -> tuple[float, float, float]:
    """(CPU-time rate, wall-clock rate, orders per game)."""
    names = NAMES[:players]
    components = GAME.load_components(None)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    games = steps = 0
    while time.process_time() - cpu0 < seconds:
        steps += random_game(names, f"bench-{players}-{games}", components)
        games += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return games / cpu, games / wall, steps / games


def cost_per_order(games: int = 40, players: int = 4) -> dict[int, float]:
    """Median microseconds (CPU) per order, menu + apply, by round."""
    per_round: dict[int, list[float]] = defaultdict(list)
    comps = GAME.load_components(None)
    clock = time.process_time
    for g in range(games):
        st = GAME.setup(NAMES[:players], f"cost-{g}", {}, comps)
        bots = Rng.from_seed(f"cost-{g}", "bots")
        while True:
            prompts = GAME.prompts(st)
            if not prompts:
                break
            player = prompts[bots.randbelow(len(prompts))].player if prompts[0].simultaneous else prompts[0].player
            rnd = st["round"]
            t0 = clock()
            menu = GAME.legal_orders(st, player)
            order = menu[bots.randbelow(len(menu))]
            st, _ = GAME.apply(st, player, [order])
            per_round[rnd].append((clock() - t0) * 1e6)
    return {r: statistics.median(v) for r, v in sorted(per_round.items())}


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> None:
    print(f"constantinopolis ({pin_to_one_core()}; rates in CPU time, wall clock in brackets)")
    for players in (2, 3, 4, 5):
        cpu, wall, steps = games_per_second(players, seconds=6.0 if players == 4 else 3.0)
        target = (f"target >= {TARGET_GAMES:.0f}/s: {verdict(cpu >= TARGET_GAMES)}" if players == 4
                  else "no target (the requirement is for 4 players)")
        print(f"  {players} players: {cpu:6.1f} games/s [{wall:6.1f} wall], {steps:.0f} orders a game; {target}")
    costs = cost_per_order()
    for r, us in costs.items():
        print(f"  round {r}: median {us:5.1f} us per order (menu + apply), 4 players")
    first, last = min(costs), max(costs)
    ratio = costs[last] / costs[first]
    print(f"  round {last} / round {first} cost ratio: {ratio:.2f}; target <= {TARGET_RATIO}: {verdict(ratio <= TARGET_RATIO)}")


if __name__ == "__main__":
    main()
