"""Two workers on one spool (the daemon beside `referee ingest`, or several ingest pipes) may
pick up the same mail at the same moment. Each order is still applied once, each answer
queued once, and the worker that finds the mail gone carries on: nothing is set aside and
no error escapes. Two independent sets of services over one real data directory."""

import threading
from collections import Counter

from mailer.daemon.wiring import build
from referee.config import Settings

from ..orders_mail import HOST, order_mail, spooled


def services(data):
    return build(Settings(hostname=HOST, data_dir=data, relay=f"maildir:{data.parent / 'relay'}"))


def test_two_workers_on_one_spool_apply_each_mail_once(tmp_path, race_registered):
    data = tmp_path / "data"
    first, second = services(data), services(data)
    tokens = {}
    for gid in ("g1", "g2", "g3"):
        made = first.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")],
                                      seed="s", game_id=gid, options={"target": 500})
        tokens[gid] = {s["name"]: s["token"] for s in made.players}
    sent = []
    for gid in tokens:
        for n in range(40):
            player = ("ann", "bob")[n % 2]
            text = "STATUS" if n % 13 == 5 else ("FLY 9" if n % 11 == 3 else f"ADD {1 + n % 3}")
            first.spool.add(spooled(*order_mail(gid, player, tokens[gid][player], text, n)))
            sent.append((gid, n))
    errors = []

    def work(svc):
        worker = svc.worker()
        try:
            while svc.spool.pending():
                worker.run_once(svc.spool)
        except Exception as exc:  # must never happen
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(svc,)) for svc in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors
    assert first.spool.pending() == 0
    assert first.spool.aside() == []
    for gid in tokens:
        ids = [e["message_id"] for e in first.store.load(gid).events if e["type"] == "order"]
        assert len(ids) == len(set(ids))
        with first.store.transaction(gid) as tx:
            queued = Counter(r["message_id"] for r in tx.records("outbox"))
        assert queued and max(queued.values()) == 1
    with first.system_outbox.store.transaction("postmaster") as tx:
        answers = Counter(r["message_id"] for r in tx.records("outbox"))
    assert answers and max(answers.values()) == 1  # each rejected order answered once
