"""The refusal record: mail that matched no seat, counted per sender and day, and who was told.

Mail that cannot be matched to a player (a wrong token, no token, a game that does not exist)
is answered with a short refusal only when its sender is a player of some game here, and then
at most `per_hour` times an hour: From is easily forged, and a refusal to a forged From is
mail to someone who never wrote. Everything else is counted and dropped.

The record is one small JSON file (`system/refusals.json`), rewritten under a lock for each
refused mail: per day, a count of mails from addresses in no game, and per player address
how many of its mails were refused and answered, with the times of the answers of the last
hour. Days older than DAYS_KEPT are dropped, so the file holds at most the players' addresses
for that many days and costs the same to update after the ten-thousandth refusal as after the
first. It is a record, not a log of every mail, and is written in place without a sync: a
crash may lose or damage its last counts (a damaged record starts again), never a mail.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable

from referee.locking import exclusive

DAYS_KEPT = 30
LOCK_TIMEOUT = 30.0


def write_in_place(path: Path, payload: bytes) -> None:
    """Overwrite a small record file in place (the caller holds its lock). Not a new file
    renamed over the old one: some file systems flush the data of a file renamed over another
    at once, and that cost more than all the rest of a refused mail."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        os.pwrite(fd, payload, 0)
        os.ftruncate(fd, len(payload))
    finally:
        os.close(fd)


class RefusalBook:
    def __init__(self, path: str | os.PathLike[str], per_hour: int, clock: Callable[[], datetime]) -> None:
        self.path, self.per_hour, self.clock = Path(path), per_hour, clock

    def answer(self, sender: str, *, player: bool, send: Callable[[], None]) -> bool:
        """Count one refused mail from `sender`, and `send` the refusal if it is due; whether
        it was. The refusal is queued before the answer is written down, both under the
        record's lock: a crash in between answers the mail again when it is read again (the
        same Message-ID, queued once), rather than never."""
        now = self.clock()
        with exclusive(f"{self.path}.lock", LOCK_TIMEOUT):
            days = self._read()
            for day in [d for d in days if d < (now - timedelta(days=DAYS_KEPT)).date().isoformat()]:
                del days[day]
            today = days.setdefault(now.date().isoformat(), {"strangers": 0, "senders": {}})
            if not player:
                today["strangers"] += 1
                answer = False
            else:
                key = sender.strip().lower()
                hour_ago = (now - timedelta(hours=1)).isoformat()
                recent = [at for day in days.values() for at in day["senders"].get(key, {}).get("answers", [])
                          if at > hour_ago]
                answer = len(recent) < self.per_hour
                if answer:
                    send()
                entry = today["senders"].setdefault(key, {"refused": 0, "answered": 0, "answers": []})
                entry["refused"] += 1
                entry["answers"] = [at for at in entry["answers"] if at > hour_ago]
                if answer:
                    entry["answered"] += 1
                    entry["answers"].append(now.isoformat())
            self._write(days)
        return answer

    def days(self) -> dict[str, Any]:
        """The record as it stands: day -> {"strangers": n, "senders": {address: counts}}."""
        return self._read()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):  # a damaged record starts again: it only counts
            return {}
        days = data.get("days") if isinstance(data, dict) else None
        return days if isinstance(days, dict) else {}

    def _write(self, days: dict[str, Any]) -> None:
        """Overwrite in place, under the lock (`write_in_place`)."""
        payload = json.dumps({"days": days}, sort_keys=True, separators=(",", ":")).encode("utf-8")
        write_in_place(self.path, payload)
