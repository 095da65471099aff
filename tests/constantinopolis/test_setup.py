"""Setup for 2 to 5 players and the FAQ answers not tied to one phase."""

import pytest

from games.constantinopolis import GAME, end_of_round, production
from games.constantinopolis.components import OFFICES

from .util import DATA, at_construct, do, give_goods, new, seat


@pytest.mark.parametrize("n,each,commercial", [(2, 1, 1), (3, 2, 2), (4, 2, 2), (5, 2, 3)])
def test_building_supply_by_player_count(n, each, commercial):
    st = new(tuple("abcde"[:n]))
    assert st["supply"]["Metallum"] == each and st["supply"]["Caupona"] == commercial
    assert st["supply"]["Horreum"] == commercial
    assert len(st["publics"]) == 8 and len(st["walls"]) == 6  # always all of them
    assert st["ships"] == {"small": 9 - n, "medium": 8, "large": 5}


def test_players_start_with_30_gold_a_small_ship_and_random_offices():
    seen = set()
    for seed in range(12):
        st = GAME.setup(["a", "b", "c"], f"s{seed}", {}, GAME.load_components(None))
        for p in st["p"].values():
            assert p["gold"] == 30 and [s["size"] for s in p["ships"]] == ["small"] and p["fame"] == 0
        # offices I..N are filled from the left
        assert [st["offices"][o] is not None for o in OFFICES] == [True, True, True, False, False]
        seen.add(tuple(st["offices"][o] for o in OFFICES[:3]))
        assert len(st["market"]["current"]) == 1 and len(st["market"]["future"]) == 4
        assert len(st["deck"]) == 106 and GAME.check(st) == []
    assert len(seen) > 1


def test_same_seed_same_game():
    a = GAME.setup(["a", "b"], "x", {}, GAME.load_components(None))
    b = GAME.setup(["a", "b"], "x", {}, GAME.load_components(None))
    assert a == b


def test_faq_goods_may_be_discarded_on_purpose():
    st = new(("a", "b"))
    st = at_construct(seat(st, {"magister": "a", "pretorio": "b"}))
    give_goods(st, "a", green=2)
    st, _ = do(st, "a", "discard 1 green")
    assert st["p"]["a"]["goods"]["green"] == 1 and GAME.check(st) == []


def test_faq_no_limit_on_building_spaces():
    st = new(("a", "b"))
    st = at_construct(seat(st, {"magister": "a", "pretorio": "b"}))
    st["p"]["a"]["gold"] = 500
    names = [b for b, i in DATA["buildings"].items() if i["kind"] in ("commercial", "utility")]
    for b in names:
        st["supply"][b] -= 1
        st["p"]["a"]["buildings"].append(b)
    st, _ = do(st, "a", "build pistrinum\nbuild public 6")
    assert len(st["p"]["a"]["buildings"]) == len(names) + 1


def test_draw_reshuffles_the_discards_when_the_deck_is_empty():
    st = new(("a", "b"))
    st["discard"], st["deck"] = st["deck"][:-1], st["deck"][-1:]
    st["order"] = ["a", "b"]
    st["offices"]["magister"] = None
    production.draw_phase(st, [])
    assert len(st["p"]["a"]["hand"]) == 1 and len(st["p"]["b"]["hand"]) == 1
    assert st["reshuffles"] == 1 and GAME.check(st) == []


def test_change_markets_example():
    st = new(("greg", "jen", "kay"))
    names = [m["name"] for m in DATA["markets"]]
    forum, aurea, opif, domus, portus = (next(i for i, n in enumerate(names) if w in n)
                                         for w in ("Forum", "Aurea", "Opificies", "Domus", "Portus"))
    st["market"]["current"] = [domus, portus, forum]
    st["market"]["future"] = [opif, aurea]  # Porta Aurea on top
    st["phase"] = "donate"
    end_of_round.end_of_round(st, [])
    assert st["market"]["current"][-1] == aurea and st["market"]["future"] == [opif]
    st["phase"] = "donate"
    end_of_round.end_of_round(st, [])
    assert st["market"]["current"] == [opif] and sorted(st["market"]["future"]) == sorted([domus, portus, forum, aurea])
    assert st["market"]["empties"] == 1
