"""Worlds a player cannot tell from the real one: a whole position built from one player's
view alone, the hidden parts drawn at random. A computer player searches such worlds, so
what it decides can depend only on what its seat may see.

Hidden from a player (views.py): the others' gold (unless the public-gold option is on), the
contracts on the others' ships at sea (unless the ships_public option is on), the order of
the contract deck and what lies in the discards, the future market pile once it lies face
down, the others' defend limits and standing lists, offers between other players and the
seeded stream. In the accept phase the
others show as before loading; a world where they have loaded nothing yet is one of those
the player cannot tell apart. Everything else is in the view and is copied as it is.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from referee.rng import Rng

from .components import BUILTIN, GOODS
from .state import GameState, new_round_flags

GOLD_SPREAD = 8  # others' hidden gold is drawn within this much of the guess


def sample_world(view: Mapping[str, Any], components: Mapping[str, Any], rng: random.Random,
                 rules_version: str) -> GameState:
    """A position that shows `view["you"]` exactly `view`; the hidden parts drawn with `rng`.
    `components` is the game's component set (public: the game's file names it)."""
    me = view["you"]
    shown = view["players"]
    players = list(shown)
    contracts = components["contracts"]
    known: set[int] = set()
    sheets: dict[str, Any] = {}
    for name in players:
        sheet = _sheet(shown[name])
        sheets[name] = sheet
        known.update(sheet["hand"], sheet["saved"])
        for ship in sheet["ships"]:
            if isinstance(ship["cargo"], list):
                known.update(ship["cargo"])
    pool = [c["id"] for c in contracts if c["id"] not in known]
    rng.shuffle(pool)
    hidden = len(pool) - view["deck"] - view["discard"]
    _fill_hidden_cargo(sheets, components, pool, max(0, hidden), rng)
    discard, deck = pool[:view["discard"]], pool[view["discard"]:view["discard"] + view["deck"]]
    promised = _gold_promised(view)
    for name in players:
        if sheets[name]["gold"] is None:
            sheets[name]["gold"] = max(_guess_gold(view, name, rng), promised.get(name, 0))
    state: dict[str, Any] = {
        "game": "constantinopolis", "rules_version": rules_version, "components": dict(view["components"]),
        "options": dict(view["options"]), "players": players, "round": view["round"], "phase": view["phase"],
        "seq": 0, "offices": dict(view["offices"]), "order": list(view["order"]), "p": sheets,
        "supply": dict(view["supply"]), "publics": list(view["public_buildings"]), "walls": list(view["walls"]),
        "ships": dict(view["ships"]), "deck": deck, "discard": discard,
        "market": _market(view, components, rng), "ability": dict(view["ability"]),
        "preempt": view.get("construct", {}).get("your_preempt_list"), "last_public": view["last_public"],
        "auction": _auction(view), "pretorio": view["offices"]["pretorio"] if view["phase"] == "pretorio" else None,
        "construct": _construct(view), "accept": _accept(view), "donate": _waiting(view, "donate"),
        "store": _waiting(view, "store"), "last_auction_discard": 0, "reshuffles": 0,
        "defend": {me: view["your_defend_limit"]} if "your_defend_limit" in view else {},
        "rng": Rng.from_seed(f"{rng.getrandbits(128):032x}", "constantinopolis").to_json(),
    }
    state.update(_gone(state, components))
    state["flow"] = _flow(state, components)
    if components["sha256"] != BUILTIN["sha256"]:
        state["component_data"] = dict(components)
    return state  # type: ignore[return-value]


def _sheet(shown: Mapping[str, Any]) -> dict[str, Any]:
    """A player sheet from what the view shows of it; another's gold and cargo at sea, where
    hidden, stay open (None, "hidden") for the caller to draw."""
    flags = new_round_flags()
    flags.update({k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
                  for k, v in shown["round"].items()})
    flags["ledger"] = dict(shown["ledger"])
    flags["used"] = list(shown["used"])
    ships = []
    for ship in shown["ships"]:
        # the player's own cargo, and the others' with the ships_public option, come as cards
        cargo = [c["id"] for c in ship["cargo"]] if isinstance(ship["cargo"], list) else "hidden"
        ships.append({"id": ship["id"], "size": ship["size"], "at": ship["at"], "cargo": cargo})
    return {
        "gold": shown["gold"] if shown["gold"] != "hidden" else None, "fame": shown["fame"],
        "goods": dict(shown["goods"]), "buildings": list(shown["buildings"]), "new": list(shown["new"]),
        "public": list(shown["public"]), "walls": list(shown["walls"]), "ships": ships,
        "next_ship": max((s["id"] for s in ships), default=0) + 1, "hand": [c["id"] for c in shown["hand"]],
        "saved": [c["id"] for c in shown["saved"]], "posts": shown["posts"], "dropped": shown["dropped"],
        "removed": shown["removed"], "r": flags,
        "score": {"ships_gold": 0, "ships_fame": 0, "walls_fame": 0, "gold_fame": 0},
    }


TRIES = 20  # draws of the hidden cargo before one that breaks a ship's limits is let through


def _fill_hidden_cargo(sheets: dict[str, Any], components: Mapping[str, Any], pool: list[int], count: int,
                       rng: random.Random) -> None:
    """Put `count` contracts of the pool on the others' ships at sea whose cargo is hidden:
    each such ship carries at least one and none more than it holds or can sail with (the
    real cargo is one such draw, so one exists; a few random tries find one). The pool keeps
    the rest."""
    ships = [s for sheet in sheets.values() for s in sheet["ships"] if s["cargo"] == "hidden"]
    if not ships:
        return
    cards = {c["id"]: c for c in components["contracts"]}
    for attempt in range(TRIES + 1):
        cargo, left = _draw_cargo(ships, cards, components, pool, count, rng, forced=attempt == TRIES)
        if cargo is not None:
            break
        rng.shuffle(pool)
    for ship, numbers in zip(ships, cargo):
        ship["cargo"] = numbers
    pool[:] = left


def _draw_cargo(ships: list[dict[str, Any]], cards: Mapping[int, Any], components: Mapping[str, Any],
                pool: list[int], count: int, rng: random.Random,
                forced: bool) -> tuple[list[list[int]] | None, list[int]]:
    """One draw of `_fill_hidden_cargo`: the cargo of each ship and the pool left, or None
    when the draw breaks a limit (unless `forced`)."""
    cargo: list[list[int]] = [[] for _ in ships]
    left = list(pool)
    order = list(range(len(ships)))
    rng.shuffle(order)

    def fits(k: int, card: Mapping[str, Any]) -> bool:
        ship = ships[k]
        info = components["ships"][ship["size"]]
        voyage = card["voyage"][ship["size"]]
        if voyage is None or voyage < ship["at"] or sum(cards[c]["amount"] for c in cargo[k]) + card["amount"] \
                > info["capacity"]:
            return False
        return card["cargo"] != "passenger" or sum(cards[c]["cargo"] == "passenger" for c in cargo[k]) \
            < info["passengers"]

    for n in range(count):
        targets = [order[n]] if n < len(order) else order
        spot = next(((k, i) for k in targets for i, number in enumerate(left) if fits(k, cards[number])), None)
        if spot is None:
            if not forced:
                return None, pool
            spot = (targets[0], 0)
        cargo[spot[0]].append(left.pop(spot[1]))
    return cargo, left


def _guess_gold(view: Mapping[str, Any], name: str, rng: random.Random) -> int:
    """Another player's gold, which the view hides: near the viewer's own, a little more for
    a player who owns more, spread at random."""
    mine = view["players"][view["you"]]["gold"]
    guess = mine if isinstance(mine, int) else 20
    return max(0, guess + rng.randint(-GOLD_SPREAD, GOLD_SPREAD))


def _gold_promised(view: Mapping[str, Any]) -> dict[str, int]:
    """The gold each player gives in the open offers the view shows: an offer holds what it
    gives, so they have at least that much."""
    out: dict[str, int] = {}
    for offer in view.get("accept", {}).get("offers", []):
        gold = sum(int(item.split()[0]) for item in offer["give"] if item.endswith(" gold"))
        out[offer["from"]] = out.get(offer["from"], 0) + gold
    return out


def _market(view: Mapping[str, Any], components: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """The market piles by card number: the open card last on the current pile, the future
    pile with its next card last (shuffled when it lies face down)."""
    market = view["market"]
    index = {m["name"]: i for i, m in enumerate(components["markets"])}
    current = index[market["current"]]
    if "hidden" in market["future"]:
        rest = [i for i in range(len(components["markets"])) if i != current]
        rng.shuffle(rest)
        future = rest[:len(market["future"])]
    else:
        future = [index[n] for n in reversed(market["future"])]
    below = [i for i in range(len(components["markets"])) if i != current and i not in future]
    return {"current": below + [current], "future": future, "empties": market["empties"],
            "hidden": "hidden" in market["future"]}


def _auction(view: Mapping[str, Any]) -> dict[str, Any] | None:
    shown = view.get("auction")
    if shown is None:
        return None
    duel = dict(shown["duel"]) if shown["duel"] is not None else None
    if duel is not None:
        duel.setdefault("limit", None)  # another challenger's "up to" is theirs alone
    return {"start": list(shown["start"]), "been": list(shown["been_active"]), "active": shown["active"],
            "free": shown["free"], "coins": dict(shown["coins"]), "paid": shown["paid"], "duel": duel}


def _construct(view: Mapping[str, Any]) -> dict[str, Any] | None:
    shown = view.get("construct")
    if shown is None:
        return None
    order = view["order"]
    turn = order.index(shown["turn"]) if shown["turn"] in order else len(order)
    return {"turn": turn, "pending": dict(shown["pending"]) if shown["pending"] else None, "queue": []}


def _accept(view: Mapping[str, Any]) -> dict[str, Any] | None:
    shown = view.get("accept")
    if shown is None:
        return None
    offers = [dict(x) for x in shown["offers"]]
    return {"done": list(shown["done"]), "offers": offers, "next": max((x["id"] for x in offers), default=0) + 1}


def _waiting(view: Mapping[str, Any], phase: str) -> list[str] | None:
    waiting = view.get(f"{phase}_waiting")
    return list(waiting) if waiting is not None else None


def _gone(state: Mapping[str, Any], components: Mapping[str, Any]) -> dict[str, Any]:
    """Tiles out of the game (the drop-out variant): whatever is neither owned nor in supply."""
    count = len(state["players"])
    gone = {}
    for name, info in components["buildings"].items():
        tiles = info["tiles"] if count == 5 else min(info["tiles"], 1 if count == 2 else 2)
        owned = sum(name in state["p"][n]["buildings"] for n in state["players"])
        if tiles - owned - state["supply"][name] > 0:
            gone[name] = tiles - owned - state["supply"][name]
    publics = len(components["public"]) - len(state["publics"]) - sum(len(s["public"]) for s in state["p"].values())
    walls = len(components["walls"]) - len(state["walls"]) - sum(len(s["walls"]) for s in state["p"].values())
    return {"gone": gone, "gone_public": max(0, publics), "gone_walls": max(0, walls)}


def _flow(state: Mapping[str, Any], components: Mapping[str, Any]) -> dict[str, int]:
    """The goods in play, by type (storage and ships), which the rules keep as bookkeeping."""
    cards = {c["id"]: c for c in components["contracts"]}
    flow = {g: 0 for g in GOODS}
    for sheet in state["p"].values():
        for good in GOODS:
            flow[good] += sheet["goods"][good]
        for ship in sheet["ships"]:
            for number in ship["cargo"]:
                if cards[number]["cargo"] != "passenger":
                    flow[cards[number]["cargo"]] += cards[number]["amount"]
    return flow

