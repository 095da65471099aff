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
    while time.perf_counter() - start < seconds:
        pt = play(GAME, players, f"bench-{games}")
        games += 1
        steps += pt.steps
    elapsed = time.perf_counter() - start
    print(f"porto-carthago: {games} random 4-player games in {elapsed:.2f} s = {games / elapsed:.1f} games/s "
          f"({steps / games:.0f} orders a game, {steps / elapsed:.0f} orders/s)")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0)
