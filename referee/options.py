"""A game's options from what a moderator or a case file gives: checked, converted, listed."""

from __future__ import annotations

import difflib
import json
from typing import Any, Mapping

from .contract import Game, GameOption


def _convert(option: GameOption, raw: str) -> Any:
    """Turn `--option key=value` text into the option's type (that of its default)."""
    default = option.default
    if isinstance(default, bool):
        low = raw.strip().lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise ValueError(f"option {option.name} takes true or false, not {raw!r}")
    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"option {option.name} takes a whole number, not {raw!r}") from None
    if isinstance(default, float):
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"option {option.name} takes a number, not {raw!r}") from None
    return raw


def resolve_options(game: Game, given: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Every option of the game with the given values checked and converted; problems listed."""
    known = {o.name: o for o in game.options}
    values = {o.name: o.default for o in game.options}
    problems = []
    for name, raw in given.items():
        option = known.get(name)
        if option is None:
            close = difflib.get_close_matches(name, list(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            listing = ", ".join(known) or "none"
            problems.append(f"{game.name} has no option {name!r}{hint}; options: {listing}")
            continue
        try:
            value = _convert(option, raw) if isinstance(raw, str) else raw
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if option.choices is not None and value not in option.choices:
            choices = ", ".join(json.dumps(c) for c in option.choices)
            problems.append(f"option {name} must be one of {choices}, not {json.dumps(value)}")
            continue
        values[name] = value
    return values, problems
