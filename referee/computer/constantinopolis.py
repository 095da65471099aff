"""How a computer player judges Constantinopolis (rulebook: "Winning the Game": the most
fame wins, then gold, then goods).

`value` is in points of fame: the fame won, gold (worth a point for every nine or so while
public buildings can still be bought, fifteen at the end), goods (what a contract or a
commercial building makes of them; what the store phase would throw away is worth little),
contracts on the way home, and what the player's pieces promise for the rounds left:
production buildings (their goods, and more contracts drawn), commercial buildings fed by
their own production, utility buildings, ships, trading posts, wall segments (their final
fame and their ability), and the office held until its ability is used.

`quick` is the rule of thumb for play-outs: stay in office or take a good vacant one, load
the best contracts, use commercial buildings, buy a production building while the game is
young and a public one when gold piles up, donate, keep the best good.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from games.constantinopolis.components import GOODS, per_set
from games.constantinopolis.state import components_of

from ..contract import Game, Order, State
from ..memo import Memo

ROUNDS = 9  # at most, when no one buys the last public building (five market cards)
GOOD_WORTH = {"green": 0.35, "blue": 0.4, "red": 0.5, "black": 0.65, "yellow": 0.7}  # a good used well, in fame
GOLD_EARLY, GOLD_LATE = 1 / 12, 1 / 15  # public buildings while they can be bought; the final count
OFFICE_WORTH = {"magister": 0.8, "pretorio": 0.35, "comes": 0.35, "urbi": 0.5, "consul": 0.3}
CONTESTED = 0.5  # an office's worth while the auction may still take it away
DRAW_WORTH = 0.35  # a contract drawn, a round
SHIP_WORTH = 0.12  # a cargo place, a round
UTILITY_WORTH = {"Horreum": 0.25, "Taberna": 0.1, "Mensae": 0.15, "Redemptor": 0.1}
WALL_ABILITY = 0.15  # a segment's ability, a round
END_GOLD, END_GOODS = 0.001, 0.0001  # tie-breaks


class ConstantinopolisPolicy:
    # the greedy look misjudges what a round brings (an office's auction, a building's
    # output): eight orders up to four fame behind its best are played out, not five within 1.5
    close = 4.0  # points of fame
    candidates = 8
    worlds = 8

    # ------------------------------------------------------------------ value

    def value(self, state: State, player: str) -> float:
        """`values` for one player: each player's value reads the position alone, never the
        others' values, so the one asked for is all that is worked out (a greedy turn asks
        for it after every order it tries)."""
        left, over, offices, owed = _round_facts(state)
        return _value(state, components_of(state), player, left, over, offices, owed.get(player, 0))

    def values(self, state: State) -> list[float]:
        components = components_of(state)
        left, over, offices, owed = _round_facts(state)
        return [_value(state, components, name, left, over, offices, owed.get(name, 0)) for name in state["players"]]

    # ------------------------------------------------------------------ quick choice

    def quick(self, game: Game, state: State, player: str, menu: list[Order], rng: random.Random) -> Order:
        components = components_of(state)
        sheet = state["p"][player]
        best, best_score = menu[0], float("-inf")
        for order in menu:
            score = _score(state, components, sheet, player, order) + rng.random() * 0.5
            if score > best_score:
                best, best_score = order, score
        return best

    def stop(self, start: State, state: State, steps: int) -> bool:
        """The round played out (the next auction opens), or the game over."""
        return state["phase"] == "over" or (state["round"] > start["round"] and state["phase"] == "auction")

    def interlude(self, state: State, player: str) -> bool:
        construct = state.get("construct")
        return bool(construct and construct["pending"] and construct["pending"]["buyer"] == player)

    def ends_planning(self, order: Order) -> bool:
        """A trading post or a redraw draws contracts the sampled world cannot know."""
        return order.kind in ("post", "redraw")


POLICY = ConstantinopolisPolicy()


# --------------------------------------------------------------------------- the value


def _round_facts(state: State) -> tuple[int, bool, dict[str, str | None], dict[str, int]]:
    """What every player's value reads alike: the rounds left, whether the game is over, and
    the offices and gold owed as if the auction's duel ended now."""
    over = state["phase"] == "over"
    left = 0 if over or state["last_public"] else max(0, ROUNDS - state["round"])
    return (left, over, *_as_if_settled(state))


def _as_if_settled(state: State) -> tuple[dict[str, str | None], dict[str, int]]:
    """The offices and the gold owed if a duel of the auction ended now: whoever made the
    last bid or raise pays it and holds the office (a bid is paid only when it wins, so a
    position in the middle of a duel is valued as it would end if the other side gave up)."""
    auction = state.get("auction")
    duel = auction.get("duel") if auction else None
    if duel is None:
        return state["offices"], {}
    leader = duel["challenger"] if duel["turn"] == "holder" else duel["holder"]
    offices = dict(state["offices"])
    if leader == duel["challenger"]:  # the holder may then take the challenger's old office for free
        old = next((o for o, holder in offices.items() if holder == leader), None)
        if old is not None:
            offices[old] = duel["holder"]
        offices[duel["office"]] = leader
    return offices, {leader: duel["bid"]}


def _value(state: State, components: dict[str, Any], name: str, left: int, over: bool,
           offices: dict[str, str | None], owed: int) -> float:
    sheet = state["p"][name]
    fame, gold = sheet["fame"], sheet["gold"] - owed
    goods = sheet["goods"]
    if over:
        return fame + END_GOLD * gold + END_GOODS * sum(goods.values())
    phase = state["phase"]
    info = _tables(components)
    early = phase in ("auction", "pretorio")
    gold_worth = GOLD_EARLY if left > 0 or early or phase == "construct" else GOLD_LATE
    value = fame + gold * gold_worth + END_GOLD * gold
    owned = sheet["buildings"]
    keep = components["horreum_limit"] if "Horreum" in owned else components["store_limit"]
    rest = _LEFT_THIS_ROUND.get(phase, 0.0)
    value += _units(goods, keep, 1.0 if left > 0 else rest, rest)
    town = _town(components, info, owned)
    for worth in town.utilities:
        value += worth * left
    productions = left + (1 if early else 0)  # production phases to come
    value += town.output_worth * productions * 0.85  # past five a round, goods are hard to use
    draws = left + (1 if early or phase == "construct" else 0)  # draw phases to come
    per_draw = town.per_draw
    per_draw += sheet["posts"] - len(sheet["saved"]) + (1 if "draw" in sheet["walls"] else 0)
    value += DRAW_WORTH * min(per_draw, 6) * draws
    uses = left + (0 if phase in ("donate", "store") else 1)  # commercial buildings are used once a round
    for gain, fed in town.commercial:
        value += gain * uses * fed
    value += _ships(sheet, info, gold_worth, left, phase)
    walls = len(sheet["walls"])
    value += (components["wall_fame"][walls - 1] if walls else 0.0) + WALL_ABILITY * walls * left
    worth = info["contract"]
    value += 0.5 * sum(worth[c][0] * GOLD_LATE + worth[c][1] for c in sheet["saved"])
    office = next((o for o, holder in offices.items() if holder == name), None)
    if office is not None:
        value += _office(state, office, phase)
    return value


# goods the store phase would throw away are worth what this round can still make of them
_LEFT_THIS_ROUND = {"auction": 0.6, "pretorio": 0.6, "construct": 0.6, "accept": 0.45, "donate": 0.25}
_BY_WORTH = tuple(sorted(GOODS, key=lambda g: -GOOD_WORTH[g]))


@per_set
def _tables(components: dict[str, Any]) -> dict[str, Any]:
    """What the value reads again and again from a component set, worked out once per set:
    each building's kind, output and commercial gain, each contract's gold and fame."""
    buildings = components["buildings"]
    return {
        "ager": dict(components["ager"]), "draw": list(components["draw_by_level"]),
        "kind": {n: b["kind"] for n, b in buildings.items()},
        "output": {n: tuple(b["output"].items()) for n, b in buildings.items() if b["kind"] == "production"},
        "commercial": {n: (tuple(b["input"].items()), max(0.0, b["gold"] * GOLD_EARLY + b["fame"] - 0.7 * sum(
            GOOD_WORTH[g] * k for g, k in b["input"].items())))
            for n, b in buildings.items() if b["kind"] == "commercial"},
        "contract": {c["id"]: (c["gold"], c["fame"], c["voyage"]) for c in components["contracts"]},
        "capacity": {size: min(s["capacity"], 4) for size, s in components["ships"].items()},
    }


class Town(NamedTuple):
    """What a player's buildings are worth apart from the position around them."""

    utilities: tuple[float, ...]  # each utility building's worth a round, in the order owned
    output_worth: float  # a round's production (the Ager's and the production buildings'), by `_units`
    per_draw: int  # contracts drawn a round at the production level the buildings give
    commercial: tuple[tuple[float, float], ...]  # each commercial building's gain a use, and the share
    # of it its owner's own production feeds (1.0, or 0.35 when it does not)


_TOWNS = Memo(50_000)  # far more than the building lists one game's searches meet


def _town(components: dict[str, Any], info: dict[str, Any], owned: list[str]) -> Town:
    """`Town` of a list of buildings, worked out once: a value is asked for after every order
    a search tries, and the buildings change only when one is bought. A pure function of the
    component set and the list (its order too, which the sums follow), so it is shared."""
    key = (components["sha256"], tuple(owned))
    found = _TOWNS.get(key)
    if found is not None:
        return found
    output = dict(info["ager"])
    level = 1
    commercial = []
    utilities = []
    for building in owned:
        kind = info["kind"][building]
        if kind == "production":
            level += 1
            for good, k in info["output"][building]:
                output[good] = output.get(good, 0) + k
        elif kind == "utility":
            utilities.append(UTILITY_WORTH.get(building, 0.1))
        elif kind == "commercial":
            commercial.append(building)
    fed = []
    for building in commercial:
        need, gain = info["commercial"][building]
        fed.append((gain, 1.0 if all(output.get(g, 0) >= k for g, k in need) else 0.35))
    return _TOWNS.keep(key, Town(tuple(utilities), _units(output, 5, 1.0, 0.4),
                                 info["draw"][min(level, len(info["draw"])) - 1], tuple(fed)))


def _units(counts: dict[str, int], first: int, full: float, after: float) -> float:
    """Goods by their worth, the most valuable first: the first `first` of them at `full`
    of their worth, the rest at `after`."""
    total = 0.0
    seen = 0
    for good in _BY_WORTH:
        n = counts.get(good, 0)
        if n:
            top = min(n, max(0, first - seen))
            total += GOOD_WORTH[good] * (top * full + (n - top) * after)
            seen += n
    return total


def _contract_worth(components: dict[str, Any], number: int, gold_worth: float) -> float:
    card = components["contracts"][number - 1]
    return card["gold"] * gold_worth + card["fame"]


def _ships(sheet: dict[str, Any], info: dict[str, Any], gold_worth: float, left: int, phase: str) -> float:
    """Contracts on board come home with their gold and fame (a long voyage begun now earns
    its fame at once); every ship is room for the contracts of the rounds to come."""
    value = 0.0
    worth = info["contract"]
    for ship in sheet["ships"]:
        cargo = ship["cargo"]
        for number in cargo:
            gold, fame, _ = worth[number]
            value += gold * gold_worth + fame
        if cargo and ship["at"] == 0 and phase == "accept":
            size = ship["size"]
            if max(worth[c][2][size] or 1 for c in cargo) >= 2:
                value += 2 if size == "large" else 1
        value += SHIP_WORTH * info["capacity"][ship["size"]] * left
    return value


def _office(state: State, office: str, phase: str) -> float:
    """An office's ability, while this round still holds it; while the auction runs, half of
    it: whoever loses an office bids again, and gold paid there is gone for good."""
    if phase == "auction":
        return CONTESTED * OFFICE_WORTH[office]
    if office == "magister":
        return OFFICE_WORTH[office] if phase in ("auction", "pretorio", "construct") else 0.0
    if office in ("comes", "pretorio"):
        return OFFICE_WORTH[office] if phase == "auction" or (office == "pretorio" and phase == "pretorio") else 0.0
    if office in ("urbi", "consul"):
        used = state["ability"].get(office) is not None
        return 0.0 if used or phase not in ("auction", "pretorio", "construct", "accept") else OFFICE_WORTH[office]
    return 0.0


# --------------------------------------------------------------------------- rules of thumb


def _score(state: State, components: dict[str, Any], sheet: dict[str, Any], player: str, order: Order) -> float:
    kind, args = order.kind, order.args
    left = max(0, ROUNDS - state["round"])
    if kind == "stay":
        return 3.0
    if kind == "take":
        office = args["office"]
        return 2.0 + OFFICE_WORTH.get(office, 0.5)
    if kind == "bid":
        return 1.0 + OFFICE_WORTH.get(args["office"], 0.3) - 0.3 * args.get("gold", 1) if "limit" not in args else -1.0
    if kind == "raise":
        return 0.5 - 0.2 * args["gold"] + (1.5 if sheet["gold"] > 25 else 0.0)
    if kind == "good":
        return GOOD_WORTH[args["good"]]
    if kind == "use":
        return 6.0
    if kind == "build":
        if "public" in args:
            return 4.0 + args["public"] * 0.3 if sheet["gold"] > 35 or left <= 2 else 0.5
        if "wall" in args:
            return 3.0
        b = components["buildings"][args["building"]]
        if b["kind"] == "production":
            return 5.0 - b["cost"] / 10 if left >= 3 else 0.3
        if b["kind"] == "commercial":
            fed = all(g in _made(sheet, components) for g in b["input"])
            return 4.0 if fed and left >= 2 else 0.3
        return 1.0 if left >= 3 else 0.1
    if kind == "load":
        return 8.0 + _contract_worth(components, args["contract"], GOLD_EARLY)
    if kind == "ship":
        return 2.0 if len(sheet["hand"]) >= 3 and sheet["gold"] >= 20 else -1.0
    if kind == "donate":
        return 5.0
    if kind == "keep":
        return sum(GOOD_WORTH[g] for g in args["goods"])
    if kind == "sell":
        return 0.2
    if kind in ("done", "pass", "allow"):
        return 1.0
    return -0.5


def _made(sheet: dict[str, Any], components: dict[str, Any]) -> set[str]:
    made = set(components["ager"])
    for building in sheet["buildings"]:
        b = components["buildings"][building]
        if b["kind"] == "production":
            made |= set(b["output"])
    return made
