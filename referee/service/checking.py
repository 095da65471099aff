"""CHECK: the receipt a set of orders would get now, and nothing changed.

The orders take the very path a submission takes (whatever the game's parser accepts: orders,
a plan, standing orders), inside a unit of work that is then thrown away unwritten, by a copy
of the service without its mail hooks: so a check can never differ from what sending the same
text would do, and can never queue mail, end a game or leave a trace.
"""

from __future__ import annotations

import copy
import dataclasses
import threading

from ..receipts import Receipt
from .submissions import Submission, Submissions


class _Discarded(Exception):
    """Carries the receipt out of a unit of work that must not be written."""

    def __init__(self, receipt: Receipt) -> None:
        super().__init__("check only")
        self.receipt = receipt


class Checking(Submissions):
    """Part of `Referee`: orders tried without being submitted."""

    def check(self, game_id: str, player: str, text: str, *, token: str | None = None,
              phase_key: str | None = None, source: str = "cli") -> Receipt:
        """The receipt `submit` would give these orders now; the game is left as it was."""
        return self.check_submission(game_id, Submission(player, text, token=token, phase_key=phase_key,
                                                         source=source))

    def check_submission(self, game_id: str, sub: Submission) -> Receipt:
        """The receipt `submit_many` would give this submission now (a mail's with its reader);
        the game is left as it was. A Message-ID is not looked up: a check is never a repeat."""
        sub = dataclasses.replace(sub, message_id=None)
        dry = copy.copy(self)
        dry.notifier = None
        dry.finished_hooks = []
        dry._ended = threading.local()
        try:
            with self.store.transaction(game_id) as tx:
                receipt = dry._submit_in(tx, game_id, sub, [])
                raise _Discarded(receipt)
        except _Discarded as done:
            return done.receipt
        raise AssertionError("unreachable")  # pragma: no cover
