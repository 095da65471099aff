import pytest

from games.porto_carthago import GAME
from referee.contract import AmbiguousOrder, IllegalOrder, InvalidOrder, Order, OrderErrors

from .helpers import at_actions, do, free_all_docks, store


def parse(text, player="Ann", state=None):
    return GAME.parse(state or at_actions(), player, text)


@pytest.mark.parametrize("text,order", [
    ("Kapitän 1", Order("captain", {"slot": 1})),
    ("kapitaen 1", Order("captain", {"slot": 1})),
    ("CAPTAIN", Order("captain", {"slot": 1})),
    ("Aristokrat 2 Leuchtturm +2 tempel -1", Order("aristocrat", {"slot": 2, "lighthouse": 2, "temple": -1})),
    ("Lademeister 3 occupy c2-ii", Order("loadmaster", {"slot": 3, "mode": "occupy", "dock": "C2-II"})),
    ("loadmaster sw C2-I to C4-2", Order("loadmaster", {"slot": 3, "mode": "switch", "dock": "C2-I", "to": "C4-II"})),
    ("Händler g3", Order("merchant", {"slot": 4, "good": "G3"})),
    ("haendler 4 G3", Order("merchant", {"slot": 4, "good": "G3"})),
    ("Träger 5 storage g1 -> c1-i", Order("porter", {"slot": 5, "from": "storage", "good": "G1", "to": "C1-I"})),
    ("traeger 6 C1-I to charter", Order("porter", {"slot": 6, "from": "C1-I", "to": "charter"})),
    ("talents  # a comment", Order("talents")),
    ("dock s05 ii", Order("dock", {"ship": "S05", "at": "II"})),
    ("dock S05", Order("dock", {"ship": "S05", "at": None})),
    ("use s07 bob lighthouse 1 ann temple 2", Order("use", {"card": "S07", "moves": [["Ann", -2], ["Bob", 1]]})),
    ("occupy c1-i take g2", Order("occupy", {"dock": "C1-I", "good": "G2"})),
    ("intrigue 2", Order("intrigue", {"count": 2})),
])
def test_keywords_aliases_and_prefixes(text, order):
    assert parse(text) == [order]
    assert parse(GAME.format(order)) == [order]


def test_an_unknown_keyword_is_invalid_with_a_suggestion_and_line_number():
    with pytest.raises(InvalidOrder) as err:
        parse("# my orders\n\ncaptian 1")
    assert err.value.line == 3 and "captain" in err.value.suggestion


def test_an_ambiguous_prefix_names_the_choices():
    with pytest.raises(AmbiguousOrder) as err:
        parse("d S05")
    assert err.value.line == 1 and err.value.suggestion


def test_two_porter_cards_need_the_slot_number():
    with pytest.raises(AmbiguousOrder) as err:
        parse("porter storage G1 to C1-I")
    assert "5" in err.value.suggestion and "6" in err.value.suggestion


def test_bad_numbers_and_names_are_invalid():
    with pytest.raises(InvalidOrder):
        parse("intrigue many")
    with pytest.raises(InvalidOrder) as err:
        parse("merchant 4 G9")
    assert err.value.suggestion
    with pytest.raises(InvalidOrder):
        parse("captain 9")
    with pytest.raises(InvalidOrder):
        parse("porter 5 storage G1 C1-I")
    with pytest.raises(InvalidOrder):
        parse("")


def test_several_errors_are_reported_together():
    with pytest.raises(OrderErrors) as err:
        parse("talents\nfoo\nmerchant 4 G9")
    assert [e.line for e in err.value.errors] == [2, 3]


def test_illegal_orders_name_the_line_and_leave_the_state_alone():
    s = store(free_all_docks(at_actions()), "Ann", "G1")
    before = dict(s)
    with pytest.raises(IllegalOrder) as err:
        do(s, "MERCHANT 5 G3")
    assert err.value.line == 1 and "slot 4" in err.value.suggestion
    assert s == before
    with pytest.raises(IllegalOrder) as err:
        do(s, "INTRIGUE 1")
    assert "allowed now" in err.value.suggestion


def test_help_lists_example_orders():
    s = at_actions()
    assert "TALENTS" in GAME.help(s, "Ann")
    assert "queue" in GAME.help(s, "Bob")


def test_garbage_never_raises_anything_but_order_errors():
    from referee.contract import OrderError
    from referee.rng import Rng
    s = at_actions()
    words = ["porter", "5", "to", "storage", "G1", "C1-I", "-", "charter", "use", "S07", "Ann", "lighthouse",
             "+2", "x", "dock", "II", "occupy", "take", "arrange", "intrigue", "-1", "ä", "#", "->", "side", "0"]
    rng = Rng.from_seed("fuzz", "grammar")
    for _ in range(2000):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
        try:
            orders = GAME.parse(s, "Ann", line)
        except OrderError as exc:
            assert exc.line is not None
            continue
        for o in orders:
            try:
                GAME.apply(s, "Ann", [o])
            except OrderError as exc:
                assert exc.line == 1
