"""The game position as plain JSON data, and the small helpers every phase shares.

`apply` never touches its input. It works on a `Draft`: a shallow copy of the state. A
top-level value is copied the first time it is changed (`w`); a player is replaced by a
`_PlayerDraft` the first time it is changed (`wp`), which copies each of the player's lists
and dicts when first looked up. So an order pays only for the parts it touches. Code that
changes a part takes it through `w`/`wp`; code that only reads uses the state as it is.
`finished` turns the draft back into a plain state, which shares the unchanged parts with
the given one (states are values: nothing changes one in place). `clone` is the full copy,
for callers that want to change a position by hand. The state holds no history, only the
position, so a step costs no more late in the game than early.
"""

from __future__ import annotations

import functools
from typing import Any

from referee.contract import IllegalOrder, Order, Prompt

from .components import GOODS, OFFICES, for_state, tables

GOOD_VALUE = {g: i for i, g in enumerate(GOODS)}  # higher index: more valuable


_NESTED = (dict, list)


def deep_copy(v: Any) -> Any:
    """A deep copy of JSON-native data (dicts, lists, scalars); scalars are shared."""
    t = type(v)
    if t is dict:
        return {k: deep_copy(x) if type(x) in _NESTED else x for k, x in v.items()}
    if t is list:
        return [deep_copy(x) if type(x) in _NESTED else x for x in v]
    return v


# values of a player that are a flat dict or list of scalars, and the layouts of a ship and
# of the per-round flags: copied with one C call per container (a ship or flags with another
# number of keys take the general path)
_FLAT_PARTS = frozenset(("goods", "buildings", "new", "public", "walls", "hand", "saved", "score"))
_SHIP_SIZE = 4  # id, size, at, cargo
_ROUND_SIZE = 11  # built, ledger, used, redemptor, walls_used, ship, ship_paid, post, donated, loaded, redrawn


def _copy_part(key: str, v: Any) -> Any:
    """A deep copy of one value of a player, taking the short way for the layout it knows."""
    t = type(v)
    if t is not dict and t is not list:
        return v
    if key in _FLAT_PARTS:
        return v.copy()
    if key == "ships":
        return [{"id": s["id"], "size": s["size"], "at": s["at"], "cargo": s["cargo"].copy()}
                if len(s) == _SHIP_SIZE else deep_copy(s) for s in v]
    if key == "r" and len(v) == _ROUND_SIZE:
        r = v.copy()
        r["built"] = v["built"].copy()
        r["ledger"] = v["ledger"].copy()
        r["used"] = v["used"].copy()
        r["walls_used"] = v["walls_used"].copy()
        if v["ship"] is not None:
            r["ship"] = v["ship"].copy()
        return r
    return deep_copy(v)


def clone(state: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a state; an embedded component set is shared, never changed."""
    return {k: {n: {x: _copy_part(x, y) for x, y in p.items()} for n, p in v.items()} if k == "p"
            else v if k == "component_data" else deep_copy(v)
            for k, v in state.items()}


class Draft(dict):
    """The position one `apply` (or `drop`) changes; see the module docstring. A value put
    in whole (`st[key] = ...`) is new, so it counts as this draft's own."""

    __slots__ = ("own", "own_players")

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(state)
        self.own: set[str] = set()
        self.own_players: set[str] = set()

    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self, key, value)
        self.own.add(key)


class _PlayerDraft(dict):
    """A player being changed. It starts with the scalars only: every other value is taken
    from the original the first time it is looked up (`__missing__`), lists and dicts as
    copies. So code that changes a player uses subscripts (never `get`, `in`, `del` or
    iteration), and `finished` lays what was looked up over the original, in its key order."""

    __slots__ = ("src",)

    def __missing__(self, key: str) -> Any:
        v = _copy_part(key, self.src[key])
        dict.__setitem__(self, key, v)
        return v

    def settled(self) -> dict[str, Any]:
        out = self.src.copy()
        out.update(self)
        return out


def draft(state: dict[str, Any]) -> Draft:
    return Draft(state)


def finished(st: dict[str, Any]) -> dict[str, Any]:
    """The plain state a draft has become."""
    if type(st) is not Draft:
        return st
    players = st["p"]
    for name in st.own_players:
        if type(players[name]) is _PlayerDraft:
            players[name] = players[name].settled()
    return dict(st)


# top-level values that are scalars or flat dicts/lists of scalars ("p" maps names to players,
# which `wp` copies one by one)
_FLAT_VALUES = frozenset(("options", "components", "players", "offices", "order", "supply", "gone", "publics", "walls",
                          "ships", "deck", "discard", "flow", "ability", "defend", "rng", "donate", "store", "preempt",
                          "p"))


def w(st: dict[str, Any], key: str) -> Any:
    """The value at `key`, ready to be changed: a draft copies it on first use."""
    if type(st) is Draft and key not in st.own:
        v = st[key]
        v = (v.copy() if v is not None else None) if key in _FLAT_VALUES else deep_copy(v)
        dict.__setitem__(st, key, v)
        st.own.add(key)
        return v
    return st[key]


def wp(st: dict[str, Any], name: str) -> dict[str, Any]:
    """Player `name`, ready to be changed: in a draft, a `_PlayerDraft` over the original."""
    if type(st) is Draft and name not in st.own_players:
        players = w(st, "p")
        src = players[name]
        try:  # the scalars every player has, so that reading them costs nothing more
            p = _PlayerDraft(gold=src["gold"], fame=src["fame"], posts=src["posts"], next_ship=src["next_ship"],
                             dropped=src["dropped"], removed=src["removed"])
        except KeyError:
            p = _PlayerDraft()
        p.src = src
        players[name] = p
        st.own_players.add(name)
        return p
    return st["p"][name]


@functools.lru_cache(maxsize=4096)
def prompt(player: str, decision: str, simultaneous: bool, orders: tuple[str, ...], text: str) -> Prompt:
    """A shared `Prompt` (it is immutable) for the prompts that repeat with the same words."""
    return Prompt(player, decision, simultaneous, orders, text)


_MENU_ORDERS: dict[tuple[Any, ...], Order] = {}


def menu_order(kind: str, *args: tuple[str, Any]) -> Order:
    """One shared `Order` per menu entry with scalar arguments (`menu_order("buy", ("good",
    "red"), ("count", 1))`). Orders are values: frozen, compared by value and never changed by
    the engine or the service, so a menu need not build the same one again and again. The
    cache is bounded by the component data (names, ids and small numbers)."""
    key = (kind, args)
    o = _MENU_ORDERS.get(key)
    if o is None:
        o = _MENU_ORDERS[key] = Order(kind, dict(args))
    return o


comp = for_state  # the component set of a state (a plain alias: it is called very often)


def illegal(message: str, suggestion: str | None = None) -> IllegalOrder:
    return IllegalOrder(message, suggestion=suggestion)


def counted(n: int, word: str) -> str:
    """`1 contract`, `3 contracts`: event texts read as sentences."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def pl(st: dict[str, Any], name: str) -> dict[str, Any]:
    return st["p"][name]


def active_players(st: dict[str, Any]) -> list[str]:
    """Players still in the game (the drop-out variant removes some)."""
    return [n for n in st["players"] if not st["p"][n]["dropped"]]


def office_of(st: dict[str, Any], name: str) -> str | None:
    for office, holder in st["offices"].items():
        if holder == name:
            return office
    return None


def holder(st: dict[str, Any], office: str) -> str | None:
    return st["offices"].get(office)


def turn_order(st: dict[str, Any]) -> list[str]:
    """Players by the number of the office they hold (I first); officeless players last."""
    out = [st["offices"][o] for o in OFFICES if st["offices"][o] is not None]
    out += [n for n in st["players"] if n not in out]
    return out


def level(p: dict[str, Any], data: dict[str, Any]) -> int:
    """Production level: Ager plus every production building owned."""
    return 1 + sum(1 for b in p["buildings"] if data["buildings"][b]["kind"] == "production")


def producible(p: dict[str, Any], data: dict[str, Any], *, old_only: bool = False) -> set[str]:
    """Types the player can produce; `old_only` ignores buildings bought this round (they
    neither produce nor block market purchases until the next round)."""
    t = tables(data)
    outputs = t.outputs
    types = set(t.ager)
    new = p["new"] if old_only else ()
    for b in p["buildings"]:
        out = outputs.get(b)
        if out is not None and b not in new:
            types |= out
    return types


def can_produce(st: dict[str, Any], p: dict[str, Any]) -> set[str]:
    """Types that count as 'able to produce' for commercial buildings, donations, the
    Redemptor and the exchange wall. The Italian option counts only buildings owned since
    the start of the round."""
    return producible(p, comp(st), old_only=bool(st["options"].get("produce_since_round_start")))


def goods_total(p: dict[str, Any]) -> int:
    return sum(p["goods"].values())


def gain_goods(st: dict[str, Any], p: dict[str, Any], good: str, n: int) -> None:
    """`p` must come from `wp`."""
    p["goods"][good] += n
    w(st, "flow")[good] += n


def lose_goods(st: dict[str, Any], p: dict[str, Any], good: str, n: int) -> None:
    """`p` must come from `wp`."""
    if p["goods"][good] < n:
        raise illegal(f"you have only {p['goods'][good]} {good}, not {n}")
    p["goods"][good] -= n
    w(st, "flow")[good] -= n


def contract(data: dict[str, Any], cid: int) -> dict[str, Any]:
    return data["contracts"][cid - 1]


def market_card(st: dict[str, Any]) -> dict[str, Any]:
    return comp(st)["markets"][st["market"]["current"][-1]]


def draw_cards(st: dict[str, Any], n: int) -> list[int]:
    """Draw n contracts, reshuffling the discards when the deck runs out."""
    from referee.rng import Rng

    out: list[int] = []
    deck = w(st, "deck")
    for _ in range(n):
        if not deck:
            if not st["discard"]:
                break
            rng = Rng.from_json(st["rng"])
            deck = st["deck"] = rng.shuffled(st["discard"])
            st["rng"] = rng.to_json()
            st["discard"] = []
            st["reshuffles"] += 1
        out.append(deck.pop())
    return out


def new_round_flags() -> dict[str, Any]:
    return {"built": [], "ledger": {}, "used": [], "redemptor": False, "walls_used": [],
            "ship": None, "ship_paid": 0, "post": False, "donated": False, "loaded": False,
            "redrawn": False}


def bump(st: dict[str, Any]) -> None:
    """A new decision opened: a fresh phase key."""
    st["seq"] += 1
