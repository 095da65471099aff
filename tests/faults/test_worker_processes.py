"""`referee serve` runs the workers of the other shares of the games (mailer/daemon/shares.py)
as processes of its own: mail of every game is answered, each order applied once, and a worker
process that dies is started again while mail goes on arriving."""

import os
import re
import signal
import time

from .mailworld import mail_world


def _read(path: str) -> bytes:
    """A /proc file, or nothing when its thread or process has just ended."""
    try:
        with open(path, "rb") as file:
            return file.read()
    except (FileNotFoundError, ProcessLookupError):
        return b""


def _share_children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        for child in _read(f"/proc/{pid}/task/{task}/children").split():
            if b"mailer.daemon.shares" in _read(f"/proc/{int(child)}/cmdline"):
                found.append(int(child))
    return found


def _ready_children(daemon) -> list[int]:
    """The share processes running now that the daemon's log calls ready: one killed while it
    still starts up counts as one that would not start, tried again only after RESTART_SECONDS."""
    text = daemon.log.read_text(errors="replace") if daemon.log.exists() else ""
    ready = {int(pid) for pid in re.findall(r"mail worker of share \d+ of \d+ is ready \(process (\d+)\)", text)}
    return sorted(ready & set(_share_children(daemon.proc.pid)))


def test_the_daemon_runs_the_other_shares_as_processes_and_starts_one_again_when_it_dies(tmp_path, test_games):
    with mail_world(tmp_path, "shares", env={"REFEREE_WORKER_PROCESSES": "3"}) as world:
        daemon = world.daemon
        deadline = time.monotonic() + 30
        while len(ready := _ready_children(daemon)) < 2:
            assert time.monotonic() < deadline, "the worker processes did not start"
            time.sleep(0.1)
        victim = ready[0]
        time.sleep(1.0)  # mail flows meanwhile
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while victim in _share_children(daemon.proc.pid) or len(_share_children(daemon.proc.pid)) < 2:
            assert time.monotonic() < deadline, "the dead worker was not started again"
            time.sleep(0.1)
        time.sleep(1.0)
        world.wind_down()
    deliveries = world.sink.snapshot()
    taken = [mid for mid, m in world.players.mails.items() if m.accepted]
    assert taken and set(taken) <= {d.in_reply_to for d in deliveries}  # every mail answered
    for gid in {m.game for m in world.players.mails.values()}:
        ids = [e["message_id"] for e in world.svc.store.load(gid).events if e.get("message_id")]
        assert len(ids) == len(set(ids))  # each order applied once
