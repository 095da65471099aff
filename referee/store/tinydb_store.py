"""The game store on TinyDB: an append-only event log plus state snapshots, one file per game.

Layout of a data directory::

    index.json          small catalogue: one row per game (id, type, players, status)
    games/<id>.json     the game: meta, current state, events, snapshots, plus any
                        tables the service adds (outbox, submissions)
    games/<id>.json.lock

A unit of work holds the game's file lock, opens TinyDB inside the lock (TinyDB caches
document ids and query results per instance, so a long-lived handle would go stale), and
writes the file once, atomically, when it ends without error. Writing to one game never
rewrites the index unless the game's catalogue row changes, so its cost does not depend on
how many other games exist.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import orjson
from tinydb import TinyDB

from ..locking import LockTimeout, exclusive
from ..storage import AtomicJSONStorage, CorruptFile, LazyTables, WriteStats, check_table, encode, write_atomically
from ..wakeups import WakeIndex
from .from_meta import FROM_META, from_meta, missing_field, with_meta
from .interface import (GAME_ID, GameExists, GameFileBroken, GameNotFound, GameTransaction, StoreBusy, StoredGame,
                        check_game_id)

log = logging.getLogger("referee.store")

INDEX_FIELDS = ("id", "game", "players", "created", "status", "title")
LOCK_TIMEOUT = 30.0
SNAPSHOTS_KEPT = 4
STALE_TEMPORARY_SECONDS = 3600.0  # far longer than any unit of work holds a temporary file


class _TinyTransaction:
    """GameTransaction on an open TinyDB; tables: meta, current, events, snapshots, …"""

    def __init__(self, game_id: str, db: TinyDB) -> None:
        self.game_id = game_id
        self._db = db
        self._meta_changed: set[str] = set()
        self._singles: dict[str, dict[str, Any]] = {}

    # meta and current state live in one document each (doc id 1). A unit of work reads meta
    # a dozen times; the document is looked up once and kept, and every write goes through
    # `_put_single`, which keeps the kept copy in step.

    def _single(self, table: str, read: Callable[[Mapping[str, Any]], dict[str, Any]] = dict) -> dict[str, Any]:
        """The table's document, as `read` makes it of the stored one the first time."""
        doc = self._singles.get(table)
        if doc is None:
            found = self._db.table(table).get(doc_id=1)
            doc = self._singles[table] = read(found) if found is not None else {}
        return dict(doc)

    def _put_single(self, table: str, value: Mapping[str, Any], kept: Mapping[str, Any] | None = None) -> None:
        """Write the table's document; `kept` is what readers get, when not `value` itself."""
        tbl = self._db.table(table)
        tbl.truncate()
        tbl.insert(dict(value))
        self._singles[table] = dict(value if kept is None else kept)

    def _raw_table(self, table: str) -> dict[str, Any]:
        """A table's stored documents by id, as read: no TinyDB document objects made."""
        return (self._db.storage.read() or {}).get(table) or {}

    @property
    def meta(self) -> dict[str, Any]:
        return self._single("meta")

    def set_meta(self, **fields: Any) -> None:
        meta = self.meta
        meta.update(fields)
        self._put_single("meta", meta)
        self._meta_changed.update(fields)

    @property
    def state(self) -> dict[str, Any]:
        return self._single("current", lambda doc: {"state": self._whole(doc)}).get("state", {})

    def set_state(self, state: Mapping[str, Any]) -> None:
        self._put_single("current", self._stored(state), kept={"state": dict(state)})

    def _stored(self, state: Mapping[str, Any], **fields: Any) -> dict[str, Any]:
        """A state as written, in a document with `fields`: see `from_meta`."""
        stored, shared = from_meta(state, self.meta)
        return {**fields, "state": stored, **({FROM_META: shared} if shared else {})}

    def _whole(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        """The state a stored document holds, with what it takes from the meta put back."""
        return with_meta(doc.get("state", {}), doc.get(FROM_META), self.meta)

    def events(self, since: int = 0) -> list[dict[str, Any]]:
        """The events after seq `since`, in order. Read from the stored documents directly:
        a unit of work asks several times for the few events of the last turns, and TinyDB's
        search made a document object of every event of the game each time."""
        raw = self._raw_table("events")
        if since <= 0:
            return [dict(doc) for doc in raw.values()]
        return sorted((dict(doc) for doc in raw.values() if doc.get("seq", 0) > since), key=lambda e: e["seq"])

    def append(self, event: Mapping[str, Any]) -> int:
        table = self._db.table("events")
        seq = len(table) + 1
        doc = dict(event)
        doc["seq"] = seq
        table.insert(doc)
        return seq

    def drop_snapshots_after(self, seq: int) -> int:
        """Forget snapshots taken after event `seq`. Snapshots are a cache of the log; after a
        moderator rollback the later ones describe a history that no longer counts. Events
        themselves are never removed: the rollback is recorded as a new event."""
        snaps = self._db.table("snapshots")
        stale = [doc.doc_id for doc in snaps.all() if doc["seq"] > seq]
        snaps.remove(doc_ids=stale)
        return len(stale)

    def snapshot(self, key: str, state: Mapping[str, Any]) -> None:
        """Store a phase's opening state. Only the latest SNAPSHOTS_KEPT are kept: they are a
        cache of the log (a rollback rebuilds from the log), and keeping every one would make
        each write of a long game rewrite a whole state per phase already played."""
        snaps = self._db.table("snapshots")
        snaps.insert(self._stored(state, key=key, seq=len(self._db.table("events"))))
        ids = sorted(doc.doc_id for doc in snaps.all())
        if len(ids) > SNAPSHOTS_KEPT:
            snaps.remove(doc_ids=ids[:-SNAPSHOTS_KEPT])

    def snapshots(self) -> list[dict[str, Any]]:
        out = []
        for doc in self._db.table("snapshots").all():
            snapshot = {k: v for k, v in doc.items() if k != FROM_META}
            snapshot["state"] = self._whole(doc)
            out.append(snapshot)
        return out

    def records(self, table: str) -> list[dict[str, Any]]:
        """Every record of the table, in order, each a copy with its `id`. Read from the
        stored documents directly, as `find_record` does: the sender reads a game's outbox at
        every look, and TinyDB made a document object of every record only to be copied."""
        return [dict(doc, id=int(doc_id)) for doc_id, doc in self._raw_table(table).items()]

    def find_record(self, table: str, field: str, value: Any) -> dict[str, Any] | None:
        """The first record whose `field` equals `value`; only that one is copied, so a
        lookup in a long table costs a scan, not a copy of the table. The scan reads the
        stored documents directly: a TinyDB query object per lookup cost more than the scan."""
        for doc_id, doc in self._raw_table(table).items():
            if field in doc and doc[field] == value:
                return dict(doc, id=int(doc_id))
        return None

    def add_record(self, table: str, record: Mapping[str, Any]) -> int:
        return self._db.table(table).insert(dict(record))

    def update_record(self, table: str, record_id: int, fields: Mapping[str, Any]) -> None:
        self._db.table(table).update(dict(fields), doc_ids=[record_id])

    def remove_records(self, table: str, record_ids: Sequence[int]) -> None:
        self._db.table(table).remove(doc_ids=list(record_ids))


def _appended(before: list[dict[str, Any]], old: memoryview | None, new: memoryview,
              path: str) -> list[dict[str, Any]] | None:
    """The events of a table whose bytes are `new`, given the events `before` decoded from the
    bytes `old`, when `new` holds `old`'s documents byte for byte and more after them (what
    appending writes); None otherwise. Equal bytes decode to equal documents, so only the
    documents after them are decoded."""
    if old is None:
        return None
    if new == old:
        return before
    size = len(old)
    if len(new) <= size or new[size - 1:size] != b"," or new[:size - 1] != old[:-1]:
        return None
    try:
        added = orjson.loads(b"{" + new[size:])
    except ValueError:
        raise CorruptFile(path, "its table 'events' is not valid JSON") from None
    return before + [dict(doc) for doc in check_table(path, "events", added).values()]


class TinyDBStore:
    """GameStore on TinyDB files under one data directory."""

    def __init__(self, root: str | Path, *, lock_timeout: float = LOCK_TIMEOUT,
                 wake_of: Callable[[Mapping[str, Any]], float] | None = None,
                 check: Callable[[Mapping[str, Any], Any], str | None] | None = None,
                 label: str = "") -> None:
        """`wake_of(meta)`, when given, is the earliest time a game with this meta may need
        the clock; the store keeps it in a `WakeIndex` around every write (referee/wakeups.py).
        `check(meta, state)`, when given, says what makes a stored game unusable (None: nothing),
        so that a damaged file is refused when it is opened, naming the file, and not half-way
        through a unit of work with a KeyError. `label` prefixes file names in messages."""
        self.root = Path(root)
        self.check = check
        self.label = label
        self.games_dir = self.root / "games"
        self.index_path = self.root / "index.json"
        self._games, self._index = str(self.games_dir), str(self.index_path)
        self.lock_timeout = lock_timeout
        self.stats = WriteStats()
        self.games_dir.mkdir(parents=True, exist_ok=True)
        self.wake_of = wake_of
        self.wakeups = WakeIndex(self.root / "wake") if wake_of is not None else None
        # a game file's bytes, their picture, and the bytes of its events table (storage.LazyTables)
        self._peeked: dict[str, tuple[bytes, StoredGame, memoryview | None]] = {}
        self._peek_lock = threading.Lock()

    # -- paths and locking

    def path(self, game_id: str) -> Path:
        return Path(self._file(game_id))

    def _file(self, game_id: str) -> str:
        """The game's file as a plain string (pathlib costs show on every unit of work)."""
        return f"{self._games}/{check_game_id(game_id)}.json"

    @contextmanager
    def _open(self, path: str, *, must_exist: bool) -> Iterator[tuple[TinyDB, AtomicJSONStorage]]:
        if must_exist and not os.path.exists(path):  # before the lock: a lookup creates no file
            raise GameNotFound(f"no game {os.path.basename(path).removesuffix('.json')!r}")
        try:
            with exclusive(path + ".lock", self.lock_timeout):
                if must_exist and not os.path.exists(path):
                    raise GameNotFound(f"no game {os.path.basename(path).removesuffix('.json')!r}")
                db = TinyDB(path, storage=AtomicJSONStorage, stats=self.stats, by_table=path != self._index)
                storage: AtomicJSONStorage = db.storage  # type: ignore[assignment]
                try:
                    self._checked(path, storage, must_exist)
                    try:
                        yield db, storage
                    except CorruptFile as exc:  # a table read only now (storage.LazyTables)
                        raise self._broken(path, exc.what) from None
                    storage.flush()
                finally:
                    storage.discard()
                    db.close()
        except LockTimeout:
            raise StoreBusy(f"{os.path.basename(path)} is locked by another process; try again") from None

    def _checked(self, path: str, storage: AtomicJSONStorage, game: bool) -> None:
        """Read the file now and refuse it when it is not a usable game (GameFileBroken)."""
        try:
            data = storage.read()
        except CorruptFile as exc:
            raise self._broken(path, f"{exc.what}{f' ({exc.where})' if exc.where else ''}") from None
        if not game:
            return
        if data is None:
            raise self._broken(path, "is empty")
        meta = (data.get("meta") or {}).get("1")
        if not isinstance(meta, dict):
            raise self._broken(path, "has no meta document (the game's players and settings)")
        current = (data.get("current") or {}).get("1") or {}
        problem = missing_field(current.get(FROM_META), meta)
        if problem is None and self.check is not None:
            problem = self.check(meta, current.get("state"))
        if problem:
            raise self._broken(path, f"is damaged: {problem}")

    def _broken(self, path: str, what: str) -> GameFileBroken:
        name = f"{self.label}{os.path.relpath(path, self.root)}"
        if path == self._index:
            return GameFileBroken(f"{name} {what}")
        game_id = os.path.basename(path).removesuffix(".json")
        return GameFileBroken(f"{name} {what}: restore it from a backup or repair it; until then game {game_id} "
                              "is stopped and every other game goes on (docs/operations.md, 'A broken game file')",
                              game_id)

    # -- the index

    def _index_row(self, game_id: str, meta: Mapping[str, Any]) -> dict[str, Any]:
        row = {k: meta.get(k) for k in INDEX_FIELDS}
        row["id"] = game_id
        return row

    def _write_index_row(self, row: Mapping[str, Any]) -> None:
        for attempt in (1, 2):
            try:
                with self._open(self._index, must_exist=False) as (db, _):
                    table = db.table("games")
                    found = [doc.doc_id for doc in table.all() if doc.get("id") == row["id"]]
                    if found:
                        table.update(dict(row), doc_ids=found)
                    else:
                        table.insert(dict(row))
                return
            except GameFileBroken as exc:
                if attempt == 2:
                    raise
                self.rebuild_index(str(exc))

    def rebuild_index(self, why: str = "") -> list[str]:
        """Write the index again from the game files (it is only a catalogue of them); the
        problems of game files that could not be read, which are listed as `broken`."""
        rows, problems = [], []
        with exclusive(self._index + ".lock", self.lock_timeout):
            for game_id, meta, problem in self.scan():
                if problem is None:
                    rows.append(self._index_row(game_id, meta))  # type: ignore[arg-type]
                else:
                    problems.append(problem)
                    rows.append({**{k: None for k in INDEX_FIELDS}, "id": game_id, "status": "broken"})
            write_atomically(self._index, encode({"games": {str(i): row for i, row in enumerate(rows, 1)}}))
        log.warning("%s; rebuilt it from %d game file(s)", why or f"{self.label}index.json was out of date", len(rows))
        for problem in problems:
            log.error("%s", problem)
        return problems

    def scan(self) -> Iterator[tuple[str, dict[str, Any] | None, str | None]]:
        """Every game file with its meta, or with what makes it unusable instead. Reads each
        file once, without its lock: game files are only ever replaced whole."""
        for game_id in sorted(self._game_files()):
            name = f"{game_id}.json"
            storage = AtomicJSONStorage(f"{self._games}/{name}")  # read whole: every table checked
            try:
                self._checked(storage.path, storage, True)
                yield game_id, (storage.read() or {})["meta"]["1"], None
            except GameFileBroken as exc:
                yield game_id, None, str(exc)
            except OSError as exc:
                yield game_id, None, f"{self.label}games/{name} cannot be read: {exc.strerror or exc}"

    # -- GameStore

    def exists(self, game_id: str) -> bool:
        return os.path.exists(self._file(game_id))

    def create(self, game_id: str, meta: Mapping[str, Any], state: Mapping[str, Any],
               events: Sequence[Mapping[str, Any]] = (),
               then: Callable[[GameTransaction], None] | None = None) -> None:
        """Create a game; `then` may add to it (queue the opening mail, say) in the same write."""
        with self._open(self._file(game_id), must_exist=False) as (db, _):
            if db.table("meta").get(doc_id=1) is not None:
                raise GameExists(f"a game {game_id!r} already exists")
            tx = _TinyTransaction(game_id, db)
            tx.set_meta(**dict(meta), id=game_id)
            tx.set_state(state)
            for event in events:
                tx.append(event)
            if then is not None:
                then(tx)
            wake = self._lower_wake(game_id, tx.meta)
        if wake is not None:
            self.wakeups.set(game_id, wake)  # type: ignore[union-attr]
        self._write_index_row(self._index_row(game_id, dict(meta)))

    @contextmanager
    def transaction(self, game_id: str) -> Iterator[_TinyTransaction]:
        """A unit of work on an existing game: one atomic write at the end, none on error."""
        wake = None
        with self._open(self._file(game_id), must_exist=True) as (db, storage):
            tx = _TinyTransaction(game_id, db)
            yield tx
            index_changed = bool(tx._meta_changed & set(INDEX_FIELDS))
            meta = tx.meta
            if storage.dirty:
                wake = self._lower_wake(game_id, meta)
        if wake is not None:
            self.wakeups.set(game_id, wake)  # type: ignore[union-attr]
        if index_changed:
            self._write_index_row(self._index_row(game_id, meta))

    def _lower_wake(self, game_id: str, meta: Mapping[str, Any]) -> float | None:
        """Before the write: the game's wake time, lowered to the new one if that is earlier."""
        if self.wake_of is None or self.wakeups is None:
            return None
        wake = self.wake_of(meta)
        self.wakeups.lower(game_id, wake)
        return wake

    def sweep_temporary(self, older_than: float = STALE_TEMPORARY_SECONDS) -> list[str]:
        """Delete the temporary files that processes killed in the middle of a write left
        beside the game files; the names deleted. Only files older than `older_than` seconds
        go, so a write under way in another process keeps its file."""
        cutoff, swept = time.time() - older_than, []
        with os.scandir(self._games) as entries:
            for entry in entries:
                if entry.name.startswith(".") and entry.name.endswith(".tmp") and entry.is_file():
                    try:
                        if entry.stat().st_mtime < cutoff:
                            os.unlink(entry.path)
                            swept.append(entry.name)
                    except FileNotFoundError:
                        pass  # gone meanwhile
        return swept

    def wake_due(self, now: float) -> dict[str, bool] | None:
        """Games with a wake time and whether it has come; None when the store keeps none."""
        return self.wakeups.due(now) if self.wakeups is not None else None

    def load(self, game_id: str) -> StoredGame:
        with self._open(self._file(game_id), must_exist=True) as (db, _):
            tx = _TinyTransaction(game_id, db)
            return StoredGame(game_id, tx.meta, tx.state, tx.events(), tx.snapshots())

    def peek(self, game_id: str) -> StoredGame:
        """The game as `load` gives it, read without taking its lock: every unit of work
        replaces the file whole (storage.py), so a reader that only looks gets the last
        complete version and holds up no writer. For watchers that look often (the demo's
        players); whatever acts on what it read takes the lock (a transaction).

        Several watchers of one game (a table's players) look after each change: the
        picture made of a version is kept, and given again while the file holds the same
        bytes, instead of decoding the whole file once per watcher. Comparing the bytes
        read costs a small fraction of decoding them, and unlike a file's times and size it
        cannot mistake one version for another. The picture is shared, so it is read only.
        The events, the bulk of the file, are decoded only where they are new: a version whose
        events table holds the same bytes as the last one's (the sender recorded mail sent)
        keeps the last picture's events, and one whose table begins with the last one's bytes
        (events are only ever appended) decodes only what follows them."""
        path = self._file(game_id)
        try:
            with open(path, "rb") as handle:
                raw = handle.read()
        except FileNotFoundError:
            raise GameNotFound(f"no game {game_id!r}") from None
        with self._peek_lock:
            seen = self._peeked.get(path)
        if seen is not None and seen[0] == raw:
            return seen[1]
        db = TinyDB(path, storage=AtomicJSONStorage, stats=self.stats, by_table=True)
        storage: AtomicJSONStorage = db.storage  # type: ignore[assignment]
        try:
            storage.hold(raw)
            self._checked(path, storage, True)
            data = storage.read()
            events = data.segment("events") if isinstance(data, LazyTables) else None
            tx = _TinyTransaction(game_id, db)
            known = _appended(seen[1].events, seen[2], events, path) if seen is not None and events else None
            picture = StoredGame(game_id, tx.meta, tx.state, tx.events() if known is None else known, tx.snapshots())
        except CorruptFile as exc:  # a table read only now (storage.LazyTables)
            raise self._broken(path, exc.what) from None
        finally:
            storage.discard()
            db.close()
        with self._peek_lock:
            self._peeked[path] = (raw, picture, events)
        return picture

    def append(self, game_id: str, events: Sequence[Mapping[str, Any]], *,
               state: Mapping[str, Any] | None = None) -> list[int]:
        with self.transaction(game_id) as tx:
            seqs = [tx.append(event) for event in events]
            if state is not None:
                tx.set_state(state)
        return seqs

    def snapshot(self, game_id: str, key: str, state: Mapping[str, Any]) -> None:
        with self.transaction(game_id) as tx:
            tx.snapshot(key, state)

    def list(self) -> list[dict[str, Any]]:
        """The catalogue of games. A broken index is rebuilt from the game files first, and so
        is one that lacks a game file: a game's file is written before its row, so a process
        stopped between the two leaves a game the catalogue does not name (and that the
        clock's tick, which goes by the catalogue, would never visit); and so is one that
        names a game whose file is gone (deleted by hand)."""
        for attempt in (1, 2):
            try:
                rows = self._index_rows()
                if all(isinstance(row.get("id"), str) for row in rows):
                    files, named = self._game_files(), {row["id"] for row in rows}
                    unlisted, vanished = files - named, named - files
                    if not (unlisted or vanished) or attempt == 2:  # a game made meanwhile writes its own row
                        return sorted((row for row in rows if row["id"] in files), key=lambda r: r["id"])
                    why = (f"{self.label}index.json does not list game {sorted(unlisted)[0]!r}" if unlisted else
                           f"{self.label}index.json lists game {sorted(vanished)[0]!r}, whose file is gone")
                else:
                    why = f"{self.label}index.json has a row without a game id"
            except GameFileBroken as exc:
                why = str(exc)
            if attempt == 1:
                self.rebuild_index(why)
        raise GameFileBroken(f"{self.label}index.json cannot be rebuilt: {why}")

    def _index_rows(self) -> list[dict[str, Any]]:
        if not self.index_path.exists():
            return []
        with self._open(self._index, must_exist=False) as (db, _):
            return [dict(doc) for doc in db.table("games").all()]

    def _game_files(self) -> set[str]:
        """The ids of the game files present (lock and temporary files aside)."""
        try:
            names = os.listdir(self._games)
        except FileNotFoundError:
            return set()
        return {name[:-5] for name in names if name.endswith(".json") and GAME_ID.match(name[:-5])}
