"""The whole table for the moderator as plain text (`referee show GAME`): everything, what the
players cannot see included and marked as such.

A game with a layout of its own (`templates/<game>/moderator.txt`) is given every player's
view and the moderator's; any other game is shown as indented rows of the moderator's view,
each value that some player's view does not show alike marked with who cannot see it.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from referee.contract import Game, State
from referee.rendering import has_template, nobreak, render

HIDDEN = "[hidden]"  # the other players do not see it
HIDDEN_ALL = "[hidden from all]"  # no player sees it
LEGEND = (f"{HIDDEN} marks what only its owner sees, {HIDDEN_ALL} what no player sees; "
          "`referee show GAME --as PLAYER` shows one player's view.")
_MISSING = object()


def moderator_layout(game: Game) -> str | None:
    name = str(getattr(game, "name", ""))
    template = f"{name}/moderator.txt"
    return template if name and "/" not in name and has_template(template) else None


def table_text(game: Game, state: State, players: Sequence[str]) -> str:
    """The table for the moderator: the game's own layout, or the generic rows."""
    views = {name: game.view(state, name) for name in players}
    full = game.view(state, None)
    layout = moderator_layout(game)
    if layout is not None and players:
        return render(layout, views=views, full=full, order=_turn_order(full, views, players),
                      titles=dict(getattr(game, "decision_titles", None) or {}), hidden=nobreak(HIDDEN),
                      hidden_all=nobreak(HIDDEN_ALL))  # a mark is never broken over two lines
    return "\n".join(marked_rows(full, views)) + "\n"


def _turn_order(full: Mapping[str, Any], views: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    first = views[players[0]]
    order = first.get("order") if isinstance(first, Mapping) else None
    return list(order) if isinstance(order, list) and set(order) == set(players) else list(players)


def _at(view: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        if isinstance(view, Mapping) and key in view:
            view = view[key]
        elif isinstance(view, list) and isinstance(key, int) and key < len(view):
            view = view[key]
        else:
            return _MISSING
    return view


def _scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _mark(full_value: Any, path: tuple[Any, ...], views: Mapping[str, Any]) -> str:
    """Who does not see this value as the moderator does: nobody missing, some, or all."""
    blind = [name for name, view in views.items() if _at(view, path) != full_value]
    if not blind or not views:
        return ""
    if len(blind) == len(views):
        return f" {HIDDEN_ALL}"
    return f" [hidden from {', '.join(blind)}]"


def marked_rows(full: Mapping[str, Any], views: Mapping[str, Any], path: tuple[Any, ...] = (),
                depth: int = 0) -> list[str]:
    """The moderator's view as indented `label: value` rows, each marked with who cannot see
    it as the moderator does; a list of plain values stays on one line."""
    out = []
    for key, value in full.items():
        here = (*path, key)
        label = "  " * (depth + 1) + str(key).replace("_", " ")
        if isinstance(value, Mapping) and value:
            out.append(f"{label}:")
            out += marked_rows(value, views, here, depth + 1)
        elif isinstance(value, list) and any(isinstance(v, (Mapping, list)) for v in value):
            out.append(f"{label}:")
            for i, item in enumerate(value):
                if isinstance(item, Mapping):
                    out.append("  " * (depth + 2) + f"#{i + 1}:")
                    out += marked_rows(item, views, (*here, i), depth + 2)
                else:
                    shown = ", ".join(_scalar(v) for v in item) if isinstance(item, list) else _scalar(item)
                    out.append("  " * (depth + 2) + f"#{i + 1}: {shown}{_mark(item, (*here, i), views)}")
        elif isinstance(value, list):
            out.append(f"{label}: {', '.join(_scalar(v) for v in value) or 'none'}{_mark(value, here, views)}")
        else:
            shown = "none" if isinstance(value, Mapping) else _scalar(value)
            out.append(f"{label}: {shown}{_mark(value, here, views)}")
    return out
