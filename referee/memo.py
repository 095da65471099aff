"""A memo for the pure lookups the engines and the computer players repeat at position after
position (a line of orders read, a menu's orders, a component set's printed cards): bounded,
and forgetting everything at once when full, which costs nothing while a game runs and keeps a
long-lived process (the daemon, a test worker) from holding every position it ever met."""

from __future__ import annotations

from typing import Any, Hashable


class Memo(dict):  # type: ignore[type-arg]
    """A dict of answers kept by their question; `keep` stores one, emptying the memo first
    when it holds `most` already."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def keep(self, key: Hashable, value: Any) -> Any:
        if len(self) >= self.most:
            self.clear()
        self[key] = value
        return value
