"""Processed mail kept for audit goes after `spool_keep_days`: archived segments and cur/,
never mail set aside and never mail still waiting; `referee spool prune` does it from cron,
the daemon once an hour."""

import asyncio
import os
import time

from click.testing import CliRunner

from commands.main import cli
from mailer.inbound.journal import Journal
from mailer.inbound.segments import ARCHIVE
from mailer.inbound.spool import Spool


def age(path, days: float) -> None:
    then = time.time() - days * 86400
    os.utime(path, (then, then))


def test_processed_mail_past_its_days_is_deleted_and_nothing_else(tmp_path):
    root = tmp_path / "data" / "spool"
    spool = Spool(root)
    journal = Journal(spool)
    journal.start()
    asyncio.run(journal.store([b"old segment mail"]))
    journal.close()
    [segment_key] = list(spool.keys())
    spool.done(segment_key, "S")
    spool.pending()  # archived now
    old_done, aside, waiting = spool.add(b"old, done"), spool.add(b"old, set aside"), spool.add(b"old, waiting")
    fresh = spool.add(b"fresh, done")
    spool.done(old_done, "S")
    spool.done(fresh, "S")
    spool.set_aside(aside, "a bug")
    for folder in (root / "cur", root / ARCHIVE, root / "new"):
        for path in folder.iterdir():
            if fresh not in path.name:
                age(path, 31)
    result = CliRunner().invoke(cli, ["--data-dir", str(tmp_path / "data"), "spool", "prune"])
    assert result.exit_code == 0 and "3 file(s) of processed mail older than 30 days deleted" in result.output
    assert list((root / ARCHIVE).iterdir()) == []  # the segment and its done-log
    assert sorted(p.name.partition(":2,")[0] for p in (root / "cur").iterdir()) == sorted([aside, fresh])
    assert list(spool.keys()) == [waiting] and [a.key for a in spool.aside()] == [aside]
    assert spool.prune(0) == 0  # 0: kept for good
