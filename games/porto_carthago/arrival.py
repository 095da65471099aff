"""Ships entering the harbour: lighthouse choices, automatic docking and the loading check."""

from __future__ import annotations

from referee.contract import Event, IllegalOrder

from .board import State, card, civ_docks, clockwise, dock_name
from .loading import load_if_wanted


def choosers(state: State) -> list[int]:
    """Lighthouse players by count, ties to the card holder and then clockwise (A4)."""
    n = len(state["players"])
    start = state["start"]
    seats = [s for s in range(n) if state["light"][s] > 0]
    return sorted(seats, key=lambda s: (-state["light"][s], (s - start) % n))


def quota(state: State, rank: int) -> int:
    return min(2 if rank < 2 else 1, len(state["row1"]))


def begin(state: State, automatic: bool) -> None:
    ch = [] if automatic else choosers(state)
    state["arr"] = {"ch": ch, "i": 0, "left": quota(state, 0) if ch else 0, "fresh": True}


def current_chooser(state: State) -> int | None:
    arr = state["arr"]
    if arr is None or arr["i"] >= len(arr["ch"]) or not state["row1"]:
        return None
    return arr["ch"][arr["i"]]


def free_docks(state: State, ship: str) -> list[int]:
    return [d for d in civ_docks(state, card(state, ship)["civilization"]) if state["dock_s"][d] is None]


def dock_ship(state: State, ship: str, at: int | None, events: list[Event], who: str) -> int | None:
    """Put a ship into a free dock of its civilization, or send it under the deck."""
    free = free_docks(state, ship)
    if at is None:
        at = free[0] if free else None
    if at is None:
        state["deck"].append(ship)
        events.append(Event("departure", f"Ship {ship} finds both docks of its civilization taken and leaves "
                            f"under the deck ({who}).", {"ship": ship}))
        return None
    state["dock_s"][at] = ship
    events.append(Event("docking", f"Ship {ship} ({card(state, ship)['civilization']}, wants "
                        f"{card(state, ship)['good']}) docks at {dock_name(state, at)} ({who}).",
                        {"ship": ship, "dock": dock_name(state, at)}))
    return at


def validate_choice(state: State, seat: int, kind: str, ship: str, at: str | None) -> int | None:
    if ship not in state["row1"]:
        raise IllegalOrder(f"ship {ship} is not in row 1", suggestion=f"row 1 holds {', '.join(state['row1'])}")
    if kind == "reject":
        if not (state["arr"]["i"] == 0 and state["arr"]["fresh"]):
            raise IllegalOrder("only the lighthouse leader may send a ship away, and only instead of docking two")
        return None
    if at is None:
        return None
    lo, hi = civ_docks(state, card(state, ship)["civilization"])
    d = lo if at == "I" else hi
    if state["dock_s"][d] is not None:
        raise IllegalOrder(f"dock {dock_name(state, d)} already has a ship", suggestion=f"write DOCK {ship} without a numeral")
    return d


def choose(state: State, seat: int, kind: str, ship: str, at: str | None, events: list[Event]) -> None:
    d = validate_choice(state, seat, kind, ship, at)
    arr = state["arr"]
    who = f"chosen by {state['players'][seat]}"
    state["row1"].remove(ship)
    if kind == "reject":
        state["deck"].append(ship)
        events.append(Event("rejection", f"{state['players'][seat]} sends ship {ship} away under the deck.", {"ship": ship}))
        arr["i"] += 1
        arr["fresh"] = True
        arr["left"] = quota(state, arr["i"])
        return
    dock_ship(state, ship, d, events, who)
    arr["fresh"] = False
    arr["left"] -= 1
    if arr["left"] <= 0 or not state["row1"]:
        arr["i"] += 1
        arr["fresh"] = True
        arr["left"] = quota(state, arr["i"])


def choice_menu(state: State) -> list[tuple[str, str, str | None]]:
    out: list[tuple[str, str, str | None]] = []
    arr = state["arr"]
    for ship in state["row1"]:
        out.append(("dock", ship, None))
        if len(free_docks(state, ship)) == 2:
            out.append(("dock", ship, "II"))
        if arr["i"] == 0 and arr["fresh"]:
            out.append(("reject", ship, None))
    return out


def finish(state: State, events: list[Event]) -> None:
    """Unchosen ships enter top to bottom; then every dock with its wanted good loads (A7)."""
    for ship in list(state["row1"]):
        dock_ship(state, ship, None, events, "automatic entry")
    state["row1"] = []
    state["arr"] = None
    for seat in clockwise(state, state["start"]):
        for d in range(12):
            if state["dock_o"][d] == seat:
                load_if_wanted(state, d, events)


def privilege_entry(state: State, ship: str, events: list[Event], who: str) -> None:
    """P8: one row-1 ship enters now; the row-2 ship behind it moves up (A25)."""
    pos = state["row1"].index(ship)
    if pos < len(state["row2"]):
        state["row1"][pos] = state["row2"][pos]
        if state["deck"]:
            state["row2"][pos] = state["deck"].pop(0)
        else:
            del state["row2"][pos]
    else:
        del state["row1"][pos]
    d = dock_ship(state, ship, None, events, who)
    if d is not None:
        load_if_wanted(state, d, events)
