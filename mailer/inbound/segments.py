"""The SMTP server's mail on disk: append-only segment files, read in place by the worker.

Writing each message as a file of its own (created in `tmp/`, renamed into `new/`, renamed
again into `cur/` when done) cost the SMTP process more than everything else it does for a
message: creating a file and renaming it take the directory's lock and the file system's
journal, which the worker's own writes hold too. So the server appends the mail of one turn of
its event loop to the newest segment, `spool/segments/<name>.seg`, syncs it once and answers
250; nothing else is written per message. Every few hundred messages, or after a second
without mail, it starts a new segment. The worker reads new records from the segments at each
pass and notes each mail it has dealt with on a line of the segment's done-log
(`<name>.done`, "<key> <flag>"); a segment no writer holds any more and whose every record is
done moves to `spool/archive/`, where processed mail is kept for audit as `cur/` kept it.

Which segments a writer may still append to is not read from their names: two SMTP servers
on one spool (a second daemon started by hand) each append to a segment of their own, and a
writer whose clock stepped back names its next segment before its last one. A writer holds
an exclusive `flock` on its segment from before its first record until it closes it, and a
reader archives a segment only while holding that lock itself, after reading it once more: so
no segment a live writer may append to is moved, whatever the names or the clock, and a
writer that dies lets go of its lock with it.

Record format, as in the journal before: a line `<key> <length> <crc32 in hex>\\n`, the raw
bytes, then `\\n`. A record the writer was cut short in (a crash, a full disk) fails its
checksum: nothing after it in that segment is read, and the writer starts a new segment
after any failed write, so nothing it answered is ever behind a damaged record.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import threading
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from referee.storage import fsync_dir

log = logging.getLogger("referee.spool")

SEGMENTS, ARCHIVE = "segments", "archive"
SEGMENT, DONE = ".seg", ".done"
_HEADER = re.compile(rb"([A-Za-z0-9._-]{1,200}) (\d{1,12}) ([0-9a-f]{8})\n")
_READ_CHUNK = 1 << 20


def encode(entries: list[tuple[str, bytes]]) -> bytes:
    return b"".join(b"%s %d %08x\n%s\n" % (key.encode("ascii"), len(raw), zlib.crc32(raw), raw)
                    for key, raw in entries)


def parse(data: bytes, base: int = 0) -> tuple[list[tuple[str, int, int]], int, bool]:
    """The intact records at the start of `data` as (key, offset of the raw bytes, length),
    offsets counted from `base`; how many bytes they take; and whether what follows them is
    damaged (a wrong checksum or a header that is not one), as opposed to merely incomplete."""
    records: list[tuple[str, int, int]] = []
    at = 0
    while at < len(data):
        header = _HEADER.match(data, at)
        if header is None:
            complete_line = data.find(b"\n", at, at + 260) >= 0 or len(data) - at >= 260
            return records, at, complete_line
        size, start = int(header.group(2)), header.end()
        if start + size + 1 > len(data):
            return records, at, False  # still being written, or cut short: the next look decides
        raw = data[start:start + size]
        if data[start + size:start + size + 1] != b"\n" or f"{zlib.crc32(raw):08x}".encode() != header.group(3):
            return records, at, True
        records.append((header.group(1).decode("ascii"), base + start, size))
        at = start + size + 1
    return records, at, False


def records(path: Path) -> list[tuple[str, bytes]]:
    """Every intact record of one segment file, in order, with its bytes."""
    data = path.read_bytes()
    found, _, _ = parse(data)
    return [(key, data[offset:offset + length]) for key, offset, length in found]


class SegmentWriter:
    """The SMTP server's side: append a batch, make it durable, start a new segment now and
    then. Use from one thread at a time (the journal holds its lock around each call)."""

    def __init__(self, spool_root: Path) -> None:
        self.folder = spool_root / SEGMENTS
        self.folder.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = None
        self.records = 0  # in the segment written now

    def append(self, entries: list[tuple[str, bytes]]) -> None:
        """Write `entries` and sync them; OSError when that fails, after which the segment is
        left as it is and the next batch goes to a new one."""
        payload = encode(entries)
        if self._fd is None:
            self._open()
        assert self._fd is not None
        start = os.lseek(self._fd, 0, os.SEEK_END)
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(self._fd, view):]
            os.fdatasync(self._fd)
        except OSError:
            try:
                os.ftruncate(self._fd, start)  # the senders retry: keep no copy of what they were refused
            except OSError:
                log.exception("a segment could not be cut back after a failed write")
            self.seal()  # and never append after a failure: a reader may have seen the refused bytes
            raise
        self.records += len(entries)

    def seal(self) -> None:
        """Write no more to the current segment; the next batch starts a new one."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
            self.records = 0

    def _open(self) -> None:
        """A new segment, locked before anything is written to it. A reader may lock and
        archive a new, empty file in the moment between its creation and our lock: then the
        file we hold is no longer the segment's name, and another is made."""
        while True:
            name = f"{time.time_ns():020d}.P{os.getpid()}{SEGMENT}"
            path = self.folder / name
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
            except FileExistsError:  # the clock gave the same moment twice
                continue
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                still_here = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                still_here = False
            if still_here:
                break
            os.close(fd)
        self._fd = fd
        fsync_dir(self.folder)  # the segment's name must survive a crash with its first records


@dataclass
class _Segment:
    name: str
    read_to: int = 0  # bytes read and parsed
    done_read: int = 0  # bytes of the done-log read
    damaged: bool = False
    waiting: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (offset, length), not done
    done: set[str] = field(default_factory=set)


class SegmentReader:
    """The segments as one process sees them: the records not yet done, kept as where they are
    in their file (not their bytes), brought up to date at each `refresh`."""

    def __init__(self, spool_root: Path) -> None:
        self.folder = spool_root / SEGMENTS
        self.archive = spool_root / ARCHIVE
        self._segments: dict[str, _Segment] = {}
        self._where: dict[str, str] = {}  # key -> segment name, for the records not done
        self._lock = threading.Lock()

    def refresh(self) -> None:
        try:
            names = sorted(n[:-len(SEGMENT)] for n in os.listdir(self.folder) if n.endswith(SEGMENT))
        except FileNotFoundError:
            return
        with self._lock:
            for gone in set(self._segments) - set(names):
                self._forget(gone)
            for name in names:
                segment = self._segments.setdefault(name, _Segment(name))
                self._read_done(segment)
                self._read_records(segment)
                if not segment.waiting:
                    self._archive_if_let_go(segment)

    def keys(self) -> list[str]:
        with self._lock:
            return list(self._where)

    def count(self) -> int:
        with self._lock:
            return len(self._where)

    def has(self, key: str) -> bool:
        with self._lock:
            return key in self._where

    def read(self, key: str) -> bytes:
        """A waiting record's bytes; KeyError when it is not one."""
        with self._lock:
            name = self._where[key]
            offset, length = self._segments[name].waiting[key]
        with open(self.folder / f"{name}{SEGMENT}", "rb") as handle:
            handle.seek(offset)
            return handle.read(length)

    def head(self, key: str, size: int = 512) -> bytes:
        """The first bytes of a waiting record."""
        with self._lock:
            name = self._where[key]
            offset, length = self._segments[name].waiting[key]
        with open(self.folder / f"{name}{SEGMENT}", "rb") as handle:
            handle.seek(offset)
            return handle.read(min(size, length))

    def mark_done(self, key: str, flag: str) -> bool:
        """Note a record as dealt with (its done-log line); False when it is not a waiting
        record of these segments (already done, by this process or another)."""
        with self._lock:
            name = self._where.pop(key, None)
            if name is None:
                return False
            segment = self._segments[name]
            segment.waiting.pop(key, None)
            segment.done.add(key)
        fd = os.open(self.folder / f"{name}{DONE}", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, f"{key} {flag}\n".encode("ascii"))
        finally:
            os.close(fd)
        return True

    # -- inside the lock

    def _read_done(self, segment: _Segment) -> None:
        path = self.folder / f"{segment.name}{DONE}"
        try:
            with open(path, "rb") as handle:
                handle.seek(segment.done_read)
                data = handle.read()
        except FileNotFoundError:
            return
        end = data.rfind(b"\n") + 1  # a line still being written is read next time
        for line in data[:end].splitlines():
            key = line.split(b" ", 1)[0].decode("ascii", "replace")
            segment.done.add(key)
            segment.waiting.pop(key, None)
            self._where.pop(key, None)
        segment.done_read += end

    def _read_records(self, segment: _Segment) -> None:
        if segment.damaged:
            return
        path = self.folder / f"{segment.name}{SEGMENT}"
        try:
            with open(path, "rb") as handle:
                handle.seek(segment.read_to)
                data = handle.read()
        except FileNotFoundError:
            return
        records, used, damaged = parse(data, segment.read_to)
        for key, offset, length in records:
            if key not in segment.done:
                segment.waiting[key] = (offset, length)
                self._where[key] = segment.name
        segment.read_to += used
        if damaged:
            segment.damaged = True
            log.warning("%s: a damaged record at byte %d; what follows it in this segment was never answered",
                        path.name, segment.read_to)

    def _archive_if_let_go(self, segment: _Segment) -> None:
        """Archive a segment whose every record read is done, if no writer holds it: under
        its lock, so that no writer can append meanwhile, and after reading it once more,
        since its writer may have appended just before it closed it."""
        try:
            fd = os.open(self.folder / f"{segment.name}{SEGMENT}", os.O_RDONLY)
        except FileNotFoundError:
            self._forget(segment.name)  # another reader archived it
            return
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # a writer holds it: it may append more
            self._read_done(segment)
            self._read_records(segment)
            if not segment.waiting:
                self._archive(segment)
        finally:
            os.close(fd)  # and with it the lock

    def _archive(self, segment: _Segment) -> None:
        """A segment written to no more, every record done: kept with its done-log for audit."""
        self.archive.mkdir(exist_ok=True)
        for suffix in (DONE, SEGMENT):
            try:
                os.replace(self.folder / f"{segment.name}{suffix}", self.archive / f"{segment.name}{suffix}")
            except FileNotFoundError:
                pass  # another reader moved it, or there was no done-log
        self._forget(segment.name)

    def _forget(self, name: str) -> None:
        segment = self._segments.pop(name, None)
        if segment is not None:
            for key in segment.waiting:
                self._where.pop(key, None)
