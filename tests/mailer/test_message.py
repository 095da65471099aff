"""Inbound mail parsing: samples shaped like real client replies, plus hostile input."""

from mailer.message import parse_message


def test_plain_reply_keeps_new_text_only():
    raw = (
        b"From: Alice <alice@example.org>\r\nSubject: Re: turn\r\nMessage-ID: <a@example.org>\r\n\r\n"
        b"A PAR-BUR\r\n\r\n> A MAR-PIE\r\n"
    )
    assert parse_message(raw).orders_text == "A PAR-BUR"
