"""Who plays here, read from the game files for the mail path's defences.

`SeatTokens` answers the SMTP server: is this recipient a game's tokenised reply address with
the player's current token? Mail to such an address has spool room and a sender allowance of
its own that strangers cannot use up. `PlayerAddresses` answers the worker: is this sender a
player of some game here? Strangers get no answer at all, so forged mail cannot turn the
referee into a source of backscatter.

Both read a game file without its lock (files are replaced whole, so a read sees the old file
or the new one) and keep what they read until the file changes. Neither is on the path of
ordinary mail: the server asks only when the spool is nearly full or a sender has reached its
allowance, the worker only for mail it cannot match.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any, Callable

from referee.press import code_audience, is_reply_code
from referee.storage import decode
from referee.tokens import same_token

from .addresses import KnownGames, parse_plus_address

_Signature = tuple[int, int, int]


def _signature(path: str) -> _Signature | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def _seats(path: str) -> list[dict[str, Any]]:
    """A game file's seats; none when it cannot be read (the game is skipped, not trusted)."""
    try:
        with open(path, "rb") as handle:
            data = decode(handle.read())
        seats = data["meta"]["1"]["seats"]
        return [s for s in seats if isinstance(s, dict)]
    except (OSError, ValueError, KeyError, TypeError):
        return []


class SeatTokens:
    def __init__(self, games_dir: str | os.PathLike[str], hostname: str, exists: Callable[[str], bool]) -> None:
        self.games_dir, self.hostname, self.exists = str(games_dir), hostname.lower(), exists
        self._tokens: dict[str, tuple[_Signature, dict[str, str]]] = {}
        self._lock = threading.Lock()

    def valid(self, address: str) -> bool:
        """Whether `address` is `game+player+token@hostname` with the seat's token now, or
        with a reply code of table talk made from it (referee/press.py)."""
        if address.strip().lower().rpartition("@")[2] != self.hostname:
            return False
        parsed = parse_plus_address(address, games=KnownGames(self.exists))
        if parsed is None:
            return False
        game_id, player, token = parsed
        tokens = self._tokens_of(game_id)
        seat_token = tokens.get(player)
        if is_reply_code(token) and seat_token:
            return code_audience(token, seat_token, player, list(tokens)) is not None
        return same_token(token, seat_token)

    def _tokens_of(self, game_id: str) -> dict[str, str]:
        path = f"{self.games_dir}/{game_id}.json"
        signature = _signature(path)
        if signature is None:
            return {}
        with self._lock:
            kept = self._tokens.get(game_id)
        if kept is not None and kept[0] == signature:
            return kept[1]
        tokens = {str(s.get("name")): str(s.get("token")) for s in _seats(path)}
        with self._lock:
            self._tokens[game_id] = (signature, tokens)
        return tokens


class PlayerAddresses:
    """The addresses of every seat of every game, looked at again every REFRESH seconds, and
    after MISS_REFRESH seconds for an address not found (a game may have just been made)."""

    REFRESH, MISS_REFRESH = 30.0, 5.0

    def __init__(self, games_dir: str | os.PathLike[str], clock: Callable[[], float] = time.monotonic) -> None:
        self.games_dir, self.clock = Path(games_dir), clock
        self._files: dict[str, tuple[_Signature, frozenset[str]]] = {}
        self._all: frozenset[str] = frozenset()
        self._read_at = float("-inf")
        self._lock = threading.Lock()

    def __contains__(self, address: object) -> bool:
        if not isinstance(address, str):
            return False
        key = address.strip().lower()
        with self._lock:
            age = self.clock() - self._read_at
            if age >= self.REFRESH or (key not in self._all and age >= self.MISS_REFRESH):
                self._read()
            return key in self._all

    def _read(self) -> None:
        files: dict[str, tuple[_Signature, frozenset[str]]] = {}
        try:
            names = [e.name for e in os.scandir(self.games_dir) if e.name.endswith(".json") and not e.name.startswith(".")]
        except OSError:
            names = []
        for name in names:
            path = f"{self.games_dir}/{name}"
            signature = _signature(path)
            if signature is None:
                continue
            kept = self._files.get(name)
            if kept is not None and kept[0] == signature:
                files[name] = kept
            else:
                files[name] = (signature, frozenset(str(s.get("email", "")).strip().lower() for s in _seats(path)))
        self._files = files
        self._all = frozenset().union(*(emails for _, emails in files.values()))
        self._read_at = self.clock()
