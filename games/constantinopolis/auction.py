"""Phase 1: the public-office auction, with the raise-or-pass exchange and advance limits.

Advance orders cut mail round trips without changing the game: a holder's `defend N` and a
challenger's `bid ... up to M` are answered by the engine exactly as the player would answer
live, one minimum raise at a time.
"""

from __future__ import annotations

from typing import Any

from referee.contract import Event, Order, Prompt

from .components import GOODS, OFFICES
from .state import (GOOD_VALUE, bump, comp, gain_goods, illegal, menu_order, office_of, pl, producible, prompt, turn_order,
                    w, wp)


def start(st: dict[str, Any]) -> None:
    st["phase"] = "auction"
    order = [n for n in turn_order(st) if office_of(st, n) is not None and not st["p"][n]["dropped"]]
    st["auction"] = {"start": order, "been": [], "active": None, "free": None, "coins": {}, "paid": 0,
                     "duel": None}
    bump(st)


def _name(st: dict[str, Any], office: str) -> str:
    return comp(st)["office_names"].get(office, office)


def guarded(st: dict[str, Any], office: str) -> bool:
    """The guard wall: bids by challengers on its owner's office rise by at least 3."""
    h = st["offices"][office]
    return h is not None and "guard" in st["p"][h]["walls"]


def min_bid(st: dict[str, Any], office: str) -> int:
    return st["auction"]["coins"].get(office, 0) + (3 if guarded(st, office) else 1)


def settle(st: dict[str, Any], ev: list[Event]) -> bool:
    """Resolve automatic steps; True when the phase moved on."""
    a = st["auction"]
    if a["duel"] is not None:
        _auto_duel(st, ev)
        return False
    if a["active"] is not None:
        return False
    nxt = [n for n in a["start"] if n not in a["been"] and not st["p"][n]["dropped"]]
    if nxt:
        a = w(st, "auction")
        a["active"] = nxt[0]
        a["been"].append(nxt[0])
        a["free"] = None
        bump(st)
        return False
    _finish(st, ev)
    return True


def _finish(st: dict[str, Any], ev: list[Event]) -> None:
    a = st["auction"]
    data = comp(st)
    ev.append(Event("auction.end", f"The auction is over; {a['paid']} gold on the office board goes back to the bank.",
                    {"discarded": a["paid"], "offices": dict(st["offices"])}))
    st["last_auction_discard"] = a["paid"]
    st["defend"] = {}  # limits hold for one auction
    st["order"] = turn_order(st)
    comes = st["offices"]["comes"]
    if comes is not None:
        wp(st, comes)["gold"] += data["comes_gold"]
        ev.append(Event("office.comes", f"{comes} receives {data['comes_gold']} gold as Comes Thesaurorum.",
                        {"player": comes, "gold": data["comes_gold"]}))
    st["auction"] = None
    pret = st["offices"]["pretorio"]
    st["phase"] = "pretorio"
    st["pretorio"] = pret
    bump(st)
    if pret is not None:
        types = producible(pl(st, pret), data)
        if len(types) == 1 or st["p"][pret]["dropped"]:
            give_good(st, pret, best_good(types), ev)


def best_good(types: set[str] | list[str]) -> str:
    return max(types, key=lambda g: GOOD_VALUE[g])


def give_good(st: dict[str, Any], player: str, good: str, ev: list[Event]) -> None:
    gain_goods(st, wp(st, player), good, 1)
    ev.append(Event("office.pretorio", f"{player} takes one {good} good as Praefectus Pretorio.",
                    {"player": player, "good": good}))
    st["pretorio"] = None


def prompts(st: dict[str, Any]) -> list[Prompt]:
    if st["phase"] == "pretorio":
        p = st["pretorio"]
        return [prompt(p, "auction.good", False, ("good",), "choose the free good of a type you can produce")] if p else []
    a = st["auction"]
    d = a["duel"]
    if d is not None:
        who = d[d["turn"]]
        if d["turn"] == "holder":
            text = f"{d['challenger']} bids {d['bid']} on your office {_name(st, d['office'])}: raise or pass"
        else:
            text = f"{d['holder']} raised to {d['bid']} for {_name(st, d['office'])}: raise or pass"
        return [Prompt(who, "auction.duel", False, ("raise", "pass", "defend"), text)]
    if a["active"] is not None:
        return [prompt(a["active"], "auction.choose", False, ("stay", "take", "bid", "defend"),
                       "stay, take a vacant office or bid on an occupied one")]
    return []


def _win(st: dict[str, Any], ev: list[Event], winner: str, loser: str, office: str, bid: int, challenger_won: bool) -> None:
    a = w(st, "auction")
    offices = w(st, "offices")
    wp(st, winner)["gold"] -= bid
    a["coins"][office] = a["coins"].get(office, 0) + bid
    a["paid"] += bid
    a["duel"] = None
    if challenger_won:
        old = office_of(st, winner)
        if old is not None:
            offices[old] = None
        offices[office] = winner
        a["active"] = loser
        a["free"] = old
        ev.append(Event("auction.won", f"{winner} takes {_name(st, office)} from {loser} for {bid} gold; {loser} must choose again.",
                        {"winner": winner, "loser": loser, "office": office, "gold": bid}))
    else:
        a["active"] = loser
        a["free"] = None
        ev.append(Event("auction.kept", f"{winner} keeps {_name(st, office)} for {bid} gold; {loser} must choose again.",
                        {"winner": winner, "loser": loser, "office": office, "gold": bid}))
    if loser not in a["been"]:
        a["been"].append(loser)
    bump(st)


def _pass(st: dict[str, Any], ev: list[Event], who: str) -> None:
    d = st["auction"]["duel"]
    if who == d["holder"]:
        ev.append(Event("auction.pass", f"{who} passes.", {"player": who}))
        _win(st, ev, d["challenger"], d["holder"], d["office"], d["bid"], True)
    else:
        ev.append(Event("auction.pass", f"{who} passes.", {"player": who}))
        _win(st, ev, d["holder"], d["challenger"], d["office"], d["bid"], False)


def _raise(st: dict[str, Any], ev: list[Event], who: str, gold: int) -> None:
    d = w(st, "auction")["duel"]
    d["bid"] = gold
    d["turn"] = "challenger" if d["turn"] == "holder" else "holder"
    ev.append(Event("auction.raise", f"{who} raises to {gold}.", {"player": who, "gold": gold}))
    bump(st)


def min_raise(st: dict[str, Any]) -> int:
    d = st["auction"]["duel"]
    step = 3 if d["turn"] == "challenger" and guarded(st, d["office"]) else 1
    return d["bid"] + step


def _auto_duel(st: dict[str, Any], ev: list[Event]) -> None:
    """Answer for sides that gave a limit in advance (or have left the game)."""
    while st["auction"]["duel"] is not None:
        d = st["auction"]["duel"]
        who = d[d["turn"]]
        if st["p"][who]["dropped"]:
            _pass(st, ev, who)
            return
        limit = st["defend"].get(who) if d["turn"] == "holder" else d.get("limit")
        if limit is None:
            return
        need = min_raise(st)
        if need <= min(limit, st["p"][who]["gold"]):
            _raise(st, ev, who, need)
        else:
            _pass(st, ev, who)
            return


def check(st: dict[str, Any], player: str, o: Order) -> None:
    """Raise IllegalOrder unless the order fits now; never changes the state."""
    k, g = o.kind, o.args
    if k == "defend":
        if st["phase"] not in ("auction", "accept"):
            raise illegal("defend limits are given during the auction or in the accept phase before it")
        return
    if st["phase"] == "pretorio":
        if k != "good" or st["pretorio"] != player:
            raise illegal("only the Praefectus Pretorio chooses a good now", "good <type>")
        if g["good"] not in producible(pl(st, player), comp(st)):
            types = ", ".join(sorted(producible(pl(st, player), comp(st)), key=GOOD_VALUE.get))
            raise illegal(f"you cannot produce {g['good']}", f"choose one of {types}")
        return
    a = st["auction"]
    d = a["duel"]
    if d is not None:
        if d[d["turn"]] != player:
            raise illegal("it is not your turn in the bidding")
        if k == "pass":
            return
        if k != "raise":
            raise illegal("answer the bid with raise or pass")
        need = min_raise(st)
        if g["gold"] < need:
            raise illegal(f"a raise must be at least {need}", f"raise {need}")
        if g["gold"] > st["p"][player]["gold"]:
            raise illegal(f"you have only {st['p'][player]['gold']} gold")
        return
    if a["active"] != player:
        raise illegal("you are not the active player in the auction")
    mine = office_of(st, player)
    if k == "stay":
        if mine is None:
            raise illegal("you hold no office to stay in", "take a vacant office or bid")
    elif k == "take":
        if st["offices"][g["office"]] is not None:
            raise illegal(f"{_name(st, g['office'])} is not vacant", f"bid {g['office']} {min_bid(st, g['office'])}")
    elif k == "bid":
        h = st["offices"][g["office"]]
        if h is None:
            raise illegal(f"{_name(st, g['office'])} is vacant", f"take {g['office']}")
        if h == player:
            raise illegal("you already hold that office", "stay")
        need = min_bid(st, g["office"])
        if g["gold"] < need:
            raise illegal(f"a bid on {_name(st, g['office'])} must be at least {need}", f"bid {g['office']} {need}")
        if g["gold"] > st["p"][player]["gold"]:
            raise illegal(f"you have only {st['p'][player]['gold']} gold")
        if "limit" in g and g["limit"] < g["gold"]:
            raise illegal("the 'up to' limit is below the bid")
    else:
        raise illegal(f"'{k}' is not an auction order", "stay, take <office>, bid <office> <gold>")


def do(st: dict[str, Any], player: str, o: Order, ev: list[Event]) -> None:
    check(st, player, o)
    k, g = o.kind, o.args
    if k == "defend":
        w(st, "defend")[player] = g["gold"]
        ev.append(Event("auction.defend", f"You will defend your office up to {g['gold']} gold.", {"gold": g["gold"]},
                        to=(player,)))
        return
    if k == "good":
        give_good(st, player, g["good"], ev)
        bump(st)
        return
    if st["auction"]["duel"] is not None:
        if k == "pass":
            _pass(st, ev, player)
        else:
            _raise(st, ev, player, g["gold"])
        return
    a = w(st, "auction")
    if k == "stay":
        ev.append(Event("auction.stay", f"{player} stays in {_name(st, office_of(st, player))}.", {"player": player}))
        a["active"] = None
    elif k == "take":
        office = g["office"]
        price = 0 if office == a["free"] else comp(st)["vacant_price"]
        price = min(price, st["p"][player]["gold"])
        old = office_of(st, player)
        offices = w(st, "offices")
        if old is not None:
            offices[old] = None
        offices[office] = player
        wp(st, player)["gold"] -= price
        a["coins"][office] = a["coins"].get(office, 0) + price
        a["paid"] += price
        ev.append(Event("auction.take", f"{player} takes the vacant {_name(st, office)} for {price} gold.",
                        {"player": player, "office": office, "gold": price}))
        a["active"] = None
    else:
        h = st["offices"][g["office"]]
        a["duel"] = {"office": g["office"], "challenger": player, "holder": h, "bid": g["gold"], "turn": "holder",
                     "limit": g.get("limit")}
        ev.append(Event("auction.bid", f"{player} bids {g['gold']} on {_name(st, g['office'])}, held by {h}.",
                        {"player": player, "office": g["office"], "gold": g["gold"]}))
    bump(st)


def legal(st: dict[str, Any], player: str) -> list[Order]:
    if st["phase"] == "pretorio":
        if st["pretorio"] != player:
            return []
        types = producible(pl(st, player), comp(st))
        return [menu_order("good", ("good", t)) for t in GOODS if t in types]
    a = st["auction"]
    d = a["duel"]
    gold = st["p"][player]["gold"]
    if d is not None:
        if d[d["turn"]] != player:
            return []
        out = [menu_order("pass")]
        need = min_raise(st)
        if need <= gold:
            out.append(menu_order("raise", ("gold", need)))
        return out
    if a["active"] != player:
        return []
    out = []
    mine = office_of(st, player)
    if mine is not None:
        out.append(menu_order("stay"))
    offices = st["offices"]
    for office in OFFICES:
        h = offices[office]
        if h is None:
            out.append(menu_order("take", ("office", office)))
        elif h != player:
            need = min_bid(st, office)
            if need <= gold:
                out.append(menu_order("bid", ("office", office), ("gold", need)))
                if need + 2 <= gold:
                    out.append(menu_order("bid", ("office", office), ("gold", need), ("limit", need + 2)))
    if player not in st["defend"] and mine is not None:
        out.append(menu_order("defend", ("gold", min(gold, 2))))
    return out


def default(st: dict[str, Any], player: str) -> list[Order]:
    if st["phase"] == "pretorio":
        return [Order("good", {"good": best_good(producible(pl(st, player), comp(st)))})] if st["pretorio"] == player else []
    a = st["auction"]
    d = a["duel"]
    if d is not None:
        return [Order("pass")] if d[d["turn"]] == player else []
    if a["active"] != player:
        return []
    if office_of(st, player) is not None:
        return [Order("stay")]
    if a["free"] is not None and st["offices"][a["free"]] is None:
        return [Order("take", {"office": a["free"]})]
    vacant = [o for o in OFFICES if st["offices"][o] is None]
    return [Order("take", {"office": vacant[-1]})]
