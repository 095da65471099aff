"""The opening position (Vorbereitung): bag and market, two ship rows, servants and storage,
the start player, and who places next in the two dock rounds.

Reference: §5.1 (setup) with A1 (players+1 cards a row), A2 (the first dock round optional,
the second compulsory), A3 (no starting money), A9 (the sixth action card) and A40 (four
market goods with three players).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.contract import SetupError
from referee.rng import Rng

from .board import DOCKS, draw_goods, draw_ships, market_size
from .state import State

PURPOSES = ("bag", "deck", "cards", "start")  # one seeded stream for each kind of chance


def check_players(players: Sequence[str], components: Mapping[str, Any]) -> list[str]:
    """Three to five players with different one-word names (they are typed in orders)."""
    names = [str(p) for p in players]
    least, most = components["players"]["min"], components["players"]["max"]
    if not least <= len(names) <= most:
        raise SetupError(f"Porto Carthago needs {least} to {most} players, not {len(names)}")
    if len(set(n.casefold() for n in names)) != len(names):
        raise SetupError("player names must differ")
    for name in names:
        if not name or any(ch.isspace() for ch in name) or "#" in name:
            raise SetupError(f"player name {name!r} must be one word without '#'")
    return names


def new_state(players: Sequence[str], seed: str, options: Mapping[str, Any], components: Mapping[str, Any]) -> State:
    """The position before the first dock round. Randomness comes only from `seed`."""
    names = check_players(players, components)
    count = len(names)
    action_cards = list(components["action_cards"])
    sixth = options.get("sixth_action")
    if sixth is not None:
        # A9: the doubled card is unknown; the option names the action printed twice
        action_cards = list(dict.fromkeys(action_cards)) + [sixth]
    storage = components["storage"]
    state: dict[str, Any] = {
        "game": "porto-carthago",
        "components": {k: components["meta"][k] for k in ("name", "version", "sha256")},
        "players": names,
        "opts": dict(options),
        "action_cards": action_cards,
        "rng": {p: Rng.from_seed(seed, f"porto-carthago/{p}").to_json() for p in PURPOSES},
        "decade": 1,
        "stage": "dock1",
        "sq": 0,
        "n": 0,
        "final": False,
        "money": [components["starting_money"]] * count,
        "tp": [0] * count,
        "supply": [components["servants_per_player"] - storage["initially_blocked"]] * count,
        "blocked": [storage["initially_blocked"]] * count,
        "store": [[] for _ in range(count)],
        "light": [0] * count,
        "temple": [0] * count,
        "dock_o": [None] * DOCKS,
        "dock_g": [None] * DOCKS,
        "dock_s": [None] * DOCKS,
        "charter": [None] * count,
        "slots": [None] * 6,
        "on_card": [[0] * count for _ in range(6)],
        "palace": [None] * len(components["palace_fields"]),
        "big": [0] * count,
        "path": [],
        "market": [],
        "bag": [g for g in components["goods"] for _ in range(components["goods_per_colour"])],
        "bought": 0,
        "row1": [],
        "row2": [],
        "deck": [],
        "held": [[] for _ in range(count)],
        "pending": [],
        "queue": {},
        "act": None,
        "arr": None,
        "comp": components,
    }
    state["market"] = sorted(draw_goods(state, market_size(state)), key=components["goods"].index)
    deck_rng = Rng.from_json(state["rng"]["deck"])
    state["deck"] = deck_rng.shuffled(components["card_order"])
    state["rng"]["deck"] = deck_rng.to_json()
    per_row = count + components["ship_rows_extra"]
    state["row1"] = draw_ships(state, per_row)
    state["row2"] = draw_ships(state, per_row)
    start = options.get("start_player", "random")
    if start == "random":
        rng = Rng.from_json(state["rng"]["start"])
        state["start"] = rng.randbelow(count)
        state["rng"]["start"] = rng.to_json()
    else:
        state["start"] = names.index(start)
    return state  # type: ignore[return-value]


def dock_round_seat(state: State) -> int:
    """Round 1 goes clockwise from the start player, round 2 back from the last player."""
    count = len(state["players"])
    k = state["sq"]
    if state["stage"] == "dock1":
        return (state["start"] + k) % count
    return (state["start"] - 1 - k) % count
