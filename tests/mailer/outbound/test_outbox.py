"""The outbox: queued with the turn, delivered with retries, exactly once per Message-ID."""

import email
from datetime import datetime, timedelta, timezone
from email import policy

import pytest
from aiosmtpd.controller import Controller

from mailer.outbound.compose import OutgoingMail, build, message_id, thread_root
from mailer.outbound.outbox import MAX_ATTEMPTS, Outbox, backoff, queue
from mailer.outbound.relay import MaildirRelay, PermanentRelayError, SMTPRelay, TemporaryRelayError
from mailer.outbound.sending import deliver
from referee.store import TinyDBStore

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)
HOST = "games.test"

from ..net import free_port


def report(n: int, to: str = "alice@example.org", subject: str = "[g-1] Round 1") -> OutgoingMail:
    return OutgoingMail("g-1", "report", to, subject, f"Report {n}\n",
                        message_id("g-1", "report", n, "alice", HOST), html=f"<p>Report {n}</p>",
                        reply_to=f"g-1+alice+tok@{HOST}")


@pytest.fixture
def setup(tmp_path):
    store = TinyDBStore(tmp_path / "data")
    store.create("g-1", {"game": "race", "players": ["alice"], "status": "active"}, {})
    return store, Outbox(store, tmp_path / "data" / "outbox-pending")


def enqueue(store, outbox, mails, now=T0):
    with store.transaction("g-1") as tx:
        for mail in mails:
            queue(tx, mail, host=HOST, sender_name="Referee", now=now)
    outbox.mark("g-1")


def test_built_mail_is_threaded_and_marked_automatic():
    raw = build(report(1, subject="[g-1] Round 1\r\nBcc: evil@example.org"), host=HOST, sender_name="Referee", date=T0)
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert msg["Message-ID"] == "<g-1.report.1.alice@games.test>"
    assert msg["In-Reply-To"] == thread_root("g-1", HOST)
    assert msg["References"] == thread_root("g-1", HOST)
    assert msg["List-Id"] == "g-1 <g-1.games.test>"
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["Reply-To"] == "g-1+alice+tok@games.test"
    assert msg["Bcc"] is None and "\n" not in msg["Subject"]
    assert msg.get_body(("plain",)).get_content().splitlines() == ["Report 1"]
    assert msg.get_body(("html",)).get_content().strip() == "<p>Report 1</p>"


def test_a_receipt_refers_to_the_players_mail():
    mail = OutgoingMail("g-1", "receipt", "a@x", "Re: orders", "ok\n", "<r1@games.test>",
                        in_reply_to="<abc@mail.example.org>\r\nBcc: x@y", auto="auto-replied")
    msg = email.message_from_bytes(build(mail, host=HOST, sender_name="Referee", date=T0), policy=policy.default)
    assert msg["In-Reply-To"] == "<abc@mail.example.org>"
    assert msg["References"].split() == [thread_root("g-1", HOST), "<abc@mail.example.org>"]
    assert msg["Auto-Submitted"] == "auto-replied"


def test_queue_is_part_of_the_unit_of_work(setup):
    store, outbox = setup
    with pytest.raises(RuntimeError):
        with store.transaction("g-1") as tx:
            queue(tx, report(1), host=HOST, sender_name="Referee", now=T0)
            raise RuntimeError("turn failed")
    assert outbox.pending() == []
    enqueue(store, outbox, [report(1), report(1)])
    assert len(outbox.pending()) == 1


def test_maildir_relay_delivers_each_message_once(setup, tmp_path):
    store, outbox = setup
    relay = MaildirRelay(tmp_path / "relay")
    enqueue(store, outbox, [report(1), report(2)])
    result = deliver(outbox, relay, T0)
    assert sorted(result.sent) == sorted([report(1).message_id, report(2).message_id])
    assert len(list((tmp_path / "relay" / "new").iterdir())) == 2
    # a crash before "sent" was recorded would deliver again: still one file per Message-ID
    relay.deliver(b"again", "g-1@games.test", ["alice@example.org"], report(1).message_id)
    assert len(list((tmp_path / "relay" / "new").iterdir())) == 2
    assert deliver(outbox, relay, T0 + timedelta(minutes=5)).sent == []
    assert outbox.pending() == []


class Collect:
    def __init__(self):
        self.messages = []
        self.down = False

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.down:
            return "421 4.3.2 Service not available"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope.original_content)
        return "250 OK"


@pytest.fixture
def smtp_relay():
    handler = Collect()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(), server_hostname="relay.test")
    controller.start()
    yield handler, SMTPRelay("127.0.0.1", controller.port, timeout=5)
    controller.stop()


def test_relay_outage_then_recovery_delivers_everything_exactly_once(setup, smtp_relay):
    store, outbox = setup
    handler, relay = smtp_relay
    enqueue(store, outbox, [report(n) for n in range(1, 4)])
    handler.down = True
    first = deliver(outbox, relay, T0)
    assert len(first.deferred) == 3 and not first.sent
    assert deliver(outbox, relay, T0 + timedelta(seconds=1)).deferred == []  # backing off
    handler.down = False
    now = T0 + backoff(1) + timedelta(seconds=1)
    assert len(deliver(outbox, relay, now).sent) == 3
    assert deliver(outbox, relay, now + timedelta(hours=1)).sent == []
    ids = sorted(email.message_from_bytes(m, policy=policy.default)["Message-ID"] for m in handler.messages)
    assert ids == sorted(report(n).message_id for n in range(1, 4))


def test_unreachable_relay_is_temporary(setup):
    store, outbox = setup
    enqueue(store, outbox, [report(1)])
    relay = SMTPRelay("127.0.0.1", free_port(), timeout=2)
    result = deliver(outbox, relay, T0)
    assert result.deferred == [report(1).message_id]
    (row,) = outbox.pending()
    assert row["attempts"] == 1 and "unreachable" in row["last_error"]


def test_permanent_failure_and_giving_up(setup):
    store, outbox = setup
    enqueue(store, outbox, [report(1), report(2)])

    class Refusing:
        def deliver(self, raw, mail_from, recipients, mid):
            if mid == report(1).message_id:
                raise PermanentRelayError("550 no such user")
            raise TemporaryRelayError("451 later")

    now = T0
    for _ in range(MAX_ATTEMPTS):
        deliver(outbox, Refusing(), now)
        now += timedelta(days=1)
    statuses = {r["message_id"]: (r["status"], r["attempts"]) for r in outbox.pending()}
    assert statuses[report(1).message_id] == ("failed", 1)
    assert statuses[report(2).message_id] == ("failed", MAX_ATTEMPTS)
    assert outbox.retry_now(now) == 2
    assert {r["status"] for r in outbox.pending()} == {"pending"}


def test_backoff_grows_and_is_capped():
    assert backoff(1) < backoff(2) < backoff(3)
    assert backoff(50) == backoff(60)


def test_a_crash_in_a_batch_sends_again_only_the_mail_in_flight(setup):
    """The relay took the first mail, then the process died while handing over the second:
    the next pass sends the second and third, never the first again, and marks all three."""
    store, outbox = setup
    enqueue(store, outbox, [report(1), report(2), report(3)])
    taken = []

    class DiesOnSecond:
        def deliver(self, raw, mail_from, recipients, mid):
            if len(taken) == 1:
                raise SystemExit("killed")  # not a relay error: the process dies here
            taken.append(mid)

    with pytest.raises(SystemExit):
        deliver(outbox, DiesOnSecond(), T0)
    again = []

    class Recording:
        def deliver(self, raw, mail_from, recipients, mid):
            again.append(mid)

    report_ = deliver(outbox, Recording(), T0)
    rest = [report(n).message_id for n in (1, 2, 3) if report(n).message_id != taken[0]]
    assert sorted(again) == sorted(rest) == sorted(report_.sent)
    assert {r["status"] for r in outbox.pending(include_sent=True)} == {"sent"}
    assert list(outbox.claims.root.iterdir()) == []  # all of it is in the game file now
    assert deliver(outbox, Recording(), T0).sent == []


def test_a_sent_record_keeps_its_headers_but_not_the_mail(setup, tmp_path):
    store, outbox = setup
    enqueue(store, outbox, [report(1)])
    deliver(outbox, MaildirRelay(tmp_path / "relay"), T0)
    (row,) = outbox.pending(include_sent=True)
    assert row["status"] == "sent" and row["raw"] is None
    assert row["subject"] == "[g-1] Round 1" and row["to"] == "alice@example.org"
    assert row["sent_at"] == T0.isoformat()
    assert not (outbox.markers / "g-1").exists()


def test_system_mail_from_several_threads_at_once_on_a_fresh_data_directory(tmp_path):
    """The mail worker answers several games' mail at once; the first answers that need the
    system outbox all find it missing, and each must still be queued."""
    import threading

    from mailer.daemon.wiring import build as build_services
    from referee.config import Settings

    svc = build_services(Settings(hostname=HOST, data_dir=tmp_path / "data"))
    start = threading.Barrier(8)
    errors: list[BaseException] = []

    def answer(n: int) -> None:
        start.wait()
        try:
            svc.notifier.system_mail(f"p{n}@example.org", "Orders not accepted", "text\n",
                                     in_reply_to=f"<m{n}@example.org>", serial=f"s{n}")
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=answer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(r["to"] for r in svc.system_outbox.pending()) == sorted(f"p{n}@example.org" for n in range(8))
