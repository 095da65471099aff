"""A segment is archived only once no writer holds it, whatever the order of the segments'
names: two SMTP servers on one spool each append to a segment of their own, and a writer
whose clock stepped back names its next segment before its last one. Every record appended
is read."""

from mailer.inbound import segments as segments_module
from mailer.inbound.segments import ARCHIVE, SEGMENTS, SegmentWriter
from mailer.inbound.spool import Spool


def names(spool: Spool, folder: str) -> list[str]:
    path = spool.root / folder
    return sorted(p.name for p in path.glob("*.seg")) if path.exists() else []


def read_and_file(spool: Spool, seen: dict[str, bytes]) -> None:
    """What a worker does in a pass: read every waiting record and note it done."""
    for key in list(spool.keys()):
        seen[key] = spool.read(key)
        spool.done(key, "S")


def test_an_older_segment_still_written_after_a_newer_one_appeared_is_read_to_the_end(tmp_path):
    spool = Spool(tmp_path)
    older, newer = SegmentWriter(tmp_path), SegmentWriter(tmp_path)  # two servers on one spool
    older.append([("k1", b"one")])
    newer.append([("k2", b"two")])
    assert len(names(spool, SEGMENTS)) == 2
    seen: dict[str, bytes] = {}
    read_and_file(spool, seen)
    assert spool.pending() == 0 and names(spool, ARCHIVE) == []  # both are held by their writers
    older.append([("k3", b"three")])  # the older segment's writer goes on
    newer.append([("k4", b"four")])
    read_and_file(spool, seen)
    assert seen == {"k1": b"one", "k2": b"two", "k3": b"three", "k4": b"four"}
    older.seal()
    spool.pending()
    assert len(names(spool, ARCHIVE)) == 1 and len(names(spool, SEGMENTS)) == 1  # the one let go, all done
    newer.seal()
    spool.pending()
    assert len(names(spool, ARCHIVE)) == 2 and names(spool, SEGMENTS) == []
    again: dict[str, bytes] = {}
    read_and_file(Spool(tmp_path), again)
    assert again == {}  # archived mail is never read twice


def test_a_writer_whose_clock_stepped_back_loses_nothing(tmp_path, monkeypatch):
    spool = Spool(tmp_path)
    writer = SegmentWriter(tmp_path)
    writer.append([("k1", b"one")])
    writer.seal()
    first = names(spool, SEGMENTS)
    monkeypatch.setattr(segments_module.time, "time_ns", lambda: 1)  # an hour back, and more
    writer.append([("k2", b"two")])
    assert names(spool, SEGMENTS)[0] < first[0]  # the segment written now sorts first
    seen: dict[str, bytes] = {}
    read_and_file(spool, seen)
    spool.pending()
    assert names(spool, ARCHIVE) == first and len(names(spool, SEGMENTS)) == 1  # the sealed one went, not the other
    writer.append([("k3", b"three")])
    read_and_file(spool, seen)
    assert seen == {"k1": b"one", "k2": b"two", "k3": b"three"}


def test_a_segment_archived_between_its_creation_and_its_lock_is_not_written_to(tmp_path, monkeypatch):
    """A reader may find a writer's new segment empty and unlocked in the moment after it was
    made: the writer then makes another, so that what it writes is never in archive/."""
    spool = Spool(tmp_path)
    real = segments_module.fcntl.flock
    raced = []

    class RacingFcntl:
        LOCK_EX, LOCK_NB = segments_module.fcntl.LOCK_EX, segments_module.fcntl.LOCK_NB

        @staticmethod
        def flock(fd, how):
            if how == RacingFcntl.LOCK_EX and not raced:  # the writer, about to lock its new segment
                raced.append(True)
                spool.pending()  # a reader's pass, just then
                assert len(names(spool, ARCHIVE)) == 1
            return real(fd, how)

    monkeypatch.setattr(segments_module, "fcntl", RacingFcntl)
    writer = SegmentWriter(tmp_path)
    writer.append([("k1", b"one")])
    seen: dict[str, bytes] = {}
    read_and_file(spool, seen)
    assert raced and seen == {"k1": b"one"}
    writer.append([("k2", b"two")])
    read_and_file(spool, seen)
    assert seen == {"k1": b"one", "k2": b"two"}
