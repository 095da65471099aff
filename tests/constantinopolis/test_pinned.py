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

PINS = [
    (2, {}, 139, "c29d2d49ee07edc7bb95a50600340bef89dff68a17f98aa30ecab89c14e2f0fe"),
    (3, {}, 250, "c65cd86b434af14c9f3861f66c2b14279e9fe40b58d412322e4af8c896b21d8a"),
    (4, {}, 263, "d6b558faf8c5d322f90780b76cbf542e37545de5fa6483f51732db5199c65790"),
    (5, {}, 414, "d709f26234dd76abac14b5126bed7b21ca825bb388be1d0490a81d2773b3aab6"),
    (3, {"free_trade": True, "market_reshuffle": "facedown"}, 233,
     "bdaa6e3d2ef662369f3c016d34b90fe7775652ae0aaf86d759cdca74311a9d9d"),
    (4, {"taberna_one_type": True, "produce_since_round_start": True, "public_gold": True}, 263,
     "366e8e45582057106d9c0bb07d653cde4281e7688d8ca3f093bb60b317ca97d7"),
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
