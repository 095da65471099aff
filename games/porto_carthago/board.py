"""Shared helpers over the game state: seats, docks, goods, randomness and copying.

The state is plain JSON. Per-player values are lists indexed by seat (clockwise order), and
the component data sits under "comp" and is shared, never changed, between successive states,
so copying a state costs only the small moving part.
"""

from __future__ import annotations

import marshal
from typing import Any

from referee.contract import IllegalOrder, Order
from referee.rng import Rng

State = dict[str, Any]

IMMEDIATE = ("P1", "P5", "P6")
PRIVILEGE_TEXT = {
    "P1": "3 extra talents on loading",
    "P2": "look at the top 3 ship cards and put them back in any order",
    "P3": "load any good at an own dock with a ship",
    "P4": "move up to 3 servants of any colours between temple and lighthouse",
    "P5": "1 extra trade point",
    "P6": "1 servant onto the intrigue path",
    "P7": "buy a palace seat ignoring the trade-point minimum",
    "P8": "let one ship of row 1 enter now",
}


def counted(n: int, word: str) -> str:
    """`1 servant`, `3 servants`: texts read as sentences."""
    return f"{n} {word}{'' if n == 1 else 's'}"


SHARED = frozenset(("comp", "players", "opts", "components", "action_cards", "game"))
_FLAT = frozenset(("money", "tp", "supply", "blocked", "light", "temple", "dock_o", "dock_g", "dock_s", "charter",
                   "slots", "palace", "big", "path", "market", "bag", "row1", "row2", "deck"))
_NESTED = frozenset(("store", "on_card", "held"))


_FLAT_KEYS = tuple(sorted(_FLAT))
_NESTED_KEYS = tuple(sorted(_NESTED))


def copy_state(state: State) -> State:
    """A deep copy of the moving part, written out per field because states are copied on
    every order; fixed parts (components, players, options) and scalars are shared between
    successive states because nothing ever writes to them."""
    out = dict(state)
    for k in _FLAT_KEYS:
        out[k] = state[k][:]
    for k in _NESTED_KEYS:
        out[k] = [x[:] for x in state[k]]
    out["rng"] = {p: r.copy() for p, r in state["rng"].items()}
    if state["act"] is not None:
        out["act"] = state["act"].copy()
    if state["arr"] is not None:
        arr = out["arr"] = state["arr"].copy()
        arr["ch"] = arr["ch"][:]
    if state["pending"]:
        out["pending"] = marshal.loads(marshal.dumps(state["pending"]))
    else:
        out["pending"] = []
    if state["queue"]:
        out["queue"] = marshal.loads(marshal.dumps(state["queue"]))
    else:
        out["queue"] = {}
    return out


_ORDERS: dict[tuple, Order] = {}


def order(kind: str, *pairs: tuple[str, Any]) -> Order:
    """A menu order, built once and shared: menus are rebuilt on every step, orders never change."""
    key = (kind, pairs)
    o = _ORDERS.get(key)
    if o is None:
        if len(_ORDERS) > 200_000:
            _ORDERS.clear()
        o = _ORDERS[key] = Order(kind, dict(pairs))
    return o


def n_players(state: State) -> int:
    return len(state["players"])


def seat_of(state: State, player: str) -> int:
    try:
        return state["players"].index(player)
    except ValueError:
        raise IllegalOrder(f"{player!r} is not playing in this game") from None


def clockwise(state: State, first: int) -> list[int]:
    n = n_players(state)
    return [(first + k) % n for k in range(n)]


# --------------------------------------------------------------------------- docks


def dock_name(state: State, index: int) -> str:
    return state["comp"]["dock_names"][index]


def dock_index(state: State, name: str) -> int:
    return state["comp"]["dock_names"].index(name)


def civ_docks(state: State, civ: str) -> tuple[int, int]:
    i = state["comp"]["civilizations"].index(civ) * 2
    return i, i + 1


def card(state: State, cid: str) -> dict[str, Any]:
    return state["comp"]["ship_cards"][cid]


def own_docks(state: State, seat: int) -> list[int]:
    return [i for i, o in enumerate(state["dock_o"]) if o == seat]


def storage_spaces(state: State, seat: int) -> int:
    return state["comp"]["storage"]["spaces"] - state["blocked"][seat]


def storage_free(state: State, seat: int) -> int:
    return storage_spaces(state, seat) - len(state["store"][seat])


# --------------------------------------------------------------------------- randomness


def draw_goods(state: State, count: int) -> list[str]:
    """Draw up to `count` goods at random from the bag (fewer if it runs dry, A35)."""
    rng = Rng.from_json(state["rng"]["bag"])
    out = []
    bag = state["bag"]
    for _ in range(min(count, len(bag))):
        out.append(bag.pop(rng.randbelow(len(bag))))
    state["rng"]["bag"] = rng.to_json()
    return out


def shuffle_into(state: State, purpose: str, items: list[Any]) -> list[Any]:
    rng = Rng.from_json(state["rng"][purpose])
    out = rng.shuffled(items)
    state["rng"][purpose] = rng.to_json()
    return out


def market_size(state: State) -> int:
    return state["comp"]["market_size"][str(n_players(state))]


def refill_market(state: State, everything: bool) -> None:
    """Fill the market up to its size (or empty it first, for the refill alternative)."""
    if everything:
        state["bag"].extend(state["market"])
        state["market"] = []
    state["market"].extend(draw_goods(state, market_size(state) - len(state["market"])))
    state["market"].sort(key=state["comp"]["goods"].index)
    state["bought"] = 0


def goods_price(state: State) -> int:
    prices = state["comp"]["goods_prices"]
    return prices[min(state["bought"], len(prices) - 1)]


def draw_ships(state: State, count: int) -> list[str]:
    out = state["deck"][:count]
    del state["deck"][:count]
    return out
