"""The TinyDB game store: units of work, atomic writes, locking, and the cost of a write."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.store import SNAPSHOTS_KEPT, GameExists, GameFileBroken, GameNotFound, StoreBusy, StoreError, TinyDBStore

WORKER = Path(__file__).with_name("store_worker.py")
META = {"game": "constantinopolis", "players": ["red", "blue"], "status": "active", "created": "2026-01-01T00:00:00Z"}


@pytest.fixture
def store(tmp_path):
    return TinyDBStore(tmp_path)


def test_create_load_append_snapshot_list(store):
    store.create("g-1", META, {"round": 1}, [{"type": "created"}])
    assert store.append("g-1", [{"type": "order", "text": "BID 3"}, {"type": "order", "text": "DONE"}],
                        state={"round": 2}) == [2, 3]
    store.snapshot("g-1", "r2.auction", {"round": 2})
    game = store.load("g-1")
    assert game.meta["game"] == "constantinopolis" and game.meta["id"] == "g-1"
    assert game.state == {"round": 2}
    assert [e["seq"] for e in game.events] == [1, 2, 3]
    assert game.snapshots == [{"key": "r2.auction", "seq": 3, "state": {"round": 2}}]
    assert [row["id"] for row in store.list()] == ["g-1"]
    assert store.list()[0]["players"] == ["red", "blue"]


def test_events_are_append_only_and_numbered(store):
    store.create("g", META, {})
    for i in range(5):
        store.append("g", [{"type": "order", "n": i}])
    assert [e["n"] for e in store.load("g").events] == [0, 1, 2, 3, 4]
    assert [e["seq"] for e in store.load("g").events] == [1, 2, 3, 4, 5]


def test_a_failed_unit_of_work_writes_nothing(store):
    store.create("g", META, {"v": 1})
    before = store.path("g").read_bytes()
    with pytest.raises(RuntimeError):
        with store.transaction("g") as tx:
            tx.append({"type": "order"})
            tx.set_state({"v": 2})
            raise RuntimeError("validation failed half way")
    assert store.path("g").read_bytes() == before


def test_a_unit_of_work_is_one_atomic_write(store):
    store.create("g", META, {})
    store.stats.reset()
    with store.transaction("g") as tx:
        tx.append({"type": "order"})
        tx.append({"type": "order"})
        tx.set_state({"v": 3})
        tx.snapshot("k", {"v": 3})
        tx.add_record("outbox", {"to": "red@example.org"})
    assert store.stats.files_written == 1
    assert store.load("g").state == {"v": 3}


def test_records_tables(store):
    store.create("g", META, {})
    with store.transaction("g") as tx:
        rid = tx.add_record("outbox", {"to": "a", "status": "pending"})
    with store.transaction("g") as tx:
        tx.update_record("outbox", rid, {"status": "sent"})
        assert tx.records("outbox") == [{"to": "a", "status": "sent", "id": rid}]


def test_rollback_drops_later_snapshots_but_never_events(store):
    store.create("g", META, {})
    store.append("g", [{"type": "a"}, {"type": "b"}])
    store.snapshot("g", "k2", {"at": 2})
    store.append("g", [{"type": "c"}])
    store.snapshot("g", "k3", {"at": 3})
    with store.transaction("g") as tx:
        assert tx.drop_snapshots_after(2) == 1
        tx.append({"type": "undo", "to": 2, "reason": "typo"})
    game = store.load("g")
    assert [e["type"] for e in game.events] == ["a", "b", "c", "undo"]
    assert [s["key"] for s in game.snapshots] == ["k2"]


def test_only_the_latest_snapshots_are_kept(store):
    store.create("g", META, {})
    for n in range(SNAPSHOTS_KEPT + 3):
        store.append("g", [{"type": "order", "n": n}])
        store.snapshot("g", f"k{n}", {"n": n})
    kept = store.load("g").snapshots
    assert [s["key"] for s in kept] == [f"k{n}" for n in range(3, SNAPSHOTS_KEPT + 3)]
    assert len(store.load("g").events) == SNAPSHOTS_KEPT + 3


def test_missing_duplicate_and_bad_ids(store):
    with pytest.raises(GameNotFound):
        store.load("nope")
    with pytest.raises(GameNotFound):
        store.append("nope", [{"type": "x"}])
    assert not store.path("nope").exists()
    store.create("g", META, {})
    with pytest.raises(GameExists):
        store.create("g", META, {})
    for bad in ["", "../etc", "Upper", "a/b", "x" * 65]:
        with pytest.raises(StoreError):
            store.path(bad)


def test_index_is_written_only_when_its_row_changes(store):
    store.create("g", META, {})
    index_before = store.index_path.read_bytes()
    store.append("g", [{"type": "order"}], state={"v": 1})
    assert store.index_path.read_bytes() == index_before
    with store.transaction("g") as tx:
        tx.set_meta(status="finished")
    assert store.list()[0]["status"] == "finished"


def test_a_game_file_the_index_does_not_name_is_listed_after_a_rebuild(store, caplog):
    """A process stopped between writing a new game's file and its row in the index (the
    daemon making the system outbox's file, say) leaves a game the catalogue misses."""
    store.create("a", META, {})
    store.create("b", META, {})
    index = json.loads(store.index_path.read_text())
    index["games"] = {k: row for k, row in index["games"].items() if row["id"] != "b"}
    store.index_path.write_text(json.dumps(index))
    assert [row["id"] for row in store.list()] == ["a", "b"]
    assert "index.json does not list game 'b'" in caplog.text
    assert {row["id"] for row in json.loads(store.index_path.read_text())["games"].values()} == {"a", "b"}
    store.index_path.unlink()  # stopped before the first row of a new store was written
    assert [row["id"] for row in store.list()] == ["a", "b"]


def test_a_game_file_deleted_by_hand_leaves_the_catalogue(store, caplog):
    store.create("a", META, {})
    store.create("b", META, {})
    store.path("b").unlink()
    assert [row["id"] for row in store.list()] == ["a"]
    assert "index.json lists game 'b', whose file is gone" in caplog.text
    assert [row["id"] for row in json.loads(store.index_path.read_text())["games"].values()] == ["a"]


def test_the_file_on_disk_is_plain_json(store):
    store.create("g", META, {"round": 1})
    data = json.loads(store.path("g").read_text(encoding="utf-8"))
    assert set(data) >= {"meta", "current"}
    assert not [p for p in store.games_dir.iterdir() if p.name.endswith(".tmp")]


def test_numbers_come_back_exactly_whatever_their_size(store):
    """Files are written with orjson, which cannot hold integers beyond 64 bits; those files
    are written and read by the standard library instead, and nothing is rounded."""
    huge = {"big": 2**70, "small": -(2**63), "real": 2.5, "text": "Ägäis"}
    store.create("g", dict(META, options=huge), {"round": 1})
    assert store.load("g").meta["options"] == huge
    store.append("g", [{"type": "order"}], state={"round": 2})
    assert store.load("g").meta["options"] == huge and store.load("g").state == {"round": 2}
    store.create("h", META, {"round": 1, "seed": 2**63 - 1})
    assert store.load("h").state["seed"] == 2**63 - 1


def test_lock_timeout_is_a_clear_temporary_failure(tmp_path):
    store = TinyDBStore(tmp_path, lock_timeout=0.2)
    store.create("g", META, {})
    from filelock import FileLock

    with FileLock(str(store.path("g")) + ".lock"):
        with pytest.raises(StoreBusy, match="locked"):
            store.append("g", [{"type": "x"}])


def test_a_peek_reads_the_last_complete_version_without_the_lock(tmp_path):
    store = TinyDBStore(tmp_path, lock_timeout=0.2)
    store.create("g", META, {"round": 1}, [{"type": "created"}])
    store.append("g", [{"type": "order", "text": "BID 3"}], state={"round": 2})
    with store.transaction("g") as tx:  # a writer in the middle of its unit of work
        tx.append({"type": "order", "text": "DONE"})
        tx.set_state({"round": 3})
        with pytest.raises(StoreBusy):
            store.load("g")
        seen = store.peek("g")
        assert seen.state == {"round": 2} and [e["seq"] for e in seen.events] == [1, 2]
    after = store.peek("g")
    assert (after.meta, after.state, after.events) == (store.load("g").meta, {"round": 3}, store.load("g").events)
    with pytest.raises(GameNotFound):
        store.peek("nope")
    assert not store.path("nope").exists() and not Path(str(store.path("nope")) + ".lock").exists()


def _append_bytes(root: Path, others: int) -> int:
    store = TinyDBStore(root)
    for i in range(others):
        store.create(f"other-{i}", META, {"round": 1, "filler": "y" * 200})
    store.create("target", META, {"round": 1})
    store.append("target", [{"type": "order", "text": "BID 3"}])
    store.stats.reset()
    for i in range(10):
        store.append("target", [{"type": "order", "text": f"BID {i}"}], state={"round": 1, "i": i})
    return store.stats.bytes_written


def test_write_cost_does_not_depend_on_how_many_games_exist(tmp_path):
    alone = _append_bytes(tmp_path / "one", 0)
    crowded = _append_bytes(tmp_path / "many", 1000)
    assert alone > 0
    assert crowded == alone


def test_two_processes_appending_at_once_lose_nothing(tmp_path):
    store = TinyDBStore(tmp_path)
    store.create("g", META, {})
    procs = [
        subprocess.Popen([sys.executable, str(WORKER), "append", str(tmp_path), "g", "150", tag])
        for tag in ("a", "b")
    ]
    for proc in procs:
        assert proc.wait(timeout=120) == 0
    events = store.load("g").events
    assert len(events) == 150 * 2
    assert [e["seq"] for e in events] == list(range(1, 301))
    for tag in ("a", "b"):
        assert [e["n"] for e in events if e["by"] == tag] == list(range(150))


def test_sigkill_mid_write_leaves_the_previous_valid_file(tmp_path):
    store = TinyDBStore(tmp_path)
    store.create("g", META, {"n": -1})
    for attempt in range(8):
        before = store.load("g")
        proc = subprocess.Popen(
            [sys.executable, str(WORKER), "rewrite", str(tmp_path), "g", "0", f"k{attempt}"],
            stdout=subprocess.PIPE, text=True,
        )
        proc.stdout.readline()  # at least one write has landed; more are under way
        time.sleep(0.003 * attempt)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
        after = store.load("g")  # parses: never a torn file
        n = after.state["n"]
        assert after.state["blob"].startswith(f"k{attempt}-{n}-")
        assert len(after.events) >= len(before.events) + 1
        assert [e["seq"] for e in after.events] == list(range(1, len(after.events) + 1))
    # the game goes on after the crashes
    store.append("g", [{"type": "after-crash"}])
    assert store.load("g").events[-1]["type"] == "after-crash"


def test_temporary_files_left_by_an_interrupted_write_are_swept(store):
    """A process killed between creating its temporary file and renaming it leaves the file;
    the daemon sweeps such files at start, but never one young enough to be a write under way."""
    store.create("g", META, {"round": 1})
    old, young = store.games_dir / ".g.json.999-1.tmp", store.games_dir / ".g.json.998-7.tmp"
    for path in (old, young):
        path.write_bytes(b"{half a write")
    hour_ago = time.time() - 3700
    os.utime(old, (hour_ago, hour_ago))
    assert store.sweep_temporary() == [old.name]
    assert young.exists() and not old.exists()
    assert store.load("g").state == {"round": 1}
    assert store.sweep_temporary(older_than=0) == [young.name]


def test_watchers_of_an_unchanged_game_share_one_picture_of_it(tmp_path):
    store = TinyDBStore(tmp_path)
    store.create("g", META, {"round": 1}, [{"type": "created"}])
    first = store.peek("g")
    assert store.peek("g") is first  # the same bytes: not decoded again
    store.append("g", [{"type": "order", "text": "BID 3"}], state={"round": 2})
    after = store.peek("g")
    assert after is not first and after.state == {"round": 2} and first.state == {"round": 1}
    assert TinyDBStore(tmp_path).peek("g") == after


def test_a_game_file_holds_a_table_a_line_and_a_unit_of_work_decodes_only_what_it_reads(store):
    """Each table on a line of its own, so a unit of work decodes only the tables it reads and
    writes the others back as they were: a unit of work that never reads the events writes
    back even a damaged events table untouched, and the first read of it names the file."""
    store.create("g", META, {"round": 1}, [{"type": "created"}])
    with store.transaction("g") as tx:
        tx.add_record("outbox", {"message_id": "<m1>", "status": "pending"})
    raw = store.path("g").read_bytes()
    lines = raw.split(b"\n")
    assert [line.split(b'":', 1)[0] for line in lines[:-1]] == [b'{"meta', b'"current', b'"events', b'"outbox']
    assert json.loads(raw) == json.loads(b"".join(lines))  # the same JSON as a file written whole
    events = next(line for line in lines if line.startswith(b'"events'))
    damaged = raw.replace(events, b'"events":{"1":{"type":"created",},')
    store.path("g").write_bytes(damaged)
    with store.transaction("g") as tx:  # the outbox only
        tx.update_record("outbox", tx.find_record("outbox", "message_id", "<m1>")["id"], {"status": "sent"})
    assert b'"events":{"1":{"type":"created",},' in store.path("g").read_bytes()
    with pytest.raises(GameFileBroken, match=r"games/g\.json its table 'events' is not valid JSON"):
        store.load("g")
    with pytest.raises(GameFileBroken, match="its table 'events'"):
        store.peek("g")


def test_a_file_written_whole_is_read_whole_and_written_a_table_a_line(store):
    store.create("g", META, {"round": 1}, [{"type": "created"}])
    whole = json.dumps(json.loads(store.path("g").read_bytes()), separators=(",", ":")).encode()
    store.path("g").write_bytes(whole)  # as an older version wrote it
    assert store.load("g").events == [{"type": "created", "seq": 1}]
    store.append("g", [{"type": "order"}])
    assert store.path("g").read_bytes().count(b"\n") == 3  # meta, current, events
    assert [e["seq"] for e in store.load("g").events] == [1, 2]


def test_a_watcher_decodes_only_the_events_appended_since_its_last_look(tmp_path):
    store = TinyDBStore(tmp_path)
    store.create("g", META, {"round": 1}, [{"type": "created"}])
    first = store.peek("g")
    with store.transaction("g") as tx:  # the game's events unchanged: the sender, say
        tx.add_record("outbox", {"message_id": "<m1>"})
    assert store.peek("g").events is first.events
    store.append("g", [{"type": "order", "text": "BID 3"}, {"type": "order", "text": "DONE"}], state={"round": 2})
    after = store.peek("g")
    assert after.events[0] is first.events[0]  # taken over, not decoded again
    assert after == TinyDBStore(tmp_path).peek("g") and [e["seq"] for e in after.events] == [1, 2, 3]


def test_a_file_whose_tables_are_all_dropped_is_written_as_an_empty_object():
    """TinyDB drops a table by deleting its key: with the last one gone the file is `{}`, which
    it reads again, not a lone closing brace."""
    from referee.storage import by_table, split_tables

    tables = split_tables("g.json", by_table({"meta": {"1": {"v": 1}}, "events": {}}))
    for name in list(tables.names()):
        del tables[name]
    assert json.loads(by_table(tables)) == {}
