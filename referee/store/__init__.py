"""The game store: what the service sees of it (interface.py) and its TinyDB files.
Imports referee's file helpers (storage, locking, wakeups) and TinyDB, nothing of the service."""

from .interface import (GAME_ID, GameExists, GameFileBroken, GameNotFound, GameStore, GameTransaction,
                        StoreBusy, StoredGame, StoreError, check_game_id, remember_existing)
from .tinydb_store import SNAPSHOTS_KEPT, TinyDBStore

__all__ = ["GAME_ID", "SNAPSHOTS_KEPT", "GameExists", "GameFileBroken", "GameNotFound", "GameStore",
           "GameTransaction", "StoreBusy", "StoreError", "StoredGame", "TinyDBStore", "check_game_id",
           "remember_existing"]
