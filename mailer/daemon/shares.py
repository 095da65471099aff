"""More mail workers, each in a process of its own with its share of the games.

The worker's work is mostly Python, which runs one thread at a time per process, so on a
machine with several processors one worker process leaves the others idle while mail waits.
`referee serve` therefore shares the games out among `worker_processes` workers: its own
(share 0, beside the sender and the clock) and one child process per other share
(`python -m mailer.daemon.shares`, started and stopped as mailer/children.py says). A mail
belongs to the share of the game its Delivered-To names (`MailWorker.share`), so one game's
mail is always worked on by one process, in the order it arrived; games are independent, and
what keeps two processes apart on one game (a CLI command, `referee ingest`) is the game
file's lock, as always. A child says "mail" on stdout after a pass that queued mail, and the
daemon wakes its sender at once.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
import threading
import time
from typing import Any, Callable

from mailer.children import Child, ChildError, child_payload
from referee import registry

log = logging.getLogger("referee.daemon")

MOST_BY_DEFAULT = 4
RESTART_SECONDS = 30.0  # a child that would not start is tried again after this long


def game_table() -> dict[str, str] | None:
    """Where each game this process plays comes from (`module:name`), so that a child plays
    exactly the same ones (the installed games, and any a test added); None when a game cannot
    be found by name in a module, which a child could not import."""
    table: dict[str, str] = {}
    games = registry.games()  # first: it may import the games' modules
    modules = [m for name, m in sorted(sys.modules.items()) if m is not None and name != "__main__"]
    for name, game in games.items():
        place = next((f"{module.__name__}:{attr}" for module in modules
                      for attr, value in list(getattr(module, "__dict__", {}).items())
                      if value is game and not attr.startswith("_")), None)
        if place is None:
            return None
        table[name] = place
    return table


def play_games(table: dict[str, str]) -> None:
    """In a child: the games of the parent's `game_table`, instead of looking them up again."""
    loaded: dict[str, Any] = {}
    for name, place in table.items():
        module, _, attr = place.partition(":")
        loaded[name] = getattr(importlib.import_module(module), attr)
    registry.games = lambda: dict(loaded)  # type: ignore[assignment]


def worker_count(configured: int) -> int:
    """How many workers: as configured, or (0) one per processor, at most MOST_BY_DEFAULT."""
    if configured > 0:
        return configured
    return max(1, min(os.cpu_count() or 1, MOST_BY_DEFAULT))


class WorkerShares:
    """The daemon's side: the child workers of shares 1 to count - 1."""

    def __init__(self, settings: object, count: int, wake: Callable[[], None], games: dict[str, str]) -> None:
        self.settings, self.count, self.wake, self.games = settings, count, wake, games
        self.children: dict[int, Child] = {}
        self._failed: dict[int, float] = {}  # shares whose child did not start, and when

    def start(self) -> None:
        """Start every child, each in a thread of its own: the daemon goes on getting ready
        meanwhile, and a share's mail waits in the spool until its worker is."""
        for index in range(1, self.count):
            self._start(index)

    def _start(self, index: int) -> None:
        child = Child("mailer.daemon.shares", (self.settings, index, self.count, self.games), self.settings.log_file)
        self.children[index] = child
        threading.Thread(target=self._run, args=(index, child), name=f"share-{index}", daemon=True).start()

    def _run(self, index: int, child: Child) -> None:
        """Start the child, then wake the sender whenever it has queued mail; ends with it."""
        try:
            child.start()
        except (ChildError, OSError) as exc:  # `keep_alive` tries again
            log.error("the mail worker of share %d of %d did not start: %s", index, self.count, exc)
            self._failed[index] = time.monotonic()
            return
        log.info("the mail worker of share %d of %d is ready (process %d)", index, self.count, child.pid)
        stream = child.stdout
        while stream is not None:
            try:
                line = stream.readline()
            except (OSError, ValueError):  # closed by `stop`
                return
            if not line:
                return
            self.wake()

    def keep_alive(self) -> None:
        """Start again a child that died (its mail waits in the spool meanwhile)."""
        now = time.monotonic()
        for index, child in list(self.children.items()):
            failed = self._failed.get(index)
            if failed is not None and now - failed >= RESTART_SECONDS:
                del self._failed[index]
                self._start(index)
            elif failed is None and child.proc is not None and not child.alive():
                log.error("the mail worker of share %d of %d stopped; starting it again", index, self.count)
                child.stop()
                self._start(index)

    def stop(self) -> None:
        for child in self.children.values():
            child.stop()
        self.children.clear()


def main() -> None:
    settings, index, count, games = child_payload()
    play_games(games)

    from .priority import yield_to_smtp
    from .wiring import build
    from .worker import log_handled

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s", stream=sys.stderr)
    services = build(settings)
    for problem in services.warm_up():
        log.error("%s", problem)
    worker = services.worker()
    worker.share = (index, count)
    yield_to_smtp()
    stop = threading.Event()

    def watch_parent() -> None:
        while sys.stdin.buffer.read(4096):
            continue
        stop.set()

    threading.Thread(target=watch_parent, name="parent", daemon=True).start()
    print("ready", flush=True)
    while not stop.is_set():
        try:
            handled = worker.run_once(services.spool)
        except Exception:  # the worker guards each mail; this keeps a bug from stopping the share
            log.exception("the worker's pass failed (share %d of %d)", index, count)
            handled = []
        for mail in handled:
            log_handled(mail)
        if handled:
            print("mail", flush=True)
        else:
            stop.wait(settings.worker_interval_seconds)


if __name__ == "__main__":
    main()
