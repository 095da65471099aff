"""When each game may next need the clock, so that `tick` opens only those games.

Without this, every tick (the daemon's, every minute, or cron's `referee tick`) opened every
active game's file to find the few with something due, and its cost grew with the number of
games. Here each game has an empty file `wake/<id>` whose modification time is the earliest
moment a tick could have anything to do for it; a tick lists that directory and opens only
the games whose time has come.

The time is a lower bound, never a guess: a game is opened no later than it would have to
be, and possibly earlier (it is then simply looked at, as before). The store writes it
around each unit of work that changed the game: lowered before the game's file is replaced
and set exactly after, so that a crash in between leaves it early, never late. A game
without a file (made before this existed, or a file lost) is always ticked.
"""

from __future__ import annotations

import os
from pathlib import Path

# Nothing is due until another unit of work says so: 2100-01-01 (a file system that cannot
# keep that time keeps its latest, which is as good).
NEVER = 4102444800.0


class WakeIndex:
    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.dir = Path(root)
        self.dir.mkdir(parents=True, exist_ok=True)

    def _path(self, game_id: str) -> str:
        return f"{self.dir}/{game_id}"

    def get(self, game_id: str) -> float | None:
        try:
            return os.stat(self._path(game_id)).st_mtime
        except FileNotFoundError:
            return None

    def set(self, game_id: str, when: float) -> None:
        path = self._path(game_id)
        try:
            os.utime(path, (when, when))
        except FileNotFoundError:
            with open(path, "wb"):
                pass  # an empty file: only its time matters
            os.utime(path, (when, when))

    def lower(self, game_id: str, when: float) -> None:
        """Make the time at most `when` (the safe side, before a write that may move it)."""
        current = self.get(game_id)
        if current is None or when < current:
            self.set(game_id, when)

    def due(self, now: float) -> dict[str, bool]:
        """Every game with a file, and whether its time has come."""
        with os.scandir(self.dir) as entries:
            return {entry.name: entry.stat().st_mtime <= now for entry in entries if entry.is_file()}
