"""Answering the decision that is open: its short menu, whether an order answers it legally,
carrying the answer out (then running the automatic steps), and the orders players queued
ahead of their turn.

Every decision is asked of one player at a time (see `flow.current_decision`). The two dock
rounds of the setup (reference §5.1, A2, A41) are carried out here; the rest is handed to the
rules module it belongs to.
"""

from __future__ import annotations

import functools
from typing import NoReturn

from referee.contract import Event, IllegalOrder, Order, OrderError, why_not
from referee.wording import Phrase, listed, order_phrase, order_text, phrase, plural_phrase, term

from . import actions, arrival, grammar, plans, privileges
from .action_menu import main_menu
from .board import DOCKS, dock_index, dock_name
from .flow import MAIN_KINDS, Decision, advance, current_decision, describe
from .intrigue import max_conversion
from .palace import buy_final_seat, final_problem
from .state import PendingDecision, State


def menu_orders(state: State, decision: Decision) -> list[Order]:
    """The short menu for the decision (`legal_orders`, the default orders)."""
    if decision.item is not None:
        return privileges.decision_menu(state, decision.item)
    seat = decision.seat
    name = decision.name
    if name == "setup.optional_dock":
        return [Order("occupy", {"dock": dock}) for dock in _free_docks(state)] + [Order("pass")]
    if name == "setup.compulsory_dock":
        goods = list(dict.fromkeys(state["market"]))
        out = []
        for dock in _free_docks(state):
            out.extend(Order("occupy", {"dock": dock, "good": g}) for g in goods)
            if not goods:
                out.append(Order("occupy", {"dock": dock}))
        return out
    if name == "arrival.lighthouse":
        return [Order(kind, {"ship": ship, "at": at}) if kind == "dock" else Order(kind, {"ship": ship})
                for kind, ship, at in arrival.choice_menu(state)]
    if name == "action.main":
        return main_menu(state, seat) + privileges.use_menu(state, seat)
    if name == "action.after":
        out = [Order(kind) for kind in ("expand", "palace") if actions.side_problem(state, seat, kind) is None]
        return out + privileges.use_menu(state, seat) + [Order("done")]
    if name == "end.final_seat":
        return [Order("palace")] * (final_problem(state, seat) is None) + [Order("pass")]
    return []


def _free_docks(state: State) -> list[str]:
    """The names of the docks nobody occupies, in board order."""
    return [dock_name(state, i) for i in range(DOCKS) if state["dock_o"][i] is None]


_PASS = order_phrase("PASS")  # the suggestion when a purchase cannot be made


@functools.lru_cache(maxsize=64)
def _allowed(kinds: tuple[str, ...]) -> Phrase:
    """`allowed now: TALENTS, REFILL, ...`, made once for each decision's keywords: orders of
    another decision are refused often (a menu, a fuzz test), and the words never change."""
    return phrase("allowed now: {orders}", orders=listed(order_text(k.upper()) for k in kinds))


def validate(state: State, decision: Decision, order: Order) -> None:
    """Raise IllegalOrder unless `order` answers the decision legally."""
    if order.kind not in decision.kinds:
        raise IllegalOrder(phrase("{order} does not answer the current decision: {task}",
                                  order=order_text(order.kind.upper()), task=describe(state, decision)),
                           suggestion=_allowed(decision.kinds))
    name, seat = decision.name, decision.seat
    if name == "arrival.lighthouse":
        arrival.validate_choice(state, seat, order.kind, order.args.get("ship"), order.args.get("at"))
    elif name in ("action.main", "action.after") and order.kind == "use":
        privileges.validate_use(state, seat, dict(order.args))
    elif name == "action.main":
        actions.validate_main(state, seat, order)
    elif name == "action.after":
        if order.kind in ("expand", "palace"):
            problem = actions.side_problem(state, seat, order.kind)
            if problem:
                raise IllegalOrder(problem)
    elif name == "end.final_seat":
        if order.kind == "palace":
            problem = final_problem(state, seat)
            if problem:
                raise IllegalOrder(problem, suggestion=_PASS)
    elif name == "market.refill_buy" and order.kind == "buy":
        problem = actions.refill_buy_problem(state, seat)
        if problem:
            raise IllegalOrder(problem, suggestion=_PASS)
        if order.args.get("good") not in state["market"]:
            raise IllegalOrder(phrase("there is no {good} in the market", good=order.args.get("good")),
                               suggestion=phrase("the market holds {goods}", goods=" ".join(state["market"])))
    elif name in _DOCK_ROUNDS and decision.item is None and order.kind == "occupy":
        _check_dock_round(state, name, order)
    elif decision.item is not None:
        _check_pending(state, decision.item, order)
    elif order not in menu_orders(state, decision):
        _not_possible(state, decision, order)


_DOCK_ROUNDS = ("setup.optional_dock", "setup.compulsory_dock")


def _check_dock_round(state: State, name: str, order: Order) -> None:
    """An OCCUPY of a setup dock round, checked as `menu_orders` offers them (a free dock and,
    in the compulsory round, one of the market's goods while it has any) without building the
    menu: the report's menu judges every dock and good, which made the round quadratic. The
    error says which rule the order breaks."""
    args = order.args
    dock = args.get("dock")
    if dock not in _free_docks(state):
        raise IllegalOrder(phrase("dock {dock} is already owned", dock=dock), reason=actions.DOCK_TAKEN,
                           suggestion=phrase("free docks: {docks}", docks=listed(_free_docks(state))))
    if name == "setup.optional_dock" or not state["market"]:
        if "good" in args:
            raise IllegalOrder(phrase("no good is taken in this round"),
                               suggestion=order_phrase(f"OCCUPY {dock}"))
        return
    good = args.get("good")
    if good is None:
        raise IllegalOrder(phrase("this round also takes one good from the market into your storage"),
                           suggestion=phrase("the market holds {goods}", goods=listed(dict.fromkeys(state["market"]))))
    if good not in state["market"]:
        raise IllegalOrder(phrase("there is no {good} in the market", good=good),
                           suggestion=phrase("the market holds {goods}", goods=listed(dict.fromkeys(state["market"]))))


def _check_pending(state: State, item: PendingDecision, order: Order) -> None:
    """An answer to one of the small decisions (intrigue points, an immediate privilege, the
    arrangement of looked-at cards), with the rule it breaks when it is not one."""
    if order in privileges.decision_menu(state, item):
        return
    kind, seat = item["t"], item["p"]
    if kind == "reward":
        most = max_conversion(state, seat, item["n"])
        raise IllegalOrder(plural_phrase(most, "at most {n} point can go onto the intrigue path now: each needs a "
                                               "servant from your supply and a free field on the path",
                                         "at most {n} points can go onto the intrigue path now: each needs a "
                                         "servant from your supply and a free field on the path"),
                           suggestion=order_phrase(f"INTRIGUE {most}"))
    if kind == "priv" and order.kind == "accept":
        raise IllegalOrder(phrase("this privilege puts a servant from your supply onto the intrigue path, and you "
                                  "have none in supply or the path is full"), suggestion=order_phrase("DECLINE"))
    if kind == "arrange":
        raise IllegalOrder(phrase("name each of the looked-at cards once, top first: {cards}",
                                  cards=listed(item["cards"])))
    _not_possible(state, current_decision(state) or Decision(seat, "", ()), order)


def _not_possible(state: State, decision: Decision, order: Order) -> NoReturn:
    """The last resort, for an order of the right keyword that no rule above explains."""
    options = [grammar.format_order(m) for m in menu_orders(state, decision)[:6]]
    raise IllegalOrder(phrase("{order} is not possible now", order=order_text(grammar.format_order(order))),
                       reason=phrase("that is not possible now"),
                       suggestion=phrase("try {orders}", orders=order_text(" or ".join(options))))


def carry_out(state: State, decision: Decision, order: Order, events: list[Event]) -> None:
    """Carry out an order `validate` has passed, then run the automatic steps."""
    seat = decision.seat
    name = decision.name
    state["n"] += 1
    if decision.item is not None:
        state["pending"].pop(0)
        rest, state["pending"] = state["pending"], []
        privileges.resolve(state, decision.item, order, events)
        state["pending"].extend(rest)  # what the answer opened comes before what was waiting
    elif name in ("setup.optional_dock", "setup.compulsory_dock"):
        _dock_round(state, seat, order, events)
    elif name == "arrival.lighthouse":
        arrival.choose(state, seat, order.kind, order.args["ship"], order.args.get("at"), events)
    elif order.kind == "use":  # action.main or action.after
        privileges.execute_use(state, seat, dict(order.args), events)
    elif name == "action.main":
        actions.execute_main(state, seat, order, events)
    elif name == "action.after":
        if order.kind == "done":  # in words, like every other order: no order is echoed as sent
            state["act"]["end"] = True
            player = state["players"][seat]
            events.append(Event("done", phrase("{player} ends the action turn.", player=player), {"player": player}))
        else:
            actions.execute_side(state, seat, order.kind, events)
    elif name == "end.final_seat":
        if order.kind == "palace":
            buy_final_seat(state, seat, events)
        else:
            player = state["players"][seat]
            events.append(Event("palace", phrase("{player} buys no final palace seat.", player=player),
                                {"player": player}))
        state["sq"] += 1
    advance(state, events)


def _dock_round(state: State, seat: int, order: Order, events: list[Event]) -> None:
    """A setup dock round: two servants onto a dock warehouse (the second round also takes a
    good from the market into storage, A41), or PASS in the first."""
    name = state["players"][seat]
    if order.kind == "pass":
        events.append(Event("setup", phrase("{player} takes no dock in the optional round.", player=name),
                            {"player": name}))
    else:
        dock = dock_index(state, order.args["dock"])
        state["dock_o"][dock] = seat
        state["supply"][seat] -= 2
        text = phrase("{player} occupies dock {dock}.", player=name, dock=order.args["dock"])
        if "good" in order.args:
            state["market"].remove(order.args["good"])
            state["store"][seat].append(order.args["good"])
            text = phrase("{player} occupies dock {dock} and takes {good} from the market.", player=name,
                          dock=order.args["dock"], good=order.args["good"])
        events.append(Event("setup", text, {"player": name, **order.args}))
    state["sq"] += 1


PASSES = {"action.main": Order("talents"), "action.after": Order("done")}  # PASS in a plan, on these


def candidates(state: State, decision: Decision, order: Order) -> list[Order]:
    """The orders a planned order stands for at this decision: PASS is the decision's
    do-nothing answer (TALENTS on an action turn, DONE after it); an action without a slot
    number is tried on each slot where its card lies, left to right (none: no slot holds it)."""
    if order.kind == "pass" and decision.name in PASSES:
        return [PASSES[decision.name]]
    if order.kind in grammar.SLOTTED and order.args.get("slot") is None and order.kind in decision.kinds:
        slots = [i + 1 for i, card in enumerate(state["slots"] or []) if card == order.kind]
        return [Order(order.kind, {**order.args, "slot": n}) for n in slots]
    return [order]


def alternatives_of(order: Order) -> list[Order]:
    return [Order.from_json(a) for a in order.args["alts"]] if order.kind == "either" else [order]


def answers(decision: Decision, order: Order) -> bool:
    """Whether a planned order (or one of its alternatives) is meant for this decision."""
    return any(c.kind in decision.kinds or (c.kind == "pass" and decision.name in PASSES)
               for c in alternatives_of(order))


def choose(state: State, decision: Decision, order: Order) -> tuple[Order | None, list[tuple[Order, object]]]:
    """The first of a planned order's alternatives that is legal now, and why the ones
    before it were not: (alternative, error or reason) pairs, for `reasons`."""
    failures: list[tuple[Order, object]] = []
    for alt in alternatives_of(order):
        if not answers(decision, alt):
            failures.append((alt, _OTHER_DECISION))
            continue
        options = candidates(state, decision, alt)
        why: object = phrase("no {card} card lies on the slots now", card=term(alt.kind))
        for candidate in options:
            try:
                validate(state, decision, candidate)
            except OrderError as exc:
                why = exc
                continue
            return candidate, failures
        failures.append((alt, why))
    return None, failures


_OTHER_DECISION = phrase("that answers another decision")


def reasons(failures: list[tuple[Order, object]]) -> object:
    """Why no alternative was played, each reason once, the alternatives it refused named
    together (`referee.contract.why_not`)."""
    return why_not(failures, lambda alts: order_text(grammar.format_order(
        alts[0] if len(alts) == 1 else Order("either", {"alts": [a.to_json() for a in alts]}))))


def run_queues(state: State, events: list[Event]) -> None:
    """Play what players planned for whoever is asked next, while it fits and is legal: the
    next queued order (a turn, with its alternatives), else the standing answer of the
    decision's part; a queued main action closes a turn left open for extras."""
    if not state.get("plans") and not any(state["queue"].values()):
        return  # nothing planned by anybody: the loop below would stop at once
    while True:
        decision = current_decision(state)
        if decision is None:
            return
        player = state["players"][decision.seat]
        queue = state["queue"].get(player) or []
        head = Order.from_json(queue[0]) if queue else None
        if head is not None and answers(decision, head):
            order, failures = choose(state, decision, head)
            queue.pop(0)
            if order is None:
                why = reasons(failures)
                if decision.name == "arrival.lighthouse":
                    events.append(Event("queue", phrase("A ship you preferred is skipped: {reasons}.", reasons=why),
                                        {"player": player}, to=(player,)))
                    continue
                state["queue"][player] = []
                events.append(Event("queue", phrase("Your queued order no longer fits ({reasons}); the rest of your "
                                                    "queue is dropped and you are asked.", reasons=why),
                                    {"player": player}, to=(player,)))
                return
            # told to the others exactly like a live answer; that it was queued, to its owner alone
            events.append(Event("queue.used", phrase("Your queued order is carried out."),
                                {"player": player, "order": grammar.format_order(order)}, to=(player,)))
            carry_out(state, decision, order, events)
            continue
        part = plans.DECISIONS.get(decision.name)
        if part is not None and part in plans.plans_of(state, player) and _standing(state, decision, part, events):
            continue
        if decision.name == "action.after" and head is not None and any(
                a.kind in MAIN_KINDS and a.kind != "use" for a in alternatives_of(head)):
            carry_out(state, decision, Order("done"), events)  # a queued next action closes this turn
            continue
        return


def _standing(state: State, decision: Decision, part: str, events: list[Event]) -> bool:
    """Answer from a standing part; True when it did. Its answer is told to everyone as a
    live one would be; that it came from the plan, to its owner alone. The lighthouse list
    gives up the ship it named; when nothing in it fits, it lapses."""
    player = state["players"][decision.seat]
    answers_json = plans.plans_of(state, player)[part]
    for k, alt_json in enumerate(answers_json):
        order, _ = choose(state, decision, Order.from_json(alt_json))
        if order is None:
            continue
        if part == "lighthouse":
            plans.set_part(state, player, part, answers_json[:k] + answers_json[k + 1:])
        # what the order does is told to everyone in words: the step says only whence
        events.append(Event("plan.used", phrase("Carried out from your plan."), {"order": grammar.format_order(order)},
                            to=(player,)))
        carry_out(state, decision, order, events)
        return True
    _, failures = choose(state, decision, Order("either", {"alts": answers_json}))
    if part == "lighthouse":
        plans.set_part(state, player, part, None)
    why = reasons(failures)
    text = phrase("Your plan for {when} has no answer that fits now ({reasons}); you are asked. The list is dropped.",
                  when=plans.WHEN[part], reasons=why) if part == "lighthouse" else \
        phrase("Your plan for {when} has no answer that fits now ({reasons}); you are asked.", when=plans.WHEN[part],
               reasons=why)
    events.append(Event("plan.failed", text, {"part": part, "reasons": str(why)}, to=(player,)))
    return False
