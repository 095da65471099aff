"""Reports of mail that could not be delivered: DSNs (RFC 3464) and the common notices in
prose, tied to the mail they return by its Message-ID; delays and auto-replies are no failure."""

from mailer.inbound.bounces import read_bounce

OURS = "<race-1.report-t1.4.ann@games.test>"

RETURNED = (f"From: Referee <race-1@games.test>\r\nTo: ann@players.test\r\nSubject: [race-1] Round 1\r\n"
            f"Message-ID: {OURS}\r\nAuto-Submitted: auto-generated\r\n")


def dsn(action="failed", returned_type="message/rfc822", diagnostic="smtp; 550 5.1.1 <ann@players.test>: "
        "Recipient address rejected: User unknown", return_path="<>") -> bytes:
    body = RETURNED + "\r\nYour turn.\r\n" if returned_type == "message/rfc822" else RETURNED
    return (f"Return-Path: {return_path}\r\nFrom: MAILER-DAEMON@mx.games.test (Mail Delivery System)\r\n"
            "To: race-1@games.test\r\nSubject: Undelivered Mail Returned to Sender\r\n"
            "Message-ID: <20261127.AB12@mx.games.test>\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"\r\n\r\n'
            "--b1\r\nContent-Type: text/plain\r\n\r\nThis is the mail system at host mx.games.test.\r\n\r\n"
            "--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.games.test\r\n"
            "Arrival-Date: Fri, 27 Nov 2026 22:18:16 +0000 (UTC)\r\n\r\n"
            f"Final-Recipient: rfc822; ann@players.test\r\nOriginal-Recipient: rfc822;ann@players.test\r\n"
            f"Action: {action}\r\nStatus: 5.1.1\r\nRemote-MTA: dns; players.test\r\n"
            f"Diagnostic-Code: {diagnostic}\r\n\r\n"
            f"--b1\r\nContent-Type: {returned_type}\r\n\r\n{body}\r\n--b1--\r\n").encode()


def test_a_dsn_names_the_returned_mail_the_address_and_why():
    bounce = read_bounce(dsn())
    assert bounce is not None and bounce.standard
    assert bounce.message_ids == (OURS,)
    assert bounce.recipients == ("ann@players.test",)
    assert bounce.why == "550 5.1.1 <ann@players.test>: Recipient address rejected: User unknown"


def test_a_dsn_with_the_headers_only_and_without_a_diagnostic():
    bounce = read_bounce(dsn(returned_type="text/rfc822-headers", diagnostic=""))
    assert bounce is not None and bounce.message_ids == (OURS,) and bounce.why == "status 5.1.1"


def test_a_delay_warning_is_no_failure():
    assert read_bounce(dsn(action="delayed")) is None
    assert read_bounce(dsn(action="delivered")) is None


EXIM = (b"Return-Path: <>\r\nFrom: Mail Delivery System <Mailer-Daemon@mail.players.test>\r\n"
        b"To: race-1@games.test\r\nSubject: Mail delivery failed: returning message to sender\r\n"
        b"Message-ID: <E1x@mail.players.test>\r\nAuto-Submitted: auto-replied\r\n\r\n"
        b"This message was created automatically by mail delivery software.\r\n\r\n"
        b"A message that you sent could not be delivered to one or more of its\r\n"
        b"recipients. This is a permanent error. The following address(es) failed:\r\n\r\n"
        b"  ann@players.test\r\n    host mx.players.test [192.0.2.1]\r\n"
        b"    SMTP error from remote mail server after RCPT TO:<ann@players.test>:\r\n"
        b"    550 5.1.1 User unknown\r\n\r\n"
        b"------ This is a copy of the message, including all the headers. ------\r\n\r\n"
        + RETURNED.encode() + b"\r\nYour turn.\r\n")

QMAIL = (b"Return-Path: <>\r\nFrom: MAILER-DAEMON@players.test\r\nTo: race-1@games.test\r\n"
         b"Subject: failure notice\r\n\r\nHi. This is the qmail-send program at players.test.\r\n"
         b"I'm afraid I wasn't able to deliver your message to the following addresses.\r\n"
         b"This is a permanent error; I've given up. Sorry it didn't work out.\r\n\r\n"
         b"<ann@players.test>:\r\nSorry, no mailbox here by that name. (#5.1.1)\r\n\r\n"
         b"--- Below this line is a copy of the message.\r\n\r\n" + RETURNED.encode() + b"\r\nYour turn.\r\n")

EXCHANGE = (b"From: postmaster@players.test\r\nTo: race-1@games.test\r\nSubject: Undeliverable: [race-1] Round 1\r\n"
            b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"x\"\r\n\r\n"
            b"--x\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nDelivery has failed to these recipients or "
            b"groups:\r\n\r\nann@players.test\r\nThe email address you entered couldn't be found.\r\n\r\n"
            b"Remote Server returned '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found'\r\n\r\n"
            b"--x\r\nContent-Type: message/rfc822\r\n\r\n" + RETURNED.encode() + b"\r\nYour turn.\r\n--x--\r\n")

GERMAN = (b"Return-Path: <>\r\nFrom: MAILER-DAEMON@mx.players.test\r\nTo: race-1@games.test\r\n"
          b"Subject: Unzustellbar: [race-1] Round 1\r\n\r\nIhre Nachricht konnte nicht zugestellt werden.\r\n\r\n"
          b"550 5.1.1 Postfach nicht vorhanden\r\n\r\n" + RETURNED.encode())


def test_the_common_notices_in_prose_are_read_too():
    for raw in (EXIM, QMAIL, EXCHANGE, GERMAN):
        bounce = read_bounce(raw)
        assert bounce is not None and not bounce.standard, raw[:80]
        assert bounce.message_ids == (OURS,)
        assert "ann@players.test" in bounce.recipients or raw is GERMAN
    assert read_bounce(EXIM).why == "550 5.1.1 User unknown"
    assert read_bounce(EXCHANGE).why.startswith("550 5.1.10 RESOLVER.ADR.RecipientNotFound")


def test_a_notice_that_quotes_no_message_id_or_reads_as_no_failure_is_none():
    assert read_bounce(EXIM.replace(f"Message-ID: {OURS}".encode(), b"X-Note: none")) is None
    vacation = (b"From: ann@players.test\r\nTo: race-1+ann+tok@games.test\r\nSubject: Out of office\r\n"
                b"Auto-Submitted: auto-replied\r\n\r\nI am away until Monday.\r\n\r\n" + RETURNED.encode())
    assert read_bounce(vacation) is None
    # the words of a failure, but written by a person, not a mail system
    person = (b"Return-Path: <bob@players.test>\r\nFrom: bob@players.test\r\nTo: race-1@games.test\r\n"
              b"Subject: my mail could not be delivered?\r\n\r\n" + RETURNED.encode())
    assert read_bounce(person) is None
    assert read_bounce(b"\xff\xfe garbage") is None
