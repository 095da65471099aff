"""A tiny but complete game on the engine contract, for testing the core without a real game.

Players take turns adding 1, 2 or 3 to a shared total; whoever reaches the target wins.
Each player also holds a secret lucky number drawn at setup (hidden information for view
tests).
"""

from __future__ import annotations

import copy
from typing import Mapping, Sequence

from referee.contract import (
    ComponentError,
    Event,
    GameOption,
    IllegalOrder,
    InvalidOrder,
    Order,
    OrderErrors,
    PhaseInfo,
    Prompt,
    Result,
    SetupError,
    State,
)
from referee.orderlines import order_lines, parse_int
from referee.rng import Rng


class Race:
    name = "race"
    title = "Race to the Target"
    min_players = 2
    max_players = 4
    rules_version = "1"
    options = (GameOption("target", 21, "the total that wins"),)

    def load_components(self, data: Mapping | None) -> dict:
        data = dict(data or {"steps": [1, 2, 3]})
        if not data.get("steps") or not all(isinstance(s, int) and s > 0 for s in data["steps"]):
            raise ComponentError(["steps must be a list of positive whole numbers"])
        return data

    def setup(self, players: Sequence[str], seed: str, options: Mapping, components: Mapping) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise SetupError("2-4 players")
        rng = Rng.from_seed(seed, "lucky")
        return {
            "players": list(players),
            "turn": 0,
            "total": 0,
            "target": int(options.get("target", 21)),
            "steps": list(components["steps"]),
            "lucky": {p: rng.randint(1, 9) for p in players},
            "winner": None,
        }

    def phase(self, state: State) -> PhaseInfo:
        if state["winner"]:
            return PhaseInfo("over", state["turn"], "over", "over")
        return PhaseInfo(f"t{state['turn']}", state["turn"], "add", "move")

    def _current(self, state: State) -> str:
        return state["players"][state["turn"] % len(state["players"])]

    def prompts(self, state: State) -> list[Prompt]:
        if state["winner"]:
            return []
        return [Prompt(self._current(state), "add", False, ("add",), "add to the total")]

    def parse(self, state: State, player: str, text: str) -> list[Order]:
        orders, errors = [], []
        for number, line in order_lines(text):
            words = line.split()
            try:
                if words[0].upper() != "ADD" or len(words) != 2:
                    raise InvalidOrder("expected ADD <n>", suggestion="e.g. ADD 2")
                orders.append(Order("add", {"n": parse_int(words[1], "the step")}))
            except InvalidOrder as exc:
                errors.append(exc.at(number, line))
        if errors:
            raise OrderErrors(errors)
        return orders

    def format(self, order: Order) -> str:
        return f"ADD {order.args['n']}"

    def apply(self, state: State, player: str, orders: Sequence[Order]) -> tuple[State, list[Event]]:
        if player != self._current(state):
            raise IllegalOrder(f"it is {self._current(state)}'s turn")
        if len(orders) != 1:
            raise IllegalOrder("give exactly one ADD")
        n = orders[0].args["n"]
        if n not in state["steps"]:
            raise IllegalOrder(f"you may add {state['steps']}, not {n}")
        new = copy.deepcopy(state)
        new["total"] += n
        events = [Event("added", f"{player} adds {n}; the total is {new['total']}.", {"n": n})]
        if new["total"] >= new["target"]:
            new["winner"] = player
            events.append(Event("won", f"{player} reaches {new['target']} and wins."))
        new["turn"] += 1
        return new, events

    def default_orders(self, state: State, player: str) -> list[Order]:
        return [Order("add", {"n": state["steps"][0]})]

    def legal_orders(self, state: State, player: str) -> list[Order]:
        if state["winner"] or player != self._current(state):
            return []
        return [Order("add", {"n": n}) for n in state["steps"]]

    def view(self, state: State, player: str | None) -> dict:
        out = {k: v for k, v in state.items() if k != "lucky"}
        out["lucky"] = dict(state["lucky"]) if player is None else {player: state["lucky"][player]}
        return out

    def help(self, state: State, player: str) -> str:
        return "ADD <n>  add n to the total"

    def drop(self, state: State, player: str) -> tuple[State, list[Event]]:
        raise IllegalOrder("players cannot leave a race")

    def result(self, state: State) -> Result | None:
        if not state["winner"]:
            return None
        others = tuple(p for p in state["players"] if p != state["winner"])
        return Result({p: {"won": p == state["winner"]} for p in state["players"]},
                      ((state["winner"],), others), (state["winner"],))

    def check(self, state: State) -> list[str]:
        return [] if state["total"] >= 0 else ["negative total"]


GAME = Race()
