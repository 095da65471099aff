"""Order text: every error class with its line number and suggestion, and canonical forms."""

import pytest

from games.constantinopolis import GAME
from referee.contract import AmbiguousOrder, IllegalOrder, InvalidOrder, Order, OrderErrors

from .util import at_auction, new, seat


def auction_state():
    st = new(("anna", "bert", "carl"))
    return at_auction(seat(st, {"magister": "anna", "pretorio": "bert", "comes": "carl"}))


def test_keywords_case_comments_prefixes_and_aliases():
    st = auction_state()
    orders = GAME.parse(st, "anna", "# my orders\n\n  BID Praefectus Pretorio 3 up to 7  # keep it\n")
    assert orders == [Order("bid", {"office": "pretorio", "gold": 3, "limit": 7})]
    assert GAME.parse(st, "anna", "take cons") == [Order("take", {"office": "consul"})]
    assert GAME.parse(st, "anna", "Take Treasurer") == [Order("take", {"office": "comes"})]


def test_invalid_order_has_line_and_suggestion():
    st = auction_state()
    with pytest.raises(InvalidOrder) as e:
        GAME.parse(st, "anna", "# first line is a comment\nbid consol 3")
    assert e.value.line == 2 and "consul" in e.value.suggestion
    with pytest.raises(InvalidOrder) as e:
        GAME.parse(st, "anna", "bid consul three")
    assert e.value.line == 1 and "whole number" in e.value.message
    with pytest.raises(InvalidOrder) as e:
        GAME.parse(st, "anna", "fly away")
    assert e.value.line == 1


def test_ambiguous_name():
    st = auction_state()
    with pytest.raises(AmbiguousOrder) as e:
        GAME.parse(st, "anna", "take praefectus")
    assert e.value.line == 1 and e.value.suggestion


def test_illegal_for_the_current_decision():
    st = auction_state()
    with pytest.raises(IllegalOrder) as e:
        GAME.parse(st, "anna", "stay\nload 3 on ship 1")
    assert e.value.line == 2 and "allowed now" in e.value.suggestion
    with pytest.raises(IllegalOrder) as e:
        GAME.parse(st, "bert", "stay")
    assert "nothing to decide" in e.value.message


def test_several_errors_are_reported_together():
    st = auction_state()
    with pytest.raises(OrderErrors) as e:
        GAME.parse(st, "anna", "bid consol 3\nstay\ntake nowhere")
    assert [x.line for x in e.value.errors] == [1, 3]


def test_apply_error_leaves_state_untouched_and_names_the_order():
    st = auction_state()
    before = dict(st)
    with pytest.raises(IllegalOrder) as e:
        GAME.apply(st, "anna", GAME.parse(st, "anna", "bid pretorio 99"))
    assert e.value.line == 1 and st == before


def test_canonical_forms_round_trip():
    st = new(("anna", "bert"), free_trade=True)
    samples = ["stay", "take consul", "bid comes 3", "bid comes 3 up to 9", "raise 4", "pass", "defend 5",
               "good red", "build Metallum", "build Venatoris Domus with redemptor", "build public 4",
               "build wall guard", "buy 2 green", "sell 1 yellow", "use Caupona", "exchange blue for red",
               "trade green green blue", "done", "preempt", "allow", "preempt list Cura, public 5",
               "preempt never", "preempt ask", "redraw 4 17", "load 17 on ship 2", "unload 17", "post",
               "save 9", "free 9", "ship large", "offer bert give 2 gold, 1 green for contract 12",
               "accept 1", "reject 2", "donate black", "keep green yellow", "keep nothing", "discard 2 blue"]
    from games.constantinopolis.grammar import parse_line
    from games.constantinopolis.components import BUILTIN
    for text in samples:
        o = parse_line(text, BUILTIN, st["players"])
        assert GAME.format(o) == text, text
        assert parse_line(GAME.format(o), BUILTIN, st["players"]) == o


def test_friendly_spellings():
    from games.constantinopolis.grammar import parse_line
    from games.constantinopolis.components import BUILTIN
    p = lambda t: GAME.format(parse_line(t, BUILTIN, ["anna", "bert"]))  # noqa: E731
    assert p("buy mine") == "build Metallum"
    assert p("buy food") == "buy 1 green"
    assert p("defend up to 4") == "defend 4"
    assert p("load #12 onto 3") == "load 12 on ship 3"
    assert p("keep 2 luxury, food") == "keep green yellow yellow"
    assert p("ship magnus dromo") == "ship large"


def test_help_lists_orders_for_the_prompt():
    st = auction_state()
    assert "bid" in GAME.help(st, "anna")
    assert GAME.help(st, "bert") == "Nothing to decide now."


@pytest.mark.parametrize("line", ["build 1 blue", "bui 2 green"])
def test_a_count_and_a_good_after_build_is_pointed_to_buy(line):
    """`bui 1 blue` (a slip of `buy`) reads as `build` a building called `1 blue`: no such
    building, and the answer says how goods are bought."""
    with pytest.raises(InvalidOrder) as caught:
        GAME.parse(new(), "greg", line)
    assert "no building called" in str(caught.value)
    assert caught.value.suggestion == f"goods are bought with buy {line.split(' ', 1)[1]}"


@pytest.mark.parametrize("line", ["keep green green green 999999999999 blue", "keep 100 red"])
def test_a_goods_count_past_any_game_is_refused_not_listed(line):
    """A slip like `999999999999 blue` is refused with the bound, not expanded into a
    list of that many goods (which ran the machine out of memory)."""
    with pytest.raises(InvalidOrder) as caught:
        GAME.parse(new(), "greg", line)
    assert "a goods count must be at most 99" in str(caught.value)
