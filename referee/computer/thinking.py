"""Thinking apart: a computer player's decision runs in a process of its own, within a time
limit, so that nothing else waits for it and a search that runs away or crashes can be
stopped without harm.

`Thinker.decide` sends the observation to the process (`python -m
referee.computer.thinking`, a fresh interpreter: no fork of one that holds locks in
other threads, no second import of the caller's main module) and waits at most `timeout`
seconds for the lines. On a timeout the process is killed (a new one starts for the next
decision); a crash or an error in the search comes back as `ThinkingFailed` with the reason.
The caller then plays the seat's default orders (referee/service/computer_turns.py).

Requests and answers are pickled frames, each a length of 8 bytes and the bytes, on the
process's stdin and stdout. The process ends when its stdin does (its caller is gone).
"""

from __future__ import annotations

import logging
import os
import pickle
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from . import Observation

log = logging.getLogger("referee.computer")

DEFAULT_TIMEOUT = 30.0  # seconds a decision may take before the seat's default orders are played
START_TIMEOUT = 60.0  # seconds a new thinking process may take to get ready


class ThinkingFailed(Exception):
    """No answer: the search timed out, crashed or failed; the message says which."""


def _write(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value)
    stream.write(len(data).to_bytes(8, "big") + data)
    stream.flush()


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            raise EOFError("the pipe closed")
        data += chunk
    return data


def _read(stream: IO[bytes]) -> Any:
    return pickle.loads(_read_exactly(stream, int.from_bytes(_read_exactly(stream, 8), "big")))


class Thinker:
    """The caller's side of the thinking process; one decision at a time (a lock keeps
    callers in several threads apart)."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.timeout = timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def decide(self, seen: Observation, level: str, seed: str) -> list[str]:
        """The lines of the seat's next submission; ThinkingFailed when there is none in time."""
        with self._lock:
            process = self._ready()
            assert process.stdin is not None and process.stdout is not None
            try:
                _write(process.stdin, (seen.game, seen, level, seed))
                if not _wait(process.stdout, self.timeout):
                    self._stop()
                    raise ThinkingFailed(f"no decision within {self.timeout:g} s")
                status, value = _read(process.stdout)
            except (EOFError, OSError, pickle.UnpicklingError) as exc:
                self._stop()
                raise ThinkingFailed(f"the thinking process stopped ({type(exc).__name__})") from None
            if status != "ok":
                raise ThinkingFailed(str(value))
            return list(value)

    def _ready(self) -> subprocess.Popen[bytes]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._stop()
        root = Path(__file__).resolve().parents[2]  # the folder that holds referee/ and games/
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH", "")) if p)
        process = subprocess.Popen([sys.executable, "-m", "referee.computer.thinking"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, env=env)
        assert process.stdout is not None
        try:
            if not _wait(process.stdout, START_TIMEOUT) or _read(process.stdout) != "ready":
                raise EOFError("not ready")
        except (EOFError, OSError, pickle.UnpicklingError):
            process.kill()
            process.wait()
            raise ThinkingFailed("the thinking process did not start") from None
        self._process = process
        log.info("thinking process %d started", process.pid)
        return process

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()

    def close(self) -> None:
        with self._lock:
            self._stop()


def _wait(stream: IO[bytes], timeout: float) -> bool:
    """Whether the stream has something to read within `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return False
        try:
            ready, _, _ = select.select([stream], [], [], left)
        except InterruptedError:
            continue
        return bool(ready)


def main() -> None:
    """In the thinking process: answer decisions until stdin ends."""
    from .. import registry
    from . import decide

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    _write(stdout, "ready")
    while True:
        try:
            game_name, seen, level, seed = _read(stdin)
        except EOFError:
            return
        try:
            lines = decide(registry.get(game_name), seen, level, seed)
        except Exception as exc:  # sent back: the caller logs it and plays the default orders
            _write(stdout, ("error", f"{type(exc).__name__}: {exc}"))
        else:
            _write(stdout, ("ok", lines))


if __name__ == "__main__":
    main()
