"""One daemon per data directory: a second `referee serve` on a data directory already served
refuses to start, names the first (pid and port) and takes no mail; a daemon that was killed
keeps no later one from starting."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ..net import free_port
from ..inbound.test_ingest_process import answers, wait_until

ROOT = Path(__file__).resolve().parents[3]


def serve(data: Path, port: int, log: Path | None = None) -> subprocess.Popen:
    """`referee serve` in a process of its own; its output into `log`, or a pipe without one."""
    env = {**os.environ, "REFEREE_DATA": str(data), "REFEREE_HOSTNAME": "games.test",
           "REFEREE_LISTEN_PORT": str(port), "REFEREE_WORKER_PROCESSES": "1"}
    out = open(log, "ab") if log is not None else subprocess.PIPE
    try:
        return subprocess.Popen([sys.executable, "-m", "commands", "serve"], cwd=ROOT, env=env, stdout=out,
                                stderr=out)
    finally:
        if log is not None:
            out.close()


def test_a_second_daemon_on_a_served_data_directory_refuses_and_names_the_first(tmp_path):
    data = tmp_path / "data"
    first_port, second_port = free_port(), free_port()
    first = serve(data, first_port, tmp_path / "first.log")
    try:
        assert wait_until(lambda: answers(first_port)), "the first daemon did not start"
        second = serve(data, second_port)
        try:
            _, err = second.communicate(timeout=60)
        finally:
            if second.poll() is None:  # it started after all: stop it
                second.send_signal(signal.SIGTERM)
                second.communicate(timeout=60)
        said = err.decode()
        assert second.returncode == 1, said
        assert f"pid {first.pid}" in said and f"SMTP port {first_port}" in said
        assert "already serves" in said and str(data) in said
        assert not answers(second_port)  # it never listened
        assert answers(first_port)  # and the first goes on
        os.kill(first.pid, signal.SIGKILL)  # however the first ends, its lock goes with it
        first.wait(30)
        third = serve(data, second_port, tmp_path / "third.log")
        try:
            assert wait_until(lambda: answers(second_port)), "a daemon after a killed one did not start"
        finally:
            third.send_signal(signal.SIGTERM)
            assert third.wait(60) == 0
    finally:
        if first.poll() is None:
            first.send_signal(signal.SIGTERM)
            first.wait(60)
