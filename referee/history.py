"""A game's history as it counts, and the position rebuilt from it.

The store keeps every event ever recorded; an `undo` discards the events after its target
without deleting them. The service (undo), the game log (export and replay) and the tests
read the effective history and rebuild positions the same way, through these functions.
"""

from __future__ import annotations

import hashlib
from typing import Any, Mapping, Sequence

from .contract import Game, Order, State, canonical_json
from .progress import DEFAULT, DROP, ORDER, Position

STATE_EVENTS = (ORDER, DEFAULT, DROP)  # the events that change the state


def effective_events(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The log as it counts: each `undo` discards the events after its target, in order.

    Nothing is removed from the store; this is a view of it. The undo events themselves
    stay in the view, as moderator actions."""
    kept: list[dict[str, Any]] = []
    for event in events:
        if event["type"] == "undo":
            kept = [e for e in kept if e["seq"] <= event["to"]]
        kept.append(dict(event))
    return kept


def rebuild(game: Game, meta: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
            *, parse_text: bool = False) -> tuple[Position, list[tuple[str, State]]]:
    """Recompute the position from setup by replaying the effective steps.

    Returns the position and each phase opening met on the way (key, state), so callers can
    snapshot them. With `parse_text` the canonical text is parsed again (as a log replay
    would) instead of using the stored orders."""
    state = setup_state(game, meta)
    pos = Position.start(game, state)
    openings = [(pos.key, state)]
    for event in effective_events(events):
        kind = event["type"]
        if kind not in STATE_EVENTS:
            continue
        if kind == DROP:
            orders = []
        elif parse_text:
            orders = game.parse(pos.state, event["player"], event["text"])
        else:
            orders = [Order.from_json(o) for o in event["orders"]]
        outcome = pos.submit(event["player"], orders, kind)
        if outcome.resolved:
            openings.append((pos.key, pos.state))
    return pos, openings


def setup_state(game: Game, meta: Mapping[str, Any]) -> State:
    """The opening position. A game stores its components as `load_components` returned them,
    which is the form `setup` takes, not necessarily a form `load_components` reads again."""
    components = meta.get("components")
    return game.setup(list(meta["players"]), meta["seed"], dict(meta["options"]),
                      game.load_components(None) if components is None else components)


def state_hash(state: State) -> str:
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


def components_hash(components: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(dict(components)).encode("utf-8")).hexdigest()
