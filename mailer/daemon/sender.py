"""The daemon's sender: due mail delivered to the relay in a thread beside the worker (in the
daemon's own process, or in mailer/daemon/sender_process.py's)."""

from __future__ import annotations

import logging
import threading
import time

from mailer.outbound.relay import Relay

from .wiring import Services

log = logging.getLogger("referee.daemon")

SKIPPED_LOG_SECONDS = 3600.0


class Sender:
    """Delivers due mail when asked, in a thread beside the worker. A pass uses up to
    `relay_connections` connections and goes on while mail keeps coming due
    (mailer/outbound/sending.py); an ask made during a pass makes it look for new mail at
    once, and another pass follows."""

    def __init__(self, services: Services, relay: Relay) -> None:
        self.services, self.relay = services, relay
        self._asked, self._stopping = threading.Event(), threading.Event()
        self._nudge = threading.Event()  # for the pass under way
        self._full_scan = True  # the first pass looks at every game: a crash may have lost a marker
        self._told: dict[str, float] = {}  # a game file's problem, when it was last logged
        self._thread = threading.Thread(target=self._run, name="sender", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def ask(self) -> None:
        self._nudge.set()
        self._asked.set()

    def wake(self) -> None:
        """New mail is queued: a pass starts now if none is under way (one under way finds it
        at its next look, within REFRESH_SECONDS), so an answer does not wait for the next
        `sender_interval_seconds`."""
        self._asked.set()

    def stop(self) -> None:
        """Return once the pass under way has handed over the mails on its connections."""
        self._stopping.set()
        self._asked.set()
        self._thread.join()

    def _run(self) -> None:
        while True:
            self._asked.wait()
            if self._stopping.is_set():
                return
            self._asked.clear()
            self._nudge.clear()
            try:
                report = self.services.send(self.relay, full_scan=self._full_scan,
                                            keep_going=lambda: not self._stopping.is_set(), nudge=self._nudge)
            except Exception:  # the next pass tries again
                log.exception("sending failed")
                continue
            self._full_scan = False
            self._tell(report.skipped)
            if report.sent or report.deferred or report.failed:
                (log.warning if report.troubles else log.info)("%s", report.summary())

    def _tell(self, problems: list[str]) -> None:
        """Log why a game's mail could not be looked at: once, then again at most hourly."""
        now = time.monotonic()
        for problem in problems:
            if now - self._told.get(problem, -SKIPPED_LOG_SECONDS) >= SKIPPED_LOG_SECONDS:
                self._told[problem] = now
                log.error("mail of one game not sent: %s", problem)
