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

PINS = [  # rules version 2: the Consul is asked on open facts, so games without public gold changed
    (2, {}, 147, "80e006db9c7007a52258fb76dfdfa956fcb8732af4409eff418745d749a3f53f"),
    (3, {}, 236, "b44374d15a39197c20cc1231f92930b2fa3dc757c3a7f0ade5b0f187bba8916b"),
    (4, {}, 288, "50e4db975ae1d506688037ad72cc82aacb6e3f9e244fb6de6c04f69339b10443"),
    (5, {}, 407, "92b91e86d1c1f2e5aeeba1b6c227a26133bba6490e37fe60a173a2944f948211"),
    (3, {"free_trade": True, "market_reshuffle": "facedown"}, 273,
     "3efd3f9c6baf9bd87bd970cafe75ed9da00a03274b1b1400262d61dc1232c5f4"),
    (4, {"taberna_one_type": True, "produce_since_round_start": True, "public_gold": True}, 263,
     "123e53fb924917969d71bd201308b51b3aed3647abc0ad797d2cae05bd688b33"),
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
