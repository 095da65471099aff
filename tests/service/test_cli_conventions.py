"""Conventions every command keeps: a reader that closes the output early ends it quietly
(status 141, nothing on stderr); an output that cannot be written is named as such (74); a
read leaves the data directory as it was (no lock file
for a game that does not exist); a policy set to what it already says is not announced."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mailer.daemon.wiring import build
from referee.config import Settings
from referee.service import Submission

ROOT = Path(__file__).resolve().parents[2]
F_SETPIPE_SZ = 1031  # Linux: a pipe of one page, so that a few lines fill it


def new(run, gid="g1"):
    result = run("new", "race", "--player", "ann:ann@x.test", "--player", "bob:bob@x.test", "--id", gid,
                 "--option", "target=5000")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("args", [["history", "g1"], ["history", "g1", "--json"], ["status", "g1"], ["log", "g1"],
                                  ["show", "g1"]])
def test_a_closed_output_pipe_ends_a_command_quietly(run, args):
    new(run)
    svc = build(Settings(data_dir=run.data))
    # a long history: more output than the pipe and a reader's buffer hold
    receipts = svc.referee.submit_many("g1", [Submission(("ann", "bob")[n % 2], "ADD 1") for n in range(400)])
    assert {r.status for r in receipts} == {"accepted"}
    read_end, write_end = os.pipe()
    try:
        fcntl.fcntl(write_end, F_SETPIPE_SZ, 4096)
    except OSError:
        pass  # not Linux: the history is long enough for the usual 64 kB only with more events
    proc = subprocess.Popen([sys.executable, "-m", "tests.faults.referee_cli", "--data-dir", str(run.data), *args],
                            cwd=ROOT, stdout=write_end, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        first = reader.readline()  # `| head -1`
    proc.wait(timeout=60)
    stderr = proc.stderr.read().decode()
    assert first
    assert stderr == ""
    # a long output meets the closed pipe however it is written (the standard library alone
    # would stop at what the pipe took of one large write, without an error); a short one may
    # have gone into the pipe whole before the reader left
    assert proc.returncode in (0, 141)
    if args[0] in ("history", "log"):
        assert proc.returncode == 141, first


@pytest.mark.parametrize("args", [["list"], ["history", "g1", "--json"], ["log", "g1"]])
def test_a_full_output_device_is_named_as_the_output_not_the_data_directory(run, args):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    new(run)
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "tests.faults.referee_cli", "--data-dir", str(run.data), *args],
                              cwd=ROOT, stdout=full, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    said = proc.stderr.decode()
    assert proc.returncode == 74, said
    assert said.startswith("Error: standard output could not be written: No space left on device") and \
        "data directory" not in said


def snapshot(root: Path) -> dict[str, tuple]:
    return {str(p.relative_to(root)): (p.is_dir(), p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*"))}


READS = [["status", "{g}"], ["show", "{g}"], ["show", "{g}", "--as", "ann"], ["history", "{g}"], ["log", "{g}"],
         ["press", "{g}"],
         ["policy", "show", "{g}"], ["list"], ["outbox"], ["spool"], ["config", "show"]]


@pytest.mark.parametrize("game", ["g1", "nosuch"])
def test_a_read_creates_no_file(run, game):
    new(run)
    run("status", "g1")
    before = snapshot(run.data)
    for args in READS:
        result = run(*[a.replace("{g}", game) for a in args])
        assert result.exit_code in (0, 1), (args, result.output)
    assert snapshot(run.data) == before
    assert not (run.data / "games" / "nosuch.json.lock").exists()


def test_a_policy_set_to_what_it_already_says_is_unchanged_and_not_announced(run):
    new(run)
    svc = build(Settings(data_dir=run.data))

    def state():
        stored = svc.store.load("g1")
        # an announcement waits in each player's mailbag for their next mail (NOTIFY turn)
        notices = [p for bag in (stored.meta.get("mailbag") or {}).values() for p in bag.get("parts", [])
                   if p["kind"] == "notice"]
        return [e for e in stored.events if e["type"] == "policy"], notices

    result = run("policy", "set", "g1", "grace=1h", "deadline=48h", "--reason", "same again")
    assert result.exit_code == 0
    assert result.output == "Policy of g1 unchanged: it already says that. Nothing is announced.\n"
    assert state() == ([], [])

    pinned = run("policy", "set", "g1", "deadline.move=2d", "--reason", "keep moves at two days")
    assert "changed (kept for this game; unchanged for the players, so not announced)" in pinned.output
    events, notices = state()
    assert [e["changes"] for e in events] == [["deadline.move: (preset) -> 2d"]] and notices == []

    mixed = run("policy", "set", "g1", "grace=1h", "reminders=12h", "--reason", "one reminder")
    assert "changed (announced to the players)" in mixed.output and "  grace: unchanged" in mixed.output
    events, notices = state()
    assert len(events) == 2 and len(notices) == 2  # one per player
    assert "reminders: 24h,2h -> 12h" in notices[0]["text"] and "grace" not in notices[0]["text"]
