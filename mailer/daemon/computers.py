"""The daemon's computer players: a thread that plays the decisions computer seats owe, while
the mail worker goes on with everyone's mail.

Games that wait for a computer seat say so in their meta, and the clock's wake index holds
them as due now (referee/service/ticking.py, `next_wake`); the thread looks at the index
every `LOOK_SECONDS`, and at once when the worker has just handled mail. For each such game
it lets `Referee.tick_computers` think (in the `Thinker`'s process of its own, within
`computer_seconds`) and submit; the thread itself only waits while the search runs, so no
game's mail waits for it. What it queued goes out with the sender's next round, which it
wakes.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from referee.computer.thinking import Thinker

from .wiring import Services

log = logging.getLogger("referee.computer")

LOOK_SECONDS = 0.5


class ComputerPlayers:
    def __init__(self, services: Services, on_mail: Callable[[], None]) -> None:
        self.services = services
        self.on_mail = on_mail
        self.thinker = Thinker(services.settings.computer_seconds)
        self._stop = threading.Event()
        self._nudge = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="computer-players", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """Look at once (the worker handled mail that may have made a computer seat's turn)."""
        self._nudge.set()

    def stop(self) -> None:
        self._stop.set()
        self._nudge.set()
        self.thinker.close()  # a decision under way ends at once; its game waits for the next start
        if self._thread is not None:
            self._thread.join(30)
        self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                played = self.play_due()
            except Exception:  # a bug must not stop the computer players for good; logged, tried again
                log.exception("the computer players' pass failed")
                played = 0
            if played:
                self.on_mail()
                continue
            self._nudge.wait(LOOK_SECONDS)
            self._nudge.clear()

    def play_due(self) -> int:
        """Every decision due now in every game; how many were played."""
        played = 0
        for game_id in self.due_games():
            if self._stop.is_set():
                break
            for action in self.services.referee.tick_computers(game_id, self.thinker.decide):
                log.info("computer %s: %s %s (%s)", action.game, action.action, action.detail,
                         ", ".join(action.players) or "-")
                played += 1
        return played

    def due_games(self) -> list[str]:
        """Games whose computer seats owe a decision now, by the wake index and their meta."""
        store = self.services.store
        now = self.services.clock().timestamp()
        hints = store.wake_due(now)
        ids = [g for g, due in hints.items() if due] if hints is not None else \
            [r["id"] for r in store.list() if r.get("status") == "active"]
        out = []
        for game_id in sorted(ids):
            try:
                meta = store.load(game_id).meta
            except Exception:  # gone or broken: the tick reports it
                continue
            if meta.get("computers") and meta.get("status") == "active" and not meta.get("paused"):
                out.append(game_id)
        return out
