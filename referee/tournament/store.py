"""Where tournaments live: `<data_dir>/tournaments/<name>.json`, one TinyDB file each, and
`ratings.json` beside them (every player's rating after their latest finished tournament).

Each change is a unit of work under the file's lock, written once and atomically with the
storage the games use (referee/storage.py): a crash leaves the tournament as it was before
the command or as it is after, never half of it. A tournament file holds the table
`tournament` (one document: settings, players, rounds and results) and `events` (what the
organiser did and when, appended to).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping

from tinydb import TinyDB

from ..locking import LockTimeout, exclusive
from ..storage import AtomicJSONStorage, CorruptFile
from ..store import GameFileBroken, StoreBusy
from .model import Tournament, check_name

LOCK_TIMEOUT = 30.0
RATINGS = "ratings"


class TournamentNotFound(LookupError):
    """No tournament file under that name."""


class Unit:
    """One unit of work on a tournament file."""

    def __init__(self, db: TinyDB) -> None:
        self._db = db

    def load(self) -> Tournament:
        doc = self._db.table("tournament").get(doc_id=1)
        if doc is None:
            raise TournamentNotFound("the tournament file is empty")
        return Tournament.from_json(doc)

    def save(self, tournament: Tournament) -> None:
        table = self._db.table("tournament")
        table.truncate()
        table.insert(tournament.to_json())

    def log(self, event: Mapping[str, Any]) -> None:
        self._db.table("events").insert(dict(event))

    def events(self) -> list[dict[str, Any]]:
        return [dict(e) for e in self._db.table("events").all()]

    def document(self, table: str) -> dict[str, Any]:
        return dict(self._db.table(table).get(doc_id=1) or {})

    def put_document(self, table: str, doc: Mapping[str, Any]) -> None:
        tbl = self._db.table(table)
        tbl.truncate()
        tbl.insert(dict(doc))


class TournamentStore:
    def __init__(self, data_dir: str | Path, lock_timeout: float | None = None) -> None:
        self.root = Path(data_dir) / "tournaments"
        self.lock_timeout = LOCK_TIMEOUT if lock_timeout is None else lock_timeout

    def path(self, name: str) -> Path:
        problem = check_name(name) if name != RATINGS else None
        if problem:
            raise TournamentNotFound(problem)
        return self.root / f"{name}.json"

    def exists(self, name: str) -> bool:
        return check_name(name) is None and self.path(name).exists()

    def names(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(n[:-5] for n in os.listdir(self.root)
                      if n.endswith(".json") and n[:-5] != RATINGS and check_name(n[:-5]) is None)

    @contextmanager
    def unit(self, name: str, *, create: bool = False) -> Iterator[Unit]:
        """The tournament's file under its lock; written once at the end, and not at all if
        the block raises. Without `create`, a tournament that does not exist is refused."""
        path = self.path(name)
        if not create and not path.exists():
            raise TournamentNotFound(f"no tournament {name!r}; `referee tournament list` shows them")
        self.root.mkdir(parents=True, exist_ok=True)
        try:
            with exclusive(f"{path}.lock", self.lock_timeout):
                db = TinyDB(str(path), storage=AtomicJSONStorage)
                storage: AtomicJSONStorage = db.storage  # type: ignore[assignment]
                try:
                    try:
                        storage.read()
                    except CorruptFile as exc:
                        raise GameFileBroken(f"tournaments/{path.name} {exc.what}"
                                             f"{f' ({exc.where})' if exc.where else ''}: restore it from a backup") \
                            from None
                    yield Unit(db)
                    storage.flush()
                finally:
                    storage.discard()
                    db.close()
        except LockTimeout:
            raise StoreBusy(f"tournaments/{path.name} is locked by another process; try again") from None

    def load(self, name: str) -> Tournament:
        with self.unit(name) as unit:
            return unit.load()


class RatingBook:
    """Every player's rating after their latest finished tournament here, by email address:
    where their next tournament starts them."""

    def __init__(self, store: TournamentStore) -> None:
        self.store = store

    def get(self) -> dict[str, dict[str, Any]]:
        if not self.store.path(RATINGS).exists():
            return {}
        with self.store.unit(RATINGS) as unit:
            return unit.document("players")

    def record(self, tournament: str, ratings: Mapping[str, tuple[float, float]], emails: Mapping[str, str],
               games: Mapping[str, int]) -> None:
        """Take in a finished tournament's ratings (once: a tournament already taken in is left)."""
        with self.store.unit(RATINGS, create=True) as unit:
            done = unit.document("tournaments")
            if tournament in done:
                return
            players = unit.document("players")
            for name, (mu, sigma) in ratings.items():
                key = emails[name].lower()
                before = players.get(key, {})
                players[key] = {"mu": mu, "sigma": sigma, "games": int(before.get("games", 0)) + games.get(name, 0),
                                "tournament": tournament}
            unit.put_document("players", players)
            unit.put_document("tournaments", {**done, tournament: True})
