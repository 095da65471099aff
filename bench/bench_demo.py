"""Whole games by mail, as `referee demo` plays them: wall and CPU time, mails, and how big the
game file has grown by the end (every turn reads and rewrites it, so its size sets the cost of
a turn late in the game).

    python bench/bench_demo.py [--players N] [--seed S] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from commands.demo.run import PLAYER_NAMES, DemoRun  # noqa: E402
from referee import registry  # noqa: E402


def one_game(name: str, players: int, seed: str) -> None:
    game = registry.get(name)
    data = Path(tempfile.mkdtemp(prefix="bench-demo-"))
    try:
        run = DemoRun(game, list(PLAYER_NAMES[:players]), seed, data)
        cpu = time.process_time()
        run.run()
        cpu = time.process_time() - cpu
        path = run.services.store.path(run.game_id)  # type: ignore[union-attr]
        tables = json.loads(path.read_bytes())
        sizes = {table: len(json.dumps(rows, separators=(",", ":"))) for table, rows in tables.items()}
        steps = sum(1 for e in run.services.store.load(run.game_id).events  # type: ignore[union-attr]
                    if e["type"] == "order")
        print(f"{game.title}, {players} players, seed {seed!r}")
        print(f"  wall {run.elapsed:6.1f} s   cpu {cpu:6.1f} s (all threads)")
        print(f"  mails: {run.mails_in} from the players, {run.mails_out} from the referee; {steps} order steps")
        print(f"  per player mail: {1000 * run.elapsed / max(run.mails_in, 1):.0f} ms wall, "
              f"{1000 * cpu / max(run.mails_in, 1):.0f} ms cpu")
        print(f"  game file at the end: {path.stat().st_size / 1e6:.1f} MB "
              + "(" + ", ".join(f"{t} {s / 1e6:.2f}" for t, s in sorted(sizes.items(), key=lambda x: -x[1])) + ")")
    finally:
        shutil.rmtree(data, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["constantinopolis", "porto-carthago"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    for name in args.games:
        one_game(name, args.players, args.seed)


if __name__ == "__main__":
    main()
