"""A small game with a simultaneous phase, for the resubmission rules of the service.

Each round every player secretly picks a number from 1 to 9 (`PICK n`) and ends their part
with `DONE`; when all are done the highest pick scores a point. Two rounds make a game.
Players may be dropped (their part of each round is then over at once). `MATCH <player>`
picks the number that player has picked so far, so one player's set can rely on another's:
the case the resubmission rule has to settle when the other player changes theirs.
"""

from __future__ import annotations

import copy
from typing import Mapping, Sequence

from referee.contract import (
    Event, GameOption, IllegalOrder, InvalidOrder, Order, OrderErrors, PhaseInfo, Prompt, Result, State,
)
from referee.orderlines import order_lines, parse_int


class Simul:
    name = "simul"
    title = "Secret Numbers"
    min_players = 2
    max_players = 4
    rules_version = "1"
    options = (GameOption("rounds", 2, "rounds to play"),)

    def load_components(self, data: Mapping | None) -> dict:
        return dict(data or {"high": 9})

    def setup(self, players: Sequence[str], seed: str, options: Mapping, components: Mapping) -> State:
        return {"players": list(players), "round": 1, "rounds": int(options.get("rounds", 2)),
                "high": components["high"], "picks": {}, "done": [], "dropped": [],
                "score": {p: 0 for p in players}}

    def _over(self, state: State) -> bool:
        return state["round"] > state["rounds"]

    def phase(self, state: State) -> PhaseInfo:
        if self._over(state):
            return PhaseInfo("over", state["round"], "over", "over")
        return PhaseInfo(f"r{state['round']}", state["round"], "pick", "secret")

    def prompts(self, state: State) -> list[Prompt]:
        if self._over(state):
            return []
        return [Prompt(p, "pick", True, ("pick", "done"), "pick a number, then DONE")
                for p in state["players"] if p not in state["done"]]

    def parse(self, state: State, player: str, text: str) -> list[Order]:
        orders, errors = [], []
        for number, line in order_lines(text):
            words = line.split()
            try:
                if words[0].upper() == "PICK" and len(words) == 2:
                    orders.append(Order("pick", {"n": parse_int(words[1], "the number")}))
                elif words[0].upper() == "DONE" and len(words) == 1:
                    orders.append(Order("done"))
                elif words[0].upper() == "MATCH" and len(words) == 2 and words[1].lower() in state["players"]:
                    orders.append(Order("match", {"player": words[1].lower()}))
                else:
                    raise InvalidOrder("expected PICK <n>, MATCH <player> or DONE", suggestion="e.g. PICK 5")
            except InvalidOrder as exc:
                errors.append(exc.at(number, line))
        if errors:
            raise OrderErrors(errors)
        return orders

    def format(self, order: Order) -> str:
        if order.kind == "match":
            return f"MATCH {order.args['player']}"
        return f"PICK {order.args['n']}" if order.kind == "pick" else "DONE"

    def apply(self, state: State, player: str, orders: Sequence[Order]) -> tuple[State, list[Event]]:
        if player in state["done"]:
            raise IllegalOrder("your part of this round is over")
        new = copy.deepcopy(state)
        events = []
        for order in orders:
            if player in new["done"]:
                raise IllegalOrder("nothing may follow DONE")
            if order.kind == "pick":
                n = order.args["n"]
                if not 1 <= n <= new["high"]:
                    raise IllegalOrder(f"pick from 1 to {new['high']}, not {n}",
                                       suggestion=f"PICK {min(max(n, 1), new['high'])}")
                new["picks"][player] = n
                events.append(Event("picked", f"{player} picks {n}.", {"n": n}, (player,)))
            elif order.kind == "match":
                other = order.args["player"]
                if other == player or other not in new["picks"]:
                    raise IllegalOrder(f"{other} has no pick to match")
                new["picks"][player] = new["picks"][other]
                events.append(Event("picked", f"{player} picks {new['picks'][player]}.",
                                    {"n": new["picks"][player]}, (player,)))
            else:
                if player not in new["picks"]:
                    raise IllegalOrder("pick a number before DONE", suggestion="PICK 5")
                new["done"].append(player)
                events.append(Event("done", f"{player} has chosen."))
        if len(new["done"]) == len(new["players"]):
            events += self._resolve(new)
        return new, events

    def _resolve(self, new: State) -> list[Event]:
        picks = new["picks"]
        events = [Event("revealed", ", ".join(f"{p} {n}" for p, n in sorted(picks.items())))]
        if picks:
            best = max(picks.values())
            for p in sorted(p for p, n in picks.items() if n == best):
                new["score"][p] += 1
                events.append(Event("scored", f"{p} scores with {best}."))
        new["round"] += 1
        new["picks"], new["done"] = {}, list(new["dropped"])
        return events

    def default_orders(self, state: State, player: str) -> list[Order]:
        if player in state["picks"]:
            return [Order("done")]
        return [Order("pick", {"n": 1}), Order("done")]

    def legal_orders(self, state: State, player: str) -> list[Order]:
        if self._over(state) or player in state["done"]:
            return []
        if player in state["picks"]:
            return [Order("done")]
        return [Order("pick", {"n": n}) for n in range(1, state["high"] + 1)]

    def view(self, state: State, player: str | None) -> dict:
        out = copy.deepcopy(state)
        if player is not None:
            out["picks"] = {p: n for p, n in state["picks"].items() if p == player}
        return out

    def help(self, state: State, player: str) -> str:
        return "PICK <n>  choose a number; DONE  end your part"

    def drop(self, state: State, player: str) -> tuple[State, list[Event]]:
        new = copy.deepcopy(state)
        new["dropped"].append(player)
        new["picks"].pop(player, None)
        if player not in new["done"]:
            new["done"].append(player)
        events = [Event("dropped", f"{player} leaves the game.")]
        if len(new["done"]) == len(new["players"]):
            events += self._resolve(new)
        return new, events

    def result(self, state: State) -> Result | None:
        if not self._over(state):
            return None
        best = max(state["score"].values())
        winners = tuple(p for p in state["players"] if state["score"][p] == best)
        rest = tuple(p for p in state["players"] if p not in winners)
        return Result({p: {"points": s} for p, s in state["score"].items()},
                      (winners, rest) if rest else (winners,), winners)

    def check(self, state: State) -> list[str]:
        return []


GAME = Simul()
