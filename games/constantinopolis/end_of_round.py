"""Phase 8, End of Round: change markets (or end the game), then store or discard goods, then
a new round begins, in which the pieces of players who left are taken off the board.

Rulebook: "The End of Round Phase" (page 21) and the Horreum (Buildings, page 27); the
Italian drop-out variant for the leavers' pieces.
"""

from __future__ import annotations

import functools

from referee.contract import Event, Order, Prompt
from referee.rng import Rng
from referee.wording import Phrase, menu_order as order_syntax, order_text, phrase, plural_phrase

from . import auction, plan_book, scoring
from .components import GOODS, OFFICES
from .draft import writable, writable_sheet
from .state import (GOOD_VALUE, GameState, PlayerSheet, components_of, contract_card, goods_total, illegal, lose_goods,
                    new_phase_key, new_round_flags, shared_prompt, sheet_of, too_few)


def store_limit(state: GameState, sheet: PlayerSheet) -> int:
    """One good may be stored, five with the Horreum."""
    components = components_of(state)
    return components["horreum_limit"] if "Horreum" in sheet["buildings"] else components["store_limit"]


def end_of_round(state: GameState, events: list[Event]) -> None:
    """Change markets, then the store step; or, when the last public building is gone or no
    future market is left to open, the end of the game."""
    if state["last_public"] or not state["market"]["future"]:
        scoring.final_scoring(state, events)
        return
    _change_markets(state, events)
    state["phase"] = "store"
    state["store"] = [n for n in state["order"] if not state["p"][n]["dropped"]
                      and goods_total(sheet_of(state, n)) > store_limit(state, sheet_of(state, n))]
    plan_book.lapse(state, "store", events, keep=state["store"])
    for name in state["order"]:
        if name not in state["store"] and state["p"][name]["dropped"]:
            sheet = writable_sheet(state, name)
            for good in GOODS:
                if sheet["goods"][good]:
                    lose_goods(state, sheet, good, sheet["goods"][good])
    new_phase_key(state)


def _change_markets(state: GameState, events: list[Event]) -> None:
    """The Future Market card on top becomes the Current Market. The first time the future
    pile runs empty the older cards are shuffled into a new one; the second time, the next
    round is the last."""
    market = writable(state, "market")
    market["current"].append(market["future"].pop())
    cards = components_of(state)["markets"]
    events.append(Event("market", phrase("The market moves to {market}.", market=cards[market["current"][-1]]["name"]),
                        {"market": market["current"][-1]}))
    if market["future"]:
        return
    market["empties"] += 1
    if market["empties"] == 1:
        rng = Rng.from_json(state["rng"])
        market["future"] = rng.shuffled(market["current"][:-1])
        state["rng"] = rng.to_json()
        market["current"] = market["current"][-1:]
        market["hidden"] = state["options"]["market_reshuffle"] == "facedown"
        events.append(Event("market.reshuffle", phrase("The future market pile is empty: the older market cards are "
                                                       "shuffled into a new pile (face down).") if market["hidden"]
                            else phrase("The future market pile is empty: the older market cards are shuffled into a "
                                        "new pile."), {}))
    else:
        events.append(Event("market.last", phrase("The future market pile is empty for the second time: the next round "
                                                  "is the last."), {}))


def prompts(state: GameState) -> list[Prompt]:
    return [shared_prompt(n, "store", True, ("keep",), question(state, n)) for n in state["store"]]


def question(state: GameState, player: str, sentence: bool = False) -> Phrase:
    """What the phase asks `player` (a prompt's text); with `sentence`, as the start of a
    sentence (HELP)."""
    return _keep_question(store_limit(state, sheet_of(state, player)), sentence)


@functools.lru_cache(maxsize=16)  # one or five goods, asked until the player answers
def _keep_question(limit: int, sentence: bool) -> Phrase:
    if sentence:
        return plural_phrase(limit, "Keep up to {n} good; the rest are discarded",
                             "Keep up to {n} goods; the rest are discarded")
    return plural_phrase(limit, "keep up to {n} good; the rest are discarded",
                         "keep up to {n} goods; the rest are discarded")


def check_order(state: GameState, player: str, order: Order) -> None:
    if player not in state["store"]:
        raise illegal(phrase("you have no goods to choose between"))
    if order.kind != "keep":
        raise illegal(phrase("{order} (or {nothing})", order=order_syntax("keep <goods>"),
                             nothing=order_text("keep nothing")))
    sheet = sheet_of(state, player)
    keep = order.args["goods"]
    limit = store_limit(state, sheet)
    if len(keep) > limit:
        raise illegal(plural_phrase(limit, "you may keep at most {n} goods", "you may keep at most {n} goods"))
    for good in GOODS:
        if keep.count(good) > sheet["goods"][good]:
            raise too_few(sheet, good)


def apply_order(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    """Keep the goods named; the rest go back to the supply."""
    check_order(state, player, order)
    sheet = writable_sheet(state, player)
    keep = order.args["goods"]
    lost = 0
    for good in GOODS:
        drop = sheet["goods"][good] - keep.count(good)
        lost += drop
        lose_goods(state, sheet, good, drop)
    writable(state, "store").remove(player)
    told = plural_phrase(len(keep), "{player} keeps {n} good and discards {lost}.",
                         "{player} keeps {n} goods and discards {lost}.", player=player, lost=lost) if keep else \
        phrase("{player} keeps no goods and discards {lost}.", player=player, lost=lost)
    events.append(Event("store", told, {"player": player, "kept": list(keep)}))


def best_keep(state: GameState, player: str) -> list[str]:
    """The most valuable goods the player may keep (a silent player's choice)."""
    sheet = sheet_of(state, player)
    bag = [g for g in reversed(GOODS) for _ in range(sheet["goods"][g])]
    return sorted(bag[:store_limit(state, sheet)], key=GOOD_VALUE.get)


def legal_orders(state: GameState, player: str) -> list[Order]:
    if player not in state["store"]:
        return []
    sheet = sheet_of(state, player)
    out = [Order("keep", {"goods": best_keep(state, player)})]
    cheap = sorted([g for g in GOODS for _ in range(sheet["goods"][g])], key=GOOD_VALUE.get)[:store_limit(state, sheet)]
    if cheap != out[0].args["goods"]:
        out.append(Order("keep", {"goods": sorted(cheap, key=GOOD_VALUE.get)}))
    out.append(Order("keep", {"goods": []}))
    return out


def default_orders(state: GameState, player: str) -> list[Order]:
    return [Order("keep", {"goods": best_keep(state, player)})] if player in state["store"] else []


def new_round(state: GameState, events: list[Event]) -> None:
    """The round's flags are cleared, office abilities come back, and the auction opens."""
    state["round"] += 1
    state["store"] = None
    state["donate"] = None
    _remove_leavers(state, events)
    for name in state["players"]:
        sheet = writable_sheet(state, name)
        sheet["r"] = new_round_flags()
        sheet["new"] = []
    state["ability"] = {"consul": None, "urbi": None}
    state["preempt"] = None
    state["last_auction_discard"] = 0
    events.append(Event("round", phrase("Round {round} begins.", round=state["round"]), {"round": state["round"]}))
    auction.start(state)


def _remove_leavers(state: GameState, events: list[Event]) -> None:
    """Italian variant: a leaver's pieces go out of the game, and he goes out of the turn
    order (no production, no contracts drawn, nothing asked: the deck is the others'); the
    supply shrinks to fit, and players left without an office take the lowest vacant ones in
    turn order."""
    gone = [n for n in state["players"] if state["p"][n]["dropped"] and not state["p"][n]["removed"]]
    if not gone:
        return
    for name in gone:
        _take_pieces_off(state, name, events)
    # out of the turn order from now on, not only from this round's auction on (`turn_order`)
    state["order"] = [n for n in state["order"] if not state["p"][n]["removed"]]
    left = len([n for n in state["players"] if not state["p"][n]["dropped"]])
    cap = 1 if left <= 2 else 2
    for building in components_of(state)["buildings"]:
        if state["supply"].get(building, 0) > cap:
            writable(state, "gone")[building] = state["gone"].get(building, 0) + state["supply"][building] - cap
            writable(state, "supply")[building] = cap
    for name in state["order"]:
        if not state["p"][name]["dropped"] and name not in state["offices"].values():
            writable(state, "offices")[next(o for o in OFFICES if state["offices"][o] is None)] = name


def _take_pieces_off(state: GameState, name: str, events: list[Event]) -> None:
    components = components_of(state)
    sheet = writable_sheet(state, name)
    for building in sheet["buildings"]:
        writable(state, "gone")[building] = state["gone"].get(building, 0) + 1
    state["gone_public"] += len(sheet["public"])
    state["gone_walls"] += len(sheet["walls"])
    sheet["buildings"], sheet["public"], sheet["walls"], sheet["new"] = [], [], [], []
    for ship in sheet["ships"]:
        for number in ship["cargo"]:
            card = contract_card(components, number)
            if card["cargo"] != "passenger":
                writable(state, "flow")[card["cargo"]] -= card["amount"]
            writable(state, "discard").append(number)
    sheet["ships"] = []
    writable(state, "discard").extend(sheet["hand"] + sheet["saved"])
    sheet["hand"], sheet["saved"] = [], []
    for good in GOODS:
        if sheet["goods"][good]:
            lose_goods(state, sheet, good, sheet["goods"][good])
    for office in OFFICES:
        if state["offices"][office] == name:
            writable(state, "offices")[office] = None
    sheet["removed"] = True
    events.append(Event("dropout", phrase("{player}'s buildings, ships and markers leave the game.", player=name),
                        {"player": name}))
