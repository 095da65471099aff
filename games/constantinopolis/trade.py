"""Dealings open in both the construction and the accept phase: the market, commercial
buildings and the two wall segments that convert goods."""

from __future__ import annotations

from typing import Any

from referee.contract import Event, Order

from .components import GOODS, tables
from .state import can_produce, comp, gain_goods, illegal, lose_goods, market_card, menu_order, pl, producible, wp

KINDS = ("buy", "sell", "use", "exchange", "trade", "discard")


def buy_price(st: dict[str, Any], p: dict[str, Any], good: str) -> int:
    price = market_card(st)["goods"][good]["buy"]
    if "market" in p["walls"]:
        price = max(1, price - 2)
    return price


def check(st: dict[str, Any], player: str, o: Order) -> None:
    p = pl(st, player)
    data = comp(st)
    r = p["r"]
    g = o.args
    if o.kind in ("buy", "sell"):
        good, n = g["good"], g["count"]
        row = market_card(st)["goods"][good]
        if row["limit"] <= 0:
            raise illegal(f"the current market does not trade {good}")
        done = r["ledger"].get(good, 0)
        if o.kind == "buy":
            if done < 0:
                raise illegal(f"you sold {good} this round, so you cannot buy it")
            own = producible(p, data, old_only=True)
            if good in own and "Taberna" not in p["buildings"]:
                raise illegal(f"you produce {good}; buying it needs the Taberna")
            if good in own and st["options"].get("taberna_one_type") and any(
                    x != good and x in own and n > 0 for x, n in r["ledger"].items()):
                raise illegal("with the Taberna you may buy only one type you produce each round (Italian option)")
            if done + n > row["limit"]:
                raise illegal(f"the market lets you trade at most {row['limit']} {good} this round ({done} done)")
            cost = n * buy_price(st, p, good)
            if cost > p["gold"]:
                raise illegal(f"{n} {good} cost {cost} gold; you have {p['gold']}")
        else:
            if done > 0:
                raise illegal(f"you bought {good} this round, so you cannot sell it")
            if -done + n > row["limit"]:
                raise illegal(f"the market lets you trade at most {row['limit']} {good} this round ({-done} done)")
            if p["goods"][good] < n:
                raise illegal(f"you have only {p['goods'][good]} {good}")
    elif o.kind == "use":
        b = g["building"]
        info = data["buildings"].get(b)
        if info is None or info["kind"] != "commercial":
            raise illegal(f"{b} is not a commercial building")
        if b not in p["buildings"]:
            raise illegal(f"you do not own {b}")
        if b in r["used"]:
            raise illegal(f"{b} was already used this round")
        can = can_produce(st, p)
        for good, n in info["input"].items():
            if good not in can:
                raise illegal(f"{b} needs {good} goods, which you cannot produce")
            if p["goods"][good] < n:
                raise illegal(f"{b} needs {n} {good}; you have {p['goods'][good]}")
    elif o.kind == "exchange":
        if "exchange" not in p["walls"]:
            raise illegal("you do not own the exchange wall segment")
        if "exchange" in r["walls_used"]:
            raise illegal("the exchange wall segment was already used this round")
        if g["give"] == g["get"]:
            raise illegal("exchange one type for a different type")
        if p["goods"][g["give"]] < 1:
            raise illegal(f"you have no {g['give']}")
        if g["get"] not in can_produce(st, p):
            raise illegal(f"you cannot produce {g['get']}")
    elif o.kind == "discard":
        if p["goods"][g["good"]] < g["count"]:
            raise illegal(f"you have only {p['goods'][g['good']]} {g['good']}")
    elif o.kind == "trade":
        if "trade" not in p["walls"]:
            raise illegal("you do not own the trade wall segment")
        if "trade" in r["walls_used"]:
            raise illegal("the trade wall segment was already used this round")
        for good in GOODS:
            want = g["goods"].count(good)
            if want > p["goods"][good]:
                raise illegal(f"you have only {p['goods'][good]} {good}")


def do(st: dict[str, Any], player: str, o: Order, ev: list[Event]) -> None:
    """Carry out an order the phase has already passed through `check`."""
    p = wp(st, player)
    data = comp(st)
    r = p["r"]
    g = o.args
    if o.kind == "buy":
        good, n = g["good"], g["count"]
        cost = n * buy_price(st, p, good)
        p["gold"] -= cost
        gain_goods(st, p, good, n)
        r["ledger"][good] = r["ledger"].get(good, 0) + n
        ev.append(Event("market.buy", f"{player} buys {n} {good} for {cost} gold.", {"player": player, "good": good, "count": n}))
    elif o.kind == "sell":
        good, n = g["good"], g["count"]
        each = market_card(st)["goods"][good]["sell"] + (1 if "Mensae" in p["buildings"] else 0)
        lose_goods(st, p, good, n)
        p["gold"] += n * each
        r["ledger"][good] = r["ledger"].get(good, 0) - n
        ev.append(Event("market.sell", f"{player} sells {n} {good} for {n * each} gold.", {"player": player, "good": good, "count": n}))
    elif o.kind == "use":
        info = data["buildings"][g["building"]]
        for good, n in info["input"].items():
            lose_goods(st, p, good, n)
        p["gold"] += info["gold"]
        p["fame"] += info["fame"]
        r["used"].append(g["building"])
        ev.append(Event("commercial.use", f"{player} uses {g['building']}: {info['gold']} gold and {info['fame']} fame.",
                        {"player": player, "building": g["building"]}))
    elif o.kind == "exchange":
        lose_goods(st, p, g["give"], 1)
        gain_goods(st, p, g["get"], 1)
        r["walls_used"].append("exchange")
        ev.append(Event("wall.exchange", f"{player} exchanges one {g['give']} for one {g['get']}.", {"player": player}))
    elif o.kind == "discard":
        lose_goods(st, p, g["good"], g["count"])
        ev.append(Event("discard.goods", f"{player} discards {g['count']} {g['good']}.", {"player": player}))
    elif o.kind == "trade":
        for good in g["goods"]:
            lose_goods(st, p, good, 1)
        p["gold"] += 10
        r["walls_used"].append("trade")
        ev.append(Event("wall.trade", f"{player} trades three goods for 10 gold.", {"player": player}))


def legal(st: dict[str, Any], player: str) -> list[Order]:
    """A compact menu: buy one or sell all allowed of each good, each usable commercial
    building, the wall deals. Computed directly (the same tests as `check`) for speed."""
    p = pl(st, player)
    data = comp(st)
    t = tables(data)
    r = p["r"]
    out = []
    ledger = r["ledger"]
    goods = p["goods"]
    gold = p["gold"]
    buildings = p["buildings"]
    own_old = producible(p, data, old_only=True)
    taberna = "Taberna" in buildings
    one_type = st["options"].get("taberna_one_type")
    discount = "market" in p["walls"]
    for good, limit, price in t.trades[st["market"]["current"][-1]]:
        done = ledger.get(good, 0)
        if done >= 0 and done < limit and (taberna or good not in own_old) \
                and (max(1, price - 2) if discount else price) <= gold \
                and not (one_type and good in own_old
                         and any(x != good and x in own_old and n > 0 for x, n in ledger.items())):
            out.append(menu_order("buy", ("good", good), ("count", 1)))
        if done <= 0 and goods[good] > 0 and -done < limit:
            out.append(menu_order("sell", ("good", good), ("count", min(goods[good], limit + done))))
    # able to produce: the same set as `own_old` unless a production building is new this round
    can = own_old if not p["new"] or st["options"].get("produce_since_round_start") else None
    walls = p["walls"]
    inputs = t.inputs
    used = r["used"]
    for b in buildings:
        need = inputs.get(b)
        if need is not None and b not in used:
            if can is None:
                can = can_produce(st, p)
            if all(g in can and goods[g] >= n for g, n in need):
                out.append(menu_order("use", ("building", b)))
    if "exchange" in walls and "exchange" not in r["walls_used"]:
        give = next((x for x in GOODS if goods[x] > 0), None)
        if give is not None:
            if can is None:
                can = can_produce(st, p)
            get = next((x for x in GOODS if x in can and x != give), None)
            if get is not None:
                out.append(menu_order("exchange", ("give", give), ("get", get)))
    if "trade" in walls and "trade" not in r["walls_used"]:
        bag = [x for x in GOODS for _ in range(goods[x])]
        if len(bag) >= 3:
            out.append(Order("trade", {"goods": bag[:3]}))
    return out
