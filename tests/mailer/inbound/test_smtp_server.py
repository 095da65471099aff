"""The inbound SMTP server on loopback, driven by real smtplib clients."""

import smtplib
from email.message import EmailMessage

import pytest

from aiosmtpd.smtp import SMTP

from mailer.inbound.smtp_server import IngestHandler, IngestSMTP, SenderRateLimit, make_controller
from mailer.inbound.spool import Spool
from referee.config import Limits, Settings

from ..net import free_port


def known(address: str) -> bool:
    local, _, domain = address.partition("@")
    return domain == "games.test" and local.split("+")[0] in {"g-1", "g-2"}


@pytest.fixture
def server(tmp_path):
    settings = Settings(hostname="games.test", limits=Limits(max_message_bytes=20_000, max_spool_messages=3,
                                                             mails_per_sender_per_hour=5))
    spool = Spool(tmp_path / "spool")
    handler = IngestHandler(spool, settings, known)
    controller = make_controller(handler, settings, port=free_port())
    controller.start()
    yield controller, spool
    controller.stop()


def mail(body="ADD 2\n", to="g-1@games.test"):
    msg = EmailMessage()
    msg["From"] = "alice@example.org"
    msg["To"] = to
    msg["Subject"] = "orders"
    msg.set_content(body)
    return msg


def client(controller):
    return smtplib.SMTP(controller.hostname, controller.port, timeout=10)


def test_known_recipient_is_spooled_with_envelope_trace(server):
    controller, spool = server
    with client(controller) as smtp:
        smtp.send_message(mail(to="g-1+alice+tok@games.test"), from_addr="alice@example.org",
                          to_addrs=["g-1+alice+tok@games.test"])
    (key,) = list(spool.keys())
    raw = spool.read(key)
    assert raw.startswith(b"Return-Path: <alice@example.org>\r\nDelivered-To: g-1+alice+tok@games.test\r\n")
    assert b"ADD 2" in raw


def test_unknown_recipient_is_refused_at_rcpt(server):
    controller, spool = server
    with client(controller) as smtp:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as err:
            smtp.send_message(mail(to="nobody@games.test"))
    assert err.value.recipients["nobody@games.test"][0] == 550
    assert spool.pending() == 0


def test_oversized_mail_is_refused(server):
    controller, spool = server
    with client(controller) as smtp:
        with pytest.raises((smtplib.SMTPSenderRefused, smtplib.SMTPDataError)) as err:
            smtp.send_message(mail(body="x" * 30_000))
    assert err.value.smtp_code == 552
    assert spool.pending() == 0


def test_full_spool_answers_4xx_so_the_sender_retries(server):
    controller, spool = server
    for i in range(3):
        spool.add(b"Subject: waiting\r\n\r\nx")
    with client(controller) as smtp:
        with pytest.raises(smtplib.SMTPDataError) as err:
            smtp.send_message(mail())
    assert err.value.smtp_code == 452
    assert spool.pending() == 3


def test_a_drained_spool_takes_mail_again(server):
    """The server keeps a running count of the spool, but looks again before refusing."""
    controller, spool = server
    for i in range(3):
        spool.add(b"Subject: waiting\r\n\r\nx")
    with client(controller) as smtp:
        with pytest.raises(smtplib.SMTPDataError):
            smtp.send_message(mail())
    for key in list(spool.keys()):
        spool.done(key, "S")
    with client(controller) as smtp:
        smtp.send_message(mail())
    assert spool.pending() == 1


def test_one_spool_copy_per_recipient(server):
    controller, spool = server
    with client(controller) as smtp:
        smtp.send_message(mail(), to_addrs=["g-1@games.test", "g-2@games.test"])
    delivered = sorted(spool.read(k).split(b"\r\n")[1] for k in spool.keys())
    assert delivered == [b"Delivered-To: g-1@games.test", b"Delivered-To: g-2@games.test"]


def test_sender_rate_limit(server):
    controller, spool = server
    with client(controller) as smtp:
        for _ in range(5):
            smtp.send_message(mail())
            for key in list(spool.keys()):
                spool.done(key)
        with pytest.raises(smtplib.SMTPRecipientsRefused) as err:  # told once the recipient is known
            smtp.send_message(mail())
    assert err.value.recipients["g-1@games.test"][0] == 450


def test_rate_limit_window_slides():
    now = [0.0]
    limit = SenderRateLimit(2, window=10, clock=lambda: now[0])
    assert limit.allow("a@x") and limit.allow("A@x") and not limit.allow("a@x")
    assert limit.allow("b@x")
    now[0] = 11
    assert limit.allow("a@x")


def test_spool_keeps_processed_mail(tmp_path):
    spool = Spool(tmp_path)
    key = spool.add(b"x")
    assert spool.pending() == 1
    spool.done(key, "S")
    assert spool.pending() == 0
    assert (tmp_path / "cur" / f"{key}:2,S").read_bytes() == b"x"


ENVELOPE_ADDRESSES = [
    "", "<>", "<alice@example.org>", "alice@example.org", "<alice@example.org> SIZE=100 BODY=8BITMIME",
    "alice@example.org SIZE=5", "<g-1+alice+tok@games.test>", '<"odd name"@example.org>', "<alice@[127.0.0.1]>",
    "<<alice@example.org>", "<alice@example.org", "alice", "<@relay.example:alice@example.org>", "   ",
    "<ålice@exämple.org>", "<alice@example.org>>", "<a b@example.org>", "@", "<@>", "\u00e9@x",
]


@pytest.mark.parametrize("arg", ENVELOPE_ADDRESSES)
@pytest.mark.parametrize("limit", [0, 3])
def test_session_reads_envelope_addresses_as_aiosmtpd_does(arg, limit):
    ours, theirs = IngestSMTP(IngestHandler.__new__(IngestHandler)), SMTP(IngestHandler.__new__(IngestHandler))
    ours.local_part_limit = theirs.local_part_limit = limit
    try:
        expected = theirs._getaddr(arg)
    except Exception as exc:  # whatever aiosmtpd raises, ours must raise too
        with pytest.raises(type(exc)):
            ours._getaddr(arg)
    else:
        assert ours._getaddr(arg) == expected
        assert ours._getaddr(arg) == expected  # and again, from the kept answers


def test_session_finds_the_same_commands_and_hooks_as_aiosmtpd(tmp_path):
    handler = IngestHandler(Spool(tmp_path / "spool"), Settings(hostname="games.test"), known)
    ours, theirs = IngestSMTP(handler), SMTP(handler)
    assert ours._smtp_methods.keys() == theirs._smtp_methods.keys()
    assert {k: v.is_builtin for k, v in ours._auth_methods.items()} == {
        k: v.is_builtin for k, v in theirs._auth_methods.items()}
    assert ours._handle_hooks.keys() == theirs._handle_hooks.keys() == {"MAIL", "RCPT", "DATA", "exception"}
    handler.journal.close()


def test_server_uses_the_lean_session_and_refuses_unreadable_addresses(server):
    controller, spool = server
    with client(controller) as smtp:
        assert isinstance(controller.smtpd, IngestSMTP)
        assert smtp.ehlo()[0] == 250
        assert smtp.docmd("MAIL FROM:<<bad@example.org>")[0] == 553
        assert smtp.docmd("MAIL FROM:<alice@example.org>")[0] == 250
        assert smtp.docmd("RCPT TO:<<g-1@games.test>")[0] == 553
        assert smtp.docmd("RCPT TO:<g-1@games.test>")[0] == 250
    assert spool.pending() == 0
