"""Private table talk never reaches anyone else: no mail to a player outside it and nothing a
player may look at (their view, the game's status, their part of the table talk) changes
when two other players write to each other in private.

For random positions of both games (3 to 5 players), two services hold the same game; in the
first, player X writes privately to player Z (with Z, half the time, under NOTIFY press
digest) and X writes to everyone in both. Then both go on through the real mail path
(tests/leaks/test_reports.py: the viewer's report, mail of the moment, STATUS, HELP, an order
and what follows it). Every mail to the viewer Y, from the game's start, must be the same
bytes in both, and the words X wrote to Z must appear in no mail to anyone but X and Z.
"""

from __future__ import annotations

import random

import pytest

from referee import registry
from referee.playthrough import play
from referee.press import seen_by
from referee.service import PressRequest, Talk

from ..marks import chunks
from .hidden import HIDE
from .test_reports import NAMES, OPTIONS, mails_to, seat, service

GAMES = 40
CHUNKS = 2


def everything_to(svc, gid, address, since=0):
    """The raw mails to `address` queued after the first `since` of the game's outbox."""
    with svc.store.transaction(gid) as tx:
        return [r["raw"] for r in tx.records("outbox")[since:] if r["to"] == address]


def talk(svc, gid, sender, audience, text, n):
    done = svc.referee.press(gid, PressRequest(sender, (Talk(audience, text, (1, 2)),), token=f"{sender}token",
                                               message_id=f"<talk-{n}-{text[:6]}@players.test>", source="mail"))
    assert done.talks[0]["sent"], done.talks


@pytest.mark.parametrize("chunk", chunks(CHUNKS))
@pytest.mark.parametrize("name", sorted(HIDE))
def test_private_table_talk_reaches_nobody_else(name, chunk, tmp_path):
    game = registry.get(name)
    one, two = service(tmp_path / "real"), service(tmp_path / "quiet")
    for n in range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS):
        rng = random.Random(f"press leak {name} {n}")
        players = NAMES[:rng.randint(max(3, game.min_players), min(game.max_players, len(NAMES)))]
        options = rng.choice(OPTIONS[name])
        seed = f"press-{n}"
        trail = []
        play(game, players, seed, options, on_step=lambda pt: trail.append((pt.state, pt.events[-3:])))
        state, events = trail[rng.randrange(len(trail) - 1)]
        viewer, sender, reader = rng.sample(players, 3)
        secret = f"meet me at the harbour {n} {rng.random()}"
        menu = game.legal_orders(state, viewer)
        order = game.format(rng.choice(menu)) if menu else None
        gid = f"talk-{n}"
        start = {}
        for svc, private in ((one, True), (two, False)):
            seat(svc, gid, name, players, seed, options)  # the first mails name the tokens before they are fixed
            with svc.store.transaction(gid) as tx:
                start[id(svc)] = len(tx.records("outbox"))
            if rng.random() < 0.5 or not private:
                svc.referee.set_notify(gid, reader, "press digest")
            if private:
                talk(svc, gid, sender, (reader,), secret, n)
            talk(svc, gid, sender, None, "good luck to all", n)
        waiting = [p["text"] for p in one.store.load(gid).meta["mailbag"][reader]["parts"]]
        assert any(secret in text for text in everything_to(one, gid, f"{reader}@players.test") + waiting)
        mails_to(one, gid, game, state, viewer, events, order)
        mails_to(two, gid, game, state, viewer, events, order)
        address = f"{viewer}@players.test"
        seen = everything_to(one, gid, address, start[id(one)])
        assert seen == everything_to(two, gid, address, start[id(two)]), \
            f"game {n}: {viewer}'s mail shows that others talked"
        assert any("good luck to all" in raw for raw in seen) or viewer == sender
        for other in players:
            if other not in (sender, reader):
                assert not any(secret in raw for raw in everything_to(one, gid, f"{other}@players.test"))
        assert one.referee.show(gid, viewer) == two.referee.show(gid, viewer)
        assert seen_by(one.referee.press_records(gid), viewer) == seen_by(two.referee.press_records(gid), viewer)
        status = [svc.referee.status(gid) for svc in (one, two)]
        assert status[0] == status[1]
