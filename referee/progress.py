"""How submissions move a game forward: one pure mechanism shared by the live service,
log replay and case files, so all three give the same state from the same steps.

A phase's position is kept as the state when the phase opened plus the steps taken since
(orders, defaults, drops). In a simultaneous decision a player's new set *replaces* their
earlier one, so the state is recomputed from the opening state by applying every step again;
in a sequential decision the step is applied on top. Either way the invariant is
``state == fold(opening, steps)``. When the phase key changes, the new state opens the next
phase and the step list starts empty.

Another player's set may have relied on the earlier set (it drew the card after it, say).
Without the earlier set it may no longer apply; then it is cancelled whole and that player
is asked again, so the player who changed their mind is never locked out by it, and nothing
the other player sent disappears without the events that tell them (docs/service.md).

Some orders are agreements between players (a Constantinopolis trade: an offer, its answer):
once applied they are *facts* of the phase, steps of their own that no later set of either
player takes back (`final_kinds`). A set holding such an order is split around it when it is
applied; a fact that would fail without the earlier set of a player who sends a new one
keeps as much of that earlier set as it needs (`Position.without`), and the lines of a new
set that repeat a player's facts are not carried out twice.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Sequence

from .contract import (Event, Game, InvalidOrder, Order, OrderError, OrderErrors, PhaseInfo, Prompt, State,
                       accepts_orders, final_kinds, phase_code)
from .wording import listed, order_text, phrase

ORDER, DEFAULT, DROP, FACT = "order", "default", "drop", "fact"


class Refused(Exception):
    """A submission the service will not even try: wrong phase, game over, not your turn."""


@dataclass
class Step:
    """One thing that changed the position: a player's orders, their defaults, a drop, or a
    fact (an agreement, or orders an agreement relies on) that no later set takes back."""

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
class Cancelled:
    """Another player's part that stopped applying when a player replaced their set: every
    order and default step of theirs in this phase, taken back together."""

    player: str
    steps: list[Step]
    reason: str  # the engine's message; it may name what only this player may see

    @property
    def text(self) -> str:
        return "\n".join(s.text for s in self.steps if s.text)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "text": self.text, "reason": self.reason}


@dataclass
class Outcome:
    """What one step did: the events of that step, and whether a new phase opened."""

    events: list[Event]
    before_key: str
    after_key: str
    replaced: Step | None = None  # the player's earlier set this one replaced, if any
    cancelled: list[Cancelled] = field(default_factory=list)  # other players' sets it undid
    reopened: list[str] = field(default_factory=list)  # others asked again in the same phase
    kept: list[Order] = field(default_factory=list)  # orders of the earlier set that stand (facts rely on them)
    repeated: list[Order] = field(default_factory=list)  # lines of the new set that were facts already

    @property
    def resolved(self) -> bool:
        return self.before_key != self.after_key


@dataclass
class Base:
    """The position a new set of a player is applied to (`Position.without`): its state, the
    steps kept (the player's orders that facts rely on among them, as facts), the other
    players' parts cancelled, and those orders of the player that stand."""

    state: State
    steps: list[Step]
    cancelled: list[Cancelled]
    kept: list[Order]


class _FactFails(Exception):
    """A fact of the phase no longer applies in a replay: more of the earlier set must stay."""


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

    def _asked(self) -> tuple[PhaseInfo, list[Prompt]]:
        """The phase and the prompts of the current state. An engine works them out from the
        state each time, and one submission asks a dozen times, so they are kept for as long
        as `state` is the same object (engines return new states; they never change one)."""
        kept = self.__dict__.get("_kept")
        if kept is None or kept[0] is not self.state:
            kept = self.__dict__["_kept"] = (self.state, self.game.phase(self.state), self.game.prompts(self.state))
        return kept[1], kept[2]

    @property
    def phase(self) -> PhaseInfo:
        return self._asked()[0]

    @property
    def key(self) -> str:
        return self._asked()[0].key

    @property
    def over(self) -> bool:
        return not self._asked()[1]

    def waiting_for(self) -> list[str]:
        return list(dict.fromkeys(p.player for p in self._asked()[1]))

    def is_simultaneous(self, player: str) -> bool:
        return any(p.simultaneous for p in self._asked()[1] if p.player == player)

    def last_set(self, player: str) -> Step | None:
        """The player's set as it stands: their orders that a new set replaces (the parts a fact
        split it into, joined; the facts themselves are not in it). None before any."""
        pieces = [s for s in self.steps if s.player == player and s.kind == ORDER]
        if len(pieces) <= 1:
            return pieces[0] if pieces else None
        return Step(ORDER, player, [o for s in pieces for o in s.orders], "\n".join(s.text for s in pieces if s.text))

    def facts_of(self, player: str, steps: Sequence[Step] | None = None) -> list[Order]:
        """The orders of `player` that stand as facts of the phase, in the order they came."""
        return [o for s in (self.steps if steps is None else steps) if s.player == player and s.kind == FACT
                for o in s.orders]

    def ensure_prompted(self, player: str) -> None:
        """Refuse a player the engine is not asking for anything, with the reason."""
        if self.over:
            raise Refused("the game is over; no more orders are taken")
        waiting = self.waiting_for()
        if player in waiting or accepts_orders(self.game, self.state, player):
            return
        phase, prompts = self._asked()
        code = phase_code(self.game, phase.key)  # as the player reads it
        if any(s.player == player for s in self.steps) and prompts[0].simultaneous:
            raise Refused(f"your part in {phase.name} (phase {code}) is finished; your last set "
                          f"stands until the phase resolves (waiting for {', '.join(waiting)})")
        raise Refused(f"nothing is asked of {player} in {phase.name} (phase {code}); "
                      f"waiting for {', '.join(waiting)}")

    # -- reading orders

    def read(self, player: str, text: str) -> list[Order]:
        """Parse a submission; an empty one is an error, not a silent no-op."""
        orders = self.game.parse(self.state, player, text)
        if not orders:
            raise InvalidOrder("no orders found", suggestion=self.game.help(self.state, player) or None)
        return orders

    def take(self, player: str, text: str) -> list[Order]:
        """A player's submission as the service takes it: a player the game does not ask is
        refused (Refused) before the text is read, so what they wrote cannot make it an order
        error instead; then the text is read (OrderError)."""
        self.ensure_prompted(player)
        return self.read(player, text)

    # -- moving on

    def submit(self, player: str, orders: Sequence[Order], kind: str = ORDER) -> Outcome:
        """Apply one step; raises OrderError (position unchanged) or Refused."""
        if kind != DROP:
            self.ensure_prompted(player)
        before = self.key
        asked = set(self.waiting_for())
        replaced, cancelled, kept, repeated = None, [], [], []
        if kind == ORDER and self.is_simultaneous(player):
            replaced = self.last_set(player)
            base = self.without(player)
            orders, repeated, where = unrepeated(orders, self.facts_of(player, base.steps))
            step = self._step(kind, player, orders)
            try:
                state, events = self._apply(base.state, step)
            except OrderError as exc:
                raise _placed(exc, where) from None
            pieces = self._pieces(step)
            if len(pieces) > 1:  # the state is what replaying the pieces gives, as it will be
                state, events = base.state, []
                for piece in pieces:
                    state, more = self._apply(state, piece)
                    events += more
            steps = base.steps + pieces
            cancelled, kept = base.cancelled, base.kept
        else:
            step = self._step(kind, player, orders)
            steps = self.steps + [step]
            state, events = self._apply(self.state, step)
        self._commit(state, steps)
        resolved = self.key != before
        waiting = [] if resolved else self.waiting_for()
        events = fact_events(player, kept, repeated, self.game) + events
        events += cancel_events(player, cancelled, waiting, resolved)
        reopened = [p for p in waiting if p not in asked and p != player]
        return Outcome(events, before, self.key, replaced, cancelled, reopened, kept, repeated)

    def _step(self, kind: str, player: str, orders: Sequence[Order]) -> Step:
        return Step(kind, player, list(orders), "\n".join(self.game.format(o) for o in orders))

    def _pieces(self, step: Step) -> list[Step]:
        """A set split around the orders that become facts once applied (`final_kinds`), each
        piece a step of its own in the same order; a set without them stays one step."""
        final = final_kinds(self.game)
        if not final or not any(o.kind in final for o in step.orders):
            return [step]
        pieces: list[Step] = []
        run: list[Order] = []
        for order in step.orders:
            if order.kind not in final:
                run.append(order)
                continue
            if run:
                pieces.append(self._step(step.kind, step.player, run))
                run = []
            pieces.append(self._step(FACT, step.player, [order]))
        if run:
            pieces.append(self._step(step.kind, step.player, run))
        return pieces

    def without(self, player: str) -> Base:
        """The position a new set of `player` is applied to: the opening state and every other
        step in the order it came, without the player's earlier set. A step of another player
        that fails there takes that player's whole part out, and the fold starts again.

        A fact that fails there relied on the earlier set (the gold an offer gives came from a
        sale in it, say): then the orders of the earlier set that the facts need stay where
        they were, as facts (`Base.kept`), and only the others go. Which ones: from the whole
        set, each order in turn is left out if the facts still apply without it, so an order
        no fact needs (a load, say) never stays.

        OrderError when a step that cannot be taken back fails: a drop, or the player's own
        default orders."""
        earlier = [o for s in self.steps if s.player == player and s.kind == ORDER for o in s.orders]
        with suppress(_FactFails):  # else some order of the set is needed: find which
            return self._base(player, earlier, [False] * len(earlier))
        keep = [True] * len(earlier)
        found = None
        for i in range(len(earlier)):
            keep[i] = False
            try:
                found = self._base(player, earlier, keep)
            except (_FactFails, OrderError):  # a drop that needs the order too keeps it
                keep[i] = True
        # with nothing left out the steps are the position as it is, where every fact applied
        return found if found is not None else self._base(player, earlier, keep)

    def _base(self, player: str, earlier: list[Order], keep: list[bool]) -> Base:
        """`without` keeping the orders of the earlier set marked in `keep`, as facts where they
        stood. _FactFails when a fact does not apply."""
        steps: list[Step] = []
        at = 0
        for step in self.steps:
            if step.player != player or step.kind != ORDER:
                steps.append(step)
                continue
            kept = [o for k, o in enumerate(step.orders) if keep[at + k]]
            at += len(step.orders)
            if kept:
                steps.append(self._step(FACT, player, kept))
        state, steps, cancelled = self._fold_without(player, steps)
        return Base(state, steps, cancelled, [o for o, k in zip(earlier, keep) if k])

    def _fold_without(self, player: str, others: list[Step]) -> tuple[State, list[Step], list[Cancelled]]:
        """The fold of `others` from the opening, taking out the parts of players whose steps
        fail (`Cancelled`); _FactFails when a fact fails, OrderError when a drop or the
        player's own default orders do."""
        cancelled: dict[str, Cancelled] = {}
        while True:
            kept = [s for s in others if s.kind in (DROP, FACT) or s.player not in cancelled]
            state = self.opening
            for step in kept:
                try:
                    state, _ = self._apply(state, step)
                except OrderError as exc:
                    if step.kind == FACT:
                        raise _FactFails() from None
                    if step.kind == DROP or step.player == player:
                        what = f"the drop of {step.player}" if step.kind == DROP else "your own default orders"
                        raise OrderError(f"without your earlier set, {what} no longer applies: {_reason(exc)}",
                                         category=exc.category) from None
                    cancelled[step.player] = Cancelled(
                        step.player, [s for s in kept if s.player == step.player and s.kind not in (DROP, FACT)],
                        _reason(exc))
                    break
            else:
                return state, kept, list(cancelled.values())

    def _apply(self, state: State, step: Step) -> tuple[State, list[Event]]:
        if step.kind == DROP:
            return self.game.drop(state, step.player)
        return self.game.apply(state, step.player, step.orders)

    def _commit(self, state: State, steps: list[Step]) -> None:
        before = self.key
        self.state = state
        if self.key != before:
            self.opening, self.steps = state, []
        else:
            self.steps = steps


def unrepeated(orders: Sequence[Order], facts: Sequence[Order]) -> tuple[list[Order], list[Order], list[int]]:
    """A new set without the lines that repeat the player's facts, one line for one fact (a
    player sends their whole set again, with the offer already made or the answer already
    given): the orders left, the lines left out, and where each order left was in the set."""
    left = list(facts)
    kept: list[Order] = []
    repeated: list[Order] = []
    where: list[int] = []
    for number, order in enumerate(orders, start=1):
        if order in left:
            left.remove(order)
            repeated.append(order)
        else:
            kept.append(order)
            where.append(number)
    return kept, repeated, where


def _placed(exc: OrderError, where: list[int]) -> OrderError:
    """An error of `apply`, its order numbers put back where the orders were in the set as sent."""
    for err in exc.errors if isinstance(exc, OrderErrors) else [exc]:
        if err.line is not None and 1 <= err.line <= len(where):
            err.line = where[err.line - 1]
    if isinstance(exc, OrderErrors):
        exc.line = exc.errors[0].line
    return exc


def fact_events(player: str, kept: Sequence[Order], repeated: Sequence[Order], game: Game) -> list[Event]:
    """What the player alone is told of their facts: orders of their earlier set that stand
    because an agreement since relies on them, and lines of the new set already done."""
    events = []
    if kept:
        events.append(Event("orders.kept", phrase(
            "Part of your earlier set stands: something agreed since relies on it, and an agreement is never taken "
            "back. Kept: {orders}. Your new set is carried out after it.",
            orders=listed(order_text(game.format(o)) for o in kept)),
            {"player": player, "orders": [game.format(o) for o in kept]}, (player,)))
    if repeated:
        events.append(Event("orders.repeated", phrase(
            "Already done in this phase, so not carried out again: {orders}.",
            orders=listed(order_text(game.format(o)) for o in repeated)),
            {"player": player, "orders": [game.format(o) for o in repeated]}, (player,)))
    return events


def _reason(exc: OrderError) -> str:
    return "; ".join(e.message for e in (exc.errors if isinstance(exc, OrderErrors) else [exc]))


def cancel_events(player: str, cancelled: Sequence[Cancelled], asked: Sequence[str],
                  resolved: bool) -> list[Event]:
    """What the players are told of cancelled parts: that it happened, to everyone; why, only
    to the player whose part it was (the reason may name their hidden cards). `asked` is who
    the phase still asks after the step: a cancelled player outside it (a dropped seat, or
    anyone once the step `resolved` the phase) is not told to send orders, since nothing they
    send would be taken for it."""
    events = []
    for part in cancelled:
        who = part.player
        if who in asked:
            then = f"{who} is asked for new orders"
            yours = ("None of them counts now and your part of this phase is open again: send your whole set of "
                     "orders again, or your default orders are played at the deadline.")
        elif resolved:
            then = "the phase closed without them"
            yours = "None of them counted when the phase closed."
        else:
            then = f"nothing more is asked of {who} in this phase"
            yours = "None of them counts now, and nothing more is asked of you in this phase."
        events.append(Event("orders.cancelled", f"{who}'s orders no longer apply after {player} changed theirs, "
                            f"so they are cancelled; {then}.", {"player": who, "by": player}))
        events.append(Event("orders.cancelled.reason",
                            f"Your orders no longer apply after {player} changed theirs ({part.reason}). {yours}",
                            {"player": who, "by": player, "reason": part.reason, "text": part.text}, (who,)))
    return events


def phase_json(game: Game, state: State) -> dict[str, Any]:
    """Where a game stands, as status lines, receipts and case files show it."""
    return phase_dict(game.phase(state))


def phase_dict(info: PhaseInfo) -> dict[str, Any]:
    return {"key": info.key, "round": info.round, "name": info.name, "kind": info.kind}
