"""The SMTP server's count of mails per sender, which forgets and stays small.

A sender may have `limit` mails taken in a window of `window` seconds that starts with its
first. Only mails the server took count: a MAIL command costs nothing, so nobody can use up
another address's allowance without sending mail under it. A sender is forgotten as soon as
its window is over, and at most `max_senders` are remembered at once (the oldest windows go
first), so a flood of made-up sender addresses cannot grow the table without bound: 88,000
senders in a quarter of a minute once took 84 MB.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Callable

MAX_SENDERS = 10_000  # a few megabytes; far more senders than a game server meets in an hour


class SenderRateLimit:
    def __init__(self, limit: int, window: float = 3600.0, clock: Callable[[], float] = time.monotonic,
                 max_senders: int = MAX_SENDERS) -> None:
        self.limit, self.window, self.clock, self.max_senders = limit, window, clock, max_senders
        self._seen: OrderedDict[str, list[float]] = OrderedDict()  # sender -> [window start, count]

    def __len__(self) -> int:
        return len(self._seen)

    def full(self, sender: str) -> bool:
        """Whether `sender` has had `limit` mails taken in its current window."""
        self._forget(self.clock())
        entry = self._seen.get(sender.lower())
        return entry is not None and entry[1] >= self.limit

    def count(self, sender: str) -> None:
        """One more mail from `sender` was taken."""
        now = self.clock()
        self._forget(now)
        key = sender.lower()
        entry = self._seen.get(key)
        if entry is not None:
            entry[1] += 1
            return
        while len(self._seen) >= self.max_senders:
            self._seen.popitem(last=False)
        self._seen[key] = [now, 1]

    def allow(self, sender: str) -> bool:
        """Count a mail from `sender` if its window has room; whether it had."""
        if self.full(sender):
            return False
        self.count(sender)
        return True

    def _forget(self, now: float) -> None:
        """Drop the senders whose window is over: windows start in the order senders were
        added, so they are the first ones."""
        while self._seen:
            started = next(iter(self._seen.values()))[0]
            if now - started <= self.window:
                return
            self._seen.popitem(last=False)
