import pytest

from games.porto_carthago import GAME
from referee.contract import IllegalOrder

from .helpers import (at_actions, decision, do, free_all_docks, give, hold, own_dock, put_on_top, set_row1,
                      sound, store, who)


def base():
    return sound(store(free_all_docks(at_actions()), "Ann", "G1"))


def load_with(card, good="G1", dock="C1-I"):
    s = own_dock(store(base(), "Ann", good), "Ann", dock, ship=card)
    s, _ = do(s, f"PORTER 5 STORAGE {good} TO {dock}")
    s, _ = do(s, "INTRIGUE 0")
    return s


def test_p1_three_extra_talents_or_declined():
    s = load_with("S01")
    assert decision(s) == "privilege.immediate"
    s2, _ = do(s, "DECLINE")
    assert s2["money"][0] == 19 and s2["deck"][-1] == "S01"
    s3, _ = do(s, "ACCEPT")
    assert s3["money"][0] == 22


def test_p5_extra_trade_point_that_may_become_an_intrigue_servant():
    s = load_with("S06", good="G1", dock="C2-I")  # S06: C2 G1 P5
    s, _ = do(s, "ACCEPT")
    assert decision(s) == "intrigue.reward"
    s, _ = do(s, "INTRIGUE 1")
    assert s["tp"][0] == 1 and s["path"] == [0]


def test_p6_places_a_servant_on_the_path():
    s = load_with("S14", good="G4", dock="C3-I")  # S14: C3 G4 P6
    s, _ = do(s, "ACCEPT")
    assert s["path"] == [0]
    sound(s)


def test_p2_shows_the_top_three_only_to_its_user_and_reorders_them():
    s = hold(base(), "Ann", "S05")
    s = put_on_top(s, ["S10", "S11", "S12"])
    s, events = do(s, "USE S05")
    peek = [e for e in events if e.kind == "peek"]
    assert peek and peek[0].to == ("Ann",) and "S10" in peek[0].text
    assert decision(s) == "privilege.arrange"
    assert GAME.view(s, "Bob")["pending"][0].get("cards") is None
    assert GAME.view(s, "Ann")["pending"][0]["cards"] == ["S10", "S11", "S12"]
    s, _ = do(s, "ARRANGE S12 S10 S11")
    assert s["deck"][:3] == ["S12", "S10", "S11"] and s["deck"][-1] == "S05"
    assert decision(s) == "action.main" and who(s) == "Ann"  # a privilege costs no action
    sound(s)


def test_p3_loads_a_wrong_good_lying_at_an_own_dock_with_a_ship():
    s = own_dock(hold(base(), "Ann", "S19"), "Ann", "C1-I", good="G3", ship="S02")
    s, _ = do(s, "USE S19 C1-I")
    assert s["money"][0] == 14 + 7 and "S02" in s["held"][0] and s["dock_o"][0] is None
    sound(s)


def test_p4_moves_servants_of_any_colour_between_temple_and_lighthouse():
    s = give(give(hold(base(), "Ann", "S07"), "Bob", temple=2), "Cid", light=1)
    s, _ = do(s, "USE S07 Bob LIGHTHOUSE 2 Cid TEMPLE 1")
    assert (s["light"][1], s["temple"][1], s["light"][2], s["temple"][2]) == (2, 0, 0, 1)
    with pytest.raises(IllegalOrder):
        do(give(give(hold(base(), "Ann", "S07"), "Bob", temple=4), "Cid", light=1), "USE S07 Bob LIGHTHOUSE 4")
    sound(s)


def test_p7_buys_a_seat_ignoring_the_minimum_and_adds_to_the_side_action():
    s = give(hold(base(), "Ann", "S02"), "Ann", tp=2, money=30)
    s, _ = do(s, "USE S02")
    assert s["palace"][0] == 0 and s["money"][0] == 25
    s, _ = do(s, "SIDE 4")
    s, _ = do(s, "PALACE")
    assert s["palace"][1] == 0 and s["money"][0] == 19
    sound(s)


def test_p8_lets_a_row_one_ship_enter_now_and_loads_at_once():
    s = own_dock(hold(base(), "Ann", "S16"), "Ann", "C1-I", good="G1")
    s = set_row1(s, ["S02", "S01", "S03", "S04", "S05"])
    row2 = list(s["row2"])
    top = s["deck"][0]
    s, _ = do(s, "USE S16 S01")
    assert s["row1"][1] == row2[1] and s["row2"][1] == top
    assert "S01" in s["held"][0] and s["money"][0] == 14 + 5  # docked at C1-I and loaded
    sound(s)


def test_kept_privileges_are_not_usable_outside_the_owners_turn():
    s = hold(base(), "Bob", "S05")
    s, events = do(s, "USE S05", "Bob")
    assert "S05" in s["held"][1] and s["queue"]["Bob"]  # only queued for Bob's own turn
    s, events = do(s, "TALENTS")
    assert who(s) == "Bob" and decision(s) == "privilege.arrange" and "S05" not in s["held"][1]
