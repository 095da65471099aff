"""The game position as plain JSON data, and the small helpers every phase shares.

`apply` never touches its input. It works on a `Draft`: a shallow copy of the state whose
top-level values and players are copied the first time something in them changes (`w`,
`wp`), so an order pays only for the parts it touches. Code that changes a part must take
it through `w`/`wp`; code that only reads uses the state as it is. `clone` is the full copy,
for callers that want to change a position by hand. There is no growing history inside the
state, only the position, so a step costs the same in round 9 as in round 1.
"""

from __future__ import annotations

import functools
import marshal
from typing import Any

from referee.contract import IllegalOrder, Order, Prompt

from .components import GOODS, OFFICES, for_state, tables

GOOD_VALUE = {g: i for i, g in enumerate(GOODS)}  # higher index: more valuable


def deep_copy(v: Any) -> Any:
    """A deep copy of JSON-native data (dicts, lists, scalars)."""
    t = type(v)
    if t is dict:
        return {k: deep_copy(x) for k, x in v.items()}
    if t is list:
        return [deep_copy(x) for x in v]
    return v


def _player(p: dict[str, Any]) -> dict[str, Any]:
    q = p.copy()
    q["goods"] = p["goods"].copy()
    q["buildings"] = p["buildings"].copy()
    q["new"] = p["new"].copy()
    q["public"] = p["public"].copy()
    q["walls"] = p["walls"].copy()
    q["hand"] = p["hand"].copy()
    q["saved"] = p["saved"].copy()
    q["score"] = p["score"].copy()
    q["ships"] = [{"id": s["id"], "size": s["size"], "at": s["at"], "cargo": s["cargo"].copy()} if s.keys() == _SHIP_KEYS
                  else deep_copy(s) for s in p["ships"]]
    r = p["r"]
    if r.keys() != _ROUND_KEYS:
        q["r"] = deep_copy(r)
        return q
    q["r"] = r = r.copy()
    r["built"] = r["built"].copy()
    r["ledger"] = r["ledger"].copy()
    r["used"] = r["used"].copy()
    r["walls_used"] = r["walls_used"].copy()
    if r["ship"] is not None:
        r["ship"] = r["ship"].copy()
    return q


def clone(state: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a state; an embedded component set is shared, never changed."""
    if state.keys() != _TOP_KEYS and state.keys() != _TOP_KEYS_EMBEDDED:
        return _clone_any(state)
    st = state.copy()
    try:
        st["p"] = {n: _player(p) if p.keys() == _PLAYER_KEYS else deep_copy(p) for n, p in state["p"].items()}
        st["options"] = state["options"].copy()
        st["components"] = state["components"].copy()
        st["players"] = state["players"].copy()
        st["offices"] = state["offices"].copy()
        st["order"] = state["order"].copy()
        st["supply"] = state["supply"].copy()
        st["gone"] = state["gone"].copy()
        st["publics"] = state["publics"].copy()
        st["walls"] = state["walls"].copy()
        st["ships"] = state["ships"].copy()
        st["deck"] = state["deck"].copy()
        st["discard"] = state["discard"].copy()
        st["market"] = deep_copy(state["market"])
        st["flow"] = state["flow"].copy()
        st["ability"] = state["ability"].copy()
        st["defend"] = state["defend"].copy()
        st["rng"] = state["rng"].copy()
        for k in ("auction", "construct", "accept", "donate", "store", "preempt"):
            if state[k] is not None:
                st[k] = deep_copy(state[k])
    except KeyError:  # a layout this copy does not know: copy it all
        return _clone_any(state)
    return st


def _clone_any(state: dict[str, Any]) -> dict[str, Any]:
    data = state.get("component_data")
    if data is None:
        return marshal.loads(marshal.dumps(state))
    out = marshal.loads(marshal.dumps({k: v for k, v in state.items() if k != "component_data"}))
    out["component_data"] = data
    return out


# The layout `clone` knows; anything else takes the general path.
_TOP_KEYS = frozenset(("game", "rules_version", "components", "options", "players", "round", "phase", "seq", "offices",
                       "order", "p", "supply", "gone", "gone_public", "gone_walls", "publics", "walls", "ships", "deck",
                       "discard", "market", "flow", "ability", "preempt", "last_public", "auction", "construct",
                       "accept", "donate", "store", "pretorio", "last_auction_discard", "reshuffles", "defend", "rng"))
_TOP_KEYS_EMBEDDED = _TOP_KEYS | {"component_data"}
_PLAYER_KEYS = frozenset(("gold", "fame", "goods", "buildings", "new", "public", "walls", "ships", "next_ship", "hand",
                          "saved", "posts", "dropped", "removed", "r", "score"))
_ROUND_KEYS = frozenset(("built", "ledger", "used", "redemptor", "walls_used", "ship", "ship_paid", "post", "donated",
                         "loaded", "redrawn"))
_SHIP_KEYS = frozenset(("id", "size", "at", "cargo"))


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


def draft(state: dict[str, Any]) -> Draft:
    return Draft(state)


def finished(st: dict[str, Any]) -> dict[str, Any]:
    """The plain state a draft has become."""
    if type(st) is not Draft:
        return st
    if st.own_players:
        players = st["p"]
        for name in st.own_players:
            d = players[name]
            if type(d) is _PlayerDraft:
                p = d.src.copy()
                p.update(d)
                players[name] = p
    return dict(st)


class _PlayerDraft(dict):
    """A player being changed: scalars are here from the start, and each list or dict is
    copied from the original the first time it is looked up (`__missing__`). Only `p[key]`
    fetches a missing part, so code that changes a player uses subscripts, never `get`/`in`
    or iteration; `finished` turns it back into a plain dict in the original key order."""

    __slots__ = ("src",)

    def __missing__(self, key: str) -> Any:
        v = self.src[key]
        if key in _FLAT_PLAYER:
            v = v.copy()
        elif key == "ships":
            v = [{"id": s["id"], "size": s["size"], "at": s["at"], "cargo": s["cargo"].copy()}
                 if s.keys() == _SHIP_KEYS else deep_copy(s) for s in v]
        elif key == "r" and v.keys() == _ROUND_KEYS:
            v = v.copy()
            v["built"] = v["built"].copy()
            v["ledger"] = v["ledger"].copy()
            v["used"] = v["used"].copy()
            v["walls_used"] = v["walls_used"].copy()
            if v["ship"] is not None:
                v["ship"] = v["ship"].copy()
        else:
            v = deep_copy(v)
        dict.__setitem__(self, key, v)
        return v


_FLAT_PLAYER = frozenset(("goods", "buildings", "new", "public", "walls", "hand", "saved", "score"))
_PLAYER_SCALARS = ("gold", "fame", "next_ship", "posts", "dropped", "removed")


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
    """Player `name`, ready to be changed: a draft copies the player on first use."""
    if type(st) is Draft and name not in st.own_players:
        players = w(st, "p")
        src = players[name]
        if src.keys() == _PLAYER_KEYS:
            p = _PlayerDraft(gold=src["gold"], fame=src["fame"], next_ship=src["next_ship"], posts=src["posts"],
                             dropped=src["dropped"], removed=src["removed"])
            p.src = src
        else:
            p = deep_copy(src)
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
    for _ in range(n):
        if not st["deck"]:
            if not st["discard"]:
                break
            rng = Rng.from_json(st["rng"])
            st["deck"] = rng.shuffled(st["discard"])
            st["rng"] = rng.to_json()
            st["discard"] = []
            st["reshuffles"] += 1
        out.append(w(st, "deck").pop())
    return out


def new_round_flags() -> dict[str, Any]:
    return {"built": [], "ledger": {}, "used": [], "redemptor": False, "walls_used": [],
            "ship": None, "ship_paid": 0, "post": False, "donated": False, "loaded": False,
            "redrawn": False}


def bump(st: dict[str, Any]) -> None:
    """A new decision opened: a fresh phase key."""
    st["seq"] += 1
