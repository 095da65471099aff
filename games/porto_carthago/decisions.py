"""Answering the decision that is open: its short menu, whether an order answers it legally,
carrying the answer out (then running the automatic steps), and the orders players queued
ahead of their turn.

Every decision is asked of one player at a time (see `flow.current_decision`). The two dock
rounds of the setup (reference §5.1, A2, A41) are carried out here; the rest is handed to the
rules module it belongs to.
"""

from __future__ import annotations

from referee.contract import Event, IllegalOrder, Order, OrderError

from . import actions, arrival, grammar, privileges
from .action_menu import main_menu
from .board import DOCKS, dock_index, dock_name
from .flow import MAIN_KINDS, Decision, advance, current_decision, describe
from .palace import buy_final_seat, final_problem
from .state import State


def menu_orders(state: State, decision: Decision) -> list[Order]:
    """The short menu for the decision (`legal_orders`, the default orders)."""
    if decision.item is not None:
        return privileges.decision_menu(state, decision.item)
    seat = decision.seat
    name = decision.name
    if name == "setup.optional_dock":
        return [Order("occupy", {"dock": dock_name(state, i)}) for i in range(DOCKS) if state["dock_o"][i] is None] + \
            [Order("pass")]
    if name == "setup.compulsory_dock":
        goods = list(dict.fromkeys(state["market"]))
        out = []
        for i in range(DOCKS):
            if state["dock_o"][i] is None:
                out.extend(Order("occupy", {"dock": dock_name(state, i), "good": g}) for g in goods)
                if not goods:
                    out.append(Order("occupy", {"dock": dock_name(state, i)}))
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


def validate(state: State, decision: Decision, order: Order) -> None:
    """Raise IllegalOrder unless `order` answers the decision legally."""
    if order.kind not in decision.kinds:
        raise IllegalOrder(f"{order.kind.upper()} does not answer the current decision: {describe(state, decision)}",
                           suggestion="allowed now: " + ", ".join(k.upper() for k in decision.kinds))
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
                raise IllegalOrder(problem, suggestion="PASS")
    elif name == "market.refill_buy" and order.kind == "buy":
        problem = actions.refill_buy_problem(state, seat)
        if problem:
            raise IllegalOrder(problem, suggestion="PASS")
        if order.args.get("good") not in state["market"]:
            raise IllegalOrder(f"there is no {order.args.get('good')} in the market",
                               suggestion=f"the market holds {' '.join(state['market'])}")
    elif order not in menu_orders(state, decision):
        options = [grammar.format_order(m) for m in menu_orders(state, decision)[:6]]
        raise IllegalOrder(f"{grammar.format_order(order)} is not possible now",
                           suggestion="try " + " or ".join(options))


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
        if order.kind == "done":
            state["act"]["end"] = True
        else:
            actions.execute_side(state, seat, order.kind, events)
    elif name == "end.final_seat":
        if order.kind == "palace":
            buy_final_seat(state, seat, events)
        state["sq"] += 1
    advance(state, events)


def _dock_round(state: State, seat: int, order: Order, events: list[Event]) -> None:
    """A setup dock round: two servants onto a dock warehouse (the second round also takes a
    good from the market into storage, A41), or PASS in the first."""
    name = state["players"][seat]
    if order.kind == "pass":
        events.append(Event("setup", f"{name} takes no dock in the optional round.", {"player": name}))
    else:
        dock = dock_index(state, order.args["dock"])
        state["dock_o"][dock] = seat
        state["supply"][seat] -= 2
        text = f"{name} occupies dock {order.args['dock']}"
        if "good" in order.args:
            state["market"].remove(order.args["good"])
            state["store"][seat].append(order.args["good"])
            text += f" and takes {order.args['good']} from the market"
        events.append(Event("setup", text + ".", {"player": name, **order.args}))
    state["sq"] += 1


def run_queues(state: State, events: list[Event]) -> None:
    """Play queued orders for whoever is asked next, while they still fit and are legal."""
    while any(state["queue"].values()):
        decision = current_decision(state)
        if decision is None:
            return
        player = state["players"][decision.seat]
        queue = state["queue"].get(player)
        if not queue:
            return
        head = Order.from_json(queue[0])
        if head.kind in decision.kinds:
            try:
                validate(state, decision, head)
            except OrderError as exc:
                queue.pop(0)
                if decision.name == "arrival.lighthouse":
                    events.append(Event("queue", f"Preference {grammar.format_order(head)} skipped: {exc.message}.",
                                        {"player": player}, to=(player,)))
                    continue
                state["queue"][player] = []
                events.append(Event("queue", f"Your queued order {grammar.format_order(head)} is no longer legal "
                                    f"({exc.message}); the rest of your queue is dropped and you are asked.",
                                    {"player": player}, to=(player,)))
                return
            queue.pop(0)
            events.append(Event("queue", f"Queued order of {player} carried out: {grammar.format_order(head)}.",
                                {"player": player}))
            carry_out(state, decision, head, events)
        elif decision.name == "action.after" and head.kind in MAIN_KINDS:
            carry_out(state, decision, Order("done"), events)  # a queued next action closes this turn
        else:
            return
