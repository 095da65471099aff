"""A TinyDB storage that never leaves a half-written file and writes once per unit of work.

TinyDB's own JSONStorage rewrites the file in place: a crash mid-write leaves new JSON
followed by old bytes. Here a write goes to a temporary file in the same directory, is
fsync'ed and then renamed over the old file with `os.replace` (atomic on POSIX), and the
directory is fsync'ed so the rename itself survives a power cut.

TinyDB calls `write` after every insert or update. Within a unit of work those writes are
buffered and `flush` writes the file once, so a command that appends an event, updates the
current state and queues mail costs one atomic write, not three.
"""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from dataclasses import dataclass
from typing import Any, Iterator

import orjson
from tinydb.storages import Storage

from .contract import canonical_json

_temp_names = itertools.count()  # with the process id, a temporary name nobody else uses


@dataclass
class WriteStats:
    """Bytes and files written, so tests can prove what a write costs without timing it."""

    bytes_written: int = 0
    files_written: int = 0

    def reset(self) -> None:
        self.bytes_written = 0
        self.files_written = 0


def encode(data: Any) -> bytes:
    """Compact UTF-8 JSON. orjson is several times faster than the standard library on game
    files, which every unit of work reads and writes whole. What orjson writes ends with a
    newline; what it refuses (an integer beyond 64 bits) the standard library writes,
    without one."""
    try:
        return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def decode(raw: bytes) -> Any:
    """The inverse of `encode`. orjson would read an integer beyond 64 bits as a float, so
    only files orjson wrote (the final newline says so) are read with it."""
    if raw.endswith(b"\n"):
        return orjson.loads(raw)
    return json.loads(raw)


def round_trip(value: Any) -> Any:
    """`value` as it reads once written to a game file and read back (`encode`, `decode`):
    what a computer player is given, so that it sees nothing a stored game would not keep."""
    return decode(encode(value))


def fingerprint(value: Any) -> bytes:
    """One exact spelling of a JSON value, made fast (orjson): for telling within one run
    whether a value changed, e.g. that an engine left the state it was given alone. Stored
    hashes keep `canonical_json`, whose spelling is fixed; a value orjson refuses (an integer
    beyond 64 bits) is spelled by it here too."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return canonical_json(value).encode("utf-8")


def write_atomically(path: str | os.PathLike[str], payload: bytes) -> None:
    """Replace `path` with `payload` so that readers see the old file or the new, never a mix."""
    path = os.fspath(path)
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}-{next(_temp_names)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # left by a crashed process that had the same id
        fd, tmp = tempfile.mkstemp(dir=folder or ".", prefix=f".{name}.", suffix=".tmp")
    try:
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    fsync_dir(folder or ".")


def fsync_dir(path: str | os.PathLike[str]) -> None:
    """Make a folder's entries (a file created, renamed or deleted in it) durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class CorruptFile(ValueError):
    """A data file that is not what a store writes: bad JSON, or not tables of documents.
    `where` says where the damage is, as a reader of the file would look for it."""

    def __init__(self, path: str, what: str, where: str = "") -> None:
        super().__init__(f"{path}: {what}{f' ({where})' if where else ''}")
        self.path, self.what, self.where = path, what, where


def check_tables(path: str, data: Any) -> dict[str, Any] | None:
    """`data` if it has the shape TinyDB needs (tables of documents), else CorruptFile:
    TinyDB itself would fail later, somewhere inside a unit of work, with a KeyError or
    an AttributeError that says nothing about the file."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise CorruptFile(path, f"holds a JSON {type(data).__name__}, not tables of documents")
    for name, table in data.items():
        check_table(path, name, table)
    return data


def check_table(path: str, name: str, table: Any) -> dict[str, Any]:
    """`table` if it is a table of documents, else CorruptFile naming the table. (map and
    repeat: no Python frame per document of a long table.)"""
    if not isinstance(table, dict) or not all(map(isinstance, table.values(), itertools.repeat(dict))):
        raise CorruptFile(path, f"its table {name!r} is not a table of documents")
    return table


def _decode_checked(path: str, raw: bytes) -> dict[str, Any] | None:
    try:
        return check_tables(path, decode(raw))
    except CorruptFile:
        raise
    except ValueError as exc:  # JSONDecodeError from either decoder, or bytes that are not UTF-8
        line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
        where = f"line {line}, column {column}" if line else ""
        raise CorruptFile(path, "is not valid JSON", where) from None


class LazyTables(dict):  # type: ignore[type-arg]
    """A file's tables, each decoded when first asked for.

    A file written `by_table` holds one table a line, and JSON never holds a raw newline
    inside a value, so its tables are found by splitting at newlines, and each is decoded
    only when a unit of work reads it: a sender claiming mail reads the outbox and never the
    game's events, a look at a game never its outbox. A table never read is written back as
    the bytes it was read as. The dict holds the tables decoded or written so far; `_raw`
    the bytes of each table as read, in the file's order. Reading a table the dict lacks
    goes through `__missing__`; every other way of looking at all tables decodes them all
    first, so that whoever does sees what a full decode gives. Damage inside a table that is
    never read goes unnoticed until it is read (CorruptFile then, as at the start before)."""

    def __init__(self, path: str, raw: dict[str, memoryview]) -> None:
        super().__init__()
        self.path, self._raw = path, raw

    def __missing__(self, name: str) -> Any:
        segment = self._raw.get(name)
        if segment is None:
            raise KeyError(name)
        try:
            table = orjson.loads(segment)  # only orjson writes by table: see `by_table`
        except ValueError:
            raise CorruptFile(self.path, f"its table {name!r} is not valid JSON") from None
        dict.__setitem__(self, name, check_table(self.path, name, table))
        return table

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        try:
            return self[name]
        except KeyError:
            return default

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in self._raw

    def names(self) -> list[str]:
        return list(self._raw) + [name for name in dict.keys(self) if name not in self._raw]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def __delitem__(self, name: str) -> None:
        found = self._raw.pop(name, None) is not None
        if dict.__contains__(self, name):
            dict.__delitem__(self, name)
        elif not found:
            raise KeyError(name)

    def segment(self, name: str) -> memoryview | None:
        """A table's bytes as read, while the unit of work has not read it (None after)."""
        return None if dict.__contains__(self, name) else self._raw.get(name)

    def whole(self) -> dict[str, Any]:
        """Every table decoded, as a plain dict in the file's order."""
        return {name: self[name] for name in self.names()}

    def keys(self):  # type: ignore[override]
        return self.whole().keys()

    def values(self):  # type: ignore[override]
        return self.whole().values()

    def items(self):  # type: ignore[override]
        return self.whole().items()

    def encoded(self) -> bytes | None:
        """The file as `by_table` writes it: tables never read as they were read."""
        values: list[tuple[str, Any]] = []
        for name in self.names():
            if dict.__contains__(self, name):
                try:
                    values.append((name, orjson.dumps(dict.__getitem__(self, name))))
                except TypeError:
                    return None
            else:
                values.append((name, self._raw[name]))
        return _joined(values)


def _joined(values: list[tuple[str, Any]]) -> bytes:
    """`{"name":value,\n"name":value}\n` from encoded values, copied once (`{}` for none)."""
    if not values:
        return b"{}\n"
    parts: list[Any] = [b"{"]
    for name, value in values:
        parts += [orjson.dumps(name), b":", value, b",\n"]
    parts[-1] = b"}\n"
    return b"".join(parts)


def by_table(data: dict[str, Any]) -> bytes:
    """A file of tables written one table a line (LazyTables reads it a table at a time): the
    same JSON as `encode`, with a newline after each table's comma."""
    if isinstance(data, LazyTables):
        payload = data.encoded()
        return payload if payload is not None else encode(data.whole())
    try:
        return _joined([(name, orjson.dumps(table)) for name, table in data.items()])
    except TypeError:
        return encode(data)


def split_tables(path: str, raw: bytes) -> LazyTables | None:
    """The tables of a file `by_table` wrote, none decoded yet; None for any other file (one
    written whole, or damaged: a full decode reads it, or says what is wrong with it). The
    newlines are found byte by byte (memchr), and each table is a view of `raw`, not a copy:
    looking for ",\n" or splitting copied and compared as much as decoding the file did."""
    end = len(raw) - 2  # before the closing "}\n"
    if not (raw.startswith(b'{"') and raw.endswith(b"}\n")) or raw.find(b"\n", 0, end) < 0:
        return None
    view = memoryview(raw)
    tables: dict[str, memoryview] = {}
    start = 1
    while True:
        newline = raw.find(b"\n", start, end)
        stop = end if newline < 0 else newline - 1
        if newline >= 0 and raw[stop:newline] != b",":
            return None
        colon = raw.find(b'":', start, stop)
        name = raw[start + 1:colon]
        value = view[colon + 2:stop]
        if colon < start + 2 or raw[start:start + 1] != b'"' or b"\\" in name or b'"' in name or \
                value[:1] != b"{" or value[-1:] != b"}":
            return None
        try:
            tables[name.decode("utf-8")] = value
        except UnicodeDecodeError:  # a damaged name: the full decode says what is wrong
            return None
        if newline < 0:
            return LazyTables(path, tables)
        start = newline + 1


class AtomicJSONStorage(Storage):
    """TinyDB storage: read once, buffer writes, `flush` replaces the file atomically.

    Only use it while holding the file's lock; the lock is what makes the buffered
    read-modify-write safe against other processes.
    """

    def __init__(self, path: str | os.PathLike[str], stats: WriteStats | None = None, by_table: bool = False) -> None:
        """`by_table`: the file is written one table a line and its tables decoded as they are
        read (LazyTables); a file written whole is read whole, and written by table next time."""
        self.path = os.fspath(path)  # a plain string: this is on every unit of work's path
        self.stats = stats
        self.by_table = by_table
        self._data: dict[str, Any] | None = None
        self._dirty = False

    def read(self) -> dict[str, Any] | None:
        if self._data is None:
            try:
                with open(self.path, "rb") as handle:
                    raw = handle.read()
            except FileNotFoundError:
                return None
            self.hold(raw)
        return self._data

    def hold(self, raw: bytes) -> None:
        """Take `raw` as the file's content, read already by the caller."""
        lazy = split_tables(self.path, raw) if self.by_table else None
        self._data = lazy if lazy is not None else _decode_checked(self.path, raw) if raw.strip() else None

    def write(self, data: dict[str, Any]) -> None:
        self._data = data
        self._dirty = True

    def flush(self) -> None:
        if not self._dirty or self._data is None:
            return
        payload = by_table(self._data) if self.by_table else encode(self._data)
        write_atomically(self.path, payload)
        if self.stats is not None:
            self.stats.bytes_written += len(payload)
            self.stats.files_written += 1
        self._dirty = False

    @property
    def dirty(self) -> bool:
        """Whether the unit of work changed anything (and `flush` will write)."""
        return self._dirty

    def discard(self) -> None:
        """Forget buffered writes (the unit of work failed)."""
        self._data = None
        self._dirty = False

    def close(self) -> None:
        self._data = None
