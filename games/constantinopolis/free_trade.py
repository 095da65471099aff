"""The optional Free Trade rule: in the accept phase players trade contracts, goods and gold
by offer and answer (`offer`, `accept`, `reject`, and `withdraw` for an offer not yet
answered).

Rulebook: "Optional Rule: Free Trade". In its example the buyer offers, the seller accepts,
"and the trade takes place": a trade done is done. Each of these orders is therefore a fact
of the phase once applied (`KINDS` are the engine's `final_kinds`, see `referee.progress`):
an offer keeps its number and stands until it is answered, withdrawn or its players are done;
an accepted trade stays made whatever either player sends afterwards, so the one who received
a contract can load it in a later mail. A later set does not take an offer back by leaving it
out; `withdraw` does.

An open offer holds what it gives until it is answered: the offerer cannot load, sell, spend
or give away those items meanwhile, or the other player's ACCEPT could fail on something only
the offerer knows (a contract loaded in secret, gold spent) and tell them so. `accept` tries
each of the offerer's orders on a copy and checks `check_promises_kept` afterwards.
"""

from __future__ import annotations

from typing import Any, Callable

from referee.contract import Event, Order
from referee.wording import OrderText, listed, menu_order, order_text, phrase

from .components import GOODS
from .draft import writable, writable_sheet
from .state import GameState, components_of, goods_count, illegal, sheet_of
from .views import before_loading

KINDS = ("offer", "accept", "reject", "withdraw")


def parse_item(item: str) -> tuple[str, Any]:
    """'3 gold' -> ("gold", 3); '1 green' -> ("green", 1); 'contract 17' -> ("contract", 17)."""
    word, _, rest = item.partition(" ")
    if word == "contract":
        return "contract", int(rest)
    return rest, int(word)


def check_holds(state: GameState, player: str, items: list[str]) -> None:
    """IllegalOrder unless `player` has every item (contracts in hand)."""
    sheet = sheet_of(state, player)
    for item in items:
        what, n = parse_item(item)
        if what == "contract":
            if n not in sheet["hand"]:
                raise illegal(phrase("{player} does not hold contract {contract} in hand", player=player, contract=n))
        elif what == "gold":
            if sheet["gold"] < n:
                raise illegal(phrase("{player} has not got {gold} gold", player=player, gold=n))
        elif sheet["goods"][what] < n:
            raise illegal(phrase("{player} has not got {goods}", player=player, goods=goods_count(n, what)))


def check_order(state: GameState, player: str, order: Order, still_accepting: list[str]) -> None:
    """An offer to a player still accepting contracts, of what one holds; an answer to an
    offer made to oneself, accepted only when both sides still hold their items."""
    args = order.args
    if order.kind == "offer":
        if not state["options"]["free_trade"]:
            raise illegal(phrase("trading between players needs the free trade option"))
        if args["to"] == player or args["to"] not in state["p"] or args["to"] not in still_accepting:
            raise illegal(phrase("{player} cannot take offers now", player=args["to"]))
        check_holds(state, player, args["give"])
        return
    offer = next((x for x in state["accept"]["offers"] if x["id"] == args["offer"]), None)
    if order.kind == "withdraw":
        if offer is None or offer["from"] != player:
            raise illegal(phrase("you have no open offer {offer}", offer=args["offer"]),
                          phrase("an offer answered is no longer yours to withdraw") if offer is None else None)
        return
    if offer is None or offer["to"] != player:
        raise illegal(phrase("there is no offer {offer} to you", offer=args["offer"]))
    if order.kind == "accept":
        check_holds(state, offer["from"], offer["give"])
        check_holds(state, player, offer["get"])


def check_promises_kept(state: GameState, player: str) -> None:
    """IllegalOrder when `player` no longer holds what their open offers give."""
    sheet = sheet_of(state, player)
    gold, goods, contracts = 0, {g: 0 for g in GOODS}, []
    for offer in state["accept"]["offers"]:
        if offer["from"] != player:
            continue
        for item in offer["give"]:
            what, n = parse_item(item)
            if what == "contract":
                contracts.append(n)
            elif what == "gold":
                gold += n
            else:
                goods[what] += n
    lost = [phrase("contract {contract}", contract=c) for c in contracts if c not in sheet["hand"]]
    if gold > sheet["gold"]:
        lost.append(phrase("{gold} gold", gold=gold))
    lost += [goods_count(n, g) for g, n in goods.items() if n > sheet["goods"][g]]
    if lost:
        raise illegal(phrase("your open offers hold {items} until they are answered", items=listed(lost)),
                      phrase("to take an offer back, send {order}", order=menu_order("withdraw <offer>")))


def _move_items(state: GameState, giver: str, taker: str, items: list[str]) -> None:
    giving, taking = writable_sheet(state, giver), writable_sheet(state, taker)
    for item in items:
        what, n = parse_item(item)
        if what == "contract":
            giving["hand"].remove(n)
            taking["hand"].append(n)
        elif what == "gold":
            giving["gold"] -= n
            taking["gold"] += n
        else:
            giving["goods"][what] -= n
            taking["goods"][what] += n


def apply_order(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    """Carry out an offer or answer `check_order` has passed."""
    args = order.args
    acceptance = writable(state, "accept")
    if order.kind == "offer":
        number = acceptance["next"]
        acceptance["next"] += 1
        acceptance["offers"].append({"id": number, "from": player, "to": args["to"], "give": list(args["give"]),
                                     "get": list(args["get"])})
        events.append(Event("trade.offer", phrase("{player} offers {other} ({offer}): {give} for {get}.", player=player,
                                                  other=args["to"], offer=number, give=_items(args["give"]),
                                                  get=_items(args["get"])),
                            {"offer": number}, to=(player, args["to"])))
        return
    offer = next(x for x in acceptance["offers"] if x["id"] == args["offer"])
    acceptance["offers"].remove(offer)
    if order.kind == "accept":
        _move_items(state, offer["from"], player, offer["give"])
        _move_items(state, player, offer["from"], offer["get"])
        # named by the one who accepts, so that a report's line of his events reads on
        events.append(Event("trade.done", phrase("{other} accepts offer {offer}: {player} gives {give} and receives "
                                                 "{get}.", player=offer["from"], other=player, offer=offer["id"],
                                                 give=_items(offer["give"]), get=_items(offer["get"])),
                            {"offer": offer["id"]}))
    elif order.kind == "reject":
        events.append(Event("trade.reject", phrase("{player} turns down offer {offer}.", player=player,
                                                   offer=offer["id"]), {"offer": offer["id"]},
                            to=(player, offer["from"])))
    else:
        events.append(Event("trade.withdraw", phrase("{player} withdraws offer {offer}.", player=player,
                                                     offer=offer["id"]), {"offer": offer["id"]},
                            to=(player, offer["to"])))


def _items(items: list[str]) -> OrderText:
    """An offer's items as an order writes them (`2 gold, 1 green, contract 17`, `nothing`)."""
    return order_text(", ".join(items) or "nothing")


def menu_orders(state: GameState, player: str, others: list[str], legal: Callable[[Order], bool]) -> list[Order]:
    """For the short menu: answers to the offers made to `player`, the withdrawal of their own,
    and while they have no open offer (and the phase has not seen many), one sample offer to
    the first other player still accepting: 1 gold for one good that player is seen to hold."""
    acceptance = state["accept"]
    out = [o for x in acceptance["offers"] if x["to"] == player
           for o in (Order("accept", {"offer": x["id"]}), Order("reject", {"offer": x["id"]})) if legal(o)]
    out += [o for x in acceptance["offers"] if x["from"] == player
            for o in (Order("withdraw", {"offer": x["id"]}),) if legal(o)]
    offering = any(x["from"] == player for x in acceptance["offers"])
    if not offering and acceptance["next"] <= 2 * len(state["players"]):
        if others:
            give = ["1 gold"] if sheet_of(state, player)["gold"] else []
            # what the other holds as all can see it (their secret loads left out)
            seen = before_loading(components_of(state), state["p"][others[0]])["goods"]
            get = [f"1 {g}" for g in GOODS if seen[g]][:1]
            sample = Order("offer", {"to": others[0], "give": give, "get": get})
            if legal(sample):
                out.append(sample)
    return out
