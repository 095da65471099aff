"""One test per ambiguity of the rulebook text whose recommended reading the engine implements."""

import pytest

from games.porto_carthago import GAME
from games.porto_carthago.flow import refresh
from referee.contract import IllegalOrder

from .helpers import (P3, P4, at_actions, charter, decision, di, do, free_all_docks, give, hold, new, own_dock,
                      put_on_top, run, set_row1, settle, sound, store, who)


def base():
    return sound(store(free_all_docks(at_actions()), "Ann", "G1"))


def arrival_state(state, row1):
    s = set_row1(state, row1)
    s["stage"], s["act"] = "arrival", None
    return s


def test_a1_each_ship_row_holds_players_plus_one():
    for players in (P3, P4):
        s = new(players)
        assert len(s["row1"]) == len(s["row2"]) == len(players) + 1


def test_a2_first_dock_round_optional_second_compulsory():
    s = new(P3)
    for _ in range(3):
        s, _ = do(s, "PASS")
    assert decision(s) == "setup.compulsory_dock"
    with pytest.raises(IllegalOrder):
        do(s, "PASS")


def test_a3_starting_money_is_zero_until_income():
    assert new()["money"] == [0, 0, 0, 0]


def test_a4_lighthouse_ties_use_the_current_card_holder():
    s = arrival_state(give(give(free_all_docks(at_actions(P4, start_player="Dee")), "Ann", light=1), "Cid", light=1),
                      ["S01", "S06", "S11", "S16", "S21"])
    s, _ = settle(s)
    assert s["arr"]["ch"] == [0, 2]  # from Dee clockwise: Ann before Cid


def test_a5_a_chosen_ship_with_both_docks_taken_departs():
    s = free_all_docks(at_actions())
    s = own_dock(s, "Bob", "C1-I", ship="S02")
    s = own_dock(s, "Bob", "C1-II", ship="S03")
    s = arrival_state(give(s, "Ann", light=1), ["S01", "S06", "S11", "S16", "S21"])
    s, _ = settle(s)
    s, events = do(s, "DOCK S01")
    assert "S01" in s["deck"] and any(e.kind == "departure" for e in events)
    s, _ = do(s, "DOCK S06 II")
    assert s["dock_s"][di(s, "C2-II")] == "S06"


def test_a6_departures_go_under_the_deck_before_row_two_is_drawn():
    s = free_all_docks(at_actions())
    s["held"][3].extend(s["deck"])
    s["deck"] = []
    s = arrival_state(s, ["S01", "S02", "S03"] if "S01" not in s["row2"] else ["S04", "S05"])
    s["held"][3] = [c for c in s["held"][3] if c not in s["row1"]]
    s, _ = settle(s)
    assert "S03" in s["row2"] and s["deck"] == []
    sound(s)


def test_a7_phase_one_loadings_go_clockwise_from_the_start_player():
    s = free_all_docks(at_actions(P4, start_player="Cid"))
    s = own_dock(s, "Ann", "C1-I", good="G1")
    s = own_dock(s, "Cid", "C2-I", good="G1")
    s = arrival_state(s, ["S01", "S06"])
    s, _ = settle(s)
    assert [p["p"] for p in s["pending"] if p["t"] == "reward"] == [2, 0]


def test_a8_price_counter_is_global_and_the_six_talent_buy_does_not_move_it():
    s, _ = do(base(), "REFILL")
    s, _ = do(s, f"BUY {s['market'][0]}")
    assert s["bought"] == 0
    s, _ = do(s, f"MERCHANT 4 {s['market'][0]}", "Bob")
    assert s["bought"] == 1 and s["money"][1] == 14 - 4


def test_a9_the_sixth_action_card_is_an_option_defaulting_to_a_second_porter():
    s = run(new(), lambda x: x["stage"] == "actions")
    assert sorted(s["slots"]).count("porter") == 2
    s = run(new(sixth_action="captain"), lambda x: x["stage"] == "actions")
    assert sorted(s["slots"]).count("captain") == 2


def test_a10_slot_costs_and_side_actions_come_from_the_component_data():
    comp = GAME.load_components(None)
    assert [x["cost"] for x in comp["action_slots"]] == [0, 1, 1, 2, 2, 3]
    assert [x["side"] for x in comp["action_slots"]].count("palace") == 2


def test_a11_side_action_only_still_pays_the_slot_cost():
    s, _ = do(give(base(), "Ann", tp=2), "SIDE 6")
    assert s["on_card"][5][0] == 3


def test_a12_side_action_once_after_the_main_action_and_never_with_alternatives():
    s = own_dock(base(), "Ann", "C1-I", ship="S01")
    s = give(s, "Ann", tp=1, money=0)
    s, _ = do(s, "PORTER 6 STORAGE G1 TO C1-I")  # loading pays 5 and 1 TP, then the palace side action
    s, _ = do(s, "INTRIGUE 0")
    s, _ = do(s, "ACCEPT")
    assert s["money"][0] == 8 and s["tp"][0] == 2
    s, _ = do(s, "PALACE")
    assert s["palace"][0] == 0 and who(s) == "Bob"
    s2, _ = do(base(), "TALENTS")
    assert who(s2) == "Bob"


def test_a13_the_cheapest_free_field_sets_price_and_minimum():
    s = give(base(), "Ann", tp=3, money=40)
    s["palace"][:3] = [1, 1, 1]
    s["supply"][1] -= 3
    s, _ = do(s, "SIDE 4")
    s, _ = do(s, "PALACE")
    assert s["palace"][3] == 0 and s["money"][0] == 32
    s = give(base(), "Ann", tp=2, money=40)
    s["palace"][:3] = [1, 1, 1]
    s["supply"][1] -= 3
    s, _ = do(s, "SIDE 4")
    assert who(s) == "Bob"  # 8/3 field not reachable with 2 TP: no purchase offered


def test_a14_p7_needs_a_supply_servant_and_pays_full_price():
    s = give(hold(base(), "Ann", "S02"), "Ann", money=30, supply=0, blocked=18)
    with pytest.raises(IllegalOrder, match="servant"):
        do(s, "USE S02")


def test_a15_porter_target_dock_must_be_empty_even_for_a_matching_good():
    s = own_dock(base(), "Ann", "C1-I", good="G3", ship="S01")
    with pytest.raises(IllegalOrder, match="already stores"):
        do(s, "PORTER 5 STORAGE G1 TO C1-I")


def test_a16_porter_needs_room_in_storage_and_never_leaves_a_good_on_a_charter():
    s = own_dock(give(store(base(), "Ann", "G1", "G2"), "Ann"), "Ann", "C2-I", good="G4")
    with pytest.raises(IllegalOrder, match="no free space"):
        do(s, "PORTER 5 C2-I TO STORAGE")
    s = charter(give(base(), "Ann", temple=1), "Ann")
    s = put_on_top(s, ["S01"])
    s, _ = do(s, "PORTER 5 STORAGE G1 TO CHARTER")
    assert "G1" in s["bag"]


def test_a17_a_switched_dock_takes_its_good_along_and_loads_if_wanted():
    from .helpers import take_ship
    s = own_dock(base(), "Ann", "C2-I", good="G1")
    take_ship(s, "S01")
    s["dock_s"][di(s, "C1-II")] = "S01"
    s, _ = do(s, "LOADMASTER 3 SWITCH C2-I TO C1-II")
    assert "S01" in s["held"][0] and s["dock_o"][di(s, "C1-II")] is None and s["dock_o"][di(s, "C2-I")] is None
    sound(s)


def test_a18_ships_dock_at_owned_docks_and_loadmaster_occupies_docks_with_ships():
    s = own_dock(base(), "Bob", "C1-I")
    s, _ = settle(arrival_state(s, ["S02"]))
    assert s["dock_s"][di(s, "C1-I")] == "S02"
    t = own_dock(base(), "Bob", "C1-I", ship="S02")
    t["dock_o"][0] = None
    t["supply"][1] += 2
    t, _ = do(t, "LOADMASTER 3 OCCUPY C1-I")
    assert t["dock_o"][0] == 0 and t["dock_s"][0] == "S02"


def test_a19_a_loaded_good_returns_to_the_bag():
    s = own_dock(base(), "Ann", "C1-I", ship="S01")
    bag = len(s["bag"])
    s, _ = do(s, "PORTER 5 STORAGE G1 TO C1-I")
    assert len(s["bag"]) == bag + 1


def test_a20_tax_counts_all_temple_servants_and_never_makes_money_negative():
    s = charter(give(base(), "Ann", temple=6, money=0), "Ann")
    s = put_on_top(s, ["S01"])  # yield 5, danger 1: success, tax 6 > 5
    s, _ = do(s, "PORTER 5 STORAGE G1 TO CHARTER")
    assert s["money"][0] == 0 and s["temple"][0] == 5


def test_a21_no_shipping_from_an_empty_deck():
    s = charter(give(base(), "Ann", temple=1), "Ann")
    s["held"][3].extend(s["deck"])
    s["deck"] = []
    with pytest.raises(IllegalOrder, match="empty"):
        do(s, "PORTER 5 STORAGE G1 TO CHARTER")


def test_a22_with_several_charter_ships_one_is_used():
    s = charter(charter(give(base(), "Ann", temple=1), "Ann"), "Ann")
    s = put_on_top(s, ["S01"])
    s, _ = do(s, "PORTER 5 STORAGE G1 TO CHARTER")
    assert s["charter"].count(0) == 1


def test_a23_a_kept_privilege_keeps_the_turn_open_and_several_orders_may_follow():
    s = give(hold(base(), "Ann", "S07"), "Bob", temple=1)
    s, _ = do(s, "ARISTOCRAT 2 LIGHTHOUSE +1")
    assert decision(s) == "action.after"  # S07 (P4) is usable, so the turn stays open
    s, _ = do(s, "USE S07 Bob LIGHTHOUSE 1\nDONE")
    assert s["light"][1] == 1 and who(s) == "Bob"


def test_a23_a_privilege_won_this_turn_may_be_used_in_the_same_turn():
    s = own_dock(store(base(), "Ann", "G3"), "Ann", "C3-I", ship="S13")  # S13: C3 wants G3, P7
    s = give(s, "Ann", money=30)
    s, _ = do(s, "PORTER 5 STORAGE G3 TO C3-I")
    s, _ = do(s, "INTRIGUE 0")
    assert decision(s) == "action.after" and "S13" in s["held"][0]
    s, _ = do(s, "USE S13")
    assert s["palace"][0] == 0


def test_a23_a_declined_immediate_privilege_goes_under_the_deck():
    s = own_dock(base(), "Ann", "C1-I", ship="S01")
    s, _ = do(s, "PORTER 5 STORAGE G1 TO C1-I")
    s, _ = do(s, "INTRIGUE 0")
    s, _ = do(s, "DECLINE")
    assert s["deck"][-1] == "S01" and s["held"][0] == []


def test_a24_p3_loads_a_wrong_good_moved_in_by_the_porter_this_turn():
    s = own_dock(hold(base(), "Ann", "S19"), "Ann", "C1-I", ship="S02")
    s, _ = do(s, "PORTER 5 STORAGE G1 TO C1-I")
    assert decision(s) == "action.after"
    s, _ = do(s, "USE S19 C1-I")
    assert "S02" in s["held"][0]


def test_a25_p8_has_no_dock_choice_and_departs_when_both_are_taken():
    s = own_dock(own_dock(hold(base(), "Ann", "S16"), "Bob", "C1-I", ship="S02"), "Bob", "C1-II", ship="S03")
    s = set_row1(s, ["S01", "S06"])
    s, events = do(s, "USE S16 S01")
    assert "S01" in s["deck"] and any(e.kind == "departure" for e in events)


def test_a26_p4_never_touches_a_supply():
    s = give(hold(base(), "Ann", "S07"), "Bob", light=1)
    s, _ = do(s, "USE S07 Bob TEMPLE 1")
    assert s["temple"][1] == 1 and s["light"][1] == 0 and s["supply"][1] == 15


def test_a27_aristocrat_moves_up_to_five_from_any_place_to_another():
    s = give(give(base(), "Ann", light=2), "Ann", temple=2)
    s, _ = do(s, "ARISTOCRAT 2 LIGHTHOUSE -2 TEMPLE +3")  # 2 from lighthouse and 1 from supply: 3 moves
    assert (s["light"][0], s["temple"][0]) == (0, 5)


def test_a28_conversion_needs_a_supply_servant_and_a_free_path_field():
    s = own_dock(base(), "Ann", "C1-I", ship="S01")
    s["path"] = [1] * 12
    s["supply"][1] -= 12
    s, _ = do(s, "PORTER 5 STORAGE G1 TO C1-I")
    assert s["tp"][0] == 1 and decision(s) == "privilege.immediate"


def test_a29_the_early_end_tests_the_track_at_the_end_of_decade_four():
    s = run(at_actions(), lambda x: x["decade"] == 4 and x["stage"] == "actions", limit=5000)
    s = run(give(s, "Ann", tp=8), lambda x: x["stage"] in ("over", "final_arrival", "final_buy") or x["decade"] == 5, limit=5000)
    assert s["decade"] == 4


@pytest.mark.parametrize("mode", ["lighthouse", "automatic"])
def test_a30_final_arrival_uses_lighthouse_choices_or_is_automatic(mode):
    s = run(at_actions(final_arrival=mode), lambda x: x["decade"] == 5 and x["stage"] == "actions", limit=5000)
    s = own_dock(free_all_docks(s), "Ann", "C2-I", good="G2")
    s = give(s, "Bob", light=1)
    s = set_row1(s, ["S07", "S01"])
    s["act"]["r"] = 6
    s, _ = settle(s)
    if mode == "lighthouse":
        assert decision(s) == "arrival.lighthouse" and who(s) == "Bob"
        s, _ = do(s, "DOCK S01")
        s, _ = do(s, "DOCK S07 II")
        assert s["dock_s"][di(s, "C2-II")] == "S07" and s["dock_g"][di(s, "C2-I")] == "G2"
    else:
        assert "S07" in s["held"][0]
    assert s["row2"] and s["row1"] == []


def test_a31_start_player_ties_rotate_clockwise_from_the_holder():
    s = at_actions(P4, start_player="Ann")
    s["deck"].extend(s["row1"])
    s["row1"], s["decade"] = [], 2
    s["supply"] = [5, 9, 5, 9]
    refresh(s, [])
    assert s["start"] == 1
    s["start"] = 1
    s["deck"].extend(s["row1"])
    s["row1"] = []
    refresh(s, [])
    assert s["start"] == 3


def test_a32_income_counts_supply_only_after_card_servants_return():
    s = at_actions()
    s["deck"].extend(s["row1"])
    s["row1"], s["decade"] = [], 2
    s["on_card"][3][0] = 2
    s["supply"][0] -= 2
    money = list(s["money"])
    refresh(s, [])
    assert s["money"][0] - money[0] == s["supply"][0]


def test_a33_money_is_secret():
    assert GAME.view(at_actions(), "Bob")["players"]["Ann"]["money"] is None


def test_a34_refill_returns_the_market_first_and_the_buy_needs_room():
    s = store(base(), "Ann", "G1", "G2")
    s, _ = do(s, "REFILL")
    assert who(s) == "Bob" and len(s["market"]) == 6


def test_a35_market_fills_with_what_the_bag_holds():
    from games.porto_carthago.board import refill_market
    s = base()
    s["bag"], s["market"] = s["bag"][:3], []
    refill_market(s, False)
    assert len(s["market"]) == 3 and s["bag"] == []


def test_a36_taking_three_talents_is_always_possible():
    s = give(base(), "Ann", supply=0, blocked=2, light=16)
    assert GAME.legal_orders(s, "Ann")[0].kind == "talents"


def test_a37_a_player_may_own_many_docks():
    s = base()
    for d in ("C1-I", "C2-I", "C3-I", "C4-I"):
        s = own_dock(s, "Ann", d)
    s, _ = do(s, "LOADMASTER 3 OCCUPY C5-I")
    assert s["dock_o"].count(0) == 5


def test_a38_docked_ships_stay_over_the_decade_change():
    s = own_dock(base(), "Bob", "C1-I", ship="S02")
    s = run(s, lambda x: x["decade"] == 2 and x["stage"] == "actions")
    assert s["dock_s"][0] == "S02"


def test_a39_one_charter_ship_per_player_and_the_captain_needs_a_spare_servant():
    s = give(base(), "Ann", supply=0, blocked=2, light=16)
    with pytest.raises(IllegalOrder):
        do(s, "CAPTAIN 1")
    assert len(base()["charter"]) == 4


def test_a40_three_players_use_four_market_fields_everywhere():
    s = run(new(P3), lambda x: x["stage"] == "actions")
    assert len(s["market"]) == 4
    s, _ = do(s, "REFILL")
    assert len(s["market"]) == 4


def test_a41_the_setup_good_goes_into_storage():
    s = run(new(P3), lambda x: x["stage"] == "actions")
    assert all(len(x) == 1 for x in s["store"])


def test_a42_a_leader_who_sends_a_ship_away_docks_none():
    s = arrival_state(give(free_all_docks(at_actions()), "Ann", light=2), ["S01", "S06", "S11"])
    s, _ = settle(s)
    s, _ = do(s, "REJECT S01")
    assert s["stage"] == "actions" and "S01" in s["deck"]


def test_a43_full_tie_is_a_shared_win():
    s = at_actions()
    s["stage"] = "over"
    s["money"] = [5, 5, 5, 5]
    assert GAME.result(s).winners == ("Ann", "Bob", "Cid", "Dee")


def test_a44_every_palace_purchase_needs_a_supply_servant():
    s = give(base(), "Ann", tp=6, money=40, supply=2)
    s["act"]["main"], s["act"]["slot"] = True, 4
    s["supply"][0] = 0
    s["blocked"][0] = 18
    with pytest.raises(IllegalOrder, match="servant"):
        do(s, "PALACE")


def test_a45_the_revealed_shipping_card_goes_under_the_deck_unclaimed():
    s = charter(give(base(), "Ann", temple=1), "Ann")
    s = put_on_top(s, ["S05"])
    s, _ = do(s, "PORTER 5 STORAGE G1 TO CHARTER")
    assert s["deck"][-1] == "S05" and all("S05" not in h for h in s["held"])


def test_a46_converted_points_do_not_count_for_palace_minimums():
    s = give(base(), "Ann", tp=1)
    s["path"] = [0, 0, 0]
    s["supply"][0] -= 3
    s, _ = do(s, "SIDE 4")
    assert who(s) == "Bob"
