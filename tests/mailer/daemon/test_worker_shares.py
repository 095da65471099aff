"""Mail workers with a share of the games each (mailer/daemon/shares.py): every mail is taken
by exactly one of them, one game's mail always by the same one and in the order it arrived.
tests/faults/test_worker_processes.py runs them as `referee serve` does."""

import asyncio
import importlib
import threading
import zlib

from mailer.daemon.shares import game_table, worker_count
from mailer.daemon.wiring import build
from mailer.inbound.journal import Journal
from referee.config import Settings

from ..orders_mail import HOST, order_mail, spooled


def services(data):
    return build(Settings(hostname=HOST, data_dir=data, relay=f"maildir:{data.parent / 'relay'}"))


def test_each_mail_is_taken_by_one_worker_and_each_games_mail_in_arrival_order(tmp_path, race_registered):
    data = tmp_path / "data"
    first = services(data)
    tokens, sent = {}, {}
    for g in range(8):
        gid = f"g{g}"
        made = first.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                                      seed="s", game_id=gid, options={"target": 500})
        tokens[gid] = {s["name"]: s["token"] for s in made.players}
    journal = Journal(first.spool)  # as the SMTP server writes it: segments, no file per mail
    journal.start()
    for n in range(12):
        batch = []
        for gid in tokens:
            player = ("ann", "bob")[n % 2]
            batch.append(spooled(*order_mail(gid, player, tokens[gid][player], f"ADD {1 + n % 3}", n)))
            sent.setdefault(gid, []).append(f"<{gid}.{player}.{n}@players.test>")
        asyncio.run(journal.store(batch))
    journal.close()
    workers, handled, errors = [], [], []
    for index in range(2):
        svc = services(data)
        worker = svc.worker()
        worker.share = (index, 2)
        workers.append((svc, worker))
        handled.append([])

    def work(index):
        svc, worker = workers[index]
        try:
            for _ in range(200):
                handled[index] += [(h.game, h.outcome) for h in worker.run_once(svc.spool)]
                if not svc.spool.pending():
                    return
        except Exception as exc:  # must never happen
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors and first.spool.pending() == 0 and first.spool.aside() == []
    shares = [{game for game, _ in done} for done in handled]
    assert shares[0] and shares[1] and not shares[0] & shares[1]  # each game in one share only
    for index, games in enumerate(shares):
        assert all(zlib.crc32(game.encode()) % 2 == index for game in games)
    assert sum(len(done) for done in handled) == 8 * 12  # nothing taken twice
    for gid, ids in sent.items():
        logged = [e["message_id"] for e in first.store.load(gid).events if e["type"] == "order"]
        assert logged == ids  # in the order it arrived


def test_the_default_is_a_worker_per_processor_and_the_games_are_found_by_name(race_registered):
    assert worker_count(3) == 3
    assert 1 <= worker_count(0) <= 4
    table = game_table()
    assert table is not None
    module, _, name = table["race"].partition(":")
    assert getattr(importlib.import_module(module), name) is race_registered  # a child imports the same game
