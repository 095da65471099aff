"""A mail the SMTP server answered 250 is never lost: errors that pass (a full disk, a busy or
damaged game file) keep it in the spool and it is tried again after a wait; only mail that
cannot be processed at all is set aside, listed with why by `referee spool`, and requeued
from there. One game's damaged file stops only that game: the worker and the sender go on
with every other. Real data directories, real files; the full disk is an ENOSPC injected
at the system's write call for regular files (tests/faults/test_full_disk.py has a real one)."""

import errno
import os
import stat
from contextlib import contextmanager

import pytest
from click.testing import CliRunner

from commands.main import cli
from mailer.daemon.wiring import build
from mailer.daemon.worker import RETRY_MAX
from referee.config import Settings

from ..orders_mail import HOST, order_mail, spooled
from ...service.conftest import each_mail

class Clock:
    """The worker's clock for its waits, moved by hand."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def svc(tmp_path, race_registered):
    svc = build(Settings(hostname=HOST, data_dir=tmp_path / "data", relay=f"maildir:{tmp_path / 'relay'}",
                         moderator_email="mod@example.org"))
    svc.tokens = {}
    for gid in ("g1", "g2"):
        made = svc.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                                    seed="s", game_id=gid, options={"target": 50})
        each_mail(svc.store, gid)  # every receipt is a mail of its own
        svc.tokens[gid] = {s["name"]: s["token"] for s in made.players}
    svc.clock_worker = Clock()
    svc.mail_worker = svc.worker()
    svc.mail_worker.clock = svc.clock_worker
    return svc


def order(svc, gid, player, text, n):
    return svc.spool.add(spooled(*order_mail(gid, player, svc.tokens[gid][player], text, n)))


def turns(svc, gid, count, first=0):
    """`count` alternating orders, ann first; the keys in the spool."""
    return [order(svc, gid, ("ann", "bob")[i % 2], f"ADD {1 + i % 3}", i) for i in range(first, first + count)]


def orders(svc, gid):
    return [(e["player"], e["text"], e["message_id"]) for e in svc.store.load(gid).events if e["type"] == "order"]


def outbox(svc, gid):
    with svc.store.transaction(gid) as tx:
        return [r["message_id"] for r in tx.records("outbox")]


@contextmanager
def full_disk(monkeypatch):
    """Every write to a regular file fails with ENOSPC, as on a full file system; pipes and
    sockets still work. The spool's mail was written before."""
    real = os.write

    def write(fd, data):
        if stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    yield
    monkeypatch.setattr(os, "write", real)


def test_a_full_disk_keeps_the_mail_and_every_order_is_applied_once_when_there_is_room(svc, monkeypatch):
    keys = turns(svc, "g1", 6)
    before = svc.store.path("g1").read_bytes()
    with full_disk(monkeypatch):
        for _ in range(3):
            svc.clock_worker.now += RETRY_MAX
            assert svc.mail_worker.run_once(svc.spool) == []
    assert svc.store.path("g1").read_bytes() == before  # nothing half-written
    assert sorted(svc.spool.keys()) == sorted(keys)  # every mail still waiting, none filed as failed
    assert svc.spool.aside() == [] and svc.mail_worker.kept == 6
    assert svc.mail_worker.run_once(svc.spool) == []  # the wait after a failure is not over yet
    svc.clock_worker.now += RETRY_MAX
    assert [h.outcome for h in svc.mail_worker.run_once(svc.spool)] == ["accepted"] * 6
    assert [(p, t) for p, t, _ in orders(svc, "g1")] == [("ann", "ADD 1"), ("bob", "ADD 2"), ("ann", "ADD 3"),
                                                          ("bob", "ADD 1"), ("ann", "ADD 2"), ("bob", "ADD 3")]
    ids = [mid for _, _, mid in orders(svc, "g1")]
    assert len(set(ids)) == 6
    receipts = [mid for mid in outbox(svc, "g1") if ".receipt." in mid]
    assert len(receipts) == len(set(receipts)) == 6
    assert svc.spool.pending() == 0 and svc.mail_worker.kept == 0


def test_mail_that_arrives_while_earlier_mail_of_its_game_waits_waits_behind_it(svc, monkeypatch):
    """The disk had no room for ann's mail; there is room again when bob's comes, but ann's
    wait is not over: bob's is not taken before it (it would be out of turn), and once ann's
    is due both go through in the order they arrived. Another game's mail is not held up."""
    (first,) = turns(svc, "g1", 1)
    with full_disk(monkeypatch):
        for _ in range(3):
            svc.clock_worker.now += RETRY_MAX
            assert svc.mail_worker.run_once(svc.spool) == []
    turns(svc, "g1", 1, first=1)
    turns(svc, "g2", 1)
    assert [(h.game, h.outcome) for h in svc.mail_worker.run_once(svc.spool)] == [("g2", "accepted")]
    assert orders(svc, "g1") == [] and svc.spool.pending() == 2
    svc.clock_worker.now += RETRY_MAX
    assert [(h.player, h.outcome) for h in svc.mail_worker.run_once(svc.spool)] == [("ann", "accepted"),
                                                                                     ("bob", "accepted")]


def test_the_disk_filling_after_the_write_the_mail_is_read_again_and_nothing_is_done_twice(svc, monkeypatch):
    """The unit of work is written, then the disk fills before the mail is filed: the mail
    stays and is read again; its Message-ID is in the game, so it counts once."""
    (key,) = turns(svc, "g1", 1)
    real = svc.spool.done
    monkeypatch.setattr(svc.spool, "done", lambda *a: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
    assert svc.mail_worker.run_once(svc.spool) == []
    assert len(orders(svc, "g1")) == 1 and list(svc.spool.keys()) == [key]
    monkeypatch.setattr(svc.spool, "done", real)
    svc.clock_worker.now += RETRY_MAX
    assert [h.outcome for h in svc.mail_worker.run_once(svc.spool)] == ["duplicate"]
    assert len(orders(svc, "g1")) == 1 and svc.spool.pending() == 0


@pytest.mark.parametrize("error", [OSError(errno.EIO, "Input/output error"), PermissionError(errno.EACCES, "denied"),
                                   MemoryError()])
def test_other_errors_that_pass_keep_the_mail_too(svc, monkeypatch, error):
    turns(svc, "g1", 2)
    real = svc.referee.submit_many

    def failing(*args, **kw):
        raise error

    monkeypatch.setattr(svc.referee, "submit_many", failing)
    assert svc.mail_worker.run_once(svc.spool) == []
    assert svc.spool.pending() == 2 and svc.spool.aside() == []
    monkeypatch.setattr(svc.referee, "submit_many", real)
    svc.clock_worker.now += RETRY_MAX
    assert [h.outcome for h in svc.mail_worker.run_once(svc.spool)] == ["accepted"] * 2


def test_a_busy_game_file_keeps_the_mail_with_a_growing_wait(svc, monkeypatch):
    from referee.store import StoreBusy

    turns(svc, "g1", 1)
    real = svc.referee.submit_many
    monkeypatch.setattr(svc.referee, "submit_many", lambda *a, **k: (_ for _ in ()).throw(StoreBusy("locked")))
    tries = []
    for _ in range(4):
        before = svc.mail_worker._retries.get(next(svc.spool.keys()), (0, 0.0))
        svc.clock_worker.now = max(svc.clock_worker.now, before[1])
        svc.mail_worker.run_once(svc.spool)
        tries.append(svc.mail_worker._retries[next(svc.spool.keys())][1] - svc.clock_worker.now)
    assert tries == [1.0, 2.0, 4.0, 8.0]
    monkeypatch.setattr(svc.referee, "submit_many", real)
    svc.clock_worker.now += 8.0
    assert [h.outcome for h in svc.mail_worker.run_once(svc.spool)] == ["accepted"]


def break_file(svc, gid):
    path = svc.store.path(gid)
    good = path.read_bytes()
    path.write_bytes(b'{"meta": {"1":\n  {"id": "%s",\n' % gid.encode())
    return lambda: path.write_bytes(good)


def test_a_broken_game_file_stops_only_its_game(svc):
    turns(svc, "g1", 2)
    turns(svc, "g2", 2)
    restore = break_file(svc, "g1")
    handled = svc.mail_worker.run_once(svc.spool)
    assert [(h.outcome, h.game) for h in handled] == [("accepted", "g2"), ("accepted", "g2")]
    assert svc.spool.pending() == 2 and svc.spool.aside() == []  # g1's mail waits for its game
    report = svc.send()  # the sender carries on with every other game
    assert report.sent and any("games/g1.json is not valid JSON (line 3" in p for p in report.skipped)
    assert not [r for r in svc.outbox.pending(unreadable=[]) if r["game"] == "g2"]
    restore()
    svc.clock_worker.now += RETRY_MAX
    assert [(h.outcome, h.game) for h in svc.mail_worker.run_once(svc.spool)] == [("accepted", "g1")] * 2
    assert len(orders(svc, "g1")) == 2


def test_a_game_file_missing_keys_is_named_and_stops_only_its_game(svc):
    import json

    turns(svc, "g1", 1)
    turns(svc, "g2", 1)
    path = svc.store.path("g1")
    data = json.loads(path.read_bytes())
    del data["meta"]["1"]["seats"]
    path.write_text(json.dumps(data))
    assert [h.game for h in svc.mail_worker.run_once(svc.spool)] == ["g2"]
    result = CliRunner().invoke(cli, ["--data-dir", str(svc.settings.data_dir), "status", "g1"])
    assert result.exit_code == 74
    assert "games/g1.json is damaged: its meta has no 'seats'" in result.output
    assert "Traceback" not in result.output and "KeyError" not in result.output


def spool_cli(svc, *args):
    return CliRunner().invoke(cli, ["--data-dir", str(svc.settings.data_dir), "spool", *args])


def test_a_mail_that_cannot_be_processed_is_set_aside_told_listed_and_requeued(svc, monkeypatch):
    (good, bad, later) = turns(svc, "g1", 3)
    real = svc.referee._submit_in

    def fragile(tx, game_id, sub, *rest):
        if sub.text.strip() == "ADD 2":
            raise RuntimeError("a bug met by this mail only")
        return real(tx, game_id, sub, *rest)

    monkeypatch.setattr(svc.referee, "_submit_in", fragile)
    handled = svc.mail_worker.run_once(svc.spool)
    assert [h.outcome for h in handled] == ["accepted", "error", "refused"]  # ann's ADD 3 is out of turn
    assert "set aside: RuntimeError: a bug met by this mail only" in handled[1].detail
    (entry,) = svc.spool.aside()
    assert (entry.key, entry.game, entry.player) == (bad, "g1", "bob") and "RuntimeError" in entry.reason
    told = {r["to"]: r for r in svc.system_outbox.pending()}
    assert told["bob@players.test"]["subject"] == "[g1] Your mail is kept for the moderator"
    assert bad in told["mod@example.org"]["subject"]

    listing = spool_cli(svc)
    assert listing.exit_code == 0
    assert f"{bad}" in listing.output and "why: RuntimeError: a bug met by this mail only" in listing.output
    assert "g1 bob  from bob@players.test: orders" in listing.output
    assert spool_cli(svc, "requeue").exit_code == 2
    assert spool_cli(svc, "requeue", "nosuch").exit_code == 1

    monkeypatch.setattr(svc.referee, "_submit_in", real)  # the bug is mended
    requeued = spool_cli(svc, "requeue", bad)
    assert requeued.exit_code == 0 and "1 mail(s) requeued" in requeued.output
    assert [h.outcome for h in svc.mail_worker.run_once(svc.spool)] == ["accepted"]
    assert [t for _, t, _ in orders(svc, "g1")] == ["ADD 1", "ADD 2"]
    assert svc.spool.aside() == [] and spool_cli(svc, "requeue", "--all").output.startswith("Nothing requeued")


def test_mail_set_aside_by_an_earlier_version_is_listed_and_requeued(svc):
    (key,) = turns(svc, "g1", 1)
    svc.spool.done(key, "E")  # how every failure used to be filed, a full disk included
    listing = spool_cli(svc, "--json")
    import json

    (row,) = json.loads(listing.output)["set_aside"]
    assert row["key"] == key and "no reason recorded" in row["reason"]
    assert spool_cli(svc, "requeue", "--all").exit_code == 0
    assert [h.outcome for h in svc.mail_worker.run_once(svc.spool)] == ["accepted"]


def test_a_stranger_mail_set_aside_tells_nobody_but_the_moderator(svc, monkeypatch):
    svc.spool.add(b"From: someone@else.test\r\nTo: g1@games.test\r\nMessage-ID: <x@else.test>\r\n\r\nhello\r\n")

    def broken(raw):
        raise RuntimeError("cannot read this")

    monkeypatch.setattr(svc.mail_worker, "_read", broken)
    assert [h.outcome for h in svc.mail_worker.run_once(svc.spool)] == ["error"]
    assert [r["to"] for r in svc.system_outbox.pending()] == ["mod@example.org"]
