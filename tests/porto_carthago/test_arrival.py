import pytest

from referee.contract import IllegalOrder

from .helpers import (P4, at_actions, decision, di, do, free_all_docks, give, own_dock, seat, set_row1, settle,
                      sound, who)


def arrival(state, row1, **light):
    s = free_all_docks(state)
    for p, k in light.items():
        s = give(s, p, light=k)
    s = set_row1(s, row1)
    s["stage"] = "arrival"
    s["act"] = None
    return settle(s)


def test_without_lighthouse_servants_ships_dock_top_to_bottom_at_I_then_II_or_leave():
    s, events = arrival(at_actions(), ["S01", "S02", "S03", "S06", "S07"])
    assert s["dock_s"][di(s, "C1-I")] == "S01" and s["dock_s"][di(s, "C1-II")] == "S02"
    assert s["deck"][-1] == "S03" or "S03" in s["deck"]
    assert s["dock_s"][di(s, "C2-I")] == "S06" and s["dock_s"][di(s, "C2-II")] == "S07"
    assert any(e.kind == "departure" and "S03" in e.text for e in events)
    sound(s)


def test_lighthouse_majority_chooses_and_ties_go_to_the_start_player_then_clockwise():
    s0 = at_actions(P4, start_player="Cid")
    s, _ = arrival(s0, ["S01", "S06", "S11", "S16", "S21"], Ann=3, Bob=1, Cid=1)
    assert s["arr"]["ch"] == [seat(s, "Ann"), seat(s, "Cid"), seat(s, "Bob")]
    assert who(s) == "Ann" and decision(s) == "arrival.lighthouse"


def test_leader_may_send_one_ship_away_and_then_docks_none():
    s, _ = arrival(at_actions(P4, start_player="Cid"), ["S01", "S06", "S11", "S16", "S21"], Ann=3, Bob=1, Cid=1)
    s, _ = do(s, "REJECT S21")
    assert s["deck"][-1] == "S21" and who(s) == "Cid"
    s, _ = do(s, "DOCK S16")
    assert who(s) == "Cid"
    with pytest.raises(IllegalOrder):
        do(s, "REJECT S11")
    s, _ = do(s, "DOCK S11 II")
    assert s["dock_s"][di(s, "C3-II")] == "S11"
    assert who(s) == "Bob"
    s, events = do(s, "DOCK S06")
    assert s["dock_s"][di(s, "C1-I")] == "S01"  # the rest entered automatically
    assert s["stage"] == "actions"
    sound(s)


def test_leader_docking_two_and_a_third_chooser_takes_one():
    s, _ = arrival(at_actions(), ["S01", "S06", "S11", "S16", "S21"], Ann=2, Bob=1, Cid=1)
    s, _ = do(s, "DOCK S01")
    assert who(s) == "Ann"
    s, _ = do(s, "DOCK S06")
    assert who(s) == "Bob"
    s, _ = do(s, "DOCK S11")
    s, _ = do(s, "DOCK S16")
    assert who(s) == "Cid"
    s, _ = do(s, "DOCK S21 II")
    assert s["dock_s"][di(s, "C5-II")] == "S21"
    assert s["stage"] == "actions"


def test_loading_check_after_arrival_pays_the_dock_owner():
    s = own_dock(free_all_docks(at_actions()), "Bob", "C1-I", good="G1")
    s = set_row1(s, ["S01"])
    s["stage"], s["act"] = "arrival", None
    money = s["money"][1]
    s, events = settle(s)
    assert s["money"][1] == money + 5
    assert s["dock_o"][0] is None and s["dock_s"][0] is None and s["dock_g"][0] is None
    assert "S01" in s["held"][1]
    assert decision(s) == "intrigue.reward" and who(s) == "Bob"


def test_after_arrival_row_two_moves_up_and_a_new_row_is_drawn():
    s = at_actions()
    row2 = list(s["row2"])
    s = free_all_docks(s)
    s["stage"], s["act"] = "arrival", None
    s, _ = settle(s)
    assert s["row1"] == row2 and len(s["row2"]) == 5
