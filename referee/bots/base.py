"""What every bot shares: one mail is the answer to the question asked now and, for the
planning kind, the plan for what comes after it."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..contract import Game, State


class MailingBot(ABC):
    """A bot of either kind for one player; a game's bot fills in `answer` and `plan` (its
    taste), and `fast_plan` (what the computer player's fast level would answer alike)."""

    chooser = "taste"  # or "fast": the computer player's fast level answers (referee.bots)
    seed = ""

    def __init__(self, plans: bool, rng: random.Random) -> None:
        self.plans = plans
        self.rng = rng
        self._asked = 0

    def mail(self, game: Game, state: State, player: str) -> str:
        decision = next(p for p in game.prompts(state) if p.player == player).decision
        if self.chooser == "fast":
            lines = self.fast_answer(game, state, player)
            if self.plans:
                lines += self.fast_plan(game, state, player, decision)
            return "\n".join(lines)
        lines = self.answer(game, state, player, decision)
        if self.plans:
            lines += self.plan(game, state, player, decision)
        return "\n".join(lines)

    def fast_answer(self, game: Game, state: State, player: str) -> list[str]:
        """The computer player's fast level, from what the player may see; a whole set in a
        phase played by all at once (the bot's mail replaces its earlier set)."""
        from ..computer import decide, observe

        self._asked += 1
        seen = observe(game, state, player, game.load_components(None))
        return decide(game, seen, "fast", f"{self.seed}/{self._asked}", whole_set=True)

    def fast_plan(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        """Plan lines a fast-level bot may send: none unless the game's bot says otherwise."""
        return []

    @abstractmethod
    def answer(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        """The lines that answer `decision`, asked of `player` now."""

    @abstractmethod
    def plan(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        """Plan lines for the decisions after `decision`, from what `player` may see."""
