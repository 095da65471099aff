"""The plan book: the plans kept in the state ("plans", plain JSON) and the bookkeeping the
phases do on them — setting and cancelling parts, lapses when a part's moment is over, the
Consul's plan at the start of construction, the ship sizes kept during the accept phase.
Nothing here plays an order: that is plans.py, which asks the phases; the phases ask here.
"""

from __future__ import annotations

from typing import Any, Sequence

from referee.contract import Event, Order
from referee.wording import order_text, phrase

from .draft import writable
from .grammar import format_alternatives, format_order
from .plan_parts import LAPSES, PARTS, SHIP, WHEN, WHEN_DEFEND
from .state import GameState


def line_text(line: dict[str, Any]) -> str:
    """A stored plan line as the player writes it."""
    return format_alternatives([Order.from_json(a) for a in line["alts"]], line.get("optional", False))


def plans_of(state: GameState, player: str) -> dict[str, Any]:
    """The player's plan parts (to read)."""
    return (state.get("plans") or {}).get(player) or {}


def _writable(state: GameState) -> dict[str, Any]:
    if "plans" not in state:
        state["plans"] = {}
    return writable(state, "plans")


def drop_part(state: GameState, player: str, part: str) -> None:
    plans = _writable(state)
    mine = dict(plans.get(player) or {})
    mine.pop(part, None)
    if mine:
        plans[player] = mine
    else:
        plans.pop(player, None)


def set_part(state: GameState, player: str, part: str, value: Any) -> None:
    plans = _writable(state)
    mine = dict(plans.get(player) or {})
    mine[part] = value
    plans[player] = mine


def standing_lines(state: GameState, player: str) -> list[str]:
    """The player's standing plan and standing orders, as the lines that would set them again."""
    out = []
    if player in state["defend"]:
        out.append(f"defend {state['defend'][player]}")
    if state["phase"] == "construct" and state["offices"]["consul"] == player and state["preempt"] is not None \
            and state["ability"]["consul"] is None:
        out.append(format_order(Order("preempt-list", {"buildings": state["preempt"]})))
    mine = plans_of(state, player)
    if mine:
        for part in PARTS:
            out += [f"{part}: {line_text(line)}" for line in mine.get(part, [])]
    return out


def record(state: GameState, player: str, orders: Sequence[Order], events: list[Event]) -> set[str]:
    """Set the plan parts and cancellations of one submission: the lines of a part replace
    that part as a whole; `cancel plan` drops every part and the defend limit. The parts set
    (plans.record then plays a Consul plan sent while it is his to use)."""
    fresh: dict[str, list[dict[str, Any]]] = {}
    for order in orders:
        if order.kind == "cancel":
            part = order.args["part"]
            for gone in (list(plans_of(state, player)) if part == "plan" else [part]):
                if gone in PARTS:
                    drop_part(state, player, gone)
                    fresh.pop(gone, None)
            if part in ("plan", "defend") and player in state["defend"]:
                writable(state, "defend").pop(player)
            events.append(Event("plan.cancel", phrase("Your whole plan is cancelled.") if part == "plan" else
                                phrase("Your plan for {when} is cancelled.", when=WHEN.get(part, WHEN_DEFEND)),
                                {"part": part}, to=(player,)))
            continue
        part = order.args["part"]
        fresh.setdefault(part, []).append({"alts": list(order.args["alts"]),
                                           "optional": bool(order.args.get("optional"))})
    for part, lines in fresh.items():
        set_part(state, player, part, lines)
        shown = order_text("; ".join(line_text(x) for x in lines))
        events.append(Event("plan.set", phrase("Your plan for {when}: {orders}.", when=WHEN[part], orders=shown),
                            {"part": part}, to=(player,)))
    return set(fresh)


def ends_turn(order: Order) -> bool:
    """A construction plan line that is `done` alone: nothing may follow it."""
    return order.kind == "plan" and order.args["part"] == "construction" and \
        [a["kind"] for a in order.args["alts"]] == ["done"]


def lapse(state: GameState, part: str, events: list[Event], keep: Sequence[str] = ()) -> None:
    """The moment of this part is over: the plans for it that were not used lapse (the
    players in `keep` keep theirs), each owner told alone."""
    for player in list(state.get("plans") or {}):
        if player in keep or part not in plans_of(state, player):
            continue
        left = "; ".join(line_text(line) for line in plans_of(state, player)[part])
        drop_part(state, player, part)
        events.append(Event("plan.lapsed", phrase("Your plan for {when} lapses: {why} (left unused: {orders}).",
                                                  when=WHEN[part], why=LAPSES[part], orders=order_text(left)),
                            {"part": part}, to=(player,)))


def consul_plan_order(state: GameState, events: list[Event]) -> tuple[str, Order] | None:
    """The Consul's plan, used now that construction begins (or is running) and his ability
    is unused: taken out of the plan, its owner told; the caller carries the order out."""
    consul = state["offices"]["consul"]
    mine = plans_of(state, consul) if consul is not None else {}
    if consul is None or "consul" not in mine or state["ability"]["consul"] is not None \
            or state["p"][consul]["dropped"]:
        return None
    order = Order.from_json(mine["consul"][-1]["alts"][0])
    drop_part(state, consul, "consul")
    events.append(Event("plan.used", phrase("Your plan plays '{order}'.", order=order_text(format_order(order))),
                        {"order": format_order(order)}, to=(consul,)))
    return consul, order


def end_of_accept(state: GameState) -> None:
    """The accept phase is over: the ship alternatives it kept go."""
    for player in list(state.get("plans") or {}):
        if SHIP in plans_of(state, player):
            drop_part(state, player, SHIP)


def ship_alternatives(state: GameState, player: str) -> list[str]:
    return list(plans_of(state, player).get(SHIP, []))


def keep_ship_alternatives(state: GameState, player: str, sizes: Sequence[str]) -> None:
    if sizes:
        set_part(state, player, SHIP, list(sizes))
    else:
        drop_part(state, player, SHIP)


def after_consul(state: GameState, buyer: str, preempted: bool) -> None:
    """The purchase a construction line made is settled: bought, the line is done; taken by
    the Consul, the line goes on with its other alternatives (the buyer may buy another
    building of that kind)."""
    lines = plans_of(state, buyer).get("construction") or []
    if not lines or not lines[0].get("waiting"):
        return
    head, rest = lines[0], lines[1:]
    if preempted:
        rest = [{"alts": head["alts"], "optional": head.get("optional", False)}] + rest
    set_part(state, buyer, "construction", rest) if rest else drop_part(state, buyer, "construction")
