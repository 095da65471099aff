"""Storage: how long one submission takes through the real service (rules, store, receipt and
reports queued in the outbox), with 10, 1,000 and 10,000 games stored, and in round 1 against
the last round (round 9) of one Constantinopolis game.

Targets: p99 grows less than 1.5x from 10 to 10,000 games, and less than 2x from round 1 to
round 9.

Method: one complete 4-player game is played through the service by bots (mail delivered
after every turn, as the daemon does) and the game file before each accepted submission is
kept. A sample puts one of those files back in place (not timed) and times the submission
that followed it. Stored games are copies of the recorded round-1 and round-2 files under
their own ids, written directly because creating 10,000 games one by one through the service
would take far longer than the measurement. Samples of the different cases are interleaved so
that other load on the machine affects them alike, and every case draws from the same
positions, so that only the number of games stored differs.

Run: `make bench`, or `.venv/bin/python bench/bench_storage.py [--quick]`.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

from _support import (build, machine, percentile, quick, record_game, settings, summary, target)

GAME, PLAYERS, SEED = "constantinopolis", 4, "storage-bench"
SOURCE = "zzsource"  # the recorded game's id, replaced by each copy's own id


def fill(root: Path, count: int, positions, index_row: dict) -> list[str]:
    """`count` games under `root`, each a copy of a recorded position under its own id."""
    games = root / "games"
    games.mkdir(parents=True, exist_ok=True)
    ids, rows = [], {}
    for i in range(count):
        gid = f"game-{i:05d}"
        (games / f"{gid}.json").write_bytes(positions[i % len(positions)].file.replace(SOURCE.encode(), gid.encode()))
        (games / f"{gid}.json.lock").touch()  # as creating a game through the store leaves it
        ids.append(gid)
        rows[str(i + 1)] = dict(index_row, id=gid)
    (root / "index.json").write_text(json.dumps({"games": rows}))
    return ids


def timed_submit(svc, path: Path, gid: str, position) -> float:
    path.write_bytes(position.file.replace(SOURCE.encode(), gid.encode()))
    start = time.perf_counter()
    receipt = svc.referee.submit(gid, position.player, position.text)
    elapsed = time.perf_counter() - start
    if receipt.status != "accepted":
        raise SystemExit(f"a recorded submission was not accepted again: {receipt.render()}")
    return elapsed


def main() -> None:
    samples = 150 if quick() else 600
    print(f"storage: {machine()}")
    with tempfile.TemporaryDirectory(prefix="bench-storage-") as tmp:
        tmp_path = Path(tmp)
        source = build(settings(tmp_path / "source"))
        started = time.perf_counter()
        positions = record_game(source, GAME, PLAYERS, SEED, SOURCE)
        last = max(p.round for p in positions)
        size = source.store.path(SOURCE).stat().st_size
        print(f"  recorded a {PLAYERS}-player {GAME} game through the service: {len(positions)} submissions, "
              f"{last} rounds, final file {size / 1024:.0f} KiB ({time.perf_counter() - started:.1f} s)")
        index_row = source.store.list()[0]

        # -- games stored
        early = [p for p in positions if p.round <= 2]
        levels = [10, 1_000, 10_000]
        dirs = {}
        started = time.perf_counter()
        for count in levels:
            root = tmp_path / f"n{count}"
            dirs[count] = (build(settings(root)), fill(root, count, early, index_row))
        print(f"  wrote {sum(levels)} game files for the three cases ({time.perf_counter() - started:.1f} s)")
        rng = random.Random(1)
        timings: dict[int, list[float]] = {n: [] for n in levels}
        for _ in range(samples):
            for count in rng.sample(levels, len(levels)):
                svc, ids = dirs[count]
                gid = ids[rng.randrange(count)]  # any stored game, put back at any recorded position
                timings[count].append(timed_submit(svc, svc.store.path(gid), gid, rng.choice(early)))
        print("  submission latency by games stored (positions from rounds 1 and 2):")
        for count in levels:
            print(f"    {count:>6} games: {summary(timings[count])}")
        ratio = percentile(timings[10_000], 99) / percentile(timings[10], 99)
        target("p99 with 10,000 games / p99 with 10", ratio, 1.5)

        # -- early against late in one game
        svc = build(settings(tmp_path / "rounds"))
        svc.store.path(SOURCE).write_bytes(positions[0].file)
        svc.store.index_path.write_text(json.dumps({"games": {"1": index_row}}))
        path = svc.store.path(SOURCE)
        by_round = {r: [p for p in positions if p.round == r] for r in (1, last)}
        rounds: dict[int, list[float]] = {1: [], last: []}
        for _ in range(samples):
            for r in rng.sample(list(rounds), 2):
                rounds[r].append(timed_submit(svc, path, SOURCE, rng.choice(by_round[r])))
        print(f"  submission latency by round of one game ({len(by_round[1])} and {len(by_round[last])} "
              "recorded positions):")
        for r, values in rounds.items():
            file_kib = sum(len(p.file) for p in by_round[r]) / len(by_round[r]) / 1024
            print(f"    round {r}: {summary(values)}, game file about {file_kib:.0f} KiB")
        target(f"p99 in round {last} / p99 in round 1", percentile(rounds[last], 99) / percentile(rounds[1], 99), 2.0)


if __name__ == "__main__":
    main()
    sys.exit(0)
