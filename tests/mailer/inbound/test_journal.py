"""The SMTP server's intake: one sync for mail that arrives together, written to segment files
the worker reads in place (no file per message); nothing answered is lost, and an older
version's journal is put back into the spool once."""

import asyncio
import os
import smtplib
import threading
from email.message import EmailMessage

import pytest

from mailer.inbound import segments as segments_module
from mailer.inbound.journal import ACTIVE, Journal, read_records
from mailer.inbound.segments import ARCHIVE, SEGMENTS, parse
from mailer.inbound.smtp_server import IngestHandler, make_controller
from mailer.inbound.spool import Spool
from referee.config import Limits, Settings

from ..net import free_port


def record(key: str, raw: bytes) -> bytes:
    import zlib

    return b"%s %d %08x\n%s\n" % (key.encode(), len(raw), zlib.crc32(raw), raw)


def segment_files(spool: Spool, folder: str = SEGMENTS, suffix: str = ".seg") -> list[str]:
    path = spool.root / folder
    return sorted(p.name for p in path.iterdir() if p.name.endswith(suffix)) if path.exists() else []


def test_messages_stored_together_share_one_sync_and_make_no_file_each(tmp_path, monkeypatch):
    spool = Spool(tmp_path)
    syncs = []
    real = os.fdatasync
    monkeypatch.setattr(segments_module.os, "fdatasync", lambda fd: (syncs.append(fd), real(fd)))
    journal = Journal(spool)
    journal.start()

    async def burst():
        await asyncio.gather(*(journal.store([b"Subject: %d\r\n\r\nbody" % i]) for i in range(20)))

    asyncio.run(burst())
    assert len(syncs) == 1
    assert sorted(spool.read(k) for k in spool.keys()) == sorted(b"Subject: %d\r\n\r\nbody" % i for i in range(20))
    assert os.listdir(tmp_path / "new") == [] and os.listdir(tmp_path / "tmp") == []
    [name] = segment_files(spool)
    records, _, damaged = parse((tmp_path / SEGMENTS / name).read_bytes())
    assert len(records) == 20 and not damaged
    journal.close()


def test_done_mail_is_noted_and_a_finished_segment_is_archived(tmp_path):
    spool, journal = Spool(tmp_path), None
    journal = Journal(spool)
    journal.start()
    asyncio.run(journal.store([b"one", b"two"]))
    journal.checkpoint()  # the next mail starts a new segment
    asyncio.run(journal.store([b"three"]))
    journal.close()
    keys = list(spool.keys())
    assert [spool.read(k) for k in keys] == [b"one", b"two", b"three"] and len(segment_files(spool)) == 2
    spool.done(keys[0], "S")
    assert spool.pending() == 2 and len(segment_files(spool)) == 2
    spool.done(keys[1], "S")
    assert spool.pending() == 1
    assert len(segment_files(spool)) == 1 and len(segment_files(spool, ARCHIVE)) == 1  # kept for audit
    assert len(segment_files(spool, ARCHIVE, ".done")) == 1
    other = Spool(tmp_path)  # another process (a restarted worker) sees the same
    assert [other.read(k) for k in other.keys()] == [b"three"]
    with pytest.raises(FileNotFoundError):
        other.done(keys[0], "S")  # filed already
    other.done(keys[2], "S")
    assert spool.pending() == 0 and not spool.has(keys[2])


def test_a_mail_of_a_segment_set_aside_is_a_file_that_can_be_listed_and_requeued(tmp_path):
    spool = Spool(tmp_path)
    journal = Journal(spool)
    journal.start()
    asyncio.run(journal.store([b"Subject: broken\r\n\r\nx"]))
    journal.close()
    [key] = list(spool.keys())
    spool.set_aside(key, "ValueError: a bug")
    assert spool.pending() == 0 and [a.key for a in spool.aside()] == [key]
    spool.requeue(key)
    assert list(spool.keys()) == [key] and spool.read(key) == b"Subject: broken\r\n\r\nx"


def test_a_damaged_record_ends_what_is_read_of_its_segment(tmp_path):
    spool = Spool(tmp_path)
    good = record("k1", b"good")
    bad = bytearray(record("k2", b"changed"))
    bad[-3] ^= 0xFF  # the checksum no longer matches
    (tmp_path / SEGMENTS).mkdir()
    (tmp_path / SEGMENTS / "1.seg").write_bytes(good + bytes(bad) + record("k3", b"after the damage"))
    assert list(spool.keys()) == ["k1"]


def test_a_record_still_being_written_is_read_once_it_is_whole(tmp_path):
    spool = Spool(tmp_path)
    (tmp_path / SEGMENTS).mkdir()
    whole = record("k1", b"first") + record("k2", b"second")
    path = tmp_path / SEGMENTS / "1.seg"
    path.write_bytes(whole[:-4])
    assert list(spool.keys()) == ["k1"]
    path.write_bytes(whole)
    assert list(spool.keys()) == ["k1", "k2"] and spool.read("k2") == b"second"


def test_recovery_of_an_older_versions_journal_puts_back_what_a_crash_lost_and_nothing_twice(tmp_path):
    spool = Spool(tmp_path)
    kept = spool.add(b"still in new")
    processed = spool.add(b"already processed")
    spool.done(processed, "S")
    lost = spool.new_key()
    (tmp_path / ACTIVE).write_bytes(record(kept, b"still in new") + record(processed, b"already processed")
                                    + record(lost, b"answered, then the crash") + b"torn-key 999 0000")
    (tmp_path / f"{ACTIVE}.3").write_bytes(record(spool.new_key(), b"from an older journal"))
    assert Journal(spool).recover() == 2
    assert sorted(spool.read(k) for k in spool.keys()) == [b"answered, then the crash", b"from an older journal",
                                                         b"still in new"]
    assert not any(p.name.startswith(ACTIVE) for p in tmp_path.iterdir())
    assert Journal(spool).recover() == 0


def test_recovery_replaces_the_half_written_file_a_kill_left(tmp_path):
    """Killed between creating a message's temporary file and moving it into new/: the
    journal has the message, and putting it back must not trip over that file."""
    spool = Spool(tmp_path)
    key = spool.new_key()
    (tmp_path / "tmp" / key).write_bytes(b"answ")
    (tmp_path / ACTIVE).write_bytes(record(key, b"answered, then the kill"))
    assert Journal(spool).recover() == 1
    assert [spool.read(k) for k in spool.keys()] == [b"answered, then the kill"]
    assert not (tmp_path / "tmp" / key).exists()


def test_a_damaged_record_ends_an_older_versions_journal(tmp_path):
    good = record("k1", b"good")
    bad = bytearray(record("k2", b"changed"))
    bad[-3] ^= 0xFF
    (tmp_path / ACTIVE).write_bytes(good + bytes(bad) + record("k3", b"after the damage"))
    assert read_records(tmp_path / ACTIVE) == [("k1", b"good")]


def test_a_server_started_on_a_spool_with_an_older_journal_recovers_it_first(tmp_path):
    spool = Spool(tmp_path / "spool")
    key = spool.new_key()
    (spool.root / ACTIVE).write_bytes(record(key, b"Subject: answered before the crash\r\n\r\nx"))
    settings = Settings(hostname="games.test", limits=Limits(mails_per_sender_per_hour=100))
    handler = IngestHandler(spool, settings, lambda address: address.endswith("@games.test"))
    assert list(spool.keys()) == [key]
    controller = make_controller(handler, settings, port=free_port())
    controller.start()
    try:
        senders = [threading.Thread(target=lambda: _send(controller.port, _orders())) for _ in range(5)]
        for t in senders:
            t.start()
        for t in senders:
            t.join()
    finally:
        controller.stop()
    assert spool.pending() == 6
    assert not any(p.name.startswith(ACTIVE) for p in spool.root.iterdir())


def _orders() -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@example.org", "g-1@games.test", "orders"
    msg.set_content("ADD 1\n")
    return msg


def _send(port: int, msg: EmailMessage) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        smtp.send_message(msg)


def test_a_failed_sync_is_a_temporary_refusal_and_nothing_is_spooled(tmp_path, monkeypatch):
    spool = Spool(tmp_path / "spool")
    settings = Settings(hostname="games.test", limits=Limits(mails_per_sender_per_hour=100))
    handler = IngestHandler(spool, settings, lambda address: True)

    def broken(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(segments_module.os, "fdatasync", broken)
    controller = make_controller(handler, settings, port=free_port())
    controller.start()
    try:
        with pytest.raises(smtplib.SMTPDataError) as err:
            _send(controller.port, _orders())
        assert err.value.smtp_code == 451
    finally:
        controller.stop()
    assert spool.pending() == 0
