"""`referee serve`: the SMTP server, the worker and the sender in one process.

The SMTP server runs in its own thread (aiosmtpd's Controller) and only spools. This thread
loops: process the spool, then deliver due mail, then sleep a little. A stop request (SIGTERM,
SIGINT) is honoured between two steps, so no mail is half-processed when the daemon exits;
anything left in the spool or the outbox is picked up at the next start.
"""

from __future__ import annotations

import logging
import threading
import time

from .smtp_server import IngestHandler, make_controller
from .wiring import Services

log = logging.getLogger("referee.daemon")


def serve(services: Services, stop: threading.Event, *, port: int | None = None,
          on_ready: "threading.Event | None" = None) -> None:
    settings = services.settings
    handler = IngestHandler(services.spool, settings, services.known_address)
    controller = make_controller(handler, settings, port=port)
    controller.start()
    log.info("listening on %s:%s for mail to *@%s", controller.hostname, controller.port, settings.hostname)
    worker = services.worker()
    relay = services.relay()
    try:
        services.send(relay, full_scan=True)  # whatever a crash left behind
        if on_ready is not None:
            on_ready.set()
        next_send = 0.0
        while not stop.is_set():
            for handled in worker.run_once(services.spool):
                log.info("mail %s: %s %s %s", handled.outcome, handled.game or "-", handled.player or "-",
                         handled.detail)
            if time.monotonic() >= next_send:
                report = services.send(relay)
                if report.sent or report.deferred or report.failed:
                    log.info("sent %d, deferred %d, failed %d", len(report.sent), len(report.deferred),
                             len(report.failed))
                next_send = time.monotonic() + settings.sender_interval_seconds
            stop.wait(settings.worker_interval_seconds)
    finally:
        controller.stop()
        log.info("stopped")
