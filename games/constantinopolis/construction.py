"""Phase 4, Construct Buildings: each player's turn in turn order, in which they buy buildings
(one of each kind), deal at the market and use commercial buildings, and end with `done`.

Rulebook: "The Construct Buildings Phase". What a purchase may be and costs is in
`buildings`; when the Consul is asked to pre-empt it, in `preemption`. Here: the turn, the
question put to the Consul and his answer, and the buyer's orders that wait for it.
"""

from __future__ import annotations

from typing import Any

from referee.contract import Event, Order, OrderError, Prompt
from referee.wording import Phrase, order_phrase, order_text, phrase

from . import dealings, plan_book
from .buildings import (REDEMPTOR_DISCOUNT, buy_building, buyer_price, check_purchase, has_licence, purchase_cost,
                        purchase_name, purchase_named, redemptor_ready, wall_builder)
from .components import tables
from .draft import writable
from .grammar import format_order
from .preemption import consul_preempts, consul_to_ask, standing_list_preempts, without_redemptor
from .production import able_to_produce
from .state import (GameState, components_of, illegal, menu_order, new_phase_key, sentence_start,
                    shared_prompt, sheet_of)


def start(state: GameState, events: list[Event]) -> None:
    """Construction opens: the Pretorio plans left lapse, and the Consul's plan becomes his
    standing list."""
    state["phase"] = "construct"
    state["construct"] = {"turn": 0, "pending": None, "queue": []}
    new_phase_key(state)
    plan_book.lapse(state, "pretorio", events)
    taken = plan_book.consul_plan_order(state, events)
    if taken is not None:
        apply_order(state, *taken, events)
    plan_book.lapse(state, "consul", events)  # the other players' Consul plans


# the question of a construction turn, as a prompt asks it and (True) at the start of HELP's sentence
_TURN = {False: phrase("buy buildings, trade at the market, use buildings; end with {order}", order=order_text("done")),
         True: phrase("Buy buildings, trade at the market, use buildings; end with {order}", order=order_text("done"))}


def prompts(state: GameState) -> list[Prompt]:
    construct = state["construct"]
    if construct["pending"] is not None:
        consul = state["offices"]["consul"]
        return [Prompt(consul, "construct.preempt", False, ("preempt", "allow", "preempt-list", "preempt-ask"),
                       question(state, consul))]
    who = state["order"][construct["turn"]]
    kinds = ("build", "done") + dealings.KINDS
    if state["offices"]["consul"] == who:
        kinds += ("preempt-list", "preempt-ask")
    return [shared_prompt(who, "construct.turn", False, kinds, _TURN[False])]


def question(state: GameState, player: str, sentence: bool = False, own: bool = False) -> Phrase:
    """What the phase asks `player` (a prompt's text, which every player may read); with
    `sentence`, as the start of a sentence (HELP); with `own`, as `player` alone reads it."""
    pending = state["construct"]["pending"]
    if pending is not None:
        return _preempt_question(state, pending["buyer"], pending["args"], sentence, own)
    return _TURN[sentence]


def _preempt_question(state: GameState, buyer: str, args: dict[str, Any], sentence: bool, own: bool) -> Phrase:
    """The Consul's question names the building, what the buyer pays and what pre-empting
    costs him (the full price: no discount is his). Read by him alone (`own`), it tells one
    who cannot pre-empt why and offers only to allow: his gold is secret from the others."""
    player, building, gold = sentence_start(buyer, sentence), purchase_named(state, args), buyer_price(state, args)
    reason = why_no_preempt(state) if own else None
    if reason is not None:
        if gold:
            return phrase("{player} wants to buy {building} for {gold} gold; you cannot pre-empt it ({reason}): "
                          "{orders}", player=player, building=building, gold=gold, reason=reason,
                          orders=order_text("allow"))
        return phrase("{player} wants to buy {building} free of charge; you cannot pre-empt it ({reason}): {orders}",
                      player=player, building=building, reason=reason, orders=order_text("allow"))
    price, orders = purchase_cost(state, without_redemptor(args)), order_text("preempt or allow")
    if gold:
        return phrase("{player} wants to buy {building} for {gold} gold: pre-empt it for {price} gold yourself or "
                      "allow the purchase ({orders})", player=player, building=building, gold=gold, price=price,
                      orders=orders)
    return phrase("{player} wants to buy {building} free of charge: pre-empt it for {price} gold yourself or allow "
                  "the purchase ({orders})", player=player, building=building, price=price, orders=orders)


def why_no_preempt(state: GameState) -> object | None:
    """Why the Consul cannot pre-empt the purchase asked about (the check's own message), or
    None when he can: his question, his menu and the legal orders all ask it this way."""
    try:
        check_order(state, state["offices"]["consul"], Order("preempt"))
    except OrderError as e:
        return e.message
    return None


def settle(state: GameState, events: list[Event]) -> bool:
    """Skip players who have left; a Consul who has left allows. True when every turn is over."""
    construct = state["construct"]
    if construct["pending"] is None:
        while construct["turn"] < len(state["order"]) and state["p"][state["order"][construct["turn"]]]["dropped"]:
            construct = writable(state, "construct")
            construct["turn"] += 1
    if construct["turn"] >= len(state["order"]):
        state["construct"] = None
        return True
    if construct["pending"] is not None and state["p"][state["offices"]["consul"]]["dropped"]:
        _consul_answers(state, False, events)
    return False


def _consul_answers(state: GameState, preempt: bool, events: list[Event]) -> None:
    """PREEMPT or ALLOW: the building goes to the Consul or to the buyer, whose waiting
    orders then carry on."""
    construct = writable(state, "construct")
    pending = construct["pending"]
    construct["pending"] = None
    if preempt:
        consul_preempts(state, pending["buyer"], pending["args"], events)
    else:
        buy_building(state, pending["buyer"], pending["args"], events)
    new_phase_key(state)
    plan_book.after_consul(state, pending["buyer"], preempt)
    _run_waiting_orders(state, pending["buyer"], events)


def _run_waiting_orders(state: GameState, buyer: str, events: list[Event]) -> None:
    """Carry on with the orders the buyer sent after the purchase the Consul was asked about."""
    construct = writable(state, "construct")
    while construct["queue"] and construct["pending"] is None:
        order = Order.from_json(construct["queue"].pop(0))
        text = format_order(order)
        if construct["turn"] >= len(state["order"]) or state["order"][construct["turn"]] != buyer:
            events.append(Event("queue.dropped", phrase("Your turn had ended, so '{order}' and what followed were not "
                                                        "used.", order=order_text(text)), {"order": text}, to=(buyer,)))
            construct["queue"] = []
            return
        try:
            apply_order(state, buyer, order, events)
        except OrderError as e:
            events.append(Event("queue.error", phrase("After the Consul's answer, '{order}' could not be carried out "
                                                      "({reason}); the orders after it were not used either. Please "
                                                      "send new orders.", order=order_text(text), reason=e.message),
                                {"order": text, "error": str(e.message)}, to=(buyer,)))
            construct["queue"] = []
            return


def check_order(state: GameState, player: str, order: Order) -> None:
    construct = state["construct"]
    if order.kind in ("preempt-list", "preempt-ask"):
        if state["offices"]["consul"] != player:
            raise illegal(phrase("only the Consul gives pre-emption orders"))
        if state["ability"]["consul"] is not None:
            raise illegal(phrase("the Consul's ability was already used this round"))
        return
    if construct["pending"] is not None:
        if state["offices"]["consul"] != player or order.kind not in ("preempt", "allow"):
            raise illegal(phrase("waiting for the Consul to answer: {orders}", orders=order_text("preempt or allow")))
        if order.kind == "preempt":
            try:
                check_purchase(state, player, without_redemptor(construct["pending"]["args"]), preempt=True)
            except OrderError as e:
                raise illegal(e.message, order_phrase("allow")) from None
        return
    if state["order"][construct["turn"]] != player:
        raise illegal(phrase("it is not your turn to build"))
    if order.kind == "done":
        return
    if order.kind == "build":
        check_purchase(state, player, order.args)
        return
    if order.kind in dealings.KINDS:
        dealings.check_order(state, player, order)
        return
    raise illegal(phrase("'{order}' is not a construction order", order=order_text(order.kind)),
                  order_phrase("build, buy, sell, use, exchange, trade or done"))


def apply_order(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    check_order(state, player, order)
    kind = order.kind
    if kind == "preempt-list":
        state["preempt"] = list(order.args["buildings"])
        shown = order_text(", ".join(state["preempt"]) or "nothing")
        events.append(Event("preempt.list", phrase("You will pre-empt: {buildings}.", buildings=shown),
                            {"buildings": state["preempt"]}, to=(player,)))
        pending = state["construct"]["pending"]
        if pending is not None:
            _consul_answers(state, standing_list_preempts(state, player, pending["args"], events), events)
    elif kind == "preempt-ask":
        state["preempt"] = None
        events.append(Event("preempt.ask", phrase("You will be asked about each purchase you could pre-empt."), {},
                            to=(player,)))
    elif kind in ("preempt", "allow"):
        _consul_answers(state, kind == "preempt", events)
    elif kind == "done":
        events.append(Event("construct.done", phrase("{player} ends the construction turn.", player=player),
                            {"player": player}))
        writable(state, "construct")["turn"] += 1
        new_phase_key(state)
    elif kind == "build":
        _build(state, player, order.args, events)
    else:
        dealings.apply_order(state, player, order, events)


def _build(state: GameState, player: str, args: dict[str, Any], events: list[Event]) -> None:
    """A purchase: the Consul is asked first when he could pre-empt it, or his standing list
    answers for him."""
    consul = consul_to_ask(state, player, args)
    if consul is not None:
        if state["preempt"] is None:
            writable(state, "construct")["pending"] = {"buyer": player, "args": dict(args)}
            gold, building = buyer_price(state, args), purchase_named(state, args)
            asked = phrase("{player} wants to buy {building} for {gold} gold unless the Consul {consul} pre-empts "
                           "it.", player=player, building=building, gold=gold, consul=consul) if gold else \
                phrase("{player} wants to buy {building} free of charge unless the Consul {consul} pre-empts it.",
                       player=player, building=building, consul=consul)
            events.append(Event("build.ask", asked, {"player": player, "building": purchase_name(args)}))
            new_phase_key(state)
            return
        if standing_list_preempts(state, consul, args, events):
            consul_preempts(state, player, args, events)
            return
    buy_building(state, player, args, events)


def default_orders(state: GameState, player: str) -> list[Order]:
    """A silent Consul allows; a silent builder ends the turn."""
    construct = state["construct"]
    if construct["pending"] is not None:
        return [Order("allow")] if state["offices"]["consul"] == player else []
    return [Order("done")] if state["order"][construct["turn"]] == player else []


def legal_orders(state: GameState, player: str) -> list[Order]:
    """A short menu: the purchases affordable now (with and without the Redemptor), the
    dealings, and the Consul's standing list; worked out directly, as `check_purchase` would."""
    construct = state["construct"]
    if construct["pending"] is not None:
        if state["offices"]["consul"] != player:
            return []
        out = [menu_order("allow")]
        if why_no_preempt(state) is None:
            out.append(menu_order("preempt"))
        return out
    if state["order"][construct["turn"]] != player:
        return []
    out = [menu_order("done")] + _purchases(state, player) + dealings.legal_orders(state, player)
    if state["offices"]["consul"] == player and state["ability"]["consul"] is None and state["preempt"] is None:
        out.append(Order("preempt-list", {"buildings": []}))
    return out


def _purchases(state: GameState, player: str) -> list[Order]:
    """The tests of `check_purchase`, worked out once for the whole menu."""
    out: list[Order] = []
    sheet = sheet_of(state, player)
    this_round = sheet["r"]
    built = this_round["built"]
    gold = sheet["gold"]
    redemptor = redemptor_ready(sheet) and sheet["goods"]["red"] > 0
    redemptor_ok = redemptor and "red" in able_to_produce(state, sheet)
    budget = gold + (REDEMPTOR_DISCOUNT if redemptor else 0)
    licensed: dict[str, bool] = {}

    def offer(what: str, which: Any, cost: int) -> None:
        if cost <= gold:
            out.append(menu_order("build", (what, which)))
        if redemptor_ok and max(0, cost - REDEMPTOR_DISCOUNT) <= gold:
            out.append(menu_order("build", (what, which), ("redemptor", True)))

    supply = state["supply"]
    owned = sheet["buildings"]
    lookups = tables(components_of(state))
    for name, kind, cost, licence in lookups.affordable[max(0, min(budget, len(lookups.affordable) - 1))]:
        if kind not in built and supply[name] > 0 and name not in owned:
            if kind == "production":
                if licence not in licensed:
                    licensed[licence] = has_licence(state, sheet, name)
                if not licensed[licence]:
                    continue
            offer("building", name, cost)
    if "public" not in built and budget >= lookups.cheapest_public:
        left = state["publics"]
        for fame in lookups.public_fames:
            tile = next((x for x in lookups.public_by_fame[fame] if x["id"] in left), None)
            if tile is not None and tile["cost"] <= budget:
                offer("public", fame, tile["cost"])
    if "wall" not in built and wall_builder(state, player):
        for segment in state["walls"]:
            offer("wall", segment, lookups.wall_cost[segment])
    return out
