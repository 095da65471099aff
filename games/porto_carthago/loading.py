"""Loading at an own dock and charter shipping: the two ways a good earns money."""

from __future__ import annotations

from referee.contract import Event

from .board import IMMEDIATE, PRIVILEGE_TEXT, State, card, counted, dock_name
from .intrigue import gain_points


def wants(state: State, dock: int) -> bool:
    """A ship lies here and the good it wants lies here too."""
    ship, good = state["dock_s"][dock], state["dock_g"][dock]
    return ship is not None and good is not None and card(state, ship)["good"] == good


def load(state: State, dock: int, events: list[Event], any_good: bool = False) -> None:
    """Load the good at `dock` onto its ship (P3: any good). Rewards go to the dock's owner."""
    seat = state["dock_o"][dock]
    ship = state["dock_s"][dock]
    good = state["dock_g"][dock]
    c = card(state, ship)
    name = state["players"][seat]
    state["money"][seat] += c["yield"]
    state["supply"][seat] += 2
    state["dock_o"][dock] = None
    state["dock_g"][dock] = None
    state["dock_s"][dock] = None
    state["bag"].append(good)  # A19: a loaded good goes back into the bag
    state["held"][seat].append(ship)
    how = " with the any-good privilege" if any_good else ""
    events.append(Event("loading", f"{name} loads {good} onto ship {ship} at {dock_name(state, dock)}{how}, earns "
                        f"{c['yield']} talents, takes the ship card ({c['privilege']}: {PRIVILEGE_TEXT[c['privilege']]}) "
                        f"and gets both dock servants back.",
                        {"player": name, "dock": dock_name(state, dock), "ship": ship, "good": good, "yield": c["yield"]}))
    gain_points(state, seat, state["comp"]["loading"]["trade_points"], f"loading {ship}", events)
    if c["privilege"] in IMMEDIATE:
        state["pending"].append({"t": "priv", "p": seat, "card": ship})


def load_if_wanted(state: State, dock: int, events: list[Event]) -> None:
    if wants(state, dock):
        load(state, dock, events)


def ship_charter(state: State, seat: int, good: str, events: list[Event]) -> None:
    """Send `good` out on an own charter ship; the top ship card decides (A20, A45)."""
    top = state["deck"].pop(0)
    c = card(state, top)
    name = state["players"][seat]
    temple = state["temple"][seat]
    rules = state["comp"]["shipping"]
    if temple >= c["danger"]:
        gain = c["yield"]
        nominal = temple * rules["tax_per_temple_servant"]
        tax = min(nominal, state["money"][seat] + gain)  # A20: never below zero
        state["money"][seat] += gain - tax
        points = rules["success_tp"]
        # the public text gives the nominal tax: a capped amount would reveal the secret purse
        text = (f"{name} ships {good} by charter: card {top} shows danger {c['danger']} against "
                f"{counted(temple, 'temple servant')}, a success. {gain} talents earned, {nominal} due as temple tax.")
        if tax < nominal:
            events.append(Event("tax", f"You could pay only {tax} of the {nominal} talents of temple tax.",
                                {"paid": tax}, to=(name,)))
    else:
        gain = (c["yield"] + 1) // 2
        state["money"][seat] += gain
        points = rules["fail_tp"]
        text = (f"{name} ships {good} by charter: card {top} shows danger {c['danger']} against "
                f"{counted(temple, 'temple servant')}, the voyage fails. Half the yield, {gain} talents, is paid.")
    state["deck"].append(top)
    state["bag"].append(good)
    state["charter"][state["charter"].index(seat)] = None
    state["temple"][seat] -= 1
    state["supply"][seat] += 2
    events.append(Event("shipping", text, {"player": name, "card": top, "danger": c["danger"], "temple": temple,
                                           "success": temple >= c["danger"], "money": gain}))
    gain_points(state, seat, points, "charter shipping", events)
