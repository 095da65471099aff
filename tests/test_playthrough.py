
import pytest

from referee.contract import Game
from referee.playthrough import PlaythroughError, play, replay, same_state

from .race import GAME, Race


def test_the_test_game_satisfies_the_contract():
    assert isinstance(GAME, Game)


def test_a_checked_playthrough_ends_with_a_result_and_replays():
    pt = play(GAME, ["a", "b", "c"], "seed-1", checks=True)
    assert pt.result is not None and pt.state["total"] >= 21
    assert len(pt.log) == pt.steps
    assert same_state(replay(GAME, ["a", "b", "c"], "seed-1", {}, pt.log), pt.state)


def test_playthroughs_are_reproducible_from_the_seed():
    assert play(GAME, ["a", "b"], "s").log == play(GAME, ["a", "b"], "s").log
    assert play(GAME, ["a", "b"], "s").log != play(GAME, ["a", "b"], "t").log


def test_the_harness_catches_an_engine_that_mutates_its_input():
    class Mutating(Race):
        def apply(self, state, player, orders):
            new, events = super().apply(state, player, orders)
            state["total"] = new["total"]
            return new, events

    with pytest.raises(PlaythroughError, match="mutated"):
        play(Mutating(), ["a", "b"], "s", checks=True)


def test_the_harness_catches_a_broken_round_trip():
    class Sloppy(Race):
        def format(self, order):
            return f"ADD {order.args['n'] + 1}"

    with pytest.raises(PlaythroughError, match="parses to"):
        play(Sloppy(), ["a", "b"], "s", checks=True)


def test_the_harness_catches_a_broken_invariant():
    class Broken(Race):
        def check(self, state):
            return ["always broken"]

    with pytest.raises(PlaythroughError, match="always broken"):
        play(Broken(), ["a", "b"], "s", checks=True)


def test_the_harness_catches_a_prompt_without_orders():
    class Stuck(Race):
        def legal_orders(self, state, player):
            return []

    with pytest.raises(PlaythroughError, match="no legal order"):
        play(Stuck(), ["a", "b"], "s")


@pytest.mark.parametrize("odd", [(1, 2), {1: "a"}, float("nan")], ids=["tuple", "int key", "nan"])
def test_the_harness_catches_a_state_that_json_does_not_keep(odd):
    class Odd(Race):
        def apply(self, state, player, orders):
            new, events = super().apply(state, player, orders)
            return dict(new, odd=odd), events

    with pytest.raises((PlaythroughError, TypeError), match="round trip|not str|str"):
        play(Odd(), ["a", "b"], "s", checks=True)


def test_a_fingerprint_tells_values_apart_and_spells_big_integers():
    from referee.storage import fingerprint

    assert fingerprint({"b": 1, "a": [1, 2]}) == fingerprint({"a": [1, 2], "b": 1})
    assert len({fingerprint(v) for v in ({"a": 1}, {"a": 1.0}, {"a": True}, {"a": "1"}, {"a": [1]})}) == 5
    assert fingerprint({"counter": 2**70}) != fingerprint({"counter": 2**70 + 1})
