"""The game position: its typed shape, and the copy `apply` works on.

A state is plain JSON (stored, hashed and replayed as it is), so the shapes below are
`TypedDict`s: they name every key and say which piece of the game it stands for, and cost
nothing at run time. The keys are part of the stored format and never change, short as some
are; what each holds is said next to it in the terms of the rules (the English summary in
the reference, with the German word where a reader of the rulebook would look for it).

Per-player values are lists indexed by seat (clockwise order, `players`). The component data
sits under "comp" and is shared, never changed, between successive states, so copying a state
costs only the small moving part.
"""

from __future__ import annotations

import marshal
from typing import Any, Literal, NotRequired, TypedDict

Stage = Literal["dock1", "dock2", "arrival", "final_arrival", "lighthouse", "refresh", "actions", "final_buy", "over"]


class ActionTurn(TypedDict):
    """The action phase of a decade (state key "act"): five action rounds, each player one
    action a round, clockwise from the start player."""

    r: int  # the action round, 1 to 5 (the action counter)
    i: int  # whose turn: steps clockwise from the start player
    main: bool  # the main action (an action card, TALENTS or REFILL) is taken
    slot: int | None  # the slot whose card was used, 1 to 6 (None for the two alternatives)
    side: bool  # the slot's side action (Nebenaktion) is taken
    end: bool  # the player said DONE


class Arrival(TypedDict):
    """Ships entering the harbour (state key "arr"): the lighthouse (Leuchtturm) players
    choose in order, the first two taking two ships each, the others one."""

    ch: list[int]  # the choosers' seats, most lighthouse servants first
    i: int  # the chooser now
    left: int  # ships the chooser still docks
    fresh: bool  # the chooser has not chosen yet (only then may the leader send a ship away)


class PendingDecision(TypedDict):
    """A small decision some player owes before play goes on (state key "pending").

    `t` says which: "reward" (how many of the trade points gained go onto the intrigue path,
    Intrigepfad), "priv" (take or decline an immediate privilege), "arrange" (put the ship
    cards looked at back in order) or "refill_buy" (the 6-talent buy after a refill).
    """

    t: Literal["reward", "priv", "arrange", "refill_buy"]
    p: int  # the deciding seat
    n: NotRequired[int]  # reward: the trade points gained
    why: NotRequired[str]  # reward: what earned them
    card: NotRequired[str]  # priv, arrange: the ship card whose privilege it is
    cards: NotRequired[list[str]]  # arrange: the cards looked at, top first


class State(TypedDict):
    """A whole position."""

    game: str
    components: dict[str, str]  # name, version and SHA-256 of the component set
    comp: dict[str, Any]  # the component set itself (shared between states, never changed)
    players: list[str]  # in seat order, clockwise
    opts: dict[str, Any]  # the options chosen
    action_cards: list[str]  # the six action cards (Aktionskarten)
    rng: dict[str, dict[str, Any]]  # seeded random streams: bag, deck, cards, start
    decade: int  # 1 to 5 (Dekade)
    stage: Stage
    sq: int  # who is next in a round taken one by one (the dock rounds, the final seat)
    n: int  # orders carried out: each makes a new phase key
    final: bool  # the game ended with goods in a dock: a last arrival (A30) and the final seat follow
    start: int  # the start player's seat (Startspieler)
    money: list[int]  # talents; secret (A33)
    tp: list[int]  # trade points on the track (Handelspunkte)
    supply: list[int]  # servants in supply (Vorrat)
    blocked: list[int]  # storage spaces still blocked by a servant
    store: list[list[str]]  # goods on the storage card (Lager)
    light: list[int]  # servants in the lighthouse (Leuchtturm)
    temple: list[int]  # servants in the Baal temple (Baaltempel)
    dock_o: list[int | None]  # each dock warehouse (Speicher): the owner's seat
    dock_g: list[str | None]  # the good stored there
    dock_s: list[str | None]  # the ship card docked there
    charter: list[int | None]  # each charter ship (Charterschiff): the occupier's seat
    slots: list[str | None]  # the action card on each of the six slots
    on_card: list[list[int]]  # servants paid onto each slot, by seat
    palace: list[int | None]  # each small palace field: the seat holding it
    big: list[int]  # seats on the big palace field, by seat
    path: list[int]  # the intrigue path (Intrigepfad): seats in the order placed
    market: list[str]  # goods in the market (Marktplatz)
    bag: list[str]  # goods in the bag
    bought: int  # goods bought from the market since it was filled (the 4/3/2 price)
    row1: list[str]  # ship cards of the row entering next
    row2: list[str]  # and of the row behind it
    deck: list[str]  # the face-down ship deck, top first
    held: list[list[str]]  # ship cards kept for their privilege, by seat
    pending: list[PendingDecision]
    queue: dict[str, list[dict[str, Any]]]  # orders players sent ahead, by player
    plans: NotRequired[dict[str, dict[str, list[dict[str, Any]]]]]  # standing answers, by player and part
    act: ActionTurn | None
    arr: Arrival | None


_FLAT_KEYS = tuple(sorted(("money", "tp", "supply", "blocked", "light", "temple", "dock_o", "dock_g", "dock_s",
                           "charter", "slots", "palace", "big", "path", "market", "bag", "row1", "row2", "deck")))
_NESTED_KEYS = tuple(sorted(("store", "on_card", "held")))


def copy_state(state: State) -> State:
    """A deep copy of the moving part, written out per field because states are copied on
    every order; fixed parts (components, players, options) and scalars are shared between
    successive states because nothing ever writes to them."""
    out = dict(state)
    for key in _FLAT_KEYS:
        out[key] = state[key][:]
    for key in _NESTED_KEYS:
        out[key] = [x[:] for x in state[key]]
    out["rng"] = {purpose: stream.copy() for purpose, stream in state["rng"].items()}
    if state["act"] is not None:
        out["act"] = state["act"].copy()
    if state["arr"] is not None:
        arrival = out["arr"] = state["arr"].copy()
        arrival["ch"] = arrival["ch"][:]
    if state["pending"]:
        out["pending"] = marshal.loads(marshal.dumps(state["pending"]))
    else:
        out["pending"] = []
    if state["queue"]:
        out["queue"] = marshal.loads(marshal.dumps(state["queue"]))
    else:
        out["queue"] = {}
    if state.get("plans"):
        out["plans"] = marshal.loads(marshal.dumps(state["plans"]))
    return out  # type: ignore[return-value]
