"""The daemon's helper processes: started with their settings on stdin, gone with the daemon.

`referee serve` runs its SMTP server (mailer/inbound/ingest.py) and, on a machine with more
than one processor, some of its mail workers (mailer/daemon/shares.py) as child processes:
Python runs one thread at a time per process, and the work of each is mostly Python. A child
is `python -m <module>`; it reads its settings, pickled, from stdin and says "ready" on
stdout. It dies with its parent: on Linux the kernel kills it (PR_SET_PDEATHSIG), and
everywhere it stops when its stdin reaches end of file, which happens when the parent is gone
however it died. So a killed daemon never leaves a child behind holding a port or a spool.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO

PR_SET_PDEATHSIG = 1
START_TIMEOUT = 60.0


class ChildError(RuntimeError):
    """A child process could not start; the message says why."""


class Child:
    """Parent side: start, watch and stop one child process."""

    def __init__(self, module: str, payload: Any, log_file: str = "") -> None:
        self.module, self.payload = module, payload
        self.log_file = log_file  # where the child's log (its standard error) goes; empty: ours
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        root = Path(__file__).resolve().parents[1]  # the folder that holds mailer/
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH", "")) if p)
        log = open(self.log_file, "ab") if self.log_file else None  # the child keeps its own copy
        try:
            self.proc = subprocess.Popen([sys.executable, "-m", self.module], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=log, env=env, cwd=os.getcwd())
        finally:
            if log is not None:
                log.close()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        data = pickle.dumps(self.payload)
        self.proc.stdin.write(len(data).to_bytes(8, "big") + data)
        self.proc.stdin.flush()
        line = _read_line(self.proc, START_TIMEOUT)
        if line != "ready":
            self.stop()
            raise ChildError(line or f"{self.module} exited before it was ready")

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def stdout(self) -> BinaryIO | None:
        return self.proc.stdout if self.proc is not None else None  # type: ignore[return-value]

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        """Ask the child to stop (closing its stdin) and wait for it."""
        if self.proc is None:
            return
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass  # the child is gone already and its pipe with it
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.proc = None


def _read_line(proc: subprocess.Popen[bytes], timeout: float) -> str:
    """The child's first line, or "" if it exits or says nothing in time."""
    found: list[bytes] = []
    reader = threading.Thread(target=lambda: found.append(proc.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout)
    return found[0].decode("utf-8", "replace").strip() if found else ""


def child_payload() -> Any:
    """In the child: die with the parent, ignore Ctrl-C (it reaches the parent, which stops
    us), and read what the parent sent."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass  # stdin's end of file still stops the child
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stdin = sys.stdin.buffer
    size = int.from_bytes(stdin.read(8) or b"\0" * 8, "big")
    return pickle.loads(stdin.read(size))


def until_parent_leaves() -> None:
    """In the child: return once the parent closes our stdin or dies."""
    while sys.stdin.buffer.read(4096):
        continue
