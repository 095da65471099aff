"""The SMTP server in a process of its own, for `referee serve`.

The server only spools; the worker parses, checks and stores. Sharing one interpreter, they
shared one lock, and while the worker was busy every SMTP reply waited for it: a burst of mail
was answered several times slower than the server could take it. So the daemon starts the
server as a child process (`python -m mailer.inbound.ingest`), hands it the settings on stdin
and waits for its "ready" line. The child dies with its parent: on Linux the kernel kills it
(PR_SET_PDEATHSIG), and everywhere it stops when its stdin reaches end of file, which happens
when the parent is gone however it died. So a killed daemon never leaves a server holding the
port, and the spool is all the two share.
"""

from __future__ import annotations

import ctypes
import logging
import os
import pickle
import signal
import subprocess
import sys
import threading
from pathlib import Path

from referee.config import Settings

PR_SET_PDEATHSIG = 1
START_TIMEOUT = 60.0


class IngestError(RuntimeError):
    """The SMTP server process could not start."""


class IngestProcess:
    """Parent side: start, watch and stop the SMTP server process."""

    def __init__(self, settings: Settings, port: int | None = None) -> None:
        self.settings = settings
        self.port = settings.listen_port if port is None else port
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        root = Path(__file__).resolve().parents[2]  # the folder that holds mailer/
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH", "")) if p)
        self.proc = subprocess.Popen([sys.executable, "-m", "mailer.inbound.ingest"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env, cwd=os.getcwd())
        assert self.proc.stdin is not None and self.proc.stdout is not None
        payload = pickle.dumps((self.settings, self.port))
        self.proc.stdin.write(len(payload).to_bytes(8, "big") + payload)
        self.proc.stdin.flush()
        line = _read_line(self.proc, START_TIMEOUT)
        if line != "ready":
            self.stop()
            raise IngestError(line or "the SMTP server process exited before it was ready")

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


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass  # stdin's end of file still stops the child


def main() -> None:
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the parent, which stops us
    stdin = sys.stdin.buffer
    size = int.from_bytes(stdin.read(8) or b"\0" * 8, "big")
    settings, port = pickle.loads(stdin.read(size))

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
        while stdin.read(4096):  # returns b"" once the parent closes our stdin or dies
            continue
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
