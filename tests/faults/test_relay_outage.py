"""The relay goes away for a stretch while `referee serve` keeps taking orders, then comes back.

First the relay answers 421 to everything (a relay in trouble), then its port is closed (a
relay that is gone), then it returns on the same port. Players keep mailing orders all along.
While it is away the daemon keeps taking, checking and storing orders; once it is back every
mail any outbox holds is delivered exactly once: no Message-ID missing, none twice. The first
retry wait is cut to 0.3 s (REFEREE_TEST_RETRY_SECONDS) so that the backoff plays out in seconds.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

from .mailworld import GAMES, mail_world


def orders(svc) -> int:
    return sum(1 for gid, *_ in GAMES for e in svc.store.load(gid).events if e["type"] == "order")


def stored_after(svc, before: int, most: float = 60.0) -> int:
    """The orders stored so far, once there are more than `before` and the sender has tried some
    mail on the absent relay (at most `most` seconds): on a busy machine the daemon may do
    neither in the outage's first seconds, and the relay stays away until it has."""
    until = time.monotonic() + most
    while time.monotonic() < until:
        count = orders(svc)
        if count > before and any(r["attempts"] >= 1 for r in svc.outbox.pending()):
            return count
        time.sleep(0.2)
    return orders(svc)


@pytest.mark.long
def test_a_relay_outage_delays_mail_but_delivers_each_exactly_once(tmp_path, test_games):
    with mail_world(tmp_path, "outage", env={"REFEREE_TEST_RETRY_SECONDS": "0.3"}) as world:
        sink, svc = world.sink, world.svc
        time.sleep(2.0)
        sink.down = True
        before = sink.quiet_count()  # a mail already past RCPT may still finish
        stored_before = orders(svc)
        time.sleep(2.7)
        sink.stop()
        time.sleep(3.0)
        stored_during = stored_after(svc, stored_before)
        during = sink.count()
        sink.down = False
        sink.start()
        time.sleep(2.0)
        world.wind_down()
    assert during == before, "nothing can be delivered while the relay is away"
    ids = [d.message_id for d in sink.snapshot()]
    twice = [mid for mid, n in Counter(ids).items() if n > 1]
    assert not twice, f"delivered more than once: {twice[:5]}"
    assert world.queued() == set(ids)
    assert stored_during > stored_before, "orders kept coming in and were stored while the relay was away"
    deferred = [r for r in svc.outbox.pending(include_sent=True) if r["attempts"] > 1]
    assert deferred, "some mail waited for the relay and was retried"
