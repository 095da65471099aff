"""The Constantinopolis engine behind the `Game` contract.

Every public method is pure: `apply` changes a draft of the state (copied part by part as it
changes, see `draft`) and returns it. The rules live in one module per phase (see `flow` for
the order of the phases and the automatic steps between them); this class reads orders,
hands them to the open phase, and reports.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from referee.contract import (JSON, Event, IllegalOrder, InvalidOrder, MenuLine, Order, OrderError, OrderErrors,
                              PhaseInfo, Prompt, Result, State)
from referee.orderlines import order_lines

from . import auction, checks, flow, menus, scoring
from .components import load as load_component_set
from .draft import draft, finished, writable, writable_sheet
from .grammar import KEYWORDS, format_order, parse_line
from .production import producible
from .setup import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, new_game
from .state import components_of, sheet_of
from .views import view as _view


class Constantinopolis:
    """Rules engine for Constantinopolis (2-5 players)."""

    name = "constantinopolis"
    title = "Constantinopolis"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    rules_version = "2"  # 2: the Consul is asked on open facts; offers hold what they give
    options = OPTIONS
    keywords = KEYWORDS  # every spelling of an order keyword: mail tells prose from orders by them

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

    phase_kinds = ("auction", "construct", "accept", "donate", "store")

    def accepts_unprompted(self, state: State, player: str) -> bool:
        """Standing orders (a defend limit, the Consul's pre-emption list) come ahead of time."""
        sheet = state["p"].get(player)
        return (sheet is not None and not sheet["dropped"] and state["phase"] != "over"
                and bool(flow.allowed_kinds(state, player)))

    # ------------------------------------------------------------------ orders

    def parse(self, state: State, player: str, text: str) -> list[Order]:
        if player not in state["p"]:
            raise IllegalOrder(f"{player!r} is not playing in this game")
        components = components_of(state)
        allowed = flow.allowed_kinds(state, player)
        prompted = any(p.player == player for p in flow.prompts(state))
        orders: list[Order] = []
        errors: list[OrderError] = []
        for number, line in order_lines(text):
            try:
                order = parse_line(line, components, state["players"])
                if order.kind not in allowed:
                    if not prompted:
                        extra = f" (you may still give: {', '.join(sorted(allowed))})" if allowed else ""
                        raise IllegalOrder("you have nothing to decide now" + extra, suggestion="wait for your turn")
                    raise IllegalOrder(f"'{line.split()[0]}' is not an order you can give now",
                                       suggestion="allowed now: " + ", ".join(sorted(set(k.split("-")[0]
                                                                                       for k in allowed))))
                orders.append(order)
            except OrderError as e:
                errors.append(e.at(number, line))
        if len(errors) == 1:
            raise errors[0]
        if errors:
            raise OrderErrors(errors)
        if not orders:
            raise InvalidOrder("no orders found in the text", suggestion=self.help(state, player))
        return orders

    def format(self, order: Order) -> str:
        return format_order(order)

    def apply(self, state: State, player: str, orders: Sequence[Order]) -> tuple[State, list[Event]]:
        if player not in state["p"]:
            raise IllegalOrder(f"{player!r} is not playing in this game")
        if state["phase"] == "over":
            raise IllegalOrder("the game is over")
        new = draft(state)
        events: list[Event] = []
        for i, order in enumerate(orders, start=1):
            try:
                if new["p"][player]["dropped"]:
                    raise IllegalOrder("you have left the game")
                flow.apply_order(new, player, order, events)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
                raise InvalidOrder(f"malformed order {order.kind!r}: {e.__class__.__name__}", line=i) from None
            except OrderError as e:
                if e.line is None:
                    e.line = i
                    e.text = format_order(order)
                raise
            flow.advance(new, events)
            construct = new.get("construct")
            if construct and construct["pending"] and construct["pending"]["buyer"] == player and i < len(orders):
                # the Consul must answer first; the rest of this mail waits for him
                writable(new, "construct")["queue"] = [x.to_json() for x in orders[i:]]
                events.append(Event("queue.wait", f"{len(orders) - i} more orders wait for the Consul's answer.",
                                    {"orders": [format_order(x) for x in orders[i:]]}, to=(player,)))
                break
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

    def help(self, state: State, player: str) -> str:
        mine = [p for p in flow.prompts(state) if p.player == player]
        if not mine:
            return "Nothing to decide now."
        prompt = mine[0]  # every order itself is listed by `menu`
        return f"{prompt.text[:1].upper()}{prompt.text[1:]}. Orders: " + ", ".join(prompt.orders) + "."

    def drop(self, state: State, player: str) -> tuple[State, list[Event]]:
        """The Italian drop-out variant: the leaver's open decisions are answered for them now,
        and their pieces leave at the start of the next round (`end_of_round`)."""
        if not state["options"]["dropout"]:
            raise IllegalOrder("players can leave only with the dropout option")
        if player not in state["p"] or state["p"][player]["dropped"]:
            raise IllegalOrder(f"{player} is not in the game")
        if state["phase"] == "over":
            raise IllegalOrder("the game is over")
        left = [n for n in state["players"] if not state["p"][n]["dropped"]]
        if len(left) <= 2:
            raise IllegalOrder("the game needs at least two players to go on")
        new = draft(state)
        writable_sheet(new, player)["dropped"] = True
        events = [Event("dropout", f"{player} leaves the game; their pieces leave at the start of the next round.",
                        {"player": player})]
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
