"""Group commit for the SMTP server: one flush to disk for every message that arrived together.

Making each spooled message durable on its own costs a file fsync and a directory fsync
before the 250 reply, and the thread hop that keeps those off the event loop cost even more
when several clients were sending. Here the server appends every message that arrived in
one turn of the event loop to an append-only journal (`spool/journal`), syncs that one file
once, and only then writes each message into the spool's `new/` directory as usual, without
a sync of its own, and answers 250. Every few hundred messages, or when the server has been
idle for a moment, a checkpoint starts a fresh journal, makes everything written so far
durable (one sync of the file system, in a background thread) and deletes the old journal.

After a crash the journal holds every answered message whose spool file might be lost: on
start, `recover` writes again each message found in a journal whose file is neither in `new/`
nor in `cur/`. A record torn by the crash has a bad checksum; it was never answered, so it is
dropped.

Record format: a line `<key> <length> <crc32 in hex>\\n`, the raw bytes, then `\\n`.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import os
import re
import threading
import time
import zlib
from pathlib import Path

from .spool import Spool

log = logging.getLogger("referee.journal")

ACTIVE = "journal"
CHECKPOINT_RECORDS = 500
IDLE_SECONDS = 1.0
_HEADER = re.compile(rb"([A-Za-z0-9._-]{1,200}) (\d{1,12}) ([0-9a-f]{8})\n")


def _sync_filesystem(path: Path) -> None:
    """Make every write to the file system holding `path` durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            if ctypes.CDLL(None, use_errno=True).syncfs(fd) == 0:
                return
        except (OSError, AttributeError):
            pass  # no syncfs here: sync everything below
        os.sync()
    finally:
        os.close(fd)


def read_records(path: Path) -> list[tuple[str, bytes]]:
    """The intact records of one journal file, in order; reading stops at the first damage."""
    data = path.read_bytes()
    records, at = [], 0
    while at < len(data):
        header = _HEADER.match(data, at)
        if header is None:
            break
        size, start = int(header.group(2)), header.end()
        raw = data[start:start + size]
        if len(raw) != size or data[start + size:start + size + 1] != b"\n" \
                or f"{zlib.crc32(raw):08x}".encode() != header.group(3):
            break
        records.append((header.group(1).decode("ascii"), raw))
        at = start + size + 1
    if at < len(data):
        log.warning("%s: %d bytes after the last intact record ignored (never answered)", path.name, len(data) - at)
    return records


class Journal:
    """The SMTP server's durable intake in front of a `Spool`. Use from one event loop."""

    def __init__(self, spool: Spool) -> None:
        self.spool = spool
        self.path = spool.root / ACTIVE
        self._lock = threading.Lock()  # appends (event loop) against rotation (checkpoint thread)
        self._fd: int | None = None
        self._records = 0
        self._last_append = 0.0
        self._generation = 0
        self._waiting: list[tuple[list[tuple[str, bytes]], asyncio.Future[None]]] = []
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()

    # -- start and stop

    def recover(self) -> int:
        """Put every answered message from old journals back into the spool; how many."""
        journals = sorted(p for p in self.spool.root.iterdir() if p.name.startswith(ACTIVE))
        if not journals:
            return 0
        present = {name.split(":", 1)[0] for sub in ("new", "cur") for name in os.listdir(self.spool.root / sub)}
        restored = 0
        for journal in journals:
            for key, raw in read_records(journal):
                if key not in present:
                    self.spool.add(raw, key=key)
                    present.add(key)
                    restored += 1
        _sync_filesystem(self.spool.root)
        for journal in journals:
            journal.unlink()
        if restored:
            log.warning("restored %d answered message(s) from the journal", restored)
        return restored

    def start(self) -> None:
        self._open()
        self._stop.clear()
        self._checkpointer = threading.Thread(target=self._checkpoints, name="journal-checkpoint", daemon=True)
        self._checkpointer.start()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
            self._checkpointer = None
        self.checkpoint()
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
            if self.path.exists() and self._records == 0:
                self.path.unlink()

    def _open(self) -> None:
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        fd = os.open(self.spool.root, os.O_RDONLY)
        try:
            os.fsync(fd)  # the journal's own name must survive a crash
        finally:
            os.close(fd)

    # -- storing

    async def store(self, messages: list[bytes]) -> None:
        """Return once `messages` are durable and in the spool; raises OSError if they are not.
        Everything stored during one turn of the event loop shares one sync."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if not self._waiting:
            loop.call_soon(self._commit)
        self._waiting.append(([(self.spool.new_key(), raw) for raw in messages], done))
        await done

    def _commit(self) -> None:
        waiting, self._waiting = self._waiting, []
        try:
            self._append([entry for batch, _ in waiting for entry in batch])
        except OSError as exc:
            for _, done in waiting:
                done.set_exception(exc)
            return
        for _, done in waiting:
            done.set_result(None)

    def _append(self, entries: list[tuple[str, bytes]]) -> None:
        """Journal, sync, then spool. Under the lock, so that a checkpoint never deletes a
        journal whose spool files are not all written yet."""
        payload = b"".join(b"%s %d %08x\n%s\n" % (key.encode("ascii"), len(raw), zlib.crc32(raw), raw)
                           for key, raw in entries)
        with self._lock:
            if self._fd is None:
                raise OSError("the journal is closed")
            start, written = os.lseek(self._fd, 0, os.SEEK_END), []
            try:
                view = memoryview(payload)
                while view:
                    view = view[os.write(self._fd, view):]
                os.fdatasync(self._fd)
                for key, raw in entries:
                    written.append(self.spool.add(raw, key=key, durable=False))
            except OSError:
                self._undo(start, written)  # the senders are told to retry: keep no copy
                raise
            self._records += len(entries)
            self._last_append = time.monotonic()

    def _undo(self, start: int, written: list[str]) -> None:
        for key in written:
            try:
                (self.spool.root / "new" / key).unlink()
            except OSError:
                pass  # the worker took it already: it is the same message the sender will retry
        try:
            os.ftruncate(self._fd, start)  # type: ignore[arg-type]
        except OSError:
            log.exception("the journal could not be cut back after a failed write")

    # -- checkpoints

    def _checkpoints(self) -> None:
        while not self._stop.wait(0.2):
            with self._lock:
                due = self._records >= CHECKPOINT_RECORDS or (
                    self._records and time.monotonic() - self._last_append >= IDLE_SECONDS)
            if due:
                try:
                    self.checkpoint()
                except OSError:  # the journal stays; the next checkpoint or a restart recovers
                    log.exception("journal checkpoint failed")

    def checkpoint(self) -> None:
        """Start a new journal, make the spool files of the old one durable, delete it."""
        with self._lock:
            if self._fd is None or self._records == 0:
                return
            self._generation += 1
            old = self.path.with_name(f"{ACTIVE}.{self._generation}")
            os.close(self._fd)
            os.replace(self.path, old)
            self._records = 0
            self._open()
        _sync_filesystem(self.spool.root)
        old.unlink()
