"""The Porto Carthago engine behind the `Game` contract, with queued orders per player."""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from referee.contract import (Event, GameOption, IllegalOrder, InvalidOrder, MenuLine, Order, OrderError,
                              PhaseInfo, Prompt, Result, SetupError)

from . import actions, arrival, components, grammar, menus, privileges, scoring, views
from .board import State, copy_state, counted, seat_of
from .flow import MAIN_KINDS, Decision, advance, decision, describe
from .palace import buy_final_seat, final_problem
from .setup import new_state


def _menu(state: State, d: Decision) -> list[Order]:
    if d.item is not None:
        return privileges.decision_menu(state, d.item)
    seat = d.seat
    if d.name == "setup.optional_dock":
        return [Order("occupy", {"dock": _dn(state, i)}) for i in range(12) if state["dock_o"][i] is None] + [Order("pass")]
    if d.name == "setup.compulsory_dock":
        goods = list(dict.fromkeys(state["market"]))
        out = []
        for i in range(12):
            if state["dock_o"][i] is None:
                out.extend(Order("occupy", {"dock": _dn(state, i), "good": g}) for g in goods)
                if not goods:
                    out.append(Order("occupy", {"dock": _dn(state, i)}))
        return out
    if d.name == "arrival.lighthouse":
        return [Order(k, {"ship": s, "at": at}) if k == "dock" else Order(k, {"ship": s})
                for k, s, at in arrival.choice_menu(state)]
    if d.name == "action.main":
        return actions.main_menu(state, seat) + privileges.use_menu(state, seat)
    if d.name == "action.after":
        out = [Order(k) for k in ("expand", "palace") if actions.side_problem(state, seat, k) is None]
        return out + privileges.use_menu(state, seat) + [Order("done")]
    if d.name == "end.final_seat":
        return [Order("palace")] * (final_problem(state, seat) is None) + [Order("pass")]
    return []


def _dn(state: State, i: int) -> str:
    return state["comp"]["dock_names"][i]


def _validate(state: State, d: Decision, o: Order) -> None:
    """Raise IllegalOrder unless `o` answers decision `d` legally."""
    if o.kind not in d.kinds:
        raise IllegalOrder(f"{o.kind.upper()} does not answer the current decision: {describe(state, d)}",
                           suggestion="allowed now: " + ", ".join(k.upper() for k in d.kinds))
    if d.name == "arrival.lighthouse":
        arrival.validate_choice(state, d.seat, o.kind, o.args.get("ship"), o.args.get("at"))
    elif d.name == "action.main":
        if o.kind == "use":
            privileges.validate_use(state, d.seat, dict(o.args))
        else:
            actions.validate_main(state, d.seat, o)
    elif d.name == "action.after":
        if o.kind == "use":
            privileges.validate_use(state, d.seat, dict(o.args))
        elif o.kind in ("expand", "palace"):
            problem = actions.side_problem(state, d.seat, o.kind)
            if problem:
                raise IllegalOrder(problem)
    elif d.name == "end.final_seat":
        if o.kind == "palace":
            problem = final_problem(state, d.seat)
            if problem:
                raise IllegalOrder(problem, suggestion="PASS")
    elif d.name == "market.refill_buy" and o.kind == "buy":
        problem = actions.refill_buy_problem(state, d.seat)
        if problem:
            raise IllegalOrder(problem, suggestion="PASS")
        if o.args.get("good") not in state["market"]:
            raise IllegalOrder(f"there is no {o.args.get('good')} in the market",
                               suggestion=f"the market holds {' '.join(state['market'])}")
    elif o not in _menu(state, d):
        options = [grammar.format_order(m) for m in _menu(state, d)[:6]]
        raise IllegalOrder(f"{grammar.format_order(o)} is not possible now", suggestion="try " + " or ".join(options))


def _execute(state: State, d: Decision, o: Order, events: list[Event]) -> None:
    seat = d.seat
    state["n"] += 1
    if d.item is not None:
        state["pending"].pop(0)
        rest, state["pending"] = state["pending"], []
        privileges.resolve(state, d.item, o, events)
        state["pending"].extend(rest)
    elif d.name in ("setup.optional_dock", "setup.compulsory_dock"):
        name = state["players"][seat]
        if o.kind == "pass":
            events.append(Event("setup", f"{name} takes no dock in the optional round.", {"player": name}))
        else:
            from .board import dock_index
            i = dock_index(state, o.args["dock"])
            state["dock_o"][i] = seat
            state["supply"][seat] -= 2
            text = f"{name} occupies dock {o.args['dock']}"
            if "good" in o.args:
                state["market"].remove(o.args["good"])
                state["store"][seat].append(o.args["good"])
                text += f" and takes {o.args['good']} from the market"
            events.append(Event("setup", text + ".", {"player": name, **o.args}))
        state["sq"] += 1
    elif d.name == "arrival.lighthouse":
        arrival.choose(state, seat, o.kind, o.args["ship"], o.args.get("at"), events)
    elif d.name == "action.main":
        if o.kind == "use":
            privileges.execute_use(state, seat, dict(o.args), events)
        else:
            actions.execute_main(state, seat, o, events)
    elif d.name == "action.after":
        if o.kind == "use":
            privileges.execute_use(state, seat, dict(o.args), events)
        elif o.kind == "done":
            state["act"]["end"] = True
        else:
            actions.execute_side(state, seat, o.kind, events)
    elif d.name == "end.final_seat":
        if o.kind == "palace":
            buy_final_seat(state, seat, events)
        state["sq"] += 1
    advance(state, events)


def _run_queues(state: State, events: list[Event]) -> None:
    """Play queued orders for whoever is asked next, while they still fit and are legal."""
    while any(state["queue"].values()):
        d = decision(state)
        if d is None:
            return
        player = state["players"][d.seat]
        queue = state["queue"].get(player)
        if not queue:
            return
        head = Order.from_json(queue[0])
        if head.kind in d.kinds:
            try:
                _validate(state, d, head)
            except OrderError as exc:
                queue.pop(0)
                if d.name == "arrival.lighthouse":
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
            _execute(state, d, head, events)
        elif d.name == "action.after" and head.kind in MAIN_KINDS:
            _execute(state, d, Order("done"), events)  # a queued next action closes this turn
        else:
            return



# What players read in report subjects and status lines; the decision's key stays the machine name.
DECISION_TITLES = {
    "setup.optional_dock": "setup: optional dock",
    "setup.compulsory_dock": "setup: compulsory dock",
    "arrival.lighthouse": "ship arrival (lighthouse order)",
    "action.main": "action turn",
    "action.after": "action turn: extras",
    "intrigue.reward": "intrigue reward",
    "privilege.immediate": "privilege card",
    "privilege.arrange": "privilege cards: arrange",
    "market.refill_buy": "market refill: buy",
    "end.final_seat": "final palace seat",
}

class PortoCarthago:
    """Porto Carthago (Iron Games, 2010) for 3 to 5 players."""

    name = "porto-carthago"
    title = "Porto Carthago"
    min_players = 3
    max_players = 5
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

    # -- setup

    def load_components(self, data: Mapping[str, Any] | None) -> dict[str, Any]:
        return components.load(data)

    def setup(self, players: Sequence[str], seed: str, options: Mapping[str, Any],
              components: Mapping[str, Any]) -> State:
        opts = {o.name: o.default for o in self.options}
        for key, value in options.items():
            spec = next((o for o in self.options if o.name == key), None)
            if spec is None:
                raise SetupError(f"unknown option {key!r}; known: {', '.join(o.name for o in self.options)}")
            if spec.choices is not None and value not in spec.choices:
                raise SetupError(f"option {key} must be one of {list(spec.choices)}")
            opts[key] = value
        if opts["start_player"] != "random" and opts["start_player"] not in list(players):
            raise SetupError("start_player must be 'random' or one of the players")
        state = new_state(players, seed, opts, dict(components))
        advance(state, [])
        return state

    # -- what is asked

    def phase(self, state: State) -> PhaseInfo:
        d = decision(state)
        if d is None:
            return PhaseInfo(f"over-{state['n']}", state["decade"], "game over", "over")
        kind = d.name.split(".")[0]
        return PhaseInfo(f"d{state['decade']}-{d.name}-{state['n']}", state["decade"], DECISION_TITLES[d.name], kind)

    def prompts(self, state: State) -> list[Prompt]:
        d = decision(state)
        if d is None:
            return []
        return [Prompt(state["players"][d.seat], d.name, False, d.kinds, describe(state, d))]

    phase_kinds = tuple(sorted({name.split(".")[0] for name in DECISION_TITLES}))

    def accepts_unprompted(self, state: State, player: str) -> bool:
        """Any seated player may queue orders (a dock preference list, their next turn)."""
        return player in state["players"] and decision(state) is not None

    def legal_orders(self, state: State, player: str) -> list[Order]:
        d = decision(state)
        if d is None or state["players"][d.seat] != player:
            return []
        return _menu(state, d)

    def menu(self, state: State, player: str) -> list[MenuLine]:
        """Every order the deciding player may give now, compactly (HELP, reports, receipts)."""
        d = decision(state)
        if d is None or state["players"][d.seat] != player:
            return []
        d = d._replace(item=state["pending"][0]) if d.item is not None else d
        return menus.menu(state, d, menus.judge_for(_validate, state, d))

    def default_orders(self, state: State, player: str) -> list[Order]:
        d = decision(state)
        if d is None or state["players"][d.seat] != player:
            return []
        menu = _menu(state, d)
        for preferred in (Order("talents"), Order("done"), Order("pass"), Order("decline"), Order("intrigue", {"count": 0})):
            if preferred in menu:
                return [preferred]
        if d.name == "privilege.arrange":
            return [Order("arrange", {"cards": list(d.item["cards"])})]
        return [menu[0]]

    # -- orders

    def parse(self, state: State, player: str, text: str) -> list[Order]:
        seat_of(state, player)
        return grammar.parse(state, text)

    def format(self, order: Order) -> str:
        return grammar.format_order(order)

    def apply(self, state: State, player: str, orders: Sequence[Order]) -> tuple[State, list[Event]]:
        seat = seat_of(state, player)
        if not orders:
            raise InvalidOrder("no orders given", line=1)
        d = decision(state)
        if d is None:
            raise IllegalOrder("the game is over", line=1)
        new = copy_state(state)
        events: list[Event] = []
        rest = list(orders)
        d = d._replace(item=new["pending"][0]) if d.item is not None else d
        if d.seat == seat and d.name == "action.after" and rest[0].kind in MAIN_KINDS and rest[0].kind != "use":
            # a main action sent while the turn is still open for extras: the turn ends, and
            # the action is meant for the next turn
            _execute(new, d, Order("done"), events)
            d = decision(new) or d._replace(seat=-1)
        if d.seat == seat:
            first = rest.pop(0)
            try:
                _validate(new, d, first)
            except OrderError as exc:
                raise exc.at(1, grammar.format_order(first)) from None
            events.append(Event("order", f"{player}: {grammar.format_order(first)}", {"player": player}))
            _execute(new, d, first, events)
        if rest or d.seat != seat:
            new["queue"][player] = [o.to_json() for o in rest]
            if rest:
                events.append(Event("queue", f"{counted(len(rest), 'order')} queued: " + "; ".join(
                    grammar.format_order(o) for o in rest) + ".", {"player": player}, to=(player,)))
        _run_queues(new, events)
        return new, events

    def drop(self, state: State, player: str) -> tuple[State, list[Event]]:
        seat_of(state, player)
        raise IllegalOrder("Porto Carthago has no rule for a player leaving; a moderator may play their turns "
                           "with the default orders instead")

    # -- reports

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def help(self, state: State, player: str) -> str:
        d = decision(state)
        if d is None:
            return "The game is over."
        if state["players"][d.seat] != player:
            return (f"It is {state['players'][d.seat]}'s decision ({d.name}). You may queue orders now; they run "
                    "when your turn comes if still legal.")
        task = describe(state, d)  # every order itself is listed by `menu`
        return f"{task[:1].upper()}{task[1:]}. Orders: {', '.join(k.upper() for k in d.kinds)}."

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def check(self, state: State) -> list[str]:
        return check(state)


def check(state: State) -> list[str]:
    """Conservation and sanity: 18 servants a colour, 30 goods, 30 ship cards, no debt."""
    comp = state["comp"]
    problems = []
    n = len(state["players"])
    for s in range(n):
        total = (state["supply"][s] + state["blocked"][s] + state["light"][s] + state["temple"][s]
                 + 2 * state["dock_o"].count(s) + state["charter"].count(s) + sum(c[s] for c in state["on_card"])
                 + state["palace"].count(s) + state["big"][s] + state["path"].count(s))
        if total != comp["servants_per_player"]:
            problems.append(f"{state['players'][s]} has {total} servants, not {comp['servants_per_player']}")
        for key in ("supply", "blocked", "light", "temple", "money", "tp"):
            if state[key][s] < 0:
                problems.append(f"{state['players'][s]} has negative {key}")
        if len(state["store"][s]) > comp["storage"]["spaces"] - state["blocked"][s]:
            problems.append(f"{state['players'][s]} stores more goods than spaces")
    goods = Counter(state["bag"]) + Counter(state["market"]) + Counter(g for st in state["store"] for g in st) \
        + Counter(g for g in state["dock_g"] if g is not None)
    if sum(goods.values()) != len(comp["goods"]) * comp["goods_per_colour"]:
        problems.append(f"{sum(goods.values())} goods in play")
    if any(goods[g] != comp["goods_per_colour"] for g in comp["goods"]) or set(goods) - set(comp["goods"]):
        problems.append(f"goods by colour are off: {dict(goods)}")
    for i in range(12):
        if state["dock_g"][i] is not None and state["dock_o"][i] is None:
            problems.append(f"dock {i} holds a good but has no owner")
        for key in ("dock_g", "dock_s"):
            if state[key][i] is not None and not isinstance(state[key][i], str):
                problems.append(f"dock {i} holds more than one item in {key}")
    ships = state["row1"] + state["row2"] + state["deck"] + [c for c in state["dock_s"] if c is not None] \
        + [c for h in state["held"] for c in h] + [i["card"] for i in state["pending"] if i["t"] == "arrange"]
    if sorted(ships) != sorted(comp["card_order"]):
        problems.append(f"ship cards are not all accounted for exactly once ({len(ships)})")
    if len(state["path"]) > comp["intrigue_path"]["length"]:
        problems.append("the intrigue path is overfull")
    if len(state["market"]) > 6:
        problems.append("the market is overfull")
    return problems


GAME = PortoCarthago()
