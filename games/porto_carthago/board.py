"""Helpers over the board that every part of the rules shares: seats, dock warehouses,
storage, the goods bag and the market, the ship deck, and shared menu orders.

The reference's English summary (§2 glossary, §3.2 board, §5.1 setup) names the pieces; the
German words are Speicher (dock warehouse), Lager (storage), Vorrat (supply), Marktplatz
(market).
"""

from __future__ import annotations

from typing import Any

from referee.contract import IllegalOrder, Order
from referee.memo import Memo
from referee.rng import Rng
from referee.wording import Phrase, phrase

from .state import State, copy_state  # noqa: F401  (copy_state: the report tests take it from here)

DOCKS = 12  # two dock warehouses for each of the six civilizations

# The privileges (Privileg) printed on the ship cards, by the codes of the component data
# (reference §3.1). The three immediate ones are settled when the ship is loaded; the others
# are kept and used once on a later turn of their holder (A23).
EXTRA_TALENTS, PEEK, ANY_GOOD, MOVE_SERVANTS, EXTRA_POINT, PATH_SERVANT, PALACE_SEAT, SHIP_ENTERS = (
    "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8")
IMMEDIATE = (EXTRA_TALENTS, EXTRA_POINT, PATH_SERVANT)
PRIVILEGE_TEXT: dict[str, Phrase] = {
    "P1": phrase("3 extra talents on loading"),
    "P2": phrase("look at the top 3 ship cards and put them back in any order"),
    "P3": phrase("load any good at an own dock with a ship"),
    "P4": phrase("move up to 3 servants of any colours between temple and lighthouse"),
    "P5": phrase("1 extra trade point"),
    "P6": phrase("1 servant onto the intrigue path"),
    "P7": phrase("buy a palace seat ignoring the trade-point minimum"),
    "P8": phrase("let one ship of row 1 enter now"),
}


_MENU_ORDERS = Memo(200_000)


def menu_order(kind: str, *pairs: tuple[str, Any]) -> Order:
    """A menu order, built once and shared: menus are rebuilt on every step, orders never change."""
    key = (kind, pairs)
    order = _MENU_ORDERS.get(key)
    if order is None:
        order = _MENU_ORDERS.keep(key, Order(kind, dict(pairs)))
    return order


# --------------------------------------------------------------------------- seats


def player_count(state: State) -> int:
    return len(state["players"])


def seat_of(state: State, player: str) -> int:
    try:
        return state["players"].index(player)
    except ValueError:
        raise IllegalOrder(phrase("{player!r} is not playing in this game", player=player)) from None


def clockwise(state: State, first: int) -> list[int]:
    """Every seat, clockwise from `first`."""
    count = player_count(state)
    return [(first + k) % count for k in range(count)]


# --------------------------------------------------------------------------- docks and storage


def dock_name(state: State, index: int) -> str:
    """Docks are named after their civilization, I and II (`C2-I`)."""
    return state["comp"]["dock_names"][index]


def dock_index(state: State, name: str) -> int:
    return state["comp"]["dock_names"].index(name)


def civilization_docks(state: State, civilization: str) -> tuple[int, int]:
    """The two dock warehouses where ships of a civilization may dock: I and II."""
    i = state["comp"]["civilizations"].index(civilization) * 2
    return i, i + 1


def ship_card(state: State, card_id: str) -> dict[str, Any]:
    """The printed ship card: civilization, wanted good, yield, danger, privilege."""
    return state["comp"]["ship_cards"][card_id]


def own_docks(state: State, seat: int) -> list[int]:
    return [i for i, owner in enumerate(state["dock_o"]) if owner == seat]


def storage_spaces(state: State, seat: int) -> int:
    """Spaces on the storage card not blocked by a servant."""
    return state["comp"]["storage"]["spaces"] - state["blocked"][seat]


def free_storage(state: State, seat: int) -> int:
    return storage_spaces(state, seat) - len(state["store"][seat])


# --------------------------------------------------------------------------- bag, market, deck


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
    """`items` shuffled by the seeded stream kept for `purpose`."""
    rng = Rng.from_json(state["rng"][purpose])
    out = rng.shuffled(items)
    state["rng"][purpose] = rng.to_json()
    return out


def market_size(state: State) -> int:
    """Six goods in the market, four with three players (A40)."""
    return state["comp"]["market_size"][str(player_count(state))]


def refill_market(state: State, everything: bool) -> None:
    """Fill the market up to its size (or empty it into the bag first, for the refill
    alternative, A34); the goods price starts again at its highest."""
    if everything:
        state["bag"].extend(state["market"])
        state["market"] = []
    state["market"].extend(draw_goods(state, market_size(state) - len(state["market"])))
    state["market"].sort(key=state["comp"]["goods"].index)
    state["bought"] = 0


def goods_price(state: State) -> int:
    """The merchant's price for the next good: 4, then 3, then 2 (A8)."""
    prices = state["comp"]["goods_prices"]
    return prices[min(state["bought"], len(prices) - 1)]


def draw_ships(state: State, count: int) -> list[str]:
    """Ship cards from the top of the deck (fewer if it runs dry, A35)."""
    out = state["deck"][:count]
    del state["deck"][:count]
    return out
