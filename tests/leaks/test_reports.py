"""No report, receipt or answer to player X changes when only another player's hidden
information changes.

For 200 random games of each game (player counts and variants vary with the seed), at a
random position before the end (the final result rightly reveals everything), a second
position is made that differs from the real one only in what X may not see (another player's
gold or money, the contracts on their ships, their limits, offers between others, the deck
order, the bag, the random streams, queued orders; see hidden.py).
Both go through the real mail path (store, notifier, templates, mail composition): X's report
with the events of the last steps, X's STATUS and HELP answers, and, when X is asked, X's
receipt for an order and whatever reports follow it. The raw mails to X, text, HTML and
headers, must be the same bytes. After X's order the two games may drift apart where the
rules make hidden information count (a defence limit, a ship arriving with its contracts);
the mails after the order are only compared when what X sees of the order (view and events)
is the same, and such cases are counted so that they stay few.
"""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from mailer.daemon.wiring import build
from referee import registry
from referee.config import Settings
from referee.contract import Event, canonical_json
from referee.playthrough import PlaythroughError, play

from ..marks import chunks
from .hidden import HIDE

GAMES = 200
CHUNKS = 4
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
NAMES = ["ann", "bob", "cid", "dee", "eve"]
OPTIONS = {"constantinopolis": [{}, {"public_gold": True}, {"market_reshuffle": "facedown"}, {"free_trade": True}],
           "porto-carthago": [{}]}


def service(root):
    return build(Settings(hostname="games.test", data_dir=root), clock=lambda: NOW)


def seat(svc, gid, name, players, seed, options):
    svc.referee.new_game(name, [(p, f"{p}@players.test") for p in players], seed=seed, options=options, game_id=gid)
    with svc.store.transaction(gid) as tx:  # the same tokens on both sides
        tx.set_meta(seats=[dict(s, token=f"{s['name']}token") for s in tx.meta["seats"]])


def mails_to(svc, gid, game, state, viewer, events, order):
    """The raw mails the real mail path sends `viewer` for this position, and the view after
    `order` with the events of it the viewer may see (None when the viewer is not asked)."""
    with svc.store.transaction(gid) as tx:
        tx.set_state(state)
        tx.set_meta(steps=[], reported={}, reported_from={}, reported_stage=None, status="active",
                    mailbag={p: {"count": b.get("count", 0)} for p, b in (tx.meta.get("mailbag") or {}).items()})
        tx.append({"type": "note", "at": "2026-03-01T12:00:00Z", "events": [e.to_json() for e in events]})
        start = len(tx.records("outbox"))
        svc.notifier.reports(tx, game, tx.meta, state)
        svc.notifier.settle(tx, game, tx.meta, state, NOW)  # the viewer's mail of the moment
        svc.notifier.status_answer(tx, game, tx.meta, state, viewer, "<status@players.test>", "status")
        svc.notifier.help_answer(tx, game, tx.meta, state, viewer, "<help@players.test>", "help")
    after = None
    if order is not None:
        receipt = svc.referee.submit(gid, viewer, order)
        assert receipt.status == "accepted", receipt.render()
        stored = svc.store.load(gid)
        seen = [Event.from_json(e) for r in stored.events if r["seq"] > receipt.seq - 1 for e in r.get("events", [])]
        result = game.result(stored.state)  # the end of the game rightly reveals everything
        after = (game.view(stored.state, viewer), [e.text for e in seen if e.visible_to(viewer)],
                 result.to_json() if result else None)
    with svc.store.transaction(gid) as tx:
        new = tx.records("outbox")[start:]
    return [r["raw"] for r in new if r["to"] == f"{viewer}@players.test"], after


@pytest.mark.parametrize("chunk", chunks(CHUNKS))
@pytest.mark.parametrize("name", sorted(HIDE))
def test_mail_to_a_player_does_not_depend_on_anothers_hidden_information(name, chunk, tmp_path):
    game = registry.get(name)
    one, two = service(tmp_path / "real"), service(tmp_path / "changed")
    compared = drifted = 0
    for n in range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS):
        rng = random.Random(f"leak {name} {n}")
        players = NAMES[:rng.randint(game.min_players, min(game.max_players, len(NAMES)))]
        options = rng.choice(OPTIONS[name])
        seed = f"leak-{n}"
        stop = rng.randrange(1, 400)
        trail = []

        def keep(pt):
            trail.append((pt.state, pt.events[-3:]))

        try:  # the position after `stop` steps is all that is needed: no further
            play(game, players, seed, options, on_step=keep, max_steps=stop + 1)
        except PlaythroughError:
            assert len(trail) == stop + 1
        state, events = trail[min(stop, len(trail) - 1) - 1]  # never the end: the result reveals all
        viewer = rng.choice(players)
        other = rng.choice([p for p in players if p != viewer])
        changed = HIDE[name](state, viewer, other, rng)
        assert canonical_json(game.view(changed, None)) != canonical_json(game.view(state, None)), \
            "the change must alter the position"
        assert game.view(changed, viewer) == game.view(state, viewer), f"{viewer} sees {other}'s hidden information"
        menu = game.legal_orders(state, viewer)
        assert [game.format(o) for o in game.legal_orders(changed, viewer)] == [game.format(o) for o in menu]
        order = game.format(rng.choice(menu)) if menu else None
        gid = f"leak-{n}"
        for svc in (one, two):
            seat(svc, gid, name, players, seed, options)
        real, real_after = mails_to(one, gid, game, state, viewer, events, order)
        other_mails, other_after = mails_to(two, gid, game, changed, viewer, events, order)
        assert real, "the viewer gets mail"
        if real_after != other_after:
            drifted += 1  # the order met the hidden information: only what came before counts
            real, other_mails = real[:3], other_mails[:3]
        assert real == other_mails, f"game {n}: mail to {viewer} differs when {other}'s hidden information changes"
        compared += 1
    assert compared == GAMES // CHUNKS
    assert drifted <= compared // 4, f"{drifted} of {compared} positions drifted apart after the viewer's order"
