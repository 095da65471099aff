import json

import pytest

from referee.contract import (
    AmbiguousOrder,
    ErrorClass,
    Event,
    IllegalOrder,
    InvalidOrder,
    Order,
    OrderError,
    OrderErrors,
    Result,
    why_not,
)
from referee.i18n.messages import say
from referee.wording import Phrase, phrase


def test_orders_compare_and_hash_by_value():
    a = Order("bid", {"office": "consul", "gold": 5})
    b = Order("bid", {"gold": 5, "office": "consul"})
    assert a == b and hash(a) == hash(b)
    assert a != Order("bid", {"office": "consul", "gold": 6})
    assert Order.from_json(json.loads(json.dumps(a.to_json()))) == a


def test_order_args_are_copied():
    args = {"gold": 1}
    order = Order("bid", args)
    args["gold"] = 2
    assert order.args["gold"] == 1


@pytest.mark.parametrize(
    "cls, category",
    [(InvalidOrder, ErrorClass.INVALID), (IllegalOrder, ErrorClass.ILLEGAL), (AmbiguousOrder, ErrorClass.AMBIGUOUS)],
)
def test_error_classes(cls, category):
    err = cls("no building called 'Metalum'", suggestion="did you mean 'Metallum'?").at(3, "BUY Metalum")
    assert isinstance(err, OrderError)
    assert err.category is category
    assert str(err) == f"line 3: {category.value}: no building called 'Metalum' (did you mean 'Metallum'?)"
    assert err.to_json() == {
        "class": category.value,
        "line": 3,
        "text": "BUY Metalum",
        "message": "no building called 'Metalum'",
        "suggestion": "did you mean 'Metallum'?",
    }


def test_several_errors_travel_together():
    errors = OrderErrors([InvalidOrder("a", line=1), IllegalOrder("b", line=4)])
    assert isinstance(errors, OrderError)
    assert errors.line == 1 and errors.category is ErrorClass.INVALID
    assert [e.line for e in errors.errors] == [1, 4]
    with pytest.raises(ValueError):
        OrderErrors([])


def test_alternatives_refused_for_one_reason_are_named_together():
    """Each reason is said once, after every alternative it refused, in the order they were
    tried; an error's `reason` (the rule in words that fit every order) groups where its
    message names the order's own values."""
    taken = phrase("that dock is taken")
    failures = [
        ("A1", IllegalOrder(phrase("dock {dock} is taken", dock="A"), reason=taken)),
        ("B2", IllegalOrder(phrase("there is no {good} in the market", good="G2"))),
        ("A2", IllegalOrder(phrase("dock {dock} is taken", dock="A"), reason=taken)),
        ("C2", IllegalOrder(phrase("there is no {good} in the market", good="G2"))),
        ("X", phrase("that answers another decision")),
    ]
    said = why_not(failures, lambda alts: " or ".join(alts))
    assert said == ("A1 or A2: that dock is taken; B2 or C2: there is no G2 in the market; "
                    "X: that answers another decision")
    assert isinstance(said, Phrase)
    assert "A1 or A2" in say(said, "de") and "G2" in say(said, "de")


def test_event_visibility_and_json():
    public = Event("auction.won", "Red takes the Consul for 4 gold.")
    private = Event("card.drawn", "You draw contract 17.", {"card": 17}, to=("red",))
    assert public.visible_to("blue") and public.visible_to(None)
    assert private.visible_to("red") and not private.visible_to("blue") and private.visible_to(None)
    assert Event.from_json(json.loads(json.dumps(private.to_json()))) == private


def test_result_json():
    result = Result({"red": {"fame": 51}}, (("red",), ("blue", "green")), ("red",))
    assert result.to_json()["ranking"] == [["red"], ["blue", "green"]]
