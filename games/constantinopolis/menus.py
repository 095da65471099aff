"""Every order a player may give now, written compactly: the menu of HELP, of the report's
ORDERS block and of the receipt of a rejected set.

`legal_orders` is a short, representative menu (the bots draw from it, and it is worked out
fast); this one is complete. Each family of orders is tried through the phase's own `check`,
the tests `apply` runs, so the menu cannot drift from the rules; the legal ones are grouped
into one line per family (``load <contract> on ship <n>: 22, 41 on ship 1 or 2``). Amounts
without an upper bound (a defend limit, a bid's "up to", what an offer asks for) are said in
words, and the line's `more` recognises them.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, Iterable

from referee.contract import MenuLine, Order, menu_family, passes
from referee.orderlines import spans
from referee.wording import Listing, either, in_a_row, listed, menu_order, order_phrase, order_text, phrase, term

from . import accept, auction, construction, dealings, donations, end_of_round, flow
from .buildings import (REDEMPTOR_DISCOUNT, buyer_price, public_tile, purchase_cost, purchase_named, redemptor_ready,
                        wall_builder)
from .preemption import without_redemptor
from .components import GOODS, OFFICES, SIZES, WALL_ABILITIES
from .grammar import FREE_OFFICE, format_order
from .ships import ship_cost
from .state import GameState, PlayerSheet, components_of, goods_count, market_card, sheet_of

Judge = Callable[[Order], bool]


def menu(state: GameState, player: str) -> list[MenuLine]:
    """The player's complete menu, or nothing when nothing is asked of them."""
    mine = [p for p in flow.prompts(state) if p.player == player]
    if not mine:
        return []
    # a standing order, sent any time: of the decision open now only in the auction it is for
    return _for_phase(state, player, set(mine[0].orders)) + [_defend_line(ahead=state["phase"] != "auction")]


def _for_phase(state: GameState, player: str, kinds: set[str]) -> list[MenuLine]:
    phase = state["phase"]
    if phase == "pretorio":
        return _pretorio(state, player)
    if phase == "auction":
        return _auction(state, player)
    if phase == "construct":
        return _construct(state, player, kinds)
    if phase == "accept":
        return _accept(state, player, kinds)
    if phase == "donate":
        judge = _judge(donations.check_order, state, player)
        return _singles(judge, [Order("pass")]) + _family(
            "donate <good>", [(term(g), Order("donate", {"good": g})) for g in GOODS], judge)
    if phase == "store":
        return _store(state, player)
    return []


# --------------------------------------------------------------------------- building blocks


def _judge(check: Callable[..., None], state: GameState, player: str) -> Judge:
    """Whether an order passes the phase's own check for this player now."""
    return passes(lambda o: check(state, player, o))


def _singles(judge: Judge, orders: Iterable[Order]) -> list[MenuLine]:
    return [MenuLine(order_phrase(format_order(o)), (o,)) for o in orders if judge(o)]


def _family(head: str, labelled: Iterable[tuple[str, Order]], judge: Judge) -> list[MenuLine]:
    return menu_family(head, list(labelled), judge)


def _explained(said: Callable[[Listing], object], labelled: Iterable[tuple[object, Order]],
               judge: Judge) -> list[MenuLine]:
    """A family's line that says what its orders do, `said(choices)` (a phrase with the order
    syntax, the explanation and the legal choices); no line when none is legal."""
    kept = [(label, o) for label, o in labelled if judge(o)]
    if not kept:
        return []
    return [MenuLine(said(listed(label for label, _ in kept)), tuple(o for _, o in kept))]


def _line(head: str, choices: object, orders: tuple[Order, ...]) -> MenuLine:
    """`head: choices`, the order syntax in the reader's order words."""
    return MenuLine(phrase("{order}: {choices}", order=menu_order(head), choices=choices), orders)


def _counted(head: str, kind: str, counts: dict[str, range], judge: Judge) -> list[MenuLine]:
    """`buy <count> <good>: 1-2 green, 1 red`."""
    parts, orders = [], []
    for good in GOODS:
        ok = [n for n in counts.get(good, ()) if judge(Order(kind, {"good": good, "count": n}))]
        if ok:
            parts.append(goods_count(spans(ok), good))
            orders += [Order(kind, {"good": good, "count": n}) for n in ok]
    return [_line(head, listed(parts), tuple(orders))] if orders else []


def submultisets(goods: dict[str, int], least: int, most: int) -> list[list[str]]:
    """Every choice of `least` to `most` goods out of a stock, in the parser's order (by
    type), smallest first: what the trade wall or the store step may take."""
    out: list[list[str]] = []

    def grow(i: int, chosen: list[str]) -> None:
        if i == len(GOODS):
            if least <= len(chosen):
                out.append(chosen)
            return
        good = GOODS[i]
        for n in range(min(goods[good], most - len(chosen)) + 1):
            grow(i + 1, chosen + [good] * n)

    grow(0, [])
    return sorted(out, key=len)


def _stock(sheet: PlayerSheet) -> Listing:
    return listed(goods_count(sheet["goods"][g], g) for g in GOODS if sheet["goods"][g])


def _said(order: object, what: object, ahead: bool) -> object:
    """A menu line's order and what it does. Under "Plan ahead" (fill in, remove the `#`) what
    it does follows as a comment, so the line left once the `#` is gone is a valid order."""
    return phrase("{order}   # {what}", order=order, what=what) if ahead else \
        phrase("{order}: {choices}", order=order, choices=what)


def _defend_line(ahead: bool) -> MenuLine:
    what = phrase("in the next auction, the most you pay to keep your office") if ahead else \
        phrase("the most you pay to keep your office in the auction")
    # under "Plan ahead" it is written as a line of the plan's auction part, as the lines around it
    order = phrase("{part}: {order}", part=order_text("auction"), order=menu_order("defend <gold>")) if ahead else \
        menu_order("defend <gold>")
    return MenuLine(_said(order, what, ahead),
                    (Order("defend", {"gold": 0}),),
                    lambda o: o.kind == "defend" and isinstance(o.args.get("gold"), int) and o.args["gold"] >= 0,
                    ahead=ahead)


# --------------------------------------------------------------------------- phase 1


def _pretorio(state: GameState, player: str) -> list[MenuLine]:
    judge = _judge(auction.check_order, state, player)
    return _family("good <type>", [(term(g), Order("good", {"good": g})) for g in GOODS], judge)


def _auction(state: GameState, player: str) -> list[MenuLine]:
    judge = _judge(auction.check_order, state, player)
    gold = sheet_of(state, player)["gold"]
    duel = state["auction"]["duel"]
    if duel is not None:
        out = _singles(judge, [Order("pass")])
        need = auction.min_raise(state)
        raises = [Order("raise", {"gold": n}) for n in range(need, gold + 1)]
        if raises and all(judge(o) for o in raises):
            out.append(_line("raise <gold>", spans(range(need, gold + 1)), tuple(raises)))
        return out
    out = _singles(judge, [Order("stay")])
    out += _family("take <office>", [(o, Order("take", {"office": o})) for o in OFFICES], judge)
    # a line of its own: `take free` is no office, and the one it names is said in words
    free = Order("take", {"office": FREE_OFFICE})
    if judge(free):
        out.append(MenuLine(phrase("{order}: the {office}, without paying (you lost yours to a challenger)",
                                   order=order_text(format_order(free)),
                                   office=auction.office_name(state, state["auction"]["free"]))
                            if state["auction"]["free"] else order_phrase(format_order(free)), (free,)))
    parts, bids = [], []
    for office in OFFICES:
        holder = state["offices"][office]
        if holder is None or holder == player:
            continue
        ok = [n for n in range(auction.min_bid(state, office), gold + 1)
              if judge(Order("bid", {"office": office, "gold": n}))]
        if ok:
            parts.append(f"{office} {spans(ok)}")
            bids += [(office, n) for n in ok]
    if bids:
        offered = set(bids)
        orders = tuple(Order("bid", {"office": o, "gold": n}) for o, n in bids) + tuple(
            Order("bid", {"office": o, "gold": n, "limit": n}) for o, n in bids)

        least = {office: auction.min_bid(state, office) for office in OFFICES}

        def limited(order: Order, offered: set = offered) -> bool:
            args = order.args
            gold = args["gold"] if args.get("gold") is not None else least.get(args.get("office"))
            return (order.kind == "bid" and (args.get("office"), gold) in offered
                    and isinstance(args.get("limit"), int) and args["limit"] >= gold)
        out.append(MenuLine(phrase("{order}: {bids}; '{up_to}' raises for you, without <gold> it opens with the least "
                                   "bid", order=menu_order("bid <office> <gold> [up to <gold>]"), bids=listed(parts),
                                   up_to=order_text("up to")), orders, limited))
    return out


# --------------------------------------------------------------------------- phase 4 and the dealings


def _builds(state: GameState, player: str, judge: Judge) -> list[MenuLine]:
    components = components_of(state)
    out = []
    # a purchase with the Redemptor needs it ready, a wall segment the Praefectus Urbi's
    # ability, a building gold enough for its price: orders without them fail their check,
    # so they are not tried
    walls = wall_builder(state, player)
    gold = sheet_of(state, player)["gold"]

    def affordable(order: Order) -> bool:
        return buyer_price(state, order.args) <= gold and judge(order)
    for red, tail in ((False, ""), (True, " with redemptor")):
        if red and not redemptor_ready(sheet_of(state, player)):
            break
        extra = {"redemptor": True} if red else {}
        family = _redemptor_family if red else _family
        out += family(f"build <building>{tail}", [(b, Order("build", {"building": b, **extra}))
                                                  for b in components["buildings"]], affordable)
        fames = sorted({t["fame"] for t in components["public"]})
        out += family(f"build public <fame>{tail}",
                      [(_public_label(state, f, red), Order("build", {"public": f, **extra})) for f in fames],
                      affordable)
        if walls:
            out += family(f"build wall <segment>{tail}", [(term(w), Order("build", {"wall": w, **extra}))
                                                          for w in WALL_ABILITIES], judge)
    return out


def _redemptor_family(head: str, labelled: Iterable[tuple[object, Order]], judge: Judge) -> list[MenuLine]:
    """A purchase with the Redemptor, saying what it does: a red good given up for a discount."""
    return _explained(lambda choices: phrase("{order} (give up 1 red good, pay {discount} gold less): {choices}",
                                             order=menu_order(head), discount=REDEMPTOR_DISCOUNT, choices=choices),
                      labelled, judge)


def _public_label(state: GameState, fame: int, redemptor: bool) -> object:
    """`3 (Hippodromus, 21 gold)`: the fame a player writes, the building it buys now and its
    price (after the Redemptor's discount on that line)."""
    tile = public_tile(state, fame)
    if tile is None:
        return str(fame)
    cost = max(0, tile["cost"] - REDEMPTOR_DISCOUNT) if redemptor else tile["cost"]
    return phrase("{fame} ({building}, {gold} gold)", fame=fame, building=tile["name"], gold=cost)


def _dealings(state: GameState, player: str, judge: Judge) -> list[MenuLine]:
    """The market, commercial buildings, the exchange and trade walls, discarding."""
    components = components_of(state)
    sheet = sheet_of(state, player)
    limits = {g: range(1, row["limit"] + 1) for g, row in market_card(state)["goods"].items() if row["limit"] > 0}
    out = _counted("buy <count> <good>", "buy", limits, judge)
    out += _counted("sell <count> <good>", "sell", limits, judge)
    # only what the check could pass is tried: a commercial building the player owns, the deals
    # of a wall segment owned and unused this round (`dealings.wall_ready`)
    owned = sheet["buildings"]
    out += _family("use <building>", [(b, Order("use", {"building": b})) for b, info in components["buildings"].items()
                                      if info["kind"] == "commercial" and b in owned], judge)
    pairs = [(a, b) for a in GOODS for b in GOODS if judge(Order("exchange", {"give": a, "get": b}))] \
        if dealings.wall_ready(sheet, "exchange") else []
    if pairs:
        out.append(_exchange_line(pairs))
    threes = [o for o in (Order("trade", {"goods": c}) for c in submultisets(sheet["goods"], 3, 3)) if judge(o)] \
        if dealings.wall_ready(sheet, "trade") else []
    if threes:
        out.append(MenuLine(phrase("{order} (trade wall): sell any three of your goods for 10 gold; you have {goods}",
                                   order=menu_order("trade <three goods>"), goods=_stock(sheet)), tuple(threes)))
    out += _counted("discard <count> <good>", "discard", {g: range(1, sheet["goods"][g] + 1) for g in GOODS}, judge)
    return out


def _exchange_line(pairs: list[tuple[str, str]]) -> MenuLine:
    """The exchange wall: `1 of green, blue for 1 of red, black`, or each good given with what
    it may become."""
    gives = sorted({a for a, _ in pairs}, key=GOODS.index)
    gets = sorted({b for _, b in pairs}, key=GOODS.index)
    order = menu_order("exchange <good> for <good>")
    if set(pairs) == {(a, b) for a in gives for b in gets if a != b}:
        values = {"order": order, "gives": listed(term(g) for g in gives), "gets": listed(term(g) for g in gets)}
        text = phrase("{order} (exchange wall): 1 of {gives} for 1 of {gets} (another type)", **values) \
            if set(gives) & set(gets) else phrase("{order} (exchange wall): 1 of {gives} for 1 of {gets}", **values)
    else:
        text = phrase("{order} (exchange wall): {choices}", order=order, choices=in_a_row([
            phrase("{good} for {goods}", good=term(a), goods=either(term(b) for x, b in pairs if x == a))
            for a in gives]))
    return MenuLine(text, tuple(Order("exchange", {"give": a, "get": b}) for a, b in pairs))


def _preempt_lines(state: GameState, judge: Judge, ahead: bool) -> list[MenuLine]:
    """The Consul's standing list (`preempt list`, `preempt never`, `preempt ask`)."""
    listing = Order("preempt-list", {"buildings": []})
    if not judge(listing):
        return []
    return [MenuLine(_said(menu_order("preempt list <buildings>"),
                           phrase("from now on pre-empt these buildings without being asked ('{never}': none)",
                                  never=order_text("preempt never")), ahead),
                     (listing,), lambda o: o.kind == "preempt-list" and isinstance(o.args.get("buildings"), list),
                     ahead=ahead),
            MenuLine(_said(menu_order("preempt ask"),
                           phrase("from now on be asked about each purchase you could pre-empt (the default)"), ahead),
                     (Order("preempt-ask"),), ahead=ahead)]


def _consul_answers(state: GameState, player: str, judge: Judge) -> list[MenuLine]:
    """The Consul's two answers, each saying what it does; when he cannot pre-empt, the allow
    line says why (his gold is his own to know)."""
    pending = state["construct"]["pending"]
    building = purchase_named(state, pending["args"])
    out: list[MenuLine] = []
    why = construction.why_no_preempt(state)  # the menu is his only: the player is the Consul
    if why is None:
        out.append(MenuLine(phrase("{order}: buy {building} yourself for {gold} gold", order=menu_order("preempt"),
                                   building=building, gold=purchase_cost(state, without_redemptor(pending["args"]))),
                            (Order("preempt"),)))
    if judge(Order("allow")):
        allow = phrase("{order}: {player} buys it", order=menu_order("allow"), player=pending["buyer"])
        if why is not None:
            allow = phrase("{allow} (you cannot pre-empt it: {reason})", allow=allow, reason=why)
        out.insert(0, MenuLine(allow, (Order("allow"),)))
    return out


def _construct(state: GameState, player: str, kinds: set[str]) -> list[MenuLine]:
    judge = _judge(construction.check_order, state, player)
    if state["construct"]["pending"] is not None:  # the Consul asked: his standing list answers it too
        return _consul_answers(state, player, judge) + _preempt_lines(state, judge, ahead=False)
    out = _singles(judge, [Order("done")]) + _builds(state, player, judge) + _dealings(state, player, judge)
    if "preempt-list" in kinds:  # the Consul's own turn: the list is for the purchases of the others to come
        out += _preempt_lines(state, judge, ahead=True)
    return out


# --------------------------------------------------------------------------- phase 6


def _accept(state: GameState, player: str, kinds: set[str]) -> list[MenuLine]:
    judge = _judge(accept.check_order, state, player)
    sheet = sheet_of(state, player)
    out = _singles(judge, [Order("done")])
    hand = list(sheet["hand"])
    redraws = [Order("redraw", {"contracts": list(pick)}) for k in (1, 2) for pick in combinations(hand, k)] \
        if accept.redraw_ready(state, player, sheet) else []
    redraws = [o for o in redraws if judge(o)]
    if redraws:
        allowed = {c for o in redraws for c in o.args["contracts"]}

        def any_redraw(o: Order) -> bool:
            numbers = o.args.get("contracts")
            return (o.kind == "redraw" and isinstance(numbers, list) and 1 <= len(numbers) <= 2
                    and len(set(numbers)) == len(numbers) and set(numbers) <= allowed)
        out.append(MenuLine(phrase("{order}: discard one or two of your contracts ({contracts}) and draw as many "
                                   "new ones", order=menu_order("redraw <contract> [<contract>]"),
                                   contracts=listed(sorted(allowed))), tuple(redraws), any_redraw))
    ships = [s["id"] for s in sheet["ships"]]
    fits: dict[tuple[int, ...], list[int]] = {}
    for number in hand:
        takers = tuple(s for s in ships if judge(Order("load", {"contract": number, "ship": s})))
        if takers:
            fits.setdefault(takers, []).append(number)
    if fits:
        text = in_a_row([phrase("{contracts} on ship {ships}", contracts=listed(numbers), ships=either(takers))
                         for takers, numbers in fits.items()])
        out.append(_line("load <contract> on ship <n>", text, tuple(
            Order("load", {"contract": c, "ship": s}) for takers, numbers in fits.items() for c in numbers
            for s in takers)))
    loaded = [c for s in sheet["ships"] for c in s["cargo"]]
    out += _family("unload <contract>", [(str(c), Order("unload", {"contract": c})) for c in loaded], judge)
    if judge(Order("post")):
        price = components_of(state)["post_prices"][sheet["posts"]]
        out.append(MenuLine(phrase("{order}: buy a trading post for {gold} gold (you draw 1 contract)",
                                   order=order_text(format_order(Order("post"))), gold=price), (Order("post"),)))
    out += _explained(lambda choices: phrase("{order} (kept on a trading post past this round): {choices}",
                                             order=menu_order("save <contract>"), choices=choices),
                      [(str(c), Order("save", {"contract": c})) for c in hand], judge)
    out += _explained(lambda choices: phrase("{order} (from its trading post back into your hand): {choices}",
                                             order=menu_order("free <contract>"), choices=choices),
                      [(str(c), Order("free", {"contract": c})) for c in sheet["saved"]], judge)
    out += _explained(lambda choices: phrase("{order}: buy a ship, {choices}", order=menu_order("ship <size>"),
                                             choices=choices),
                      [(phrase("{size} for {gold} gold", size=term(s), gold=ship_cost(state, sheet, s))
                        if ship_cost(state, sheet, s) else phrase("{size} free of charge", size=term(s)),
                        Order("ship", {"size": s})) for s in SIZES], judge)
    out += _dealings(state, player, judge)
    if "offer" in kinds:
        out += _offers(state, player, judge)
    return out


def _offers(state: GameState, player: str, judge: Judge) -> list[MenuLine]:
    """Free trade: offers to players still accepting (what is asked for is open), answers, and
    the withdrawal of one's own offers not yet answered."""
    acceptance = state["accept"]
    sheet = sheet_of(state, player)
    to = [q for q in accept.waiting(state) if q != player]
    out = []
    if to:
        sample = Order("offer", {"to": to[0], "give": [], "get": []})
        if judge(sample):
            held = [f"{sheet['gold']} gold"] if sheet["gold"] else []
            held += [f"{sheet['goods'][g]} {g}" for g in GOODS if sheet["goods"][g]]
            held += [f"contract {c}" for c in sheet["hand"]]
            out.append(MenuLine(phrase(
                "{order}: to {players}; give any of what you hold ({held}) and not yet offered, for anything; items "
                "are {forms}", order=menu_order("offer <player> give <items> for <items>"), players=either(to),
                held=order_text(", ".join(held) or "nothing"),
                forms=menu_order("'N gold', 'N <good>', 'contract N' or 'nothing'")), (sample,),
                lambda o: o.kind == "offer" and judge(o)))
    for kind in ("accept", "reject"):
        out += _family(f"{kind} <offer>", [(str(x["id"]), Order(kind, {"offer": x["id"]})) for x in acceptance["offers"]
                                           if x["to"] == player], judge)
    out += _family("withdraw <offer>", [(str(x["id"]), Order("withdraw", {"offer": x["id"]}))
                                        for x in acceptance["offers"] if x["from"] == player], judge)
    return out


# --------------------------------------------------------------------------- phase 8


def _store(state: GameState, player: str) -> list[MenuLine]:
    judge = _judge(end_of_round.check_order, state, player)
    sheet = sheet_of(state, player)
    limit = end_of_round.store_limit(state, sheet)
    orders = tuple(o for o in (Order("keep", {"goods": c}) for c in submultisets(sheet["goods"], 0, limit)) if judge(o))
    if not orders:
        return []
    return [MenuLine(phrase("{order}: up to {limit} of your {goods} ('{nothing}' to keep none); the rest are discarded",
                            order=menu_order("keep <goods>"), limit=limit, goods=_stock(sheet),
                            nothing=order_text("keep nothing")), orders)]
