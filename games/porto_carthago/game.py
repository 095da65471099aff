"""The Porto Carthago engine behind the `Game` contract, with queued orders per player.

The rules live in one module per part of the game (`flow` for the decade and who decides
what, `decisions` for answering the open decision); this class reads orders, hands them on,
and reports.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from referee.contract import (PLAN, QUEUED, Event, GameOption, IllegalOrder, InvalidOrder, MenuLine, Order,
                              OrderError, OrderShape, PhaseInfo, Prompt, Result, SetupError, checked_options)
from referee.wording import Phrase, listed, order_text, phrase, plural_phrase, term

from . import checks, components, grammar, menus, plans, scoring, views
from .board import seat_of
from .decisions import alternatives_of, carry_out, choose, menu_orders, reasons, run_queues, validate
from .flow import DECISION_TITLES, MAIN_KINDS, Decision, advance, current_decision, describe
from .sampling import sample_world
from .setup import new_state
from .state import State, copy_state

PLAN_KINDS = ("plan", "cancel")  # orders that set plans, not answers or turns

# each decision's short word in a phase code (`d2-lighthouse-38`), where the key has its name
PHASE_CODES = {
    "setup.optional_dock": "dock1", "setup.compulsory_dock": "dock2", "arrival.lighthouse": "lighthouse",
    "action.main": "turn", "action.after": "extras", "intrigue.reward": "intrigue",
    "privilege.immediate": "privilege", "privilege.arrange": "arrange", "market.refill_buy": "buy",
    "end.final_seat": "final",
}


class PortoCarthago:
    """Porto Carthago (Iron Games, 2010) for 3 to 5 players."""

    name = "porto-carthago"
    title = "Porto Carthago"
    min_players = 3
    max_players = 5
    rounds_are = "decade"  # what the game's rounds are called in mail: the rulebook counts decades
    rules_version = "2"  # 2: money no longer decides whom the game asks; final arrival default
    options = (
        GameOption("start_player", "random", "who starts: 'random' (drawn from the seed) or a player's name"),
        GameOption("final_arrival", "automatic",
                   "A30: after the last decade every ship of row 1 enters, docked top to bottom as the rule "
                   "says ('automatic'), or with lighthouse choices and the leader's rejection as in phase 1 "
                   "('lighthouse')", ("automatic", "lighthouse")),
        GameOption("sixth_action", None, "A9: which action is printed on the sixth card (default: the component data, "
                   "a second porter)", (None, "captain", "aristocrat", "loadmaster", "merchant", "porter")),
    )
    # every spelling of an order keyword, and the names of plan parts (`INTRIGUE: ...`): mail
    # tells prose from orders by them, so a plan line gone wrong is refused, not set aside
    keywords = {**plans.PART_NAMES, **grammar.KEYWORDS}

    # -- setup

    def load_components(self, data: Mapping[str, Any] | None) -> dict[str, Any]:
        return components.load(data)

    def setup(self, players: Sequence[str], seed: str, options: Mapping[str, Any],
              components: Mapping[str, Any]) -> State:
        chosen, problems = checked_options(self.options, options, self.name)
        if problems:
            raise SetupError(problems[0])
        if chosen["start_player"] != "random" and chosen["start_player"] not in list(players):
            raise SetupError("start_player must be 'random' or one of the players")
        state = new_state(players, seed, chosen, dict(components))
        advance(state, [])
        return state

    # -- what is asked

    def phase(self, state: State) -> PhaseInfo:
        decision = current_decision(state)
        if decision is None:
            return PhaseInfo(f"over-{state['n']}", state["decade"], "game over", "over")
        kind = decision.name.split(".")[0]
        return PhaseInfo(f"d{state['decade']}-{decision.name}-{state['n']}", state["decade"],
                         DECISION_TITLES[decision.name], kind)

    def phase_code(self, key: str) -> str:
        """`d2-lighthouse-38` for the key `d2-arrival.lighthouse-38`; a code stays as it is."""
        head, _, rest = key.partition("-")
        name, _, number = rest.rpartition("-")
        return f"{head}-{PHASE_CODES[name]}-{number}" if name in PHASE_CODES else key

    def prompts(self, state: State) -> list[Prompt]:
        decision = current_decision(state)
        if decision is None:
            return []
        return [Prompt(state["players"][decision.seat], decision.name, False, decision.kinds,
                       describe(state, decision))]

    phase_kinds = tuple(sorted({name.split(".")[0] for name in DECISION_TITLES}))
    # what a summary of a long stretch of events leaves out: the end of an action turn and what
    # the table shows anyway (the cards laid out, the market)
    minor_events = frozenset({"done", "cards", "market"})
    # what tells the sender no more than their order did (contract.echo_kinds): taking talents,
    # ending the action turn, a dock taken or passed in the setup
    echo_events = frozenset({"talents", "done", "setup"})
    decision_titles = DECISION_TITLES  # the moderator's words for whom the game waits
    score_labels = scoring.SCORE_LABELS
    tie_breaks = scoring.TIE_BREAKS

    def accepts_unprompted(self, state: State, player: str) -> bool:
        """Any seated player may queue orders (a dock preference list, their next turn)."""
        return player in state["players"] and current_decision(state) is not None

    def legal_orders(self, state: State, player: str) -> list[Order]:
        decision = current_decision(state)
        if decision is None or state["players"][decision.seat] != player:
            return []
        return menu_orders(state, decision)

    def menu(self, state: State, player: str) -> list[MenuLine]:
        """Every order the deciding player may give now, compactly (HELP, reports, receipts)."""
        decision = current_decision(state)
        if decision is None or state["players"][decision.seat] != player:
            return []
        return menus.menu(state, decision, menus.judge_for(validate, state, decision))

    def default_orders(self, state: State, player: str) -> list[Order]:
        decision = current_decision(state)
        if decision is None or state["players"][decision.seat] != player:
            return []
        menu = menu_orders(state, decision)
        # a silent player's answer: the first of these the decision allows, else the menu's first
        for preferred in (Order("talents"), Order("done"), Order("pass"), Order("decline"),
                          Order("intrigue", {"count": 0})):
            if preferred in menu:
                return [preferred]
        if decision.name == "privilege.arrange":
            return [Order("arrange", {"cards": list(decision.item["cards"])})]
        return [menu[0]]

    # -- orders

    def parse(self, state: State, player: str, text: str) -> list[Order]:
        seat = seat_of(state, player)
        decision = current_decision(state)
        answering = decision is not None and decision.seat == seat and decision.name != "action.after"
        return grammar.parse(state, text, answering)

    def format(self, order: Order) -> str:
        return grammar.format_order(order)

    def order_shapes(self, state: State) -> dict[str, OrderShape]:
        """What may follow each keyword (mail reading tells a misspelt order from prose by them)."""
        return grammar.order_shapes(state)

    def apply(self, state: State, player: str, orders: Sequence[Order]) -> tuple[State, list[Event]]:
        """The player's first order answers their decision if it is theirs; the rest (or all,
        when somebody else decides) wait in their queue and run when their turn comes. Plan
        lines set the player's standing answers; then every plan that fits is played."""
        seat = seat_of(state, player)
        if not orders:
            raise InvalidOrder(phrase("no orders given"), line=1)
        decision = current_decision(state)
        if decision is None:
            raise IllegalOrder(phrase("the game is over"), line=1)
        events: list[Event] = []
        rest = [o for o in orders if o.kind not in PLAN_KINDS]
        first_line = next((n for n, o in enumerate(orders, start=1) if o.kind not in PLAN_KINDS), 1)
        if rest and decision.seat == seat and decision.name == "action.after" and any(
                a.kind in MAIN_KINDS and a.kind != "use" for a in alternatives_of(rest[0])):
            # a main action sent while the turn is still open for extras: the turn ends, and
            # the action is meant for the next turn
            new = copy_state(state)
            carry_out(new, decision, Order("done"), events)
            decision = current_decision(new) or decision._replace(seat=-1)
            chosen = _answer(new, decision, rest, seat, first_line)
        else:
            # checked on the given state, which validation only reads, so that an order
            # refused costs no copy (menus and the fuzz tests try many such orders)
            chosen = _answer(state, decision, rest, seat, first_line)
            new = copy_state(state)
            if decision.item is not None:
                decision = decision._replace(item=new["pending"][0])  # the copy's item, not the given state's
        if chosen is not None:
            carry_out(new, decision, chosen, events)
        if rest:  # a mail with turns to come replaces the queue; a single answer or a plan leaves it
            new["queue"][player] = [o.to_json() for o in rest]
            queued = order_text("; ".join(grammar.format_order(o) for o in rest))
            events.append(Event("queue.set", plural_phrase(len(rest), "{n} order queued: {orders}.",
                                                       "{n} orders queued: {orders}.", orders=queued),
                                {"player": player}, to=(player,)))
        plans.record(new, player, [o for o in orders if o.kind in PLAN_KINDS], events)
        run_queues(new, events)
        return new, events

    def drop(self, state: State, player: str) -> tuple[State, list[Event]]:
        seat_of(state, player)
        raise IllegalOrder(phrase("Porto Carthago has no rule for a player leaving; a moderator may play their turns "
                                  "with the default orders instead"))

    # -- reports

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def sample(self, view: Mapping[str, Any], components: Mapping[str, Any], rng: random.Random) -> State:
        """A whole position that shows `view`'s player exactly `view`, its hidden parts drawn
        with `rng` (`sampling`): what a computer player searches instead of the real one."""
        return sample_world(view, components, rng)

    def planned(self, state: State, player: str, orders: Sequence[Order]) -> list[str]:
        """As `apply` takes them: plan lines set standing answers; the first other order answers
        the player's decision when it is theirs, and every order after it waits in their queue."""
        decision = current_decision(state)
        now = decision is not None and decision.seat == seat_of(state, player)
        out = []
        for order in orders:
            if order.kind in PLAN_KINDS:
                out.append(PLAN)
            elif now:
                out.append("")
                now = False
            else:
                out.append(QUEUED)
        return out

    def reads(self, state: State, player: str) -> list[str]:
        """The parts of the view the decision open for `player` reads: `views.DECISION_READS`."""
        return views.reads(state, player)

    def standing_plan(self, state: State, player: str) -> list[str]:
        """The player's queued turns and standing answers (their report alone)."""
        return plans.standing_lines(state, player) if player in state["players"] else []

    def plan_template(self, state: State, player: str) -> list[str]:
        return plans.template(state, player) if player in state["players"] else []

    def help(self, state: State, player: str) -> Phrase:
        decision = current_decision(state)
        if decision is None:
            return phrase("The game is over.")
        if state["players"][decision.seat] != player:
            return phrase("It is {player}'s decision ({decision}). You may queue orders now; they run when your turn "
                          "comes if still legal.", player=state["players"][decision.seat],
                          decision=term(DECISION_TITLES[decision.name]))
        task = describe(state, decision, sentence=True)  # every order itself is listed by `menu`
        return phrase("{task}. Orders: {orders}.", task=task,
                      orders=listed(order_text(k.upper()) for k in decision.kinds))

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def check(self, state: State) -> list[str]:
        return checks.check(state)


def _answer(state: State, decision: Decision, rest: list[Order], seat: int, line: int) -> Order | None:
    """The order of `rest` (taken off it) that answers `seat`'s open decision, checked as
    `validate` checks it (the first legal alternative of an EITHER), or the error saying
    why it is refused; None when the decision is somebody else's or no order is left for it."""
    if not rest or decision.seat != seat:
        return None
    first = chosen = rest.pop(0)
    if first.kind == "either":
        chosen, failures = choose(state, decision, first)
        if chosen is None:
            raise IllegalOrder(phrase("none of the alternatives is possible now: {reasons}",
                                      reasons=reasons(failures)),
                               line=line, text=grammar.format_order(first))
    else:
        try:
            validate(state, decision, first)
        except OrderError as exc:
            raise exc.at(line, grammar.format_order(first)) from None
    return chosen


GAME = PortoCarthago()
