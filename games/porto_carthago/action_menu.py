"""The short menu of main actions (`legal_orders`, for the bots and the default orders).

Everything allowed is on it, except that the aristocrat's moves and the loadmaster's switch
are listed in a representative selection (the parser takes every legal one, and the complete
menu of HELP is in `menus`). Menus are rebuilt on every step and repeat a lot, so the orders
are shared and remembered by their arguments.
"""

from __future__ import annotations

from referee.contract import Order
from referee.memo import Memo

from .actions import ARISTOCRAT_ROUTES
from .board import DOCKS, free_storage, goods_price, menu_order, own_docks
from .state import State


def main_menu(state: State, seat: int) -> list[Order]:
    """The main actions `seat` may take now: the two alternatives, then slot by slot."""
    out = [menu_order("talents"), menu_order("refill")]
    supply = state["supply"][seat]
    names = state["comp"]["dock_names"]
    slots = state["comp"]["action_slots"]
    tails: dict[str, tuple] = {}
    for slot in range(1, 7):
        kind = state["slots"][slot - 1]
        info = slots[slot - 1]
        left = supply - info["cost"]
        if left < 0:
            continue
        if info["side"] != "none":
            out.append(menu_order("side", ("slot", slot)))
        if kind == "aristocrat":
            out.extend(_aristocrat_orders(slot, min(left, 5), min(state["light"][seat], 5),
                                          min(state["temple"][seat], 5)))
            continue
        if kind == "captain":
            if left >= 1 and None in state["charter"]:
                out.append(menu_order("captain", ("slot", slot)))
            continue
        key = f"{kind}{min(left, 2)}"
        if key not in tails:
            tails[key] = tuple(_tails(state, seat, kind, left, names))
        out.extend(_slot_orders(kind, slot, tails[key]))
    return out


_MENUS = Memo(50_000)


def _aristocrat_orders(slot: int, supply: int, light: int, temple: int) -> list[Order]:
    """Moves out of the supply by 1..5 and the largest move between any two other places; the
    parser accepts every legal mix, the menu only lists these."""
    key = ("aristocrat", slot, supply, light, temple)
    found = _MENUS.get(key)
    if found is not None:
        return found
    have = {"supply": supply, "lighthouse": light, "temple": temple}
    found = []
    for source, target in ARISTOCRAT_ROUTES:
        top = have[source]
        for k in (range(1, top + 1) if source == "supply" else range(top, top + 1) if top else ()):
            pairs: list[tuple[str, int]] = [("slot", slot)]
            if "lighthouse" in (source, target):
                pairs.append(("lighthouse", k if target == "lighthouse" else -k))
            if "temple" in (source, target):
                pairs.append(("temple", k if target == "temple" else -k))
            found.append(menu_order("aristocrat", *pairs))
    return _MENUS.keep(key, found)


def _slot_orders(kind: str, slot: int, tails: tuple) -> list[Order]:
    """The orders for one slot, remembered by their arguments: menus repeat a lot."""
    key = (kind, slot, tails)
    found = _MENUS.get(key)
    if found is None:
        slot_pair = ("slot", slot)
        found = _MENUS.keep(key, [menu_order(kind, slot_pair, *tail) for tail in tails])
    return found


def _tails(state: State, seat: int, kind: str, left: int, names: list[str]) -> list[tuple]:
    """The argument pairs after the slot for one action kind (shared by both cards of a kind)."""
    tails: list[tuple] = []
    if kind == "loadmaster":
        unowned = [d for d in range(DOCKS) if state["dock_o"][d] is None]
        if left >= 2:
            tails.extend((("mode", "occupy"), ("dock", names[d])) for d in unowned)
        # switching is listed toward unowned docks where a ship waits (else the first
        # unowned dock); the parser accepts every legal switch
        shipped = [d for d in unowned if state["dock_s"][d] is not None] or unowned[:1]
        for dock in own_docks(state, seat):
            tails.append((("mode", "dissolve"), ("dock", names[dock])))
            tails.extend((("mode", "switch"), ("dock", names[dock]), ("to", names[d])) for d in shipped)
    elif kind == "merchant":
        if free_storage(state, seat) >= 1 and state["money"][seat] >= goods_price(state):
            tails.extend((("good", g),) for g in dict.fromkeys(state["market"]))
    elif kind == "porter":
        mine = own_docks(state, seat)
        room = free_storage(state, seat) >= 1
        targets = [names[d] for d in mine if state["dock_g"][d] is None]
        can_ship = seat in state["charter"] and state["temple"][seat] >= 1 and bool(state["deck"])
        extra = ["charter"] if can_ship else []
        for good in dict.fromkeys(state["store"][seat]):
            tails.extend((("from", "storage"), ("good", good), ("to", target)) for target in targets + extra)
        for dock in mine:
            if state["dock_g"][dock] is not None:
                targets_here = targets + (["storage"] if room else []) + extra
                tails.extend((("from", names[dock]), ("to", target)) for target in targets_here)
    return tails
