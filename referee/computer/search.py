"""Choosing an order in sampled worlds: the fast level's greedy look at each order, and the
strong level's determinized play-outs (Monte Carlo over worlds consistent with the player's
view; the known way to search a game of hidden information without peeking, as
information-set Monte Carlo tree search does at its root).

Both value a position by the game's heuristic (`GamePolicy.value`), taken against the best
of the other players: a lead is what wins.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from ..contract import Game, Order, OrderError, State
from ..storage import fingerprint
from .policy import GamePolicy

TURN_STEPS = 6  # own orders played greedily after the one judged, while the turn stays the player's
PLAYOUT_STEPS = 400  # a play-out stops here whatever the policy says


@dataclass(frozen=True)
class Budget:
    """How much the strong level thinks: worlds sampled, orders compared (the fast level's
    best), and at most `seconds` (None: no clock, the same work every time)."""

    worlds: int = 8
    candidates: int = 5
    seconds: float | None = None

    @classmethod
    def for_level(cls, level: str, policy: GamePolicy) -> "Budget":
        """The fast level looks at one world; the strong level plays out as many orders in as
        many worlds as the game's policy asks for."""
        return cls(worlds=1, candidates=1) if level == "fast" else cls(policy.worlds, policy.candidates)


def margin(policy: GamePolicy, state: State, player: str) -> float:
    """The player's value less the best other player's."""
    values = policy.values(state)
    seat = state["players"].index(player)
    others = values[:seat] + values[seat + 1:]
    return values[seat] - max(others, default=0.0)


def _try(game: Game, state: State, player: str, order: Order) -> State | None:
    try:
        return game.apply(state, player, [order])[0]
    except OrderError:
        return None


def _own_turn(game: Game, state: State, player: str) -> bool:
    prompts = game.prompts(state)
    return bool(prompts) and prompts[0].player == player and not prompts[0].simultaneous


def finish_turn(game: Game, policy: GamePolicy, state: State, player: str) -> State:
    """The rest of the player's own turn played greedily, one order at a time by its value
    right after it (the extras after an action, the rest of a construction turn); another
    player's answer in the middle of it (the Consul asked about a purchase) is their
    default."""
    for _ in range(TURN_STEPS):
        if not _own_turn(game, state, player):
            if not policy.interlude(state, player):
                break
            prompt = game.prompts(state)[0]
            after = _try_all(game, state, prompt.player, game.default_orders(state, prompt.player))
            if after is None:
                break
            state = after
            continue
        best, best_value = None, float("-inf")
        for order in game.legal_orders(state, player):
            after = _try(game, state, player, order)
            if after is not None:
                value = policy.value(after, player)  # within one's own turn the others stand still
                if value > best_value:
                    best, best_value = after, value
        if best is None:
            break
        state = best
    return state


def _try_all(game: Game, state: State, player: str, orders: list[Order]) -> State | None:
    try:
        return game.apply(state, player, orders)[0]
    except OrderError:
        return None


def ranked(game: Game, policy: GamePolicy, world: State, player: str, menu: list[Order]) -> list[tuple[float, int]]:
    """Each order's value after it and the rest of the turn, best first: (value, index).
    Orders that lead to the same position once the turn is finished (a sale before or after
    a building's use) count once, as the first of them."""
    out = []
    seen: set[bytes] = set()
    for i, order in enumerate(menu):
        after = _try(game, world, player, order)
        if after is None:
            continue
        end = finish_turn(game, policy, after, player)
        same = fingerprint(end)  # one spelling per position, as canonical_json's, and faster
        if same in seen:
            continue
        seen.add(same)
        out.append((margin(policy, end, player), i))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def fast_choice(game: Game, policy: GamePolicy, world: State, player: str, menu: list[Order]) -> Order:
    """The fast level: the order whose position, the turn finished greedily, is worth most."""
    order = ranked(game, policy, world, player, menu)
    return menu[order[0][1]] if order else menu[0]


def playout(game: Game, policy: GamePolicy, state: State, rng: random.Random) -> State:
    """Everyone plays by the policy's rules of thumb until the policy says it has gone far
    enough (or the game ends)."""
    start = state
    for steps in range(PLAYOUT_STEPS):
        if policy.stop(start, state, steps):
            break
        prompts = game.prompts(state)
        if not prompts:
            break
        prompt = prompts[rng.randrange(len(prompts))] if prompts[0].simultaneous else prompts[0]
        menu = game.legal_orders(state, prompt.player)
        if not menu:
            break
        after = _try(game, state, prompt.player, policy.quick(game, state, prompt.player, menu, rng))
        if after is None:
            after = _try(game, state, prompt.player, menu[0])
            if after is None:
                break
        state = after
    return state


def strong_choice(game: Game, policy: GamePolicy, worlds: list[State], player: str, menu: list[Order],
                  budget: Budget, rng: random.Random, clock: Callable[[], float] = time.monotonic) -> Order:
    """The strong level: the fast level's best few orders, each played out in every world
    with the same dice (common random numbers), compared by their mean margin."""
    first = ranked(game, policy, worlds[0], player, menu)
    if not first:
        return menu[0]
    # only the orders the greedy look finds close to the best are worth playing out
    candidates = [menu[i] for value, i in first[:budget.candidates] if value >= first[0][0] - policy.close]
    if len(candidates) == 1:
        return candidates[0]
    deadline = None if budget.seconds is None else clock() + budget.seconds
    totals = [0.0] * len(candidates)
    counted = [0] * len(candidates)
    for n, world in enumerate(worlds):
        if deadline is not None and n >= 2 and clock() > deadline:
            break
        dice = rng.getrandbits(64)
        for k, order in enumerate(candidates):
            after = _try(game, world, player, order)
            if after is None:
                continue
            after = finish_turn(game, policy, after, player)
            end = playout(game, policy, after, random.Random(dice))
            totals[k] += margin(policy, end, player)
            counted[k] += 1
    means = [t / c if c else float("-inf") for t, c in zip(totals, counted)]
    best = max(range(len(candidates)), key=lambda k: (means[k], -k))
    return candidates[best]
