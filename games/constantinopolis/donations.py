"""Phase 7, Donate Goods: everyone at once may give one batch of goods shown in the Current
Market card's donation column, of a type they are able to produce, for its fame.

Rulebook: "The Donate Goods Phase" (page 20). Only players who could donate something are
asked.
"""

from __future__ import annotations

from typing import Any

from referee.contract import Event, Order, Prompt
from referee.wording import Phrase, order_phrase, phrase, term

from . import plan_book
from .draft import writable, writable_sheet
from .production import able_to_produce
from .state import (CANNOT_PRODUCE, GameState, goods_count, illegal, lose_goods, market_card, menu_order, new_phase_key,
                    shared_prompt, sheet_of)


def donations_open_to(state: GameState, name: str) -> list[dict[str, Any]]:
    """The donation column's entries this player could give now."""
    sheet = sheet_of(state, name)
    able = able_to_produce(state, sheet)
    return [d for d in market_card(state)["donations"] if d["good"] in able and sheet["goods"][d["good"]] >= d["count"]]


def start(state: GameState, events: list[Event]) -> None:
    """Only players who could donate are asked; the donation plans of the others lapse."""
    state["phase"] = "donate"
    state["donate"] = [n for n in state["order"] if not state["p"][n]["dropped"] and donations_open_to(state, n)]
    new_phase_key(state)
    plan_book.lapse(state, "donate", events, keep=state["donate"])


# the phase's question, as a prompt asks it and (True) at the start of HELP's sentence
_ASKED = {False: phrase("donate goods shown on the market card, or pass"),
          True: phrase("Donate goods shown on the market card, or pass")}


def prompts(state: GameState) -> list[Prompt]:
    return [shared_prompt(n, "donate", True, ("donate", "pass"), _ASKED[False]) for n in state["donate"]]


def question(state: GameState, player: str, sentence: bool = False) -> Phrase:
    """What the phase asks `player` (a prompt's text); with `sentence`, as the start of a
    sentence (HELP)."""
    return _ASKED[sentence]


def check_order(state: GameState, player: str, order: Order) -> None:
    if player not in state["donate"]:
        raise illegal(phrase("you have nothing to decide in the donation phase"))
    if order.kind == "pass":
        return
    if order.kind != "donate":
        raise illegal(order_phrase("donate <good> or pass"))
    good = order.args["good"]
    entry = next((d for d in market_card(state)["donations"] if d["good"] == good), None)
    if entry is None:
        raise illegal(phrase("the current market takes no {good} donation", good=term(good)))
    if good not in able_to_produce(state, sheet_of(state, player)):
        raise illegal(phrase("you cannot produce {good}", good=term(good)), reason=CANNOT_PRODUCE)
    have = sheet_of(state, player)["goods"][entry["good"]]
    if have < entry["count"]:
        raise illegal(phrase("a donation of {good} needs {count} goods; you have {have}", good=term(entry["good"]),
                             count=entry["count"], have=have) if have else
                      phrase("a donation of {good} needs {count} goods; you have none", good=term(entry["good"]),
                             count=entry["count"]))


def apply_order(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    check_order(state, player, order)
    writable(state, "donate").remove(player)
    if order.kind == "donate":
        entry = next(d for d in market_card(state)["donations"] if d["good"] == order.args["good"])
        sheet = writable_sheet(state, player)
        lose_goods(state, sheet, entry["good"], entry["count"])
        sheet["fame"] += entry["fame"]
        sheet["r"]["donated"] = True
        events.append(Event("donate", phrase("{player} donates {goods} for {fame} fame.", player=player,
                                             goods=goods_count(entry["count"], entry["good"]), fame=entry["fame"]),
                            {"player": player, "good": entry["good"], "fame": entry["fame"]}))
    else:  # said in words, so that a plan's step to pass is a line of its own
        events.append(Event("donate.pass", phrase("{player} donates nothing.", player=player), {"player": player}))


def legal_orders(state: GameState, player: str) -> list[Order]:
    if player not in state["donate"]:
        return []
    return [menu_order("pass")] + [menu_order("donate", ("good", d["good"])) for d in donations_open_to(state, player)]


def default_orders(state: GameState, player: str) -> list[Order]:
    return [Order("pass")] if player in state["donate"] else []
