"""Phase 1, the Auction Public Office: each player in turn stays, takes a vacant office or bids
for an occupied one; the holder and the challenger raise or pass until one gives up. At the
end the Comes Thesaurorum gets his gold and the Praefectus Pretorio chooses his free good.

Rulebook: "The Auction Public Office Phase", "Resolving Auctions for Public Offices" and
"Public Offices" (page 25); the guard wall (City Walls, page 28).

Advance orders cut mail round trips without changing the game: a holder's `defend N` and a
challenger's `bid ... up to M` are answered by the engine exactly as the player would answer
live, one minimum raise at a time.
"""

from __future__ import annotations

import functools

from referee.contract import Event, Order, Prompt
from referee.wording import Phrase, listed, order_phrase, order_text, phrase, term

from . import plan_book
from .components import GOODS, OFFICES
from .draft import writable, writable_sheet
from .grammar import FREE_OFFICE
from .production import producible
from .state import (CANNOT_PRODUCE, GOOD_VALUE, GameState, components_of, gain_goods, illegal, menu_order,
                    new_phase_key, office_of, sentence_start, shared_prompt, sheet_of, turn_order)


def start(state: GameState) -> None:
    """Open the auction: office holders become active one by one in turn order."""
    state["phase"] = "auction"
    order = [n for n in turn_order(state) if office_of(state, n) is not None and not state["p"][n]["dropped"]]
    state["auction"] = {"start": order, "been": [], "active": None, "free": None, "coins": {}, "paid": 0,
                        "duel": None}
    new_phase_key(state)


def office_name(state: GameState, office: str) -> str:
    """The office as the component set names it (Magister Officiorum, Consul, ...)."""
    return components_of(state)["office_names"].get(office, office)


def guarded(state: GameState, office: str) -> bool:
    """The guard wall: bids by challengers on its owner's office rise by at least 3."""
    holder = state["offices"][office]
    return holder is not None and "guard" in state["p"][holder]["walls"]


def min_bid(state: GameState, office: str) -> int:
    """A bid must beat all the coins on the office (by 3 against the guard wall)."""
    return state["auction"]["coins"].get(office, 0) + (3 if guarded(state, office) else 1)


def settle(state: GameState, events: list[Event]) -> bool:
    """Make the next player active, answer for advance limits; True when the phase is over."""
    auction = state["auction"]
    if auction["duel"] is not None:
        _answer_by_limits(state, events)
        return False
    if auction["active"] is not None:
        return False
    waiting = [n for n in auction["start"] if n not in auction["been"] and not state["p"][n]["dropped"]]
    if waiting:
        auction = writable(state, "auction")
        auction["active"] = waiting[0]
        auction["been"].append(waiting[0])
        auction["free"] = None
        new_phase_key(state)
        return False
    _end_auction(state, events)
    return True


def _end_auction(state: GameState, events: list[Event]) -> None:
    """The coins go back to the bank, turn order follows the offices, the Comes gets his gold
    and the Praefectus Pretorio his good (asked only when he has a choice)."""
    auction = state["auction"]
    components = components_of(state)
    events.append(Event("auction.end", phrase("The auction is over; {gold} gold on the office board goes back to the "
                                              "bank.", gold=auction["paid"]),
                        {"discarded": auction["paid"], "offices": dict(state["offices"])}))
    state["last_auction_discard"] = auction["paid"]
    state["defend"] = {}  # limits hold for one auction
    plan_book.lapse(state, "auction", events)
    state["order"] = turn_order(state)
    comes = state["offices"]["comes"]
    if comes is not None:
        writable_sheet(state, comes)["gold"] += components["comes_gold"]
        events.append(Event("office.comes", phrase("{player} receives {gold} gold as Comes Thesaurorum.", player=comes,
                                                   gold=components["comes_gold"]),
                            {"player": comes, "gold": components["comes_gold"]}))
    state["auction"] = None
    pretorio = state["offices"]["pretorio"]
    state["phase"] = "pretorio"
    state["pretorio"] = pretorio
    new_phase_key(state)
    if pretorio is not None:
        types = producible(sheet_of(state, pretorio), components)
        if len(types) == 1 or state["p"][pretorio]["dropped"]:
            give_pretorio_good(state, pretorio, best_good(types), events)


def best_good(types: set[str] | list[str]) -> str:
    """The most valuable of these goods types (Other Rules: Goods)."""
    return max(types, key=lambda g: GOOD_VALUE[g])


def give_pretorio_good(state: GameState, player: str, good: str, events: list[Event]) -> None:
    """The Praefectus Pretorio's free good, of a type he can produce."""
    gain_goods(state, writable_sheet(state, player), good, 1)
    events.append(Event("office.pretorio", phrase("{player} takes one {good} good as Praefectus Pretorio.",
                                                  player=player, good=term(good)), {"player": player, "good": good}))
    state["pretorio"] = None


# the questions that never change, as a prompt asks them and (True) at the start of HELP's sentence
_FREE_GOOD = {False: phrase("choose the free good of a type you can produce"),
              True: phrase("Choose the free good of a type you can produce")}
_CHOOSE = {False: phrase("stay, take a vacant office or bid on an occupied one"),
           True: phrase("Stay, take a vacant office or bid on an occupied one")}


def prompts(state: GameState) -> list[Prompt]:
    if state["phase"] == "pretorio":
        pretorio = state["pretorio"]
        return [shared_prompt(pretorio, "auction.good", False, ("good",), question(state, pretorio))] \
            if pretorio else []
    auction = state["auction"]
    duel = auction["duel"]
    if duel is not None:
        who = duel[duel["turn"]]
        return [Prompt(who, "auction.duel", False, ("raise", "pass", "defend"), question(state, who))]
    if auction["active"] is not None:
        return [shared_prompt(auction["active"], "auction.choose", False, ("stay", "take", "bid", "defend"),
                              question(state, auction["active"]))]
    return []


def question(state: GameState, player: str, sentence: bool = False, own: bool = False) -> Phrase:
    """What the phase asks `player` (a prompt's text, which every player may read); with
    `sentence`, as the start of a sentence (HELP); with `own`, as `player` alone reads it:
    one who cannot afford the least raise is offered only to pass (their gold is secret)."""
    if state["phase"] == "pretorio":
        return _FREE_GOOD[sentence]
    duel = state["auction"]["duel"]
    if duel is None:
        return _CHOOSE[sentence]
    holder = duel["turn"] == "holder"
    short = None
    if own:  # only the asked player's own reading weighs their gold against the least raise
        need, have = min_raise(state), state["p"][duel[duel["turn"]]]["gold"]
        short = (need, have) if need > have else None
    return _duel_question(holder, duel["challenger" if holder else "holder"], duel["bid"],
                          office_name(state, duel["office"]), sentence, short)


@functools.lru_cache(maxsize=1024)  # asked again and again while the duel waits for its answer
def _duel_question(to_holder: bool, bidder: str, gold: int, office: str, sentence: bool,
                   short: tuple[int, int] | None) -> Phrase:
    """The duel's question to the holder (`to_holder`) or to the challenger; one who cannot
    afford the least raise (`short`: what it needs, what they have) is offered only to pass."""
    player = sentence_start(bidder, sentence)
    if short is not None:
        need, have = short
        if to_holder:
            return phrase("{player} bids {gold} on your office {office}; you cannot raise ({need} gold needed, you "
                          "have {have}): {orders}", player=player, gold=gold, office=office, need=need, have=have,
                          orders=order_text("pass"))
        return phrase("{player} raised to {gold} for {office}; you cannot raise again ({need} gold needed, you have "
                      "{have}): {orders}", player=player, gold=gold, office=office, need=need, have=have,
                      orders=order_text("pass"))
    answers = order_text("raise or pass")
    if to_holder:
        return phrase("{player} bids {gold} on your office {office}: {orders}", player=player, gold=gold, office=office,
                      orders=answers)
    return phrase("{player} raised to {gold} for {office}: {orders}", player=player, gold=gold, office=office,
                  orders=answers)



def _duel_won(state: GameState, events: list[Event], winner: str, loser: str, office: str, bid: int,
              challenger_won: bool) -> None:
    """The winner puts his bid on the office; the loser pays nothing and chooses again, and a
    holder who lost his office may take the challenger's old one without paying."""
    auction = writable(state, "auction")
    offices = writable(state, "offices")
    writable_sheet(state, winner)["gold"] -= bid
    auction["coins"][office] = auction["coins"].get(office, 0) + bid
    auction["paid"] += bid
    auction["duel"] = None
    name = office_name(state, office)
    if challenger_won:
        old = office_of(state, winner)
        if old is not None:
            offices[old] = None
        offices[office] = winner
        auction["active"] = loser
        auction["free"] = old
        events.append(Event("auction.won", phrase("{winner} takes {office} from {loser} for {gold} gold; {loser} must "
                                                  "choose again.", winner=winner, office=name, loser=loser, gold=bid),
                            {"winner": winner, "loser": loser, "office": office, "gold": bid}))
    else:
        auction["active"] = loser
        auction["free"] = None
        events.append(Event("auction.kept", phrase("{winner} keeps {office} for {gold} gold; {loser} must choose "
                                                   "again.", winner=winner, office=name, gold=bid, loser=loser),
                            {"winner": winner, "loser": loser, "office": office, "gold": bid}))
    if loser not in auction["been"]:
        auction["been"].append(loser)
    new_phase_key(state)


def _pass(state: GameState, events: list[Event], who: str) -> None:
    duel = state["auction"]["duel"]
    events.append(Event("auction.pass", phrase("{player} passes.", player=who), {"player": who}))
    if who == duel["holder"]:
        _duel_won(state, events, duel["challenger"], duel["holder"], duel["office"], duel["bid"], True)
    else:
        _duel_won(state, events, duel["holder"], duel["challenger"], duel["office"], duel["bid"], False)


def _raise(state: GameState, events: list[Event], who: str, gold: int) -> None:
    duel = writable(state, "auction")["duel"]
    duel["bid"] = gold
    duel["turn"] = "challenger" if duel["turn"] == "holder" else "holder"
    events.append(Event("auction.raise", phrase("{player} raises to {gold}.", player=who, gold=gold),
                        {"player": who, "gold": gold}))
    new_phase_key(state)


def min_raise(state: GameState) -> int:
    """The least raise in the duel: one more than the bid, three more when the challenger
    raises against the guard wall's owner."""
    duel = state["auction"]["duel"]
    step = 3 if duel["turn"] == "challenger" and guarded(state, duel["office"]) else 1
    return duel["bid"] + step


def _answer_by_limits(state: GameState, events: list[Event]) -> None:
    """Answer for sides that gave a limit in advance (or have left the game)."""
    while state["auction"]["duel"] is not None:
        duel = state["auction"]["duel"]
        who = duel[duel["turn"]]
        if state["p"][who]["dropped"]:
            _pass(state, events, who)
            return
        limit = state["defend"].get(who) if duel["turn"] == "holder" else duel.get("limit")
        if limit is None:
            return
        need = min_raise(state)
        if need <= min(limit, state["p"][who]["gold"]):
            _raise(state, events, who, need)
        else:
            _pass(state, events, who)
            return


# --------------------------------------------------------------------------- orders


def check_order(state: GameState, player: str, order: Order) -> None:
    """Raise IllegalOrder unless the order fits now; never changes the state."""
    if order.kind == "defend":
        return  # a standing order for the auction running or the next one, sent whenever
    if state["phase"] == "pretorio":
        _check_pretorio_good(state, player, order)
    elif state["auction"]["duel"] is not None:
        _check_duel_answer(state, player, order)
    else:
        _check_choice(state, player, order)


def _check_pretorio_good(state: GameState, player: str, order: Order) -> None:
    if order.kind != "good" or state["pretorio"] != player:
        raise illegal(phrase("only the Praefectus Pretorio chooses a good now"), order_phrase("good <type>"))
    types = producible(sheet_of(state, player), components_of(state))
    if order.args["good"] not in types:
        raise illegal(phrase("you cannot produce {good}", good=term(order.args["good"])),
                      phrase("choose one of {goods}", goods=listed(term(g) for g in sorted(types, key=GOOD_VALUE.get))),
                      CANNOT_PRODUCE)


def _check_duel_answer(state: GameState, player: str, order: Order) -> None:
    duel = state["auction"]["duel"]
    if duel[duel["turn"]] != player:
        raise illegal(phrase("it is not your turn in the bidding"))
    if order.kind == "pass":
        return
    if order.kind != "raise":
        raise illegal(phrase("answer the bid with {orders}", orders=order_text("raise or pass")))
    need = min_raise(state)
    if order.args["gold"] < need:
        raise illegal(phrase("a raise must be at least {gold}", gold=need), order_phrase(f"raise {need}"))
    if order.args["gold"] > state["p"][player]["gold"]:
        raise illegal(phrase("you have only {gold} gold", gold=state["p"][player]["gold"]))


def _check_choice(state: GameState, player: str, order: Order) -> None:
    """The active player's choice: the same office, a vacant one, or a bid on an occupied one."""
    if state["auction"]["active"] != player:
        raise illegal(phrase("you are not the active player in the auction"))
    kind, args = order.kind, order.args
    if kind == "stay":
        if office_of(state, player) is None:
            raise illegal(phrase("you hold no office to stay in"), phrase("take a vacant office or bid"))
    elif kind == "take":
        office = taken_office(state, args["office"])
        if state["offices"][office] is not None:
            raise illegal(phrase("{office} is not vacant", office=office_name(state, office)),
                          order_phrase(f"bid {office} {min_bid(state, office)}"), phrase("that office is not vacant"))
    elif kind == "bid":
        holder = state["offices"][args["office"]]
        name = office_name(state, args["office"])
        if holder is None:
            raise illegal(phrase("{office} is vacant", office=name), order_phrase(f"take {args['office']}"),
                          phrase("that office is vacant"))
        if holder == player:
            raise illegal(phrase("you already hold that office"), order_phrase("stay"))
        need = min_bid(state, args["office"])
        gold = opening_bid(state, args)
        if gold < need:
            raise illegal(phrase("a bid on {office} must be at least {gold}", office=name, gold=need),
                          order_phrase(f"bid {args['office']} {need}"))
        if gold > state["p"][player]["gold"]:
            raise illegal(phrase("you have only {gold} gold", gold=state["p"][player]["gold"]))
        if "limit" in args and args["limit"] < gold:
            raise illegal(phrase("the '{words}' limit is below the bid", words=order_text("up to")))
    else:
        raise illegal(phrase("'{order}' is not an auction order", order=order_text(kind)),
                      order_phrase("stay, take <office>, bid <office> <gold>"))


def set_defend(state: GameState, player: str, gold: int, events: list[Event]) -> None:
    """A holder's standing `defend` limit, for the auction running or else the next one; it
    answers his side of a duel one minimum raise at a time, as he would live."""
    writable(state, "defend")[player] = gold
    said = phrase("You will defend your office up to {gold} gold in this auction.", gold=gold) \
        if state["phase"] == "auction" else phrase("You will defend your office up to {gold} gold in the next auction.",
                                                   gold=gold)
    events.append(Event("defend.set", said, {"gold": gold}, to=(player,)))


def taken_office(state: GameState, office: str) -> str:
    """The office a `take` names; `take free` is the one its player may take without paying
    (the office the challenger who took his left vacant)."""
    if office != FREE_OFFICE:
        return office
    free = state["auction"]["free"] if state["auction"] is not None else None
    if free is None:
        raise illegal(phrase("no office is yours to take for free now (only after losing yours to a challenger who "
                             "held one)"), order_phrase("take <office>"))
    return free


def opening_bid(state: GameState, args: dict) -> int:
    """The gold a bid puts on the office: as written, or the least it takes now (`bid comes
    up to 8`)."""
    return args["gold"] if args.get("gold") is not None else min_bid(state, args["office"])


def apply_order(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    check_order(state, player, order)
    kind, args = order.kind, order.args
    if kind == "defend":
        set_defend(state, player, args["gold"], events)
        return
    if kind == "good":
        give_pretorio_good(state, player, args["good"], events)
        new_phase_key(state)
        return
    if state["auction"]["duel"] is not None:
        if kind == "pass":
            _pass(state, events, player)
        else:
            _raise(state, events, player, args["gold"])
        return
    auction = writable(state, "auction")
    if kind == "stay":
        events.append(Event("auction.stay", phrase("{player} stays in {office}.", player=player,
                                                   office=office_name(state, office_of(state, player))),
                            {"player": player}))
        auction["active"] = None
    elif kind == "take":
        _take_vacant(state, player, taken_office(state, args["office"]), events)
        auction["active"] = None
    else:
        holder = state["offices"][args["office"]]
        gold = opening_bid(state, args)
        auction["duel"] = {"office": args["office"], "challenger": player, "holder": holder, "bid": gold,
                           "turn": "holder", "limit": args.get("limit")}
        events.append(Event("auction.bid", phrase("{player} bids {gold} on {office}, held by {holder}.", player=player,
                                                  gold=gold, office=office_name(state, args["office"]), holder=holder),
                            {"player": player, "office": args["office"], "gold": gold}))
    new_phase_key(state)


def _take_vacant(state: GameState, player: str, office: str, events: list[Event]) -> None:
    """A vacant office costs 2 gold (what the player has, when less); the one a player was
    just pushed out of by the challenger's old office is free."""
    auction = writable(state, "auction")
    price = 0 if office == auction["free"] else components_of(state)["vacant_price"]
    price = min(price, state["p"][player]["gold"])
    old = office_of(state, player)
    offices = writable(state, "offices")
    if old is not None:
        offices[old] = None
    offices[office] = player
    writable_sheet(state, player)["gold"] -= price
    auction["coins"][office] = auction["coins"].get(office, 0) + price
    auction["paid"] += price
    said = phrase("{player} takes the vacant {office} for {gold} gold.", player=player,
                  office=office_name(state, office), gold=price) if price else \
        phrase("{player} takes the vacant {office} free of charge.", player=player, office=office_name(state, office))
    events.append(Event("auction.take", said,
                        {"player": player, "office": office, "gold": price}))


def legal_orders(state: GameState, player: str) -> list[Order]:
    if state["phase"] == "pretorio":
        if state["pretorio"] != player:
            return []
        types = producible(sheet_of(state, player), components_of(state))
        return [menu_order("good", ("good", t)) for t in GOODS if t in types]
    auction = state["auction"]
    duel = auction["duel"]
    gold = state["p"][player]["gold"]
    if duel is not None:
        if duel[duel["turn"]] != player:
            return []
        out = [menu_order("pass")]
        need = min_raise(state)
        if need <= gold:
            out.append(menu_order("raise", ("gold", need)))
        return out
    if auction["active"] != player:
        return []
    out = []
    mine = office_of(state, player)
    if mine is not None:
        out.append(menu_order("stay"))
    offices = state["offices"]
    for office in OFFICES:
        holder = offices[office]
        if holder is None:
            out.append(menu_order("take", ("office", office)))
        elif holder != player:
            need = min_bid(state, office)
            if need <= gold:
                out.append(menu_order("bid", ("office", office), ("gold", need)))
                if need + 2 <= gold:
                    out.append(menu_order("bid", ("office", office), ("gold", need), ("limit", need + 2)))
    if player not in state["defend"] and mine is not None:
        out.append(menu_order("defend", ("gold", min(gold, 2))))
    return out


def default_orders(state: GameState, player: str) -> list[Order]:
    """A silent player keeps his office, or takes the office he may take for free, or the
    highest-numbered vacant one; a silent bidder passes; a silent Pretorio takes his best good."""
    if state["phase"] == "pretorio":
        if state["pretorio"] != player:
            return []
        return [Order("good", {"good": best_good(producible(sheet_of(state, player), components_of(state)))})]
    auction = state["auction"]
    duel = auction["duel"]
    if duel is not None:
        return [Order("pass")] if duel[duel["turn"]] == player else []
    if auction["active"] != player:
        return []
    if office_of(state, player) is not None:
        return [Order("stay")]
    if auction["free"] is not None and state["offices"][auction["free"]] is None:
        return [Order("take", {"office": auction["free"]})]
    vacant = [o for o in OFFICES if state["offices"][o] is None]
    return [Order("take", {"office": vacant[-1]})]
