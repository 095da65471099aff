"""Players for benchmarks, tests and demos: one mail's text each time they are asked.

Two kinds for each game, with the same taste in moves so that only the mailing differs:

- `ask-only`: answers exactly what it is asked, one decision a mail (a whole construction
  turn or a whole set of contracts is one decision), and never sends anything ahead: no
  defend limit, no `up to`, no standing list, no queue, no plan;
- `plans`: answers the same way and adds, to every mail, a plan for every decision it can
  see coming until its next real choice, with alternatives that end in an answer that
  always works.

A bot reads what its player may see (`Game.view`, the player's menus) and tries its own
orders on a copy of the position, as a person does who works out a whole turn before writing
it down. Each bot draws from its own seeded stream, so a game of bots is the same every time.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol

from ..contract import Game, State

KINDS = ("ask-only", "plans")


class Bot(Protocol):
    def mail(self, game: Game, state: State, player: str) -> str:
        """The text of the player's next mail: the answer to what they are asked now, and
        (for a planning bot) their plans."""
        ...


def make_bot(game_name: str, kind: str, seed: str) -> Bot:
    """A bot of this kind for this game; ValueError for a game or kind without one."""
    if kind not in KINDS:
        raise ValueError(f"unknown bot kind {kind!r}; known: {', '.join(KINDS)}")
    factory = _FACTORIES.get(game_name)
    if factory is None:
        raise ValueError(f"no bot plays {game_name!r}")
    return factory(kind == "plans", random.Random(seed))


def _constantinopolis(plans: bool, rng: random.Random) -> Bot:
    from .constantinopolis import ConstantinopolisBot
    return ConstantinopolisBot(plans, rng)


def _porto_carthago(plans: bool, rng: random.Random) -> Bot:
    from .porto_carthago import PortoCarthagoBot
    return PortoCarthagoBot(plans, rng)


_FACTORIES: dict[str, Callable[[bool, random.Random], Bot]] = {
    "constantinopolis": _constantinopolis,
    "porto-carthago": _porto_carthago,
}
GAMES = tuple(_FACTORIES)
