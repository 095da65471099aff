"""Pinned random games: the exact final position, order log and result of a few seeded
playthroughs. Speed work on the engine must leave every game exactly as it was; a change of
the rules shows up here and needs a new `rules_version` and new pins."""

import hashlib

import pytest

from games.constantinopolis import GAME
from games.constantinopolis.state import clone
from referee.contract import canonical_json
from referee.playthrough import play

NAMES = ["ann", "bob", "cid", "dee", "eve"]

PINS = [  # rules version 3: the state records rules version 3 and the ships_public option, and
    # the free-trade game's menus offer `withdraw`; every other game plays exactly as under
    # version 2 (rules version 2: the Consul is asked on open facts)
    (2, {}, 147, "70fe5f28c86457fd048de3b74f477af54697ccc5a38b23b5a268e5b8ac1c7c67"),
    (3, {}, 236, "1d7b68a7568ebdc5308fa379a3fa8e0d7e13f229a870b190d9992af79b5467cd"),
    (4, {}, 288, "1634407f0e7df48de203f7b003e589d30de959199c2cd42de97973d6ae7010c0"),
    (5, {}, 407, "2710ae72dd83201cab7c1c040c33ea86ed46ad4dae0ad27c8f2c1bc8e63c807d"),
    (3, {"free_trade": True, "market_reshuffle": "facedown"}, 268,
     "cbe87354ed11f55e78ade063296cb1e20a1d5137f5233433cc5689a0ed52a0db"),
    (4, {"taberna_one_type": True, "produce_since_round_start": True, "public_gold": True}, 263,
     "5aff4e4fc519207f9d14802d86532a8d7c46cd729defa30138a57d14d15a9360"),
]


@pytest.mark.parametrize("players,options,steps,digest", PINS)
def test_pinned_playthrough(players, options, steps, digest):
    pt = play(GAME, NAMES[:players], f"pin-{players}", options)
    text = canonical_json({"state": pt.state, "log": pt.log, "result": pt.result.to_json()})
    assert pt.steps == steps
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == digest


def _containers(value, path="state"):
    if isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            yield from _containers(v, f"{path}.{k}")
    elif isinstance(value, list):
        yield path, value
        for i, v in enumerate(value):
            yield from _containers(v, f"{path}[{i}]")


def test_clone_shares_no_container_with_its_source():
    """`clone` takes shortcuts for the layout it knows; whatever the position, the copy must be
    equal and must not share a single dict or list with the original."""
    seen_phases = set()

    def probe(pt):
        st = pt.state
        seen_phases.add(st["phase"])
        copy = clone(st)
        assert copy == st and list(copy) == list(st)
        mine = {id(c) for _, c in _containers(st)}
        shared = [path for path, c in _containers(copy) if id(c) in mine]
        assert not shared, shared

    play(GAME, NAMES[:4], "clone", {"free_trade": True}, on_step=probe)
    assert {"auction", "construct", "accept", "store", "over"} <= seen_phases


def test_clone_of_an_unknown_layout_is_deep():
    st = GAME.setup(NAMES[:2], "clone", {}, GAME.load_components(None))
    st["extra"] = {"nested": [[1], {"a": [2]}]}
    st["p"]["ann"]["extra"] = [[3]]
    st["p"]["ann"]["ships"][0]["log"] = [[4]]
    st["p"]["ann"]["r"]["notes"] = {"b": [5]}
    copy = clone(st)
    assert copy == st
    mine = {id(c) for _, c in _containers(st)}
    assert not [path for path, c in _containers(copy) if id(c) in mine]
