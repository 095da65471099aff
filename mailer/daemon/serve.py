"""`referee serve`: the SMTP server, the worker and the sender.

The SMTP server runs in a child process (mailer/inbound/ingest.py) and only spools; if it dies
it is started again. This process loops: process the spool, pass due deadlines and reminders
(every `tick_interval_seconds`; `referee tick` from cron may run at the same time, the store's
lock keeps them apart and the schedule record keeps either from doing anything twice), ask for
due mail to be delivered (every `sender_interval_seconds`, and at once after a tick), then
sleep. Delivery runs in a thread of its own: a relay that is slow or unreachable makes each
attempt wait up to its timeout, and orders must not wait behind it. A stop request (SIGTERM,
SIGINT) is honoured between two steps, and the sender finishes the mails its connections are
handing over, so no mail is half-processed when the daemon exits; anything left in the spool or
the outbox is picked up at the next start.
"""

from __future__ import annotations

import logging
import threading
import time

from mailer.inbound.ingest import IngestProcess
from referee.service import system_clock

from .priority import yield_to_smtp
from .sender import Sender
from .sender_process import SenderProcess
from .shares import WorkerShares, game_table, worker_count
from .wiring import Services
from .worker import MailWorker

log = logging.getLogger("referee.daemon")


def serve(services: Services, stop: threading.Event, *, port: int | None = None,
          on_ready: "threading.Event | None" = None) -> None:
    settings = services.settings
    relay = services.relay()  # a capture Maildir exists before the first mail is taken
    ingest = IngestProcess(settings, port)
    ingest.start()
    yield_to_smtp()
    log.info("listening on %s:%s for mail to *@%s", settings.listen_host, ingest.port, settings.hostname)
    shares: WorkerShares | None = None
    try:
        worker = services.worker()
        count, games = worker_count(settings.worker_processes), game_table()
        if count > 1 and (games is None or services.clock is not system_clock):
            # a worker process of its own plays the installed games on the system's clock
            log.warning("one mail worker only: a game here or the daemon's clock is not one a worker process "
                        "of its own would have")
            count = 1
        worker.share = (0, count)
        swept = services.sweep()  # before any other worker writes
        if swept:
            log.warning("deleted %d temporary file(s) left by an interrupted write", len(swept))
        sender: Sender | SenderProcess = Sender(services, relay)
        if count > 1 and "relay" not in vars(services):  # the relay of the settings: a process can make it
            sender = SenderProcess(settings)
        shares = WorkerShares(settings, count, sender.wake, games or {})
        shares.start()  # they get ready while this process does
        if count > 1:
            log.info("%d mail workers, each with its share of the games", count)
        for problem in services.warm_up():  # the SMTP server already takes mail meanwhile
            log.error("%s", problem)
        for problem in services.broken_games():  # these games stop; every other one goes on
            log.error("%s", problem)
        sender.start()
        sender.ask()  # whatever a crash left behind goes first
        if on_ready is not None:
            on_ready.set()
        try:
            _loop(services, stop, ingest, worker, sender, shares)
        finally:
            sender.stop()  # first: it waits only for the mails on its connections
            shares.stop()
    finally:
        if shares is not None:
            shares.stop()
        ingest.stop()
        log.info("stopped")


def _loop(services: Services, stop: threading.Event, ingest: IngestProcess, worker: MailWorker,
          sender: "Sender | SenderProcess", shares: WorkerShares) -> None:
    settings = services.settings
    next_send = next_tick = 0.0
    while not stop.is_set():
        if not ingest.alive():
            log.error("the SMTP server process stopped; starting it again")
            ingest.start()
        shares.keep_alive()
        if isinstance(sender, SenderProcess) and not sender.alive():
            log.error("the sender's process stopped; starting it again")
            sender.stop()
            sender.start()
        try:
            handled_now = worker.run_once(services.spool)
        except Exception:  # the worker guards each mail; this keeps a bug from stopping the daemon
            log.exception("the worker's pass failed")
            handled_now = []
        for handled in handled_now:
            log.info("mail %s %s: %s %s%s", handled.message_id or "<no Message-ID>", handled.outcome,
                     handled.game or "-", handled.player or "-", f" {handled.detail}" if handled.detail else "")
        if handled_now:
            sender.wake()
        if time.monotonic() >= next_tick and not stop.is_set():
            try:
                for action in services.tick():
                    log.info("tick %s: %s %s (%s)", action.game, action.action, action.detail,
                             ", ".join(action.players) or "-")
            except Exception:  # a broken game must not stop the mail; the next tick retries
                log.exception("tick failed")
            next_tick = time.monotonic() + settings.tick_interval_seconds
            next_send = 0.0  # what the tick queued goes out now
        if time.monotonic() >= next_send:
            sender.ask()
            next_send = time.monotonic() + settings.sender_interval_seconds
        if not handled_now:  # with mail still arriving, the next pass starts at once
            stop.wait(settings.worker_interval_seconds)
