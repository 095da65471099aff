"""Ships entering the harbour (phase 1, "Schiffe fahren in den Hafen ein"): the lighthouse
(Leuchtturm) players choose ships of row 1 and dock them, the rest enter by themselves top to
bottom, and then every dock holding the good its ship wants is loaded.

Reference: §5.3, with A4 (lighthouse ties from the current start player), A5 (how many each
chooser docks, dock I or II), A6 (departing ships go under the deck), A7 (the order of the
loadings), A25 (privilege P8 lets one ship enter at once) and A42 (a leader who sends a ship
away docks none).
"""

from __future__ import annotations

from referee.contract import Event, IllegalOrder
from referee.wording import Phrase, listed, order_text, phrase

from . import plans
from .board import DOCKS, civilization_docks, clockwise, dock_name, ship_card
from .loading import load_if_wanted
from .state import State


def choosers(state: State) -> list[int]:
    """Lighthouse players by count, ties to the card holder and then clockwise (A4)."""
    count = len(state["players"])
    start = state["start"]
    seats = [s for s in range(count) if state["light"][s] > 0]
    return sorted(seats, key=lambda s: (-state["light"][s], (s - start) % count))


def quota(state: State, rank: int) -> int:
    """Ships the chooser of this rank docks: two for the first two, then one each (A5)."""
    return min(2 if rank < 2 else 1, len(state["row1"]))


def begin(state: State, automatic: bool) -> None:
    """Open an arrival; with `automatic` nobody chooses (decade 1, the final arrival)."""
    seats = [] if automatic else choosers(state)
    state["arr"] = {"ch": seats, "i": 0, "left": quota(state, 0) if seats else 0, "fresh": True}


def current_chooser(state: State) -> int | None:
    """The seat that chooses a ship now, or None when the choosing is over."""
    arrival = state["arr"]
    if arrival is None or arrival["i"] >= len(arrival["ch"]) or not state["row1"]:
        return None
    return arrival["ch"][arrival["i"]]


def free_docks(state: State, ship: str) -> list[int]:
    """The docks of the ship's civilization without a ship ("free" for docking, A18)."""
    return [d for d in civilization_docks(state, ship_card(state, ship)["civilization"]) if state["dock_s"][d] is None]


def dock_ship(state: State, ship: str, at: int | None, events: list[Event], who: Phrase) -> int | None:
    """Put a ship into a free dock of its civilization, or send it under the deck."""
    free = free_docks(state, ship)
    if at is None:
        at = free[0] if free else None
    if at is None:
        state["deck"].append(ship)
        events.append(Event("departure", phrase("Ship {ship} finds both docks of its civilization taken and leaves "
                                                "under the deck ({how}).", ship=ship, how=who), {"ship": ship}))
        return None
    state["dock_s"][at] = ship
    card = ship_card(state, ship)
    events.append(Event("docking", phrase("Ship {ship} ({civilization}, wants {good}) docks at {dock} ({how}).",
                                          ship=ship, civilization=card["civilization"], good=card["good"],
                                          dock=dock_name(state, at), how=who),
                        {"ship": ship, "dock": dock_name(state, at)}))
    return at


NOT_IN_ROW_1 = phrase("that ship is not in row 1")  # the reason shared by the ships a plan names


def validate_choice(state: State, seat: int, kind: str, ship: str, at: str | None) -> int | None:
    """IllegalOrder unless the chooser may dock (at dock I or II) or reject this ship; the
    dock index chosen, if any."""
    if ship not in state["row1"]:
        raise IllegalOrder(phrase("ship {ship} is not in row 1", ship=ship), reason=NOT_IN_ROW_1,
                           suggestion=phrase("row 1 holds {ships}", ships=listed(state["row1"])))
    if kind == "reject":
        if not (state["arr"]["i"] == 0 and state["arr"]["fresh"]):
            raise IllegalOrder(phrase("only the lighthouse leader may send a ship away, and only instead of docking "
                                      "two"))
        return None
    if at is None:
        return None
    first, second = civilization_docks(state, ship_card(state, ship)["civilization"])
    dock = first if at == "I" else second
    if state["dock_s"][dock] is not None:
        raise IllegalOrder(phrase("dock {dock} already has a ship", dock=dock_name(state, dock)),
                           reason=phrase("that dock already has a ship"),
                           suggestion=phrase("write {order} without a numeral", order=order_text(f"DOCK {ship}")))
    return dock


def choose(state: State, seat: int, kind: str, ship: str, at: str | None, events: list[Event]) -> None:
    """DOCK or REJECT: the ship leaves row 1; the next chooser follows when this one is done."""
    dock = validate_choice(state, seat, kind, ship, at)
    arrival = state["arr"]
    state["row1"].remove(ship)
    if kind == "reject":
        state["deck"].append(ship)
        events.append(Event("rejection", phrase("{player} sends ship {ship} away under the deck.",
                                                player=state["players"][seat], ship=ship), {"ship": ship}))
        arrival["i"] += 1
        arrival["fresh"] = True
        arrival["left"] = quota(state, arrival["i"])
        return
    dock_ship(state, ship, dock, events, phrase("chosen by {player}", player=state["players"][seat]))
    arrival["fresh"] = False
    arrival["left"] -= 1
    if arrival["left"] <= 0 or not state["row1"]:
        arrival["i"] += 1
        arrival["fresh"] = True
        arrival["left"] = quota(state, arrival["i"])


def choice_menu(state: State) -> list[tuple[str, str, str | None]]:
    """(kind, ship, dock numeral) for each choice the chooser has."""
    out: list[tuple[str, str, str | None]] = []
    arrival = state["arr"]
    for ship in state["row1"]:
        out.append(("dock", ship, None))
        if len(free_docks(state, ship)) == 2:
            out.append(("dock", ship, "II"))
        if arrival["i"] == 0 and arrival["fresh"]:
            out.append(("reject", ship, None))
    return out


def finish(state: State, events: list[Event]) -> None:
    """Unchosen ships enter top to bottom; then every dock with its wanted good loads (A7)."""
    for ship in list(state["row1"]):
        dock_ship(state, ship, None, events, phrase("automatic entry"))
    state["row1"] = []
    state["arr"] = None
    plans.lapse(state, "lighthouse", events)
    for seat in clockwise(state, state["start"]):
        for dock in range(DOCKS):
            if state["dock_o"][dock] == seat:
                load_if_wanted(state, dock, events)


def privilege_entry(state: State, ship: str, events: list[Event], who: Phrase) -> None:
    """P8: one row-1 ship enters now; the row-2 ship behind it moves up (A25)."""
    position = state["row1"].index(ship)
    if position < len(state["row2"]):
        state["row1"][position] = state["row2"][position]
        if state["deck"]:
            state["row2"][position] = state["deck"].pop(0)
        else:
            del state["row2"][position]
    else:
        del state["row1"][position]
    dock = dock_ship(state, ship, None, events, who)
    if dock is not None:
        load_if_wanted(state, dock, events)
