"""The action turn: five action cards on six slots, their side actions and the alternatives."""

from __future__ import annotations

from typing import Any

from referee.contract import Event, IllegalOrder, Order

from .board import (State, order, card, counted, dock_index, goods_price, own_docks, refill_market,
                    storage_free)
from .loading import load_if_wanted, ship_charter
from .palace import buy_seat, purchase_problem

ACTION_KINDS = ("captain", "aristocrat", "loadmaster", "merchant", "porter")
GERMAN = {"captain": "Kapitän", "aristocrat": "Aristokrat", "loadmaster": "Lademeister",
          "merchant": "Händler", "porter": "Träger"}


def slot_info(state: State, slot: int) -> dict[str, Any]:
    return state["comp"]["action_slots"][slot - 1]


def _slot_check(state: State, seat: int, kind: str, slot: Any) -> int:
    """The servant cost left after paying for `slot`; raises when the slot cannot be used."""
    if not isinstance(slot, int) or not 1 <= slot <= 6:
        raise IllegalOrder(f"slot must be 1..6, not {slot!r}")
    lying = state["slots"][slot - 1]
    if kind != "side" and lying != kind:
        where = [str(i + 1) for i, c in enumerate(state["slots"]) if c == kind]
        hint = f"the {kind} lies on slot {' and '.join(where)}" if where else None
        raise IllegalOrder(f"slot {slot} holds the {lying}, not the {kind}", suggestion=hint)
    cost = slot_info(state, slot)["cost"]
    if state["supply"][seat] < cost:
        raise IllegalOrder(f"slot {slot} costs {counted(cost, 'servant')} and you have {state['supply'][seat]} in supply",
                           suggestion="take 3 talents with TALENTS")
    return state["supply"][seat] - cost


ARISTOCRAT_ROUTES = (("supply", "lighthouse"), ("supply", "temple"), ("lighthouse", "supply"),
                     ("temple", "supply"), ("lighthouse", "temple"), ("temple", "lighthouse"))


def aristocrat_moves(light: int, temple: int) -> int:
    return (abs(light) + abs(temple) + abs(light + temple)) // 2


def validate_main(state: State, seat: int, o: Order) -> None:
    """Raise IllegalOrder when a main-action order is not allowed for `seat` now."""
    k, a = o.kind, o.args
    if k in ("talents", "refill"):
        return
    left = _slot_check(state, seat, k, a.get("slot"))
    if k == "side":
        if slot_info(state, a["slot"])["side"] == "none":
            raise IllegalOrder(f"slot {a['slot']} has no side action")
    elif k == "captain":
        if None not in state["charter"]:
            raise IllegalOrder("every charter ship is already taken")
        if left < 1:
            raise IllegalOrder("the captain needs a servant in supply besides the slot cost")
    elif k == "aristocrat":
        dl, dt = a.get("lighthouse", 0), a.get("temple", 0)
        moves = aristocrat_moves(dl, dt)
        if not 1 <= moves <= 5:
            raise IllegalOrder(f"the aristocrat moves 1 to 5 servants, this needs {moves}",
                               suggestion="use SIDE n to take only the side action")
        if state["light"][seat] + dl < 0 or state["temple"][seat] + dt < 0 or left - dl - dt < 0:
            raise IllegalOrder("you do not have the servants for that move")
    elif k == "loadmaster":
        mode, d = a.get("mode"), _dock(state, a.get("dock"))
        if mode == "occupy":
            if state["dock_o"][d] is not None:
                raise IllegalOrder(f"dock {a['dock']} is already owned")
            if left < 2:
                raise IllegalOrder("occupying a dock needs 2 servants in supply besides the slot cost")
        elif mode in ("switch", "dissolve"):
            if state["dock_o"][d] != seat:
                raise IllegalOrder(f"dock {a['dock']} is not yours")
            if mode == "switch":
                t = _dock(state, a.get("to"))
                if state["dock_o"][t] is not None:
                    raise IllegalOrder(f"dock {a['to']} is already owned")
        else:
            raise IllegalOrder(f"unknown loadmaster mode {mode!r}")
    elif k == "merchant":
        g = a.get("good")
        if g not in state["market"]:
            raise IllegalOrder(f"there is no {g} in the market", suggestion=f"the market holds {' '.join(state['market']) or 'nothing'}")
        if storage_free(state, seat) < 1:
            raise IllegalOrder("your storage has no free space")
        if state["money"][seat] < goods_price(state):
            raise IllegalOrder(f"the next good costs {goods_price(state)} talents")
    elif k == "porter":
        src, dst = a.get("from"), a.get("to")
        if src == "storage":
            if a.get("good") not in state["store"][seat]:
                raise IllegalOrder(f"there is no {a.get('good')} in your storage")
        else:
            d = _dock(state, src)
            if state["dock_o"][d] != seat:
                raise IllegalOrder(f"dock {src} is not yours")
            if state["dock_g"][d] is None:
                raise IllegalOrder(f"dock {src} holds no good")
        if dst == src:
            raise IllegalOrder("a good must move somewhere else")
        if dst == "storage":
            if storage_free(state, seat) < 1:
                raise IllegalOrder("your storage has no free space")
        elif dst == "charter":
            if seat not in state["charter"]:
                raise IllegalOrder("you have no charter ship", suggestion="occupy one with the captain first")
            if state["temple"][seat] < 1:
                raise IllegalOrder("charter shipping needs a servant of yours in the Baal temple")
            if not state["deck"]:
                raise IllegalOrder("the ship deck is empty, so nothing can be shipped (A21)")
        else:
            t = _dock(state, dst)
            if state["dock_o"][t] != seat:
                raise IllegalOrder(f"dock {dst} is not yours")
            if state["dock_g"][t] is not None:
                raise IllegalOrder(f"dock {dst} already stores a good (A15)")
    else:
        raise IllegalOrder(f"{k} is not an action")


def _dock(state: State, name: Any) -> int:
    try:
        return dock_index(state, name)
    except (ValueError, AttributeError, TypeError):
        raise IllegalOrder(f"there is no dock called {name!r}") from None


def execute_main(state: State, seat: int, o: Order, events: list[Event]) -> None:
    k, a = o.kind, o.args
    name = state["players"][seat]
    act = state["act"]
    act["main"] = True
    if k == "talents":
        gain = state["comp"]["take_money"]
        state["money"][seat] += gain
        events.append(Event("talents", f"{name} takes {gain} talents instead of an action card.", {"player": name}))
        return
    if k == "refill":
        refill_market(state, True)
        events.append(Event("refill", f"{name} refills the market: {' '.join(state['market']) or 'nothing left in the bag'}.",
                            {"player": name, "market": list(state["market"])}))
        if refill_buy_asked(state, seat):
            state["pending"].append({"t": "refill_buy", "p": seat})
        return
    slot = a["slot"]
    cost = slot_info(state, slot)["cost"]
    state["supply"][seat] -= cost
    state["on_card"][slot - 1][seat] += cost
    act["slot"] = slot
    label = state["slots"][slot - 1]
    paid = f" paying {counted(cost, 'servant')}" if cost else ""
    if k == "side":
        events.append(Event("action", f"{name} takes slot {slot} ({label}){paid} only for its side action.",
                            {"player": name, "slot": slot}))
        return
    head = f"{name} uses the {k} ({GERMAN[k]}) on slot {slot}{paid}"
    if k == "captain":
        state["charter"][state["charter"].index(None)] = seat
        state["supply"][seat] -= 1
        events.append(Event("action", f"{head} and occupies a charter ship.", {"player": name, "slot": slot}))
    elif k == "aristocrat":
        dl, dt = a.get("lighthouse", 0), a.get("temple", 0)
        state["light"][seat] += dl
        state["temple"][seat] += dt
        state["supply"][seat] -= dl + dt
        events.append(Event("action", f"{head}: lighthouse {dl:+d}, temple {dt:+d} (now {state['light'][seat]} and "
                            f"{state['temple'][seat]}).", {"player": name, "slot": slot}))
    elif k == "loadmaster":
        d = dock_index(state, a["dock"])
        if a["mode"] == "occupy":
            state["dock_o"][d] = seat
            state["supply"][seat] -= 2
            events.append(Event("action", f"{head} and occupies dock {a['dock']}.", {"player": name, "slot": slot}))
        elif a["mode"] == "dissolve":
            state["dock_o"][d] = None
            state["supply"][seat] += 2
            lost = state["dock_g"][d]
            if lost is not None:
                state["bag"].append(lost)
                state["dock_g"][d] = None
            extra = f"; the stored {lost} goes back into the bag" if lost else ""
            events.append(Event("action", f"{head} and gives up dock {a['dock']}{extra}.", {"player": name, "slot": slot}))
        else:
            t = dock_index(state, a["to"])
            state["dock_o"][d] = None
            state["dock_o"][t] = seat
            moved = state["dock_g"][d]
            state["dock_g"][d] = None
            state["dock_g"][t] = moved  # A17: a stored good moves with the servants
            extra = f", taking the stored {moved} along" if moved else ""
            events.append(Event("action", f"{head} and moves from dock {a['dock']} to dock {a['to']}{extra}.",
                                {"player": name, "slot": slot}))
            load_if_wanted(state, t, events)
    elif k == "merchant":
        price = goods_price(state)
        state["money"][seat] -= price
        state["market"].remove(a["good"])
        state["store"][seat].append(a["good"])
        state["bought"] += 1
        events.append(Event("action", f"{head} and buys {a['good']} for {price} talents.",
                            {"player": name, "slot": slot, "good": a["good"]}))
    elif k == "porter":
        src, dst = a["from"], a["to"]
        if src == "storage":
            good = a["good"]
            state["store"][seat].remove(good)
        else:
            sd = dock_index(state, src)
            good = state["dock_g"][sd]
            state["dock_g"][sd] = None
        events.append(Event("action", f"{head} and carries {good} from {src} to {dst}.",
                            {"player": name, "slot": slot, "good": good}))
        if dst == "storage":
            state["store"][seat].append(good)
        elif dst == "charter":
            ship_charter(state, seat, good, events)
        else:
            t = dock_index(state, dst)
            state["dock_g"][t] = good
            load_if_wanted(state, t, events)


def refill_buy_asked(state: State, seat: int) -> bool:
    """Whether the refilling player is asked to buy: goods in the market and room in storage,
    both open to all. Money is secret (A33), so it is not asked about here; a player who
    cannot pay answers PASS (or has it queued, or gets it as the default)."""
    return bool(state["market"]) and storage_free(state, seat) >= 1


def refill_buy_problem(state: State, seat: int) -> str | None:
    """Why the refilling player cannot buy a good for 6 talents now (told to them alone)."""
    price = state["comp"]["refill_buy_price"]
    if storage_free(state, seat) < 1:
        return "your storage has no free space"
    if state["money"][seat] < price:
        return f"a good after the refill costs {price} talents and you have {state['money'][seat]}"
    return None


def main_menu(state: State, seat: int) -> list[Order]:
    """The main actions `seat` may take now: everything except that the aristocrat and the
    loadmaster's switch are listed in a representative selection (the parser takes all)."""
    out = [order("talents"), order("refill")]
    supply = state["supply"][seat]
    names = state["comp"]["dock_names"]
    slots_info = state["comp"]["action_slots"]
    tails: dict[str, list[tuple]] = {}
    for slot in range(1, 7):
        kind = state["slots"][slot - 1]
        info = slots_info[slot - 1]
        left = supply - info["cost"]
        if left < 0:
            continue
        if info["side"] != "none":
            out.append(order("side", ("slot", slot)))
        if kind == "aristocrat":
            out.extend(_aristocrat_orders(slot, min(left, 5), min(state["light"][seat], 5),
                                          min(state["temple"][seat], 5)))
            continue
        if kind == "captain":
            if left >= 1 and None in state["charter"]:
                out.append(order("captain", ("slot", slot)))
            continue
        key = f"{kind}{min(left, 2)}"
        if key not in tails:
            tails[key] = tuple(_tails(state, seat, kind, left, names))
        out.extend(_slot_orders(kind, slot, tails[key]))
    return out


_MENUS: dict[tuple, list[Order]] = {}


def _aristocrat_orders(slot: int, supply: int, light: int, temple: int) -> list[Order]:
    """Moves out of the supply by 1..5 and the largest move between any two other places; the
    parser accepts every legal mix, the menu only lists these."""
    key = ("aristocrat", slot, supply, light, temple)
    found = _MENUS.get(key)
    if found is not None:
        return found
    have = {"supply": supply, "lighthouse": light, "temple": temple}
    found = []
    for src, dst in ARISTOCRAT_ROUTES:
        top = have[src]
        for k in (range(1, top + 1) if src == "supply" else range(top, top + 1) if top else ()):
            pairs: list[tuple[str, int]] = [("slot", slot)]
            if "lighthouse" in (src, dst):
                pairs.append(("lighthouse", k if dst == "lighthouse" else -k))
            if "temple" in (src, dst):
                pairs.append(("temple", k if dst == "temple" else -k))
            found.append(order("aristocrat", *pairs))
    _MENUS[key] = found
    return found


def _slot_orders(kind: str, slot: int, tails: tuple) -> list[Order]:
    """The orders for one slot, remembered by their arguments: menus repeat a lot."""
    key = (kind, slot, tails)
    found = _MENUS.get(key)
    if found is None:
        if len(_MENUS) > 50_000:
            _MENUS.clear()
        slot_pair = ("slot", slot)
        found = _MENUS[key] = [order(kind, slot_pair, *tail) for tail in tails]
    return found


def _tails(state: State, seat: int, kind: str, left: int, names: list[str]) -> list[tuple]:
    """The argument pairs after the slot for one action kind (shared by both cards of a kind)."""
    tails: list[tuple] = []
    if kind == "loadmaster":
        unowned = [d for d in range(12) if state["dock_o"][d] is None]
        if left >= 2:
            tails.extend((("mode", "occupy"), ("dock", names[d])) for d in unowned)
        # switching is listed toward unowned docks where a ship waits (else the first
        # unowned dock); the parser accepts every legal switch
        shipped = [t for t in unowned if state["dock_s"][t] is not None] or unowned[:1]
        for d in own_docks(state, seat):
            tails.append((("mode", "dissolve"), ("dock", names[d])))
            tails.extend((("mode", "switch"), ("dock", names[d]), ("to", names[t])) for t in shipped)
    elif kind == "merchant":
        if storage_free(state, seat) >= 1 and state["money"][seat] >= goods_price(state):
            tails.extend((("good", g),) for g in dict.fromkeys(state["market"]))
    elif kind == "porter":
        mine = own_docks(state, seat)
        room = storage_free(state, seat) >= 1
        targets = [names[d] for d in mine if state["dock_g"][d] is None]
        can_ship = seat in state["charter"] and state["temple"][seat] >= 1 and bool(state["deck"])
        extra = ["charter"] if can_ship else []
        for g in dict.fromkeys(state["store"][seat]):
            tails.extend((("from", "storage"), ("good", g), ("to", dst)) for dst in targets + extra)
        for d in mine:
            if state["dock_g"][d] is not None:
                dsts = targets + (["storage"] if room else []) + extra
                tails.extend((("from", names[d]), ("to", dst)) for dst in dsts)
    return tails


def side_problem(state: State, seat: int, kind: str, public: bool = False) -> str | None:
    """Why the side action `kind` (expand or palace) is not possible now (A11, A12). With
    `public`, money is left out: it decides whether the side action goes through, never
    whether the player is asked (A33)."""
    act = state["act"]
    if not act["main"]:
        return "a side action comes after the main action"
    if act["slot"] is None:
        return "the 3-talent and refill alternatives give no side action"
    if act["side"]:
        return "the side action was already taken this turn"
    side = slot_info(state, act["slot"])["side"]
    want = "expand_storage" if kind == "expand" else "palace"
    if side != want:
        return f"slot {act['slot']} does not offer that side action"
    if kind == "expand":
        if state["blocked"][seat] < 1:
            return "your storage already has all its spaces"
        cost = state["comp"]["storage"]["expand_cost"]
        if not public and state["money"][seat] < cost:
            return f"expanding the storage costs {cost} talents and you have {state['money'][seat]}"
        return None
    return purchase_problem(state, seat, public=public)


def execute_side(state: State, seat: int, kind: str, events: list[Event]) -> None:
    state["act"]["side"] = True
    if kind == "expand":
        cost = state["comp"]["storage"]["expand_cost"]
        state["money"][seat] -= cost
        state["blocked"][seat] -= 1
        state["supply"][seat] += 1
        events.append(Event("expand", f"{state['players'][seat]} pays {cost} talents for a new storage space.",
                            {"player": state["players"][seat]}))
    else:
        buy_seat(state, seat, events, "side action")


def card_privilege(state: State, cid: str) -> str:
    return card(state, cid)["privilege"]
