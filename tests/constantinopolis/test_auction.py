"""Phase 1: the auction, including the rulebook example played order by order."""

import pytest

from games.constantinopolis import GAME
from referee.contract import IllegalOrder

from .util import at_auction, do, new, seat


def example_start():
    st = new(("green", "red", "blue", "yellow"))
    st = seat(st, {"magister": "green", "pretorio": "blue", "comes": "red", "consul": "yellow"})
    return at_auction(st)


def test_rulebook_auction_example_ends_as_printed():
    st = example_start()
    assert GAME.prompts(st)[0].player == "green"
    st, _ = do(st, "green", "bid comes 1")
    assert GAME.prompts(st)[0].player == "red"
    st, _ = do(st, "red", "pass")
    # red lost his office and may take green's old office for nothing
    st, ev = do(st, "red", "take magister")
    assert st["p"]["red"]["gold"] == 30
    assert GAME.prompts(st)[0].player == "blue"
    st, _ = do(st, "blue", "stay")
    assert GAME.prompts(st)[0].player == "yellow"
    st, _ = do(st, "yellow", "bid magister 1")
    st, _ = do(st, "red", "pass")
    # red is active again; he leaves the vacated Consul and bids on blue's office
    assert GAME.prompts(st)[0].player == "red"
    st, _ = do(st, "red", "bid pretorio 1")
    st, _ = do(st, "blue", "raise 2")
    st, _ = do(st, "red", "raise 3")
    st, _ = do(st, "blue", "pass")
    assert GAME.prompts(st)[0].player == "blue"
    st, ev = do(st, "blue", "take consul")
    end = [e for e in ev if e.kind == "auction.end"][0]
    assert end.data["discarded"] == 7
    assert st["offices"] == {"magister": "yellow", "pretorio": "red", "comes": "green", "urbi": None, "consul": "blue"}
    assert st["order"] == ["yellow", "red", "green", "blue"]
    gold = {n: st["p"][n]["gold"] for n in st["players"]}
    # green paid 1 and got 4 as Comes; yellow 1; red 3; blue 2
    assert gold == {"green": 33, "red": 27, "blue": 28, "yellow": 29}
    # red as Praefectus Pretorio produces only green (Ager): the good is given without asking
    assert st["p"]["red"]["goods"]["green"] == 2 + 1
    assert st["phase"] == "construct"


def test_vacant_office_costs_two_and_pays_to_board():
    st = new(("a", "b"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b"}))
    st, _ = do(st, "a", "take consul")
    assert st["p"]["a"]["gold"] == 28
    assert st["auction"]["coins"]["consul"] == 2


def test_bid_must_beat_all_coins_already_on_the_office():
    st = new(("a", "b", "c"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b", "comes": "c"}))
    st, _ = do(st, "a", "bid comes 2")
    st, _ = do(st, "c", "pass")
    # 2 gold lie on the Comes now: c must bid at least 3 to get it back
    with pytest.raises(IllegalOrder) as e:
        GAME.apply(st, "c", GAME.parse(st, "c", "bid comes 2"))
    assert e.value.suggestion == "bid comes 3"
    st, _ = do(st, "c", "bid comes 3")
    assert st["auction"]["duel"]["holder"] == "a"


def test_loser_pays_nothing_and_winner_pays_highest_bid():
    st = new(("a", "b"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b"}))
    st, _ = do(st, "a", "bid pretorio 1")
    st, _ = do(st, "b", "raise 4")
    st, _ = do(st, "a", "pass")
    assert st["p"]["a"]["gold"] == 30 and st["p"]["b"]["gold"] == 26
    assert st["offices"]["pretorio"] == "b"
    # a is active again and keeps his own office
    assert GAME.prompts(st)[0].player == "a"


def test_phase_ends_only_when_everyone_was_active_and_holds_an_office():
    st = new(("a", "b", "c"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b", "comes": "c"}))
    st, _ = do(st, "a", "stay")
    st, _ = do(st, "b", "stay")
    st, _ = do(st, "c", "bid magister 1")
    st, _ = do(st, "a", "pass")
    assert st["phase"] == "auction" and GAME.prompts(st)[0].player == "a"
    st, _ = do(st, "a", "take comes")  # the office c just left, for free
    assert st["p"]["a"]["gold"] == 30 + 4  # free office, and a is now Comes
    assert st["phase"] != "auction"


def test_guard_wall_forces_raises_of_three():
    st = new(("a", "b"))
    st["p"]["b"]["walls"].append("guard")
    st["walls"].remove("guard")
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b"}))
    with pytest.raises(IllegalOrder) as e:
        GAME.apply(st, "a", GAME.parse(st, "a", "bid pretorio 2"))
    assert "3" in e.value.message
    st, _ = do(st, "a", "bid pretorio 3")
    st, _ = do(st, "b", "raise 4")  # the owner himself raises by one
    with pytest.raises(IllegalOrder):
        GAME.apply(st, "a", GAME.parse(st, "a", "raise 6"))
    st, _ = do(st, "a", "raise 7")
    assert st["auction"]["duel"]["bid"] == 7


def test_defend_limit_answers_challenges_without_a_mail():
    st = new(("a", "b"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b"}))
    st, _ = do(st, "b", "defend up to 5")  # b is not prompted; standing order
    st, ev = do(st, "a", "bid pretorio 3")
    # b raised to 4 automatically; a must answer now
    assert st["auction"]["duel"]["bid"] == 4 and GAME.prompts(st)[0].player == "a"
    st, _ = do(st, "a", "raise 6")  # above b's limit: b passes by itself
    assert st["offices"]["pretorio"] == "a"
    assert st["p"]["a"]["gold"] == 24


def test_bid_up_to_runs_the_exchange_like_live_play():
    st = new(("a", "b"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b"}))
    st, _ = do(st, "b", "defend 4")
    st, _ = do(st, "a", "bid pretorio 1 up to 8")
    # 1, b 2, a 3, b 4, a 5, b passes (limit 4): a wins at 5
    assert st["offices"]["pretorio"] == "a" and st["p"]["a"]["gold"] == 25


def test_bid_up_to_stops_at_the_limit():
    st = new(("a", "b"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b"}))
    st, _ = do(st, "b", "defend 9")
    st, _ = do(st, "a", "bid pretorio 1 up to 4")
    assert st["offices"]["pretorio"] == "b" and st["p"]["b"]["gold"] == 26  # b kept it at 4


def test_pretorio_chooses_a_type_he_can_produce_and_faq_default_is_most_valuable():
    st = new(("a", "b"))
    st["p"]["b"]["buildings"].append("Metallum")
    st["supply"]["Metallum"] -= 1
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b"}))
    st, _ = do(st, "a", "stay")
    st, _ = do(st, "b", "stay")
    assert st["phase"] == "pretorio"
    with pytest.raises(IllegalOrder):
        GAME.apply(st, "b", GAME.parse(st, "b", "good yellow"))
    # FAQ: a player who forgets takes the most valuable type he can produce
    assert [GAME.format(o) for o in GAME.default_orders(st, "b")] == ["good red"]
    st2, _ = do(st, "b", "good green")
    assert st2["p"]["b"]["goods"]["green"] == 3


def test_everyone_holds_an_office_after_the_auction():
    from referee.playthrough import play
    pt = play(GAME, ["a", "b", "c", "d", "e"], "offices", checks=True)
    assert pt.result is not None


def test_faq_gold_is_private_unless_option():
    st = new(("a", "b"))
    assert GAME.view(st, "a")["players"]["b"]["gold"] == "hidden"
    assert GAME.view(st, "a")["players"]["a"]["gold"] == 30
    st = new(("a", "b"), public_gold=True)
    assert GAME.view(st, "a")["players"]["b"]["gold"] == 30


def test_player_short_of_gold_can_always_take_an_office():
    st = new(("a", "b", "c"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b", "comes": "c"}))
    st["p"]["b"]["gold"] = 0
    st, _ = do(st, "a", "bid pretorio 1")
    st, _ = do(st, "b", "pass")
    menu = GAME.legal_orders(st, "b")
    assert menu and all(o.kind == "take" for o in menu if o.kind != "defend")
    st, _ = GAME.apply(st, "b", [o for o in menu if o.kind == "take"][:1])
    assert st["p"]["b"]["gold"] >= 0


def test_defend_limit_can_be_sent_with_the_previous_rounds_phase_six_mail():
    from .util import at_accept
    st = at_accept(seat(new(("a", "b")), {"magister": "a", "pretorio": "b"}))
    st, ev = do(st, "b", "defend 3\ndone")
    assert [e.to for e in ev if e.kind == "defend.set"] == [("b",)]
    assert GAME.view(st, "b")["your_defend_limit"] == 3 and "your_defend_limit" not in GAME.view(st, "a")
    st, _ = do(st, "a", "done")
    while st["phase"] != "auction":
        p = GAME.prompts(st)[0].player
        st, _ = GAME.apply(st, p, GAME.default_orders(st, p))
    first = GAME.prompts(st)[0].player
    assert first == "a"
    st, _ = do(st, "a", "bid pretorio 1")
    assert st["auction"]["duel"]["bid"] == 2  # b answered from the standing limit
    st, _ = do(st, "a", "raise 4")
    assert st["offices"]["pretorio"] == "a"  # 4 is above b's limit of 3


def test_a_player_who_cannot_raise_is_asked_only_to_pass():
    """The duel's question offers a raise only when the gold allows the least one."""
    st = new(("a", "b"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b"}))
    st, _ = do(st, "a", "bid pretorio 3")
    assert str(GAME.prompts(st)[0].text).endswith(": raise or pass")
    st["p"]["b"]["gold"] = 3
    # the prompt every player may read (STATUS) says nothing of b's secret gold; b's own does
    assert str(GAME.prompts(st)[0].text).endswith(": raise or pass")
    asked = str(GAME.asked(st, "b"))
    assert asked == "a bids 3 on your office Praefectus Pretorio; you cannot raise (4 gold needed, you have 3): pass"
    assert [GAME.format(o) for o in GAME.legal_orders(st, "b")] == ["pass"]


def test_only_the_asked_players_own_mail_says_they_cannot_raise():
    """The mail's YOUR MOVE line is the player's own reading; the others' mail says nothing of it."""
    from tests.reports.util import mail

    st = new(("a", "b"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b"}))
    st, _ = do(st, "a", "bid pretorio 3")
    st["p"]["b"]["gold"] = 3
    assert "YOUR MOVE: a bids 3 on your office Praefectus Pretorio; you cannot raise" in mail(GAME, st, "b")[0]
    assert "cannot raise" not in " ".join(mail(GAME, st, "a"))
