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
from referee.contract import why_not as contract_why_not
from referee.orderlines import OPTIONAL
from referee.wording import Phrase, listed, menu_order, order_phrase, order_text, phrase

from . import phases
from .plan_book import (after_consul, consul_plan_order, drop_part, ends_turn, keep_ship_alternatives,  # noqa: F401
                        line_text, plans_of, set_part, standing_lines)
from .plan_book import record as record_parts
from .grammar import format_alternatives, format_order, parse_alternatives
from .plan_parts import DECISIONS, PART_NAMES, PARTS, WHEN  # noqa: F401
from .state import GameState



# --------------------------------------------------------------------------- reading plan lines


def parse_line(part: str, text: str, components: dict[str, Any], players: list[str]) -> Order:
    """One line of a plan part: `build Textrinum or Figulina if available`, `cancel`, or
    `defend 6`, which is the standing order itself."""
    words = text.split()
    if words and words[0].lower() == "cancel":
        if len(words) > 1:
            raise InvalidOrder(phrase("write '{first}' or '{second}'", first=order_text(f"{part}: cancel"),
                                      second=order_text(f"cancel {part}")))
        return Order("cancel", {"part": part})
    alts, optional = parse_alternatives(text, components, players)
    if len(alts) == 1 and alts[0].kind == "defend" and not optional:
        return alts[0]  # the standing order itself, wherever it is written
    allowed = PARTS[part]
    for alt in alts:
        if alt.kind not in allowed:
            raise InvalidOrder(phrase("'{order}' is not an order for a plan's {part} line",
                                      order=order_text(format_order(alt)), part=order_text(part)),
                               suggestion=phrase("a plan's {part} line takes {orders}", part=order_text(part),
                                                 orders=listed(order_text(k) for k in _shown(allowed))))
    if optional and part != "construction":
        raise InvalidOrder(phrase("'{optional}' is for construction lines; end a {part} line with an alternative "
                                  "that always works instead", optional=order_text(OPTIONAL), part=order_text(part)),
                           suggestion=_fallback(part))
    return Order("plan", {"part": part, "alts": [a.to_json() for a in alts], "optional": optional})


def _shown(kinds: Sequence[str]) -> list[str]:
    return sorted({k.split("-")[0] for k in kinds})


def _fallback(part: str) -> Phrase | None:
    line = {"auction": "... or stay", "pretorio": "good red or blue", "consul": "preempt never",
            "donate": "donate black or pass", "store": "keep yellow or keep nothing"}.get(part)
    return order_phrase(line) if line else None


# --------------------------------------------------------------------------- alternatives


def first_legal(state: GameState, player: str, alts: Sequence[Order]) -> tuple[int | None, list[tuple[Order, Any]]]:
    """The index of the first alternative legal now, and why the ones before it were not:
    (alternative, error) pairs, said by `why_not`."""
    failures: list[tuple[Order, Any]] = []
    for i, alt in enumerate(alts):
        try:
            phases.check_order(state, player, alt)
        except OrderError as exc:
            failures.append((alt, exc))
            continue
        return i, failures
    return None, failures


def why_not(failures: Sequence[tuple[Order, Any]]) -> Any:
    """Why alternatives were passed over, each reason once, the alternatives it refused
    named together: `'build Textrinum or Figulina': that costs more than the 5 gold you have`."""
    return contract_why_not(failures, lambda alts: phrase("'{order}'",
                                                          order=order_text(format_alternatives(alts, False))))


def apply_either(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    """A line of alternatives sent for the decision open now: the first that is legal is
    carried out; with `if available` none at all is fine. An accepted `ship` keeps the sizes
    after it, for the case an earlier player takes that ship by priority."""
    alts = [Order.from_json(a) for a in order.args["alts"]]
    i, failures = first_legal(state, player, alts)
    if i is None:
        if order.args.get("optional"):
            events.append(Event("plan.skipped", phrase("Skipped, as it is not available ({reasons}).",
                                                       reasons=why_not(failures)), {}, to=(player,)))
            return
        raise IllegalOrder(phrase("none of the alternatives is possible now: {reasons}", reasons=why_not(failures)))
    phases.apply_order(state, player, alts[i], events)
    if alts[i].kind == "ship" and state["phase"] == "accept":
        keep_ship_alternatives(state, player, [a.args["size"] for a in alts[i + 1:] if a.kind == "ship"])


# --------------------------------------------------------------------------- running plans


def run(state: GameState, events: list[Event]) -> bool:
    """Answer from the plans of the players asked now; True when an order was played (the
    phase driver then settles and asks again), False when no plan answers anything (nor can
    one when nobody has a plan: the prompts are not worked out then)."""
    if not state.get("plans"):
        return False
    for prompt in phases.prompts(state):
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
    i, failures = first_legal(state, player, alts)
    if i is None:
        drop_part(state, player, part)
        _failed(state, player, part, failures, events)
        return False
    rest = alts[:i] + alts[i + 1:]
    if part == "auction" and rest:
        set_part(state, player, part, [{"alts": [a.to_json() for a in rest], "optional": False}])
    else:
        drop_part(state, player, part)
    _play(state, player, alts[i], failures, events)
    return True


def _construction_step(state: GameState, player: str, events: list[Event]) -> bool:
    """The next line of the player's construction plan. A purchase the Consul is asked about
    keeps the line's other alternatives until he answers (`after_consul`)."""
    while True:
        lines = plans_of(state, player).get("construction") or []
        if not lines:
            drop_part(state, player, "construction")
            events.append(Event("plan.used_up", _USED_UP, {"part": "construction"}, to=(player,)))
            return False
        line, rest = lines[0], lines[1:]
        if line.get("waiting"):
            return False  # the Consul has not answered yet
        alts = [Order.from_json(a) for a in line["alts"]]
        i, failures = first_legal(state, player, alts)
        if i is None:
            if line.get("optional"):
                set_part(state, player, "construction", rest) if rest else drop_part(state, player, "construction")
                events.append(Event("plan.skipped", phrase("Your construction plan skips a line that is not "
                                                           "available ({reasons}).", reasons=why_not(failures)),
                                    {"part": "construction"}, to=(player,)))
                if not rest:
                    events.append(Event("plan.used_up", _USED_UP, {"part": "construction"}, to=(player,)))
                    return False
                continue
            drop_part(state, player, "construction")
            _failed(state, player, "construction", failures, events)
            return False
        chosen = alts[i]
        if chosen.kind == "done":
            drop_part(state, player, "construction")
        elif chosen.kind == "build":
            waiting = {"alts": [a.to_json() for a in alts[i + 1:]], "optional": line.get("optional", False),
                       "waiting": True}
            set_part(state, player, "construction", [waiting] + rest)
        else:
            set_part(state, player, "construction", rest) if rest else drop_part(state, player, "construction")
        before = len(events)
        _play(state, player, chosen, failures, events)
        if chosen.kind == "build":
            pending = state["construct"] and state["construct"]["pending"]
            if not (pending and pending["buyer"] == player):  # settled at once (bought, or the standing list)
                after_consul(state, player, preempted=any(e.kind == "preempt" and e.data.get("player") == player
                                                          for e in events[before:]))
        return True


_USED_UP = phrase("Your construction plan is used up; you are asked for the rest of your turn.")


def _play(state: GameState, player: str, order: Order, failures: Sequence[tuple[Order, Any]],
          events: list[Event]) -> None:
    """Carry out a plan's choice, exactly as the order sent live; its owner is told alone
    that the plan made it (and what was passed over, and why)."""
    played = order_text(format_order(order))
    said = phrase("Your plan plays '{order}' (passed over: {reasons}).", order=played, reasons=why_not(failures)) \
        if failures else phrase("Your plan plays '{order}'.", order=played)
    events.append(Event("plan.used", said, {"order": format_order(order)}, to=(player,)))
    phases.apply_order(state, player, order, events)


def _failed(state: GameState, player: str, part: str, failures: Sequence[tuple[Order, Any]],
            events: list[Event]) -> None:
    why = why_not(failures)
    events.append(Event("plan.failed", phrase("Your plan for {when} could not be used ({reasons}); it is dropped and "
                                              "you are asked.", when=WHEN[part], reasons=why),
                        {"part": part, "reasons": str(why)}, to=(player,)))


# --------------------------------------------------------------------------- the report's template


def _part_line(part: str, orders: str) -> Phrase:
    """`auction: bid <office> ...`: a line of the plan template, the part's name and the orders
    in the reader's words, the `<placeholders>` as they are."""
    return phrase("{part}: {orders}", part=order_text(part), orders=menu_order(orders))


# the lines of the plan template (they never change)
_DONATE = _part_line("donate", "donate <good> or pass")
_STORE = _part_line("store", "keep <goods> or keep nothing")
_AUCTION = _part_line("auction", "bid <office> up to <gold> or take free or stay")
_PRETORIO = _part_line("pretorio", "good <type> or <type>")
_CONSUL = phrase("{part}: {orders} (or: {other})", part=order_text("consul"), orders=order_text("preempt never"),
                 other=menu_order("preempt list <buildings>"))
_CONSTRUCTION = [_part_line("construction", "build <building> or <building>, if available"),
                 _part_line("construction", "done")]


def template(state: GameState, player: str) -> list[Phrase]:
    """Plan lines to fill in, for what comes after the decision open now: after the accept
    phase the rest of the round and the next auction and construction; in the auction, the
    construction turn. The Praefectus Pretorio's and the Consul's parts are offered only to
    the player holding that office now, so the report stays short; the orders guide lists
    every part. A part the player has planned already is left out: their report shows it
    under their plan, to be sent again to replace it."""
    phase = state["phase"]
    mine = plans_of(state, player)
    rest_of_round = [line for part, line in (("donate", _DONATE), ("store", _STORE)) if part not in mine]
    holds = {office for office, holder in state["offices"].items() if holder == player}
    next_round = [] if "auction" in mine else [_AUCTION]  # (the defend limit is a line of the menu, under "Plan ahead")
    next_round += [_PRETORIO] if "pretorio" in holds and "pretorio" not in mine else []
    next_round += [_CONSUL] if "consul" in holds and "consul" not in mine else []
    next_round += [] if "construction" in mine else _CONSTRUCTION
    if phase == "accept":
        return rest_of_round + next_round
    if phase == "donate":
        return [line for line in rest_of_round if line is not _DONATE] + next_round
    if phase == "store":
        return next_round
    if phase == "auction":
        return next_round
    if phase == "pretorio":
        return [line for line in next_round if line.startswith(("consul", "construction"))]
    return []


# --------------------------------------------------------------------------- setting plans


def record(state: GameState, player: str, orders: Sequence[Order], events: list[Event]) -> None:
    """Set the plan parts and cancellations of one submission (plan_book.record); a Consul
    plan sent while construction runs and the ability is his is played at once."""
    fresh = record_parts(state, player, orders, events)
    if "consul" in fresh and state["phase"] == "construct" and state["offices"]["consul"] == player:
        taken = consul_plan_order(state, events)
        if taken is not None:
            phases.apply_order(state, *taken, events)
