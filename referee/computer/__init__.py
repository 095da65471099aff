"""Computer players: a seat the referee plays, from that seat's own view.

A computer player is given an `Observation`: the game's view for its player (`Game.view`),
the events that player may see, the component set and whom the game asks (all of it what a
person in that seat reads in their mail), never the state. Where it needs a whole position
to try orders on, it asks the game for worlds consistent with that view (`Game.sample`):
positions whose hidden parts (others' money, the decks' order...) are drawn at random, so
that what it chooses cannot depend on another player's secrets.

Two levels (docs/bots.md):

- `fast`: one world; every order of the menu is tried on it, the rest of the player's own
  turn played out greedily, and the position valued by the game's heuristic (`policy`);
  the best one is chosen. A few milliseconds.
- `strong`: several worlds; the fast level's best few orders are each played out on every
  world, all players following a quick rule policy for a stretch of the game, and valued
  the same way (determinized Monte Carlo rollouts, `search`). The order with the best mean
  wins. A fixed amount of work, so that the same observation and seed give the same choice.

`decide` returns the lines of one submission: one order when the game asks in turn, the
player's whole set when it asks everyone at once (a new set replaces an earlier one).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..contract import Event, Game, Order, OrderError, State, sample_world
from ..storage import round_trip
from .policy import GamePolicy, policy_for
from .search import Budget, fast_choice, strong_choice

LEVELS = ("fast", "strong")
DEFAULT_LEVEL = "strong"
MAX_SET = 20  # orders in one set a computer player sends in a phase played by all at once


class NoComputerPlayer(ValueError):
    """The game has no computer player (no policy or no sampling)."""


@dataclass(frozen=True)
class Observation:
    """What a computer player decides from: what its seat may see, nothing else."""

    game: str
    player: str
    view: Mapping[str, Any]  # Game.view for the player
    components: Mapping[str, Any]  # the game's component set, as setup takes it (public)
    decision: str  # the prompt's decision name
    simultaneous: bool  # asked with others at once: the answer is the player's whole set
    key: str  # the phase key the answer is for
    events: tuple[Mapping[str, Any], ...] = field(default=())  # events the player may see, as JSON


def observe(game: Game, state: State, player: str, components: Mapping[str, Any],
            events: Sequence[Event] = ()) -> Observation:
    """The observation of `player` at `state`: taken on the referee's side, which holds the
    state, so that only the view (and the events the player may see) passes on, as plain
    JSON data (texts as the strings they read)."""
    prompt = next(p for p in game.prompts(state) if p.player == player)
    seen = round_trip([e.to_json() for e in events if e.visible_to(player)])
    return Observation(game.name, player, round_trip(game.view(state, player)), components,
                       prompt.decision, prompt.simultaneous, game.phase(state).key, tuple(seen))



def available(game: Game) -> bool:
    """Whether computer players can play this game: it samples worlds and has a policy."""
    return getattr(game, "sample", None) is not None and policy_for(game.name) is not None


def decide(game: Game, seen: Observation, level: str = DEFAULT_LEVEL, seed: str = "",
           budget: Budget | None = None, *, whole_set: bool = False) -> list[str]:
    """The lines of the player's next submission (canonical order text). A set planned in a
    phase played by all at once stops after an order that draws hidden cards, to go on once
    they are seen (the caller sends it again with what follows); with `whole_set` (a caller
    that cannot come back to it) the set is ended there with the player's default orders.
    A turn taken one order at a time gets one order, or with `whole_set` (a player by mail,
    who writes a turn in one mail as a person does) the orders of the turn up to its end or
    to an order that draws hidden cards, after which the player is asked again."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    policy = policy_for(game.name)
    if policy is None or getattr(game, "sample", None) is None:
        raise NoComputerPlayer(f"no computer player plays {game.name}")
    rng = random.Random(f"{seed}/{seen.player}/{seen.key}")
    budget = budget or Budget.for_level(level, policy)
    worlds = [_world(game, seen, rng) for _ in range(budget.worlds if level == "strong" else 1)]
    start = game.phase(worlds[0]).key  # a sampled world's own key: counters a view leaves out may differ
    orders: list[Order] = []
    while len(orders) < (MAX_SET if seen.simultaneous or whole_set else 1):
        order = _choose(game, policy, worlds, seen.player, level, budget, rng)
        if order is None:
            break
        orders.append(order)
        worlds = _after(game, worlds, seen.player, order)
        if not worlds or not _still_asked(game, worlds[0], start, seen.player):
            break
        if policy.ends_planning(order):
            if whole_set and seen.simultaneous:
                orders += game.default_orders(worlds[0], seen.player)
            break
    return [game.format(o) for o in orders]


def _world(game: Game, seen: Observation, rng: random.Random) -> State:
    world = sample_world(game, seen.view, seen.components, rng)
    if world is None:
        raise NoComputerPlayer(f"{game.name} cannot sample worlds")
    return world


def _choose(game: Game, policy: GamePolicy, worlds: list[State], player: str, level: str, budget: Budget,
            rng: random.Random) -> Order | None:
    menu = game.legal_orders(worlds[0], player)
    if not menu:
        return None
    if len(menu) == 1:
        return menu[0]
    if level == "fast":
        return fast_choice(game, policy, worlds[0], player, menu)
    return strong_choice(game, policy, worlds, player, menu, budget, rng)


def _after(game: Game, worlds: list[State], player: str, order: Order) -> list[State]:
    """The worlds after the player's own order (those where it does not apply drop out)."""
    out = []
    for world in worlds:
        try:
            out.append(game.apply(world, player, [order])[0])
        except OrderError:
            continue
    return out


def _still_asked(game: Game, world: State, key: str, player: str) -> bool:
    """Whether the same decision (the phase `key` the world began in) still waits for the
    player in the world: a set goes on."""
    return game.phase(world).key == key and any(p.player == player for p in game.prompts(world))