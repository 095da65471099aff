import pytest

from games.porto_carthago import GAME
from referee.contract import IllegalOrder

from .helpers import (at_actions, charter, decision, di, do, free_all_docks, give, own_dock, put_on_top, sound,
                      store)


def base():
    return sound(store(free_all_docks(at_actions()), "Ann", "G1"))


def test_loading_pays_yield_and_a_trade_point_gives_the_card_and_frees_the_dock():
    s = own_dock(base(), "Ann", "C1-I", ship="S01")  # S01: C1 wants G1, yield 5, P1
    supply = s["supply"][0]
    s, events = do(s, "PORTER 5 STORAGE G1 TO C1-I")
    assert s["money"][0] == 14 + 5
    assert s["dock_o"][0] is None and s["dock_s"][0] is None and s["dock_g"][0] is None
    assert s["supply"][0] == supply - 2 + 2
    assert "G1" in s["bag"] and "S01" in s["held"][0]
    assert decision(s) == "intrigue.reward"
    # one point is asked about as one: it goes onto the path or stays
    assert str(GAME.prompts(s)[0].text) == ("you gain 1 trade point (loading S01): put it on the intrigue path "
                                            "instead with INTRIGUE 1, or keep it with INTRIGUE 0")
    s, _ = do(s, "INTRIGUE 0")
    assert s["tp"][0] == 1
    assert decision(s) == "privilege.immediate"
    s, _ = do(s, "ACCEPT")
    assert s["money"][0] == 22 and s["deck"][-1] == "S01" and "S01" not in s["held"][0]
    sound(s)


def test_a_non_matching_good_just_lies_in_the_dock():
    s = own_dock(base(), "Ann", "C1-I", ship="S02")  # S02 wants G2
    s, _ = do(s, "PORTER 5 STORAGE G1 TO C1-I")
    assert s["dock_g"][0] == "G1" and s["dock_s"][0] == "S02"


def ship(s, top):
    s = put_on_top(s, [top])
    return do(s, "PORTER 5 STORAGE G1 TO CHARTER")


def test_charter_success_pays_yield_two_points_and_temple_tax():
    s = charter(give(base(), "Ann", temple=3), "Ann")
    s, events = ship(s, "S02")  # danger 3, yield 7
    assert s["money"][0] == 14 + 7 - 3
    assert s["temple"][0] == 2 and s["charter"].count(0) == 0 and s["deck"][-1] == "S02"
    assert "G1" in s["bag"] and s["store"][0] == []
    assert decision(s) == "intrigue.reward" and s["pending"][0]["n"] == 2
    s, _ = do(s, "INTRIGUE 1")
    assert s["tp"][0] == 1 and s["path"] == [0]
    sound(s)


def test_charter_failure_pays_half_the_yield_rounded_up_and_one_point():
    s = charter(give(base(), "Ann", temple=1), "Ann")
    s, _ = ship(s, "S04")  # danger 5, yield 9
    assert s["money"][0] == 14 + 5
    assert s["pending"][0]["n"] == 1 and s["temple"][0] == 0
    sound(s)


def test_charter_needs_a_temple_servant_and_an_own_charter_ship():
    with pytest.raises(IllegalOrder, match="temple"):
        do(charter(base(), "Ann"), "PORTER 5 STORAGE G1 TO CHARTER")
    with pytest.raises(IllegalOrder, match="charter"):
        do(give(base(), "Ann", temple=2), "PORTER 5 STORAGE G1 TO CHARTER")


def test_a_dock_good_can_be_shipped_too():
    s = own_dock(charter(give(base(), "Ann", temple=2), "Ann"), "Ann", "C2-I", good="G4")
    s = put_on_top(s, ["S01"])
    s, _ = do(s, "PORTER 5 C2-I TO CHARTER")
    assert s["dock_g"][di(s, "C2-I")] is None and s["money"][0] == 14 + 5 - 2
