from games.porto_carthago import GAME
from games.porto_carthago.intrigue import bonus_seats, reached_field

from .helpers import (at_actions, decision, do, free_all_docks, give, own_dock, run, set_row1, settle, sound,
                      who)


def over(s):
    return s["stage"] == "over"


def test_the_game_ends_after_decade_five():
    s = run(at_actions(), over, limit=5000)
    assert s["decade"] == 5 and GAME.prompts(s) == [] and GAME.result(s) is not None
    assert GAME.phase(s).kind == "over"


def test_early_end_after_decade_four_with_eight_trade_points():
    s = run(at_actions(), lambda x: x["decade"] == 4 and x["stage"] == "actions", limit=5000)
    s = give(s, "Bob", tp=8)
    s = run(s, lambda x: over(x) or x["decade"] == 5, limit=5000)
    assert over(s) and s["decade"] == 4


def test_intrigue_servants_do_not_count_for_the_early_end():
    s = run(at_actions(), lambda x: x["decade"] == 4 and x["stage"] == "actions", limit=5000)
    s = give(s, "Bob", tp=7)
    s["path"] = [1] * 3
    s["supply"][1] -= 3
    s = run(s, lambda x: over(x) or x["decade"] == 5, limit=5000)
    assert s["decade"] == 5


def last_turn_done():
    s = run(at_actions(), lambda x: x["decade"] == 5 and x["stage"] == "actions", limit=5000)
    s = free_all_docks(s)
    s["act"]["r"] = 6
    return s


def test_final_arrival_loads_and_then_each_may_buy_one_seat_for_twenty():
    s = last_turn_done()
    s = own_dock(s, "Ann", "C1-I", good="G1")
    s = set_row1(s, ["S01"])
    s = give(give(s, "Ann", tp=6, money=30), "Cid", tp=6, money=20)
    s, events = settle(s)
    assert s["final"] and any(e.kind == "final" for e in events)
    assert "S01" in s["held"][0] and s["money"][0] == 35
    s, _ = do(s, "INTRIGUE 0")
    s, _ = do(s, "DECLINE")
    assert decision(s) == "end.final_seat" and who(s) == s["players"][s["start"]] or who(s) in ("Ann", "Cid")
    while not over(s):
        p = who(s)
        assert p in ("Ann", "Cid")
        s, _ = do(s, "PALACE")
    assert s["big"][0] == 1 and s["big"][2] == 1 and s["money"][0] == 15 and s["money"][2] == 0
    sound(s)


def test_without_goods_in_docks_there_is_no_final_arrival_or_purchase():
    s = give(last_turn_done(), "Ann", tp=6, money=30)
    s, _ = settle(s)
    assert over(s)


def finished(**per_player):
    s = run(at_actions(), lambda x: x["stage"] == "actions")
    s = free_all_docks(s)
    for p, vals in per_player.items():
        s = give(s, p, **vals)
    s["stage"] = "over"
    return s


def test_winner_by_seats_then_trade_points_then_money_then_shared():
    s = finished(Ann={"big": 2, "supply": 14, "tp": 0}, Bob={"big": 1, "supply": 15, "tp": 9})
    assert GAME.result(s).winners == ("Ann",)
    s = finished(Ann={"big": 1, "supply": 15, "tp": 3}, Bob={"big": 1, "supply": 15, "tp": 4})
    assert GAME.result(s).winners == ("Bob",)
    s = finished(Ann={"big": 1, "supply": 15, "tp": 4, "money": 9}, Bob={"big": 1, "supply": 15, "tp": 4, "money": 8})
    assert GAME.result(s).winners == ("Ann",)
    s = finished(Ann={"big": 1, "supply": 15, "tp": 4, "money": 9}, Bob={"big": 1, "supply": 15, "tp": 4, "money": 9})
    r = GAME.result(s)
    assert r.winners == ("Ann", "Bob") and r.ranking[0] == ("Ann", "Bob")


def test_intrigue_bonus_by_farthest_scoring_field_and_path_servants():
    s = finished()
    s["path"] = [1, 0, 0, 1, 2, 2, 0]  # 7 fields: "2/1" reached; Ann 3, Bob 2, Cid 2 (Bob first)
    assert reached_field(s) == (7, [2, 1])
    assert bonus_seats(s) == [2, 1, 0, 0]
    s["path"] = [1, 0, 2]
    assert reached_field(s) is None and bonus_seats(s) == [0, 0, 0, 0]
    s["path"] = [2, 1, 1, 2, 0, 0, 0, 3, 3, 3, 3, 1]
    assert reached_field(s) == (12, [3, 2, 1])
    assert bonus_seats(s) == [1, 2, 0, 3]  # Dee 4; Bob 3 before Ann 3 (Bob placed first); Cid 2


def test_bonus_seats_count_for_the_winner():
    s = finished(Ann={"big": 1, "supply": 15})
    s["path"] = [1, 1, 1, 0]
    s["supply"][1] -= 3
    s["supply"][0] -= 1
    r = GAME.result(s)
    assert r.scores["Bob"]["intrigue_seats"] == 1 and r.scores["Ann"]["palace_seats"] == 1
    assert r.scores["Bob"]["palace_seats"] == 1
