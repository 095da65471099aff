"""The daemon's timer and `referee tick` from cron, in separate processes on one data
directory at the same time: every overdue deadline is resolved exactly once."""

import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from mailer.daemon.wiring import build
from referee.config import Settings

from ..mailer.net import free_port
from .conftest import ManualClock, events, race, simul

ROOT = Path(__file__).resolve().parents[2]


def test_daemon_and_cron_ticks_together_never_double_resolve(tmp_path, games):
    data = tmp_path / "var"
    # games created three days ago by the clock's reckoning: every deadline is overdue now
    clock = ManualClock(datetime.now(timezone.utc) - timedelta(days=3))
    svc = build(Settings(data_dir=data), clock=clock)
    ids = [f"race-{n}" for n in range(4)] + [f"simul-{n}" for n in range(2)]
    for game_id in ids:
        (race if game_id.startswith("race") else simul)(svc, game_id=game_id)
    env = {**os.environ, "REFEREE_DATA": str(data), "REFEREE_LISTEN_PORT": str(free_port()),
           "REFEREE_TICK_INTERVAL_SECONDS": "0.05", "REFEREE_WORKER_INTERVAL_SECONDS": "0.05",
           "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "tests.deadlines.proc"]
    ticks = [subprocess.Popen(command + ["tick"], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    daemon = subprocess.Popen(command + ["serve"], env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        outputs = [p.communicate(timeout=120) for p in ticks]
        assert all(p.returncode == 0 for p in ticks), outputs
        more = [subprocess.run(command + ["tick"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
                for _ in range(2)]
        assert all(r.returncode == 0 for r in more)
        limit = time.monotonic() + 60
        while not all(len(events(svc, g, "deadline")) == 1 for g in ids):
            assert time.monotonic() < limit, "the deadlines were not processed"
            time.sleep(0.1)
        time.sleep(0.5)  # let the daemon tick a few more times
    finally:
        daemon.send_signal(signal.SIGTERM)
        _, err = daemon.communicate(timeout=30)
    assert daemon.returncode == 0, err
    for game_id in ids:
        deadlines = events(svc, game_id, "deadline")
        assert len(deadlines) == 1, (game_id, deadlines)
        defaults = events(svc, game_id, "default")
        assert len({e["player"] for e in defaults}) == len(defaults) == len(deadlines[0]["waiting_for"])
    # everything was done once, by whichever process came first
    lines = [line for out, _ in outputs for line in out.splitlines() if "defaults" in line]
    lines += [line for r in more for line in r.stdout.splitlines() if "defaults" in line]
    daemon_lines = [line for line in err.splitlines() if ": defaults " in line]
    assert len(lines) + len(daemon_lines) == len(ids), (lines, daemon_lines)
