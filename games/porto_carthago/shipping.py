"""Shipping by charter ship (Verschiffen): a porter sends any good out on the player's own
charter ship at once, and the top ship card of the deck decides the voyage by the Baal
danger test: the player's servants in the Baal temple against the card's danger number
(Gefahrenzahl).

Reference: §5.6, with A20 (the temple tax, only on success, counted before the temple
servant goes home, never more than the player has), A21 (no shipping from an empty deck),
A22 (several charter ships are interchangeable) and A45 (the revealed card goes under the
deck and nobody gains its privilege).
"""

from __future__ import annotations

from referee.contract import Event
from referee.wording import phrase, plural_phrase

from .board import ship_card
from .intrigue import gain_points
from .state import State


def baal_danger_test(temple_servants: int, danger: int) -> bool:
    """The voyage succeeds when the Baal temple holds at least as many of the player's
    servants as the revealed ship card's danger number."""
    return temple_servants >= danger


def ship_by_charter(state: State, seat: int, good: str, events: list[Event]) -> None:
    """Send `good` out on an own charter ship: success pays the full yield less the temple
    tax and 2 trade points, failure half the yield (rounded up) and 1 trade point. Either
    way the good goes to the bag, the charter ship and one temple servant come home."""
    top = state["deck"].pop(0)
    card = ship_card(state, top)
    name = state["players"][seat]
    temple = state["temple"][seat]
    rules = state["comp"]["shipping"]
    success = baal_danger_test(temple, card["danger"])
    if success:
        gain = card["yield"]
        nominal = temple * rules["tax_per_temple_servant"]
        tax = min(nominal, state["money"][seat] + gain)  # A20: never below zero
        state["money"][seat] += gain - tax
        points = rules["success_tp"]
        # the public text gives the nominal tax: a capped amount would reveal the secret purse
        text = plural_phrase(temple, "{player} ships {good} by charter: card {card} shows danger {danger} against {n} "
                             "temple servant, a success. {gain} talents earned, {tax} due as temple tax.",
                             "{player} ships {good} by charter: card {card} shows danger {danger} against {n} "
                             "temple servants, a success. {gain} talents earned, {tax} due as temple tax.",
                             player=name, good=good, card=top, danger=card["danger"], gain=gain, tax=nominal)
        if tax < nominal:
            events.append(Event("tax", phrase("You could pay only {paid} of the {tax} talents of temple tax.", paid=tax,
                                              tax=nominal), {"paid": tax}, to=(name,)))
    else:
        gain = (card["yield"] + 1) // 2
        state["money"][seat] += gain
        points = rules["fail_tp"]
        text = plural_phrase(temple, "{player} ships {good} by charter: card {card} shows danger {danger} against {n} "
                             "temple servant, the voyage fails. Half the yield, {gain} talents, is paid.",
                             "{player} ships {good} by charter: card {card} shows danger {danger} against {n} "
                             "temple servants, the voyage fails. Half the yield, {gain} talents, is paid.",
                             player=name, good=good, card=top, danger=card["danger"], gain=gain)
    state["deck"].append(top)
    state["bag"].append(good)
    state["charter"][state["charter"].index(seat)] = None
    state["temple"][seat] -= 1
    state["supply"][seat] += 2
    events.append(Event("shipping", text, {"player": name, "card": top, "danger": card["danger"], "temple": temple,
                                           "success": success, "money": gain}))
    gain_points(state, seat, points, phrase("charter shipping"), events)
