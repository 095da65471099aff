"""How submissions move a game forward: one pure mechanism shared by the live service,
log replay and case files, so all three give the same state from the same steps.

A phase's position is kept as the state when the phase opened plus the steps taken since
(orders, defaults, drops). In a simultaneous decision a player's new set *replaces* their
earlier one, so the state is recomputed from the opening state by applying every step again;
in a sequential decision the step is applied on top. Either way the invariant is
``state == fold(opening, steps)``. When the phase key changes, the new state opens the next
phase and the step list starts empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from .contract import Event, Game, InvalidOrder, Order, OrderError, State, accepts_orders

ORDER, DEFAULT, DROP = "order", "default", "drop"


class Refused(Exception):
    """A submission the service will not even try: wrong phase, game over, not your turn."""


@dataclass
class Step:
    """One thing that changed the position: a player's orders, their defaults, or a drop."""

    kind: str
    player: str
    orders: list[Order] = field(default_factory=list)
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "text": self.text,
                "orders": [o.to_json() for o in self.orders]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Step":
        return cls(data["kind"], data["player"], [Order.from_json(o) for o in data.get("orders", [])],
                   data.get("text", ""))


@dataclass
class Outcome:
    """What one step did: the events of that step, and whether a new phase opened."""

    events: list[Event]
    before_key: str
    after_key: str
    replaced: Step | None = None  # the player's earlier set this one replaced, if any

    @property
    def resolved(self) -> bool:
        return self.before_key != self.after_key


@dataclass
class Position:
    """A game's position with the bookkeeping that resubmission needs."""

    game: Game
    state: State
    opening: State
    steps: list[Step] = field(default_factory=list)

    @classmethod
    def start(cls, game: Game, state: State) -> "Position":
        return cls(game, state, state, [])

    # -- queries

    @property
    def key(self) -> str:
        return self.game.phase(self.state).key

    @property
    def over(self) -> bool:
        return not self.game.prompts(self.state)

    def waiting_for(self) -> list[str]:
        return list(dict.fromkeys(p.player for p in self.game.prompts(self.state)))

    def is_simultaneous(self, player: str) -> bool:
        return any(p.simultaneous for p in self.game.prompts(self.state) if p.player == player)

    def last_set(self, player: str) -> Step | None:
        for step in reversed(self.steps):
            if step.player == player and step.kind == ORDER:
                return step
        return None

    def ensure_prompted(self, player: str) -> None:
        """Refuse a player the engine is not asking for anything, with the reason."""
        if self.over:
            raise Refused("the game is over; no more orders are taken")
        waiting = self.waiting_for()
        if player in waiting or accepts_orders(self.game, self.state, player):
            return
        phase = self.game.phase(self.state)
        if any(s.player == player for s in self.steps) and self.game.prompts(self.state)[0].simultaneous:
            raise Refused(f"your part in {phase.name} (phase {phase.key}) is finished; your last set "
                          f"stands until the phase resolves (waiting for {', '.join(waiting)})")
        raise Refused(f"nothing is asked of {player} in {phase.name} (phase {phase.key}); "
                      f"waiting for {', '.join(waiting)}")

    # -- reading orders

    def read(self, player: str, text: str) -> list[Order]:
        """Parse a submission; an empty one is an error, not a silent no-op."""
        orders = self.game.parse(self.state, player, text)
        if not orders:
            raise InvalidOrder("no orders found", suggestion=self.game.help(self.state, player) or None)
        return orders

    # -- moving on

    def submit(self, player: str, orders: Sequence[Order], kind: str = ORDER) -> Outcome:
        """Apply one step; raises OrderError (position unchanged) or Refused."""
        if kind != DROP:
            self.ensure_prompted(player)
        before = self.key
        step = Step(kind, player, list(orders), "\n".join(self.game.format(o) for o in orders))
        replaced = None
        if kind == ORDER and self.is_simultaneous(player):
            replaced = self.last_set(player)
            steps = [s for s in self.steps if not (s.player == player and s.kind == ORDER)] + [step]
            state, events = self._fold(self.opening, steps)
        else:
            steps = self.steps + [step]
            state, events = self._apply(self.state, step)
        self._commit(state, steps)
        return Outcome(events, before, self.key, replaced)

    def _apply(self, state: State, step: Step) -> tuple[State, list[Event]]:
        if step.kind == DROP:
            return self.game.drop(state, step.player)
        return self.game.apply(state, step.player, step.orders)

    def _fold(self, state: State, steps: Sequence[Step]) -> tuple[State, list[Event]]:
        events: list[Event] = []
        for i, step in enumerate(steps):
            try:
                state, events = self._apply(state, step)
            except OrderError as exc:
                if i == len(steps) - 1:
                    raise
                raise OrderError(f"with this set, {step.player}'s earlier set no longer applies: "
                                 f"{exc.message}", category=exc.category) from None
        return state, events

    def _commit(self, state: State, steps: list[Step]) -> None:
        before = self.key
        self.state = state
        if self.game.phase(state).key != before:
            self.opening, self.steps = state, []
        else:
            self.steps = steps
