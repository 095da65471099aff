"""What the service sees of a store: a game's unit of work (`GameTransaction`), the store
(`GameStore`), what a stored game looks like, and the errors a store raises.

The service sees only these, so another backend (SQLite, say) can replace TinyDB without
touching it; only the code that builds the running parts (mailer/daemon/wiring.py, the SMTP
process) names the TinyDB store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


class StoreError(Exception):
    """Base for store failures the commands report to the user."""


class GameNotFound(StoreError, LookupError):
    """No game file under that id."""


class GameExists(StoreError):
    """A new game would take an id that a game file already holds."""


class StoreBusy(StoreError):
    """Another process held the lock too long; a temporary failure worth retrying."""


class GameFileBroken(StoreError):
    """A game's file cannot be used: not JSON, the wrong shape, or keys the game needs are
    missing. Only that game stops; the message names the file and what to do."""

    def __init__(self, message: str, game_id: str | None = None) -> None:
        super().__init__(message)
        self.game_id = game_id


@dataclass(frozen=True)
class StoredGame:
    """A read-only picture of one game as stored."""

    id: str
    meta: dict[str, Any]
    state: dict[str, Any]
    events: list[dict[str, Any]]
    snapshots: list[dict[str, Any]]


class GameTransaction(Protocol):
    """One unit of work on one game; everything in it is written together or not at all."""

    game_id: str

    @property
    def meta(self) -> dict[str, Any]: ...

    def set_meta(self, **fields: Any) -> None: ...

    @property
    def state(self) -> dict[str, Any]: ...

    def set_state(self, state: Mapping[str, Any]) -> None: ...

    def events(self, since: int = 0) -> list[dict[str, Any]]: ...

    def append(self, event: Mapping[str, Any]) -> int: ...

    def snapshot(self, key: str, state: Mapping[str, Any]) -> None: ...

    def snapshots(self) -> list[dict[str, Any]]: ...

    def records(self, table: str) -> list[dict[str, Any]]: ...

    def find_record(self, table: str, field: str, value: Any) -> dict[str, Any] | None: ...

    def add_record(self, table: str, record: Mapping[str, Any]) -> int: ...

    def update_record(self, table: str, record_id: int, fields: Mapping[str, Any]) -> None: ...

    def remove_records(self, table: str, record_ids: Sequence[int]) -> None: ...

    def drop_snapshots_after(self, seq: int) -> int: ...


class GameStore(Protocol):
    """Create, load, append, snapshot, list: the whole storage surface of the service."""

    def create(self, game_id: str, meta: Mapping[str, Any], state: Mapping[str, Any],
               events: Sequence[Mapping[str, Any]] = (),
               then: Callable[[GameTransaction], None] | None = None) -> None: ...

    def exists(self, game_id: str) -> bool: ...

    def load(self, game_id: str) -> StoredGame: ...

    def append(self, game_id: str, events: Sequence[Mapping[str, Any]], *,
               state: Mapping[str, Any] | None = None) -> list[int]: ...

    def snapshot(self, game_id: str, key: str, state: Mapping[str, Any]) -> None: ...

    def list(self) -> list[dict[str, Any]]: ...

    def transaction(self, game_id: str): ...  # context manager yielding a GameTransaction

    # games with a wake time and whether it has come (`now` in epoch seconds), so that a tick
    # opens only those; None when the store keeps no wake times
    def wake_due(self, now: float) -> dict[str, bool] | None: ...


def check_game_id(game_id: str) -> str:
    if not GAME_ID.match(game_id or ""):
        raise StoreError(
            f"bad game id {game_id!r}: use lower-case letters, digits and hyphens (at most 64)"
        )
    return game_id


def remember_existing(exists: Callable[[str], bool]) -> Callable[[str], bool]:
    """`exists`, answering from memory for games already seen: games are never removed, and
    the mail path asks about a game several times per mail."""
    known: set[str] = set()

    def remembered(game_id: str) -> bool:
        if game_id in known:
            return True
        found = exists(game_id)
        if found:
            known.add(game_id)
        return found
    return remembered
