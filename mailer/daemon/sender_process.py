"""The daemon's sender in a process of its own, on a machine with more than one processor.

Delivering mail is mostly waiting (for the relay, for the disk), but what it does in between
is Python, and in the daemon's own process it waited for the interpreter behind the worker's
threads: under a steady load, mail queued in a second reached the relay a second or more
later. So where the workers have processes of their own (mailer/daemon/shares.py), the sender
has one too (`python -m mailer.daemon.sender_process`, mailer/children.py). The daemon passes
on what its `Sender` is told: a byte on the child's stdin, "w" for new mail (`wake`) and "a"
for a look now (`ask`); when stdin ends the child stops as `Sender.stop` does: it finishes the
mails on its connections and exits.
"""

from __future__ import annotations

import logging
import sys
import threading

from mailer.children import Child, child_payload

log = logging.getLogger("referee.sender")


class SenderProcess(Child):
    """The daemon's side: the same calls as `Sender`, passed to the child."""

    def __init__(self, settings: object) -> None:
        super().__init__("mailer.daemon.sender_process", settings, settings.log_file)
        self._lock = threading.Lock()

    def wake(self) -> None:
        self._say(b"w")

    def ask(self) -> None:
        self._say(b"a")

    def _say(self, what: bytes) -> None:
        with self._lock:
            if self.proc is None or self.proc.stdin is None:
                return
            try:
                self.proc.stdin.write(what)
                self.proc.stdin.flush()
            except (OSError, ValueError):  # gone: the daemon's loop starts it again
                pass


def main() -> None:
    settings = child_payload()

    from .priority import yield_to_smtp
    from .sender import Sender
    from .wiring import build

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s", stream=sys.stderr)
    services = build(settings)
    sender = Sender(services, services.relay())
    yield_to_smtp()  # the threads it starts run below the SMTP server's priority too
    sender.start()
    sender.ask()  # whatever a crash left behind goes first
    print("ready", flush=True)
    stdin = sys.stdin.buffer
    while True:
        said = stdin.read(1)
        if not said:
            break
        if said == b"a":
            sender.ask()
        else:
            sender.wake()
    sender.stop()


if __name__ == "__main__":
    main()
