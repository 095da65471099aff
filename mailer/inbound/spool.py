"""The spool: raw mail on disk, durable before the SMTP server answers 250, until the worker
has dealt with it.

Mail comes two ways. The SMTP server appends it to segment files (mailer/inbound/segments.py):
one write and one sync for the mail of a moment, and no file per message. `referee ingest`
(a pipe from the mail server) and a requeued mail use a Maildir: a message is written to
`tmp/`, fsync'ed, renamed into `new/` and the directory fsync'ed. The worker sees both as one
list of keys in arrival order (keys begin with the arrival time) and files each when done: a
segment's mail as a line of its done-log, a Maildir's by moving it to `cur/`. Processed mail
is kept for audit: in `cur/`, and in the segments moved to `archive/` once all their mail is
done. A mail set aside is always a file in `cur/` with flag E, whichever way it came. What is
kept for audit is deleted after `spool_keep_days` (`prune`), mail set aside excepted.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from referee.storage import fsync_dir

from .segments import ARCHIVE, SEGMENT, SEGMENTS, SegmentReader, records

_counter = itertools.count()
_HOST = socket.gethostname().replace("/", "_").replace(":", "_") or "localhost"
HEAD_BYTES = 512  # enough for the Return-Path and Delivered-To lines the spool's writers put first
_DELIVERED_TO = re.compile(rb"^Delivered-To:[ \t]*<?([^@+<>\s]*)", re.MULTILINE | re.IGNORECASE)
ASIDE_LOG = "aside.log"  # one JSON line per mail set aside: key, when, why, game, player
FAILED = "E"  # the Maildir flag of a mail set aside


@dataclass(frozen=True)
class SetAside:
    """A mail the worker could not process, kept in cur/ with flag E until it is requeued."""

    key: str
    at: str | None
    reason: str
    game: str | None = None
    player: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return {"key": self.key, "at": self.at, "reason": self.reason, "game": self.game, "player": self.player}


class Spool:
    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        for sub in ("tmp", "new", "cur"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        self._new, self._cur = f"{self.root}/new", f"{self.root}/cur"  # strings: used per message
        self.segments = SegmentReader(self.root)
        self._games: dict[str, str] = {}  # key -> the game its Delivered-To names (`game_of`)

    def new_key(self) -> str:
        """A unique file name that sorts by arrival time."""
        return f"{time.time_ns()}.P{os.getpid()}Q{next(_counter)}.{_HOST}"

    def add(self, raw: bytes, *, key: str | None = None, durable: bool = True) -> str:
        """Store one message as a file in new/; returns its key (file name). `durable=False`
        is for a caller that makes the directory durable itself afterwards."""
        key = key or self.new_key()
        tmp = f"{self.root}/tmp/{key}"
        self._write(tmp, raw, durable)
        os.replace(tmp, f"{self._new}/{key}")
        if durable:
            fsync_dir(self.root / "new")
        return key

    @staticmethod
    def _write(path: str, raw: bytes, durable: bool = True) -> None:
        """Write a file whole, or leave none: a write that fails (a full disk) deletes what
        it wrote, so no partial mail stays in tmp/ (or in cur/ as mail set aside)."""
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # a write of this name that a kill cut short; it is written again
            os.unlink(path)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
            if durable:
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            try:
                os.unlink(path)
            except OSError:
                pass  # it stays, to be written again under its name or swept (`sweep_tmp`)
            raise
        os.close(fd)

    def pending(self) -> int:
        self.segments.refresh()
        return sum(1 for _ in os.scandir(self.root / "new")) + self.segments.count()

    def keys(self) -> Iterator[str]:
        """Pending messages, oldest first (names start with the arrival time)."""
        self.segments.refresh()
        files = [entry.name for entry in os.scandir(self.root / "new") if entry.is_file()]
        yield from sorted(files + self.segments.keys())

    def has(self, key: str) -> bool:
        """Whether a message is still waiting: another worker (the daemon's, an ingest pipe's)
        may have taken and filed it since it was listed."""
        if self.segments.has(key):
            self.segments.refresh()  # another worker may have noted it done
            return self.segments.has(key)
        return os.path.exists(f"{self._new}/{key}")

    def every_mail(self) -> list[tuple[str, bytes]]:
        """Every mail the spool holds, waiting or done, in arrival order: for audit and tests."""
        found = [(name.partition(":2,")[0], Path(self.root, sub, name).read_bytes())
                 for sub in ("new", "cur") for name in os.listdir(self.root / sub)]
        for folder in (self.root / SEGMENTS, self.root / ARCHIVE):
            if folder.exists():
                for path in sorted(folder.glob(f"*{SEGMENT}")):
                    found += records(path)
        return sorted(dict(found).items())  # a segment's mail set aside is in cur/ too: once

    def game_of(self, key: str) -> str:
        """The game a waiting mail is for, as far as its Delivered-To line (the first lines the
        SMTP server and `referee ingest` write) says: the local part of the address, before any
        `+`; "" when it names none. For sharing mail out among workers without reading it."""
        found = self._games.get(key)
        if found is None:
            try:
                head = self.segments.head(key) if self.segments.has(key) else self._head(key)
            except OSError:
                head = b""
            match = _DELIVERED_TO.search(head)
            found = match.group(1).decode("ascii", "replace").lower() if match else ""
            if len(self._games) > 100_000:
                self._games.clear()
            self._games[key] = found
        return found

    def _head(self, key: str) -> bytes:
        with open(f"{self._new}/{key}", "rb") as handle:
            return handle.read(HEAD_BYTES)

    def read(self, key: str) -> bytes:
        try:
            return self.segments.read(key)
        except KeyError:
            pass
        with open(f"{self._new}/{key}", "rb") as handle:
            return handle.read()

    def done(self, key: str, status: str = "") -> None:
        """File a processed message: a segment's as a line of its done-log, a file by moving it
        to cur/ (the Maildir info suffix records the outcome). FileNotFoundError when it is no
        longer waiting (another worker filed it)."""
        if self.segments.has(key):
            if not self.segments.mark_done(key, status or "-"):
                raise FileNotFoundError(key)
            return
        suffix = f":2,{status}" if status else ":2,"
        os.replace(f"{self._new}/{key}", f"{self._cur}/{key}{suffix}")

    def sweep_tmp(self, older_than: float = 3600.0) -> list[str]:
        """Delete files in tmp/ older than `older_than` seconds: writes a kill cut short
        (a mail in tmp/ was never answered 250, so nothing of it is lost); their names."""
        horizon, swept = time.time() - older_than, []
        for entry in os.scandir(self.root / "tmp"):
            try:
                if entry.stat().st_mtime < horizon:
                    os.unlink(entry.path)
                    swept.append(f"spool/tmp/{entry.name}")
            except FileNotFoundError:
                continue
        return swept

    # -- processed mail kept for audit

    def prune(self, keep_days: int, now: float | None = None) -> int:
        """Delete the processed mail kept for audit that was last written more than `keep_days`
        ago (a mail when it arrived, a segment with its last mail): archived segments with
        their done-logs, and the files in cur/
        except mail set aside, which waits for the moderator however old. How many files
        were deleted; `keep_days` 0 keeps everything."""
        if keep_days <= 0:
            return 0
        horizon = (time.time() if now is None else now) - keep_days * 86400
        deleted = 0
        for folder, keep in ((self.root / ARCHIVE, lambda name: False),
                             (self.root / "cur", lambda name: FAILED in name.partition(":2,")[2])):
            try:
                entries = list(os.scandir(folder))
            except FileNotFoundError:
                continue
            for entry in entries:
                try:
                    if keep(entry.name) or entry.stat().st_mtime >= horizon:
                        continue
                    os.unlink(entry.path)
                    deleted += 1
                except FileNotFoundError:
                    continue
        return deleted

    # -- mail set aside

    def set_aside(self, key: str, reason: str, *, game: str | None = None, player: str | None = None) -> None:
        """File a mail that cannot be processed: why goes to `aside.log` first, then the mail
        moves to cur/ with flag E, so a listing never shows a mail without its reason."""
        line = json.dumps({"key": key, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "reason": reason,
                           "game": game, "player": player}, ensure_ascii=False)
        fd = os.open(self.root / ASIDE_LOG, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, (line + "\n").encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        if self.segments.has(key):  # kept as a file, so that it can be listed and requeued like any other
            self._write(f"{self._cur}/{key}:2,{FAILED}", self.segments.read(key))
            fsync_dir(self._cur)
        self.done(key, FAILED)

    def aside(self) -> list[SetAside]:
        """Every mail set aside, oldest first, each with the latest reason recorded for it."""
        reasons: dict[str, dict] = {}
        try:
            with open(self.root / ASIDE_LOG, encoding="utf-8") as handle:
                for line in handle:
                    try:
                        entry = json.loads(line)
                        reasons[entry["key"]] = entry
                    except (ValueError, KeyError, TypeError):
                        continue  # a line cut short by a crash
        except FileNotFoundError:
            pass
        found = []
        for name in sorted(os.listdir(self._cur)):
            key, _, info = name.partition(":2,")
            if FAILED not in info:
                continue
            entry = reasons.get(key, {})
            found.append(SetAside(key, entry.get("at"), entry.get("reason") or "no reason recorded (set aside by an "
                                  "earlier version, which filed every failure this way)", entry.get("game"),
                                  entry.get("player")))
        return found

    def read_aside(self, key: str) -> bytes:
        with open(self._aside_path(key), "rb") as handle:
            return handle.read()

    def requeue(self, key: str) -> None:
        """Put a mail set aside back into new/, to be processed again (KeyError: no such mail)."""
        os.replace(self._aside_path(key), f"{self._new}/{key}")

    def _aside_path(self, key: str) -> str:
        for name in os.listdir(self._cur):
            found, _, info = name.partition(":2,")
            if found == key and FAILED in info:
                return f"{self._cur}/{name}"
        raise KeyError(key)
