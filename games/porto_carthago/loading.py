"""Loading (Verladen): a ship docked at one's own dock warehouse takes the good it wants
lying there; its owner earns the ship's yield and a trade point, takes the ship card for its
privilege, and gets both dock servants back.

Reference: §5.5, with A19 (the loaded good goes back into the bag) and A24 (privilege P3
loads any good). Shipping by charter ship is in `shipping`.
"""

from __future__ import annotations

from referee.contract import Event
from referee.wording import phrase

from .board import IMMEDIATE, PRIVILEGE_TEXT, dock_name, ship_card
from .intrigue import gain_points
from .state import State


def ship_wants_good(state: State, dock: int) -> bool:
    """A ship lies here and the good it wants lies here too."""
    ship, good = state["dock_s"][dock], state["dock_g"][dock]
    return ship is not None and good is not None and ship_card(state, ship)["good"] == good


def load(state: State, dock: int, events: list[Event], any_good: bool = False) -> None:
    """Load the good at `dock` onto its ship (P3: any good). Rewards go to the dock's owner;
    an immediate privilege (P1, P5, P6) is offered to them at once."""
    seat = state["dock_o"][dock]
    ship = state["dock_s"][dock]
    good = state["dock_g"][dock]
    card = ship_card(state, ship)
    name = state["players"][seat]
    state["money"][seat] += card["yield"]
    state["supply"][seat] += 2
    state["dock_o"][dock] = None
    state["dock_g"][dock] = None
    state["dock_s"][dock] = None
    state["bag"].append(good)  # A19: a loaded good goes back into the bag
    state["held"][seat].append(ship)
    said = {"player": name, "good": good, "ship": ship, "dock": dock_name(state, dock), "talents": card["yield"],
            "code": card["privilege"], "privilege": PRIVILEGE_TEXT[card["privilege"]]}
    text = phrase("{player} loads {good} onto ship {ship} at {dock} with the any-good privilege, earns {talents} "
                  "talents, takes the ship card ({code}: {privilege}) and gets both dock servants back.", **said) \
        if any_good else phrase("{player} loads {good} onto ship {ship} at {dock}, earns {talents} talents, takes the "
                                "ship card ({code}: {privilege}) and gets both dock servants back.", **said)
    events.append(Event("loading", text, {"player": name, "dock": dock_name(state, dock), "ship": ship, "good": good,
                                          "yield": card["yield"]}))
    gain_points(state, seat, state["comp"]["loading"]["trade_points"], phrase("loading {ship}", ship=ship), events)
    if card["privilege"] in IMMEDIATE:
        state["pending"].append({"t": "priv", "p": seat, "card": ship})


def load_if_wanted(state: State, dock: int, events: list[Event]) -> None:
    """Load at once when the ship docked here wants the good lying here (after an arrival, a
    porter's move or a loadmaster's switch)."""
    if ship_wants_good(state, dock):
        load(state, dock, events)

