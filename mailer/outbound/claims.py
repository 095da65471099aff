"""Claims: which sender holds a mail, so that no two senders give the relay the same mail.

Any number of processes may send at once: the daemon, `tick` from cron, several `ingest`
run by the MTA, `outbox retry`. Before a mail goes to the relay its sender claims it with an
exclusive lock (flock) on a small file named after the mail, `.claims/<game>.<hash>` in the
outbox's marker directory. Claims are taken only while the game's file lock is held and only
for mail the game file records as pending, and the game file records a mail as sent before
its claim file is deleted; so nobody can claim a mail whose sending is already recorded.

As soon as the relay has answered 250 the holder writes "sent" into the file and syncs it;
the game file is updated later, for many mails at once. The kernel releases a lock when its
holder dies, however it dies, so a crashed sender holds nothing up: the next sender finds the
file and either reads "sent" (the mail is recorded as sent and never given to the relay
again) or finds it empty. An empty file left by a crash is the one case of a repeat: the relay
may have taken that mail just before the crash, and it is sent again with the same
Message-ID. A sender has only the mails on its open connections in that state.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from pathlib import Path

SENT = b"sent"


def claim_name(game_id: str, message_id: str) -> str:
    return f"{game_id}.{hashlib.sha256(message_id.encode('utf-8')).hexdigest()[:32]}"


class Claim:
    """A mail held by this process: an open, locked claim file."""

    def __init__(self, path: str, fd: int, sent: bool) -> None:
        self.path, self.fd = path, fd
        self.sent = sent  # the file said "sent" when it was claimed, or `record_sent` was called

    def record_sent(self) -> None:
        """The relay has taken the mail: say so durably before anything else happens."""
        os.pwrite(self.fd, SENT, 0)
        os.fsync(self.fd)
        self.sent = True

    def release(self, *, remove: bool) -> None:
        """Let go of the mail. `remove` deletes the file: only once the game file records the
        outcome, or for a file that never said "sent"."""
        if self.fd < 0:
            return
        if remove:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass  # removed with the game's other claims already
        os.close(self.fd)
        self.fd = -1


class Claims:
    """The claim files of one outbox."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._root = str(self.root)

    def take(self, game_id: str, message_id: str) -> Claim | None:
        """Claim a mail, or None when another sender holds it. Call with the game's lock held."""
        path = f"{self._root}/{claim_name(game_id, message_id)}"
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                return None
            if os.fstat(fd).st_nlink == 0:  # deleted between our open and our lock: take the new one
                os.close(fd)
                continue
            return Claim(path, fd, os.pread(fd, len(SENT), 0) == SENT)

    def sync(self) -> None:
        """Make the names of new claim files durable (once per batch, not per mail)."""
        fd = os.open(self._root, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def of_game(self, game_id: str) -> list[str]:
        """The names of a game's claim files."""
        prefix = f"{game_id}."
        return [entry.name for entry in os.scandir(self._root) if entry.name.startswith(prefix)]

    def remove(self, name: str) -> None:
        try:
            os.unlink(f"{self._root}/{name}")
        except FileNotFoundError:
            pass
