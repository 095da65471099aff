"""Players for benchmarks, tests and demos: one mail's text each time they are asked.

Two kinds for each game, with the same choice of moves so that only the mailing differs:

- `ask-only`: answers exactly what it is asked, one decision a mail (a whole construction
  turn or a whole set of contracts is one decision), and never sends anything ahead: no
  defend limit, no `up to`, no standing list, no queue, no plan;
- `plans`: answers the same way and adds, to every mail, a plan for every decision it can
  see coming until its next real choice, with alternatives that end in an answer that
  always works.

A bot reads what its player may see (`Game.view`, the player's menus) and tries its own
orders on a copy of the position, as a person does who works out a whole turn before writing
it down. Each bot draws from its own seeded stream, so a game of bots is the same every time.

Two ways to choose the answer (`CHOOSERS`): `taste`, a few rules and chance per game (the
benchmarks of mail and tempo count with it), and `fast`, the computer player's fast level
(referee/computer), which plays like a real player: the demo's bots use it. A `fast`
planning bot plans only what that level would answer the same way (a donation, the good to
keep, staying in office...), and leaves the decisions that need judgement to be asked.

Use, for any game in `GAMES` and kind in `KINDS`:

    from referee.bots import make_bot
    from referee.playthrough import own_position

    bot = make_bot("porto-carthago", "plans", seed="demo/ann")      # or "ask-only"
    stored = store.load(game_id)
    text = bot.mail(game, own_position(game, stored, "ann"), "ann")  # the body of ann's mail

Ask a bot only for a player the game asks now (`game.prompts(state)`); one bot per player,
kept for the whole game. In a phase played by all at once, pass `own_position` (the position
without the player's earlier set, which their new mail replaces; the stored state when it raises
OrderError); elsewhere the stored state.
The text is what goes between the ORDERS block's markers; `referee.bots.tempo.play_game`
shows the whole loop through `Referee.submit_many`.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Protocol

from ..contract import Game, State

KINDS = ("ask-only", "plans")
CHOOSERS = ("taste", "fast")


class Bot(Protocol):
    def mail(self, game: Game, state: State, player: str) -> str:
        """The text of the player's next mail: the answer to what they are asked now, and
        (for a planning bot) their plans."""
        ...


def make_bot(game_name: str, kind: str, seed: str, chooser: str = "taste") -> Bot:
    """A bot of this kind for this game, choosing its answers by `chooser`; ValueError for a
    game, kind or chooser without one."""
    if kind not in KINDS:
        raise ValueError(f"unknown bot kind {kind!r}; known: {', '.join(KINDS)}")
    if chooser not in CHOOSERS:
        raise ValueError(f"unknown way to choose {chooser!r}; known: {', '.join(CHOOSERS)}")
    factory = _FACTORIES.get(game_name)
    if factory is None:
        raise ValueError(f"no bot plays {game_name!r}")
    bot = factory(kind == "plans", random.Random(seed))
    bot.chooser = chooser
    bot.seed = seed
    return bot


def _constantinopolis(plans: bool, rng: random.Random) -> Bot:
    from .constantinopolis import ConstantinopolisBot
    return ConstantinopolisBot(plans, rng)


def _porto_carthago(plans: bool, rng: random.Random) -> Bot:
    from .porto_carthago import PortoCarthagoBot
    return PortoCarthagoBot(plans, rng)


_FACTORIES: dict[str, Callable[[bool, random.Random], Any]] = {
    "constantinopolis": _constantinopolis,
    "porto-carthago": _porto_carthago,
}
GAMES = tuple(_FACTORIES)
