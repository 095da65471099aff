"""Random complete 4-player Porto Carthago games per second on one core (target: 100).

Bots pick uniformly from `legal_orders` through the public engine contract, exactly as the
playthrough tests do, but without the per-step invariant checks.
"""

from __future__ import annotations

import sys
import time

from games.porto_carthago import GAME
from referee.playthrough import play


def main(seconds: float = 5.0) -> None:
    players = ["Ann", "Bob", "Cid", "Dee"]
    games = steps = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        pt = play(GAME, players, f"bench-{games}")
        games += 1
        steps += pt.steps
    elapsed = time.perf_counter() - start
    used = time.process_time() - cpu
    print(f"porto-carthago: {games} random 4-player games, {steps / games:.0f} orders a game")
    print(f"  wall clock: {games / elapsed:.1f} games/s ({elapsed:.2f} s)")
    print(f"  CPU time:   {games / used:.1f} games/s ({used:.2f} s of one core; the figure to compare "
          "with the target when the machine is shared)")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0)
