"""What every bot shares: one mail is the answer to the question asked now and, for the
planning kind, the plan for what comes after it."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..contract import Game, State


class MailingBot(ABC):
    """A bot of either kind for one player; a game's bot fills in `answer` and `plan`."""

    def __init__(self, plans: bool, rng: random.Random) -> None:
        self.plans = plans
        self.rng = rng

    def mail(self, game: Game, state: State, player: str) -> str:
        decision = next(p for p in game.prompts(state) if p.player == player).decision
        lines = self.answer(game, state, player, decision)
        if self.plans:
            lines += self.plan(game, state, player, decision)
        return "\n".join(lines)

    @abstractmethod
    def answer(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        """The lines that answer `decision`, asked of `player` now."""

    @abstractmethod
    def plan(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        """Plan lines for the decisions after `decision`, from what `player` may see."""
