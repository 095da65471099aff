"""Worlds a player cannot tell from the real one: a whole position built from one player's
view alone, the hidden parts drawn at random. A computer player searches such worlds, so
what it decides can depend only on what its seat may see.

Hidden from a player (reference §5.11, A33): the others' money, the order of the ship deck
(except the cards the player looks at with P2 while arranging them), the order of the goods
in the bag and the seeded streams that draw from them, the orders others queued and their
standing plans. Everything else is in the view, and is copied as it is.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping

from referee.rng import Rng

from .setup import PURPOSES
from .state import State

MONEY_SPREAD = 6  # others' money is drawn within this many talents of the guess


def sample_world(view: Mapping[str, Any], components: Mapping[str, Any], rng: random.Random) -> State:
    """A position that shows its player exactly `view`; the hidden parts drawn with `rng`.

    `components` is the game's component set (public: the game's file names it). Raises
    ValueError for a moderator's view, which hides nothing and needs no sampling.
    """
    players = list(view["players"])
    me = _viewer(view)
    seat = players.index(me)
    count = len(players)
    comp = dict(components)
    names = comp["dock_names"]
    shown = view["players"]
    opts = dict(view["options"])
    action_cards = list(comp["action_cards"])
    if opts.get("sixth_action") is not None:
        action_cards = list(dict.fromkeys(action_cards)) + [opts["sixth_action"]]
    docks = view["docks"]
    dock_o = [None if docks[n]["owner"] is None else players.index(docks[n]["owner"]) for n in names]
    dock_g = [docks[n]["good"] for n in names]
    dock_s = [docks[n]["ship"] for n in names]
    store = [list(shown[p]["storage"]) for p in players]
    market = list(view["market"])
    held = [list(shown[p]["held_cards"]) for p in players]
    pending, peeked = _pending(view, players, seat)
    start = players.index(view["start_player"])
    state: dict[str, Any] = {
        "game": "porto-carthago",
        "components": dict(view["components"]),
        "comp": comp,
        "players": players,
        "opts": opts,
        "action_cards": action_cards,
        "rng": {p: Rng.from_seed(f"{rng.getrandbits(128):032x}", f"porto-carthago/{p}").to_json() for p in PURPOSES},
        "decade": view["decade"],
        "stage": view["stage"],
        "sq": 0,
        "n": 0,
        "final": view["final"],
        "start": start,
        "money": [shown[p]["money"] if i == seat else None for i, p in enumerate(players)],
        "tp": [shown[p]["trade_points"] for p in players],
        "supply": [shown[p]["supply"] for p in players],
        "blocked": [comp["storage"]["spaces"] - shown[p]["storage_spaces"] for p in players],
        "store": store,
        "light": [shown[p]["lighthouse"] for p in players],
        "temple": [shown[p]["temple"] for p in players],
        "dock_o": dock_o,
        "dock_g": dock_g,
        "dock_s": dock_s,
        "charter": [None if p is None else players.index(p) for p in view["charters"]],
        "slots": [s["card"] for s in view["slots"]],
        "on_card": [[s["servants"].get(p, 0) for p in players] for s in view["slots"]],
        "palace": [None if p is None else players.index(p) for p in view["palace"]],
        "big": [view["palace_big_field"].get(p, 0) for p in players],
        "path": [players.index(p) for p in view["intrigue_path"]],
        "market": market,
        "bag": _bag(comp, market, store, dock_g, rng),
        "bought": list(comp["goods_prices"]).index(view["next_goods_price"]),
        "row1": list(view["row1"]),
        "row2": list(view["row2"]),
        "deck": [],
        "held": held,
        "pending": pending,
        "queue": {},
        "act": dict(view["action"]) if view["action"] else None,
        "arr": None,
    }
    arrival = view["arrival"]
    if arrival is not None:
        state["arr"] = {**arrival, "ch": [players.index(p) for p in arrival["ch"]]}
    seen = set(state["row1"]) | set(state["row2"]) | {s for s in dock_s if s is not None} \
        | {c for cards in held for c in cards} | {i["card"] for i in pending if i["t"] == "arrange"}
    unseen = [c for c in comp["card_order"] if c not in seen and c not in peeked]
    rng.shuffle(unseen)
    state["deck"] = peeked + unseen
    state["sq"] = _next_in_round(state, view, players)
    state["money"] = [m if m is not None else _guess_money(view, p, rng) for m, p in zip(state["money"], players)]
    return state  # type: ignore[return-value]


def _viewer(view: Mapping[str, Any]) -> str:
    """The player whose view this is: the one whose money it shows (a moderator sees all)."""
    known = [p for p, shown in view["players"].items() if shown["money"] is not None]
    if len(known) != 1:
        raise ValueError("a world is sampled from one player's view, not the moderator's")
    return known[0]


def _pending(view: Mapping[str, Any], players: list[str], seat: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The small decisions waiting, and the ship cards this player is looking at (the top of
    the deck, in their order); another player's look at the deck stays unknown."""
    out: list[dict[str, Any]] = []
    peeked: list[str] = []
    for item in view["pending"]:
        entry: dict[str, Any] = {"t": item["type"], "p": players.index(item["player"])}
        entry.update({k: item[k] for k in ("n", "why", "card") if k in item})
        if item["type"] == "arrange":
            cards = list(item.get("cards") or [])
            if entry["p"] == seat:
                peeked = cards
            entry["cards"] = cards
        out.append(entry)
    return out, peeked


def _bag(comp: Mapping[str, Any], market: list[str], store: list[list[str]], dock_g: list[str | None],
         rng: random.Random) -> list[str]:
    """Every good not in sight lies in the bag (loaded and shipped goods go back into it)."""
    left = Counter({g: comp["goods_per_colour"] for g in comp["goods"]})
    left.subtract(market)
    for goods in store:
        left.subtract(goods)
    left.subtract(g for g in dock_g if g is not None)
    bag = [g for g in comp["goods"] for _ in range(max(0, left[g]))]
    rng.shuffle(bag)
    return bag


def _next_in_round(state: dict[str, Any], view: Mapping[str, Any], players: list[str]) -> int:
    """Who is next in a round taken one by one (the dock rounds, the final seat), from whom
    the view says the game waits for."""
    waiting = view["waiting_for"]
    if waiting is None or view["pending"]:
        return len(players) if state["stage"] in ("dock1", "dock2", "final_buy") and waiting is None else 0
    seat = players.index(waiting["player"])
    count = len(players)
    if state["stage"] == "dock1":
        return (seat - state["start"]) % count
    if state["stage"] == "dock2":
        return (state["start"] - 1 - seat) % count
    if state["stage"] == "final_buy":
        return (seat - state["start"]) % count
    return 0


def _guess_money(view: Mapping[str, Any], player: str, rng: random.Random) -> int:
    """Another player's money, which the view hides: a guess from what they took in this
    decade (a talent a servant in supply at the income) spread at random."""
    shown = view["players"][player]
    guess = shown["supply"] + 3 * view["decade"]
    return max(0, guess + rng.randint(-MONEY_SPREAD, MONEY_SPREAD))
