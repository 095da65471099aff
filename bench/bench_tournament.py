"""Tournament archives: the time `referee tournament verify` takes to check a 200-game
archive on one core. Target: under 30 seconds.

The archive is real: 80 players, tables of four, ten rounds made by the tournament's own
pairing from the standings, each game's seed derived from the tournament's, written by the
archive code `referee tournament archive` uses. Only the games are played the cheap way: by
bots at the engine level (`bench_replay.finished_game_record`, Constantinopolis, random
orders), not by mail through the service, which would take about as many minutes as there
are games; their records are what `referee log` writes for a finished game. What is timed
is the path a reader of the archive takes: reading the file, every SHA-256 of the manifest,
every game replayed from its log, every seed and table checked, the pairing of every round
and the standings recomputed (`referee.tournament.archive.verify`, the function behind the
command, less its progress bar).

Run: `make bench`, or `.venv/bin/python bench/bench_tournament.py [--quick]` (--quick: 40 games).
"""

from __future__ import annotations

import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from _support import machine, pin_to_one_core, quick
from bench_replay import finished_game_record

from referee import registry
from referee.gamelog import replay_log
from referee.rng import commitment
from referee.tournament.archive import read_members, verify, write_archive
from referee.tournament.model import Player, Tournament, game_seed
from referee.tournament.ratings import START_MU, START_SIGMA
from referee.tournament.rounds import make_round

GAME = "constantinopolis"
SEED = "bench-tournament"
LIMIT = 30.0


def play(job: tuple[str, list[str]]) -> tuple[str, dict]:
    """One table's game: its record and its result."""
    game_id, seats = job
    text = finished_game_record(GAME, len(seats), game_seed(SEED, game_id), names=seats, game_id=game_id)
    outcome = registry.get(GAME).result(replay_log(text, registry.get).state)
    return text, {"ranking": [list(g) for g in outcome.ranking], "scores": outcome.to_json()["scores"]}


def build(path: Path, players: int, rounds: int) -> int:
    game = registry.get(GAME)
    t = Tournament("bench", GAME, game.title, game.rules_version, "2026-01-01T00:00:00Z", SEED, commitment(SEED),
                   rounds, (4, 4), "scaled", "tournament",
                   players=[Player(f"p{i:03d}", mu=START_MU, sigma=START_SIGMA) for i in range(players)])
    logs = {}
    with ProcessPoolExecutor() as pool:  # producing the games may use every core; verifying uses one
        for _ in range(rounds):
            rnd = make_round(t, players_per_game=(game.min_players, game.max_players))
            played = pool.map(play, [(x.game, x.seats) for x in rnd.tables])
            for table, (text, result) in zip(rnd.tables, played):
                table.commitment, table.result = commitment(game_seed(SEED, table.game)), result
                logs[table.game] = text
            t.rounds.append(rnd)
    t.seed_revealed = True
    write_archive(path, t, logs)
    return len(logs)


def main() -> None:
    players, rounds = (40, 4) if quick() else (80, 10)
    print(f"tournament archive: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.zip"
        started = time.perf_counter()
        games = build(path, players, rounds)
        print(f"  built a {games}-game archive ({players} players, {rounds} rounds of tables of four, "
              f"{path.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - started:.1f} s (not part of the figure)")
        print(f"  verifying on one core ({pin_to_one_core()})")
        start, cpu = time.perf_counter(), time.process_time()
        verdict = verify(read_members(path), registry.get)
        wall, used = time.perf_counter() - start, time.process_time() - cpu
    if not verdict.ok:
        raise SystemExit(f"the archive did not verify: {verdict.problems[:3]}")
    print(f"  verified {verdict.games} games ({verdict.steps} steps), tables and standings: {wall:.1f} s wall clock, "
          f"{used:.1f} s CPU")
    print(f"  verify {games} games: {used:.1f} s CPU on one core, target under {LIMIT:g} s: "
          f"{'PASS' if used < LIMIT else 'FAIL'}")


if __name__ == "__main__":
    main()
