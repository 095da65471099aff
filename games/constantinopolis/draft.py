"""Copy-on-write drafts: how `apply` changes a position without touching the one it was given.

`apply` works on a `Draft`, a shallow copy of the state. A top-level value is copied the first
time it is changed (`writable`); a player sheet is replaced by a `SheetDraft` the first time
it is changed (`writable_sheet`), which copies each of the sheet's lists and dicts when first
looked up. So an order pays only for the parts it touches. Code that changes a part takes it
through `writable`/`writable_sheet`; code that only reads uses the state as it is. `finished`
turns the draft back into a plain state, which shares the unchanged parts with the given one
(states are values: nothing changes one in place). `clone` is the full copy, for callers that
want to change a position by hand. The state holds no history, only the position, so a step
costs no more late in the game than early.
"""

from __future__ import annotations

from typing import Any

_NESTED = (dict, list)


def deep_copy(value: Any) -> Any:
    """A deep copy of JSON-native data (dicts, lists, scalars); scalars are shared."""
    kind = type(value)
    if kind is dict:
        return {k: deep_copy(x) if type(x) in _NESTED else x for k, x in value.items()}
    if kind is list:
        return [deep_copy(x) if type(x) in _NESTED else x for x in value]
    return value


# values of a player sheet that are a flat dict or list of scalars, and the layouts of a ship
# and of the round's flags: copied with one C call per container (a ship or flags with
# another number of keys take the general path)
_FLAT_PARTS = frozenset(("goods", "buildings", "new", "public", "walls", "hand", "saved", "score"))
_SHIP_SIZE = 4  # id, size, at, cargo
_ROUND_SIZE = 11  # built, ledger, used, redemptor, walls_used, ship, ship_paid, post, donated, loaded, redrawn


def _copy_part(key: str, value: Any) -> Any:
    """A deep copy of one value of a player sheet, taking the short way for the layout it knows."""
    kind = type(value)
    if kind is not dict and kind is not list:
        return value
    if key in _FLAT_PARTS:
        return value.copy()
    if key == "ships":
        return [{"id": s["id"], "size": s["size"], "at": s["at"], "cargo": s["cargo"].copy()}
                if len(s) == _SHIP_SIZE else deep_copy(s) for s in value]
    if key == "r" and len(value) == _ROUND_SIZE:
        flags = value.copy()
        flags["built"] = value["built"].copy()
        flags["ledger"] = value["ledger"].copy()
        flags["used"] = value["used"].copy()
        flags["walls_used"] = value["walls_used"].copy()
        if value["ship"] is not None:
            flags["ship"] = value["ship"].copy()
        return flags
    return deep_copy(value)


def clone(state: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a state; an embedded component set is shared, never changed."""
    return {key: {name: {part: _copy_part(part, v) for part, v in sheet.items()} for name, sheet in value.items()}
            if key == "p" else value if key == "component_data" else deep_copy(value)
            for key, value in state.items()}


class Draft(dict):
    """The position one `apply` (or `drop`) changes; see the module docstring. A value put
    in whole (`state[key] = ...`) is new, so it counts as this draft's own."""

    __slots__ = ("own", "own_sheets")

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(state)
        self.own: set[str] = set()
        self.own_sheets: set[str] = set()

    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self, key, value)
        self.own.add(key)


class SheetDraft(dict):
    """A player sheet being changed. It starts with the scalars only: every other value is
    taken from the original the first time it is looked up (`__missing__`), lists and dicts as
    copies. So code that changes a sheet uses subscripts (never `get`, `in`, `del` or
    iteration), and `finished` lays what was looked up over the original, in its key order."""

    __slots__ = ("original",)

    def __missing__(self, key: str) -> Any:
        value = _copy_part(key, self.original[key])
        dict.__setitem__(self, key, value)
        return value

    def settled(self) -> dict[str, Any]:
        out = self.original.copy()
        out.update(self)
        return out


def draft(state: dict[str, Any]) -> Draft:
    return Draft(state)


def finished(state: dict[str, Any]) -> dict[str, Any]:
    """The plain state a draft has become."""
    if type(state) is not Draft:
        return state
    sheets = state["p"]
    for name in state.own_sheets:
        if type(sheets[name]) is SheetDraft:
            sheets[name] = sheets[name].settled()
    return dict(state)


# top-level values that are scalars or flat dicts/lists of scalars ("p" maps names to player
# sheets, which `writable_sheet` copies one by one)
_FLAT_VALUES = frozenset(("options", "components", "players", "offices", "order", "supply", "gone", "publics", "walls",
                          "ships", "deck", "discard", "flow", "ability", "defend", "rng", "donate", "store", "preempt",
                          "p"))


def writable(state: dict[str, Any], key: str) -> Any:
    """The value at `key`, ready to be changed: a draft copies it on first use."""
    if type(state) is Draft and key not in state.own:
        value = state[key]
        value = (value.copy() if value is not None else None) if key in _FLAT_VALUES else deep_copy(value)
        dict.__setitem__(state, key, value)
        state.own.add(key)
        return value
    return state[key]


def writable_sheet(state: dict[str, Any], name: str) -> dict[str, Any]:
    """Player `name`'s sheet, ready to be changed: in a draft, a `SheetDraft` over the original."""
    if type(state) is Draft and name not in state.own_sheets:
        sheets = writable(state, "p")
        original = sheets[name]
        try:  # the scalars every sheet has, so that reading them costs nothing more
            sheet = SheetDraft(gold=original["gold"], fame=original["fame"], posts=original["posts"],
                               next_ship=original["next_ship"], dropped=original["dropped"],
                               removed=original["removed"])
        except KeyError:
            sheet = SheetDraft()
        sheet.original = original
        sheets[name] = sheet
        state.own_sheets.add(name)
        return sheet
    return state["p"][name]
