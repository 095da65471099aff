"""Phase 6, Accept Contracts: everyone at once and in secret, possibly over several mails,
loads contracts (with their goods) on ships in harbour, buys trading posts and saves
contracts on them, buys a ship, redraws with the Consul's or the Praefectus Urbi's ability,
deals at the market, and ends their part with `done`. When all are done, the loaded ships
sail and the contracts not accepted are discarded.

Rulebook: "The Accept Contracts Phase" (page 18), "Buy/Use Trading Posts" (page 20) and the
two offices' redraw (Public Offices, page 25); ships and their priority rule are in `ships`,
the optional free trade in `free_trade`.

Ships are sold first come, but an earlier player in turn order who asks for a sold-out size
takes the ship back from a later buyer; that buyer gets the contracts and gold back, is told
why, and may resubmit (their `done` is reopened).
"""

from __future__ import annotations

from typing import Any, Callable

from referee.contract import Event, Order, OrderError, Prompt
from referee.wording import Phrase, listed, order_text, phrase, plural_phrase, term

from . import dealings, free_trade, plan_book
from .components import SIZES
from .draft import draft, writable, writable_sheet
from .ships import buy_ship, later_buyer, set_sail, ship_cost, ship_of, used_space
from .state import (GameState, PlayerSheet, components_of, contract_card, draw_contracts, goods_count, illegal,
                    menu_order, new_phase_key, shared_prompt, sheet_of)

KINDS = ("load", "unload", "post", "save", "free", "ship", "redraw", "defend", "done") + dealings.KINDS


def start(state: GameState) -> None:
    state["phase"] = "accept"
    state["accept"] = {"done": [], "offers": [], "next": 1}
    new_phase_key(state)


def waiting(state: GameState) -> list[str]:
    """Players still accepting contracts, in turn order."""
    acceptance = state["accept"]
    return [n for n in state["order"] if n not in acceptance["done"] and not state["p"][n]["dropped"]]


# the phase's question, as a prompt asks it and (True) at the start of HELP's sentence
_ASKED = {False: phrase("load contracts on ships, trade, buy posts or ships; end with {order}",
                        order=order_text("done")),
          True: phrase("Load contracts on ships, trade, buy posts or ships; end with {order}",
                       order=order_text("done"))}


def prompts(state: GameState) -> list[Prompt]:
    kinds = KINDS + (free_trade.KINDS if state["options"]["free_trade"] else ())
    return [shared_prompt(n, "accept.contracts", True, kinds, _ASKED[False]) for n in waiting(state)]


def question(state: GameState, player: str, sentence: bool = False) -> Phrase:
    """What the phase asks `player` (a prompt's text); with `sentence`, as the start of a
    sentence (HELP)."""
    return _ASKED[sentence]


# --------------------------------------------------------------------------- checks


def check_order(state: GameState, player: str, order: Order) -> None:
    """Raise IllegalOrder unless the order fits now; never changes the state."""
    acceptance = state["accept"]
    if player in acceptance["done"]:
        raise illegal(phrase("you already ended this phase"))
    kind = order.kind
    if kind == "done":
        return
    if kind in dealings.KINDS:
        dealings.check_order(state, player, order)
    elif kind in free_trade.KINDS:
        free_trade.check_order(state, player, order, waiting(state))
    elif kind in _CHECKS:
        _CHECKS[kind](state, player, sheet_of(state, player), order.args)
    else:
        raise illegal(phrase("'{order}' is not an order of the accept phase", order=order_text(kind)))
    releases = kind in ("reject", "withdraw")  # an answer or a withdrawal only lets go of what an offer held
    if not releases and (kind == "offer" or any(x["from"] == player for x in acceptance["offers"])):
        _check_promises(state, player, order)


def redraw_ready(state: GameState, player: str, sheet: PlayerSheet) -> bool:
    """The player holds the Consul or the Praefectus Urbi (the Consul first), its ability
    unused, and has loaded nothing yet: the first tests of `_check_redraw`, which the menus
    ask before trying each redraw."""
    office = "consul" if state["offices"]["consul"] == player else "urbi" if state["offices"]["urbi"] == player \
        else None
    return office is not None and state["ability"][office] is None and not sheet["r"]["loaded"]


def _check_redraw(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any]) -> None:
    """The Consul or the Praefectus Urbi, their ability unused, swaps one or two contracts of
    the hand for new ones, before loading any."""
    mine = [x for x in ("consul", "urbi") if state["offices"][x] == player]
    if not mine:
        raise illegal(phrase("only the Consul or the Praefectus Urbi may redraw"))
    if state["ability"][mine[0]] is not None:
        raise illegal(phrase("your office's ability was already used this round"))
    if sheet["r"]["loaded"]:
        raise illegal(phrase("redraw before loading any contract"))
    numbers = args["contracts"]
    if not 1 <= len(numbers) <= 2 or len(set(numbers)) != len(numbers):
        raise illegal(phrase("redraw one or two different contracts"))
    for number in numbers:
        if number not in sheet["hand"]:
            raise illegal(phrase("contract {contract} is not in your hand", contract=number))


def _check_load(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any]) -> None:
    """A contract from the hand onto a ship in harbour that can make the voyage, with room
    (a passenger place for a passenger), and the contract's goods in the player's storage."""
    components = components_of(state)
    number, ship_id = args["contract"], args["ship"]
    if number not in sheet["hand"]:
        raise illegal(phrase("contract {contract} is not in your hand", contract=number),
                      phrase("free a saved contract first") if number in sheet["saved"] else None)
    ship = ship_of(sheet, ship_id)
    if ship is None:
        raise illegal(phrase("you have no ship {ship}", ship=ship_id))
    if ship["at"] != 0:
        raise illegal(phrase("ship {ship} is at sea; only ships in harbour take new contracts", ship=ship_id))
    card = contract_card(components, number)
    if card["voyage"][ship["size"]] is None:
        raise illegal(phrase("a {size} ship cannot carry contract {contract}", size=term(ship["size"]),
                             contract=number))
    cargo, people = used_space(components, ship)
    info = components["ships"][ship["size"]]
    if cargo + card["amount"] > info["capacity"]:
        raise illegal(phrase("ship {ship} has only {space} free space", ship=ship_id, space=info["capacity"] - cargo))
    if card["cargo"] == "passenger":
        if people + 1 > info["passengers"]:
            raise illegal(phrase("ship {ship} has no free passenger place", ship=ship_id))
    elif sheet["goods"][card["cargo"]] < card["amount"]:
        raise illegal(phrase("contract {contract} needs {goods}; you have {have}", contract=number,
                             goods=goods_count(card["amount"], card["cargo"]), have=sheet["goods"][card["cargo"]]))


def _check_unload(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any]) -> None:
    if not any(args["contract"] in s["cargo"] and s["at"] == 0 for s in sheet["ships"]):
        raise illegal(phrase("contract {contract} is not loaded on a ship in harbour", contract=args["contract"]))


def _check_post(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any]) -> None:
    """One trading post a round, at the price of the next one."""
    prices = components_of(state)["post_prices"]
    if sheet["r"]["post"]:
        raise illegal(phrase("you already bought a trading post this round"))
    if sheet["posts"] >= len(prices):
        raise illegal(phrase("you have no trading post left to buy"))
    price = prices[sheet["posts"]]
    if price > sheet["gold"]:
        raise illegal(phrase("the next trading post costs {gold} gold", gold=price))


def _check_save(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any]) -> None:
    """A contract from the hand kept on a free trading post for a later round."""
    if args["contract"] not in sheet["hand"]:
        raise illegal(phrase("contract {contract} is not in your hand", contract=args["contract"]))
    if sheet["posts"] - len(sheet["saved"]) < 1:
        raise illegal(phrase("you have no free trading post"))


def _check_free(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any]) -> None:
    if args["contract"] not in sheet["saved"]:
        raise illegal(phrase("contract {contract} is not saved", contract=args["contract"]))


def _check_ship(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any]) -> None:
    """One ship a round; the last of a size may still be had from a later buyer."""
    size = args["size"]
    if sheet["r"]["ship"] is not None:
        raise illegal(phrase("you already bought a ship this round"))
    cost = ship_cost(state, sheet, size)
    if cost > sheet["gold"]:
        raise illegal(phrase("a {size} ship costs {cost} gold; you have {gold}", size=term(size), cost=cost,
                             gold=sheet["gold"]))
    if state["ships"][size] <= 0 and later_buyer(state, player, size) is None:
        raise illegal(phrase("no {size} ship is left", size=term(size)))


_CHECKS: dict[str, Callable[[GameState, str, PlayerSheet, dict[str, Any]], None]] = {
    "redraw": _check_redraw, "load": _check_load, "unload": _check_unload, "post": _check_post, "save": _check_save,
    "free": _check_free, "ship": _check_ship}


def _check_promises(state: GameState, player: str, order: Order) -> None:
    """An open free-trade offer holds what it gives until it is answered: the order is tried
    on a copy and the promises are checked after it."""
    trial = draft(state)
    _carry_out(trial, player, order, [])
    free_trade.check_promises_kept(trial, player)


# --------------------------------------------------------------------------- carrying out


def apply_order(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    check_order(state, player, order)
    _carry_out(state, player, order, events)


def _carry_out(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    """An order `check_order` has passed."""
    kind = order.kind
    if kind in dealings.KINDS:
        dealings.apply_order(state, player, order, events)
    elif kind in free_trade.KINDS:
        free_trade.apply_order(state, player, order, events)
    elif kind == "ship":
        _buy_ship(state, player, order.args["size"], events)
    else:
        _CARRY_OUT[kind](state, player, writable_sheet(state, player), order.args, events)


def _buy_ship(state: GameState, player: str, size: str, events: list[Event], ship_id: int | None = None) -> None:
    """Buy a ship; when it is the last of its size and a later player bought it, that player
    gives it up, and buys the next size of their `ship medium or small` instead if they
    gave one (`_another_ship`)."""
    loser = later_buyer(state, player, size) if state["ships"][size] <= 0 else None
    lost = None
    if loser is not None:
        sheet = state["p"][loser]
        lost = sheet["r"]["ship"]["id"], list(ship_of(sheet, sheet["r"]["ship"]["id"])["cargo"]), \
            loser in state["accept"]["done"]
    buy_ship(state, player, size, events, ship_id)
    if lost is not None:
        _another_ship(state, loser, player, *lost, events)


def _another_ship(state: GameState, loser: str, taker: str, ship_id: int, cargo: list[int], was_done: bool,
                  events: list[Event]) -> None:
    """A buyer whose ship went to an earlier player buys the first other size their set
    named that is legal now, under the same ship number, with the contracts that were on
    the lost ship loaded again where they fit. When all of them fit, a player who was done
    stays done; otherwise they are asked again, as without the alternative."""
    sizes = plan_book.ship_alternatives(state, loser)
    for k, size in enumerate(sizes):
        try:
            _check_ship(state, loser, sheet_of(state, loser), {"size": size})
        except OrderError:
            continue
        plan_book.keep_ship_alternatives(state, loser, sizes[k + 1:])
        _buy_ship(state, loser, size, events, ship_id)
        sheet = writable_sheet(state, loser)
        left = []
        for number in cargo:
            try:
                _check_load(state, loser, sheet, {"contract": number, "ship": ship_id})
            except OrderError:
                left.append(number)
                continue
            _load(state, loser, sheet, {"contract": number, "ship": ship_id}, events)
        if was_done and not left:
            writable(state, "accept")["done"].append(loser)
        if left:
            then = plural_phrase(len(left), "contract {contracts} does not fit it and is back in your hand; you may "
                                 "send new orders", "contracts {contracts} do not fit it and are back in your hand; "
                                 "you may send new orders", contracts=listed(left))
        elif was_done:
            then = phrase("every contract that was on the lost ship is on it; your part stays done")
        else:
            then = phrase("every contract that was on the lost ship is on it")
        for i, event in enumerate(events):
            if event.kind == "ship.lost" and event.to == (loser,) and event.data.get("size") != size:
                events[i] = Event("ship.lost", phrase("{player} comes earlier in turn order and takes the last {lost} "
                                                      "ship you bought; as your orders said, you buy a {size} ship "
                                                      "instead (ship {ship}): {then}.", player=taker,
                                                      lost=term(event.data["size"]), size=term(size), ship=ship_id,
                                                      then=then), dict(event.data, instead=size), to=(loser,))
        return


def _done(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any], events: list[Event]) -> None:
    """The player has finished; offers from or to them lapse."""
    acceptance = writable(state, "accept")
    acceptance["done"].append(player)
    acceptance["offers"] = [x for x in acceptance["offers"] if player not in (x["from"], x["to"])]
    events.append(Event("accept.done", phrase("{player} has finished accepting contracts.", player=player),
                        {"player": player}))


def _redraw(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any], events: list[Event]) -> None:
    office = "consul" if state["offices"]["consul"] == player else "urbi"
    writable(state, "ability")[office] = "redraw"
    for number in args["contracts"]:
        sheet["hand"].remove(number)
        writable(state, "discard").append(number)
    drawn = draw_contracts(state, len(args["contracts"]))
    sheet["hand"].extend(drawn)
    events.append(Event("redraw", plural_phrase(len(args["contracts"]), "{player} discards {n} contract and draws "
                                                "{drawn}.", "{player} discards {n} contracts and draws {drawn}.",
                                                player=player, drawn=len(drawn)),
                        {"player": player, "discarded": list(args["contracts"]), "drawn": drawn}))


def _load(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any], events: list[Event]) -> None:
    """The contract goes next to the ship with its goods; only its owner is told (secret)."""
    number, ship_id = args["contract"], args["ship"]
    card = contract_card(components_of(state), number)
    ship = ship_of(sheet, ship_id)
    if card["cargo"] != "passenger":
        sheet["goods"][card["cargo"]] -= card["amount"]
    sheet["hand"].remove(number)
    ship["cargo"].append(number)
    sheet["r"]["loaded"] = True
    events.append(Event("load", phrase("You load contract {contract} on ship {ship}.", contract=number, ship=ship_id),
                        {"contract": number, "ship": ship_id}, to=(player,)))


def _unload(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any], events: list[Event]) -> None:
    number = args["contract"]
    card = contract_card(components_of(state), number)
    for ship in sheet["ships"]:
        if number in ship["cargo"]:
            ship["cargo"].remove(number)
    if card["cargo"] != "passenger":
        sheet["goods"][card["cargo"]] += card["amount"]
    sheet["hand"].append(number)
    events.append(Event("unload", phrase("You take contract {contract} off its ship.", contract=number),
                        {"contract": number}, to=(player,)))


def _post(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any], events: list[Event]) -> None:
    """A trading post bought draws a contract at once."""
    price = components_of(state)["post_prices"][sheet["posts"]]
    sheet["gold"] -= price
    sheet["posts"] += 1
    sheet["r"]["post"] = True
    drawn = draw_contracts(state, 1)
    sheet["hand"].extend(drawn)
    events.append(Event("post", phrase("{player} buys a trading post for {gold} gold and draws {drawn} contract.",
                                       player=player, gold=price, drawn=len(drawn)),
                        {"player": player, "drawn": drawn}))


def _save(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any], events: list[Event]) -> None:
    sheet["hand"].remove(args["contract"])
    sheet["saved"].append(args["contract"])
    events.append(Event("save", phrase("{player} saves contract {contract} with a trading post.", player=player,
                                       contract=args["contract"]), {"player": player}))


def _free(state: GameState, player: str, sheet: PlayerSheet, args: dict[str, Any], events: list[Event]) -> None:
    sheet["saved"].remove(args["contract"])
    sheet["hand"].append(args["contract"])
    events.append(Event("free", phrase("{player} frees saved contract {contract}.", player=player,
                                       contract=args["contract"]), {"player": player}))


_CARRY_OUT: dict[str, Callable[[GameState, str, PlayerSheet, dict[str, Any], list[Event]], None]] = {
    "done": _done, "redraw": _redraw, "load": _load, "unload": _unload, "post": _post,
    "save": _save, "free": _free}


def settle(state: GameState, events: list[Event]) -> bool:
    """When everyone is done: the loaded ships sail, and each player discards the contracts
    left in hand. True when the phase is over."""
    if waiting(state):
        return False
    for name in state["order"]:
        sheet = state["p"][name]
        if not sheet["hand"] and not any(ship["at"] == 0 and ship["cargo"] for ship in sheet["ships"]):
            continue
        sheet = writable_sheet(state, name)
        set_sail(state, name, sheet, events)
        if sheet["hand"]:
            writable(state, "discard").extend(sheet["hand"])
            events.append(Event("discard", plural_phrase(len(sheet["hand"]), "{player} discards {n} contract not "
                                                         "accepted.", "{player} discards {n} contracts not accepted.",
                                                         player=name), {"player": name}))
            sheet["hand"] = []
    state["accept"] = None
    plan_book.end_of_accept(state)
    return True


def default_orders(state: GameState, player: str) -> list[Order]:
    """A silent player accepts what is loaded so far."""
    return [Order("done")] if player in waiting(state) else []


# --------------------------------------------------------------------------- the short menu


def legal_orders(state: GameState, player: str) -> list[Order]:
    """A short menu: the tests of `check_order`, worked out directly for the common orders."""
    acceptance = state["accept"]
    sheet = state["p"].get(player)
    if sheet is None or player in acceptance["done"] or sheet["dropped"] or player not in state["order"]:
        return []  # not `waiting`
    out = [menu_order("done")] + _contract_orders(state, player, sheet)
    if sheet["r"]["ship"] is None:
        for size in SIZES:
            if ship_cost(state, sheet, size) <= sheet["gold"] \
                    and (state["ships"][size] > 0 or later_buyer(state, player, size) is not None):
                out.append(menu_order("ship", ("size", size)))
    out += dealings.legal_orders(state, player)
    if state["options"]["free_trade"]:
        others = [q for q in waiting(state) if q != player]
        out += free_trade.menu_orders(state, player, others, lambda o: _passes(state, player, o))
    if any(x["from"] == player for x in acceptance["offers"]):  # what open offers hold is not on offer
        out = [o for o in out if _passes(state, player, o)]
    return out


def _passes(state: GameState, player: str, order: Order) -> bool:
    try:
        check_order(state, player, order)
    except OrderError:
        return False
    return True


def _contract_orders(state: GameState, player: str, sheet: PlayerSheet) -> list[Order]:
    """A redraw, one load per contract that fits a ship, a trading post, a save."""
    components = components_of(state)
    out: list[Order] = []
    this_round = sheet["r"]
    if sheet["hand"] and redraw_ready(state, player, sheet):
        out.append(Order("redraw", {"contracts": sheet["hand"][:2]}))
    harbour = []
    for ship in sheet["ships"]:
        if ship["at"] == 0:
            cargo, people = used_space(components, ship)
            info = components["ships"][ship["size"]]
            harbour.append((ship["id"], ship["size"], info["capacity"] - cargo, info["passengers"] - people))
    if harbour:
        cards = components["contracts"]
        goods = sheet["goods"]
        for number in sheet["hand"]:
            card = cards[number - 1]
            what, amount = card["cargo"], card["amount"]
            passenger = what == "passenger"
            if not passenger and goods[what] < amount:
                continue
            voyage = card["voyage"]
            for ship_id, size, space, seats in harbour:
                if voyage[size] is None or space < amount or passenger and seats < 1:
                    continue
                out.append(menu_order("load", ("contract", number), ("ship", ship_id)))
                break
    prices = components["post_prices"]
    if not this_round["post"] and sheet["posts"] < len(prices) and prices[sheet["posts"]] <= sheet["gold"]:
        out.append(menu_order("post"))
    if sheet["hand"] and sheet["posts"] - len(sheet["saved"]) >= 1:
        out.append(menu_order("save", ("contract", sheet["hand"][0])))
    return out
