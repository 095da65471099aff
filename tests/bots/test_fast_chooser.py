"""The demo's bots choose as the computer player's fast level (`make_bot(..., chooser="fast")`),
so their games look like games between people who know the rules: in Porto Carthago ships
are loaded, palace seats are bought and nobody ends without a trade point; in Constantinopolis
every player ends with a fair share of fame. The bots' own taste (the benchmarks' chooser)
plays none of that, which is why the demo does not use it."""

from __future__ import annotations

import random

import pytest

from referee import registry
from referee.bots import make_bot
from referee.playthrough import replay, same_state

from ..marks import slow

NAMES = ["ann", "bob", "cid", "dee"]
SEEDS = ["d1", "d2"]
LEAST_FAME = 25  # Constantinopolis: the fame of the last player, whatever the seat


def play(name: str, seed: str) -> tuple[dict, dict[str, int]]:
    """A whole four-player game of planning bots choosing as the fast level, through the text
    each would mail; its scores and how often each kind of event happened."""
    game = registry.get(name)
    bots = {p: make_bot(name, "plans", f"{seed}/{p}", chooser="fast") for p in NAMES}
    state = game.setup(NAMES, seed, {}, game.load_components(None))
    pick = random.Random(seed)
    kinds: dict[str, int] = {}
    log: list[tuple[str, str]] = []
    while game.prompts(state):
        prompts = game.prompts(state)
        player = pick.choice(prompts).player if prompts[0].simultaneous else prompts[0].player
        text = bots[player].mail(game, state, player)
        state, events = game.apply(state, player, game.parse(state, player, text))
        log.append((player, text))
        for event in events:
            kinds[event.kind] = kinds.get(event.kind, 0) + 1
    assert same_state(replay(game, NAMES, seed, {}, log), state)
    return game.result(state).scores, kinds


@slow
@pytest.mark.parametrize("seed", SEEDS)
def test_porto_carthago_bots_load_ships_and_take_palace_seats(seed):
    scores, kinds = play("porto-carthago", seed)
    assert sum(s["bought_seats"] for s in scores.values()) > 0, scores
    assert all(s["trade_points"] > 0 for s in scores.values()), scores
    assert kinds.get("loading", 0) >= 5, kinds


@slow
@pytest.mark.parametrize("seed", SEEDS)
def test_constantinopolis_bots_spread_fame_as_players_do(seed):
    scores, _ = play("constantinopolis", seed)
    assert min(s["fame"] for s in scores.values()) >= LEAST_FAME, scores
