"""The eight ship-card privileges (Privileg): three immediate on loading (taken or declined at
once), five kept for a later turn of their holder; and the small decisions some of them open.

Reference: §3.1 (what each does), §5.8 (using them), A14 (P7), A23 (timing), A24 (P3), A25
(P8) and A26 (P4). A used or declined card goes under the ship deck.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from referee.contract import Event, IllegalOrder, Order
from referee.wording import listed, phrase, plural_phrase

from .actions import refill_buy_problem
from .arrival import NOT_IN_ROW_1, privilege_entry
from .board import (ANY_GOOD, EXTRA_POINT, EXTRA_TALENTS, IMMEDIATE, MOVE_SERVANTS, PALACE_SEAT, PATH_SERVANT, PEEK,
                    PRIVILEGE_TEXT, dock_index, dock_name, own_docks, ship_card)
from .intrigue import gain_points, max_conversion, place_on_path, resolve_reward
from .loading import load
from .palace import buy_seat, purchase_problem
from .state import PendingDecision, State


def usable_now(state: State, seat: int, card_id: str, public: bool = False) -> bool:
    """Whether a held card could be used at this moment (keeps a turn open for it). With
    `public`, money is left out (P7), so the turn stays open on what everyone can see."""
    privilege = ship_card(state, card_id)["privilege"]
    if privilege in IMMEDIATE:
        return False
    if privilege == PEEK:
        return bool(state["deck"])
    if privilege == ANY_GOOD:
        return any(state["dock_s"][d] is not None and state["dock_g"][d] is not None for d in own_docks(state, seat))
    if privilege == MOVE_SERVANTS:
        return any(state["light"]) or any(state["temple"])
    if privilege == PALACE_SEAT:
        return purchase_problem(state, seat, ignore_tp=True, public=public) is None
    return bool(state["row1"])  # SHIP_ENTERS


def validate_use(state: State, seat: int, args: dict[str, Any]) -> None:
    """IllegalOrder unless USE <card> ... may be carried out now."""
    card_id = args.get("card")
    if card_id not in state["held"][seat]:
        raise IllegalOrder(phrase("you hold no ship card {card!r}", card=card_id),
                           suggestion=phrase("you hold {cards}", cards=listed(state["held"][seat]))
                           if state["held"][seat] else None)
    privilege = ship_card(state, card_id)["privilege"]
    if privilege in IMMEDIATE:
        raise IllegalOrder(phrase("{card} has an immediate privilege, settled when it was loaded", card=card_id))
    if privilege == PEEK:
        if not state["deck"]:
            raise IllegalOrder(phrase("the ship deck is empty"))
    elif privilege == ANY_GOOD:
        _validate_any_good(state, seat, args.get("dock"))
    elif privilege == MOVE_SERVANTS:
        _validate_servant_moves(state, args.get("moves") or [])
    elif privilege == PALACE_SEAT:
        problem = purchase_problem(state, seat, ignore_tp=True)
        if problem:
            raise IllegalOrder(problem)
    elif args.get("ship") not in state["row1"]:  # SHIP_ENTERS
        raise IllegalOrder(phrase("ship {ship!r} is not in row 1", ship=args.get("ship")), reason=NOT_IN_ROW_1,
                           suggestion=phrase("row 1 holds {ships}", ships=listed(state["row1"])) if state["row1"]
                           else None)


def _validate_any_good(state: State, seat: int, dock: Any) -> None:
    """P3 needs an own dock with both a ship and a good (A24)."""
    try:
        index = dock_index(state, dock)
    except (ValueError, AttributeError, TypeError):
        raise IllegalOrder(phrase("there is no dock called {name!r}", name=dock)) from None
    if state["dock_o"][index] != seat:
        raise IllegalOrder(phrase("dock {dock} is not yours", dock=dock))
    if state["dock_s"][index] is None or state["dock_g"][index] is None:
        raise IllegalOrder(phrase("dock {dock} needs both a ship and a good to load", dock=dock))


def _validate_servant_moves(state: State, moves: list[Any]) -> None:
    """P4 moves 1 to 3 servants of any colours, only between temple and lighthouse (A26):
    [player, +n] from the temple to the lighthouse, [player, -n] back."""
    total = sum(abs(n) for _, n in moves)
    if not 1 <= total <= 3:
        raise IllegalOrder(phrase("the privilege moves 1 to 3 servants"))
    seen = set()
    for player, n in moves:
        if player not in state["players"] or player in seen or n == 0:
            raise IllegalOrder(phrase("bad servant move for {player!r}", player=player))
        seen.add(player)
        seat = state["players"].index(player)
        if (n > 0 and state["temple"][seat] < n) or (n < 0 and state["light"][seat] < -n):
            raise IllegalOrder(plural_phrase(abs(n), "{player} does not have {n} servant there to move",
                                             "{player} does not have {n} servants there to move", player=player))


def execute_use(state: State, seat: int, args: dict[str, Any], events: list[Event]) -> None:
    """USE a kept privilege; the card goes under the deck (P2's only after the arrangement)."""
    card_id = args["card"]
    privilege = ship_card(state, card_id)["privilege"]
    name = state["players"][seat]
    events.append(Event("privilege", phrase("{player} uses ship card {card}: {privilege}.", player=name, card=card_id,
                                            privilege=PRIVILEGE_TEXT[privilege]),
                        {"player": name, "card": card_id, "privilege": privilege}))
    state["held"][seat].remove(card_id)
    if privilege == PEEK:
        _peek(state, seat, card_id, events)
        return  # the card goes under the deck after the arrangement, so it is never among the three
    state["deck"].append(card_id)
    if privilege == ANY_GOOD:
        load(state, dock_index(state, args["dock"]), events, any_good=True)
    elif privilege == MOVE_SERVANTS:
        for player, n in args["moves"]:
            other = state["players"].index(player)
            state["light"][other] += n
            state["temple"][other] -= n
            moved = phrase("{player}'s servants moved: {count} from temple to lighthouse.", player=player, count=n) \
                if n > 0 else phrase("{player}'s servants moved: {count} from lighthouse to temple.", player=player,
                                     count=-n)
            events.append(Event("privilege", moved, {"player": player, "moved": n}))
    elif privilege == PALACE_SEAT:
        buy_seat(state, seat, events, phrase("privilege, ignoring the trade-point minimum"))
    else:  # SHIP_ENTERS
        privilege_entry(state, args["ship"], events, phrase("privilege of {player}", player=name))


def _peek(state: State, seat: int, card_id: str, events: list[Event]) -> None:
    """P2: the top three ship cards are shown to the user alone, who then arranges them."""
    top = state["deck"][:3]
    state["pending"].append({"t": "arrange", "p": seat, "card": card_id, "cards": top})
    shown = listed(phrase("{card} ({civilization}, {good}, yield {talents}, danger {danger})", card=c,
                          civilization=ship_card(state, c)["civilization"], good=ship_card(state, c)["good"],
                          talents=ship_card(state, c)["yield"], danger=ship_card(state, c)["danger"]) for c in top)
    events.append(Event("peek", phrase("The top of the ship deck: {cards}.", cards=shown), {"cards": top},
                        to=(state["players"][seat],)))


def use_menu(state: State, seat: int) -> list[Order]:
    """The uses of kept privileges the short menu offers now."""
    out: list[Order] = []
    for card_id in dict.fromkeys(state["held"][seat]):
        if not usable_now(state, seat, card_id):
            continue
        privilege = ship_card(state, card_id)["privilege"]
        if privilege in (PEEK, PALACE_SEAT):
            out.append(Order("use", {"card": card_id}))
        elif privilege == ANY_GOOD:
            for dock in own_docks(state, seat):
                if state["dock_s"][dock] is not None and state["dock_g"][dock] is not None:
                    out.append(Order("use", {"card": card_id, "dock": dock_name(state, dock)}))
        elif privilege == MOVE_SERVANTS:
            for other, player in enumerate(state["players"]):
                if state["temple"][other]:
                    out.append(Order("use", {"card": card_id, "moves": [[player, min(3, state["temple"][other])]]}))
                if state["light"][other]:
                    out.append(Order("use", {"card": card_id, "moves": [[player, -min(3, state["light"][other])]]}))
        else:  # SHIP_ENTERS
            out.extend(Order("use", {"card": card_id, "ship": ship}) for ship in state["row1"])
    return out


# --------------------------------------------------------------------------- pending decisions


def decision_menu(state: State, item: PendingDecision) -> list[Order]:
    """Every answer to a pending decision."""
    kind = item["t"]
    if kind == "reward":
        return [Order("intrigue", {"count": k}) for k in range(max_conversion(state, item["p"], item["n"]) + 1)]
    if kind == "priv":
        if ship_card(state, item["card"])["privilege"] == PATH_SERVANT and max_conversion(state, item["p"], 1) == 0:
            return [Order("decline")]
        return [Order("accept"), Order("decline")]
    if kind == "arrange":
        return [Order("arrange", {"cards": list(p)}) for p in permutations(item["cards"])]
    if kind == "refill_buy":
        if refill_buy_problem(state, item["p"]) is not None:
            return [Order("pass")]
        return [Order("buy", {"good": g}) for g in dict.fromkeys(state["market"])] + [Order("pass")]
    return []


def resolve(state: State, item: PendingDecision, order: Order, events: list[Event]) -> None:
    """Settle the pending decision `item` with `order` (already checked against the menu)."""
    kind = item["t"]
    if kind == "reward":
        resolve_reward(state, item, order.args["count"], events)
    elif kind == "priv":
        _take_or_decline(state, item, order.kind != "decline", events)
    elif kind == "arrange":
        _arrange(state, item, order.args["cards"], events)
    elif kind == "refill_buy":
        _refill_buy(state, item["p"], order, events)


def _take_or_decline(state: State, item: PendingDecision, take: bool, events: list[Event]) -> None:
    """An immediate privilege: +3 talents (P1), +1 trade point (P5), a path servant (P6)."""
    seat = item["p"]
    name = state["players"][seat]
    card_id = item["card"]
    privilege = ship_card(state, card_id)["privilege"]
    state["held"][seat].remove(card_id)
    state["deck"].append(card_id)
    if not take:
        events.append(Event("privilege", phrase("{player} declines the privilege of {card} ({privilege}).",
                                                player=name, card=card_id, privilege=PRIVILEGE_TEXT[privilege]),
                            {"player": name, "card": card_id}))
        return
    events.append(Event("privilege", phrase("{player} takes the privilege of {card}: {privilege}.", player=name,
                                            card=card_id, privilege=PRIVILEGE_TEXT[privilege]),
                        {"player": name, "card": card_id, "privilege": privilege}))
    if privilege == EXTRA_TALENTS:
        state["money"][seat] += 3
    elif privilege == EXTRA_POINT:
        gain_points(state, seat, 1, phrase("privilege of {card}", card=card_id), events)
    elif privilege == PATH_SERVANT:
        place_on_path(state, seat, 1, events)


def _arrange(state: State, item: PendingDecision, cards: list[str], events: list[Event]) -> None:
    """P2's second half: the cards go back on top in the chosen order, the P2 card under the deck."""
    name = state["players"][item["p"]]
    state["deck"][: len(cards)] = cards
    state["deck"].append(item["card"])
    events.append(Event("peek", phrase("{player} puts the looked-at ship cards back in a chosen order.", player=name),
                        {"player": name}))
    events.append(Event("peek", phrase("Your order, top first: {cards}.", cards=listed(cards)),
                        {"cards": cards}, to=(name,)))


def _refill_buy(state: State, seat: int, order: Order, events: list[Event]) -> None:
    """After the refill alternative: one good from the fresh market for 6 talents, or PASS (A34)."""
    name = state["players"][seat]
    if order.kind == "pass":
        events.append(Event("refill", phrase("{player} buys nothing after the refill.", player=name),
                            {"player": name}))
        return
    price = state["comp"]["refill_buy_price"]
    state["money"][seat] -= price
    state["market"].remove(order.args["good"])
    state["store"][seat].append(order.args["good"])
    events.append(Event("refill", phrase("{player} buys {good} for {price} talents after the refill.", player=name,
                                         good=order.args["good"], price=price),
                        {"player": name, "good": order.args["good"]}))
