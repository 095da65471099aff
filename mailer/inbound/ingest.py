"""The SMTP server in a process of its own, for `referee serve`.

The server only spools; the worker parses, checks and stores. Sharing one interpreter, they
shared one lock, and while the worker was busy every SMTP reply waited for it: a burst of mail
was answered several times slower than the server could take it. So the daemon starts the
server as a child process (`python -m mailer.inbound.ingest`, mailer/children.py: settings
on stdin, "ready" on stdout, gone with the daemon), and the spool is all the two share.
"""

from __future__ import annotations

import logging
import os
import sys

from mailer.children import Child, ChildError, child_payload, until_parent_leaves
from referee.config import Settings

IngestError = ChildError  # the SMTP server process could not start


class IngestProcess(Child):
    """Parent side: start, watch and stop the SMTP server process."""

    def __init__(self, settings: Settings, port: int | None = None) -> None:
        self.settings = settings
        self.port = settings.listen_port if port is None else port
        super().__init__("mailer.inbound.ingest", (settings, self.port), settings.log_file)


def main() -> None:
    settings, port = child_payload()

    from referee.store import TinyDBStore, remember_existing

    from .addresses import is_game_address
    from .directory import SeatTokens
    from .smtp_server import IngestHandler, make_controller
    from .spool import Spool

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s", stream=sys.stderr)
    store = TinyDBStore(settings.data_dir)
    exists = remember_existing(store.exists)  # games are never removed
    handler = IngestHandler(Spool(settings.data_dir / "spool"), settings,
                            lambda address: is_game_address(address, settings.hostname, exists),
                            SeatTokens(store.games_dir, settings.hostname, exists).valid)
    controller = make_controller(handler, settings, port=port)
    try:
        controller.start()
    except Exception as exc:  # the port is taken, say: the parent reports it
        print(f"{type(exc).__name__}: {exc}".replace("\n", " "), flush=True)
        # at once: the half-started server's event loop, collected on a normal exit, would
        # print a traceback of its own about a descriptor already closed
        os._exit(1)
    print("ready", flush=True)
    try:
        until_parent_leaves()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
