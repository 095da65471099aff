"""Group commit for the SMTP server: one flush to disk for every message that arrived together.

Every message that arrived in one turn of the event loop is appended to the spool's newest
segment (mailer/inbound/segments.py) in one write, the segment is synced once, and only then
are the messages answered 250. The segment is where the worker reads them: no file is made per
message. Every CHECKPOINT_RECORDS messages, or when the server has been idle for IDLE_SECONDS,
a checkpoint closes the segment, so that the next mail starts a new one and segments whose
every mail is done can be archived.

Versions before the segments kept a journal (`spool/journal`, `journal.<n>`) in front of one
file per message; `recover` puts back, once, what such a journal holds and the spool lacks.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import threading
import time
import zlib
from pathlib import Path

from referee.storage import fsync_dir

from .segments import SegmentWriter
from .spool import Spool

log = logging.getLogger("referee.journal")

ACTIVE = "journal"  # the journal file of versions before the segments
CHECKPOINT_RECORDS = 500
IDLE_SECONDS = 1.0
_HEADER = re.compile(rb"([A-Za-z0-9._-]{1,200}) (\d{1,12}) ([0-9a-f]{8})\n")


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
    """The SMTP server's durable intake into a `Spool`'s segments. Use from one event loop."""

    def __init__(self, spool: Spool) -> None:
        self.spool = spool
        self.writer = SegmentWriter(spool.root)
        self._lock = threading.Lock()  # appends (event loop) against checkpoints (their thread)
        self._open = False
        self._last_append = 0.0
        self._waiting: list[tuple[list[tuple[str, bytes]], asyncio.Future[None]]] = []
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()

    # -- start and stop

    def recover(self) -> int:
        """Put every answered message of an older version's journals back into the spool (as
        files in new/); how many. Those journals are deleted once their mail is safe."""
        journals = sorted(p for p in self.spool.root.iterdir() if p.name.startswith(ACTIVE) and p.is_file())
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
        fsync_dir(self.spool.root / "new")
        for journal in journals:
            journal.unlink()
        if restored:
            log.warning("restored %d answered message(s) from the journal", restored)
        return restored

    def start(self) -> None:
        with self._lock:
            self._open = True
        self._stop.clear()
        self._checkpointer = threading.Thread(target=self._checkpoints, name="journal-checkpoint", daemon=True)
        self._checkpointer.start()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
            self._checkpointer = None
        with self._lock:
            self._open = False
            self.writer.seal()

    # -- storing

    async def store(self, messages: list[bytes]) -> None:
        """Return once `messages` are durable in the spool; raises OSError if they are not.
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
        with self._lock:
            if not self._open:
                raise OSError("the journal is closed")
            self.writer.append(entries)  # on failure the senders are told to retry
            self._last_append = time.monotonic()

    # -- checkpoints

    def _checkpoints(self) -> None:
        while not self._stop.wait(0.2):
            with self._lock:
                due = self.writer.records >= CHECKPOINT_RECORDS or (
                    self.writer.records and time.monotonic() - self._last_append >= IDLE_SECONDS)
            if due:
                self.checkpoint()

    def checkpoint(self) -> None:
        """Close the segment written now; the next mail starts a new one."""
        with self._lock:
            self.writer.seal()
