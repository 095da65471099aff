"""How much mail a player gets: whole games by mail, as `referee demo` plays them, under the
default mail setting (NOTIFY turn) and under NOTIFY each, for both games, with bots that
answer only what they are asked and with bots that send plans (referee/bots).

For each run: mails per player per round (Porto Carthago's rounds are its decades) by kind,
how many of them asked for orders, the most the referee sent one player on its own in one
round, the receipts (the answers to a player's own order mails, counted apart), and the
length of the text part in lines: the median of all mails, and the median and the longest of
those that ask for orders (a typical decision). Targets, under the default:

- every order mail is answered (its receipt, alone or opening the player's next mail), under
  NOTIFY each too;
- bots that answer only what they are asked get exactly one mail per ask plus round-end,
  end-of-game and reminder mails on the referee's own, nothing else, and no ask goes
  unanswered (a second mail for the same ask would be one); a decision's text report fits in
  60 lines (median) of at most 78 characters;
- bots that send plans: at most 4 mails on the referee's own per player in any round of
  Constantinopolis and at most 6 in any decade of Porto Carthago; their asking mails run to a
  median of at most 90 lines, none over 140.

    python bench/bench_mail_per_round.py [--players N] [--seed S] [GAME ...]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from commands.demo.mailstats import ASK, END, OTHER, RECEIPT, REMINDER, ROUND, MailStats  # noqa: E402
from commands.demo.run import PLAYER_NAMES, DemoRun  # noqa: E402
from referee import registry  # noqa: E402

ASK_ONLY_MEDIAN = 60
PLAN_MEDIAN, PLAN_LONGEST = 90, 140
WIDTH = 78
PLAN_LIMIT = {"constantinopolis": 4, "porto-carthago": 6}


def play(name: str, players: int, seed: str, notify: str | None, bots: str) -> MailStats:
    game = registry.get(name)
    data = Path(tempfile.mkdtemp(prefix="bench-mail-"))
    try:
        run = DemoRun(game, list(PLAYER_NAMES[:players]), seed, data, notify=notify, bots_kind=bots)
        run.run()
        return run.mail_stats()
    finally:
        shutil.rmtree(data, ignore_errors=True)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["constantinopolis", "porto-carthago"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    failed = False
    for name in args.games:
        title = registry.get(name).title
        unit = "decade" if name == "porto-carthago" else "round"
        for bots, notify in (("ask-only", "turn"), ("ask-only", "each"), ("plans", "turn"), ("plans", "each")):
            stats = play(name, args.players, args.seed, None if notify == "turn" else notify, bots)
            print(f"{title}, {args.players} players, seed {args.seed!r}, {bots} bots, NOTIFY {notify}"
                  + (" (the default)" if notify == "turn" else ""))
            print(f"  {stats.per_player_per_round():5.1f} mails per player per {unit} over {stats.rounds} {unit}s: "
                  + ", ".join(f"{stats.per_player_per_round(k):.1f} {k}" for k in (ASK, ROUND, END, REMINDER, OTHER))
                  + f"; and {stats.per_player_per_round(RECEIPT):.1f} receipts")
            print(f"  {stats.count(ASK)} of {stats.mails} mails asked for orders; at most {stats.most_in_a_round} "
                  f"mails on the referee's own to one player in one {unit}")
            print(f"  median text part {stats.median_lines():.0f} lines (asking for orders: median "
                  f"{stats.median_lines(ASK):.0f}, longest {stats.most_lines(ASK)}); widest line {stats.widest}")
            answered = stats.unanswered_orders == 0
            failed |= not answered
            print(f"  target: every order mail answered: {stats.orders_sent - stats.unanswered_orders} of "
                  f"{stats.orders_sent} ({stats.count(RECEIPT)} by a receipt alone) -> {verdict(answered)}")
            if notify != "turn":
                continue
            if bots == "ask-only":
                only = stats.count(OTHER) == 0 and stats.unanswered_asks == 0
                short = stats.median_lines(ASK) <= ASK_ONLY_MEDIAN and stats.widest <= WIDTH
                failed |= not (only and short)
                print(f"  target: one mail per ask plus round-end, end and reminder mails, nothing else on the "
                      f"referee's own: {stats.count(OTHER)} other, {stats.unanswered_asks} asks unanswered "
                      f"-> {verdict(only)}")
                print(f"  target: a decision's text in at most {ASK_ONLY_MEDIAN} lines (median) of <= {WIDTH} "
                      f"characters: {stats.median_lines(ASK):.0f} lines, {stats.widest} wide -> {verdict(short)}")
            else:
                limit = PLAN_LIMIT.get(name)
                if limit is not None:
                    ok = stats.most_in_a_round <= limit
                    failed |= not ok
                    print(f"  target: at most {limit} mails on the referee's own per player in any {unit}: "
                          f"{stats.most_in_a_round} -> {verdict(ok)}")
                short = stats.median_lines(ASK) <= PLAN_MEDIAN and stats.most_lines(ASK) <= PLAN_LONGEST
                failed |= not short
                print(f"  target: asking mails of at most {PLAN_MEDIAN} lines (median), none over {PLAN_LONGEST}: "
                      f"{stats.median_lines(ASK):.0f}, longest {stats.most_lines(ASK)} -> {verdict(short)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
