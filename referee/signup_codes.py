"""Which game a sign-up's one-time code belongs to, found in one look-up.

A CONFIRM (or a reply to a confirmation mail) carries only its code. Finding the game by
reading every open game's file, and then every started one's for a code used twice, cost half
a second a mail with a hundred large games, and anyone can send a made-up code. So each code
gets a file of its own, `signup-codes/<hash of the code>`, holding the game's id: a code is
looked up by opening one file. The file is named by a hash so that a listing of the folder
reveals no code.

The index only says where to look; the game's own record decides. An entry is written and
synced before the unit of work that records its sign-up, so no recorded sign-up lacks one; an
entry whose sign-up was never written, lapsed, was pushed out or declined leads to a game that
no longer has it, which is answered like an unknown code. Entries are deleted once they are
older than a sign-up can wait plus a margin (a confirmation processed twice is still
recognised as a repeat within it). Sign-ups recorded before the index existed are added the
first time the index is used.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Callable, Iterable

from .storage import fsync_dir

FOLDER = "signup-codes"
BUILT = ".built"  # the sign-ups of older versions were added
KEEP_SECONDS = 4 * 24 * 3600  # a sign-up waits two days at most; the rest is the margin for repeats
SWEEP_EVERY = 3600.0


class SignupCodes:
    def __init__(self, root: str | os.PathLike[str], clock: Callable[[], float] = time.time) -> None:
        self.root = Path(root)
        self.clock = clock
        self._swept_at = float("-inf")

    def add(self, code: str, game_id: str) -> None:
        """Note where `code` leads, durably; now and then forget entries past KEEP_SECONDS."""
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.root / _name(code)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, game_id.encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_dir(self.root)
        if self.clock() - self._swept_at >= SWEEP_EVERY:
            self.sweep()

    def find(self, code: str) -> str | None:
        """The game `code` was given out for, or None."""
        try:
            with open(self.root / _name(code), "rb") as handle:
                return handle.read(200).decode("ascii", "replace") or None
        except (FileNotFoundError, NotADirectoryError):
            return None

    def sweep(self) -> int:
        """Delete the entries older than KEEP_SECONDS; how many."""
        self._swept_at = now = self.clock()
        removed = 0
        try:
            entries = list(os.scandir(self.root))
        except FileNotFoundError:
            return 0
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                if now - entry.stat().st_mtime > KEEP_SECONDS:
                    os.unlink(entry.path)
                    removed += 1
            except FileNotFoundError:
                continue
        return removed

    def adopt(self, found: Callable[[], Iterable[tuple[str, str]]]) -> None:
        """Once: add the (code, game) pairs of sign-ups recorded before the index existed."""
        if (self.root / BUILT).exists():
            return
        for code, game_id in found():
            self.add(code, game_id)
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / BUILT).touch()


def _name(code: str) -> str:
    return hashlib.sha256(code.strip().lower().encode("utf-8")).hexdigest()[:40]
