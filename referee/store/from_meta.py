"""States written without the game's components, which the meta already holds.

A Porto Carthago state carries the game's component values (ship cards, palace fields,
prices) so that its rules can read them. The game file holds the current state and a few
phase snapshots, and each held its own copy of the same values the meta keeps: more than half
of the file's objects, decoded and encoded again by every unit of work. A top-level value of a
state equal to the meta's `components` is written as the field's name instead, with `from_meta:
{key: "components"}` beside the state saying so, and put back in its place when the state is
read. A file written before holds whole states and is read as it is.
"""

from __future__ import annotations

from typing import Any, Mapping

FROM_META = "from_meta"  # in a state's document: which of its keys take which meta field
SHARED_FIELD = "components"  # the meta field a state's values may be taken from


class MissingMetaField(ValueError):
    """A stored state takes a value from a meta field the meta does not have."""


def from_meta(state: Mapping[str, Any], meta: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The state to write, without the values it shares with the meta; and which keys those are."""
    shared_value = meta.get(SHARED_FIELD)
    if not isinstance(shared_value, dict) or not shared_value:
        return dict(state), {}
    stored: dict[str, Any] = {}
    shared: dict[str, str] = {}
    for key, value in state.items():
        if value is shared_value or (type(value) is dict and value == shared_value):
            shared[key] = SHARED_FIELD
            stored[key] = SHARED_FIELD  # keeps the key's place, so the state reads back in its order
        else:
            stored[key] = value
    return stored, shared


def with_meta(stored: Mapping[str, Any], shared: Mapping[str, str] | None, meta: Mapping[str, Any]) -> dict[str, Any]:
    """The whole state: `stored` with the values it takes from the meta put back."""
    if not shared:
        return dict(stored)
    problem = missing_field(shared, meta)
    if problem:
        raise MissingMetaField(problem)
    whole = dict(stored)
    for key, field in shared.items():
        whole[key] = meta[field]
    return whole


def missing_field(shared: Any, meta: Mapping[str, Any]) -> str | None:
    """What is wrong with a stored state's `from_meta` against the meta; None when nothing is."""
    if shared is None:
        return None
    if not isinstance(shared, dict):
        return f"its state's {FROM_META!r} is not a table"
    for key, field in shared.items():
        if field not in meta:
            return f"its state takes {key!r} from the meta's {field!r}, which the meta lacks"
    return None
