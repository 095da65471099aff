"""The component data file: provenance tags, the reconstruction, moderator-supplied sets."""

import copy
import json
from collections import Counter
from importlib import resources

import pytest

from games.constantinopolis import GAME
from games.constantinopolis.components import BUILTIN, BUILTIN_RAW, TAGS
from referee.contract import ComponentError


def leaves(node, path=""):
    if isinstance(node, dict) and "value" in node and "tag" in node:
        yield path, node
        return
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, f"{path}[{i}]")


def test_every_value_is_tagged():
    for section in ("goods", "start", "ships", "production", "commercial", "utility", "public", "walls", "markets"):
        found = list(leaves(BUILTIN_RAW[section]))
        assert found, section
        assert all(node["tag"] in TAGS for _, node in found)
    deck = BUILTIN_RAW["contracts"]
    assert set(deck["column_tags"].values()) <= set(TAGS) and deck["reconstruction"] is True


def test_certain_values_match_the_rulebook():
    b = BUILTIN["buildings"]
    assert (b["Metallum"]["cost"], b["Metallum"]["licence"]) == (20, "B")
    assert b["Venatoris Domus"]["output"] == {"green": 1, "blue": 1}
    assert (b["Caupona"]["input"], b["Caupona"]["gold"], b["Caupona"]["fame"]) == ({"green": 2}, 4, 1)
    assert (b["Hospitium"]["gold"], b["Hospitium"]["fame"]) == (5, 0)
    assert [t["cost"] for t in BUILTIN["public"]] == [21, 24, 32, 36, 45, 50, 60, 66]
    assert BUILTIN["wall_fame"] == [1, 3, 6, 9, 12, 16]
    assert {s: (v["count"], v["cost"], v["capacity"], v["passengers"]) for s, v in BUILTIN["ships"].items()} == \
        {"small": (9, 6, 2, 0), "medium": (8, 9, 4, 1), "large": (5, 12, 8, 3)}
    forum = BUILTIN["markets"][0]
    assert forum["goods"]["green"] == {"limit": 2, "buy": 2, "sell": 1}
    assert forum["goods"]["black"]["limit"] == 0
    assert sum(t["tiles"] for t in b.values() if t["kind"] == "production") == 24
    assert sum(t["tiles"] for t in b.values() if t["kind"] == "commercial") == 18
    assert sum(t["tiles"] for t in b.values() if t["kind"] == "utility") == 12


def test_reconstructed_deck_fits_every_stated_fact():
    cards = BUILTIN["contracts"]
    assert len(cards) == 106
    goods = [c for c in cards if c["cargo"] != "passenger"]
    assert all(c["fame"] == 1 and c["voyage"]["small"] == 1 for c in goods)
    assert all(c["fame"] == 0 and c["voyage"]["small"] is None for c in cards if c["cargo"] == "passenger")
    # two thirds: medium ships make it in one round, large ships need two
    assert abs(sum(c["voyage"]["medium"] == 1 for c in cards) / 106 - 2 / 3) < 0.02
    assert abs(sum(c["voyage"]["large"] == 2 for c in cards) / 106 - 2 / 3) < 0.02
    demand = Counter(c["cargo"] for c in goods)
    assert demand["green"] > demand["blue"] > demand["red"] > demand["black"] > demand["yellow"]
    one = {c["gold"] for c in goods if c["amount"] == 1}
    two = {c["gold"] for c in goods if c["amount"] == 2}
    assert 10 in one  # Kay
    assert any(a + b == 12 for a in one for b in one)  # Greg
    assert any(a + b + c == 23 for a in two for b in two for c in one)  # Jen


def test_data_file_says_it_is_a_reconstruction():
    text = resources.files("games.constantinopolis").joinpath("data/components.json").read_text()
    assert "RECONSTRUCTION" in text


def test_bad_file_lists_every_problem():
    raw = copy.deepcopy(BUILTIN_RAW)
    raw["production"][0]["cost"]["tag"] = "guessed"
    raw["production"][1]["licence"]["value"] = "E"
    raw["contracts"]["rows"][0][3] = 2
    raw["walls"] = raw["walls"][:5]
    del raw["ships"]["large"]
    with pytest.raises(ComponentError) as e:
        GAME.load_components(raw)
    text = " | ".join(e.value.problems)
    assert len(e.value.problems) >= 5
    for bit in ("production[0].cost", "production[1].licence", "contracts.rows[0]", "walls", "ships.large"):
        assert bit in text


def test_moderator_set_is_used_recorded_and_replays():
    raw = copy.deepcopy(BUILTIN_RAW)
    raw["name"] = "corrected"
    raw["production"][0]["output"] = {"value": {"green": 2}, "tag": "certain"}
    comps = GAME.load_components(raw)
    assert comps["sha256"] != BUILTIN["sha256"] and comps["buildings"]["Pistrinum"]["output"] == {"green": 2}
    st = GAME.setup(["a", "b"], "mod", {}, comps)
    assert st["components"]["name"] == "corrected" and st["components"]["sha256"] == comps["sha256"]
    assert json.loads(json.dumps(st)) == st
    default = GAME.setup(["a", "b"], "mod", {}, GAME.load_components(None))
    assert default["components"]["sha256"] == BUILTIN["sha256"] and "component_data" not in default
