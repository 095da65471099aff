"""Hidden information: others' gold, contracts on others' ships, deck order, advance limits."""

from games.constantinopolis import GAME

from .util import at_accept, at_auction, card, do, give_cards, give_goods, new, seat


def test_gold_deck_and_moderator_view():
    st = new(("a", "b"))
    v = GAME.view(st, "a")
    assert v["players"]["b"]["gold"] == "hidden" and v["players"]["a"]["gold"] == 30
    assert v["deck"] == 106 and "rng" not in v
    full = GAME.view(st, None)
    assert full["deck"] == st["deck"] and full["p"]["b"]["gold"] == 30


def test_loaded_contracts_are_private_hand_is_public():
    st = new(("a", "b"))
    st = at_accept(seat(st, {"magister": "a", "pretorio": "b"}))
    c, d = card("green"), card("blue")
    give_cards(st, "a", [c, d])
    give_goods(st, "a", green=1)
    assert [x["id"] for x in GAME.view(st, "b")["players"]["a"]["hand"]] == [c, d]
    st, ev = do(st, "a", f"load {c} on ship 1")
    assert all(e.to == ("a",) for e in ev if e.kind == "load")
    assert GAME.view(st, "b")["players"]["a"]["ships"][0]["cargo"] == "hidden"
    assert GAME.view(st, "a")["players"]["a"]["ships"][0]["cargo"][0]["id"] == c


def test_other_players_hidden_state_does_not_change_my_view():
    st = new(("a", "b"))
    st = at_auction(seat(st, {"magister": "a", "pretorio": "b"}))
    before = GAME.view(st, "a")
    st2 = dict(st)
    st2["p"] = {k: dict(v) for k, v in st["p"].items()}
    st2["p"]["b"] = dict(st["p"]["b"], gold=3)
    st2["deck"] = list(reversed(st["deck"]))
    st3, _ = do(st2, "b", "defend 2")
    assert GAME.view(st3, "a") == before


def test_face_down_market_option_hides_the_future_pile_after_reshuffle():
    st = new(("a", "b"), market_reshuffle="facedown")
    assert "hidden" not in GAME.view(st, "a")["market"]["future"]
    while st["round"] < 5:
        p = GAME.prompts(st)[0].player
        st, _ = GAME.apply(st, p, GAME.default_orders(st, p))
    assert GAME.view(st, "a")["market"]["future"] == ["hidden"] * 4
    st2 = new(("a", "b"))
    while st2["round"] < 5:
        p = GAME.prompts(st2)[0].player
        st2, _ = GAME.apply(st2, p, GAME.default_orders(st2, p))
    assert "hidden" not in GAME.view(st2, "a")["market"]["future"]
