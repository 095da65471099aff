"""Every order the deciding player may give now, written compactly: the menu of HELP, of the
report's ORDERS block and of the receipt of a rejected mail.

`legal_orders` is a short, representative menu for the bots; this one is complete. Each family
of orders is tried through the same validation `apply` runs, so the menu cannot drift from
the rules, and the legal ones are grouped into a line per family (``PORTER 5 <from> TO <to>:
STORAGE G1 TO C1-I or CHARTER; C2-I TO STORAGE``).
"""

from __future__ import annotations

from itertools import permutations, product
from typing import Any, Callable, Iterable, NamedTuple

from referee.contract import MenuLine, Order, OrderError, passes
from referee.orderlines import alternatives, spans
from referee.wording import Phrase, either, listed, menu_order, order_phrase, order_text, phrase

from .actions import ARISTOCRAT_MOVES, aristocrat_moves
from .board import (ANY_GOOD, MOVE_SERVANTS, PALACE_SEAT, PEEK, PRIVILEGE_TEXT, SHIP_ENTERS, dock_name, goods_price,
                    own_docks, ship_card)
from .flow import MAIN_KINDS, Decision
from .grammar import format_order, parse_line
from .state import State

Judge = Callable[[Order], bool]
Explained = Callable[[Any, Any], Phrase]  # (the order, the choices) -> a line explaining the order


def menu(state: State, decision: Decision, judge: Judge) -> list[MenuLine]:
    """The lines for the decision; `judge` says whether one order answers it legally."""
    name = decision.name
    seat = decision.seat
    if name == "setup.optional_dock":
        return _family("OCCUPY <dock>", [(n, Order("occupy", {"dock": n})) for n in _docks(state)], judge) + \
            _singles(judge, [Order("pass")], phrase("take no dock"))
    if name == "setup.compulsory_dock":
        return _compulsory(state, judge)
    if name == "arrival.lighthouse":
        return _lighthouse(state, judge)
    if name == "action.main":
        return _main(state, seat, judge) + _uses(state, seat, judge)
    if name == "action.after":
        lines = _singles(judge, [Order("expand"), Order("palace")]) + _uses(state, seat, judge)
        lines += _singles(judge, [Order("done")])
        return lines + [MenuLine(phrase("a main action for your next turn ({orders}, ...): ends this turn and waits in "
                                        "your queue", orders=menu_order("TALENTS, REFILL, CAPTAIN <slot>")),
                                 (Order("talents"),),
                                 lambda o: o.kind in MAIN_KINDS and o.kind != "use" and _well_formed(state, o),
                                 ahead=True)]
    if name == "intrigue.reward":
        ok = [n for n in range(decision.item["n"] + 1) if judge(Order("intrigue", {"count": n}))]
        return [MenuLine(phrase("{order}: {numbers} of the points onto the intrigue path, the rest on the track",
                                order=menu_order("INTRIGUE <n>"), numbers=spans(ok)),
                         tuple(Order("intrigue", {"count": n}) for n in ok))] if ok else []
    if name == "privilege.immediate":
        return _singles(judge, [Order("accept"), Order("decline")])
    if name == "privilege.arrange":
        cards = list(decision.item["cards"])
        orders = tuple(o for o in (Order("arrange", {"cards": list(p)}) for p in permutations(cards)) if judge(o))
        return [MenuLine(phrase("{order}: {cards} in any order", order=menu_order("ARRANGE <cards, top first>"),
                                cards=listed(cards)), orders)] if orders else []
    if name == "market.refill_buy":
        return _family("BUY <good>", [(g, Order("buy", {"good": g})) for g in _goods(state)], judge) + \
            _singles(judge, [Order("pass")], phrase("buy no good"))
    if name == "end.final_seat":
        return _singles(judge, [Order("palace")], phrase("buy the final palace seat")) + \
            _singles(judge, [Order("pass")], phrase("buy no final palace seat"))
    return []


# --------------------------------------------------------------------------- building blocks


class Offer(NamedTuple):
    """A family of legal orders before it is written as a line: its order syntax (`MERCHANT 4
    <good>`), what may be filled in, and the orders it stands for."""

    head: str
    choices: Any
    orders: tuple[Order, ...]
    does: Phrase | None = None  # what the order does, said in brackets after its syntax


def _line(offer: Offer) -> MenuLine:
    """`head (does): choices`, the order syntax in the reader's order words."""
    if offer.does is not None:
        return MenuLine(phrase("{order} ({does}): {choices}", order=menu_order(offer.head), does=offer.does,
                               choices=offer.choices), offer.orders)
    return MenuLine(phrase("{order}: {choices}", order=menu_order(offer.head), choices=offer.choices), offer.orders)


def _singles(judge: Judge, orders: Iterable[Order], does: Phrase | None = None) -> list[MenuLine]:
    """Orders without a choice, each with what it does (`does`, else the word's own entry)
    when that is not plain from the word."""
    lines = []
    for o in orders:
        if judge(o):
            said = does or _DOES.get(o.kind)
            lines.append(MenuLine(phrase("{order}: {choices}", order=order_phrase(format_order(o)), choices=said)
                                  if said is not None else order_phrase(format_order(o)), (o,)))
    return lines


# what a one-word order does, said beside it in the menu
_DOES = {
    "refill": phrase("refill the market, then buy one good from it"),
    "palace": phrase("buy a palace place"),
    "expand": phrase("buy one more storage place"),
    "done": phrase("end your turn"),
    "accept": phrase("take the privilege"),
    "decline": phrase("leave the privilege; the card goes under the ship deck"),
}


def _offered(head: str, labelled: Iterable[tuple[str, Order]], judge: Judge) -> Offer | None:
    """The legal orders of a family, each named by a label (`head: a, b, c`); None when none is."""
    kept = [(label, o) for label, o in labelled if judge(o)]
    if not kept:
        return None
    return Offer(head, listed(label for label, _ in kept), tuple(o for _, o in kept))


def _family(head: str, labelled: Iterable[tuple[str, Order]], judge: Judge,
            explained: Explained | None = None) -> list[MenuLine]:
    """The line of a family of orders (none when no order of it is legal): `head: a, b, c`,
    or as `explained` writes it, with a word on what the order does after its syntax."""
    offer = _offered(head, labelled, judge)
    if offer is None:
        return []
    if explained is None:
        return [_line(offer)]
    return [MenuLine(explained(menu_order(offer.head), offer.choices), offer.orders)]


def _well_formed(state: State, order: Order) -> bool:
    """An order that reads back as itself (a queued action is checked only when it runs)."""
    try:
        return parse_line(state, format_order(order)) == order
    except (OrderError, KeyError, ValueError):
        return False


def _docks(state: State) -> list[str]:
    return list(state["comp"]["dock_names"])


def _goods(state: State) -> list[str]:
    return list(state["comp"]["goods"])


def _grouped(head: str, pairs: list[tuple[str, str, Order]]) -> Offer | None:
    """`head: a TO x or y; b TO z` for (first, second, order) triples, in their order."""
    if not pairs:
        return None
    firsts = list(dict.fromkeys(a for a, _, _ in pairs))
    text = "; ".join(f"{a} TO {alternatives([b for x, b, _ in pairs if x == a])}" for a in firsts)
    return Offer(head, order_text(text), tuple(o for _, _, o in pairs))


# --------------------------------------------------------------------------- setup and arrival


def _compulsory(state: State, judge: Judge) -> list[MenuLine]:
    docks = _docks(state)
    goods = list(dict.fromkeys(state["market"]))
    if not goods:
        return _family("OCCUPY <dock>", [(n, Order("occupy", {"dock": n})) for n in docks], judge)
    ok = [(n, g) for n in docks for g in goods if judge(Order("occupy", {"dock": n, "good": g}))]
    if not ok:
        return []
    free = list(dict.fromkeys(n for n, _ in ok))
    takes = list(dict.fromkeys(g for _, g in ok))
    orders = tuple(Order("occupy", {"dock": n, "good": g}) for n, g in ok)
    head = menu_order("OCCUPY <dock> TAKE <good>")
    if len(ok) == len(free) * len(takes):
        text = phrase("{order}: any of {docks} with one of {goods}", order=head, docks=listed(free),
                      goods=listed(takes))
    else:
        text = phrase("{order}: {choices}", order=head, choices=order_text("; ".join(
            f"{n} TAKE {alternatives([g for x, g in ok if x == n])}" for n in free)))
    return [MenuLine(text, orders)]


def _lighthouse(state: State, judge: Judge) -> list[MenuLine]:
    ships = list(state["row1"])
    out = _family("DOCK <ship>", [(s, Order("dock", {"ship": s, "at": None})) for s in ships], judge,
                  lambda order, choices: phrase("{order} (dock I if free, else II; both taken: it departs): {choices}",
                                                order=order, choices=choices))
    named = [(s, at, Order("dock", {"ship": s, "at": at})) for s in ships for at in ("I", "II")
             if judge(Order("dock", {"ship": s, "at": at}))]
    if named:
        text = ", ".join(f"{s} {alternatives([at for x, at, _ in named if x == s])}"
                         for s in dict.fromkeys(s for s, _, _ in named))
        out.append(_line(Offer("DOCK <ship> <I|II>", order_text(text), tuple(o for _, _, o in named))))
    out += _family("REJECT <ship>", [(s, Order("reject", {"ship": s})) for s in ships], judge,
                   lambda order, choices: phrase("{order} (it goes under the deck and you dock none): {choices}",
                                                 order=order, choices=choices))
    return out


# --------------------------------------------------------------------------- the action turn


def _slots(state: State, kind: str) -> list[int]:
    return [i + 1 for i, c in enumerate(state["slots"]) if c == kind]


def _main(state: State, seat: int, judge: Judge) -> list[MenuLine]:
    out = _singles(judge, [Order("talents")], phrase("take {gain} talents instead of an action card",
                                                      gain=state["comp"]["take_money"]))
    out += _singles(judge, [Order("refill")])
    out += _family("CAPTAIN <slot>", [(str(s), Order("captain", {"slot": s})) for s in _slots(state, "captain")], judge,
                   lambda order, choices: phrase("{order} (one more servant of yours takes a free charter ship): "
                                                 "{choices}", order=order, choices=choices))
    for slot in _slots(state, "aristocrat"):
        out += _aristocrat(state, seat, slot, judge)
    for slot in _slots(state, "loadmaster"):
        out += _loadmaster(state, seat, slot, judge)
    bought = phrase("buy the good from the market into your storage for {price} talents", price=goods_price(state))
    out += _merged("MERCHANT", [(slot, _does(_offered(f"MERCHANT {slot} <good>", [
        (g, Order("merchant", {"slot": slot, "good": g})) for g in _goods(state)], judge), bought))
        for slot in _slots(state, "merchant")])
    carried = phrase("carry one good to your storage, to a dock of yours or onto your charter ship")
    out += _merged("PORTER", [(slot, _does(_porter(state, seat, slot, judge), carried))
                              for slot in _slots(state, "porter")])
    out += _family("SIDE <slot>", [(str(s), Order("side", {"slot": s})) for s in range(1, 7)], judge,
                   lambda order, choices: phrase("{order} (the slot only for its side action): {choices}", order=order,
                                                 choices=choices))
    return out


def _does(offer: Offer | None, does: Phrase) -> Offer | None:
    """The offer, saying what its orders do."""
    return offer._replace(does=does) if offer is not None else None


def _merged(word: str, per_slot: list[tuple[int, Offer | None]]) -> list[MenuLine]:
    """Two cards of one action (the sixth card repeats one) offering the same: one line."""
    offers = [(slot, offer) for slot, offer in per_slot if offer is not None]
    if len(offers) == 2:
        (first_slot, first), (second_slot, second) = offers
        if str(first.choices) == str(second.choices):
            head = first.head.replace(f"{word} {first_slot} ", f"{word} <slot> ", 1)
            choices = phrase("slot {first} or {second}; {choices}", first=first_slot, second=second_slot,
                             choices=first.choices)
            return [_line(Offer(head, choices, first.orders + second.orders, first.does))]
    return [_line(offer) for _, offer in offers]


def _aristocrat(state: State, seat: int, slot: int, judge: Judge) -> list[MenuLine]:
    light, temple, supply = state["light"][seat], state["temple"][seat], state["supply"][seat]
    orders = []
    for to_lighthouse, to_temple in product(range(-light, 6), range(-temple, 6)):
        if aristocrat_moves(to_lighthouse, to_temple) not in ARISTOCRAT_MOVES:
            continue  # refused whatever the position: not worth a validation
        args = {"slot": slot, **({"lighthouse": to_lighthouse} if to_lighthouse else {}),
                **({"temple": to_temple} if to_temple else {})}
        order = Order("aristocrat", args)
        if judge(order):
            orders.append(order)
    if not orders:
        return []
    cost = state["comp"]["action_slots"][slot - 1]["cost"]
    both = [o for o in orders if "lighthouse" in o.args and "temple" in o.args]
    return [MenuLine(phrase("{order}: +n more of your servants there, -n fewer (from or to your supply or the "
                            "other place), 1-5 moved in all, e.g. {example}; supply {supply} after the cost, "
                            "lighthouse {lighthouse}, temple {temple}",
                            order=menu_order(f"ARISTOCRAT {slot} LIGHTHOUSE <±n> TEMPLE <±n>"),
                            example=order_text(format_order((both or orders)[0])),
                            supply=supply - cost, lighthouse=light, temple=temple), tuple(orders))]


def _loadmaster(state: State, seat: int, slot: int, judge: Judge) -> list[MenuLine]:
    docks = _docks(state)
    mine = [dock_name(state, d) for d in own_docks(state, seat)]
    out = _family(f"LOADMASTER {slot} OCCUPY <dock>",
                  [(n, Order("loadmaster", {"slot": slot, "mode": "occupy", "dock": n})) for n in docks], judge,
                  lambda order, choices: phrase("{order} (2 more servants of yours take a free dock): {choices}",
                                                order=order, choices=choices))
    switches = [(a, b, Order("loadmaster", {"slot": slot, "mode": "switch", "dock": a, "to": b}))
                for a in mine for b in docks]
    switches = [(a, b, o) for a, b, o in switches if judge(o)]
    if switches:
        head = f"LOADMASTER {slot} SWITCH <dock> TO <dock>"
        moved = phrase("your servants move to a free dock, a stored good with them")
        froms = list(dict.fromkeys(a for a, _, _ in switches))
        tos = list(dict.fromkeys(b for _, b, _ in switches))
        if len(switches) == len(froms) * len(tos):
            out.append(_line(Offer(head, phrase("from {docks} to any of {targets}", docks=either(froms),
                                                targets=listed(tos)), tuple(o for _, _, o in switches), moved)))
        else:
            out += [_line(offer) for offer in [_does(_grouped(head, switches), moved)] if offer is not None]
    out += _family(f"LOADMASTER {slot} DISSOLVE <dock>",
                   [(n, Order("loadmaster", {"slot": slot, "mode": "dissolve", "dock": n})) for n in mine], judge,
                   lambda order, choices: phrase("{order} (your 2 servants come back to your supply, a stored good "
                                                 "goes back into the bag): {choices}", order=order, choices=choices))
    return out


def _porter(state: State, seat: int, slot: int, judge: Judge) -> Offer | None:
    mine = [dock_name(state, d) for d in own_docks(state, seat)]
    targets = mine + ["storage", "charter"]
    moves = []
    for good in dict.fromkeys(state["store"][seat]):
        for target in targets:
            moves.append((f"STORAGE {good}", target.upper() if target in ("storage", "charter") else target,
                          Order("porter", {"slot": slot, "from": "storage", "good": good, "to": target})))
    for source in mine:
        for target in targets:
            moves.append((source, target.upper() if target in ("storage", "charter") else target,
                          Order("porter", {"slot": slot, "from": source, "to": target})))
    return _grouped(f"PORTER {slot} <from> TO <to>", [m for m in moves if judge(m[2])])


def _uses(state: State, seat: int, judge: Judge) -> list[MenuLine]:
    """Kept privileges (P2, P3, P4, P7, P8) usable now."""
    out: list[MenuLine] = []
    for card_id in dict.fromkeys(state["held"][seat]):
        privilege = ship_card(state, card_id)["privilege"]
        if privilege in (PEEK, PALACE_SEAT):
            out += _singles(judge, [Order("use", {"card": card_id})], PRIVILEGE_TEXT[privilege])
        elif privilege == ANY_GOOD:
            out += _family(f"USE {card_id} <dock>",
                           [(n, Order("use", {"card": card_id, "dock": n})) for n in _docks(state)], judge,
                           lambda order, choices: phrase("{order} (load whatever good lies there): {choices}",
                                                         order=order, choices=choices))
        elif privilege == SHIP_ENTERS:
            out += _family(f"USE {card_id} <ship>",
                           [(s, Order("use", {"card": card_id, "ship": s})) for s in state["row1"]], judge,
                           lambda order, choices: phrase("{order} (it enters now): {choices}", order=order,
                                                         choices=choices))
        elif privilege == MOVE_SERVANTS:
            out += _servant_moves(state, card_id, judge)
    return out


def _servant_moves(state: State, card_id: str, judge: Judge) -> list[MenuLine]:
    """P4: every mix of 1 to 3 servants moved between temple and lighthouse, of any colours."""
    players = state["players"]
    ranges = [range(-min(3, state["light"][s]), min(3, state["temple"][s]) + 1) for s in range(len(players))]
    orders = []
    for nets in product(*ranges):
        if not 1 <= sum(abs(n) for n in nets) <= 3:
            continue
        order = Order("use", {"card": card_id, "moves": [[p, n] for p, n in zip(players, nets) if n]})
        if judge(order):
            orders.append(order)
    if not orders:
        return []
    temple = [f"{p} {state['temple'][s]}" for s, p in enumerate(players) if state["temple"][s]]
    light = [f"{p} {state['light'][s]}" for s, p in enumerate(players) if state["light"][s]]
    return [MenuLine(phrase("{order}: move 1 to 3 servants of any colours, {lighthouse} from the temple (now "
                            "{in_temple}), {temple} from the lighthouse (now {in_lighthouse})",
                            order=menu_order(f"USE {card_id} <player> LIGHTHOUSE <n> <player> TEMPLE <n> ..."),
                            lighthouse=order_text("LIGHTHOUSE"), temple=order_text("TEMPLE"),
                            in_temple=listed(temple) if temple else phrase("nobody"),
                            in_lighthouse=listed(light) if light else phrase("nobody")), tuple(orders))]


def judge_for(validate: Callable[[State, Decision, Order], None], state: State, decision: Decision) -> Judge:
    """Whether an order answers the decision legally, by the same validation `apply` runs."""
    return passes(lambda o: validate(state, decision, o))
