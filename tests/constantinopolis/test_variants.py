"""Game options: Free Trade, the Italian drop-out rule and the Italian face-down reshuffle."""

import pytest

from games.constantinopolis import GAME
from referee.contract import IllegalOrder, SetupError
from referee.playthrough import play

from .util import at_accept, at_auction, card, do, give_cards, give_goods, new, own, seat


def test_free_trade_needs_both_sides():
    st = at_accept(seat(new(("kay", "jen"), free_trade=True), {"magister": "kay", "pretorio": "jen"}))
    c = card("green")
    give_cards(st, "kay", [c])
    give_goods(st, "jen", blue=1)
    st, ev = do(st, "jen", f"offer kay give 1 blue for contract {c}")
    assert st["p"]["jen"]["goods"]["blue"] == 1  # nothing moves before the answer
    st, _ = do(st, "kay", "reject 1")
    st, _ = do(st, "jen", f"offer kay give 1 blue, 1 gold for contract {c}")
    st, ev = do(st, "kay", "accept 2")
    assert c in st["p"]["jen"]["hand"] and st["p"]["kay"]["goods"]["blue"] == 1
    assert st["p"]["kay"]["gold"] == 31 and st["p"]["jen"]["gold"] == 29
    assert GAME.check(st) == []


def test_free_trade_is_off_by_default():
    st = at_accept(seat(new(("kay", "jen")), {"magister": "kay", "pretorio": "jen"}))
    with pytest.raises(IllegalOrder):
        GAME.apply(st, "jen", GAME.parse(st, "jen", "offer kay give 1 gold for nothing"))


def test_options_are_validated():
    with pytest.raises(SetupError):
        new(("a", "b"), market_reshuffle="sideways")
    with pytest.raises(SetupError):
        new(("a", "b"), colour="red")
    with pytest.raises(SetupError):
        new(("a",))
    with pytest.raises(SetupError):
        new(("a", "b", "c", "d", "e", "f"))


def test_dropout_needs_the_option_and_two_players_left():
    st = new(("a", "b", "c"))
    with pytest.raises(IllegalOrder):
        GAME.drop(st, "a")
    st = new(("a", "b", "c"), dropout=True)
    st, ev = GAME.drop(st, "a")
    with pytest.raises(IllegalOrder):
        GAME.drop(st, "b")


def test_dropout_removes_pieces_next_round_and_shrinks_supply():
    st = new(("a", "b", "c"), dropout=True)
    st = seat(st, {"magister": "a", "pretorio": "b", "comes": "c"})
    own(st, "a", "Metallum", "Caupona")
    st = at_auction(st)
    st, ev = GAME.drop(st, "a")
    assert all(p.player != "a" for p in GAME.prompts(st))
    while st["round"] == 1:
        p = GAME.prompts(st)[0].player
        assert p != "a"
        st, _ = GAME.apply(st, p, GAME.default_orders(st, p))
    assert st["p"]["a"]["buildings"] == [] and "a" not in st["offices"].values()
    assert st["supply"]["Metallum"] == 1 and st["supply"]["Caupona"] == 1  # at most one each for two players
    assert GAME.check(st) == []
    while st["phase"] != "over":
        p = GAME.prompts(st)[0].player
        st, _ = GAME.apply(st, p, GAME.default_orders(st, p))
    res = GAME.result(st)
    assert "a" not in [n for place in res.ranking for n in place]


@pytest.mark.parametrize("seed", range(12))
def test_random_games_with_a_dropout(seed):
    dropped = {}

    def maybe_drop(pt):
        if not dropped and pt.steps == 40 + seed * 7:
            victim = pt.players[seed % len(pt.players)]
            pt.state, ev = GAME.drop(pt.state, victim)
            dropped["who"] = victim
            assert GAME.check(pt.state) == []

    pt = play(GAME, ["a", "b", "c", "d"], f"drop{seed}", {"dropout": True}, checks=True, on_step=maybe_drop)
    assert pt.result is not None and dropped


@pytest.mark.parametrize("seed", range(15))
def test_random_games_with_all_other_options(seed):
    opts = {"free_trade": True, "market_reshuffle": "facedown", "public_gold": True,
            "produce_since_round_start": seed % 2 == 0, "taberna_one_type": seed % 3 == 0}
    pt = play(GAME, ["a", "b", "c"], f"opt{seed}", opts, checks=True)
    assert pt.result is not None


def _construct(**opts):
    from .util import at_construct
    from games.constantinopolis import production
    st = seat(new(("a", "b"), **opts), {"magister": "a", "pretorio": "b"})
    st["market"]["current"] = [0]
    st = at_construct(st)
    production.produce(st, [])
    return st


def test_italian_able_to_produce_needs_buildings_owned_since_round_start():
    for flag, allowed in ((False, True), (True, False)):
        st = _construct(produce_since_round_start=flag)
        st["p"]["a"]["gold"] = 60
        st, _ = do(st, "a", "build metallum\nbuild emporium")
        give_goods(st, "a", red=2)
        if allowed:
            st, _ = do(st, "a", "use emporium")
            assert st["p"]["a"]["fame"] == 1
        else:
            with pytest.raises(IllegalOrder):
                GAME.apply(st, "a", GAME.parse(st, "a", "use emporium"))


def test_italian_taberna_one_type_reading():
    for flag in (False, True):
        st = _construct(taberna_one_type=flag)
        own(st, "a", "Taberna", "Venatoris Domus")
        st, _ = do(st, "a", "buy 1 green")
        if flag:
            with pytest.raises(IllegalOrder):
                GAME.apply(st, "a", GAME.parse(st, "a", "buy 1 blue"))
            st, _ = do(st, "a", "buy 1 green")  # more of the same type is fine
        else:
            st, _ = do(st, "a", "buy 1 blue")
