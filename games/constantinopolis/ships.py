"""Ships: voyages and arrivals (phase 2, and every ship at the end of the game), the space on
a ship in harbour, buying a ship in the accept phase with the earlier player's priority for
the last one of a size, and setting sail with the long voyage bonus.

Rulebook: "Ships" (page 10), "Moving Ships and Fulfilling Contracts", "Buy Ships" and "Long
Voyage Bonus" (Accept Contracts, page 18), the dock wall (City Walls, page 28) and "Traveling
Ships" (Winning the Game, page 23).
"""

from __future__ import annotations

from typing import Any

from referee.contract import Event
from referee.wording import Phrase, listed, phrase, plural_phrase, term

from .draft import writable, writable_sheet
from .state import GameState, PlayerSheet, Ship, components_of, contract_card

DOCK_WALL_DISCOUNT = 3


def move_ships(state: GameState, events: list[Event], *, final: bool = False) -> None:
    """Each ship at sea moves one space; arrivals fulfil their contracts (gold and fame). At
    the end of the game (`final`) every ship at sea arrives."""
    components = components_of(state)
    for name in state["order"]:
        if all(ship["at"] == 0 for ship in state["p"][name]["ships"]):
            continue
        sheet = writable_sheet(state, name)
        for ship in sheet["ships"]:
            if ship["at"] == 0:
                continue
            ship["at"] = 0 if final else ship["at"] - 1
            if ship["at"] == 0:
                _arrive(state, name, sheet, ship, components, final, events)


def _arrive(state: GameState, name: str, sheet: PlayerSheet, ship: Ship, components: dict[str, Any], final: bool,
            events: list[Event]) -> None:
    gold = fame = 0
    for number in ship["cargo"]:
        card = contract_card(components, number)
        gold += card["gold"]
        fame += card["fame"]
        if card["cargo"] != "passenger":
            writable(state, "flow")[card["cargo"]] -= card["amount"]
        writable(state, "discard").append(number)
    sheet["gold"] += gold
    sheet["fame"] += fame
    sheet["score"]["ships_gold"] += gold if final else 0
    sheet["score"]["ships_fame"] += fame if final else 0
    said = {"player": name, "size": term(ship["size"]), "ship": ship["id"], "gold": gold}
    told = plural_phrase(
        len(ship["cargo"]), "{player}'s {size} ship {ship} arrives with {n} contract: {gold} gold and {fame} fame.",
        "{player}'s {size} ship {ship} arrives with {n} contracts: {gold} gold and {fame} fame.", fame=fame,
        **said) if fame else plural_phrase(  # no `0 fame`: what it earned, named
        len(ship["cargo"]), "{player}'s {size} ship {ship} arrives with {n} contract: {gold} gold (no fame).",
        "{player}'s {size} ship {ship} arrives with {n} contracts: {gold} gold (no fame).", **said)
    events.append(Event("ship.arrive", told,
                        {"player": name, "ship": ship["id"], "gold": gold, "fame": fame,
                         "contracts": list(ship["cargo"])}))
    ship["cargo"] = []


def ship_of(sheet: PlayerSheet, ship_id: int) -> Ship | None:
    """The player's ship with this number (ships are numbered as they are bought)."""
    for ship in sheet["ships"]:
        if ship["id"] == ship_id:
            return ship
    return None


def used_space(components: dict[str, Any], ship: Ship) -> tuple[int, int]:
    """(cargo spaces taken, passenger places taken) on a ship."""
    cargo = sum(contract_card(components, c)["amount"] for c in ship["cargo"])
    people = sum(1 for c in ship["cargo"] if contract_card(components, c)["cargo"] == "passenger")
    return cargo, people


def ship_cost(state: GameState, sheet: PlayerSheet, size: str) -> int:
    """The printed price, 3 less with the dock wall."""
    cost = components_of(state)["ships"][size]["cost"]
    return max(0, cost - DOCK_WALL_DISCOUNT) if "dock" in sheet["walls"] else cost


def later_buyer(state: GameState, player: str, size: str) -> str | None:
    """A player later in turn order who bought a ship of this size this round: the one who
    gives it up when `player`, coming earlier, wants the last one (Buy Ships: priority)."""
    order = state["order"]
    later = order[order.index(player) + 1:]
    for other in reversed(later):
        bought = state["p"][other]["r"]["ship"]
        if bought is not None and bought["size"] == size:
            return other
    return None


def _give_ship_up(state: GameState, loser: str, taker: str, events: list[Event]) -> None:
    """The later buyer hands the ship back: gold refunded, its contracts (and their goods)
    back in hand, and their part of the phase reopened."""
    components = components_of(state)
    sheet = writable_sheet(state, loser)
    bought = sheet["r"]["ship"]
    ship = ship_of(sheet, bought["id"])
    for number in ship["cargo"]:
        card = contract_card(components, number)
        if card["cargo"] != "passenger":
            sheet["goods"][card["cargo"]] += card["amount"]
        sheet["hand"].append(number)
    sheet["ships"].remove(ship)
    sheet["gold"] += sheet["r"]["ship_paid"]
    sheet["r"]["ship"] = None
    sheet["r"]["ship_paid"] = 0
    writable(state, "ships")[bought["size"]] += 1
    if loser in state["accept"]["done"]:
        writable(state, "accept")["done"].remove(loser)
    size = term(bought["size"])
    events.append(Event("ship.lost", phrase("{player} comes earlier in turn order and takes the last {size} ship you "
                                            "bought; your gold is refunded, its contracts are back in your hand, and "
                                            "you may send new orders.", player=taker, size=size),
                        {"player": loser, "size": bought["size"]}, to=(loser,)))
    events.append(Event("ship.priority", phrase("{player} has priority over {other} for the last {size} ship.",
                                                player=taker, other=loser, size=size),
                        {"player": taker, "from": loser, "size": bought["size"]}))


def buy_ship(state: GameState, player: str, size: str, events: list[Event], ship_id: int | None = None) -> None:
    """One ship a round, usable at once; the last of a size is taken from a later buyer.
    `ship_id`: the number of a ship this one replaces (a later buyer's other size)."""
    if state["ships"][size] <= 0:
        _give_ship_up(state, later_buyer(state, player, size), player, events)
    sheet = writable_sheet(state, player)
    cost = ship_cost(state, sheet, size)
    writable(state, "ships")[size] -= 1
    sheet["gold"] -= cost
    if ship_id is None:
        ship_id = sheet["next_ship"]
        sheet["next_ship"] += 1
    sheet["ships"].append({"id": ship_id, "size": size, "at": 0, "cargo": []})
    sheet["r"]["ship"] = {"id": ship_id, "size": size}
    sheet["r"]["ship_paid"] = cost
    said = phrase("{player} buys a {size} ship (ship {ship}) for {gold} gold.", player=player, size=term(size),
                  ship=ship_id, gold=cost) if cost else \
        phrase("{player} buys a {size} ship (ship {ship}) free of charge.", player=player, size=term(size), ship=ship_id)
    events.append(Event("ship.buy", said,
                        {"player": player, "size": size, "ship": ship_id}))


def set_sail(state: GameState, name: str, sheet: PlayerSheet, events: list[Event]) -> None:
    """At the end of the accept phase each loaded ship in harbour leaves on the longest voyage
    its contracts need; a long voyage earns fame at once (1, or 2 for a large ship). `sheet`
    must come from `writable_sheet`."""
    components = components_of(state)
    for ship in sheet["ships"]:
        if ship["at"] == 0 and ship["cargo"]:
            voyage = max(contract_card(components, c)["voyage"][ship["size"]] for c in ship["cargo"])
            ship["at"] = voyage
            bonus = (1 + (1 if ship["size"] == "large" else 0)) if voyage == 2 else 0
            sheet["fame"] += bonus
            # the accepted contracts are shown to all before the ship leaves (rulebook, phase
            # 6); at sea they lie face down again (FAQ), so the view hides them from then on
            events.append(Event("ship.sail", _sails(name, ship, bonus) if voyage == 2 else _sails(name, ship),
                                {"player": name, "ship": ship["id"], "voyage": voyage,
                                 "contracts": list(ship["cargo"])}))


def _sails(name: str, ship: Ship, bonus: int | None = None) -> Phrase:
    """`ann's medium ship 2 leaves on a long voyage with 2 contracts (12, 40) and gains 1 fame.`: a
    long voyage when it earns the `bonus`, else a short one."""
    values = {"player": name, "size": term(ship["size"]), "ship": ship["id"], "contracts": listed(ship["cargo"])}
    count = len(ship["cargo"])
    if bonus is not None:
        return plural_phrase(count, "{player}'s {size} ship {ship} leaves on a long voyage with {n} contract "
                             "({contracts}) and gains {fame} fame.", "{player}'s {size} ship {ship} leaves on a long "
                             "voyage with {n} contracts ({contracts}) and gains {fame} fame.", fame=bonus, **values)
    return plural_phrase(count, "{player}'s {size} ship {ship} leaves on a short voyage with {n} contract "
                         "({contracts}).", "{player}'s {size} ship {ship} leaves on a short voyage with {n} contracts "
                         "({contracts}).", **values)
