"""Property-based fuzzing of both games' order parsers at positions from random games.

- The canonical text of legal orders parses back to the same orders, one or several at once.
- Whatever text parses, its canonical form parses to the same orders again.
- Arbitrary text (order words in any arrangement, or any Unicode) never raises anything but an
  OrderError, from `parse` or from `apply`, and never changes the state it was given.

Hypothesis runs derandomised (the same examples on every run) and bounded.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.contract import OrderError
from referee.storage import fingerprint

from .positions import REAL, game, spots, words

FUZZ = settings(max_examples=250, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def spot_of(name: str, data: st.DataObject, asked: bool | None = None):
    pool = [s for s in spots(name) if asked is None or s.asked == asked]
    return pool[data.draw(st.integers(0, len(pool) - 1), label="position")]


def order_text(name: str) -> st.SearchStrategy[str]:
    """Lines of order words, with comments, blank lines and odd letter case now and then."""
    word = st.sampled_from(words(name)) | st.sampled_from(words(name)).map(str.lower)
    line = st.lists(word, min_size=1, max_size=7).map(" ".join)
    noise = st.sampled_from(["", "# a comment", "   ", "ORDERS", "END"])
    return st.lists(line | noise, min_size=1, max_size=5).map("\n".join)


@st.composite
def mangled_orders(draw, name: str, spot) -> str:
    """Canonical orders of the position (or of another one) written the way players do:
    shortened words, other letter case, extra spaces, comments, now and then a word swapped."""
    g = game(name)
    menu = g.legal_orders(spot.state, spot.player) or g.legal_orders(
        *(lambda s: (s.state, s.player))(draw(st.sampled_from([s for s in spots(name) if s.asked]))))
    lines = []
    for order in draw(st.lists(st.sampled_from(menu), min_size=1, max_size=3)):
        out = []
        for w in g.format(order).split(" "):
            how = draw(st.integers(0, 9))
            if how == 0 and len(w) > 3:
                w = w[: draw(st.integers(3, len(w)))]
            elif how == 1:
                w = w.upper()
            elif how == 2:
                w = w.lower()
            elif how == 3:
                w = draw(st.sampled_from(words(name)))
            out.append(w)
        gap = draw(st.sampled_from([" ", "  ", "\t"]))
        lines.append(gap.join(out) + draw(st.sampled_from(["", "", " # why not", "  "])))
    return "\n".join(lines)


@pytest.mark.parametrize("name", REAL)
@FUZZ
@given(data=st.data())
def test_the_canonical_form_of_legal_orders_parses_back(name, data):
    g = game(name)
    spot = spot_of(name, data, asked=True)
    menu = g.legal_orders(spot.state, spot.player)
    assert menu, "an asked player always has a legal order"
    picked = data.draw(st.lists(st.sampled_from(menu), min_size=1, max_size=3), label="orders")
    text = "\n".join(g.format(o) for o in picked)
    assert g.parse(spot.state, spot.player, text) == picked


@pytest.mark.parametrize("name", REAL)
@FUZZ
@given(data=st.data())
def test_whatever_parses_parses_again_from_its_canonical_form(name, data):
    g = game(name)
    spot = spot_of(name, data, asked=data.draw(st.booleans() | st.just(True), label="asked"))
    text = data.draw(mangled_orders(name, spot) | order_text(name), label="text")
    try:
        orders = g.parse(spot.state, spot.player, text)
    except OrderError:
        return
    canonical = "\n".join(g.format(o) for o in orders)
    assert g.parse(spot.state, spot.player, canonical) == orders


def _only_order_errors(name: str, spot, text: str) -> None:
    g = game(name)
    before = fingerprint(spot.state)
    try:
        orders = g.parse(spot.state, spot.player, text)
        g.apply(spot.state, spot.player, orders)
    except OrderError as exc:
        assert exc.message and exc.category
    assert fingerprint(spot.state) == before


@pytest.mark.parametrize("name", REAL)
@FUZZ
@given(data=st.data())
def test_order_words_in_any_arrangement_raise_only_order_errors(name, data):
    spot = spot_of(name, data)
    _only_order_errors(name, spot, data.draw(mangled_orders(name, spot) | order_text(name), label="text"))


@pytest.mark.parametrize("name", REAL)
@FUZZ
@given(data=st.data(), text=st.text(max_size=300))
def test_any_unicode_raises_only_order_errors(name, data, text):
    _only_order_errors(name, spot_of(name, data), text)
