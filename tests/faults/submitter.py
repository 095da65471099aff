"""Run by the concurrency test in several processes at once:
`python -m tests.faults.submitter DATA START_AT JOBS_JSON`.

Waits until the wall-clock START_AT so that every process begins together, then submits each
(game, player, text) through the service with the mail notifier, as the daemon's worker
would, and prints one JSON line per submission: game, player, receipt status.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from mailer.daemon.wiring import build
from referee import registry
from referee.config import Settings

from .fives import FIVES


def main() -> None:
    data, start_at, jobs = Path(sys.argv[1]), float(sys.argv[2]), json.loads(sys.argv[3])
    table = {**registry.games(), FIVES.name: FIVES}
    registry.games = lambda: dict(table)  # type: ignore[assignment]
    referee = build(Settings(hostname="games.test", data_dir=data)).referee
    while time.time() < start_at:
        time.sleep(0.001)
    for gid, player, text in jobs:
        receipt = referee.submit(gid, player, text, message_id=f"<{gid}.{player}@players.test>", source="mail")
        print(json.dumps({"game": gid, "player": player, "status": receipt.status, "reason": receipt.reason}),
              flush=True)


if __name__ == "__main__":
    main()
