"""How a computer player judges Porto Carthago (reference §5: palace seats win, then trade
points, then money).

`value` counts a player's palace seats, bought and expected from the intrigue path, and adds
what their pieces promise for the seats still to buy: talents and trade points (a seat costs
the cheapest free field's price and needs its trade-point minimum), servants in supply
(income), a dock where a ship waits for a good the player holds, goods in storage, a charter
ship with temple servants, privilege cards. What only helps buy seats is worth less as the
game runs out of turns; at the end only the seats count, then trade points, then money.

`quick` is the rule of thumb for play-outs: load a waiting ship, buy a palace seat, ship by
charter with enough temple servants, buy the good a waiting ship wants, take a dock where a
ship waits, and take three talents when nothing better is at hand.
"""

from __future__ import annotations

import random
from typing import Any

from games.porto_carthago.board import ship_card
from games.porto_carthago.intrigue import bonus_seats
from games.porto_carthago.palace import cheapest_field
from games.porto_carthago.scoring import seats_bought

from ..contract import Game, Order, State

SEAT = 1.0
TALENT = 1 / 15  # a seat costs about fifteen talents, counting the turn spent buying it
TRADE_POINT = 0.22  # while the palace minimums still bind
TRADE_POINT_LATE = 0.06  # beyond six: the early end, the tie-break
PATH_SERVANT = 0.3  # an intrigue servant, before the bonus seats are clear
HELD = {"P2": 0.08, "P3": 0.3, "P4": 0.06, "P7": 0.45, "P8": 0.15}  # a kept privilege, in seats
END_TALENT, END_POINT = 0.0001, 0.01  # the tie-breaks, once nothing can be bought


class PortoCarthagoPolicy:
    close = 0.3  # palace seats
    candidates = 5
    worlds = 8

    # ------------------------------------------------------------------ value

    def value(self, state: State, player: str) -> float:
        return self.values(state)[state["players"].index(player)]

    def values(self, state: State) -> list[float]:
        """`value` of every player, by seat (the parts they share worked out once)."""
        bought = seats_bought(state)
        bonus = bonus_seats(state)
        tp, money = state["tp"], state["money"]
        if state["stage"] == "over":
            return [bought[s] + bonus[s] + END_POINT * tp[s] + END_TALENT * money[s] for s in range(len(bought))]
        comp = state["comp"]
        cards = comp["ship_cards"]
        late = _lateness(state)  # 0 at the start, 1 when the last turn is played
        hope = max(0.0, 1.0 - late)  # what only helps buy seats later
        _, price, minimum = cheapest_field(state)
        decades_left = comp["decades"] - state["decade"]
        wanted = {cards[s]["good"] for s in state["dock_s"] if s is not None} | {cards[s]["good"] for s in state["row1"]}
        docks = _docks(state, cards)
        out = []
        for seat in range(len(bought)):
            ready = 1.0 if tp[seat] >= minimum else 0.5
            value = SEAT * (bought[seat] + bonus[seat]) + PATH_SERVANT * state["path"].count(seat) * hope
            value += TALENT * money[seat] * ready * (0.3 + 0.7 * hope) + END_TALENT * money[seat]
            value += TRADE_POINT * min(tp[seat], 6) * (0.4 + 0.6 * hope) + TRADE_POINT_LATE * max(0, tp[seat] - 6) \
                + END_POINT * tp[seat]
            value += TALENT * 0.8 * state["supply"][seat] * decades_left * hope
            storage = sum(0.12 if good in wanted else 0.07 for good in state["store"][seat])
            value += hope * (docks[seat] + storage + _charter(state, seat))
            value += hope * sum(HELD.get(cards[c]["privilege"], 0.0) for c in state["held"][seat])
            value += 0.01 * hope * (state["light"][seat] + state["temple"][seat])
            out.append(value)
        return out

    # ------------------------------------------------------------------ quick choice

    def quick(self, game: Game, state: State, player: str, menu: list[Order], rng: random.Random) -> Order:
        at = _Glance(state, state["players"].index(player))
        best, best_score = menu[0], float("-inf")
        for order in menu:
            score = at.score(order) + rng.random() * 0.6
            if score > best_score:
                best, best_score = order, score
        return best

    def stop(self, start: State, state: State, steps: int) -> bool:
        """Two action rounds on: everyone's next two turns, and a little more."""
        if state["stage"] == "over":
            return True
        return steps >= 2 * len(state["players"]) + 4

    def interlude(self, state: State, player: str) -> bool:
        return False  # another player's small decision never comes in the middle of a turn

    def ends_planning(self, order: Order) -> bool:
        return False  # every decision is asked of one player at a time


POLICY = PortoCarthagoPolicy()


# --------------------------------------------------------------------------- parts of the value


def _lateness(state: State) -> float:
    """How much of the game is played: 0 at the first action, 1 after the last."""
    comp = state["comp"]
    per = comp["actions_per_decade"]
    rounds = (state["decade"] - 1) * per
    if state["act"] is not None:
        rounds += state["act"]["r"] - 1
    elif state["stage"] in ("final_arrival", "final_buy"):  # (lighthouse, arrival, refresh: the decade's start)
        rounds = comp["decades"] * per
    return min(1.0, rounds / (comp["decades"] * per))


def _docks(state: State, cards: dict[str, Any]) -> list[float]:
    """Each player's docks: a ship waiting for a good they hold is nearly a loading; a ship
    waiting for a good in the market is a chance."""
    out = [0.0] * len(state["players"])
    market = state["market"]
    for dock, owner in enumerate(state["dock_o"]):
        if owner is None:
            continue
        ship = state["dock_s"][dock]
        if ship is None:
            out[owner] += 0.05 + (0.05 if state["dock_g"][dock] is not None else 0.0)
            continue
        card = cards[ship]
        reward = TALENT * card["yield"] + TRADE_POINT + TALENT * 2
        if card["good"] in state["store"][owner]:
            out[owner] += 0.7 * reward
        elif card["good"] in market:
            out[owner] += 0.35 * reward
        else:
            out[owner] += 0.15 * reward
    return out


def _charter(state: State, seat: int) -> float:
    """A charter ship with temple servants can ship any good at once (success needs as many
    temple servants as the card's danger)."""
    if seat not in state["charter"]:
        return 0.0
    temple = state["temple"][seat]
    odds = min(1.0, [0.0, 7 / 30, 13 / 30, 19 / 30, 24 / 30, 28 / 30, 1.0][min(temple, 6)])
    return 0.15 + (0.25 * odds if state["store"][seat] else 0.1 * odds)


# --------------------------------------------------------------------------- rules of thumb


class _Glance:
    """What the rules of thumb look at, read once for a whole menu."""

    def __init__(self, state: State, seat: int) -> None:
        self.state, self.seat = state, seat
        comp = state["comp"]
        self.cards = comp["ship_cards"]
        self.names = comp["dock_names"]
        self.slots = comp["action_slots"]
        self.storage = set(state["store"][seat])
        self.market = set(state["market"])
        self.temple = state["temple"][seat]
        self.charter = seat in state["charter"]
        # goods wanted by ships waiting at own docks that hold nothing yet
        self.waiting = {self.cards[state["dock_s"][d]]["good"] for d, owner in enumerate(state["dock_o"])
                        if owner == seat and state["dock_s"][d] is not None and state["dock_g"][d] is None}
        _, price, minimum = cheapest_field(state)
        self.seat_ok = state["tp"][seat] >= minimum and state["money"][seat] >= price and state["supply"][seat] >= 1

    def score(self, order: Order) -> float:
        """How good an order looks without trying it; higher is better."""
        kind, args = order.kind, order.args
        state = self.state
        if kind == "porter":
            target = args.get("to")
            if target == "charter":
                return 5.0 + self.temple if self.temple >= 2 else 1.0
            if target == "storage":
                return 0.2
            good = args.get("good") if args.get("from") == "storage" else self._dock("dock_g", args.get("from"))
            ship = self._dock("dock_s", target)
            return 10.0 if ship is not None and self.cards[ship]["good"] == good else 0.5
        if kind == "side":
            return 9.0 if self.slots[args["slot"] - 1]["side"] == "palace" and self.seat_ok else 0.3
        if kind == "merchant":
            return self._good(args["good"])
        if kind == "loadmaster":
            if args["mode"] != "occupy":
                return 0.1
            ship = self._dock("dock_s", args["dock"])
            if ship is None:
                return 0.4
            want = self.cards[ship]["good"]
            return 7.0 if want in self.storage else 3.5 if want in self.market else 0.8
        if kind == "captain":
            return 3.5 if self.temple >= 2 and self.storage else 0.6
        if kind == "aristocrat":
            if args.get("temple", 0) > 0 and self.charter:
                return 2.5
            return 0.8 if args.get("lighthouse", 0) > 0 else 0.2
        if kind == "dock":
            return self._ship(args["ship"]) + (0.1 if args.get("at") else 0.0)
        if kind == "buy":
            return self._good(args["good"]) - 1.0
        if kind == "intrigue":
            return 0.5 + 0.3 * args["count"]
        if kind == "occupy":
            return 1.0 + (0.5 if args.get("good") else 0.0)
        return _FIXED.get(kind, 0.0)

    def _dock(self, key: str, name: Any) -> Any:
        return self.state[key][self.names.index(name)] if name in self.names else None

    def _good(self, good: str) -> float:
        if good in self.waiting and good not in self.storage:
            return 7.0
        if self.charter and self.temple >= 2 and not self.storage:
            return 2.5
        return 0.4

    def _ship(self, ship: str) -> float:
        """A ship worth docking: one that wants a good waiting at an own dock of its
        civilization, or one the player holds."""
        card = self.cards[ship]
        civ = self.state["comp"]["civilizations"].index(card["civilization"]) * 2
        for dock in (civ, civ + 1):
            if self.state["dock_o"][dock] == self.seat:
                return 3.0 if self.state["dock_g"][dock] == card["good"] or card["good"] in self.storage else 1.5
        return 0.5


_FIXED = {"palace": 11.0, "talents": 1.5, "refill": 0.1, "use": 4.0, "accept": 1.0, "done": 1.0, "expand": 0.8,
          "pass": 0.5, "decline": 0.2}
