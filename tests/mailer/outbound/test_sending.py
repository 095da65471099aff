"""Sending over several relay connections: every mail once, however many senders run; the
connections used at once and for several mails each; games served in turn."""

import asyncio
import email
import threading
from collections import Counter
from datetime import datetime, timedelta, timezone
from email import policy

import pytest
from aiosmtpd.controller import Controller

from mailer.outbound.compose import OutgoingMail, message_id
from mailer.outbound.outbox import Outbox, queue
from mailer.outbound.relay import SMTPRelay
from mailer.outbound.sending import deliver, send_all
from referee.store import TinyDBStore

from ..net import free_port

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)
HOST = "games.test"


def mail(game_id: str, n: int) -> OutgoingMail:
    return OutgoingMail(game_id, "report", f"p{n}@players.test", f"[{game_id}] Report {n}", f"Report {n}\n",
                        message_id(game_id, "report", n, f"p{n}", HOST))


class Relay:
    """A real SMTP relay on loopback that takes `delay` seconds per mail and records every
    mail it takes, the connection it came on, and how many it was taking at once. With
    `together`, a mail is only answered once that many are being taken at once (or after
    `patience` seconds): a sender that never sends them together waits it out."""

    def __init__(self, delay: float = 0.0, together: int = 0, patience: float = 10.0) -> None:
        self.delay, self.together, self.patience = delay, together, patience
        self.taken: list[str] = []
        self.sessions: list[int] = []
        self.busy = self.most = 0
        self.on_mail = lambda count: None
        self._controller = Controller(self, hostname="127.0.0.1", port=free_port(), server_hostname="relay.test")

    async def handle_DATA(self, server, session, envelope):
        self.busy += 1
        self.most = max(self.most, self.busy)
        try:
            if self.together:
                for _ in range(int(self.patience / 0.02)):
                    if self.most >= self.together:
                        break
                    await asyncio.sleep(0.02)
            await asyncio.sleep(self.delay)
        finally:
            self.busy -= 1
        head = email.message_from_bytes(envelope.original_content, policy=policy.compat32)
        self.taken.append(head["Message-ID"])
        self.sessions.append(id(session))
        self.on_mail(len(self.taken))
        return "250 OK"

    def __enter__(self) -> "Relay":
        self._controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self._controller.stop()

    def client(self) -> SMTPRelay:
        return SMTPRelay("127.0.0.1", self._controller.port, timeout=30)


@pytest.fixture
def outbox(tmp_path):
    store = TinyDBStore(tmp_path / "data")
    return Outbox(store, tmp_path / "data" / "outbox-pending")


def add(outbox: Outbox, game_id: str, numbers, now=T0) -> list[str]:
    if not outbox.store.exists(game_id):
        outbox.store.create(game_id, {"game": "race", "players": [], "status": "active"}, {})
    with outbox.store.transaction(game_id) as tx:
        for n in numbers:
            queue(tx, mail(game_id, n), host=HOST, sender_name="Referee", now=now)
    outbox.mark(game_id)
    return [mail(game_id, n).message_id for n in numbers]


def statuses(outbox: Outbox) -> Counter:
    return Counter(r["status"] for r in outbox.pending(include_sent=True))


def test_senders_running_at_once_give_the_relay_each_mail_once(outbox, tmp_path):
    """Five senders (each with its own view of the data directory, as separate processes
    have) start together against a slow relay; no mail reaches it twice."""
    ids = []
    for g in range(4):
        ids += add(outbox, f"g-{g}", range(5), now=T0 + timedelta(seconds=g))
    start = threading.Barrier(5)
    errors = []

    def sender(relay):
        mine = Outbox(TinyDBStore(tmp_path / "data"), tmp_path / "data" / "outbox-pending")
        start.wait()
        try:
            send_all([mine], relay.client(), lambda: T0 + timedelta(minutes=1), connections=4)
        except BaseException as exc:  # reported below
            errors.append(exc)

    with Relay(delay=0.3) as relay:
        threads = [threading.Thread(target=sender, args=(relay,)) for _ in range(5)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert errors == []
    assert sorted(relay.taken) == sorted(ids), [m for m, n in Counter(relay.taken).items() if n > 1]
    assert statuses(outbox) == {"sent": 20}
    assert list(outbox.claims.root.iterdir()) == []


def test_four_connections_at_once_each_used_for_several_mails(outbox):
    ids = []
    for g in range(4):
        ids += add(outbox, f"g-{g}", range(4))
    with Relay(together=4) as relay:
        report = send_all([outbox], relay.client(), lambda: T0, connections=4)
    assert relay.most == 4, "the relay never had four mails at once"
    assert sorted(relay.taken) == sorted(ids) == sorted(report.sent)
    assert len(set(relay.sessions)) <= 4, "a connection per mail"


def test_one_connection_for_a_relay_that_answers_at_once(outbox):
    add(outbox, "g-1", range(6))
    with Relay() as relay:
        send_all([outbox], relay.client(), lambda: T0, connections=4)
    assert len(relay.taken) == 6 and len(set(relay.sessions)) == 1


def test_games_take_turns_oldest_first(outbox):
    """A backlog in g-a does not hold up g-b's mail, queued later, with one connection."""
    backlog = add(outbox, "g-a", range(10), now=T0)
    (other,) = add(outbox, "g-b", [1], now=T0 + timedelta(minutes=5))
    with Relay() as relay:
        send_all([outbox], relay.client(), lambda: T0 + timedelta(hours=1), connections=1)
    assert relay.taken == [backlog[0], other] + backlog[1:]


def test_mail_queued_during_a_pass_goes_before_the_rest_of_a_backlog(outbox):
    backlog = add(outbox, "g-a", range(20))
    nudge, late = threading.Event(), []

    def on_mail(count):
        if count == 3:  # a new order in g-b was answered while g-a's backlog is going out
            late.extend(add(outbox, "g-b", [1], now=T0 + timedelta(minutes=1)))
            nudge.set()

    with Relay(delay=0.1) as relay:
        relay.on_mail = on_mail
        send_all([outbox], relay.client(), lambda: T0 + timedelta(minutes=2), connections=1, nudge=nudge)
    assert sorted(relay.taken) == sorted(backlog + late)
    assert relay.taken.index(late[0]) < len(backlog) // 2, relay.taken.index(late[0])


def test_mail_another_sender_holds_is_left_to_it(outbox, tmp_path):
    first, second = add(outbox, "g-1", [1, 2])
    other = Outbox(TinyDBStore(tmp_path / "data"), tmp_path / "data" / "outbox-pending")
    with other.store.transaction("g-1"):
        held = other.claims.take("g-1", first)
    assert held is not None
    with Relay() as relay:
        deliver(outbox, relay.client(), T0)
        assert relay.taken == [second]
        held.release(remove=False)  # the other sender stopped before handing it over
        deliver(outbox, relay.client(), T0)
        assert relay.taken == [second, first]
    assert statuses(outbox) == {"sent": 2}


def test_a_crash_after_the_relay_took_a_mail_repeats_that_mail_only(outbox):
    """The relay answered 250, and the sender died before it could write down that it had:
    the next pass sends that one mail again (same Message-ID), and nothing else twice."""
    ids = add(outbox, "g-1", range(4))
    taken = []

    class DiesAfterTheSecond:
        def deliver(self, raw, mail_from, recipients, mid):
            taken.append(mid)
            if len(taken) == 2:
                raise SystemExit("killed")  # after the relay took it, before it was recorded

    with pytest.raises(SystemExit):
        deliver(outbox, DiesAfterTheSecond(), T0)

    class Records:
        def deliver(self, raw, mail_from, recipients, mid):
            taken.append(mid)

    deliver(outbox, Records(), T0)
    assert [mid for mid, n in Counter(taken).items() if n > 1] == [ids[1]]
    assert sorted(set(taken)) == sorted(ids)
    assert statuses(outbox) == {"sent": 4}


def test_a_journal_left_by_an_older_version_is_honoured(outbox):
    first, second = add(outbox, "g-1", [1, 2])
    (outbox.markers / ".sent").write_text(f"g-1 {first}\n", encoding="utf-8")
    with Relay() as relay:
        deliver(outbox, relay.client(), T0)
    assert relay.taken == [second]
    assert statuses(outbox) == {"sent": 2}
    assert not (outbox.markers / ".sent").exists() and list(outbox.claims.root.iterdir()) == []


def test_a_stopping_sender_takes_no_new_mail_and_records_what_it_sent(outbox):
    add(outbox, "g-1", range(5))
    stop = threading.Event()
    with Relay() as relay:
        relay.on_mail = lambda count: stop.set() if count == 2 else None
        report = send_all([outbox], relay.client(), lambda: T0, connections=1, keep_going=lambda: not stop.is_set())
    assert len(relay.taken) == 2 == len(report.sent)
    assert statuses(outbox) == {"sent": 2, "pending": 3}
    with Relay() as relay:
        send_all([outbox], relay.client(), lambda: T0, connections=1)
    assert len(relay.taken) == 3 and statuses(outbox) == {"sent": 5}


class ClosesAfterTwo:
    """A relay that ends every connection after two mails, as relays with a per-connection
    limit do: the third MAIL is answered 421 and the connection closed."""

    def __init__(self):
        self.taken, self.counts = [], {}

    async def handle_MAIL(self, server, session, envelope, address, options):
        if self.counts.get(id(session), 0) >= 2:
            server.transport.close()
            return "421 4.7.0 Too many mails on one connection"
        envelope.mail_from = address
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.counts[id(session)] = self.counts.get(id(session), 0) + 1
        self.taken.append(email.message_from_bytes(envelope.original_content)["Message-ID"])
        return "250 OK"


def test_a_connection_the_relay_closed_is_opened_again_without_losing_a_mail(outbox):
    ids = add(outbox, "g-1", range(5))
    handler = ClosesAfterTwo()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(), server_hostname="relay.test")
    controller.start()
    try:
        report = deliver(outbox, SMTPRelay("127.0.0.1", controller.port, timeout=10), T0)
    finally:
        controller.stop()
    assert handler.taken == ids == report.sent
    assert len(handler.counts) == 3


def test_more_games_than_a_pass_holds_at_once_all_go_once(outbox, tmp_path):
    """150 games with 2 mails each and a relay that answers at once: more than QUEUE_LIMIT
    mails are due, so the pass claims them over several looks; each goes once."""
    from mailer.outbound.relay import MaildirRelay
    from mailer.outbound.sending import QUEUE_LIMIT

    ids = [mid for g in range(150) for mid in add(outbox, f"g-{g}", [1, 2])]
    assert len(ids) > QUEUE_LIMIT
    taken = []

    class Records(MaildirRelay):
        def deliver(self, raw, mail_from, recipients, mid):
            taken.append(mid)

    report = send_all([outbox], Records(tmp_path / "relay"), lambda: T0, connections=4)
    assert sorted(taken) == sorted(ids) == sorted(report.sent)
    assert statuses(outbox) == {"sent": 300}
    assert [p.name for p in outbox.markers.iterdir()] == [".claims"]
