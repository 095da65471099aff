import pytest

from games.porto_carthago import GAME
from referee.contract import Game, IllegalOrder, SetupError
from referee import registry

from .helpers import P3, P4, P5, decision, do, new, run, seat, sound, who


def test_the_game_is_registered_and_satisfies_the_contract():
    assert isinstance(GAME, Game)
    assert registry.get("porto-carthago") is GAME
    assert (GAME.min_players, GAME.max_players) == (3, 5)


@pytest.mark.parametrize("players,market", [(P3, 4), (P4, 6), (P5, 6)])
def test_setup_market_rows_and_servants(players, market):
    s = sound(new(players))
    n = len(players)
    assert len(s["market"]) == market and len(s["bag"]) == 30 - market
    assert len(s["row1"]) == n + 1 and len(s["row2"]) == n + 1 and len(s["deck"]) == 30 - 2 * (n + 1)
    assert s["supply"] == [16] * n and s["blocked"] == [2] * n and s["money"] == [0] * n


def test_wrong_player_counts_and_options_are_refused():
    with pytest.raises(SetupError):
        new(["A", "B"])
    with pytest.raises(SetupError):
        new(P3 + ["D", "E", "F"])
    with pytest.raises(SetupError):
        GAME.setup(P3, "s", {"colour": 1}, GAME.load_components(None))
    with pytest.raises(SetupError):
        GAME.setup(P3, "s", {"start_player": "Zed"}, GAME.load_components(None))


def test_random_start_player_comes_from_the_seed():
    starts = {GAME.setup(P4, f"s{i}", {}, GAME.load_components(None))["start"] for i in range(20)}
    assert len(starts) > 1
    assert GAME.setup(P4, "x", {}, GAME.load_components(None))["start"] == GAME.setup(P4, "x", {}, GAME.load_components(None))["start"]


def test_optional_dock_round_clockwise_then_compulsory_round_in_reverse():
    s = new(P4, start_player="Bob")
    order = []
    for _ in range(4):
        assert decision(s) == "setup.optional_dock"
        order.append(who(s))
        s, _ = do(s, "PASS")
    assert order == ["Bob", "Cid", "Dee", "Ann"]
    order = []
    for k in range(4):
        assert decision(s) == "setup.compulsory_dock"
        order.append(who(s))
        good = s["market"][0]
        s, _ = do(s, f"OCCUPY C{k + 1}-I TAKE {good}")
        assert good in s["store"][seat(s, order[-1])]
    assert order == ["Ann", "Dee", "Cid", "Bob"]
    assert s["supply"] == [14] * 4 and s["stage"] == "actions"
    sound(s)


def test_compulsory_round_needs_a_good_and_a_free_dock():
    s = new(P3)
    s, _ = do(s, "OCCUPY C1-I")
    assert s["dock_o"][0] == 0 and s["supply"][0] == 14
    s, _ = do(s, "PASS")
    s, _ = do(s, "PASS")
    with pytest.raises(IllegalOrder):
        do(s, "PASS")
    with pytest.raises(IllegalOrder):
        do(s, f"OCCUPY C1-I TAKE {s['market'][0]}")
    with pytest.raises(IllegalOrder):
        do(s, "OCCUPY C2-I")


def refusal(state: dict, text: str) -> str:
    with pytest.raises(IllegalOrder) as caught:
        do(state, text)
    return caught.value.message


def test_a_refused_dock_order_says_which_rule_it_breaks():
    s = new(P3)
    assert refusal(s, f"OCCUPY C1-I TAKE {s['market'][0]}") == "no good is taken in this round"
    s, _ = do(s, "OCCUPY C1-I")
    s, _ = do(s, "PASS")
    s, _ = do(s, "PASS")
    assert refusal(s, f"OCCUPY C1-I TAKE {s['market'][0]}") == "dock C1-I is already owned"
    assert refusal(s, "OCCUPY C2-I") == "this round also takes one good from the market into your storage"
    missing = next(g for g in ("G1", "G2", "G3", "G4", "G5") if g not in s["market"])
    assert refusal(s, f"OCCUPY C2-I TAKE {missing}") == f"there is no {missing} in the market"


def test_a_queued_order_that_no_longer_fits_gives_each_reason_once():
    """The alternatives refused for one reason are named together, each reason said once,
    and no alternative is written twice."""
    s = new(P3)
    s, _ = do(s, "PASS")  # Ann
    market = list(s["market"])
    gone = next(g for g in ("G1", "G2", "G3", "G4", "G5") if g not in market)
    # Bob answers now and queues his compulsory dock: C1-I (Cid takes it first) or a good the market lacks
    s, _ = do(s, f"PASS\nOCCUPY C1-I TAKE {market[0]} or C1-I TAKE {market[-1]} or C2-I TAKE {gone} "
                 f"or C3-I TAKE {gone}", "Bob")
    s, _ = do(s, "OCCUPY C1-I", "Cid")
    s, events = do(s, f"OCCUPY C4-I TAKE {market[1]}", "Cid")  # the compulsory round runs back: Cid, Bob, Ann
    assert who(s) == "Bob" and decision(s) == "setup.compulsory_dock" and s["queue"]["Bob"] == []
    told = [e.text for e in events if e.kind == "queue" and e.to == ("Bob",)]
    assert told == [f"Your queued order no longer fits (OCCUPY C1-I TAKE {market[0]} or C1-I TAKE {market[-1]}: that "
                    f"dock is taken; OCCUPY C2-I TAKE {gone} or C3-I TAKE {gone}: there is no {gone} in the market); "
                    "the rest of your queue is dropped and you are asked."]


def test_after_setup_each_player_has_one_or_two_docks_and_one_good():
    s = new(P3)
    s, _ = do(s, "OCCUPY C1-I")
    s = run(s, lambda x: x["stage"] == "actions")
    assert [len(x) for x in s["store"]] == [1, 1, 1]
    assert s["dock_o"].count(0) in (1, 2)
    sound(s)


def test_phase_keys_change_with_every_decision():
    s = new()
    keys = set()
    for _ in range(30):
        keys.add(GAME.phase(s).key)
        p = who(s)
        s, _ = GAME.apply(s, p, GAME.default_orders(s, p))
    assert len(keys) == 30


def test_default_orders_are_legal_and_drop_is_refused():
    s = new()
    while GAME.prompts(s):
        p = who(s)
        orders = GAME.default_orders(s, p)
        assert orders and orders[0] in GAME.legal_orders(s, p)
        assert GAME.default_orders(s, [q for q in s["players"] if q != p][0]) == []
        s, _ = GAME.apply(s, p, orders)
    with pytest.raises(IllegalOrder):
        GAME.drop(s, "Ann")


def test_orders_after_the_end_are_refused():
    from .helpers import run
    s = run(new(), lambda x: x["stage"] == "over", limit=5000)
    assert GAME.prompts(s) == [] and GAME.legal_orders(s, "Ann") == []
    with pytest.raises(IllegalOrder):
        GAME.apply(s, "Ann", [GAME.parse(s, "Ann", "TALENTS")[0]])
