"""Random complete games for 2 to 5 players: invariants after every step, JSON round trips,
canonical text that parses back, and replay from the text log to the same final state."""

import pytest

from games.constantinopolis import GAME
from referee.playthrough import play, replay, same_state

from ..marks import chunks

SEEDS = 200
CHUNK = 25


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("chunk", chunks(SEEDS // CHUNK))
def test_random_playthroughs(players, chunk):
    names = ["ann", "bob", "cid", "dee", "eve"][:players]
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        pt = play(GAME, names, f"seed-{seed}", checks=True)
        res = pt.result
        assert res is not None and res.winners
        assert 1 <= pt.state["round"] <= 9
        assert GAME.prompts(pt.state) == []
        if seed % 10 == 0:
            assert same_state(replay(GAME, names, pt.seed, {}, pt.log), pt.state)


def test_registry_finds_the_game():
    from referee import registry
    from referee.contract import Game
    assert isinstance(GAME, Game)
    assert registry.get("constantinopolis") is GAME
