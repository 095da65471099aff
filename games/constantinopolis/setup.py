"""The options of a game and its opening position.

Rulebook: "Setup" and "Starting Setup": building tiles by the number of players, public
offices dealt at random, the market cards shuffled into the Current and Future Market, the
contract deck shuffled, each player's sheet with the starting gold, the Ager and a small
ship. The Italian edition's differences are options.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.contract import JSON, GameOption, SetupError, checked_options
from referee.rng import Rng

from . import auction, components as component_data
from .components import GOODS, OFFICES, SIZES
from .flow import advance
from .state import GameState, new_round_flags

OPTIONS = (
    GameOption("public_gold", False, "Everyone sees everyone's gold (the FAQ makes gold private by default).",
               (False, True)),
    GameOption("ships_public", False,
               "FAQ: by the table's agreement everyone sees the contracts loaded on every ship at sea.",
               (False, True)),
    GameOption("free_trade", False, "Optional rule: players trade contracts, goods and gold in the accept phase.",
               (False, True)),
    GameOption("market_reshuffle", "faceup", "Italian edition: the reshuffled future market pile lies face down.",
               ("faceup", "facedown")),
    GameOption("dropout", False, "Italian edition: a player may leave and the game goes on with at least two.",
               (False, True)),
    GameOption("produce_since_round_start", False,
               "Italian edition: only production buildings owned since the start of the round make a player "
               "'able to produce' (commercial buildings, donations, Redemptor, exchange wall).", (False, True)),
    GameOption("taberna_one_type", False,
               "Italian edition reading: with the Taberna a player buys only one of the types he produces each round.",
               (False, True)),
)

MIN_PLAYERS, MAX_PLAYERS = 2, 5



def tiles_in_play(tiles: int, count: int) -> int:
    """A building's tiles put in play for this many players (the rulebook's setup)."""
    return tiles if count == 5 else min(tiles, 1 if count == 2 else 2)

def chosen_options(options: Mapping[str, JSON]) -> dict[str, JSON]:
    """Every option's value: the defaults with the given ones laid over, each checked."""
    chosen, problems = checked_options(OPTIONS, options, "constantinopolis")
    if problems:
        raise SetupError(problems[0])
    return chosen


def new_game(players: Sequence[str], seed: str, options: Mapping[str, JSON], components: Mapping[str, JSON], *,
             game: str, rules_version: str) -> GameState:
    """The opening position, run on to the first decision. Randomness comes only from `seed`."""
    players = list(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SetupError(f"Constantinopolis takes 2 to 5 players, not {len(players)}")
    if len(set(players)) != len(players) or not all(isinstance(n, str) and n.strip() for n in players):
        raise SetupError("player names must be distinct and non-empty")
    chosen = chosen_options(options)
    components = dict(components)
    if "sha256" not in components:
        components = component_data.load(components)
    count = len(players)
    rng = Rng.from_seed(seed, "constantinopolis")
    supply = {name: tiles_in_play(info["tiles"], count) for name, info in components["buildings"].items()}
    seats = rng.shuffled(players)
    offices: dict[str, str | None] = {o: None for o in OFFICES}
    for office, who in zip(OFFICES, seats):
        offices[office] = who
    markets = rng.shuffled(list(range(len(components["markets"]))))
    state: dict[str, Any] = {
        "game": game, "rules_version": rules_version,
        "components": {"name": components["name"], "version": components["version"], "sha256": components["sha256"]},
        "options": chosen, "players": players, "round": 1, "phase": "auction", "seq": 0,
        "offices": offices, "order": seats,
        "p": {}, "supply": supply, "gone": {}, "gone_public": 0, "gone_walls": 0,
        "publics": [t["id"] for t in components["public"]], "walls": [w["id"] for w in components["walls"]],
        "ships": {s: components["ships"][s]["count"] - (count if s == "small" else 0) for s in SIZES},
        "deck": [], "discard": [],
        "market": {"current": markets[:1], "future": markets[1:], "empties": 0, "hidden": False},
        "flow": {g: 0 for g in GOODS}, "ability": {"consul": None, "urbi": None}, "preempt": None,
        "last_public": False, "auction": None, "construct": None, "accept": None, "donate": None,
        "store": None, "pretorio": None, "last_auction_discard": 0, "reshuffles": 0, "defend": {},
    }
    state["deck"] = rng.shuffled([c["id"] for c in components["contracts"]])
    state["rng"] = rng.to_json()
    if components["sha256"] != component_data.BUILTIN["sha256"]:
        state["component_data"] = components
    for name in players:
        state["p"][name] = {"gold": components["start_gold"], "fame": 0, "goods": {g: 0 for g in GOODS},
                            "buildings": [], "new": [], "public": [], "walls": [],
                            "ships": [{"id": 1, "size": "small", "at": 0, "cargo": []}],
                            "next_ship": 2, "hand": [], "saved": [], "posts": 0, "dropped": False, "removed": False,
                            "r": new_round_flags(),
                            "score": {"ships_gold": 0, "ships_fame": 0, "walls_fame": 0, "gold_fame": 0}}
    auction.start(state)
    advance(state, [])
    return state
