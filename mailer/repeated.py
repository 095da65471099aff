"""Errors that come back again and again, logged once a minute with a count (and other lines
that a flood would repeat, such as mail from strangers taken without an answer).

A resource that has run out (file descriptors, memory, disk) makes the same error return for
every connection or every pass: at a low descriptor limit the SMTP server once wrote 28,833
tracebacks (11.7 MB) in 15 s and buried everything else in the log. Here the first error of a
kind is logged at once; the ones that follow within the minute are only counted, and when the
minute is over one line gives the count (a timer writes it even if the errors have stopped).
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from dataclasses import dataclass
from typing import Callable

RESOURCE_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM, errno.ENOSPC, errno.EDQUOT})
MAX_KINDS = 1000  # kinds are few (one per place and error); a bound all the same


def is_resource_error(exc: BaseException | None) -> bool:
    return isinstance(exc, OSError) and exc.errno in RESOURCE_ERRNOS


@dataclass
class _Kind:
    started: float
    text: str
    count: int = 0  # since `started`, not logged yet
    level: int = logging.ERROR


class RepeatedLog:
    def __init__(self, logger: logging.Logger, interval: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger, self.interval, self.clock = logger, interval, clock
        self._kinds: dict[str, _Kind] = {}
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    def error(self, kind: str, text: str, *, level: int = logging.ERROR) -> None:
        """Log `text` now if no error of this `kind` was logged in the last interval; else
        count it for the line that ends the interval."""
        with self._lock:
            entry = self._kinds.get(kind)
            if entry is not None:
                entry.count += 1
                self._schedule()
                return
            if len(self._kinds) >= MAX_KINDS:
                self._kinds.clear()
            self._kinds[kind] = _Kind(self.clock(), text, level=level)
        self.logger.log(level, "%s", text)

    def flush(self, *, everything: bool = False) -> None:
        """Write the count of every kind whose interval is over (all of them with
        `everything`, as when the process stops). A kind still counting starts a new interval,
        so a storm that goes on gives one line a minute."""
        lines: list[tuple[str, int, int]] = []
        with self._lock:
            self._timer = None
            now = self.clock()
            for kind, entry in list(self._kinds.items()):
                if not everything and now - entry.started < self.interval:
                    continue
                if entry.count:
                    lines.append((entry.text, entry.count, entry.level))
                    entry.started, entry.count = now, 0
                else:
                    del self._kinds[kind]
            if self._kinds and not everything:
                self._schedule()
        for text, count, level in lines:
            self.logger.log(level, "%s (%d more time(s) in the last %.0f s)", text, count, self.interval)

    def _schedule(self) -> None:
        if self._timer is not None:
            return
        due = min(entry.started for entry in self._kinds.values()) + self.interval
        self._timer = threading.Timer(max(0.0, due - self.clock()) + 0.01, self.flush)
        self._timer.daemon = True
        self._timer.start()
