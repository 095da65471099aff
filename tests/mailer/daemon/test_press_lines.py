"""Reading table talk out of a mail (mailer/daemon/press_lines.py): where it starts and ends,
to whom, what is left for the orders, and what never goes on (quotes, headers, secrets)."""

from email.message import EmailMessage

import pytest

from mailer.daemon.press_lines import find_press, press_line
from mailer.inbound.message import parse_message

HOST = "games.test"


def mail(body, subject="orders", attachment=None):
    m = EmailMessage()
    m["From"] = "ann@players.test"
    m["To"] = f"race-1+ann+tok@{HOST}"
    m["Subject"] = subject
    m["Message-ID"] = "<m1@players.test>"
    m.set_content(body)
    if attachment:
        m.add_attachment(b"%PDF", maintype="application", subtype="pdf", filename=attachment)
    return parse_message(bytes(m))


@pytest.mark.parametrize("line, audience, inline", [
    ("PRESS ALL", None, ""), ("press all", None, ""), ("PRESS: ALL", None, ""), ("PRESS TO ALL", None, ""),
    ("PRESS ann,bob", ("ann", "bob"), ""), ("PRESS ann, bob", ("ann", "bob"), ""),
    ("PRESS ann bob", ("ann", "bob"), ""),
    ("PRESS ALL: hello there", None, "hello there"), ("PRESS bob: deal?", ("bob",), "deal?"),
    ("NACHRICHT AN ALLE", None, ""), ("Nachricht an ann,bob", ("ann", "bob"), ""), ("NACHRICHT ALLE", None, ""),
    ("MESSAGGIO A TUTTI", None, ""), ("messaggio a cid", ("cid",), ""), ("MESSAGGIO TUTTI", None, ""),
    ("PRESS", (), ""),
])
def test_a_press_line_in_each_language(line, audience, inline):
    assert press_line(line) == (audience, inline)


@pytest.mark.parametrize("line", ["ADD 2", "Hi all", "Pressure is on", "bid 3 press", "", "ORDERS race-1 t0"])
def test_other_lines_are_no_press_line(line):
    assert press_line(line) is None


def test_talk_alone_runs_to_the_end_of_the_own_text_and_leaves_the_quote_behind():
    read = find_press(mail("PRESS ALL\nHello all,\n\nlet us be friends.\n\nOn Sat, ann wrote:\n> YOUR MOVE\n"
                           "> ORDERS race-1 t0\n> END\n"), host=HOST)
    assert [(s.audience, s.text, s.first, s.last) for s in read.sections] == [
        (None, "Hello all,\n\nlet us be friends.", 1, 4)]
    assert read.orders is None and read.order_lines is None


def test_talk_then_orders_in_one_mail_with_the_lines_of_each():
    read = find_press(mail("PRESS bob: a deal?\nYou take 2, I take 3.\nEND PRESS\n\nADD 2\nThanks, Ann\n"), host=HOST)
    assert [(s.audience, s.text, s.first, s.last) for s in read.sections] == [
        (("bob",), "a deal?\nYou take 2, I take 3.", 1, 3)]
    assert read.order_lines == (5, 6)
    # the orders keep the mail's line numbers, so that a receipt's "line 5" is the mail's
    assert read.orders.orders_text.split("\n") == ["", "", "", "", "ADD 2", "Thanks, Ann"]


def test_several_pieces_and_an_orders_block():
    read = find_press(mail("PRESS ALL\nto all\nPRESS bob\nto bob\nEND PRESS\nORDERS race-1 t0\nADD 1\nEND\n"),
                      host=HOST)
    assert [(s.audience, s.text) for s in read.sections] == [(None, "to all"), (("bob",), "to bob")]
    assert read.orders.orders_from_block and read.orders.orders_text == "ADD 1"
    assert read.order_lines is None and read.orders.orders_outside == ()


def test_only_a_greeting_after_the_talk_is_no_orders():
    read = find_press(mail("PRESS ALL\nhello\nEND PRESS\nCheers, Ann\n"), host=HOST)
    assert read.orders is None


def test_press_must_begin_the_mail():
    assert find_press(mail("ADD 2\nPRESS ALL\nhello\n"), host=HOST) is None
    assert find_press(mail("ADD 2\n"), host=HOST) is None


def test_the_subject_may_say_to_whom():
    read = find_press(mail("Shall we?\n", subject="Re: [race-1] PRESS bob"), host=HOST)
    assert [(s.audience, s.text, s.first) for s in read.sections] == [(("bob",), "Shall we?", 0)]


def test_a_mail_to_a_reply_address_is_talk_however_it_begins():
    read = find_press(mail("STATUS\nyes, agreed\n"), host=HOST, by_address=True)
    assert [(s.audience, s.text, s.by_address) for s in read.sections] == [(None, "STATUS\nyes, agreed", True)]
    empty = find_press(mail("\n"), host=HOST, by_address=True)
    assert [(s.text, s.by_address) for s in empty.sections] == [("", True)]
    # a PRESS line of its own says to whom instead
    read = find_press(mail("PRESS ALL\nto all of you\n"), host=HOST, by_address=True)
    assert [(s.audience, s.by_address) for s in read.sections] == [(None, False)]


def test_header_lines_on_top_and_reply_addresses_never_go_on():
    read = find_press(mail(f"PRESS ALL\nFrom: Referee <race-1@{HOST}>\nBcc: someone@else.test\n\nThe real text,\n"
                           f"write to race-1+ann+abcdefgh23456789@{HOST} or <race-1+ann+9bcdefgh23456789@{HOST}>.\n"),
                      host=HOST)
    (section,) = read.sections
    assert section.text == "The real text,\nwrite to [...] or [...]."
    assert (section.headers_left_out, section.addresses_left_out) == (2, 2)


def test_a_player_line_never_goes_on():
    read = find_press(mail("PRESS ALL\nhello\nPLAYER ann abcdefgh23456789\n"), host=HOST)
    assert read.sections[0].text == "hello"


def test_attachments_are_named():
    read = find_press(mail("PRESS ALL\nsee the plan\n", attachment="plan.pdf"), host=HOST)
    assert read.attachments == ("plan.pdf",)
