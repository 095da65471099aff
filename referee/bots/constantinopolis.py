"""A Constantinopolis player for benchmarks and tests (see `referee.bots`).

Its taste: keep its office more often than not, bid now and then, buy one building a turn when
it can, sell a good now and then, load what fits, buy a ship or a post now and then, donate
when it can. The planning kind writes the rest of the round and the next auction and
construction into every mail, each line ending in an answer that always works (`stay`,
`take free`, `if available`, `pass`, `keep nothing`).
"""

from __future__ import annotations

from typing import Any

from ..contract import Game, Order, OrderError, State
from .base import MailingBot

GOODS = ("green", "blue", "red", "black", "yellow")  # least valuable first
OFFICES = ("magister", "pretorio", "comes", "urbi", "consul")
MAX_SET = 10  # orders tried in one set of contracts


class ConstantinopolisBot(MailingBot):
    # ------------------------------------------------------------------ the answer

    def answer(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        menu = [o for o in game.legal_orders(state, player) if o.kind != "defend"]
        pick = self.rng
        if decision == "auction.choose":
            stay = [o for o in menu if o.kind == "stay"]
            if stay and pick.random() < 0.7:
                return ["stay"]
            bids = [o for o in menu if o.kind == "bid" and ("limit" in o.args) == self.plans]
            takes = [o for o in menu if o.kind == "take"]
            pool = (bids if pick.random() < 0.5 else []) or takes or stay or bids or menu
            return [game.format(pick.choice(pool))]
        if decision == "auction.duel":
            raises = [o for o in menu if o.kind == "raise"]
            return [game.format(raises[0] if raises and pick.random() < 0.5 else Order("pass"))]
        if decision == "construct.turn":
            return self._construction_turn(game, menu)
        if decision == "construct.preempt":
            return ["preempt" if any(o.kind == "preempt" for o in menu) and pick.random() < 0.3 else "allow"]
        if decision == "accept.contracts":
            return self._contracts(game, state, player)
        if decision == "donate":
            gifts = [o for o in menu if o.kind == "donate"]
            return [game.format(pick.choice(gifts) if gifts and pick.random() < 0.8 else Order("pass"))]
        return [game.format(menu[0] if decision == "store" else pick.choice(menu))]

    def _construction_turn(self, game: Game, menu: list[Order]) -> list[str]:
        """A whole turn in one mail: perhaps a sale, perhaps one building, then done. A sale
        only adds gold and a purchase needs no goods (no Redemptor), so what was legal when
        the turn was worked out stays legal in it."""
        out = []
        sales = [o for o in menu if o.kind == "sell"]
        if sales and self.rng.random() < 0.3:
            out.append(game.format(self.rng.choice(sales)))
        builds = [o for o in menu if o.kind == "build" and not o.args.get("redemptor")]
        if builds and self.rng.random() < 0.8:
            out.append(game.format(self.rng.choice(builds)))
        return out + ["done"]

    def _contracts(self, game: Game, state: State, player: str) -> list[str]:
        """A whole set: orders tried one by one on a copy of the position, loads first, a
        ship last (another player answering at the same time may take that size first). Only
        contracts in hand when the set is written are loaded: a trading post draws a card
        from the hidden deck, which the player learns only once the set is carried out."""
        out: list[str] = []
        trial = state
        hand = {c["id"] for c in game.view(state, player)["players"][player]["hand"]}
        for _ in range(MAX_SET):
            menu = game.legal_orders(trial, player)
            loads = [o for o in menu if o.kind == "load" and o.args["contract"] in hand]
            extras = [o for o in menu if o.kind in ("ship", "post")]
            if loads:
                order = self.rng.choice(loads)
            elif extras and self.rng.random() < 0.3:
                order = self.rng.choice(extras)
            else:
                break
            text = game.format(order)
            if order.kind == "ship" and self.plans:
                text += "".join(f" or {s}" for s in ("medium", "small") if s != order.args["size"])
            try:
                trial, _ = game.apply(trial, player, [order])
            except OrderError:
                break
            out.append(text)
            if order.kind == "ship":
                break  # the size bought depends on the players answering at the same time
        return out + ["done"]

    # ------------------------------------------------------------------ the plan

    def fast_plan(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        """What the fast level answers alike every time: after the contracts, the richest
        donation it can make and the most valuable goods to keep; the Praefectus Pretorio's
        most valuable good."""
        view = game.view(state, player)
        me = view["players"][player]
        out: list[str] = []
        if decision == "accept.contracts":
            gifts = sorted(view["market"]["current_card"]["donations"], key=lambda d: -d["fame"])
            out.append("donate: " + " or ".join([f"donate {d['good']}" for d in gifts] + ["pass"]))
        if decision in ("accept.contracts", "donate"):
            out.append(self._keep(me))
        if not decision.startswith("construct"):
            out.append("pretorio: good yellow or black or red or blue or green")
        return out

    def plan(self, game: Game, state: State, player: str, decision: str) -> list[str]:
        """Everything it can see coming until its next real choice: after the contracts the
        donation and the goods to keep; from then on the next auction, the Praefectus
        Pretorio's good, the Consul's list and the construction turn."""
        view = game.view(state, player)
        me = view["players"][player]
        out: list[str] = []
        if decision == "accept.contracts":
            out.append(self._donation(view))
        if decision in ("accept.contracts", "donate"):
            out.append(self._keep(me))
        if decision.startswith("construct"):
            return out
        if decision in ("accept.contracts", "donate", "store"):
            out.append(f"defend {self.rng.randint(0, max(0, me['gold'] // 4))}")
        out.append(self._auction(view, player, me))
        out.append("pretorio: good yellow or black or red or blue or green")
        out.append("consul: preempt never" if self.rng.random() < 0.7 else
                   f"consul: preempt list {self.rng.choice(list(view['catalogue']['buildings']))}")
        out += self._construction(view, me)
        return out

    def _auction(self, view: dict[str, Any], player: str, me: dict[str, Any]) -> str:
        held = [o for o in OFFICES if view["offices"][o] not in (None, player)]
        choices = []
        if held and self.rng.random() < 0.3:
            limit = self.rng.randint(1, max(1, me["gold"] // 3))
            choices.append(f"bid {self.rng.choice(held)} up to {limit}")
        return "auction: " + " or ".join(choices + ["stay", "take free"] + [f"take {o}" for o in OFFICES])

    def _construction(self, view: dict[str, Any], me: dict[str, Any]) -> list[str]:
        catalogue = view["catalogue"]["buildings"]
        wanted = [name for name, info in catalogue.items()
                  if view["supply"].get(name, 0) > 0 and name not in me["buildings"] and info["cost"] <= me["gold"] + 10]
        self.rng.shuffle(wanted)
        out = []
        if wanted and self.rng.random() < 0.9:
            out.append(f"construction: build {' or '.join(wanted[:3])} if available")
        goods = [g for g in GOODS if me["goods"][g]]
        if goods and self.rng.random() < 0.3:
            out.append(f"construction: sell 1 {self.rng.choice(goods)} if available")
        return out + ["construction: done"]

    def _donation(self, view: dict[str, Any]) -> str:
        gifts = [d["good"] for d in view["market"]["current_card"]["donations"]]
        self.rng.shuffle(gifts)
        return "donate: " + " or ".join([f"donate {g}" for g in gifts] + ["pass"])

    def _keep(self, me: dict[str, Any]) -> str:
        best = [g for g in reversed(GOODS) if me["goods"][g]]
        return "store: " + " or ".join([f"keep {g}" for g in best] + ["keep nothing"])
