"""Plans: answers a player gives ahead for the decisions still to come, so that the game asks
only when the plan does not cover the moment.

Two kinds, both kept in the state as plain JSON and set by orders (so a game record replays
them exactly), both shown to their owner alone:

- the turns to come: the queue of orders (`decisions.run_queues`), one entry a decision in
  the order they come (the setup's dock rounds, action turns, the extras after an action);
  an entry may give alternatives, `MERCHANT G3 or PORTER STORAGE G3 TO C2-I or TALENTS`,
  of which the first legal when the turn comes is played. An action without a slot number
  takes the leftmost slot where that card lies and the order is legal, at that moment.
- standing parts (`PARTS`): for each small decision that comes up again and again, the
  answers in order of preference: `INTRIGUE: INTRIGUE 1 or 0`, `PRIVILEGE: ACCEPT`,
  `REFILL: BUY G2 or PASS`, `EXTRAS: EXPAND or DONE`, `FINAL: PALACE or PASS`. They hold
  until cancelled or replaced. `LIGHTHOUSE: DOCK S05 or DOCK S12 II or DOCK S03` is the
  ship preference of the next arrival: each pick takes the first ship still there, and the
  list lapses when that arrival is over.

Why it is fair: a plan answers at the moment the live answer would be asked, against the
position then, through the same checks; those read only what the player may see (their own
money and storage, the open board). When nothing in the plan fits, the player is asked, with
a note to them alone saying why. A plan's answer is told to the others exactly like a live one.
"""

from __future__ import annotations

from typing import Any

from referee.contract import Event, Order
from referee.wording import menu_order, order_text, phrase

from .grammar import format_alternatives, format_order
from .state import State

from .plan_parts import CANCELLABLE, DECISIONS, PART_NAMES, PARTS, TURNS, WHEN  # noqa: F401


def plans_of(state: State, player: str) -> dict[str, Any]:
    """The player's standing parts (to read): part -> its answers as order JSON."""
    return (state.get("plans") or {}).get(player) or {}


def set_part(state: State, player: str, part: str, answers: list[dict[str, Any]] | None) -> None:
    """Set (or, with None or nothing, drop) one standing part; `state` is a copy being changed."""
    plans = state.setdefault("plans", {})
    mine = plans.setdefault(player, {})
    if answers:
        mine[part] = answers
    else:
        mine.pop(part, None)
    if not mine:
        plans.pop(player, None)


def record(state: State, player: str, orders: list[Order], events: list[Event]) -> None:
    """The plan lines and cancellations of one submission: the lines of a part replace that
    part as a whole; CANCEL PLAN drops every part and the queue, CANCEL TURNS the queue."""
    fresh: dict[str, list[dict[str, Any]]] = {}
    for order in orders:
        if order.kind == "cancel":
            part = order.args["part"]
            if part in ("plan", TURNS):
                state["queue"][player] = []
            for gone in (list(plans_of(state, player)) if part == "plan" else [part] if part in PARTS else []):
                set_part(state, player, gone, None)
                fresh.pop(gone, None)
            events.append(Event("plan.cancel", phrase("Your whole plan is cancelled.") if part == "plan" else
                                phrase("Your queued turns are cancelled.") if part == TURNS else
                                phrase("Your plan for {when} is cancelled.", when=WHEN[part]), {"part": part},
                                to=(player,)))
            continue
        fresh.setdefault(order.args["part"], []).extend(order.args["alts"])
    for part, answers in fresh.items():
        set_part(state, player, part, answers)
        shown = order_text(format_alternatives([Order.from_json(a) for a in answers]))
        events.append(Event("plan.set", phrase("Your plan for {when}: {orders}.", when=WHEN[part], orders=shown),
                            {"part": part}, to=(player,)))


def standing_lines(state: State, player: str) -> list[str]:
    """The player's queue and standing parts, as the lines that would set them again."""
    out = [format_order(Order.from_json(o)) for o in state["queue"].get(player, [])]
    mine = plans_of(state, player)
    return out + [f"{part.upper()}: {format_alternatives([Order.from_json(a) for a in mine[part]])}"
                  for part in PARTS if part in mine]


def lapse(state: State, part: str, events: list[Event]) -> None:
    """The moment of a part that is used once is over: what is left of it lapses."""
    for player in list(state.get("plans") or {}):
        left = plans_of(state, player).get(part)
        if left:
            set_part(state, player, part, None)
            unused = order_text(format_alternatives([Order.from_json(a) for a in left]))
            events.append(Event("plan.lapsed", phrase("Your plan for {when} lapses: the arrival is over (left unused: "
                                                      "{orders}).", when=WHEN[part], orders=unused),
                                {"part": part}, to=(player,)))


STANDING_SHOWN = 2  # standing answers offered in one report's template


def template(state: State, player: str) -> list[str]:
    """Plan lines to fill in: the turns to come (below the answer), and two of the standing
    answers the player has not given yet (the next two show once those are given, so the
    report stays short; the orders guide lists them all); the lighthouse list names the
    ships that enter next."""
    mine = plans_of(state, player)
    out: list[str] = [phrase("{orders}   (after your answer: one line per turn to come)",
                             orders=menu_order("<action> or TALENTS"))]
    ships = state["row2"] if state["stage"] in ("actions", "refresh") else state["row1"]
    if "lighthouse" not in mine and ships:
        out.append("LIGHTHOUSE: " + " or ".join(f"DOCK {s}" for s in ships[:3]))
    examples = {"intrigue": "INTRIGUE: INTRIGUE 1 or 0", "privilege": "PRIVILEGE: ACCEPT or DECLINE",
                "refill": "REFILL: BUY <good> or PASS", "extras": "EXTRAS: EXPAND or PALACE or DONE",
                "final": "FINAL: PALACE or PASS"}
    return out + [line for part, line in examples.items() if part not in mine][:STANDING_SHOWN]
