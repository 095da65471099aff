"""The opening position: bag and market, two ship rows, servants, start player, dock rounds."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.contract import SetupError
from referee.rng import Rng

from .board import State, draw_goods, draw_ships, market_size

PURPOSES = ("bag", "deck", "cards", "start")


def check_players(players: Sequence[str], comp: Mapping[str, Any]) -> list[str]:
    names = [str(p) for p in players]
    lo, hi = comp["players"]["min"], comp["players"]["max"]
    if not lo <= len(names) <= hi:
        raise SetupError(f"Porto Carthago needs {lo} to {hi} players, not {len(names)}")
    if len(set(n.casefold() for n in names)) != len(names):
        raise SetupError("player names must differ")
    for n in names:
        if not n or any(ch.isspace() for ch in n) or "#" in n:
            raise SetupError(f"player name {n!r} must be one word without '#'")
    return names


def new_state(players: Sequence[str], seed: str, options: Mapping[str, Any], comp: Mapping[str, Any]) -> State:
    names = check_players(players, comp)
    n = len(names)
    action_cards = list(comp["action_cards"])
    sixth = options.get("sixth_action")
    if sixth is not None:
        # A9: the doubled card is unknown; the option names the action printed twice
        action_cards = list(dict.fromkeys(action_cards)) + [sixth]
    state: State = {
        "game": "porto-carthago",
        "components": {k: comp["meta"][k] for k in ("name", "version", "sha256")},
        "players": names,
        "opts": dict(options),
        "action_cards": action_cards,
        "rng": {p: Rng.from_seed(seed, f"porto-carthago/{p}").to_json() for p in PURPOSES},
        "decade": 1,
        "stage": "dock1",
        "sq": 0,
        "n": 0,
        "final": False,
        "money": [comp["starting_money"]] * n,
        "tp": [0] * n,
        "supply": [comp["servants_per_player"] - comp["storage"]["initially_blocked"]] * n,
        "blocked": [comp["storage"]["initially_blocked"]] * n,
        "store": [[] for _ in range(n)],
        "light": [0] * n,
        "temple": [0] * n,
        "dock_o": [None] * 12,
        "dock_g": [None] * 12,
        "dock_s": [None] * 12,
        "charter": [None] * n,
        "slots": [None] * 6,
        "on_card": [[0] * n for _ in range(6)],
        "palace": [None] * len(comp["palace_fields"]),
        "big": [0] * n,
        "path": [],
        "market": [],
        "bag": [g for g in comp["goods"] for _ in range(comp["goods_per_colour"])],
        "bought": 0,
        "row1": [],
        "row2": [],
        "deck": [],
        "held": [[] for _ in range(n)],
        "pending": [],
        "queue": {},
        "act": None,
        "arr": None,
        "comp": comp,
    }
    state["market"] = sorted(draw_goods(state, market_size(state)), key=comp["goods"].index)
    deck_rng = Rng.from_json(state["rng"]["deck"])
    state["deck"] = deck_rng.shuffled(comp["card_order"])
    state["rng"]["deck"] = deck_rng.to_json()
    per_row = n + comp["ship_rows_extra"]
    state["row1"] = draw_ships(state, per_row)
    state["row2"] = draw_ships(state, per_row)
    start = options.get("start_player", "random")
    if start == "random":
        rng = Rng.from_json(state["rng"]["start"])
        state["start"] = rng.randbelow(n)
        state["rng"]["start"] = rng.to_json()
    else:
        state["start"] = names.index(start)
    return state


def dock_round_seat(state: State) -> int:
    """Round 1 goes clockwise from the start player, round 2 back from the last player."""
    n = len(state["players"])
    k = state["sq"]
    if state["stage"] == "dock1":
        return (state["start"] + k) % n
    return (state["start"] - 1 - k) % n
