"""`referee serve` runs its SMTP server as a child process: it starts, refuses a taken port
clearly, is started again when it dies, and never outlives the daemon."""

import os
import signal
import smtplib
import socket
import threading
import time

import pytest

from mailer.daemon.serve import serve
from mailer.daemon.wiring import build
from mailer.inbound.ingest import IngestError, IngestProcess
from referee.config import Settings

from ..net import free_port


def settings(tmp_path, port):
    return Settings(hostname="games.test", data_dir=tmp_path / "data", listen_port=port)


def answers(port: int) -> bool:
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=5) as smtp:
            return smtp.noop()[0] == 250
    except OSError:
        return False


def wait_until(check, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:  # a zombie is dead for our purpose
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_the_child_serves_until_stopped(tmp_path):
    port = free_port()
    ingest = IngestProcess(settings(tmp_path, port))
    ingest.start()
    try:
        assert ingest.alive() and answers(port)
    finally:
        ingest.stop()
    assert not answers(port)


def test_a_taken_port_is_a_clear_error(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(IngestError, match="address already in use|Address already in use|Errno"):
            IngestProcess(settings(tmp_path, port)).start()


def test_the_daemon_starts_its_smtp_server_again_when_it_dies(tmp_path):
    port = free_port()
    services = build(Settings(hostname="games.test", data_dir=tmp_path / "data", listen_port=port,
                              worker_interval_seconds=0.05, worker_processes=1))
    stop, ready = threading.Event(), threading.Event()
    daemon = threading.Thread(target=serve, args=(services, stop), kwargs={"on_ready": ready})
    daemon.start()
    try:
        assert ready.wait(30) and answers(port)
        children = [int(p) for p in open(f"/proc/{os.getpid()}/task/{daemon.native_id}/children").read().split()]
        assert len(children) == 1
        os.kill(children[0], signal.SIGKILL)
        assert wait_until(lambda: not alive(children[0]))
        assert wait_until(lambda: answers(port)), "the SMTP server was not started again"
    finally:
        stop.set()
        daemon.join(30)
    assert not daemon.is_alive() and not answers(port)
