"""Invariants of a sound position, checked after every step of the random playthroughs and on
replay: 18 servants of each colour, 30 goods, 30 ship cards, one item a dock, no debt.
"""

from __future__ import annotations

from collections import Counter

from .board import DOCKS
from .plan_parts import PARTS
from .state import State


def check(state: State) -> list[str]:
    """Every problem found, or nothing for a sound position."""
    components = state["comp"]
    problems = _servants_and_storage(state)
    goods = Counter([*state["bag"], *state["market"], *(g for goods in state["store"] for g in goods),
                     *(g for g in state["dock_g"] if g is not None)])
    if sum(goods.values()) != len(components["goods"]) * components["goods_per_colour"]:
        problems.append(f"{sum(goods.values())} goods in play")
    if any(goods[g] != components["goods_per_colour"] for g in components["goods"]) \
            or set(goods) - set(components["goods"]):
        problems.append(f"goods by colour are off: {dict(goods)}")
    if any(len(state[key]) != DOCKS for key in ("dock_o", "dock_g", "dock_s")):
        problems.append(f"the dock lists are not {DOCKS} long")
    for dock, (owner, good, ship) in enumerate(zip(state["dock_o"], state["dock_g"], state["dock_s"])):
        if good is not None and owner is None:
            problems.append(f"dock {dock} holds a good but has no owner")
        for key, item in (("dock_g", good), ("dock_s", ship)):
            if item is not None and not isinstance(item, str):
                problems.append(f"dock {dock} holds more than one item in {key}")
    ships = state["row1"] + state["row2"] + state["deck"] + [c for c in state["dock_s"] if c is not None] \
        + [c for held in state["held"] for c in held] + [i["card"] for i in state["pending"] if i["t"] == "arrange"]
    if sorted(ships) != sorted(components["card_order"]):
        problems.append(f"ship cards are not all accounted for exactly once ({len(ships)})")
    if len(state["path"]) > components["intrigue_path"]["length"]:
        problems.append("the intrigue path is overfull")
    if len(state["market"]) > 6:
        problems.append("the market is overfull")
    problems += _plans(state)
    return problems


def _plans(state: State) -> list[str]:
    """Plans belong to seated players, name known parts and hold orders of those parts."""
    problems = []
    for player, parts in (state.get("plans") or {}).items():
        if player not in state["players"] or not parts:
            problems.append(f"a plan for {player!r}, who is not playing or has none")
            continue
        for part, answers in parts.items():
            if part not in PARTS or not answers or any(a.get("kind") not in PARTS[part] for a in answers):
                problems.append(f"{player}'s plan part {part!r} is malformed")
    return problems


def _servants_and_storage(state: State) -> list[str]:
    """Each player's servants all somewhere (supply, storage blockers, lighthouse, temple,
    docks, charter ships, action cards, palace, intrigue path); nothing negative; storage
    within its spaces."""
    components = state["comp"]
    problems = []
    for seat, player in enumerate(state["players"]):
        total = (state["supply"][seat] + state["blocked"][seat] + state["light"][seat] + state["temple"][seat]
                 + 2 * state["dock_o"].count(seat) + state["charter"].count(seat)
                 + sum(c[seat] for c in state["on_card"]) + state["palace"].count(seat) + state["big"][seat]
                 + state["path"].count(seat))
        if total != components["servants_per_player"]:
            problems.append(f"{player} has {total} servants, not {components['servants_per_player']}")
        for key in ("supply", "blocked", "light", "temple", "money", "tp"):
            if state[key][seat] < 0:
                problems.append(f"{player} has negative {key}")
        if len(state["store"][seat]) > components["storage"]["spaces"] - state["blocked"][seat]:
            problems.append(f"{player} stores more goods than spaces")
    return problems
