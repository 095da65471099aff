"""One `referee serve` per data directory.

Two daemons on one data directory each run an SMTP server appending to a segment of its own
and a worker reading both; nothing in that is tested or needed, and a moderator who starts a
second one by hand beside the service's would not know it. So `serve` holds an exclusive
`flock` on `serve.lock` in the data directory for as long as it runs, with its pid and SMTP
port written in the file, and a second `serve` that finds the lock taken refuses to start and
names the first. The kernel lets go of the lock when its holder dies, however it dies, so a
killed daemon never keeps the next one from starting. `tick`, `ingest` and the other commands
take no part in this: they work beside a daemon through the store's per-game locks.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any

LOCK_NAME = "serve.lock"


class AlreadyServed(RuntimeError):
    """Another daemon serves the data directory; the message names it."""


class DaemonLock:
    """The lock of one data directory, held by the daemon from before its SMTP server starts."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise AlreadyServed naming the daemon that holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd)
            os.close(fd)
            raise AlreadyServed(refusal(self.path.parent, holder)) from None
        self._fd = fd
        self.note(port=None)

    def note(self, *, port: int | None) -> None:
        """Write who holds the lock (and, once it listens, on which port) into the file."""
        if self._fd is None:
            return
        payload = json.dumps({"pid": os.getpid(), "port": port}).encode("ascii") + b"\n"
        os.pwrite(self._fd, payload, 0)
        os.ftruncate(self._fd, len(payload))

    def release(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            os.close(self._fd)
            self._fd = None


def refusal(data_dir: Path, found: dict[str, Any]) -> str:
    """Why a second daemon does not start, naming the first."""
    pid = found.get("pid") or "unknown"
    port = found.get("port") or "not listening yet"
    return (f"another `referee serve` already serves {data_dir} (pid {pid}, SMTP port {port}); two daemons on "
            "one data directory are not supported: stop that one first, or give this one a data directory of "
            "its own")


def _read(fd: int) -> dict[str, Any]:
    try:
        found = json.loads(os.pread(fd, 200, 0) or b"{}")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}
