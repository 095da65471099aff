"""Dealings open in both the construction and the accept phase: buying and selling at the
market, using commercial buildings, the exchange and trade wall segments, and discarding.

Rulebook: "Buy/Sell Goods at the Market" (page 15), "Use Commercial Buildings" (page 17), the
Mensae and Taberna (Buildings, page 27) and the exchange, trade and market walls (City Walls,
page 28).
"""

from __future__ import annotations

from referee.contract import Event, Order
from referee.wording import phrase, term

from .components import GOODS, tables
from .draft import writable_sheet
from .production import able_to_produce, producible
from .state import (CANNOT_PRODUCE, GameState, PlayerSheet, components_of, gain_goods, goods_count, illegal, lose_goods,
                    market_card, menu_order, sheet_of, too_few)

KINDS = ("buy", "sell", "use", "exchange", "trade", "discard")
TRADE_WALL_GOLD = 10


def buy_price(state: GameState, sheet: PlayerSheet, good: str) -> int:
    """The market's price, 2 less with the market wall (never below 1)."""
    price = market_card(state)["goods"][good]["buy"]
    if "market" in sheet["walls"]:
        price = max(1, price - 2)
    return price


def check_order(state: GameState, player: str, order: Order) -> None:
    """Raise IllegalOrder unless the dealing is allowed now; never changes the state."""
    sheet = sheet_of(state, player)
    kind = order.kind
    if kind in ("buy", "sell"):
        _check_market(state, sheet, kind, order.args["good"], order.args["count"])
    elif kind == "use":
        _check_commercial(state, sheet, order.args["building"])
    elif kind == "exchange":
        _check_exchange_wall(state, sheet, order.args["give"], order.args["get"])
    elif kind == "discard":
        good = order.args["good"]
        if sheet["goods"][good] < order.args["count"]:
            raise too_few(sheet, good)
    elif kind == "trade":
        _check_trade_wall(sheet, order.args["goods"])


def _check_market(state: GameState, sheet: PlayerSheet, kind: str, good: str, n: int) -> None:
    """The market card's limit a round, never buying and selling the same type, and buying a
    type one produces only with the Taberna."""
    row = market_card(state)["goods"][good]
    if row["limit"] <= 0:
        raise illegal(phrase("the current market does not trade {good}", good=term(good)))
    ledger = sheet["r"]["ledger"]
    done = ledger.get(good, 0)
    if kind == "buy":
        if done < 0:
            raise illegal(phrase("you sold {good} this round, so you cannot buy it", good=term(good)))
        own = producible(sheet, components_of(state), old_only=True)
        if good in own and "Taberna" not in sheet["buildings"]:
            raise illegal(phrase("you produce {good}; buying it needs the Taberna", good=term(good)))
        if good in own and state["options"].get("taberna_one_type") and any(
                x != good and x in own and n > 0 for x, n in ledger.items()):
            raise illegal(phrase("with the Taberna you may buy only one type you produce each round (Italian option)"))
        if done + n > row["limit"]:
            raise illegal(phrase("the market lets you trade at most {limit} {good} this round ({done} done)",
                                 limit=row["limit"], good=term(good), done=done))
        cost = n * buy_price(state, sheet, good)
        if cost > sheet["gold"]:
            raise illegal(phrase("{goods} cost {cost} gold; you have {gold}", goods=goods_count(n, good), cost=cost,
                                 gold=sheet["gold"]))
    else:
        if done > 0:
            raise illegal(phrase("you bought {good} this round, so you cannot sell it", good=term(good)))
        if -done + n > row["limit"]:
            raise illegal(phrase("the market lets you trade at most {limit} {good} this round ({done} done)",
                                 limit=row["limit"], good=term(good), done=-done))
        if sheet["goods"][good] < n:
            raise too_few(sheet, good)


def _check_commercial(state: GameState, sheet: PlayerSheet, building: str) -> None:
    """A commercial building once a round, fed with goods its owner is able to produce."""
    info = components_of(state)["buildings"].get(building)
    if info is None or info["kind"] != "commercial":
        raise illegal(phrase("{building} is not a commercial building", building=building))
    if building not in sheet["buildings"]:
        raise illegal(phrase("you do not own {building}", building=building))
    if building in sheet["r"]["used"]:
        raise illegal(phrase("{building} was already used this round", building=building))
    able = able_to_produce(state, sheet)
    for good, n in info["input"].items():
        if good not in able:
            raise illegal(phrase("{building} needs {good} goods, which you cannot produce", building=building,
                                 good=term(good)))
        if sheet["goods"][good] < n:
            raise illegal(phrase("{building} needs {goods}; you have {have}", building=building,
                                 goods=goods_count(n, good), have=sheet["goods"][good]))


def wall_ready(sheet: PlayerSheet, wall: str) -> bool:
    """The segment is owned and its once-a-round ability unused: the first two tests of the
    exchange and the trade wall's checks, which the menus ask before trying each deal."""
    return wall in sheet["walls"] and wall not in sheet["r"]["walls_used"]


def _check_exchange_wall(state: GameState, sheet: PlayerSheet, give: str, get: str) -> None:
    """Once a round, one good for one of another type its owner is able to produce."""
    if "exchange" not in sheet["walls"]:
        raise illegal(phrase("you do not own the exchange wall segment"))
    if "exchange" in sheet["r"]["walls_used"]:
        raise illegal(phrase("the exchange wall segment was already used this round"))
    if give == get:
        raise illegal(phrase("exchange one type for a different type"))
    if sheet["goods"][give] < 1:
        raise illegal(phrase("you have no {good}", good=term(give)))
    if get not in able_to_produce(state, sheet):
        raise illegal(phrase("you cannot produce {good}", good=term(get)), reason=CANNOT_PRODUCE)


def _check_trade_wall(sheet: PlayerSheet, goods: list[str]) -> None:
    """Once a round, any three goods for 10 gold."""
    if "trade" not in sheet["walls"]:
        raise illegal(phrase("you do not own the trade wall segment"))
    if "trade" in sheet["r"]["walls_used"]:
        raise illegal(phrase("the trade wall segment was already used this round"))
    for good in GOODS:
        if goods.count(good) > sheet["goods"][good]:
            raise too_few(sheet, good)


def apply_order(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    """Carry out a dealing the phase has already passed through `check_order`; the Ledger
    records each market deal (bought +, sold -)."""
    sheet = writable_sheet(state, player)
    this_round = sheet["r"]
    args = order.args
    kind = order.kind
    if kind == "buy":
        good, n = args["good"], args["count"]
        cost = n * buy_price(state, sheet, good)
        sheet["gold"] -= cost
        gain_goods(state, sheet, good, n)
        this_round["ledger"][good] = this_round["ledger"].get(good, 0) + n
        events.append(Event("market.buy", phrase("{player} buys {goods} for {gold} gold.", player=player,
                                                 goods=goods_count(n, good), gold=cost),
                            {"player": player, "good": good, "count": n}))
    elif kind == "sell":
        good, n = args["good"], args["count"]
        each = market_card(state)["goods"][good]["sell"] + (1 if "Mensae" in sheet["buildings"] else 0)
        lose_goods(state, sheet, good, n)
        sheet["gold"] += n * each
        this_round["ledger"][good] = this_round["ledger"].get(good, 0) - n
        events.append(Event("market.sell", phrase("{player} sells {goods} for {gold} gold.", player=player,
                                                  goods=goods_count(n, good), gold=n * each),
                            {"player": player, "good": good, "count": n}))
    elif kind == "use":
        info = components_of(state)["buildings"][args["building"]]
        for good, n in info["input"].items():
            lose_goods(state, sheet, good, n)
        sheet["gold"] += info["gold"]
        sheet["fame"] += info["fame"]
        this_round["used"].append(args["building"])
        # what the building gives, naming only what it gives (most give no fame)
        gives = phrase("{player} uses {building}: {gold} gold and {fame} fame.", player=player,
                       building=args["building"], gold=info["gold"], fame=info["fame"]) if info["fame"] else \
            phrase("{player} uses {building}: {gold} gold.", player=player, building=args["building"], gold=info["gold"])
        events.append(Event("commercial.use", gives,
                            {"player": player, "building": args["building"]}))
    elif kind == "exchange":
        lose_goods(state, sheet, args["give"], 1)
        gain_goods(state, sheet, args["get"], 1)
        this_round["walls_used"].append("exchange")
        events.append(Event("wall.exchange", phrase("{player} exchanges one {give} for one {get}.", player=player,
                                                    give=term(args["give"]), get=term(args["get"])),
                            {"player": player}))
    elif kind == "discard":
        lose_goods(state, sheet, args["good"], args["count"])
        events.append(Event("discard.goods", phrase("{player} discards {goods}.", player=player,
                                                    goods=goods_count(args["count"], args["good"])),
                            {"player": player}))
    elif kind == "trade":
        for good in args["goods"]:
            lose_goods(state, sheet, good, 1)
        sheet["gold"] += TRADE_WALL_GOLD
        this_round["walls_used"].append("trade")
        events.append(Event("wall.trade", phrase("{player} trades three goods for {gold} gold.", player=player,
                                                 gold=TRADE_WALL_GOLD), {"player": player}))


def legal_orders(state: GameState, player: str) -> list[Order]:
    """A compact menu: buy one or sell all allowed of each good, each usable commercial
    building, the wall deals. Computed directly (the same tests as `check_order`) for speed."""
    sheet = sheet_of(state, player)
    components = components_of(state)
    lookups = tables(components)
    this_round = sheet["r"]
    out = []
    ledger = this_round["ledger"]
    goods = sheet["goods"]
    gold = sheet["gold"]
    buildings = sheet["buildings"]
    own_old = producible(sheet, components, old_only=True)
    taberna = "Taberna" in buildings
    one_type = state["options"].get("taberna_one_type")
    discount = "market" in sheet["walls"]
    for good, limit, price in lookups.trades[state["market"]["current"][-1]]:
        done = ledger.get(good, 0)
        if done >= 0 and done < limit and (taberna or good not in own_old) \
                and (max(1, price - 2) if discount else price) <= gold \
                and not (one_type and good in own_old
                         and any(x != good and x in own_old and n > 0 for x, n in ledger.items())):
            out.append(menu_order("buy", ("good", good), ("count", 1)))
        if done <= 0 and goods[good] > 0 and -done < limit:
            out.append(menu_order("sell", ("good", good), ("count", min(goods[good], limit + done))))
    # able to produce: the same set as `own_old` unless a production building is new this round
    able = own_old if not sheet["new"] or state["options"].get("produce_since_round_start") else None
    inputs = lookups.inputs
    used = this_round["used"]
    for building in buildings:
        need = inputs.get(building)
        if need is not None and building not in used:
            if able is None:
                able = able_to_produce(state, sheet)
            if all(g in able and goods[g] >= n for g, n in need):
                out.append(menu_order("use", ("building", building)))
    if wall_ready(sheet, "exchange"):
        give = next((x for x in GOODS if goods[x] > 0), None)
        if give is not None:
            if able is None:
                able = able_to_produce(state, sheet)
            get = next((x for x in GOODS if x in able and x != give), None)
            if get is not None:
                out.append(menu_order("exchange", ("give", give), ("get", get)))
    if wall_ready(sheet, "trade"):
        bag = [x for x in GOODS for _ in range(goods[x])]
        if len(bag) >= 3:
            out.append(Order("trade", {"goods": bag[:3]}))
    return out
