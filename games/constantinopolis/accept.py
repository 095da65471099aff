"""Phase 6: accepting contracts, simultaneous and possibly over several mails.

Each player ends their part with `done`. Ships are sold first come, but an earlier player in
turn order who asks for a sold-out size takes the ship back from a later buyer; that buyer
gets the contracts and gold back, is told why, and may resubmit (their `done` is reopened).
"""

from __future__ import annotations

from typing import Any

from referee.contract import Event, Order, OrderError, Prompt

from . import trade
from .components import GOODS, SIZES
from .state import bump, comp, contract, counted, draft, draw_cards, illegal, menu_order, pl, prompt, w, wp
from .views import before_loading

KINDS = ("load", "unload", "post", "save", "free", "ship", "redraw", "defend", "done") + trade.KINDS
TRADE_KINDS = ("offer", "accept", "reject")


def start(st: dict[str, Any]) -> None:
    st["phase"] = "accept"
    st["accept"] = {"done": [], "offers": [], "next": 1}
    bump(st)


def waiting(st: dict[str, Any]) -> list[str]:
    a = st["accept"]
    return [n for n in st["order"] if n not in a["done"] and not st["p"][n]["dropped"]]


def prompts(st: dict[str, Any]) -> list[Prompt]:
    kinds = KINDS + (TRADE_KINDS if st["options"]["free_trade"] else ())
    return [prompt(n, "accept.contracts", True, kinds, "load contracts on ships, trade, buy posts or ships; end with done")
            for n in waiting(st)]


def ship_of(p: dict[str, Any], sid: int) -> dict[str, Any] | None:
    for s in p["ships"]:
        if s["id"] == sid:
            return s
    return None


def used_space(data: dict[str, Any], ship: dict[str, Any]) -> tuple[int, int]:
    cargo = sum(contract(data, c)["amount"] for c in ship["cargo"])
    people = sum(1 for c in ship["cargo"] if contract(data, c)["cargo"] == "passenger")
    return cargo, people


def _ship_cost(st: dict[str, Any], p: dict[str, Any], size: str) -> int:
    cost = comp(st)["ships"][size]["cost"]
    return max(0, cost - 3) if "dock" in p["walls"] else cost


def _victim(st: dict[str, Any], player: str, size: str) -> str | None:
    """A later player in turn order who bought a ship of this size this round."""
    order = st["order"]
    later = order[order.index(player) + 1:]
    for q in reversed(later):
        r = st["p"][q]["r"]
        if r["ship"] is not None and r["ship"]["size"] == size:
            return q
    return None


def _parse_item(item: str) -> tuple[str, Any]:
    word, _, rest = item.partition(" ")
    if word == "contract":
        return "contract", int(rest)
    return rest, int(word)


def _has_items(st: dict[str, Any], player: str, items: list[str]) -> None:
    p = pl(st, player)
    for item in items:
        what, n = _parse_item(item)
        if what == "contract":
            if n not in p["hand"]:
                raise illegal(f"{player} does not hold contract {n} in hand")
        elif what == "gold":
            if p["gold"] < n:
                raise illegal(f"{player} has not got {n} gold")
        elif p["goods"][what] < n:
            raise illegal(f"{player} has not got {n} {what}")


def check(st: dict[str, Any], player: str, o: Order) -> None:
    a = st["accept"]
    data = comp(st)
    p = pl(st, player)
    r = p["r"]
    g = o.args
    if player in a["done"]:
        raise illegal("you already ended this phase")
    k = o.kind
    if k in ("done", "defend"):
        return
    if k in trade.KINDS:
        trade.check(st, player, o)
    elif k == "redraw":
        mine = [x for x in ("consul", "urbi") if st["offices"][x] == player]
        if not mine:
            raise illegal("only the Consul or the Praefectus Urbi may redraw")
        if st["ability"][mine[0]] is not None:
            raise illegal("your office's ability was already used this round")
        if r["loaded"]:
            raise illegal("redraw before loading any contract")
        ids = g["contracts"]
        if not 1 <= len(ids) <= 2 or len(set(ids)) != len(ids):
            raise illegal("redraw one or two different contracts")
        for c in ids:
            if c not in p["hand"]:
                raise illegal(f"contract {c} is not in your hand")
    elif k == "load":
        c, sid = g["contract"], g["ship"]
        if c not in p["hand"]:
            raise illegal(f"contract {c} is not in your hand", "free a saved contract first" if c in p["saved"] else None)
        ship = ship_of(p, sid)
        if ship is None:
            raise illegal(f"you have no ship {sid}")
        if ship["at"] != 0:
            raise illegal(f"ship {sid} is at sea; only ships in harbour take new contracts")
        card = contract(data, c)
        if card["voyage"][ship["size"]] is None:
            raise illegal(f"a {ship['size']} ship cannot carry contract {c}")
        cargo, people = used_space(data, ship)
        info = data["ships"][ship["size"]]
        if cargo + card["amount"] > info["capacity"]:
            raise illegal(f"ship {sid} has only {info['capacity'] - cargo} free space")
        if card["cargo"] == "passenger":
            if people + 1 > info["passengers"]:
                raise illegal(f"ship {sid} has no free passenger place")
        elif p["goods"][card["cargo"]] < card["amount"]:
            raise illegal(f"contract {c} needs {card['amount']} {card['cargo']}; you have {p['goods'][card['cargo']]}")
    elif k == "unload":
        if not any(g["contract"] in s["cargo"] and s["at"] == 0 for s in p["ships"]):
            raise illegal(f"contract {g['contract']} is not loaded on a ship in harbour")
    elif k == "post":
        if r["post"]:
            raise illegal("you already bought a trading post this round")
        if p["posts"] >= len(data["post_prices"]):
            raise illegal("you have no trading post left to buy")
        price = data["post_prices"][p["posts"]]
        if price > p["gold"]:
            raise illegal(f"the next trading post costs {price} gold")
    elif k == "save":
        if g["contract"] not in p["hand"]:
            raise illegal(f"contract {g['contract']} is not in your hand")
        if p["posts"] - len(p["saved"]) < 1:
            raise illegal("you have no free trading post")
    elif k == "free":
        if g["contract"] not in p["saved"]:
            raise illegal(f"contract {g['contract']} is not saved")
    elif k == "ship":
        size = g["size"]
        if r["ship"] is not None:
            raise illegal("you already bought a ship this round")
        cost = _ship_cost(st, p, size)
        if cost > p["gold"]:
            raise illegal(f"a {size} ship costs {cost} gold; you have {p['gold']}")
        if st["ships"][size] <= 0 and _victim(st, player, size) is None:
            raise illegal(f"no {size} ship is left")
    elif k == "offer":
        if not st["options"]["free_trade"]:
            raise illegal("trading between players needs the free trade option")
        if g["to"] == player or g["to"] not in st["p"] or g["to"] not in waiting(st):
            raise illegal(f"{g['to']} cannot take offers now")
        _has_items(st, player, g["give"])
    elif k in ("accept", "reject"):
        offer = next((x for x in a["offers"] if x["id"] == g["offer"]), None)
        if offer is None or offer["to"] != player:
            raise illegal(f"there is no offer {g['offer']} to you")
        if k == "accept":
            _has_items(st, offer["from"], offer["give"])
            _has_items(st, player, offer["get"])
    else:
        raise illegal(f"'{k}' is not an order of the accept phase")
    if k != "reject" and (k == "offer" or any(x["from"] == player for x in a["offers"])):
        _check_promises(st, player, o)


def _check_promises(st: dict[str, Any], player: str, o: Order) -> None:
    """An open offer holds what it gives until it is answered: the offerer cannot load, sell,
    spend or give away those items meanwhile. Otherwise the other player's ACCEPT could fail
    on something only the offerer knows (a contract loaded in secret, gold spent), and would
    tell them so. The order is tried on a copy and the promises are checked after it."""
    trial = draft(st)
    _carry_out(trial, player, o, [])
    p = pl(trial, player)
    gold, goods, contracts = 0, {g: 0 for g in GOODS}, []
    for x in trial["accept"]["offers"]:
        if x["from"] != player:
            continue
        for item in x["give"]:
            what, n = _parse_item(item)
            if what == "contract":
                contracts.append(n)
            elif what == "gold":
                gold += n
            else:
                goods[what] += n
    lost = [f"contract {c}" for c in contracts if c not in p["hand"]]
    if gold > p["gold"]:
        lost.append(f"{gold} gold")
    lost += [f"{n} {g}" for g, n in goods.items() if n > p["goods"][g]]
    if lost:
        raise illegal(f"your open offers hold {', '.join(lost)} until they are answered",
                      "send your whole set again without the offer to take it back")


def _move_items(st: dict[str, Any], a: str, b: str, items: list[str]) -> None:
    pa, pb = wp(st, a), wp(st, b)
    for item in items:
        what, n = _parse_item(item)
        if what == "contract":
            pa["hand"].remove(n)
            pb["hand"].append(n)
        elif what == "gold":
            pa["gold"] -= n
            pb["gold"] += n
        else:
            pa["goods"][what] -= n
            pb["goods"][what] += n


def _revoke(st: dict[str, Any], q: str, ev: list[Event], taker: str) -> None:
    data = comp(st)
    p = wp(st, q)
    info = p["r"]["ship"]
    ship = ship_of(p, info["id"])
    for c in ship["cargo"]:
        card = contract(data, c)
        if card["cargo"] != "passenger":
            p["goods"][card["cargo"]] += card["amount"]
        p["hand"].append(c)
    p["ships"].remove(ship)
    p["gold"] += p["r"]["ship_paid"]
    p["r"]["ship"] = None
    p["r"]["ship_paid"] = 0
    w(st, "ships")[info["size"]] += 1
    if q in st["accept"]["done"]:
        w(st, "accept")["done"].remove(q)
    ev.append(Event("ship.lost", f"{taker} comes earlier in turn order and takes the last {info['size']} ship you bought; "
                    "your gold is refunded, its contracts are back in your hand, and you may send new orders.",
                    {"player": q, "size": info["size"]}, to=(q,)))
    ev.append(Event("ship.priority", f"{taker} has priority over {q} for the last {info['size']} ship.",
                    {"player": taker, "from": q, "size": info["size"]}))


def do(st: dict[str, Any], player: str, o: Order, ev: list[Event]) -> None:
    check(st, player, o)
    _carry_out(st, player, o, ev)


def _carry_out(st: dict[str, Any], player: str, o: Order, ev: list[Event]) -> None:
    """An order `check` has passed."""
    data = comp(st)
    p = wp(st, player)
    r = p["r"]
    g = o.args
    k = o.kind
    if k in trade.KINDS:
        trade.do(st, player, o, ev)
    elif k == "defend":
        w(st, "defend")[player] = g["gold"]
        ev.append(Event("auction.defend", f"In the next auction you will defend your office up to {g['gold']} gold.",
                        {"gold": g["gold"]}, to=(player,)))
    elif k == "done":
        a = w(st, "accept")
        a["done"].append(player)
        a["offers"] = [x for x in a["offers"] if player not in (x["from"], x["to"])]
        ev.append(Event("accept.done", f"{player} has finished accepting contracts.", {"player": player}))
    elif k == "redraw":
        office = "consul" if st["offices"]["consul"] == player else "urbi"
        w(st, "ability")[office] = "redraw"
        for c in g["contracts"]:
            p["hand"].remove(c)
            w(st, "discard").append(c)
        new = draw_cards(st, len(g["contracts"]))
        p["hand"].extend(new)
        ev.append(Event("redraw", f"{player} discards {counted(len(g['contracts']), 'contract')} and draws {len(new)}.",
                        {"player": player, "discarded": list(g["contracts"]), "drawn": new}))
    elif k == "load":
        c, sid = g["contract"], g["ship"]
        card = contract(data, c)
        ship = ship_of(p, sid)
        if card["cargo"] != "passenger":
            p["goods"][card["cargo"]] -= card["amount"]
        p["hand"].remove(c)
        ship["cargo"].append(c)
        r["loaded"] = True
        ev.append(Event("load", f"You load contract {c} on ship {sid}.", {"contract": c, "ship": sid}, to=(player,)))
    elif k == "unload":
        c = g["contract"]
        card = contract(data, c)
        for s in p["ships"]:
            if c in s["cargo"]:
                s["cargo"].remove(c)
        if card["cargo"] != "passenger":
            p["goods"][card["cargo"]] += card["amount"]
        p["hand"].append(c)
        ev.append(Event("unload", f"You take contract {c} off its ship.", {"contract": c}, to=(player,)))
    elif k == "post":
        price = data["post_prices"][p["posts"]]
        p["gold"] -= price
        p["posts"] += 1
        r["post"] = True
        new = draw_cards(st, 1)
        p["hand"].extend(new)
        ev.append(Event("post", f"{player} buys a trading post for {price} gold and draws {len(new)} contract.",
                        {"player": player, "drawn": new}))
    elif k == "save":
        p["hand"].remove(g["contract"])
        p["saved"].append(g["contract"])
        ev.append(Event("save", f"{player} saves contract {g['contract']} with a trading post.", {"player": player}))
    elif k == "free":
        p["saved"].remove(g["contract"])
        p["hand"].append(g["contract"])
        ev.append(Event("free", f"{player} frees saved contract {g['contract']}.", {"player": player}))
    elif k == "ship":
        size = g["size"]
        if st["ships"][size] <= 0:
            _revoke(st, _victim(st, player, size), ev, player)
        cost = _ship_cost(st, p, size)
        w(st, "ships")[size] -= 1
        p["gold"] -= cost
        sid = p["next_ship"]
        p["next_ship"] += 1
        p["ships"].append({"id": sid, "size": size, "at": 0, "cargo": []})
        r["ship"] = {"id": sid, "size": size}
        r["ship_paid"] = cost
        ev.append(Event("ship.buy", f"{player} buys a {size} ship (ship {sid}) for {cost} gold.",
                        {"player": player, "size": size, "ship": sid}))
    elif k == "offer":
        a = w(st, "accept")
        oid = a["next"]
        a["next"] += 1
        a["offers"].append({"id": oid, "from": player, "to": g["to"], "give": list(g["give"]), "get": list(g["get"])})
        ev.append(Event("trade.offer", f"{player} offers {g['to']} ({oid}): {', '.join(g['give']) or 'nothing'} "
                        f"for {', '.join(g['get']) or 'nothing'}.", {"offer": oid}, to=(player, g["to"])))
    elif k == "accept":
        a = w(st, "accept")
        offer = next(x for x in a["offers"] if x["id"] == g["offer"])
        _move_items(st, offer["from"], player, offer["give"])
        _move_items(st, player, offer["from"], offer["get"])
        a["offers"].remove(offer)
        ev.append(Event("trade.done", f"{offer['from']} and {player} trade: {', '.join(offer['give']) or 'nothing'} "
                        f"for {', '.join(offer['get']) or 'nothing'}.", {"offer": offer["id"]}))
    elif k == "reject":
        a = w(st, "accept")
        offer = next(x for x in a["offers"] if x["id"] == g["offer"])
        a["offers"].remove(offer)
        ev.append(Event("trade.reject", f"{player} turns down offer {offer['id']}.", {"offer": offer["id"]},
                        to=(player, offer["from"])))


def settle(st: dict[str, Any], ev: list[Event]) -> bool:
    if waiting(st):
        return False
    data = comp(st)
    for n in st["order"]:
        p = st["p"][n]
        if not p["hand"] and not any(ship["at"] == 0 and ship["cargo"] for ship in p["ships"]):
            continue
        p = wp(st, n)
        for ship in p["ships"]:
            if ship["at"] == 0 and ship["cargo"]:
                voyage = max(contract(data, c)["voyage"][ship["size"]] for c in ship["cargo"])
                ship["at"] = voyage
                bonus = (1 + (1 if ship["size"] == "large" else 0)) if voyage == 2 else 0
                p["fame"] += bonus
                what = "a long" if voyage == 2 else "a short"
                extra = f" and gains {bonus} fame" if bonus else ""
                # the accepted contracts are shown to all before the ship leaves (rulebook, phase
                # 6); at sea they lie face down again (FAQ), so the view hides them from then on
                ev.append(Event("ship.sail", f"{n}'s {ship['size']} ship {ship['id']} leaves on {what} voyage with "
                                f"{counted(len(ship['cargo']), 'contract')} ({', '.join(map(str, ship['cargo']))}){extra}.",
                                {"player": n, "ship": ship["id"], "voyage": voyage, "contracts": list(ship["cargo"])}))
        if p["hand"]:
            w(st, "discard").extend(p["hand"])
            ev.append(Event("discard", f"{n} discards {counted(len(p['hand']), 'contract')} not accepted.", {"player": n}))
            p["hand"] = []
    st["accept"] = None
    return True


def legal(st: dict[str, Any], player: str) -> list[Order]:
    a = st["accept"]
    p = st["p"].get(player)
    if p is None or player in a["done"] or p["dropped"] or player not in st["order"]:  # not `waiting`
        return []
    data = comp(st)
    out = [menu_order("done")]

    def ok(o: Order) -> None:
        try:
            check(st, player, o)
            out.append(o)
        except OrderError:
            pass

    r = p["r"]
    gold = p["gold"]
    # the tests of `check`, worked out directly for the common orders
    if not r["loaded"] and p["hand"]:
        office = "consul" if st["offices"]["consul"] == player else "urbi" if st["offices"]["urbi"] == player else None
        if office is not None and st["ability"][office] is None:
            out.append(Order("redraw", {"contracts": p["hand"][:2]}))
    harbour = []
    for ship in p["ships"]:
        if ship["at"] == 0:
            cargo, people = used_space(data, ship)
            info = data["ships"][ship["size"]]
            harbour.append((ship["id"], ship["size"], info["capacity"] - cargo, info["passengers"] - people))
    if harbour:
        cards = data["contracts"]
        goods = p["goods"]
        for c in p["hand"]:
            card = cards[c - 1]
            what, amount = card["cargo"], card["amount"]
            passenger = what == "passenger"
            if not passenger and goods[what] < amount:
                continue
            voyage = card["voyage"]
            for sid, size, space, seats in harbour:
                if voyage[size] is None or space < amount or passenger and seats < 1:
                    continue
                out.append(menu_order("load", ("contract", c), ("ship", sid)))
                break
    prices = data["post_prices"]
    if not r["post"] and p["posts"] < len(prices) and prices[p["posts"]] <= gold:
        out.append(menu_order("post"))
    if p["hand"] and p["posts"] - len(p["saved"]) >= 1:
        out.append(menu_order("save", ("contract", p["hand"][0])))
    if r["ship"] is None:
        dock = "dock" in p["walls"]
        for size in SIZES:
            cost = data["ships"][size]["cost"]
            if (max(0, cost - 3) if dock else cost) <= gold \
                    and (st["ships"][size] > 0 or _victim(st, player, size) is not None):
                out.append(menu_order("ship", ("size", size)))
    out += trade.legal(st, player)
    if st["options"]["free_trade"]:
        for x in a["offers"]:
            if x["to"] == player:
                ok(Order("accept", {"offer": x["id"]}))
                ok(Order("reject", {"offer": x["id"]}))
        if sum(1 for x in a["offers"] if x["from"] == player) == 0 and a["next"] <= 2 * len(st["players"]):
            others = [q for q in waiting(st) if q != player]
            if others:
                give = ["1 gold"] if p["gold"] else []
                # what the other holds as all can see it (their secret loads left out)
                seen = before_loading(data, st["p"][others[0]])["goods"]
                get = [f"1 {g}" for g in GOODS if seen[g]][:1]
                ok(Order("offer", {"to": others[0], "give": give, "get": get}))
    if any(x["from"] == player for x in a["offers"]):  # what open offers hold is not on offer
        kept = []
        for o in out:
            try:
                check(st, player, o)
                kept.append(o)
            except OrderError:
                pass
        out = kept
    return out
