"""The game store: what the service sees of it (interface.py) and its TinyDB files.
Imports referee's file helpers (storage, locking, wakeups) and TinyDB, nothing of the service."""

from .interface import (GAME_ID, GameExists, GameFileBroken, GameNotFound, GameStore, GameTransaction,
                        StoreBusy, StoredGame, StoreError, check_game_id, remember_existing)


def __getattr__(name: str) -> object:
    """TinyDB and the file lock are imported with the first use of the TinyDB store, not with
    the interface: a process that only names the store's errors (`referee --help`, the
    command line's error handling) does without them."""
    if name in ("SNAPSHOTS_KEPT", "TinyDBStore"):
        from . import tinydb_store
        return getattr(tinydb_store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GAME_ID", "SNAPSHOTS_KEPT", "GameExists", "GameFileBroken", "GameNotFound", "GameStore",
           "GameTransaction", "StoreBusy", "StoreError", "StoredGame", "TinyDBStore", "check_game_id",
           "remember_existing"]
