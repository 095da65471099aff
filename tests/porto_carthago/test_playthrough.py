import pytest

from games.porto_carthago import GAME
from referee.playthrough import play, replay, same_state

from ..marks import chunks, slow
from .helpers import P3, P4, P5


@pytest.mark.parametrize("players", [P3, P4, P5], ids=["3p", "4p", "5p"])
@pytest.mark.parametrize("chunk", chunks(4))
def test_random_playthroughs_keep_every_invariant(players, chunk):
    for i in range(chunk * 50, chunk * 50 + 50):
        pt = play(GAME, players, f"pc-{len(players)}-{i}", checks=True)
        assert pt.result is not None and pt.result.winners
        assert same_state(replay(GAME, players, pt.seed, {}, pt.log), pt.state)


@slow
@pytest.mark.parametrize("options", [{"final_arrival": "lighthouse"}, {"sixth_action": "merchant"}])
def test_playthroughs_with_options(options):
    for i in range(20):
        pt = play(GAME, P4, f"opt-{i}", options, checks=True)
        assert same_state(replay(GAME, P4, pt.seed, options, pt.log), pt.state)


def test_games_end_in_decade_five_or_early_in_four():
    ends = set()
    for i in range(30):
        pt = play(GAME, P4, f"end-{i}")
        ends.add(pt.state["decade"])
        assert pt.state["decade"] in (4, 5)
        if pt.state["decade"] == 4:
            assert max(pt.state["tp"]) >= 8
    assert 5 in ends
