"""Plans: what a player sends ahead for decisions still to come, so that the game asks them
only when the plan does not cover the moment.

A plan has parts, one per kind of decision (`PARTS`): the choices for the auction, the
Praefectus Pretorio's good, the construction turn, the Consul's standing list, the donation
and the goods kept at the end of the round. Each part is a list of lines; a line is a list of
alternatives (`build Textrinum or Figulina`), of which the first that is legal when the
moment comes is used, and a construction line may say `if available` (skipped when none is).

Why this is safe for everyone: a plan is read on its player's turn, in turn order, against
the position at that moment, and each alternative goes through the same checks and the same
public events as the order sent live; those checks read only what the player may see (their
own gold and goods, the open board). Plans are kept in the state, under "plans", as plain
JSON, and set by orders, so a game record replays them exactly; the view shows a plan to its
owner alone. When no alternative of a line fits, the part is dropped and the player is asked,
with a note to them alone saying which line failed and why.

When each part is read, and when it lapses unused:
- auction: at each of the player's turns as the active player in the auction running when
  the plan is set, or the next one: the first alternative that is legal is taken out of the
  plan and played (a challenger who loses the duel, or a holder pushed out of his office, is
  active again and the plan goes on with what is left: `take free`, `stay`, ...). It lapses
  when that auction ends.
- pretorio: the Praefectus Pretorio's good at the end of that auction; lapses then.
- consul: becomes the Consul's standing list (`preempt list ...`, `preempt never`) when the
  construction phase begins (at once when it is running and the player is the Consul); it
  lapses for a player who is not the Consul.
- construction: the lines, in order, on the player's next construction turn (the one running
  if it is theirs, else the next); a purchase the Consul pre-empts goes on with the line's
  other alternatives. Used up without `done`, the player is asked for the rest of the turn.
- donate, store: when that phase opens for the player (or at once, if it is open and asks
  them); a player the phase does not ask (nothing to donate, nothing to store) loses it.
"""

from __future__ import annotations

from typing import Any, Sequence

from referee.contract import Event, IllegalOrder, InvalidOrder, Order, OrderError

from . import dealings, flow
from .draft import writable
from .grammar import format_alternatives, format_order, parse_alternatives
from .state import GameState

PARTS: dict[str, tuple[str, ...]] = {
    "auction": ("stay", "take", "bid"),
    "pretorio": ("good",),
    "consul": ("preempt-list", "preempt-ask"),
    "construction": ("build", "done") + dealings.KINDS,
    "donate": ("donate", "pass"),
    "store": ("keep",),
}
PART_NAMES = {"auction": "auction", "pretorio": "pretorio", "praefectus pretorio": "pretorio",
              "consul": "consul", "preempt": "consul", "construction": "construction", "construct": "construction",
              "buildings": "construction", "donate": "donate", "donation": "donate", "store": "store",
              "storage": "store", "end of round": "store"}
CANCELLABLE = {**PART_NAMES, "plan": "plan", "all": "plan", "defend": "defend"}
LAPSES = {"auction": "the auction is over", "pretorio": "nobody asked you for the Praefectus Pretorio's good",
          "consul": "you are not the Consul with an unused ability this round",
          "donate": "you have nothing to donate this round", "store": "you have nothing to choose to keep this round"}
WHEN = {"auction": "the auction", "pretorio": "the Praefectus Pretorio's good", "consul": "the Consul's standing list",
        "construction": "your next construction turn", "donate": "the donation", "store": "the goods you keep"}
# the prompt each part answers
DECISIONS = {"auction.choose": "auction", "auction.good": "pretorio", "construct.turn": "construction",
             "donate": "donate", "store": "store"}
SHIP = "ship"  # the other sizes of an accept-phase `ship medium or small`, while the phase runs


# --------------------------------------------------------------------------- reading plan lines


def parse_line(part: str, text: str, components: dict[str, Any], players: list[str]) -> Order:
    """One line of a plan part: `build Textrinum or Figulina if available`, `cancel`, or
    `defend 6`, which is the standing order itself."""
    words = text.split()
    if words and words[0].lower() == "cancel":
        if len(words) > 1:
            raise InvalidOrder(f"write '{part}: cancel' or 'cancel {part}'")
        return Order("cancel", {"part": part})
    alts, optional = parse_alternatives(text, components, players)
    if len(alts) == 1 and alts[0].kind == "defend" and not optional:
        return alts[0]  # the standing order itself, wherever it is written
    allowed = PARTS[part]
    for alt in alts:
        if alt.kind not in allowed:
            raise InvalidOrder(f"'{format_order(alt)}' is not an order for a {part} plan",
                               suggestion=f"a {part} plan takes {', '.join(_shown(allowed))}")
    if optional and part != "construction":
        raise InvalidOrder(f"'if available' is for construction lines; end a {part} line with an alternative "
                           "that always works instead", suggestion=_fallback(part))
    return Order("plan", {"part": part, "alts": [a.to_json() for a in alts], "optional": optional})


def _shown(kinds: Sequence[str]) -> list[str]:
    return sorted({k.split("-")[0] for k in kinds})


def _fallback(part: str) -> str:
    return {"auction": "... or stay", "pretorio": "good red or blue", "consul": "preempt never",
            "donate": "donate black or pass", "store": "keep yellow or keep nothing"}.get(part, "")


def line_text(line: dict[str, Any]) -> str:
    """A stored plan line as the player writes it."""
    return format_alternatives([Order.from_json(a) for a in line["alts"]], line.get("optional", False))


# --------------------------------------------------------------------------- the plans in the state


def plans_of(state: GameState, player: str) -> dict[str, Any]:
    """The player's plan parts (to read)."""
    return (state.get("plans") or {}).get(player) or {}


def _writable(state: GameState) -> dict[str, Any]:
    if "plans" not in state:
        state["plans"] = {}
    return writable(state, "plans")


def _drop(state: GameState, player: str, part: str) -> None:
    plans = _writable(state)
    mine = dict(plans.get(player) or {})
    mine.pop(part, None)
    if mine:
        plans[player] = mine
    else:
        plans.pop(player, None)


def _set(state: GameState, player: str, part: str, value: Any) -> None:
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
    for part in PARTS:
        out += [f"{part}: {line_text(line)}" for line in mine.get(part, [])]
    return out


def record(state: GameState, player: str, orders: Sequence[Order], events: list[Event]) -> None:
    """Set the plan parts and cancellations of one submission: the lines of a part replace
    that part as a whole; `cancel plan` drops every part and the defend limit."""
    fresh: dict[str, list[dict[str, Any]]] = {}
    for order in orders:
        if order.kind == "cancel":
            part = order.args["part"]
            for gone in (list(plans_of(state, player)) if part == "plan" else [part]):
                if gone in PARTS:
                    _drop(state, player, gone)
                    fresh.pop(gone, None)
            if part in ("plan", "defend") and player in state["defend"]:
                writable(state, "defend").pop(player)
            events.append(Event("plan.cancel", "Your whole plan is cancelled." if part == "plan" else
                                f"Your plan for {WHEN.get(part, 'the auction (defend limit)')} is cancelled.",
                                {"part": part}, to=(player,)))
            continue
        part = order.args["part"]
        fresh.setdefault(part, []).append({"alts": list(order.args["alts"]),
                                           "optional": bool(order.args.get("optional"))})
    for part, lines in fresh.items():
        _set(state, player, part, lines)
        events.append(Event("plan.set", f"Your plan for {WHEN[part]}: {'; '.join(line_text(x) for x in lines)}.",
                            {"part": part}, to=(player,)))
    if "consul" in fresh and state["phase"] == "construct" and state["offices"]["consul"] == player:
        take_consul_plan(state, events, others=False)


def ends_turn(order: Order) -> bool:
    """A construction plan line that is `done` alone: nothing may follow it."""
    return order.kind == "plan" and order.args["part"] == "construction" and \
        [a["kind"] for a in order.args["alts"]] == ["done"]


# --------------------------------------------------------------------------- lapses


def lapse(state: GameState, part: str, events: list[Event], keep: Sequence[str] = ()) -> None:
    """The moment of this part is over: the plans for it that were not used lapse (the
    players in `keep` keep theirs), each owner told alone."""
    for player in list(state.get("plans") or {}):
        if player in keep or part not in plans_of(state, player):
            continue
        left = "; ".join(line_text(line) for line in plans_of(state, player)[part])
        _drop(state, player, part)
        events.append(Event("plan.lapsed", f"Your plan for {WHEN[part]} lapses, {LAPSES[part]} (left unused: "
                            f"{left}).", {"part": part}, to=(player,)))


def take_consul_plan(state: GameState, events: list[Event], others: bool = True) -> None:
    """Construction begins (or is running): the Consul's plan becomes his standing list
    while his ability is unused; with `others`, the other players' Consul plans lapse."""
    consul = state["offices"]["consul"]
    mine = plans_of(state, consul) if consul is not None else {}
    if "consul" in mine and state["ability"]["consul"] is None and not state["p"][consul]["dropped"]:
        order = Order.from_json(mine["consul"][-1]["alts"][0])
        _drop(state, consul, "consul")
        events.append(Event("plan.used", f"Your plan plays '{format_order(order)}'.", {"order": format_order(order)},
                            to=(consul,)))
        flow.apply_order(state, consul, order, events)
    if others:
        lapse(state, "consul", events)


def end_of_accept(state: GameState) -> None:
    """The accept phase is over: the ship alternatives it kept go."""
    for player in list(state.get("plans") or {}):
        if SHIP in plans_of(state, player):
            _drop(state, player, SHIP)


# --------------------------------------------------------------------------- alternatives


def first_legal(state: GameState, player: str, alts: Sequence[Order]) -> tuple[int | None, list[str]]:
    """The index of the first alternative legal now, and why the ones before it were not."""
    reasons = []
    for i, alt in enumerate(alts):
        try:
            flow.check_order(state, player, alt)
        except OrderError as exc:
            reasons.append(f"'{format_order(alt)}': {exc.message}")
            continue
        return i, reasons
    return None, reasons


def apply_either(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    """A line of alternatives sent for the decision open now: the first that is legal is
    carried out; with `if available` none at all is fine. An accepted `ship` keeps the sizes
    after it, for the case an earlier player takes that ship by priority."""
    alts = [Order.from_json(a) for a in order.args["alts"]]
    i, reasons = first_legal(state, player, alts)
    if i is None:
        if order.args.get("optional"):
            events.append(Event("plan.skipped", f"Skipped '{format_order(order)}': " + "; ".join(reasons) + ".",
                                {}, to=(player,)))
            return
        raise IllegalOrder("none of the alternatives is possible now: " + "; ".join(reasons))
    flow.apply_order(state, player, alts[i], events)
    if alts[i].kind == "ship" and state["phase"] == "accept":
        keep_ship_alternatives(state, player, [a.args["size"] for a in alts[i + 1:] if a.kind == "ship"])


def ship_alternatives(state: GameState, player: str) -> list[str]:
    return list(plans_of(state, player).get(SHIP, []))


def keep_ship_alternatives(state: GameState, player: str, sizes: Sequence[str]) -> None:
    if sizes:
        _set(state, player, SHIP, list(sizes))
    else:
        _drop(state, player, SHIP)


# --------------------------------------------------------------------------- running plans


def run(state: GameState, events: list[Event]) -> bool:
    """Answer from the plans of the players asked now; True when an order was played (the
    phase driver then settles and asks again), False when no plan answers anything."""
    for prompt in flow.prompts(state):
        player = prompt.player
        part = DECISIONS.get(prompt.decision)
        if part is None or part not in plans_of(state, player) or state["p"][player]["dropped"]:
            continue
        if part == "construction":
            if _construction_step(state, player, events):
                return True
        elif _from_pool(state, player, part, events):
            return True
    return False


def _from_pool(state: GameState, player: str, part: str, events: list[Event]) -> bool:
    """A part whose lines are one list of alternatives: the first legal one is played and
    taken out (the auction goes on with the rest; the other parts are used up)."""
    lines = plans_of(state, player)[part]
    alts = [Order.from_json(a) for line in lines for a in line["alts"]]
    i, reasons = first_legal(state, player, alts)
    if i is None:
        _drop(state, player, part)
        _failed(state, player, part, alts, reasons, events)
        return False
    rest = alts[:i] + alts[i + 1:]
    if part == "auction" and rest:
        _set(state, player, part, [{"alts": [a.to_json() for a in rest], "optional": False}])
    else:
        _drop(state, player, part)
    _play(state, player, alts[i], reasons, events)
    return True


def _construction_step(state: GameState, player: str, events: list[Event]) -> bool:
    """The next line of the player's construction plan. A purchase the Consul is asked about
    keeps the line's other alternatives until he answers (`after_consul`)."""
    while True:
        lines = plans_of(state, player).get("construction") or []
        if not lines:
            _drop(state, player, "construction")
            events.append(Event("plan.used_up", "Your construction plan is used up; you are asked for the rest of "
                                "your turn.", {"part": "construction"}, to=(player,)))
            return False
        line, rest = lines[0], lines[1:]
        if line.get("waiting"):
            return False  # the Consul has not answered yet
        alts = [Order.from_json(a) for a in line["alts"]]
        i, reasons = first_legal(state, player, alts)
        if i is None:
            if line.get("optional"):
                _set(state, player, "construction", rest) if rest else _drop(state, player, "construction")
                events.append(Event("plan.skipped", f"Your construction plan skips '{line_text(line)}': "
                                    + "; ".join(reasons) + ".", {"part": "construction"}, to=(player,)))
                if not rest:
                    events.append(Event("plan.used_up", "Your construction plan is used up; you are asked for the "
                                        "rest of your turn.", {"part": "construction"}, to=(player,)))
                    return False
                continue
            _drop(state, player, "construction")
            _failed(state, player, "construction", alts, reasons, events)
            return False
        chosen = alts[i]
        if chosen.kind == "done":
            _drop(state, player, "construction")
        elif chosen.kind == "build":
            waiting = {"alts": [a.to_json() for a in alts[i + 1:]], "optional": line.get("optional", False),
                       "waiting": True}
            _set(state, player, "construction", [waiting] + rest)
        else:
            _set(state, player, "construction", rest) if rest else _drop(state, player, "construction")
        before = len(events)
        _play(state, player, chosen, reasons, events)
        if chosen.kind == "build":
            pending = state["construct"] and state["construct"]["pending"]
            if not (pending and pending["buyer"] == player):  # settled at once (bought, or the standing list)
                after_consul(state, player, preempted=any(e.kind == "preempt" and e.data.get("player") == player
                                                          for e in events[before:]))
        return True


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
    _set(state, buyer, "construction", rest) if rest else _drop(state, buyer, "construction")


def _play(state: GameState, player: str, order: Order, reasons: list[str], events: list[Event]) -> None:
    """Carry out a plan's choice, exactly as the order sent live; its owner is told alone
    that the plan made it (and what was passed over)."""
    passed = f" (passed over: {'; '.join(reasons)})" if reasons else ""
    events.append(Event("plan.used", f"Your plan plays '{format_order(order)}'{passed}.",
                        {"order": format_order(order)}, to=(player,)))
    flow.apply_order(state, player, order, events)


def _failed(state: GameState, player: str, part: str, alts: Sequence[Order], reasons: list[str],
            events: list[Event]) -> None:
    shown = format_alternatives(list(alts), False)
    events.append(Event("plan.failed", f"Your plan for {WHEN[part]} could not be used: none of '{shown}' is possible "
                        f"now ({'; '.join(reasons)}). It is dropped and you are asked.",
                        {"part": part, "reasons": reasons}, to=(player,)))


# --------------------------------------------------------------------------- the report's template


def template(state: GameState, player: str) -> list[str]:
    """Plan lines to fill in, for what comes after the decision open now: after the accept
    phase the rest of the round and the next auction and construction; in the auction, the
    construction turn. The Praefectus Pretorio's and the Consul's parts are offered only to
    the player holding that office now, so the report stays short; the orders guide lists
    every part."""
    phase = state["phase"]
    rest_of_round = ["donate: donate <good> or pass", "store: keep <goods> or keep nothing"]
    holds = {office for office, holder in state["offices"].items() if holder == player}
    next_round = ["defend <gold>", "auction: bid <office> up to <gold> or take free or stay"]
    next_round += ["pretorio: good <type> or <type>"] if "pretorio" in holds else []
    next_round += ["consul: preempt never (or: preempt list <buildings>)"] if "consul" in holds else []
    next_round += ["construction: build <building> or <building> if available", "construction: done"]
    if phase == "accept":
        return rest_of_round + next_round
    if phase == "donate":
        return rest_of_round[1:] + next_round
    if phase == "store":
        return next_round
    if phase == "auction":
        return next_round[1:]
    if phase == "pretorio":
        return [line for line in next_round if line.startswith(("consul", "construction"))]
    return []
