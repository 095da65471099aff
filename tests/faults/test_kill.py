"""`referee serve` killed with SIGKILL at random moments while players mail orders and a
moderator adjudicates, restarted every time.

The daemon runs in its own process with the test games and two real games; players are bots
mailing through SMTP like an MTA (what could not be handed over is retried, same Message-ID);
the relay is an SMTP server in the test recording every mail in order. The kills are seeded:
some land while the daemon starts, most while it works. Afterwards:

- every mail the SMTP server took was answered, and every order acknowledged as accepted is in
  its game's log;
- every mail any outbox holds was delivered, and a mail delivered twice was in flight at a
  kill: the relay took it among the last mails before the kill, the kill came before it was
  marked, and the copy came after the kill; at most one such mail per connection the sender
  may have open (one while the relay keeps up; more open when mail waits for a connection, as
  it does on a busy machine);
- the mail the games queued is exactly the mail the same history queues without any crash;
- every game file loads, its state is what its log gives, every game plays on (a short one to
  its end) and its record replays.

REFEREE_KILLS sets the number of kills (50 by default).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections import Counter

import pytest

from referee import registry
from referee.config import Settings
from referee.gamelog import replay_log, write_log
from referee.history import rebuild, state_hash
from referee.playthrough import BotStuck, bot_submission
from referee.rng import Rng
from referee.service import Referee

from ..service.conftest import FakeClock, each_mail
from .mailworld import GAMES, ROOT, build, mail_world, settings

KILLS = int(os.environ.get("REFEREE_KILLS", "50"))
CONNECTIONS = Settings.relay_connections  # mails the sender may have handed to the relay at once


def adjudicate(data, gid: str) -> None:
    """The moderator, from the command line."""
    env = {**os.environ, "REFEREE_DATA": str(data), "REFEREE_HOSTNAME": "games.test"}
    done = subprocess.run([sys.executable, "-m", "tests.faults.referee_cli", "adjudicate", gid], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr  # 1: the game ended meanwhile


def shadow_ids(gid: str, stored, tmp_path) -> set[str]:
    """The Message-IDs the game's history queues when nothing crashes: the same game, the same
    orders and adjudications, one after another in a fresh data directory."""
    svc = build(settings(tmp_path / f"shadow-{gid}", 1), clock=FakeClock())
    meta = stored.meta
    svc.referee.new_game(meta["game"], [(s["name"], s["email"]) for s in meta["seats"]], seed=meta["seed"],
                         options=meta["options"], game_id=gid)
    each_mail(svc.store, gid)
    for event in stored.events:
        if event["type"] == "order":
            receipt = svc.referee.submit(gid, event["player"], event["text"], message_id=event["message_id"],
                                         source="mail", in_reply_to=event["message_id"])
            assert receipt.status == "accepted", receipt.render()
        elif event["type"] == "adjudicate":
            svc.referee.adjudicate(gid)
    with svc.store.transaction(gid) as tx:
        return {r["message_id"] for r in tx.records("outbox")}


def play_on(data, gid: str, steps: int = 40) -> None:
    """The game goes on after all the crashes (to its end, or for `steps` more submissions),
    and its record replays to the same position."""
    store = build(settings(data, 1)).store
    referee = Referee(store, clock=FakeClock())
    bots = Rng.from_seed(gid, "after the kills")
    for _ in range(steps):
        stored = store.load(gid)
        game = registry.get(stored.meta["game"])
        try:
            turn = bot_submission(game, stored, bots)
        except BotStuck:
            referee.adjudicate(gid)
            continue
        if turn is None:
            assert stored.meta["status"] == "finished", f"{gid} is over but not marked finished"
            break
        receipt = referee.submit(gid, *turn)
        assert receipt.status == "accepted", receipt.render()
    stored = store.load(gid)
    result = replay_log(write_log(stored.meta, stored.events, stored.state, reveal_seed=True), registry.get)
    assert result.ok, result.message


@pytest.mark.long
def test_sigkill_at_random_moments_loses_nothing_and_resends_only_the_mail_in_flight(tmp_path, test_games):
    rng = random.Random("kills")
    cuts: list[int] = []  # deliveries recorded when each kill had landed
    started = time.monotonic()
    with mail_world(tmp_path, "kill") as world:
        daemon, sink, players = world.daemon, world.sink, world.players
        for n in range(KILLS):
            if rng.random() < 0.15:
                time.sleep(rng.uniform(0.0, 0.4))  # while it starts up
            else:
                daemon.wait_ready()
                time.sleep(rng.uniform(0.05, 1.2))
            if n % 7 == 3:
                for gid in list(players.stuck) + [rng.choice(GAMES)[0]]:
                    adjudicate(world.data, gid)
                players.stuck.clear()
            daemon.kill()
            cuts.append(sink.count_once_closed())  # a mail the relay was reading when the daemon died is recorded
            daemon.start()
        daemon.wait_ready()
        world.wind_down()
    svc, data = world.svc, world.data
    elapsed = time.monotonic() - started
    deliveries = sink.snapshot()
    ids = [d.message_id for d in deliveries]

    # every mail taken over SMTP was answered; every accepted order is in the log
    answered = {d.in_reply_to for d in deliveries}
    taken = [mid for mid, m in players.mails.items() if m.accepted]
    assert len(taken) > 2 * KILLS, f"only {len(taken)} mails in {elapsed:.0f} s"
    assert set(taken) <= answered, f"unanswered: {sorted(set(taken) - answered)[:5]}"
    stored = {gid: svc.store.load(gid) for gid, *_ in GAMES}
    logged = {e["message_id"]: (gid, e) for gid, s in stored.items() for e in s.events if e.get("message_id")}
    acknowledged = {d.in_reply_to for d in deliveries if d.subject.endswith("Orders received: accepted")}
    assert acknowledged <= set(logged), f"acknowledged but not logged: {sorted(acknowledged - set(logged))[:5]}"
    # enough receipts to mean something; how many depends on the machine's speed between kills
    assert len(acknowledged) > KILLS // 2
    for mid in acknowledged:
        gid, event = logged[mid]
        assert event["type"] == "order" and players.mails[mid].game == gid

    # everything queued was delivered; a second copy only for the mail in flight at a kill
    queued = world.queued()
    assert queued == set(ids), (sorted(queued - set(ids))[:5], sorted(set(ids) - queued)[:5])
    first: dict[str, int] = {}
    explained: Counter[int] = Counter()
    for index, mid in enumerate(ids):
        if mid not in first:
            first[mid] = index
            continue
        previous = max(i for i in range(index) if ids[i] == mid)
        kill = next((k for k, cut in enumerate(cuts) if cut > previous), None)  # the first kill after it
        assert kill is not None and cuts[kill] <= index, f"{mid} was delivered again without a kill in between"
        assert previous >= cuts[kill] - CONNECTIONS, f"{mid} was not in flight at kill {kill}, yet delivered again"
        explained[kill] += 1
        assert explained[kill] <= CONNECTIONS, f"kill {kill} is blamed for more second copies than connections"

    checked = time.monotonic()
    # the same history without any crash queues exactly the same mail
    for gid, game_stored in stored.items():
        with svc.store.transaction(gid) as tx:
            real = {r["message_id"] for r in tx.records("outbox")}
        assert real == shadow_ids(gid, game_stored, tmp_path), gid

    shadowed = time.monotonic()
    # every file loads and agrees with its log; every game goes on to its end
    assert sorted(row["id"] for row in svc.store.list()) == sorted(g[0] for g in GAMES)
    for gid, game_stored in stored.items():
        game = registry.get(game_stored.meta["game"])
        pos, _ = rebuild(game, game_stored.meta, game_stored.events)
        assert state_hash(pos.state) == state_hash(game_stored.state), gid
        json.loads(svc.store.path(gid).read_text())
        play_on(data, gid)
    assert svc.store.load("race-2").meta["status"] == "finished"
    orders = Counter(e["type"] for s in stored.values() for e in s.events)
    print(f"shadow {shadowed - checked:.0f} s, play on {time.monotonic() - shadowed:.0f} s")
    print(f"{KILLS} kills in {elapsed:.0f} s; {len(taken)} mails taken, {orders['order']} orders, "
          f"{orders['adjudicate']} adjudications, {len(ids)} mails delivered, {sum(explained.values())} second copies")
