import pytest

from referee.contract import IllegalOrder

from .helpers import (at_actions, decision, di, do, free_all_docks, give, own_dock, seat, sound, store, who)


def base():
    """Ann to act; no docks; Ann's storage holds G1."""
    s = store(free_all_docks(at_actions()), "Ann", "G1")
    return sound(s)


def test_take_three_talents_ends_the_turn():
    s = base()
    s2, _ = do(s, "TALENTS")
    assert s2["money"][0] == s["money"][0] + 3 and who(s2) == "Bob"


def test_captain_occupies_a_free_charter_ship_with_an_extra_servant():
    s, _ = do(base(), "CAPTAIN 1")
    assert s["charter"].count(0) == 1 and s["supply"][0] == 15
    full = base()
    full["charter"] = [1, 1, 1, 1]
    full["supply"][1] -= 4
    with pytest.raises(IllegalOrder):
        do(full, "CAPTAIN 1")


def test_slot_cost_is_paid_onto_the_card_and_must_be_affordable():
    s, _ = do(base(), "ARISTOCRAT 2 LIGHTHOUSE +3 TEMPLE +2")
    assert (s["light"][0], s["temple"][0], s["supply"][0]) == (3, 2, 10)
    assert s["on_card"][1][0] == 1
    poor = give(base(), "Ann", supply=2, temple=14)
    with pytest.raises(IllegalOrder, match="costs 3"):
        do(poor, "PORTER 6 STORAGE G1 TO CHARTER")


def test_aristocrat_moves_at_most_five_in_any_direction():
    with pytest.raises(IllegalOrder):
        do(base(), "ARISTOCRAT 2 LIGHTHOUSE +4 TEMPLE +2")
    s = give(base(), "Ann", light=3, temple=1)
    s, _ = do(s, "ARISTOCRAT 2 LIGHTHOUSE -3 TEMPLE +2")
    assert (s["light"][0], s["temple"][0]) == (0, 3)


def test_side_action_expand_storage_after_the_main_action():
    s, _ = do(base(), "ARISTOCRAT 2 LIGHTHOUSE +1")
    assert decision(s) == "action.after" and who(s) == "Ann"
    s, _ = do(s, "EXPAND")
    assert s["blocked"][0] == 1 and s["money"][0] == 8 and s["supply"][0] == 15 - 1 + 1
    assert who(s) == "Bob"
    sound(s)


def test_storage_expands_to_four_spaces_at_most():
    s = give(base(), "Ann", blocked=0, supply=18)
    s, _ = do(s, "ARISTOCRAT 2 LIGHTHOUSE +1")
    assert who(s) == "Bob"  # nothing optional left, so the turn ended


def test_choosing_a_card_only_for_its_side_action():
    s = give(base(), "Ann", tp=2)
    s, _ = do(s, "SIDE 4")
    assert s["on_card"][3][0] == 2 and decision(s) == "action.after"
    s, _ = do(s, "PALACE")
    assert s["palace"][0] == 0 and s["money"][0] == 14 - 5
    with pytest.raises(IllegalOrder):
        do(base(), "SIDE 1")


def test_palace_side_action_needs_the_cheapest_fields_trade_points():
    s = give(base(), "Ann", tp=1)
    s, _ = do(s, "SIDE 4")
    assert who(s) == "Bob"  # palace impossible, so no after step
    s = give(base(), "Ann", tp=1)
    s["act"]["main"], s["act"]["slot"] = True, 4
    with pytest.raises(IllegalOrder, match="trade points"):
        do(s, "PALACE")


def test_loadmaster_occupy_switch_and_dissolve():
    s, _ = do(base(), "LOADMASTER 3 OCCUPY C2-I")
    assert s["dock_o"][di(s, "C2-I")] == 0 and s["supply"][0] == 16 - 1 - 2
    s = own_dock(base(), "Ann", "C2-I", good="G3")
    s2, _ = do(s, "LOADMASTER 3 SWITCH C2-I TO C4-II")
    assert s2["dock_o"][di(s2, "C4-II")] == 0 and s2["dock_g"][di(s2, "C4-II")] == "G3"
    assert s2["dock_o"][di(s2, "C2-I")] is None
    s3, _ = do(s, "LOADMASTER 3 DISSOLVE C2-I")
    assert s3["dock_o"][di(s3, "C2-I")] is None and s3["supply"][0] == s["supply"][0] - 1 + 2
    assert len(s3["bag"]) == len(s["bag"]) + 1
    sound(s3)
    with pytest.raises(IllegalOrder):
        do(own_dock(base(), "Bob", "C1-I"), "LOADMASTER 3 OCCUPY C1-I")


def test_merchant_prices_4_3_2_over_all_players_reset_by_a_refill():
    s = base()
    s["bag"].extend(s["market"])
    s["market"] = ["G2", "G2", "G3", "G3", "G4", "G5"]
    for g in ("G2", "G2", "G3", "G3", "G4", "G5"):
        s["bag"].remove(g)
    paid = []
    for _ in range(4):
        p = who(s)
        before = s["money"][seat(s, p)]
        s, _ = do(s, f"MERCHANT 4 {s['market'][0]}")
        if decision(s) == "action.after":
            s, _ = do(s, "DONE")
        paid.append(before - s["money"][seat(s, p)])
    assert paid == [4, 3, 2, 2]
    s, _ = do(s, "REFILL")
    assert s["bought"] == 0 and len(s["market"]) == 6
    sound(s)


def test_refill_alternative_may_buy_one_good_for_six():
    s, _ = do(base(), "REFILL")
    assert decision(s) == "market.refill_buy"
    g = s["market"][0]
    s2, _ = do(s, f"BUY {g}")
    assert s2["money"][0] == 14 - 6 and g in s2["store"][0] and s2["bought"] == 0
    s3, _ = do(s, "PASS")
    assert who(s3) == "Bob"


def test_porter_moves_between_storage_and_own_docks():
    s = own_dock(base(), "Ann", "C2-I")
    s = own_dock(s, "Ann", "C3-I")
    s1, _ = do(s, "PORTER 5 STORAGE G1 TO C2-I")
    assert s1["dock_g"][di(s1, "C2-I")] == "G1" and s1["store"][0] == []
    s1["act"]["i"] = 0
    s1["act"]["main"] = False
    s2, _ = do(s1, "PORTER 5 C2-I TO C3-I")
    assert s2["dock_g"][di(s2, "C3-I")] == "G1"
    s2["act"]["i"], s2["act"]["main"] = 0, False
    s3, _ = do(s2, "PORTER 5 C3-I TO STORAGE")
    assert s3["store"][0] == ["G1"]
    with pytest.raises(IllegalOrder):
        do(own_dock(base(), "Bob", "C2-I"), "PORTER 5 STORAGE G1 TO C2-I")
    sound(s3)


def test_five_action_rounds_then_the_next_decade():
    from .helpers import run
    s = at_actions()
    s = run(s, lambda x: x["decade"] == 2)
    assert s["decade"] == 2


def test_action_cards_are_relaid_and_servants_on_them_return():
    from .helpers import run
    s = at_actions()
    s, _ = do(s, "ARISTOCRAT 2 LIGHTHOUSE +1")
    assert s["on_card"][1][0] == 1
    s = run(s, lambda x: x["decade"] == 2 and x["stage"] == "actions")
    assert all(c[0] == 0 for c in s["on_card"])
    assert sorted(s["slots"]) == sorted(["captain", "aristocrat", "loadmaster", "merchant", "porter", "porter"])


def test_each_decade_refills_the_market_and_resets_the_price_counter():
    from games.porto_carthago.flow import refresh
    s = at_actions()
    s["deck"].extend(s["row1"])
    s["row1"], s["decade"] = [], 2
    s["bag"].extend(s["market"][:3])
    del s["market"][:3]
    s["bought"] = 2
    refresh(s, [])
    assert len(s["market"]) == 6 and s["bought"] == 0
    sound(s)


def test_decade_one_keeps_the_first_start_player():
    from .helpers import new, run
    s = run(new(start_player="Cid"), lambda x: x["stage"] == "actions")
    assert s["players"][s["start"]] == "Cid" and who(s) == "Cid"
