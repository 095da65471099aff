"""Hidden information: others' gold, contracts on others' ships, deck order, advance limits."""

import pytest

from games.constantinopolis import GAME

from .util import at_accept, at_auction, card, do, give_cards, give_goods, new, seat


def test_gold_deck_and_moderator_view():
    st = new(("a", "b"))
    v = GAME.view(st, "a")
    assert v["players"]["b"]["gold"] == "hidden" and v["players"]["a"]["gold"] == 30
    assert v["deck"] == 106 and "rng" not in v
    full = GAME.view(st, None)
    assert full["deck"] == st["deck"] and full["p"]["b"]["gold"] == 30


def test_contracts_are_accepted_in_secret_shown_at_sailing_and_hidden_at_sea():
    st = new(("a", "b"))
    st = at_accept(seat(st, {"magister": "a", "pretorio": "b"}))
    c, d = card("green"), card("blue")
    give_cards(st, "a", [c, d])
    give_goods(st, "a", green=1)
    opened = GAME.view(st, "b")["players"]["a"]
    assert [x["id"] for x in opened["hand"]] == sorted([c, d])
    st, ev = do(st, "a", f"load {c} on ship 1")
    assert all(e.to == ("a",) for e in ev if e.kind == "load")
    # while the phase runs, b sees a as the phase opened: hand, goods and an empty ship
    assert GAME.view(st, "b")["players"]["a"] == opened
    assert GAME.view(st, "a")["players"]["a"]["ships"][0]["cargo"][0]["id"] == c
    assert [x["id"] for x in GAME.view(st, "a")["players"]["a"]["hand"]] == [d]
    st, _ = do(st, "a", "done")
    st, ev = do(st, "b", "done")
    sail = [e for e in ev if e.kind == "ship.sail"]
    assert len(sail) == 1 and sail[0].to is None and sail[0].data["contracts"] == [c] and f"({c})" in sail[0].text
    # at sea the contracts lie face down again (FAQ)
    assert GAME.view(st, "b")["players"]["a"]["ships"][0]["cargo"] == "hidden"


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


def test_views_are_json_and_never_show_hidden_values_during_play():
    import json

    from referee.playthrough import play

    def look(pt):
        if pt.steps % 11:
            return
        for n in pt.players:
            v = GAME.view(pt.state, n)
            json.dumps(v)
            for other, entry in v["players"].items():
                if other != n:
                    assert entry["gold"] == "hidden"
                    assert all(s["cargo"] in ("hidden", []) for s in entry["ships"])
            assert isinstance(v["deck"], int)

    play(GAME, ["ann", "bob", "cid"], "views", on_step=look)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_default_orders_end_each_part_and_finish_the_game(n):
    st = new(tuple("abcde"[:n]))
    steps = 0
    while GAME.prompts(st):
        p = GAME.prompts(st)[0]
        st2, _ = GAME.apply(st, p.player, GAME.default_orders(st, p.player))
        assert [(q.player, q.decision) for q in GAME.prompts(st2)].count((p.player, p.decision)) == 0 \
            or GAME.phase(st2).key != GAME.phase(st).key
        st = st2
        steps += 1
    assert GAME.result(st) is not None and st["round"] == 9 and steps < 400


def test_market_names_are_shown_with_a_dash_and_kept_as_transcribed():
    """The market cards join a district and its place with a dash; the component data keep the
    spaced hyphen they were transcribed with (their provenance), and what players read (the
    view, the history, the German and Italian mail) shows the dash."""
    from games.constantinopolis import end_of_round
    from referee.i18n.messages import say

    from pathlib import Path

    import games.constantinopolis

    raw = (Path(games.constantinopolis.__file__).parent / "data" / "components.json").read_text(encoding="utf-8")
    assert "VII Regio - Opificies" in raw and "Regio \u2013" not in raw  # the data as transcribed
    st = new()
    st["phase"] = "donate"
    for who in ("greg", None):
        market = GAME.view(st, who)
        shown = [market["market"]["current"], *market["market"]["future"]] if who else market["future_market"]
        assert shown and all(" – " in name and " - " not in name for name in shown if name != "hidden"), shown
    events: list = []
    end_of_round.end_of_round(st, events)
    moved = next(e for e in events if e.kind == "market")
    for lang in ("en", "de", "it"):
        text = say(moved.text, lang, GAME)
        assert " – " in text and " - " not in text, text


def test_at_the_games_end_everyone_sees_everyones_gold():
    """The final scoring counts gold in the open (fame for gold, then gold breaks ties), so the
    final table shows it instead of hiding it as during the game."""
    from referee.computer.arena import play_match

    end = play_match(GAME, {"a": "random", "b": "random", "c": "random"}, "gold at the end").state
    assert end is not None and end["phase"] == "over"
    seen = GAME.view(end, "a")["players"]
    assert [seen[p]["gold"] for p in "abc"] == [end["p"][p]["gold"] for p in "abc"]
