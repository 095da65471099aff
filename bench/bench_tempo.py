"""How long a game by mail takes, counted in round trips: whole games of both games played by
bots that answer only what they are asked, and by bots that send plans with every mail.

A round trip is one wait of the table: the players asked now each answer with one mail, at
the same time (at one answer a day, a round trip is a day). Each mail goes through
`Referee.submit_many` with the player's token, the path the mail worker takes after reading
a mail's ORDERS block, into a real game file; the mails are not sent through SMTP, which
changes nothing in the count. The figures are medians over whole games (`--games`, default
20) for each player count; the targets are the issue's: with plans, four-player
Constantinopolis in at most 45 round trips and four-player Porto Carthago in at most 50, and
at every player count at least three times fewer round trips than the ask-only bots.

    python bench/bench_tempo.py [--games N] [--quick] [GAME ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee import registry  # noqa: E402
from referee.bots import GAMES, KINDS  # noqa: E402
from referee.bots.tempo import play_game  # noqa: E402

MOST_ROUND_TRIPS = {("constantinopolis", 4): 45, ("porto-carthago", 4): 50}  # with plans
FEWER = 3.0  # ask-only round trips / planning round trips, at least


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def measure(name: str, players: int, games: int) -> dict[str, tuple[float, float]]:
    """Median round trips and player mails per game, for each bot kind. Every game must end.
    A mail the referee does not accept (an order made illegal by a player answering at the
    same time) costs its round trip like any other and is counted, as it would be by mail."""
    seats = [f"p{i + 1}" for i in range(players)]
    out = {}
    for kind in KINDS:
        trips, mails, refused = [], [], 0
        for n in range(games):
            tempo = play_game(name, seats, f"tempo-{name}-{players}-{n}", {p: kind for p in seats})
            if not tempo.finished:
                raise SystemExit(f"{name}, {players} players, game {n}, {kind}: did not end")
            trips.append(tempo.round_trips)
            mails.append(tempo.mails)
            refused += len(tempo.not_accepted)
        out[kind] = (statistics.median(trips), statistics.median(mails))
        print(f"  {players} players, {kind:8}: {out[kind][0]:6.1f} round trips, {out[kind][1]:6.1f} player mails "
              f"(round trips {min(trips)}..{max(trips)}; {refused} mails not accepted in all)", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_to_play", nargs="*", metavar="GAME", default=list(GAMES))
    parser.add_argument("--games", type=int, default=20, help="games per player count and bot kind")
    parser.add_argument("--quick", action="store_true", help="3 games each, for a fast look (also BENCH_QUICK=1)")
    args = parser.parse_args()
    games = 3 if args.quick or os.environ.get("BENCH_QUICK", "") not in ("", "0") else args.games
    failed = []
    for name in args.games_to_play:
        game = registry.get(name)
        print(f"{game.title}: medians over {games} games per player count", flush=True)
        for players in range(game.min_players, game.max_players + 1):
            figures = measure(name, players, games)
            planned, asked = figures["plans"][0], figures["ask-only"][0]
            ratio = asked / planned
            ok = ratio >= FEWER
            print(f"  target: ask-only / plans = {ratio:.2f}, at least {FEWER:g}: {verdict(ok)}")
            failed += [] if ok else [f"{name} {players}p ratio"]
            most = MOST_ROUND_TRIPS.get((name, players))
            if most is not None:
                ok = planned <= most
                print(f"  target: round trips with plans = {planned:g}, at most {most}: {verdict(ok)}")
                failed += [] if ok else [f"{name} {players}p round trips"]
    print("all targets PASS" if not failed else "FAIL: " + ", ".join(failed))


if __name__ == "__main__":
    main()
