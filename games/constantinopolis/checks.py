"""Invariants of a sound position, checked after every step of the random playthroughs and on
replay: no debts, no overloaded ship, and every good, contract card, building tile, wall
segment and ship accounted for exactly once.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .components import GOODS, SIZES, per_set
from .plan_parts import PARTS, SHIP
from .setup import tiles_in_play
from .state import GameState, PlayerSheet, components_of, contract_card


def check(state: GameState) -> list[str]:
    """Every problem found, or nothing for a sound position."""
    components = components_of(state)
    out: list[str] = []
    for name in state["players"]:
        out += _sheet_problems(name, state["p"][name], components)
    out += _goods_conserved(state, components)
    out += _contracts_conserved(state, components)
    out += _pieces_conserved(state, components)
    holders = [h for h in state["offices"].values() if h is not None]
    if len(set(holders)) != len(holders):
        out.append("a player holds two offices")
    for name in state["order"]:
        if state["p"][name]["removed"]:
            out.append(f"{name} left the game and his pieces are gone, but he is in the turn order")
    if state["phase"] not in ("auction",):
        for name in state["players"]:
            if not state["p"][name]["dropped"] and name not in holders:
                out.append(f"{name} holds no office after the auction")
    return out + _plans(state)


def _plans(state: GameState) -> list[str]:
    """Plans belong to players, name known parts and hold lines of orders of those parts;
    the ship alternatives live only while contracts are accepted."""
    out = []
    for name, parts in (state.get("plans") or {}).items():
        if name not in state["p"] or not parts:
            out.append(f"a plan for {name!r}, who is not playing or has none")
            continue
        for part, lines in parts.items():
            if part == SHIP:
                if state["phase"] != "accept" or not lines or any(s not in SIZES for s in lines):
                    out.append(f"{name}'s ship alternatives are out of place")
            elif part not in PARTS or not lines or any(not line["alts"] or any(
                    a["kind"] not in PARTS[part] for a in line["alts"]) for line in lines):
                out.append(f"{name}'s plan part {part!r} is malformed")
    return out


def _sheet_problems(name: str, sheet: PlayerSheet, components: dict[str, Any]) -> list[str]:
    out = []
    if sheet["gold"] < 0:
        out.append(f"{name} has negative gold {sheet['gold']}")
    for good in GOODS:
        if sheet["goods"][good] < 0:
            out.append(f"{name} has negative {good}")
    if len(set(sheet["buildings"])) != len(sheet["buildings"]):
        out.append(f"{name} owns two buildings with the same name")
    for ship in sheet["ships"]:
        cargo = sum(contract_card(components, c)["amount"] for c in ship["cargo"])
        if cargo > components["ships"][ship["size"]]["capacity"]:
            out.append(f"{name}'s ship {ship['id']} is overloaded")
    if sheet["posts"] - len(sheet["saved"]) < 0:
        out.append(f"{name} saves more contracts than trading posts")
    return out


def _goods_conserved(state: GameState, components: dict[str, Any]) -> list[str]:
    """What is in play (in storage and on ships) equals what was created minus what was destroyed."""
    in_play = dict.fromkeys(GOODS, 0)
    cards = components["contracts"]  # card n is cards[n - 1] (`contract_card`)
    for name in state["players"]:
        sheet = state["p"][name]
        goods = sheet["goods"]
        for good in GOODS:
            in_play[good] += goods[good]
        for ship in sheet["ships"]:
            for number in ship["cargo"]:
                card = cards[number - 1]
                if card["cargo"] != "passenger":
                    in_play[card["cargo"]] += card["amount"]
    flow = state["flow"]
    return [f"{g} goods not conserved: {in_play[g]} in play, {flow[g]} accounted"
            for g in GOODS if in_play[g] != flow[g]]


@per_set
def _all_cards(components: dict[str, Any]) -> list[int]:
    """Every contract card's number, in order: what the deck, discards and sheets hold together."""
    return list(range(1, len(components["contracts"]) + 1))


def _contracts_conserved(state: GameState, components: dict[str, Any]) -> list[str]:
    """Each contract card exactly once: deck, discards, hands, trading posts, ships."""
    cards = state["deck"] + state["discard"]
    for name in state["players"]:
        sheet = state["p"][name]
        cards += sheet["hand"]
        cards += sheet["saved"]
        for ship in sheet["ships"]:
            cards += ship["cargo"]
    if sorted(cards) != _all_cards(components):
        duplicates = [c for c, k in Counter(cards).items() if k > 1]
        return [f"contract cards not conserved: {len(cards)} found, duplicates {duplicates[:5]}"]
    return []


def _pieces_conserved(state: GameState, components: dict[str, Any]) -> list[str]:
    """Buildings owned never exceed the tiles put in play; public tiles, wall segments and
    ships are all somewhere."""
    out = []
    players = state["players"]
    sheets = [state["p"][n] for n in players]
    owned: dict[str, int] = {}
    for sheet in sheets:
        for b in sheet["buildings"]:
            owned[b] = owned.get(b, 0) + 1
    supply, gone = state["supply"], state["gone"]
    count = len(players)
    for building, info in components["buildings"].items():
        tiles = tiles_in_play(info["tiles"], count)
        if supply[building] < 0:
            out.append(f"negative supply of {building}")
        mine = owned.get(building, 0)
        if mine + supply[building] + gone.get(building, 0) != tiles:
            out.append(f"{building}: {mine} owned + {supply[building]} in supply != {tiles} tiles")
    publics = sum(len(sheet["public"]) for sheet in sheets)
    if publics + len(state["publics"]) + state["gone_public"] != len(components["public"]):
        out.append("public building tiles not conserved")
    walls = sum(len(sheet["walls"]) for sheet in sheets)
    if walls + len(state["walls"]) + state["gone_walls"] != len(components["walls"]):
        out.append("wall segments not conserved")
    ships = dict.fromkeys(SIZES, 0)
    for sheet in sheets:
        for ship in sheet["ships"]:
            if ship["size"] in ships:
                ships[ship["size"]] += 1
    for size in SIZES:
        mine = ships[size]
        if state["ships"][size] < 0 or mine + state["ships"][size] > components["ships"][size]["count"]:
            out.append(f"{size} ships: {mine} owned + {state['ships'][size]} in supply exceed the box")
    return out
