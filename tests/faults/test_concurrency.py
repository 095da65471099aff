"""Five players of each of 100 games send their orders at the same moment, from ten processes
at once, through the service and the mail notifier into the real store.

Every submission is accepted; every game file loads and holds all five players' orders; each
game's secret round resolved with all five picks; the catalogue still lists the 100 games;
every game queued its receipts and reports; no temporary file is left behind.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from mailer.daemon.wiring import build
from referee import registry
from referee.config import Settings

from ..marks import slow
from .fives import FIVES
from ..service.conftest import each_mail
from .mailworld import ROOT

GAMES, PLAYERS, PROCESSES = 100, ["ann", "bob", "cid", "dee", "eve"], 10


@slow
def test_five_players_of_a_hundred_games_at_once_lose_nothing(tmp_path, monkeypatch):
    table = {**registry.games(), FIVES.name: FIVES}
    monkeypatch.setattr(registry, "games", lambda: dict(table))
    data = tmp_path / "var"
    svc = build(Settings(hostname="games.test", data_dir=data))
    gids = [f"fives-{n}" for n in range(GAMES)]
    for gid in gids:
        svc.referee.new_game("fives", [(p, f"{p}@players.test") for p in PLAYERS], seed=gid, options={"rounds": 1},
                             game_id=gid)
        each_mail(svc.store, gid)  # every receipt is a mail of its own
    jobs: list[list] = [[] for _ in range(PROCESSES)]
    for g, gid in enumerate(gids):  # a game's five players sit in five different processes
        for p, player in enumerate(PLAYERS):
            jobs[(g + 2 * p) % PROCESSES].append((gid, player, f"PICK {(g + p) % 9 + 1}\nDONE"))
    start_at = time.time() + 5
    procs = [subprocess.Popen([sys.executable, "-m", "tests.faults.submitter", str(data), str(start_at),
                               json.dumps(share)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for share in jobs]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        results += [json.loads(line) for line in out.splitlines()]

    assert len(results) == GAMES * len(PLAYERS)
    assert {r["status"] for r in results} == {"accepted"}, [r for r in results if r["status"] != "accepted"][:3]
    assert sorted(row["id"] for row in svc.store.list()) == sorted(gids)
    assert not [p.name for p in svc.store.games_dir.iterdir() if p.suffix == ".tmp" or p.name.startswith(".")]
    for g, gid in enumerate(gids):
        stored = svc.store.load(gid)
        orders = [e for e in stored.events if e["type"] == "order"]
        assert sorted(e["player"] for e in orders) == PLAYERS, gid
        assert stored.meta["status"] == "finished" and stored.state["round"] == 2, gid
        revealed = next(e for o in orders for e in o["events"] if e["kind"] == "revealed")
        assert revealed["text"] == ", ".join(f"{p} {(g + i) % 9 + 1}" for i, p in enumerate(PLAYERS)), gid
        with svc.store.transaction(gid) as tx:
            mail = tx.records("outbox")
        receipts = {r["to"] for r in mail if r["kind"] == "receipt"}
        assert receipts == {f"{p}@players.test" for p in PLAYERS}, gid
        assert sum(r["kind"] == "report" for r in mail) >= 2 * len(PLAYERS), gid  # the opening and the end
