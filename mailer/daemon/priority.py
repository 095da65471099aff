"""The daemon's processing below the SMTP server's priority, in every process that does it."""

from __future__ import annotations

import os

WORKER_NICENESS = 5


def yield_to_smtp() -> None:
    """Lower this thread's priority (and that of the worker threads it starts) below the SMTP
    server's: when the processor is short, answering SMTP promptly matters more than
    processing at once, and mail that waits a moment is processed in larger, cheaper runs.
    On Linux niceness is per thread, so a daemon run inside another program lowers only its
    own thread."""
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):
        pass  # no nice here: everything runs at one priority
