"""Production: the production level, the goods a player can produce, phase 3 (Produce Goods)
and phase 5 (Draw Contracts), whose count follows the production level.

Rulebook: "The Produce Goods Phase", "Production Level Advancement" and "The Draw Contracts
Phase" (page 18); the Magister Officiorum's extra cards (Public Offices, page 25); the draw
wall (City Walls, page 28).
"""

from __future__ import annotations

from typing import Any

from referee.contract import Event
from referee.wording import listed, phrase, plural_phrase

from .components import tables
from .draft import writable_sheet
from .state import GOOD_VALUE, GameState, PlayerSheet, components_of, draw_contracts, gain_goods, goods_count, sheet_of


def production_level(sheet: PlayerSheet, components: dict[str, Any]) -> int:
    """The production level: the Ager plus every production building owned (those with an
    output in `tables`)."""
    outputs = tables(components).outputs
    level = 1
    for building in sheet["buildings"]:
        if building in outputs:
            level += 1
    return level


def producible(sheet: PlayerSheet, components: dict[str, Any], *, old_only: bool = False) -> set[str]:
    """Goods types the player's buildings produce; `old_only` leaves out buildings bought
    this round (they neither produce nor block market purchases until the next round)."""
    lookups = tables(components)
    outputs = lookups.outputs
    types = set(lookups.ager)
    new = sheet["new"] if old_only else ()
    for building in sheet["buildings"]:
        out = outputs.get(building)
        if out is not None and building not in new:
            types |= out
    return types


def able_to_produce(state: GameState, sheet: PlayerSheet) -> set[str]:
    """Types that make a player 'able to produce' for commercial buildings, donations, the
    Redemptor and the exchange wall. The Italian option counts only buildings owned since
    the start of the round."""
    return producible(sheet, components_of(state), old_only=bool(state["options"].get("produce_since_round_start")))


def produce(state: GameState, events: list[Event]) -> None:
    """Phase 3: every player gains the goods of the Ager and of each production building."""
    components = components_of(state)
    for name in state["order"]:
        sheet = writable_sheet(state, name)
        got = dict(components["ager"])
        for building in sheet["buildings"]:
            info = components["buildings"][building]
            if info["kind"] == "production":
                for good, k in info["output"].items():
                    got[good] = got.get(good, 0) + k
        for good, k in got.items():
            gain_goods(state, sheet, good, k)
        goods = listed(goods_count(k, good) for good, k in sorted(got.items(), key=lambda x: GOOD_VALUE[x[0]]))
        events.append(Event("produce", phrase("{player} produces {goods}.", player=name, goods=goods),
                            {"player": name, "goods": got}))


def draw_count(state: GameState, name: str) -> int:
    """Contracts a player draws in phase 5: by production level, one per unused trading
    post, three more for the Magister Officiorum, one more with the draw wall."""
    components = components_of(state)
    sheet = sheet_of(state, name)
    count = components["draw_by_level"][min(production_level(sheet, components), 7) - 1]
    count += sheet["posts"] - len(sheet["saved"])
    if state["offices"]["magister"] == name:
        count += components["magister_draw"]
    if "draw" in sheet["walls"]:
        count += 1
    return count


def draw_phase(state: GameState, events: list[Event]) -> None:
    """Phase 5: everyone draws their contracts, in turn order."""
    for name in state["order"]:
        drawn = draw_contracts(state, draw_count(state, name))
        writable_sheet(state, name)["hand"].extend(drawn)
        said = plural_phrase(len(drawn), "{player} draws {n} contract: {contracts}.",
                             "{player} draws {n} contracts: {contracts}.", player=name, contracts=listed(drawn)) \
            if drawn else phrase("{player} draws no contract.", player=name)
        events.append(Event("draw", said, {"player": name, "drawn": drawn}))
