"""A game's options from what a moderator or a case file gives: checked, converted, listed."""

from __future__ import annotations

from typing import Any, Mapping

from .contract import Game, GameOption, checked_options


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
    """Every option of the game with the given values checked and converted (text as
    `--option key=value` gives it); problems listed."""
    return checked_options(game.options, given, game.name,
                           lambda option, raw: _convert(option, raw) if isinstance(raw, str) else raw)
