"""Changes to one player's hidden information, game by game, following what each game's
documentation and view say is hidden (docs/constantinopolis.md, docs/porto-carthago.md):
another position that player X cannot tell apart from the real one."""

from __future__ import annotations

import copy
import random
from typing import Any, Callable

from games.constantinopolis.components import BUILTIN

State = dict[str, Any]


def _constantinopolis(state: State, viewer: str, other: str, rng: random.Random) -> State:
    s = copy.deepcopy(state)
    if not s["options"]["public_gold"]:
        s["p"][other]["gold"] += rng.randint(1, 9)
    if len(s["deck"]) > 1:
        rng.shuffle(s["deck"])
    loaded = [(i, j) for i, ship in enumerate(s["p"][other]["ships"]) for j in range(len(ship["cargo"])) if ship["at"]]
    if loaded and s["deck"]:  # a contract on the other's ship at sea swapped with one from the deck
        i, j = rng.choice(loaded)
        k = rng.randrange(len(s["deck"]))
        s["p"][other]["ships"][i]["cargo"][j], s["deck"][k] = s["deck"][k], s["p"][other]["ships"][i]["cargo"][j]
    if other in s["defend"]:
        s["defend"][other] += rng.randint(1, 5)
    duel = (s.get("auction") or {}).get("duel")
    if duel is not None and duel.get("challenger") == other and duel.get("limit") is not None:
        duel["limit"] += rng.randint(1, 5)
    if s["offices"].get("consul") == other and isinstance(s.get("preempt"), list):
        s["preempt"] = [] if s["preempt"] else ["Cura"]
    market = s["market"]
    if market["hidden"] and len(market["future"]) > 1:
        rng.shuffle(market["future"])
    accept = s.get("accept")
    if accept is not None and other not in accept["done"]:  # the other takes back a contract loaded in secret
        p = s["p"][other]
        for ship in p["ships"]:
            if ship["at"] == 0 and ship["cargo"]:
                c = ship["cargo"].pop()
                card = s.get("component_data", BUILTIN)["contracts"][c - 1]
                if card["cargo"] != "passenger":
                    p["goods"][card["cargo"]] += card["amount"]
                p["hand"].append(c)
                break
    if accept is not None:  # offers between others are theirs alone
        for offer in accept["offers"]:
            if viewer not in (offer["from"], offer["to"]):
                offer["give"] = list(offer["give"]) + ["1 gold"]
    return s


def _porto_carthago(state: State, viewer: str, other: str, rng: random.Random) -> State:
    s = copy.deepcopy(state)
    seat = s["players"].index(other)
    s["money"][seat] += rng.randint(1, 9)
    for pile in ("deck", "bag"):
        if len(set(s[pile])) > 1:
            while s[pile] == state[pile]:
                rng.shuffle(s[pile])
    if s["bag"]:  # the bag's contents, not just its order
        goods = sorted(set(s["comp"]["goods"]) - {s["bag"][0]})
        if goods:
            s["bag"][0] = rng.choice(goods)
    for item in s["pending"]:
        if item["t"] == "arrange" and item["p"] == seat and len(item["cards"]) > 1:
            item["cards"] = list(reversed(item["cards"]))
    if s["queue"].get(other):
        s["queue"][other] = s["queue"][other][:-1]
    for stream in s["rng"].values():
        stream["counter"] += rng.randint(1, 50)
    return s


HIDE: dict[str, Callable[[State, str, str, random.Random], State]] = {
    "constantinopolis": _constantinopolis,
    "porto-carthago": _porto_carthago,
}
