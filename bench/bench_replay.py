"""Replay: the time to verify the records (`referee replay`) of 1,000 finished games.

Each record is what `referee log` writes for a finished game: header with the revealed seed,
one hash-chained line per step, the final state hash. Verifying one checks the seed against
its commitment, replays every order through the rules engine from the text alone, checks the
chain and the final state. The games are played by bots through the service's submission
mechanism (`referee.progress.Position`, so simultaneous sets replace earlier ones exactly as in
a live game), half Constantinopolis and half Porto Carthago, 3 to 5 players; producing them is
not timed.

Run: `make bench`, or `.venv/bin/python bench/bench_replay.py [--quick]`.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from types import SimpleNamespace

from _support import machine, pin_to_one_core, quick

from referee import registry
from referee.gamelog import replay_log, write_log
from referee.history import components_hash
from referee.playthrough import BotStuck, bot_submission
from referee.progress import DEFAULT, Position
from referee.rng import Rng, commitment

MIX = [("constantinopolis", 3), ("constantinopolis", 4), ("porto-carthago", 3), ("porto-carthago", 4),
       ("porto-carthago", 5), ("constantinopolis", 5)]
NAMES = ["ann", "bob", "cid", "dee", "eve"]


def event(count: int, kind: str, phase: str, player: str, text: str) -> dict:
    return {"seq": count + 1, "type": kind, "phase": phase, "at": "2026-01-01T00:00:00Z", "player": player,
            "text": text}


def finished_game_record(name: str, players: int, seed: str, *, names: list[str] | None = None,
                         game_id: str | None = None) -> str:
    """A finished game played by bots, as `referee log` would write it (with `names` for the
    players and `game_id` for its id, when given)."""
    game = registry.get(name)
    names = names or NAMES[:players]
    components = game.load_components(None)
    pos = Position.start(game, game.setup(names, seed, {}, components))
    bots = Rng.from_seed(seed, "replay bots")
    events = []
    while True:
        stored = SimpleNamespace(state=pos.state, meta={"steps": [s.to_json() for s in pos.steps]},
                                 snapshots=[{"key": pos.key, "state": pos.opening}])
        try:
            turn = bot_submission(game, stored, bots)
        except BotStuck:  # what a deadline does: defaults for everyone still asked
            key = pos.key
            while pos.key == key:
                player = pos.waiting_for()[0]
                orders = game.default_orders(pos.state, player)
                pos.submit(player, orders, DEFAULT)
                events.append(event(len(events), "default", key, player, "\n".join(map(game.format, orders))))
            continue
        if turn is None:
            break
        player, text = turn
        key = pos.key
        pos.submit(player, game.parse(pos.state, player, text))
        events.append(event(len(events), "order", key, player, text))
    meta = {"game": name, "rules_version": game.rules_version, "components_sha256": components_hash(components),
            "options": {}, "players": names, "commitment": commitment(seed), "seed": seed,
            "seed_revealed": True, "id": game_id or f"{name[:5]}-{seed}", "created": "2026-01-01T00:00:00Z"}
    return write_log(meta, events, pos.state)


def record_of(i: int) -> str:
    return finished_game_record(*MIX[i % len(MIX)], f"replay-{i}")


def main() -> None:
    count = 100 if quick() else 1_000
    print(f"replay: {machine()}")
    started = time.perf_counter()
    with ProcessPoolExecutor() as pool:  # producing them may use every core; verifying uses one
        records = list(pool.map(record_of, range(count), chunksize=10))
    lines = sum(r.count("\n") for r in records)
    print(f"  produced {count} finished games' records, {lines} lines in all "
          f"({time.perf_counter() - started:.1f} s, not part of the figure)")
    print(f"  verifying on one core ({pin_to_one_core()})")
    start, cpu = time.perf_counter(), time.process_time()
    steps = 0
    for text in records:
        result = replay_log(text, registry.get)
        if not result.ok:
            raise SystemExit(f"a record did not verify: {result.message}")
        steps += result.steps
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    print(f"  verified {count} records ({steps} steps): {wall:.1f} s wall clock, {used:.1f} s CPU "
          f"({count / used:.1f} records/s, {used / steps * 1e6:.0f} us per step)")


if __name__ == "__main__":
    main()
