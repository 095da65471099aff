"""One broken game file stops that game only: `referee serve` starts, logs which file is
broken, and answers and sends the mail of every other game; the CLI names the file instead
of a traceback; a broken index is rebuilt from the game files."""

from __future__ import annotations

import json
import smtplib
import subprocess
import sys
import time

from mailer.daemon.wiring import build

from ..mailer.orders_mail import order_mail
from .mailworld import HOST, ROOT, Daemon, Sink, settings

PLAYERS = ("ann", "bob")


def cli(data, *args):
    env = {"REFEREE_DATA": str(data), "REFEREE_HOSTNAME": HOST, "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "tests.faults.referee_cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_serve_starts_names_the_broken_file_and_serves_the_other_games(tmp_path, test_games):
    sink = Sink()
    sink.start()
    data = tmp_path / "var"
    svc = build(settings(data, sink.port))
    tokens = {}
    for gid in ("good-1", "bad-1"):
        made = svc.referee.new_game("race", [(p, f"{p}@players.test") for p in PLAYERS], seed=gid, game_id=gid)
        tokens[gid] = {s["name"]: s["token"] for s in made.players}
    svc.send()
    sink.deliveries.clear()
    bad = svc.store.path("bad-1")
    good_copy = bad.read_bytes()
    bad.write_text('{"meta": {"1":\n  {"id": "bad-1",\n')
    with svc.store.transaction("good-1") as tx:  # mail of another game waiting in the outbox
        assert not [r for r in tx.records("outbox") if r["status"] == "pending"]
    daemon = Daemon(data, sink.port)
    try:
        daemon.start()
        daemon.wait_ready()
        deadline = time.monotonic() + 30
        while "games/bad-1.json is not valid JSON (line 3" not in daemon.tail():
            assert time.monotonic() < deadline, daemon.tail()
            time.sleep(0.05)
        with smtplib.SMTP("127.0.0.1", daemon.port, timeout=30) as smtp:
            for gid in ("bad-1", "good-1"):
                to, raw = order_mail(gid, "ann", tokens[gid]["ann"], "ADD 1", 1)
                smtp.sendmail("ann@players.test", [to], raw)
        while "<good-1.ann.1@players.test>" not in sink.answered():
            assert time.monotonic() < deadline + 30, daemon.tail()
            time.sleep(0.05)
        assert [e["text"] for e in svc.store.load("good-1").events if e["type"] == "order"] == ["ADD 1"]
        assert svc.spool.pending() == 1 and svc.spool.aside() == []  # bad-1's mail waits for its game

        bad.write_bytes(good_copy)  # restored from a backup: its mail goes through by itself
        while "<bad-1.ann.1@players.test>" not in sink.answered():
            assert time.monotonic() < deadline + 90, daemon.tail()
            time.sleep(0.1)
        assert [e["text"] for e in svc.store.load("bad-1").events if e["type"] == "order"] == ["ADD 1"]
        assert daemon.stop() == 0
        assert "Traceback" not in daemon.tail()
    finally:
        if daemon.proc is not None and daemon.proc.poll() is None:
            daemon.kill()
        sink.stop()


def test_the_cli_names_a_broken_file_and_rebuilds_a_broken_index(tmp_path, test_games):
    data = tmp_path / "var"
    svc = build(settings(data, 1))
    for gid in ("a-1", "b-1"):
        svc.referee.new_game("race", [(p, f"{p}@players.test") for p in PLAYERS], seed=gid, game_id=gid)
    svc.store.path("b-1").write_text("{\n\n  not json")
    for args in (["status", "b-1"], ["show", "b-1"], ["history", "b-1"], ["log", "b-1"], ["adjudicate", "b-1"],
                 ["orders", "b-1", "ann", "-"], ["policy", "show", "b-1"]):
        done = cli(data, *args)
        assert done.returncode == 74, (args, done.stderr)
        assert done.stderr.startswith("Error: games/b-1.json is not valid JSON (line 3, column 3): restore it"), args
        assert "Traceback" not in done.stderr
    outbox = cli(data, "outbox")
    assert outbox.returncode == 74 and "games/b-1.json is not valid JSON" in outbox.stderr
    assert "Traceback" not in outbox.stderr
    assert {line.split()[1] for line in outbox.stdout.splitlines()} == {"a-1"}  # the rest is listed
    as_json = cli(data, "outbox", "--json")  # the same, as JSON
    assert as_json.returncode == 74 and as_json.stderr == outbox.stderr
    assert {row["game"] for row in json.loads(as_json.stdout)} == {"a-1"}
    with svc.store.transaction("a-1") as tx:  # nothing waits but in the broken game: said so
        for record in tx.records("outbox"):
            tx.update_record("outbox", record["id"], {"status": "sent", "raw": None})
    outbox = cli(data, "outbox")
    assert outbox.returncode == 74 and outbox.stdout == "No mail waits in the games that could be read.\n"
    as_json = cli(data, "outbox", "--json")
    assert as_json.returncode == 74 and json.loads(as_json.stdout) == [] and "b-1.json" in as_json.stderr

    (data / "index.json").write_text('{"games": {"1": {"id": "a-1",')  # cut short
    listed = cli(data, "list")
    assert listed.returncode == 0, listed.stderr
    assert "index.json is not valid JSON" in listed.stderr and "rebuilt it from 2 game file(s)" in listed.stderr
    lines = listed.stdout.splitlines()
    assert [line[1:].split()[:4] for line in lines[1:-1]] == [["a-1", "race", "r0", "add"],
                                                               ["b-1", "?", "file", "damaged"]]
    assert lines[2].startswith("!") and "games/b-1.json is not valid JSON" in lines[2]
    assert json.loads((data / "index.json").read_text())["games"]["1"]["id"] == "a-1"
    (data / "index.json").write_text("[1, 2")
    made = cli(data, "new", "race", "--player", "x:x@players.test", "--player", "y:y@players.test", "--id", "c-1")
    assert made.returncode == 0, made.stderr
    assert [row["id"] for row in build(settings(data, 1)).store.list()] == ["a-1", "b-1", "c-1"]
    (data / "index.json").write_text("{}}")
    assert cli(data, "tick").returncode == 0
    (data / "index.json").write_text('{"games": []}')
    assert cli(data, "outbox").returncode == 74  # only b-1 is reported; the rest is listed
