"""Random complete games played by bots that pick from `legal_orders`.

Shared by the tests (invariants after every step, JSON round trip, replay), the benchmarks
and the demo, so every game is exercised the same way. Bots draw from their own seeded
stream: a playthrough is reproducible from (game, players, seed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .contract import Event, Game, Order, OrderError, Result, State, canonical_json
from .progress import Position, Step, unrepeated
from .rng import Rng
from .storage import decode, encode


class PlaythroughError(AssertionError):
    """A contract or invariant violation found while playing; says at which step."""


class BotStuck(Exception):
    """The player the bot picked cannot send any set: without their earlier set a drop or
    their own default orders no longer apply. Only default orders (a deadline, an
    adjudication) move the game on."""


@dataclass
class Playthrough:
    game: Game
    players: list[str]
    seed: str
    options: dict = field(default_factory=dict)
    state: State = field(default_factory=dict)
    log: list[tuple[str, str]] = field(default_factory=list)  # (player, canonical text)
    events: list[Event] = field(default_factory=list)
    steps: int = 0
    result: Result | None = None


def _bot_pick(rng: Rng, menu: Sequence[Order]) -> Order:
    return menu[rng.randbelow(len(menu))]


def play(
    game: Game,
    players: Sequence[str],
    seed: str,
    options: dict | None = None,
    *,
    checks: bool = False,
    max_steps: int = 100_000,
    on_step: Callable[[Playthrough], None] | None = None,
) -> Playthrough:
    """Play one game to the end.

    With `checks`, after every step: the engine's invariants hold, the state survives a JSON
    round trip, the input state was not mutated, and each order's canonical text parses back
    to the same order.
    """
    options = dict(options or {})
    components = game.load_components(None)
    pt = Playthrough(game, list(players), seed, options)
    pt.state = game.setup(pt.players, seed, options, components)
    bots = Rng.from_seed(seed, "bots")
    # the state as a game file spells it, keys in their order: the same bytes after a step mean
    # the engine left its input alone (a key taken out and put back shows too)
    before = _check(pt, "setup") if checks else b""
    while pt.steps < max_steps:
        prompts = game.prompts(pt.state)
        if not prompts:
            break
        prompt = prompts[bots.randbelow(len(prompts))] if prompts[0].simultaneous else prompts[0]
        player = prompt.player
        menu = game.legal_orders(pt.state, player)
        if not menu:
            raise PlaythroughError(f"step {pt.steps}: {player} is prompted ({prompt.decision}) but has no legal order")
        order = _bot_pick(bots, menu)
        text = game.format(order)
        if checks:
            parsed = game.parse(pt.state, player, text)
            if parsed != [order]:
                raise PlaythroughError(f"step {pt.steps}: {text!r} parses to {parsed!r}, expected {order!r}")
        new_state, events = game.apply(pt.state, player, [order])
        if checks and encode(pt.state) != before:
            raise PlaythroughError(f"step {pt.steps}: apply (or a look at the position before it) mutated its "
                                   "input state")
        pt.state = new_state
        pt.events.extend(events)
        pt.log.append((player, text))
        pt.steps += 1
        if checks:
            before = _check(pt, f"step {pt.steps} ({player}: {text})")
        if on_step is not None:
            on_step(pt)
            if checks:  # as the next step finds it
                before = encode(pt.state)
    else:
        raise PlaythroughError(f"no end after {max_steps} steps")
    pt.result = game.result(pt.state)
    if pt.result is None:
        raise PlaythroughError("no prompts left but the game reports no result")
    return pt


def _check(pt: Playthrough, where: str) -> bytes:
    """The engine's invariants hold and the state reads the same once written to a game file
    and read back. Returns the state as written, which the next step compares
    with the state after its `apply` to tell that it was left alone."""
    problems = pt.game.check(pt.state)
    if problems:
        raise PlaythroughError(f"{where}: invariants broken: {problems}")
    written = encode(pt.state)
    if decode(written) != pt.state:
        raise PlaythroughError(f"{where}: state does not survive a JSON round trip")
    return written


def replay(game: Game, players: Sequence[str], seed: str, options: dict | None,
           log: Sequence[tuple[str, str]]) -> State:
    """Recompute a game from its text-order log alone."""
    state = game.setup(list(players), seed, dict(options or {}), game.load_components(None))
    for player, text in log:
        state, _ = game.apply(state, player, game.parse(state, player, text))
    return state


def same_state(a: State, b: State) -> bool:
    return canonical_json(a) == canonical_json(b)


def bot_submission(game: Game, stored: Any, bots: Rng) -> tuple[str, str] | None:
    """A bot's next submission to a game kept by the service: (player, text), or None once the
    game is over. `stored` is the store's picture of the game (state, meta, snapshots).

    In a simultaneous decision a new set replaces the player's earlier one and is applied
    after the other players' sets (those that still apply without the earlier set), so the
    bot works out that position and sends its earlier set again, when it still applies
    there, with one new order after it. `BotStuck` when that position cannot be worked out:
    a drop or the player's own default orders no longer apply without the earlier set."""
    prompts = game.prompts(stored.state)
    if not prompts:
        return None
    prompt = prompts[bots.randbelow(len(prompts))] if prompts[0].simultaneous else prompts[0]
    try:
        state, earlier = (_own_position(game, stored, prompt.player) if prompt.simultaneous
                          else (stored.state, []))
    except OrderError as exc:
        raise BotStuck(f"{prompt.player} cannot send a set in phase {game.phase(stored.state).key}: {exc}") from None
    menu = game.legal_orders(state, prompt.player)
    if not menu:
        raise PlaythroughError(f"{prompt.player} is prompted ({prompt.decision}) but has no legal order")
    return prompt.player, "\n".join(earlier + [game.format(_bot_pick(bots, menu))])


def own_position(game: Game, stored: Any, player: str) -> State:
    """The position a new set of `player` is applied to in the open phase: in a simultaneous
    decision, without their earlier set (`Position.without`); else the position itself.
    OrderError as `Position.without` raises it."""
    if not any(p.player == player and p.simultaneous for p in game.prompts(stored.state)):
        return stored.state
    return _own_position(game, stored, player)[0]


def own_position_and_set(game: Game, stored: Any, player: str) -> tuple[State, list[str]]:
    """`own_position`, and the player's earlier set of the open phase when it still applies
    there: a new set replaces the earlier one, so whoever goes on with it sends it again
    first. OrderError as `Position.without` raises it."""
    if not any(p.player == player and p.simultaneous for p in game.prompts(stored.state)):
        return stored.state, []
    return _own_position(game, stored, player)


def _own_position(game: Game, stored: Any, player: str) -> tuple[State, list[str]]:
    """The position a new set of `player` is applied to (`Position.without`), and their
    earlier set if it still applies there. OrderError as `Position.without` raises it."""
    steps = [Step.from_json(s) for s in stored.meta.get("steps", [])]
    if not steps:
        return stored.state, []
    key = game.phase(stored.state).key
    opening = [s for s in stored.snapshots if s["key"] == key][-1]["state"]
    pos = Position(game, stored.state, opening, steps)
    base = pos.without(player)
    own = pos.last_set(player)
    if own is None:
        return base.state, []
    # what of the earlier set stands as facts is in the position already: not sent again
    orders = unrepeated(own.orders, base.kept)[0]
    try:
        with_own, _ = game.apply(base.state, player, orders)
    except OrderError:
        return base.state, []
    return with_own, [game.format(o) for o in orders]
