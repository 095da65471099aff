"""`referee serve` on a file system that fills up: a real 16 MB tmpfs, mounted in a mount
namespace of its own (`unshare -rm`, no root needed where user namespaces are allowed).

Players' mail is answered 250 and spooled; then the disk fills to the last byte while the
worker has yet to read it. Every unit of work fails with ENOSPC: the mail must stay in the
spool (not be filed as failed, which used to lose it for good), the games unchanged, the
daemon running. Once there is room again, every order is applied exactly once and every
receipt delivered once. The test reads the daemon's files through /proc/PID/root.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import smtplib
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mailer.daemon.wiring import build
from mailer.inbound.spool import Spool

from ..mailer.orders_mail import order_mail
from ..service.conftest import each_mail
from .mailworld import ROOT, Daemon, Sink, settings

PLAYERS = ("ann", "bob")
GAMES = ("race-1", "race-2")
ORDERS = 5  # per game, alternating ann and bob


def mount_namespaces_work(tmp_path: Path) -> bool:
    probe = tmp_path / "probe"
    probe.mkdir()
    if shutil.which("unshare") is None:
        return False
    done = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=1m tmpfs {probe}"],
                          capture_output=True, timeout=30)
    return done.returncode == 0


class FullDiskDaemon(Daemon):
    """The daemon in a mount namespace whose data directory is a small tmpfs, seeded with a
    copy of `stage`."""

    def __init__(self, disk: Path, stage: Path, relay_port: int) -> None:
        # one mail worker, in the daemon's own process: the test holds the worker with SIGSTOP
        # to that process, which would leave the worker processes of other shares running
        super().__init__(disk, relay_port, env={"REFEREE_WORKER_PROCESSES": "1"})
        self.disk, self.stage = disk, stage

    def start(self) -> None:
        script = 'mount -t tmpfs -o size=16m tmpfs "$1" && cp -a "$2"/. "$1"/ && exec "$3" -m tests.faults.referee_cli serve'
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(["unshare", "-rm", "sh", "-c", script, "sh", str(self.disk), str(self.stage),
                                          sys.executable], cwd=ROOT, env=self.env, stdout=log, stderr=log)

    @property
    def view(self) -> Path:
        """The data directory as the daemon sees it."""
        assert self.proc is not None
        return Path(f"/proc/{self.proc.pid}/root{self.disk}")


def fill(path: Path) -> int:
    """Write to `path` until the file system has no byte left; how many were written."""
    written = 0
    with open(path, "wb", buffering=0) as ballast:
        for size in (1 << 20, 1 << 16, 1 << 12, 1 << 8, 1):
            try:
                while True:
                    written += ballast.write(b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
    return written


def wait_for(condition, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_full_disk_loses_no_mail_and_applies_every_order_once(tmp_path, test_games):
    if not mount_namespaces_work(tmp_path):
        pytest.skip("no mount namespace with a tmpfs here (unshare -rm refused); "
                    "tests/mailer/daemon/test_spool_faults.py injects ENOSPC instead")
    sink = Sink()
    sink.start()
    stage, disk = tmp_path / "stage", tmp_path / "disk"
    disk.mkdir()
    staged = build(settings(stage, sink.port))
    tokens = {}
    for gid in GAMES:
        made = staged.referee.new_game("race", [(p, f"{p}@players.test") for p in PLAYERS], seed=gid,
                                       game_id=gid, options={"target": 500})
        each_mail(staged.store, gid)  # every receipt is a mail of its own
        tokens[gid] = {s["name"]: s["token"] for s in made.players}
    daemon = FullDiskDaemon(disk, stage, sink.port)
    try:
        daemon.start()
        daemon.wait_ready()
        wait_for(lambda: sink.count() == 2 * len(GAMES), "the opening reports")
        svc = build(settings(daemon.view, sink.port))

        # the worker is held while the mail comes in: the SMTP server, a process of its own,
        # answers 250 for each and spools it
        os.kill(daemon.proc.pid, signal.SIGSTOP)
        sent = {}
        with smtplib.SMTP("127.0.0.1", daemon.port, timeout=30) as smtp:
            for gid in GAMES:
                for n in range(ORDERS):
                    player = PLAYERS[n % 2]
                    to, raw = order_mail(gid, player, tokens[gid][player], f"ADD {1 + n % 3}", n)
                    smtp.sendmail(f"{player}@players.test", [to], raw)  # raises unless 250
                    sent[f"<{gid}.{player}.{n}@players.test>"] = gid
        spool = Spool(daemon.view / "spool")
        wait_for(lambda: spool.pending() == len(sent), "the mail in the spool")
        before = {gid: (daemon.view / "games" / f"{gid}.json").read_bytes() for gid in GAMES}
        assert fill(daemon.view / "ballast") > 0

        os.kill(daemon.proc.pid, signal.SIGCONT)  # the worker meets a full disk
        wait_for(lambda: "kept in the spool to be tried again later: OSError: [Errno 28]" in daemon.tail(),
                 "the worker's first try")
        time.sleep(1.0)  # a few more tries
        assert daemon.proc.poll() is None, daemon.tail()
        assert spool.pending() == len(sent) and spool.aside() == []
        assert not [name for name in os.listdir(daemon.view / "spool" / "cur")]
        for gid in GAMES:
            assert (daemon.view / "games" / f"{gid}.json").read_bytes() == before[gid]

        (daemon.view / "ballast").unlink()  # room again
        wait_for(lambda: spool.pending() == 0, "the kept mail to be processed", timeout=120)
        answered = lambda: {d.in_reply_to for d in sink.snapshot()}  # noqa: E731
        wait_for(lambda: set(sent) <= answered(), "every receipt", timeout=120)

        for gid in GAMES:
            events = [e for e in svc.store.load(gid).events if e["type"] == "order"]
            ids = [e["message_id"] for e in events]
            assert sorted(ids) == sorted(mid for mid, g in sent.items() if g == gid), gid
            assert [e["text"] for e in events] == [f"ADD {1 + n % 3}" for n in range(ORDERS)]
        receipts = [d.in_reply_to for d in sink.snapshot() if d.in_reply_to in sent]
        assert sorted(receipts) == sorted(sent)  # each answered once
        assert spool.aside() == []
        assert daemon.stop() == 0, daemon.tail()
    finally:
        if daemon.proc is not None and daemon.proc.poll() is None:
            os.kill(daemon.proc.pid, signal.SIGCONT)
            daemon.kill()
        sink.stop()
