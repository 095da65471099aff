"""Mail that reached a game with a token and was addressed to the game's plain address too.

Such a mail (To the game, Bcc the player's reply address) is two copies in the spool, which
the MTA may hand over in either order and to different processes (the `ingest` pipe takes one
recipient per delivery). The copy with the token is read; the plain copy must get no answer of
its own. When the plain copy is read first, its answer waits in the game's outbox and the token
copy withdraws it (mailer/outbound/notifier.py); when the token copy is read first, this book
remembers its Message-ID, so that the plain copy read later is filed unanswered. It lives
beside the refusal record, not in the game's file: a mail that was not played changes no game.

One small JSON file, rewritten under a lock, holding the Message-IDs of the last day, at most
KEPT of them; like the refusal record it is a record, not a log, and a damaged one starts again.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from referee.locking import exclusive

from .refusals import write_in_place

KEPT = 2000
KEPT_FOR = timedelta(days=1)
LOCK_TIMEOUT = 30.0


class TokenCopies:
    def __init__(self, path: str | os.PathLike[str], clock: Callable[[], datetime]) -> None:
        self.path, self.clock = Path(path), clock

    def add(self, game_id: str, message_id: str) -> None:
        now = self.clock()
        with exclusive(f"{self.path}.lock", LOCK_TIMEOUT):
            seen = {key: at for key, at in self._read().items() if at > (now - KEPT_FOR).isoformat()}
            seen[f"{game_id} {message_id}"] = now.isoformat()
            kept = dict(sorted(seen.items(), key=lambda item: item[1])[-KEPT:])
            payload = json.dumps(kept, separators=(",", ":")).encode("utf-8")
            write_in_place(self.path, payload)

    def seen(self, game_id: str, message_id: str | None) -> bool:
        return bool(message_id) and f"{game_id} {message_id}" in self._read()

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}
