import pytest
from collections import Counter

from games.porto_carthago import GAME
from games.porto_carthago.components import builtin_raw
from referee.contract import ComponentError

from .helpers import new


def test_builtin_set_loads_and_is_recorded_in_the_state():
    comp = GAME.load_components(None)
    assert comp["meta"]["name"] == "porto-carthago-builtin"
    assert len(comp["meta"]["sha256"]) == 64
    state = new()
    assert state["components"] == {k: comp["meta"][k] for k in ("name", "version", "sha256")}


def test_every_value_is_tagged_as_the_reference_classifies_it():
    raw = builtin_raw()
    tags = {k: v["tag"] for k, v in raw.items() if isinstance(v, dict) and "tag" in v}
    for key in ("ship_cards", "civilizations", "goods", "action_slots", "palace_fields", "intrigue_path",
                "action_cards"):
        assert tags[key] == "placeholder", key
    for key in ("starting_money", "ship_rows_extra"):
        assert tags[key] == "inferred", key
    for key in ("danger_distribution", "market_size", "goods_prices", "palace_big_field", "final_seat", "storage"):
        assert tags[key] == "certain", key


def test_placeholder_deck_meets_every_stated_constraint():
    cards = list(GAME.load_components(None)["ship_cards"].values())
    assert len(cards) == 30
    assert Counter(c["danger"] for c in cards) == {1: 7, 2: 6, 3: 6, 4: 5, 5: 4, 6: 2}
    assert len({c["civilization"] for c in cards}) == 6
    assert Counter(c["good"] for c in cards) == {g: 6 for g in ["G1", "G2", "G3", "G4", "G5"]}
    for civ in {c["civilization"] for c in cards}:
        assert sorted(c["good"] for c in cards if c["civilization"] == civ) == ["G1", "G2", "G3", "G4", "G5"]
    assert sorted(Counter(c["privilege"] for c in cards).values()) == [3, 3, 4, 4, 4, 4, 4, 4]


def test_a_moderator_set_is_validated_and_every_problem_listed():
    raw = builtin_raw()
    raw["ship_cards"]["value"][0]["danger"] = 6
    raw["ship_cards"]["value"][1]["good"] = "Purple"
    raw["goods"]["tag"] = "guess"
    del raw["palace_fields"]
    with pytest.raises(ComponentError) as err:
        GAME.load_components(raw)
    text = " | ".join(err.value.problems)
    assert "palace_fields" in text and "guess" in text
    raw = builtin_raw()
    raw["ship_cards"]["value"][0]["danger"] = 6
    raw["ship_cards"]["value"][1]["good"] = "Purple"
    with pytest.raises(ComponentError) as err:
        GAME.load_components(raw)
    assert any("Purple" in p for p in err.value.problems)
    assert any("danger counts" in p for p in err.value.problems)


def test_a_corrected_set_changes_the_recorded_hash():
    raw = builtin_raw()
    raw["ship_cards"]["value"][0]["yield"] = 11
    raw["version"] = "2"
    comp = GAME.load_components(raw)
    assert comp["meta"]["sha256"] != GAME.load_components(None)["meta"]["sha256"]
    state = GAME.setup(["A", "B", "C"], "s", {}, comp)
    assert state["components"]["version"] == "2"


def test_not_an_object_is_refused():
    with pytest.raises(ComponentError):
        GAME.load_components([1, 2])


def test_a_different_valid_set_plays_to_the_end():
    from referee.rng import Rng
    raw = builtin_raw()
    raw["palace_fields"]["value"] = [[4, 1], [8, 3]]
    raw["intrigue_path"]["value"] = {"length": 5, "scoring": {"3": [2], "5": [3, 1]}}
    raw["action_slots"]["value"] = [{"cost": c, "side": side} for c, side in
                                    [(0, "palace"), (0, "none"), (1, "expand_storage"), (1, "none"), (3, "palace"), (2, "none")]]
    raw["civilizations"]["value"] = ["Egypt", "Greece", "Rome", "Persia", "Iberia", "Numidia"]
    names = dict(zip(["C1", "C2", "C3", "C4", "C5", "C6"], raw["civilizations"]["value"]))
    for card in raw["ship_cards"]["value"]:
        card["civilization"] = names[card["civilization"]]
    comp = GAME.load_components(raw)
    for seed in range(5):
        state = GAME.setup(["A", "B", "C", "D", "E"], f"custom-{seed}", {}, comp)
        bots = Rng.from_seed(f"custom-{seed}", "bots")
        while GAME.prompts(state):
            p = GAME.prompts(state)[0].player
            menu = GAME.legal_orders(state, p)
            o = menu[bots.randbelow(len(menu))]
            assert GAME.parse(state, p, GAME.format(o)) == [o]
            state, _ = GAME.apply(state, p, [o])
            assert GAME.check(state) == []
        assert GAME.result(state) is not None
