"""What a mail server in front adds: auto-responders that do not say so in their headers get no
answer (no loops), a player's mail to the game's plain address is answered with where to write
instead, and one mail that reached a game at two of its addresses gets one answer."""

from datetime import timedelta

from mailer.outbound.outbox import TABLE

from .test_bounces_noticed import new_game, post  # noqa: F401  (the fixture)

WAIT = timedelta(seconds=61)  # past the wait of the answer to a mail to the plain address


def raw_mail(to_header, delivered_to, body="ADD 1\r\n", subject="orders", frm="ann@players.test",
             mid="<m1@players.test>", extra=""):
    return (f"Return-Path: <{frm}>\r\nDelivered-To: {delivered_to}\r\nFrom: {frm}\r\nTo: {to_header}\r\n"
            f"Subject: {subject}\r\nMessage-ID: {mid}\r\n{extra}\r\n{body}").encode()


def sent_since(post, count):
    return post.inbox.mails[count:]


def answers(post, since):
    """The answers to ann's mail sent since: receipts and the answer to the plain address."""
    return [("Orders received" if "Orders received" in m["Subject"] else "Not read")
            for m in sent_since(post, since) if m["To"] == "ann@players.test"
            and any(words in m["Subject"] for words in ("Orders received", "Not read"))]


def test_an_auto_responder_that_ignores_auto_submitted_gets_no_answer(post):
    tokens = new_game(post)
    post.pump()
    report = post.inbox.to("ann@players.test")[-1]
    token_address = f"race-1+ann+{tokens['ann']}@games.test"
    before = len(post.inbox.mails)
    for n, (subject, to) in enumerate([(f"Automatic reply: {report['Subject']}", token_address),
                                       (f"Automatische Antwort: {report['Subject']}", "race-1@games.test"),
                                       (f"Risposta automatica: {report['Subject']}", "referee@games.test"),
                                       ("Out of Office", "referee@games.test")]):
        post.svc.spool.add(raw_mail(to, to, body="I am out of the office until Monday.\r\n", subject=subject,
                                    mid=f"<ooo-{n}@players.test>", extra=f"In-Reply-To: {report['Message-ID']}\r\n"))
    handled, _ = post.pump()
    assert [h.outcome for h in handled] == ["ignored"] * 4, handled
    assert all("automatic reply" in h.detail for h in handled)
    post.clock.now += WAIT
    post.pump()
    assert sent_since(post, before) == []
    # the same text written by a person, not answering the referee's mail, is read as usual
    post.svc.spool.add(raw_mail("referee@games.test", "referee@games.test", body="LIST\r\n",
                                subject="Out of office next week", mid="<person@players.test>"))
    handled, _ = post.pump()
    assert [h.outcome for h in handled] == ["command"]


def test_a_players_mail_to_the_plain_game_address_is_answered_with_the_reply_address(post):
    tokens = new_game(post)
    post.pump()
    before = len(post.inbox.mails)
    game_file = post.svc.store.path("race-1").read_bytes()
    post.svc.spool.add(raw_mail("race-1@games.test", "race-1@games.test"))
    handled, _ = post.pump()
    assert [(h.outcome, h.player) for h in handled] == [("refused", "ann")]
    assert post.svc.store.path("race-1").read_bytes() == game_file  # a mail not played changes no game
    assert sent_since(post, before) == []  # it waits for a copy with the token, which would withdraw it
    post.clock.now += WAIT
    post.pump()
    answer = sent_since(post, before)
    assert [m["To"] for m in answer] == ["ann@players.test"]
    text = " ".join(answer[0].get_content().split())
    assert f"race-1+ann+{tokens['ann']}@games.test" in text and "nothing in it was played" in text
    assert answer[0]["In-Reply-To"] == "<m1@players.test>"
    assert answer[0]["Reply-To"] == f"race-1+ann+{tokens['ann']}@games.test"
    assert answer[0]["Auto-Submitted"] == "auto-replied"
    # someone else's address gets no answer at all, as before
    post.svc.spool.add(raw_mail("race-1@games.test", "race-1@games.test", frm="forger@elsewhere.test",
                                mid="<m2@elsewhere.test>"))
    post.clock.now += WAIT
    handled, _ = post.pump()
    assert handled[0].outcome == "unmatched"
    post.clock.now += WAIT
    post.pump()
    assert len(sent_since(post, before)) == 1


def test_one_mail_at_two_addresses_of_a_game_gets_one_answer_in_either_order(post):
    tokens = new_game(post)
    post.pump()
    token_address = f"race-1+ann+{tokens['ann']}@games.test"
    plain = raw_mail("race-1@games.test", "race-1@games.test", mid="<both@players.test>")
    tokened = raw_mail("race-1@games.test", token_address, mid="<both@players.test>")

    before = len(post.inbox.mails)
    post.svc.spool.add(plain)  # both copies in one pass (the SMTP server writes them together)
    post.svc.spool.add(tokened)
    handled, _ = post.pump()
    assert sorted(h.outcome for h in handled) == ["accepted", "duplicate"]
    post.clock.now += WAIT
    post.pump()
    assert answers(post, before) == ["Orders received"]  # the receipt alone

    # the plain copy first, the other in a later pass: the answer waiting for it is withdrawn
    post.svc.referee.submit("race-1", "bob", "ADD 1", token=tokens["bob"])
    before = len(post.inbox.mails)
    post.svc.spool.add(raw_mail("race-1@games.test", "race-1@games.test", mid="<later@players.test>",
                                body="ADD 2\r\n"))
    post.pump()
    post.svc.spool.add(raw_mail("race-1@games.test", token_address, mid="<later@players.test>", body="ADD 2\r\n"))
    post.pump()
    post.clock.now += WAIT
    post.pump()
    assert answers(post, before) == ["Orders received"]
    with post.svc.system_outbox.store.transaction("postmaster") as tx:
        assert [r["status"] for r in tx.records(TABLE) if ".plain.race-1." in r["message_id"]] == ["dropped"]

    # the token copy first, the plain one later: it is a copy of a mail taken, not answered
    post.svc.referee.submit("race-1", "bob", "ADD 1", token=tokens["bob"])
    post.svc.spool.add(raw_mail("race-1@games.test", token_address, mid="<third@players.test>", body="ADD 3\r\n"))
    assert post.pump()[0][0].outcome == "accepted"
    before = len(post.inbox.mails)
    post.svc.spool.add(raw_mail("race-1@games.test", "race-1@games.test", mid="<third@players.test>",
                                body="ADD 3\r\n"))
    handled, _ = post.pump()
    assert handled[0].outcome == "duplicate"
    post.clock.now += WAIT
    post.pump()
    assert answers(post, before) == []


def test_a_command_with_the_token_withdraws_the_answer_its_plain_copy_waits_for(post):
    tokens = new_game(post)
    post.pump()
    token_address = f"race-1+ann+{tokens['ann']}@games.test"
    post.svc.spool.add(raw_mail("race-1@games.test", "race-1@games.test", body="STATUS\r\n", mid="<cmd@players.test>"))
    post.pump()
    before = len(post.inbox.mails)
    post.svc.spool.add(raw_mail("race-1@games.test", token_address, body="STATUS\r\n", mid="<cmd@players.test>"))
    assert [h.outcome for h in post.pump()[0]] == ["command"]
    post.clock.now += WAIT
    post.pump()
    assert [m["In-Reply-To"] for m in sent_since(post, before)] == ["<cmd@players.test>"]
    assert "Not read" not in sent_since(post, before)[0]["Subject"]


def test_a_plain_copy_read_after_its_command_with_the_token_gets_no_answer(post):
    tokens = new_game(post)
    post.pump()
    token_address = f"race-1+ann+{tokens['ann']}@games.test"
    post.svc.spool.add(raw_mail("race-1@games.test", token_address, body="STATUS\r\n", mid="<cmd2@players.test>"))
    assert [h.outcome for h in post.pump()[0]] == ["command"]
    before = len(post.inbox.mails)
    post.svc.spool.add(raw_mail("race-1@games.test", "race-1@games.test", body="STATUS\r\n", mid="<cmd2@players.test>"))
    assert [h.outcome for h in post.pump()[0]] == ["duplicate"]
    post.clock.now += WAIT
    post.pump()
    assert sent_since(post, before) == []


def test_the_answer_to_the_plain_address_is_in_the_players_language(post):
    new_game(post)
    post.svc.referee.set_language("race-1", "ann", "de")
    post.pump()
    before = len(post.inbox.mails)
    post.svc.spool.add(raw_mail("race-1@games.test", "race-1@games.test", mid="<de@players.test>"))
    post.pump()
    post.clock.now += WAIT
    post.pump()
    (answer,) = sent_since(post, before)
    assert answer["Subject"] == "[race-1] Nicht gelesen: Bitte schreib an deine eigene Antwortadresse"
    assert "wurde nicht gelesen" in " ".join(answer.get_content().split())
