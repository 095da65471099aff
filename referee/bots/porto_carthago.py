"""A Porto Carthago player for benchmarks and tests (see `referee.bots`).

Its taste: an action card more often than the three talents, the side action now and then,
privileges taken, a ship chosen at random. The planning kind queues its next turns with two
or three alternatives each, ending in TALENTS (always legal), and gives standing answers for
the lighthouse (the ships that enter next), the intrigue path, privileges, the refill buy,
the extras after an action and the final seat.
"""

from __future__ import annotations

from typing import Any

from ..contract import Game, Order, State
from .base import MailingBot

TURNS_AHEAD = 6  # action turns queued in each mail: the rest of a decade and the start of the next


class PortoCarthagoBot(MailingBot):
    # ------------------------------------------------------------------ the answer

    def answer(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        return [game.format(self._pick(game.legal_orders(state, player), decision))]

    def _pick(self, menu: list[Order], decision: str) -> Order:
        pick = self.rng
        by_kind: dict[str, list[Order]] = {}
        for order in menu:
            by_kind.setdefault(order.kind, []).append(order)
        if decision == "action.main":
            actions = [o for o in menu if o.kind not in ("talents", "use")]
            return pick.choice(actions) if actions and pick.random() < 0.75 else Order("talents")
        if decision == "action.after":
            return Order("done") if pick.random() < 0.6 or len(menu) == 1 else pick.choice(menu)
        for kind, chance in (("occupy", 1.0), ("dock", 1.0), ("accept", 0.7), ("palace", 0.7)):
            if kind in by_kind and pick.random() < chance:
                return pick.choice(by_kind[kind])
        return pick.choice(menu)

    # ------------------------------------------------------------------ the plan

    def fast_plan(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        """What the fast level answers alike every time: an immediate privilege taken, the
        final seat bought when it can be."""
        return ["PRIVILEGE: ACCEPT", "FINAL: PALACE or PASS"]

    def plan(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        view = game.view(state, player)
        me = view["players"][player]
        out: list[str] = []
        if decision == "setup.optional_dock":
            out.append(self._dock_with_good(view))
        out += [self._turn(view, player, me) for _ in range(TURNS_AHEAD)]
        ships = view["row2"] if view["stage"] in ("actions", "refresh") else view["row1"]
        if ships:
            order = list(ships)
            self.rng.shuffle(order)
            out.append("LIGHTHOUSE: " + " or ".join(f"DOCK {s}" for s in order))
        out.append(f"INTRIGUE: INTRIGUE {self.rng.randint(0, 2)} or 1 or 0")
        out.append("PRIVILEGE: ACCEPT or DECLINE")
        goods = sorted(set(view["market"])) or ["G1"]
        out.append(f"REFILL: BUY {self.rng.choice(goods)} or PASS")
        out.append("EXTRAS: EXPAND or PALACE or DONE" if self.rng.random() < 0.4 else "EXTRAS: DONE")
        out.append("FINAL: PALACE or PASS")
        return out

    def _dock_with_good(self, view: dict[str, Any]) -> str:
        free = [d for d, x in view["docks"].items() if x["owner"] is None]
        self.rng.shuffle(free)
        goods = sorted(set(view["market"]))
        return " or ".join(f"OCCUPY {d} TAKE {g}" for d in free[:4] for g in goods[:2]) or "OCCUPY C1-I"

    def _turn(self, view: dict[str, Any], player: str, me: dict[str, Any]) -> str:
        """One queued turn: two or three actions that may fit when it comes, then TALENTS."""
        pick = self.rng
        free_docks = [d for d, x in view["docks"].items() if x["owner"] is None]
        own_empty = [d for d, x in view["docks"].items() if x["owner"] == player and x["good"] is None]
        market = sorted(set(view["market"])) or sorted({c["good"] for c in view["ship_cards"].values()})
        options = [f"MERCHANT {pick.choice(market)}" if market else "REFILL", "CAPTAIN",
                   f"ARISTOCRAT {pick.choice(['LIGHTHOUSE', 'TEMPLE'])} +1", "REFILL"]
        if free_docks:
            options.append(f"LOADMASTER OCCUPY {pick.choice(free_docks)}")
        if me["storage"] and own_empty:
            options += [f"PORTER STORAGE {pick.choice(me['storage'])} TO {pick.choice(own_empty)}"] * 2
        chosen = pick.sample(options, k=min(len(options), pick.randint(1, 3)))
        return " or ".join(chosen + ["TALENTS"])
