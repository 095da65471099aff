"""Whole games between computer players and random-legal bots, on the engines directly: for
the strength benchmark (bench/bench_bots.py) and the tests.

Each seat is "random" (an order drawn from `legal_orders`), "fast" or "strong". A computer
seat is handed an `Observation` taken from the position (its view and the events it may
see) and answers with the lines of one submission, which are parsed and applied like a
person's; every decision's thinking time is kept.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..contract import Event, Game, Result, State
from . import LEVELS, decide, observe
from .search import Budget

RANDOM = "random"
KINDS = (RANDOM, *LEVELS)
MAX_STEPS = 20_000


@dataclass
class Match:
    """One game: who sat where, the result, the final position and each computer
    decision's time (seconds) by level."""

    game: str
    seats: dict[str, str]
    seed: str
    result: Result | None = None
    state: State | None = None
    times: dict[str, list[float]] = field(default_factory=dict)
    steps: int = 0


Watcher = Callable[[Game, State, str, str, str, list[str]], None]


def play_match(game: Game, seats: Mapping[str, str], seed: str, *, options: Mapping[str, Any] | None = None,
               budgets: Mapping[str, Budget] | None = None, watch: Watcher | None = None) -> Match:
    """Play one game to its end; `seats` maps each player, in seat order, to a kind. `watch`
    sees every computer decision: (game, state, player, level, seed, lines)."""
    players = list(seats)
    components = game.load_components(None)
    state = game.setup(players, seed, dict(options or {}), components)
    match = Match(game.name, dict(seats), seed)
    dice = random.Random(f"{seed}/random seats")
    seen: dict[str, list[Event]] = {p: [] for p in players}
    asked: dict[tuple[str, str], int] = {}
    while match.steps < MAX_STEPS:
        prompts = game.prompts(state)
        if not prompts:
            break
        prompt = prompts[dice.randrange(len(prompts))] if prompts[0].simultaneous else prompts[0]
        player, kind = prompt.player, seats[prompt.player]
        if kind == RANDOM:
            menu = game.legal_orders(state, player)
            orders = [menu[dice.randrange(len(menu))]]
        else:
            key = game.phase(state).key
            count = asked[(player, key)] = asked.get((player, key), 0) + 1
            observation = observe(game, state, player, components, seen[player])
            started = time.process_time()
            lines = decide(game, observation, kind, seed=f"{seed}/{count}", budget=(budgets or {}).get(kind))
            match.times.setdefault(kind, []).append(time.process_time() - started)
            if watch is not None:
                watch(game, state, player, kind, f"{seed}/{count}", lines)
            orders = game.parse(state, player, "\n".join(lines))
        state, events = game.apply(state, player, orders)
        for p in players:
            seen[p] = (seen[p] + [e for e in events if e.visible_to(p)])[-200:]
        match.steps += 1
    match.state = state
    match.result = game.result(state)
    return match


def rotated(kinds: Sequence[str], players: Sequence[str], shift: int) -> dict[str, str]:
    """Players in seat order with the kinds turned by `shift` seats, so that over a series
    every kind sits in every seat."""
    n = len(players)
    return {players[i]: kinds[(i - shift) % n] for i in range(n)}
