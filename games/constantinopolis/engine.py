"""The Constantinopolis engine behind the `Game` contract.

Every public method is pure: `apply` changes a draft of the state (copied part by part as it
changes, see `draft`) and returns it. The rules live in one module per phase (see `flow` for
the order of the phases and the automatic steps between them); this class reads orders,
hands them to the open phase, and reports.
"""

from __future__ import annotations

import functools
import random
from typing import Mapping, Sequence

from referee.contract import (JSON, PLAN, Event, IllegalOrder, InvalidOrder, MenuLine, Order, OrderError, OrderErrors,
                              OrderShape, PhaseInfo, Prompt, Result, State)
from referee.orderlines import order_lines, sections
from referee.wording import Phrase, listed, order_text, phrase, plural_phrase

from . import auction, checks, flow, free_trade, menus, plans, scoring
from .components import load as load_component_set
from .draft import draft, finished, writable, writable_sheet
from .grammar import KEYWORDS, format_order, order_shapes, parse_alternatives
from .phases import own_question, question
from .production import producible
from .sampling import sample_world
from .setup import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, new_game
from .state import components_of, sheet_of
from .views import DECISION_READS, view as _view

PLAN_KINDS = ("plan", "cancel")  # orders that set plans, not answers to the decision open now
# Orders that may be given at any time, meant for decisions to come: a receipt names them, the plan shows them.
STANDING_KINDS = frozenset((*PLAN_KINDS, "defend"))


_WAIT = phrase("wait for your turn, or send a plan for it, e.g. '{first}' or '{second}'",
               first=order_text("auction: stay"), second=order_text("construction: build Cura or Figulina"))


@functools.lru_cache(maxsize=256)
def _nothing_to_decide(allowed: frozenset[str]) -> Phrase:
    """What an order refused from a player asked nothing says: the standing orders left to
    them. One phrase per set of order keywords (a handful a game), shared: phrases are values."""
    standing = sorted(k.split("-")[0] for k in allowed - {"plan", "cancel"})
    return phrase("you have nothing to decide now (you may still give: {orders}, or a plan for a decision to come)",
                  orders=listed(order_text(k) for k in standing))


@functools.lru_cache(maxsize=256)
def _allowed_now(allowed: frozenset[str]) -> Phrase:
    """The suggestion of an order the open decision does not take: the orders it does."""
    now = sorted(set(k.split("-")[0] for k in allowed - STANDING_KINDS))
    return phrase("allowed now: {orders}", orders=listed(order_text(k) for k in now))


class Constantinopolis:
    """Rules engine for Constantinopolis (2-5 players)."""

    name = "constantinopolis"
    title = "Constantinopolis"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    # 2: the Consul is asked on open facts; offers hold what they give. 3: offers and their
    # answers are facts of the phase (a trade done stays done; `withdraw`); a player who left
    # is out of the turn order once his pieces are removed; the ships_public option
    rules_version = "3"
    options = OPTIONS
    final_kinds = frozenset(free_trade.KINDS)  # agreements: a later set does not take them back
    # every spelling of an order keyword, and the names of plan parts (`construction: ...`): mail
    # tells prose from orders by them, so a plan line gone wrong is refused, not set aside
    keywords = {**plans.PART_NAMES, **KEYWORDS}

    # ------------------------------------------------------------------ setup

    def load_components(self, data: Mapping[str, JSON] | None) -> dict[str, JSON]:
        return load_component_set(data)

    def setup(self, players: Sequence[str], seed: str, options: Mapping[str, JSON],
              components: Mapping[str, JSON]) -> State:
        return new_game(players, seed, options, components, game=self.name, rules_version=self.rules_version)

    # ------------------------------------------------------------------ what is open

    def phase(self, state: State) -> PhaseInfo:
        name, kind = flow.PHASE_NAMES[state["phase"]]
        return PhaseInfo(f"r{state['round']}-{state['phase']}-{state['seq']}", state["round"], name, kind)

    def prompts(self, state: State) -> list[Prompt]:
        return flow.prompts(state)

    def asked(self, state: State, player: str) -> Phrase | None:
        """The prompt as `player` alone reads it in their mail, where it may name their
        secrets (gold too little to raise or pre-empt); None: the prompt's own text."""
        return own_question(state, player)

    phase_kinds = ("auction", "construct", "accept", "donate", "store")
    # what a mail that tells a long stretch of events in short leaves out: how an outcome came
    # about (bids, the contracts not taken), turns ended, a player's own loads (their receipt
    # said them); and, told player by player, what the table shows anyway: the goods produced,
    # the contracts drawn, the ships that sailed (every player's goods, hand and ships are in
    # it; an arrival says what a voyage earned)
    minor_events = frozenset({"accept.done", "construct.done", "discard", "store", "auction.bid", "auction.raise",
                              "auction.pass", "auction.end", "round", "market.reshuffle", "plan.lapsed", "queue.wait",
                              "build.ask", "preempt.ask", "load", "unload", "donate.pass"})
    table_events = frozenset({"produce", "draw", "ship.sail"})
    # what tells the sender no more than their order did (contract.echo_kinds): a turn or a part
    # ended, staying, bidding (on an office whose holder the bidder sees), passing or raising in
    # the auction, no donation, loads, goods thrown away, contracts saved or freed, an offer
    # withdrawn or turned down
    echo_events = frozenset({"accept.done", "construct.done", "auction.stay", "auction.bid", "auction.pass",
                             "auction.raise", "donate.pass", "load", "unload", "discard.goods", "save", "free",
                             "trade.reject", "trade.withdraw"})
    # whom the game waits for and why, in the moderator's words (a prompt's text is the asked player's)
    decision_titles = {
        "auction.choose": "auction: stay, take a vacant office or bid on an occupied one",
        "auction.duel": "auction duel for an office: raise the bid or pass",
        "auction.good": "Pretorio's free good",
        "construct.turn": "construction turn",
        "construct.preempt": "the Consul: pre-empt a purchase or allow it",
        "accept.contracts": "contracts: accept them, load ships, trade",
        "donate": "donations: donate goods or pass",
        "store": "end of round: the goods to keep",
    }
    score_labels = scoring.SCORE_LABELS
    tie_breaks = scoring.TIE_BREAKS

    def accepts_unprompted(self, state: State, player: str) -> bool:
        """Standing orders and plans (a defend limit, the Consul's pre-emption list, the plan of
        a decision still to come) come ahead of time."""
        sheet = state["p"].get(player)
        return (sheet is not None and not sheet["dropped"] and state["phase"] != "over"
                and bool(flow.allowed_kinds(state, player)))

    # ------------------------------------------------------------------ orders

    def parse(self, state: State, player: str, text: str) -> list[Order]:
        """Orders for the decision open now come first; a line that names a part of the game
        (`construction: build Cura or Figulina`) and the lines under it are a plan for it."""
        if player not in state["p"]:
            raise IllegalOrder(phrase("{player!r} is not playing in this game", player=player))
        components = components_of(state)
        asked = flow.prompts(state)
        allowed = flow.allowed_kinds(state, player, asked)
        prompted = any(p.player == player for p in asked)
        orders: list[Order] = []
        errors: list[OrderError] = []
        ended: set[str] = set()
        for number, line, part in sections(order_lines(text), plans.PART_NAMES):
            try:
                if isinstance(part, OrderError):
                    raise part  # a part name that is none of the plan's parts
                if part is not None:
                    order = plans.parse_line(part, line, components, state["players"])
                    if order.kind == "plan" and part in ended:
                        raise IllegalOrder(phrase("nothing can follow '{done}' in a construction plan: {done} ends the "
                                                  "turn", done=order_text("done")),
                                           suggestion=phrase("put '{line}' last",
                                                             line=order_text("construction: done")))
                    if plans.ends_turn(order):
                        ended.add(part)
                else:
                    order = self._line_for_now(line, components, state["players"], allowed, prompted)
                orders.append(order)
            except OrderError as e:
                errors.append(e.at(number, line))
        if len(errors) == 1:
            raise errors[0]
        if errors:
            raise OrderErrors(errors)
        if not orders:
            raise InvalidOrder(phrase("no orders found in the text"), suggestion=self.help(state, player))
        return orders

    @staticmethod
    def _line_for_now(line: str, components: dict, players: list[str], allowed: set[str], prompted: bool) -> Order:
        """A line without a part name: an order (or alternatives) for the decision open now,
        or a standing order."""
        alts, optional = parse_alternatives(line, components, players)
        for order in alts:
            if order.kind in allowed:
                continue
            if not prompted:
                raise IllegalOrder(_nothing_to_decide(frozenset(allowed)), suggestion=_WAIT)
            raise IllegalOrder(phrase("'{order}' is not an order you can give now",
                                      order=order_text(format_order(order))),
                               suggestion=_allowed_now(frozenset(allowed)))
        if len(alts) == 1 and not optional:
            return alts[0]
        if any(o.kind in ("cancel", "defend", "preempt-list", "preempt-ask") for o in alts):
            raise InvalidOrder(phrase("standing orders and cancellations take no alternatives"),
                               suggestion=phrase("one per line"))
        if any(o.kind in free_trade.KINDS for o in alts):  # each is a fact once made (`final_kinds`)
            raise InvalidOrder(phrase("offers and answers to offers take no alternatives"),
                               suggestion=phrase("one per line"))
        return Order("either", {"alts": [o.to_json() for o in alts], "optional": optional})

    def format(self, order: Order) -> str:
        return format_order(order)

    def order_shapes(self, state: State) -> dict[str, OrderShape]:
        """What may follow each keyword, and after a plan part's name an order (mail reading
        tells a misspelt order from prose by them)."""
        shapes: dict[str, OrderShape] = {part: OrderShape(part=True) for part in plans.PART_NAMES.values()}
        return {**shapes, **order_shapes(components_of(state), state["players"])}

    def apply(self, state: State, player: str, orders: Sequence[Order]) -> tuple[State, list[Event]]:
        """The orders for now, in turn; then the plan lines of the submission (a part given
        replaces that part as a whole), and the plans of whoever is asked next are read."""
        if player not in state["p"]:
            raise IllegalOrder(phrase("{player!r} is not playing in this game", player=player))
        if state["phase"] == "over":
            raise IllegalOrder(phrase("the game is over"))
        new = draft(state)
        events: list[Event] = []
        now = [o for o in orders if o.kind not in PLAN_KINDS]
        lines = [n for n, o in enumerate(orders, start=1) if o.kind not in PLAN_KINDS]
        for i, order in enumerate(now, start=1):
            try:
                if new["p"][player]["dropped"]:
                    raise IllegalOrder(phrase("you have left the game"))
                if order.kind == "either":
                    plans.apply_either(new, player, order, events)
                else:
                    flow.apply_order(new, player, order, events)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
                raise InvalidOrder(phrase("malformed order {order!r}: {error}", order=order.kind,
                                          error=e.__class__.__name__), line=lines[i - 1]) from None
            except OrderError as e:
                if e.line is None:
                    e.line = lines[i - 1]
                    e.text = format_order(order)
                raise
            flow.advance(new, events)
            construct = new.get("construct")
            if construct and construct["pending"] and construct["pending"]["buyer"] == player and i < len(now):
                # the Consul must answer first; the rest of this mail waits for him
                writable(new, "construct")["queue"] = [x.to_json() for x in now[i:]]
                events.append(Event("queue.wait", plural_phrase(len(now) - i, "{n} more order waits for the Consul's "
                                                                "answer.", "{n} more orders wait for the Consul's "
                                                                "answer."),
                                    {"orders": [format_order(x) for x in now[i:]]}, to=(player,)))
                break
        planned = [o for o in orders if o.kind in PLAN_KINDS]
        if planned:
            if new["p"][player]["dropped"]:
                raise IllegalOrder(phrase("you have left the game"))
            plans.record(new, player, planned, events)
            flow.advance(new, events)
        return finished(new), events

    def default_orders(self, state: State, player: str) -> list[Order]:
        return flow.default_orders(state, player)

    def legal_orders(self, state: State, player: str) -> list[Order]:
        return flow.legal_orders(state, player)

    def menu(self, state: State, player: str) -> list[MenuLine]:
        """Every order the player may give now, compactly (HELP, reports, receipts)."""
        return menus.menu(state, player)

    def view(self, state: State, player: str | None) -> dict[str, JSON]:
        return _view(state, player)

    def sample(self, view: Mapping[str, JSON], components: Mapping[str, JSON], rng: random.Random) -> State:
        """A whole position that shows `view`'s player exactly `view`, its hidden parts drawn
        with `rng` (`sampling`): what a computer player searches instead of the real one."""
        return sample_world(view, components, rng, self.rules_version)

    def planned(self, state: State, player: str, orders: Sequence[Order]) -> list[str]:
        """Plan lines and standing orders (a defend limit) are for later; the rest for now."""
        return [PLAN if o.kind in STANDING_KINDS else "" for o in orders]

    def reads(self, state: State, player: str) -> list[str]:
        """The parts of the view the decision open for `player` reads (their own position is
        always shown whole): see `views.DECISION_READS`."""
        return [part for p in flow.prompts(state) if p.player == player for part in DECISION_READS.get(p.decision, ())]

    def standing_plan(self, state: State, player: str) -> list[str]:
        """The player's defend limit, standing list and plan parts (their report alone)."""
        return plans.standing_lines(state, player) if player in state["p"] else []

    def plan_template(self, state: State, player: str) -> list[str]:
        return plans.template(state, player) if player in state["p"] else []

    def help(self, state: State, player: str) -> Phrase:
        mine = [p for p in flow.prompts(state) if p.player == player]
        if not mine:
            return phrase("Nothing to decide now.")
        prompt = mine[0]  # every order itself is listed by `menu`
        # as the orders are written: `preempt list`, not the kind `preempt-list`
        return phrase("{question}. Orders: {orders}.", question=question(state, player),
                      orders=listed(order_text(k.replace("-", " ")) for k in prompt.orders))

    def drop(self, state: State, player: str) -> tuple[State, list[Event]]:
        """The Italian drop-out variant: the leaver's open decisions are answered for them now,
        and their pieces leave at the start of the next round (`end_of_round`)."""
        if not state["options"]["dropout"]:
            raise IllegalOrder(phrase("players can leave only with the dropout option"))
        if player not in state["p"] or state["p"][player]["dropped"]:
            raise IllegalOrder(phrase("{player} is not in the game", player=player))
        if state["phase"] == "over":
            raise IllegalOrder(phrase("the game is over"))
        left = [n for n in state["players"] if not state["p"][n]["dropped"]]
        if len(left) <= 2:
            raise IllegalOrder(phrase("the game needs at least two players to go on"))
        new = draft(state)
        writable_sheet(new, player)["dropped"] = True
        events = [Event("dropout", phrase("{player} leaves the game; their pieces leave at the start of the next "
                                          "round.", player=player), {"player": player})]
        _withdraw_from_phase(new, player, events)
        flow.advance(new, events)
        return finished(new), events

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def check(self, state: State) -> list[str]:
        return checks.check(state)


def _withdraw_from_phase(state: State, player: str, events: list[Event]) -> None:
    """What a leaver was part of in the open phase: a purchase the Consul was asked about
    (with the orders waiting for it), offers, donations, storing, the Pretorio's good, the
    auction."""
    phase = state["phase"]
    if phase == "construct" and state["construct"]["pending"] and state["construct"]["pending"]["buyer"] == player:
        construct = writable(state, "construct")
        construct["pending"] = None
        construct["queue"] = []
    if phase == "accept":
        writable(state, "accept")["offers"] = [x for x in state["accept"]["offers"]
                                               if player not in (x["from"], x["to"])]
    if phase == "donate" and player in state["donate"]:
        writable(state, "donate").remove(player)
    if phase == "store" and player in state["store"]:
        writable(state, "store").remove(player)
    if phase == "pretorio" and state["pretorio"] == player:
        types = producible(sheet_of(state, player), components_of(state))
        auction.give_pretorio_good(state, player, auction.best_good(types), events)
    if phase == "auction" and state["auction"]["active"] == player:
        flow.apply_order(state, player, flow.default_orders(state, player)[0], events)


GAME = Constantinopolis()
