"""The eight ship-card privileges: three immediate on loading, five kept for a later turn."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from referee.contract import Event, IllegalOrder, Order

from .actions import refill_buy_problem
from .arrival import privilege_entry
from .board import IMMEDIATE, PRIVILEGE_TEXT, State, card, counted, dock_index, dock_name, own_docks
from .intrigue import gain_points, max_conversion, place_on_path
from .loading import load
from .palace import buy_seat, purchase_problem


def usable_now(state: State, seat: int, cid: str, public: bool = False) -> bool:
    """Whether a held card could be used at this moment (keeps a turn open for it). With
    `public`, money is left out (P7), so the turn stays open on what everyone can see."""
    p = card(state, cid)["privilege"]
    if p in IMMEDIATE:
        return False
    if p == "P2":
        return bool(state["deck"])
    if p == "P3":
        return any(state["dock_s"][d] is not None and state["dock_g"][d] is not None for d in own_docks(state, seat))
    if p == "P4":
        return any(state["light"]) or any(state["temple"])
    if p == "P7":
        return purchase_problem(state, seat, ignore_tp=True, public=public) is None
    return bool(state["row1"])


def validate_use(state: State, seat: int, a: dict[str, Any]) -> None:
    cid = a.get("card")
    if cid not in state["held"][seat]:
        raise IllegalOrder(f"you hold no ship card {cid!r}",
                           suggestion=f"you hold {', '.join(state['held'][seat])}" if state["held"][seat] else None)
    p = card(state, cid)["privilege"]
    if p in IMMEDIATE:
        raise IllegalOrder(f"{cid} has an immediate privilege, settled when it was loaded")
    if p == "P2":
        if not state["deck"]:
            raise IllegalOrder("the ship deck is empty")
    elif p == "P3":
        try:
            d = dock_index(state, a.get("dock"))
        except (ValueError, AttributeError, TypeError):
            raise IllegalOrder(f"there is no dock called {a.get('dock')!r}") from None
        if state["dock_o"][d] != seat:
            raise IllegalOrder(f"dock {a['dock']} is not yours")
        if state["dock_s"][d] is None or state["dock_g"][d] is None:
            raise IllegalOrder(f"dock {a['dock']} needs both a ship and a good to load (A24)")
    elif p == "P4":
        moves = a.get("moves") or []
        total = sum(abs(n) for _, n in moves)
        if not 1 <= total <= 3:
            raise IllegalOrder("the privilege moves 1 to 3 servants")
        seen = set()
        for player, n in moves:
            if player not in state["players"] or player in seen or n == 0:
                raise IllegalOrder(f"bad servant move for {player!r}")
            seen.add(player)
            s = state["players"].index(player)
            if (n > 0 and state["temple"][s] < n) or (n < 0 and state["light"][s] < -n):
                raise IllegalOrder(f"{player} does not have {counted(abs(n), 'servant')} there to move")
    elif p == "P7":
        problem = purchase_problem(state, seat, ignore_tp=True)
        if problem:
            raise IllegalOrder(problem)
    elif p == "P8":
        if a.get("ship") not in state["row1"]:
            raise IllegalOrder(f"ship {a.get('ship')!r} is not in row 1",
                               suggestion=f"row 1 holds {', '.join(state['row1'])}" if state["row1"] else None)


def execute_use(state: State, seat: int, a: dict[str, Any], events: list[Event]) -> None:
    cid = a["card"]
    p = card(state, cid)["privilege"]
    name = state["players"][seat]
    events.append(Event("privilege", f"{name} uses ship card {cid}: {PRIVILEGE_TEXT[p]}.",
                        {"player": name, "card": cid, "privilege": p}))
    state["held"][seat].remove(cid)
    if p == "P2":
        top = state["deck"][:3]
        state["pending"].append({"t": "arrange", "p": seat, "card": cid, "cards": top})
        shown = ", ".join(f"{c} ({card(state, c)['civilization']}, {card(state, c)['good']}, yield "
                          f"{card(state, c)['yield']}, danger {card(state, c)['danger']})" for c in top)
        events.append(Event("peek", f"The top of the ship deck: {shown}.", {"cards": top}, to=(name,)))
        return  # the card goes under the deck after the arrangement, so it is never among the three
    state["deck"].append(cid)
    if p == "P3":
        load(state, dock_index(state, a["dock"]), events, any_good=True)
    elif p == "P4":
        for player, n in a["moves"]:
            s = state["players"].index(player)
            state["light"][s] += n
            state["temple"][s] -= n
            where = f"{n} from temple to lighthouse" if n > 0 else f"{-n} from lighthouse to temple"
            events.append(Event("privilege", f"{player}'s servants moved: {where}.", {"player": player, "moved": n}))
    elif p == "P7":
        buy_seat(state, seat, events, "privilege, ignoring the trade-point minimum")
    elif p == "P8":
        privilege_entry(state, a["ship"], events, f"privilege of {name}")


def use_menu(state: State, seat: int) -> list[Order]:
    out: list[Order] = []
    for cid in dict.fromkeys(state["held"][seat]):
        if not usable_now(state, seat, cid):
            continue
        p = card(state, cid)["privilege"]
        if p in ("P2", "P7"):
            out.append(Order("use", {"card": cid}))
        elif p == "P3":
            for d in own_docks(state, seat):
                if state["dock_s"][d] is not None and state["dock_g"][d] is not None:
                    out.append(Order("use", {"card": cid, "dock": dock_name(state, d)}))
        elif p == "P4":
            for s, player in enumerate(state["players"]):
                if state["temple"][s]:
                    out.append(Order("use", {"card": cid, "moves": [[player, min(3, state["temple"][s])]]}))
                if state["light"][s]:
                    out.append(Order("use", {"card": cid, "moves": [[player, -min(3, state["light"][s])]]}))
        elif p == "P8":
            out.extend(Order("use", {"card": cid, "ship": ship}) for ship in state["row1"])
    return out


# --------------------------------------------------------------------------- decisions


def decision_menu(state: State, item: dict[str, Any]) -> list[Order]:
    t = item["t"]
    if t == "reward":
        return [Order("intrigue", {"count": k}) for k in range(max_conversion(state, item["p"], item["n"]) + 1)]
    if t == "priv":
        out = [Order("accept"), Order("decline")]
        if card(state, item["card"])["privilege"] == "P6" and max_conversion(state, item["p"], 1) == 0:
            out = [Order("decline")]
        return out
    if t == "arrange":
        return [Order("arrange", {"cards": list(p)}) for p in permutations(item["cards"])]
    if t == "refill_buy":
        if refill_buy_problem(state, item["p"]) is not None:
            return [Order("pass")]
        return [Order("buy", {"good": g}) for g in dict.fromkeys(state["market"])] + [Order("pass")]
    return []


def resolve(state: State, item: dict[str, Any], o: Order, events: list[Event]) -> None:
    """Settle the pending decision `item` with order `o` (already checked against the menu)."""
    seat = item["p"]
    name = state["players"][seat]
    t = item["t"]
    if t == "reward":
        from .intrigue import resolve_reward
        resolve_reward(state, item, o.args["count"], events)
    elif t == "priv":
        cid = item["card"]
        p = card(state, cid)["privilege"]
        state["held"][seat].remove(cid)
        state["deck"].append(cid)
        if o.kind == "decline":
            events.append(Event("privilege", f"{name} declines the privilege of {cid} ({PRIVILEGE_TEXT[p]}).",
                                {"player": name, "card": cid}))
            return
        events.append(Event("privilege", f"{name} takes the privilege of {cid}: {PRIVILEGE_TEXT[p]}.",
                            {"player": name, "card": cid, "privilege": p}))
        if p == "P1":
            state["money"][seat] += 3
        elif p == "P5":
            gain_points(state, seat, 1, f"privilege of {cid}", events)
        elif p == "P6":
            place_on_path(state, seat, 1, events)
    elif t == "arrange":
        order = o.args["cards"]
        state["deck"][: len(order)] = order
        state["deck"].append(item["card"])
        events.append(Event("peek", f"{name} puts the looked-at ship cards back in a chosen order.", {"player": name}))
        events.append(Event("peek", f"You put them back as {', '.join(order)} (top first).", {"cards": order}, to=(name,)))
    elif t == "refill_buy":
        if o.kind == "pass":
            events.append(Event("refill", f"{name} buys nothing after the refill.", {"player": name}))
            return
        price = state["comp"]["refill_buy_price"]
        state["money"][seat] -= price
        state["market"].remove(o.args["good"])
        state["store"][seat].append(o.args["good"])
        events.append(Event("refill", f"{name} buys {o.args['good']} for {price} talents after the refill.",
                            {"player": name, "good": o.args["good"]}))
