"""Palace seats (Palast): the buyer always takes the cheapest free field and must meet its
trade-point minimum; after the game end, one more seat may be bought at a fixed price.

Reference: §5.4 (the palace side action), §5.9 (the final seat), A13 (which field), A14 (P7
ignores the minimum), A33 (money is secret) and A44 (every purchase needs a supply servant).
"""

from __future__ import annotations

from referee.contract import Event
from referee.wording import Phrase, phrase

from .state import State


def cheapest_field(state: State) -> tuple[int | None, int, int]:
    """(small field index or None for the big field, price, trade-point minimum) (A13)."""
    best: tuple[int | None, int, int] | None = None
    for i, (price, minimum) in enumerate(state["comp"]["palace_fields"]):
        if state["palace"][i] is None and (best is None or price < best[1]):
            best = (i, price, minimum)
    big = state["comp"]["palace_big_field"]
    if best is None or big["price"] < best[1]:
        best = (None, big["price"], big["min_tp"])
    return best


_NO_SERVANT = phrase("a palace seat needs a servant in your supply")  # made once: asked at every turn's end


def purchase_problem(state: State, seat: int, ignore_tp: bool = False, public: bool = False) -> Phrase | None:
    """Why a palace purchase is impossible now, or None (A13, A14, A44). With `public`, only
    what every player can see is tested: money is secret (A33), so it never decides whether
    a player is asked, only whether the purchase itself goes through."""
    field, price, minimum = cheapest_field(state)
    if state["supply"][seat] < 1:
        return _NO_SERVANT
    if not ignore_tp and state["tp"][seat] < minimum:
        return phrase("the cheapest free palace field needs {minimum} trade points, you have {points}",
                      minimum=minimum, points=state["tp"][seat])
    if not public and state["money"][seat] < price:
        return phrase("the cheapest free palace field costs {price} talents and you have {money}", price=price,
                      money=state["money"][seat])
    return None


def buy_seat(state: State, seat: int, events: list[Event], why: Phrase) -> None:
    """A servant onto the cheapest free field, paying its price."""
    field, price, _ = cheapest_field(state)
    state["money"][seat] -= price
    state["supply"][seat] -= 1
    if field is None:
        state["big"][seat] += 1
    else:
        state["palace"][field] = seat
    name = state["players"][seat]
    text = phrase("{player} buys a palace seat on the big field for {price} talents ({reason}).", player=name,
                  price=price, reason=why) if field is None else \
        phrase("{player} buys a palace seat on palace field {field} for {price} talents ({reason}).", player=name,
               field=field + 1, price=price, reason=why)
    events.append(Event("palace", text, {"player": name, "field": field, "price": price}))


def final_problem(state: State, seat: int, public: bool = False) -> Phrase | None:
    """Why the final 20-talent seat cannot be bought; with `public`, leaving out the secret
    money, so that whoever might buy is asked (and one who cannot pay answers PASS)."""
    final_seat = state["comp"]["final_seat"]
    if state["supply"][seat] < 1:
        return _NO_SERVANT
    if state["tp"][seat] < final_seat["min_tp"]:
        return phrase("the final seat needs {minimum} trade points", minimum=final_seat["min_tp"])
    if not public and state["money"][seat] < final_seat["price"]:
        return phrase("the final seat costs {price} talents and you have {money}", price=final_seat["price"],
                      money=state["money"][seat])
    return None


def buy_final_seat(state: State, seat: int, events: list[Event]) -> None:
    """The final seat goes on the big field, at its fixed price."""
    price = state["comp"]["final_seat"]["price"]
    state["money"][seat] -= price
    state["supply"][seat] -= 1
    state["big"][seat] += 1
    events.append(Event("palace", phrase("{player} buys the final palace seat for {price} talents.",
                                         player=state["players"][seat], price=price),
                        {"player": state["players"][seat], "field": None, "price": price}))
