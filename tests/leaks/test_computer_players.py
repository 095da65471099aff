"""A computer player decides from what its seat may see, never from another player's
secrets: a whole game of each title played by computer players, and at every decision of
theirs the same decision made again on positions where another player's secrets differ
(hidden.py: gold or money, hands and contracts loaded in secret, the decks' order, the
goods in the bag, defend limits, queued orders, the seeded streams). The choice must be the
same, line for line.

The decisions go through the path the referee takes (`observe` on the position it holds,
then `decide`); the fast level decides every time, the strong level (which samples several
worlds and plays them out) at every STRONG_EVERY-th decision as well, so that both levels
are held to it without the test taking an hour.
"""

from __future__ import annotations

import random

import pytest

from referee import registry
from referee.computer import decide, observe
from referee.computer.arena import play_match
from referee.storage import fingerprint

from .hidden import HIDE

GAMES = 1  # whole games per title
STRONG_EVERY = 7
PLAYERS = ("ann", "bob", "cid", "dee")


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(HIDE))
def test_a_computer_players_choice_ignores_the_others_secrets(name):
    game = registry.get(name)
    components = game.load_components(None)
    counted = {"fast": 0, "strong": 0, "decisions": 0}

    def again(game_, state, player, level, seed, lines):
        counted["decisions"] += 1
        rng = random.Random(f"{name} {seed}")
        checks = [("fast", seed, lines)]
        if counted["decisions"] % STRONG_EVERY == 0:
            checks.append(("strong", seed, decide(game, observe(game, state, player, components), "strong", seed)))
        for other in rng.sample([p for p in PLAYERS if p != player], 2):
            changed = HIDE[name](state, player, other, rng)
            assert fingerprint(game.view(changed, player)) == fingerprint(game.view(state, player))
            for level, same_seed, expected in checks:
                got = decide(game, observe(game, changed, player, components), level, same_seed)
                assert got == expected, (name, seed, player, other, level, expected, got)
                counted[level] += 1

    for n in range(GAMES):
        match = play_match(game, {p: "fast" for p in PLAYERS}, f"fair-{name}-{n}", watch=again)
        assert match.result is not None
    assert counted["fast"] > 200 and counted["strong"] > 20, counted
