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
from typing import Any

import orjson
from tinydb.storages import Storage

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
        if not isinstance(table, dict) or not all(isinstance(doc, dict) for doc in table.values()):
            raise CorruptFile(path, f"its table {name!r} is not a table of documents")
    return data


def _decode_checked(path: str, raw: bytes) -> dict[str, Any] | None:
    try:
        return check_tables(path, decode(raw))
    except CorruptFile:
        raise
    except ValueError as exc:  # JSONDecodeError from either decoder, or bytes that are not UTF-8
        line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
        where = f"line {line}, column {column}" if line else ""
        raise CorruptFile(path, "is not valid JSON", where) from None


class AtomicJSONStorage(Storage):
    """TinyDB storage: read once, buffer writes, `flush` replaces the file atomically.

    Only use it while holding the file's lock; the lock is what makes the buffered
    read-modify-write safe against other processes.
    """

    def __init__(self, path: str | os.PathLike[str], stats: WriteStats | None = None) -> None:
        self.path = os.fspath(path)  # a plain string: this is on every unit of work's path
        self.stats = stats
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
        self._data = _decode_checked(self.path, raw) if raw.strip() else None

    def write(self, data: dict[str, Any]) -> None:
        self._data = data
        self._dirty = True

    def flush(self) -> None:
        if not self._dirty or self._data is None:
            return
        payload = encode(self._data)
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
