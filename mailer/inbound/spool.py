"""A Maildir spool: the SMTP server's only job is to get raw mail onto disk durably.

A message is written to `tmp/`, fsync'ed, renamed into `new/` and the directory fsync'ed,
so once the server has answered 250 the mail survives a crash. The worker takes messages
from `new/` and moves each to `cur/` when it is done with it, which keeps the raw mail for
audit and makes "what is still to do" a directory listing.
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from referee.storage import fsync_dir

_counter = itertools.count()
_HOST = socket.gethostname().replace("/", "_").replace(":", "_") or "localhost"
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

    def new_key(self) -> str:
        """A unique file name that sorts by arrival time."""
        return f"{time.time_ns()}.P{os.getpid()}Q{next(_counter)}.{_HOST}"

    def add(self, raw: bytes, *, key: str | None = None, durable: bool = True) -> str:
        """Store one message; returns its key (file name). `durable=False` is for a caller
        that has made the message durable elsewhere (the SMTP server's journal)."""
        key = key or self.new_key()
        tmp = f"{self.root}/tmp/{key}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # a write of this key that a kill cut short; the journal replays it
            os.unlink(tmp)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, f"{self._new}/{key}")
        if durable:
            fsync_dir(self.root / "new")
        return key

    def pending(self) -> int:
        return sum(1 for _ in os.scandir(self.root / "new"))

    def keys(self) -> Iterator[str]:
        """Pending messages, oldest first (names start with the arrival time)."""
        yield from sorted(entry.name for entry in os.scandir(self.root / "new") if entry.is_file())

    def has(self, key: str) -> bool:
        """Whether a message is still waiting: another worker (the daemon's, an ingest pipe's)
        may have taken and filed it since it was listed."""
        return os.path.exists(f"{self._new}/{key}")

    def read(self, key: str) -> bytes:
        with open(f"{self._new}/{key}", "rb") as handle:
            return handle.read()

    def done(self, key: str, status: str = "") -> None:
        """Move a processed message to cur/ (Maildir info suffix records the outcome)."""
        suffix = f":2,{status}" if status else ":2,"
        os.replace(f"{self._new}/{key}", f"{self._cur}/{key}{suffix}")

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
