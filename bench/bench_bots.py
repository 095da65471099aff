"""How well the computer players play: four-player games of both games between the levels
and random-legal bots, with the win shares the issue asks for and the thinking time of a
decision on one core.

Three match-ups per game, each over `--games` games (default 200), seeded and with the seats
turned one place each game so that every level sits in every seat as often:

- the strong level against three random-legal bots: it wins at least 85% of the games;
- the strong level against three of the fast level: at least 45% (chance is 25%);
- the fast level against three random-legal bots: at least 60%.

A shared win counts as a share (two tied winners: half a game each). Also printed: the mean
score margin of the level measured (its score less the best other player's: fame in
Constantinopolis, palace seats in Porto Carthago), how often the strong level takes a palace
seat (Porto Carthago) or ends in the top band of the fame track (Constantinopolis: 50 fame or
more, where the rulebook's example of a final scoring ends), and the processor time of every
strong decision (median at most 2 s, 99th percentile at most 10 s). The games are played on
the engines directly, each computer decision from an observation of its seat's view
(referee/computer/arena.py), with the level's fixed budget, the one the referee plays
with; `--jobs` plays games in several processes at once (the times are processor time of the
process that thinks, so they hold on a busy machine).

    python bench/bench_bots.py [--games N] [--jobs N] [--quick] [--match LEAD-REST] [GAME ...]

`--match strong-fast` (repeatable) plays only the match-ups named, to measure again the one a
change is about; the verdict then covers only those.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _support import machine, percentile, quick  # noqa: E402
from referee import registry  # noqa: E402
from referee.computer.arena import RANDOM, play_match, rotated  # noqa: E402

PLAYERS = ("ann", "bob", "cid", "dee")
MATCHES = (("strong", RANDOM, 0.85), ("strong", "fast", 0.45), ("fast", RANDOM, 0.60))
SCORE = {"constantinopolis": "fame", "porto-carthago": "palace_seats"}
TOP_FAME = 50  # the top band of the fame track, where the rulebook's final scoring example ends
MEDIAN_SECONDS, P99_SECONDS = 2.0, 10.0


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def one_game(args: tuple[str, str, str, int]) -> dict:
    """One game of `lead` against three of `rest`, seats turned by the game's number."""
    name, lead, rest, n = args
    seats = rotated([lead, rest, rest, rest], PLAYERS, n)
    match = play_match(registry.get(name), seats, f"bench-bots/{name}/{lead}-{rest}/{n}")
    result = match.result
    assert result is not None, f"{name} game {n} did not end"
    (player,) = [p for p, kind in seats.items() if kind == lead]
    score = {p: result.scores[p][SCORE[name]] for p in PLAYERS}
    out = {"won": (1 / len(result.winners)) if player in result.winners else 0.0,
           "margin": score[player] - max(v for p, v in score.items() if p != player),
           "times": match.times.get("strong", [])}
    if name == "porto-carthago":
        out["palace"] = result.scores[player]["bought_seats"] > 0
    else:
        out["top"] = score[player] >= TOP_FAME
    return out


def measure(name: str, games: int, jobs: int, only: list[str]) -> tuple[bool, list[float]]:
    ok = True
    times: list[float] = []
    for lead, rest, target in MATCHES:
        if only and f"{lead}-{rest}" not in only:
            continue
        work = [(name, lead, rest, n) for n in range(games)]
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                found = list(pool.map(one_game, work))
        else:
            found = [one_game(w) for w in work]
        share = sum(g["won"] for g in found) / games
        margin = statistics.mean(g["margin"] for g in found)
        times += [t for g in found for t in g["times"]]
        extra = ""
        if lead == "strong" and name == "porto-carthago":
            extra = f"; takes a palace seat in {100 * sum(g['palace'] for g in found) / games:.0f}% of games"
        elif lead == "strong":
            extra = f"; ends with {TOP_FAME}+ fame in {100 * sum(g['top'] for g in found) / games:.0f}% of games"
        passed = share >= target
        ok = ok and passed
        print(f"  {lead} vs 3 {rest}: wins {100 * share:5.1f}% of {games} (target >= {100 * target:.0f}%) "
              f"{verdict(passed)}; mean margin {margin:+.2f} {SCORE[name].replace('_', ' ')}{extra}", flush=True)
    return ok, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per match-up (default 200)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in processes of their own")
    parser.add_argument("--quick", action="store_true", help="20 games per match-up, for a fast look")
    parser.add_argument("--match", action="append", default=[], metavar="LEAD-REST",
                        choices=[f"{lead}-{rest}" for lead, rest, _ in MATCHES],
                        help="only this match-up (repeatable): " + ", ".join(f"{a}-{b}" for a, b, _ in MATCHES))
    parser.add_argument("names", nargs="*", metavar="GAME")
    args = parser.parse_args()
    games = 20 if quick() and args.games == 200 else args.games
    print(machine())
    ok = True
    times: list[float] = []
    for name in args.names or sorted(SCORE):
        print(f"{registry.get(name).title}, 4 players, {games} games per match-up:", flush=True)
        passed, found = measure(name, games, args.jobs, args.match)
        ok = ok and passed
        times += found
        if found:
            median, p99 = statistics.median(found), percentile(found, 99)
            print(f"  strong decision, processor time on one core: median {median:.3f} s (target <= "
                  f"{MEDIAN_SECONDS:.0f} s) {verdict(median <= MEDIAN_SECONDS)}, p99 {p99:.3f} s (target <= "
                  f"{P99_SECONDS:.0f} s) {verdict(p99 <= P99_SECONDS)}, max {max(found):.3f} s, "
                  f"{len(found)} decisions", flush=True)
            ok = ok and median <= MEDIAN_SECONDS and p99 <= P99_SECONDS
    print("ALL PASS" if ok else "SOME FAIL")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
