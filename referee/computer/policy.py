"""What a computer player knows of a game besides its rules: how good a position is for a
player (`value`), a quick rule choice for play-outs (`quick`), how far to play out, and
which orders end the planning of a set. One per game, found by the game's name."""

from __future__ import annotations

import importlib
import random
from typing import Protocol

from ..contract import Game, Order, State

_POLICIES = {"constantinopolis": "referee.computer.constantinopolis",
             "porto-carthago": "referee.computer.porto_carthago"}


class GamePolicy(Protocol):
    close: float  # orders valued within this of the best are played out by the strong level
    candidates: int  # at most so many of those orders
    worlds: int  # in so many sampled worlds

    def value(self, state: State, player: str) -> float:
        """How good `state` is for `player`, in the game's own units (a palace seat, a point
        of fame): the score so far and what their position promises."""
        ...

    def values(self, state: State) -> list[float]:
        """`value` of every player, in the order of `state["players"]`."""
        ...

    def quick(self, game: Game, state: State, player: str, menu: list[Order], rng: random.Random) -> Order:
        """A fast choice by rules of thumb, for play-outs: no order is tried on a copy."""
        ...

    def stop(self, start: State, state: State, steps: int) -> bool:
        """Whether a play-out from `start` has gone far enough at `state`."""
        ...

    def interlude(self, state: State, player: str) -> bool:
        """Whether the decision open now is another player's answer in the middle of
        `player`'s turn, after which the turn goes on (the Consul asked about a purchase)."""
        ...

    def ends_planning(self, order: Order) -> bool:
        """Whether a set is sent after this order, before planning more: an order that
        draws hidden cards (the world sampled cannot know which)."""
        ...


def policy_for(game_name: str) -> GamePolicy | None:
    """The game's policy, or None for a game without a computer player."""
    module = _POLICIES.get(game_name)
    if module is None:
        return None
    return importlib.import_module(module).POLICY  # type: ignore[no-any-return]
