"""Table talk in the service (referee/service/table_talk.py) with the real notifier and
templates: who gets what, the options, the limits, the game's end, dropped seats, repeats,
NOTIFY press digest, orders in the same mail, the game record and the moderator's commands."""

from __future__ import annotations

import email
from datetime import datetime, timedelta, timezone
from email import policy

import pytest

from mailer.outbound.notifier import MailNotifier
from mailer.outbound.outbox import Outbox
from referee.config import Settings
from referee.errors import BadRequest, ServiceError
from referee.gamelog import replay_log
from referee.press import PressLimits, code_audience, reply_code
from referee.service import PressRequest, Referee, Submission, Talk
from referee.store import TinyDBStore

from ..race import GAME as RACE
from .simul import GAME as SIMUL

HOST = "games.test"
GAMES = {"race": RACE, "simul": SIMUL}


class Clock:
    def __init__(self):
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)

    def __call__(self):
        return self.now


class World:
    def __init__(self, tmp_path, **limits):
        self.clock = Clock()
        self.store = TinyDBStore(tmp_path / "data")
        self.system = TinyDBStore(tmp_path / "system")
        self.notifier = MailNotifier(Settings(hostname=HOST, data_dir=tmp_path), self.clock,
                                     Outbox(self.store, tmp_path / "data" / "ob"),
                                     Outbox(self.system, tmp_path / "system" / "ob"))
        self.ref = Referee(self.store, clock=self.clock, games=GAMES.__getitem__, notifier=self.notifier)
        self.ref.press_limits = PressLimits(**limits)

    def game(self, name="race", players=("ann", "bob", "cid"), gid="g1", **options):
        made = self.ref.new_game(name, [(p, f"{p}@players.test") for p in players], seed="s", game_id=gid,
                                 options=options)
        self.tokens = {s["name"]: s["token"] for s in made.players}
        return made

    def mails(self, gid="g1", kind=None):
        with self.store.transaction(gid) as tx:
            records = tx.records("outbox")
        return [r for r in records if kind is None or r["kind"] == kind]

    def press(self, player, *talks, gid="g1", token=None, orders=None, message_id=None, attachments=()):
        talks = tuple(t if isinstance(t, Talk) else Talk(t[0], t[1], (1, 2)) for t in talks)
        return self.ref.press(gid, PressRequest(player, talks, token=token or self.tokens[player], source="mail",
                                                message_id=message_id, in_reply_to=message_id,
                                                attachments=attachments, orders=orders))


def parsed(record):
    return email.message_from_bytes(record["raw"].encode("utf-8", "surrogateescape"), policy=policy.default)


def body(record):
    """The plain text of a queued mail, line ends as Python writes them."""
    return parsed(record).get_body(("plain",)).get_content().replace("\r\n", "\n")


@pytest.fixture
def w(tmp_path):
    return World(tmp_path)


def test_talk_to_everyone_reaches_every_other_player_under_the_senders_name(w):
    w.game()
    done = w.press("ann", (None, "Hello all!\nLet us keep the total low."), message_id="<t1@players.test>")
    assert [(t["sent"], t["to"]) for t in done.talks] == [(True, ["bob", "cid"])]
    mails = w.mails(kind="press")
    assert sorted(m["to"] for m in mails) == ["bob@players.test", "cid@players.test"]
    for record in mails:
        mail = parsed(record)
        assert mail["From"] == "ann via Referee <g1@games.test>"
        assert "ann@players.test" not in record["raw"] and w.tokens["ann"] not in record["raw"]
        reader = record["to"].split("@")[0]
        assert mail["Reply-To"] == f"g1+{reader}+{reply_code(w.tokens[reader], ['ann'])}@{HOST}"
        text = body(record)
        assert "Hello all!\nLet us keep the total low." in text and "to everyone" in text
        assert f"g1+{reader}+{reply_code(w.tokens[reader], None)}@{HOST}" in text.replace("\n", " ")
    (receipt,) = w.mails(kind="press-receipt")
    assert receipt["to"] == "ann@players.test" and "sent to bob, cid" in body(receipt)
    stored = w.ref.press_records("g1")
    assert [(r["from"], r["to"], r["all"]) for r in stored] == [("ann", ["bob", "cid"], True)]


def test_private_talk_goes_to_the_named_players_only(w):
    w.game()
    w.press("ann", (("bob",), "Just between us."))
    assert [m["to"] for m in w.mails(kind="press")] == ["bob@players.test"]
    assert w.ref.press_records("g1", "cid") == []
    assert [r["text"] for r in w.ref.press_records("g1", "bob")] == ["Just between us."]
    # the receipt names the reader once: the audience is exactly who got it
    (receipt,) = w.mails(kind="press-receipt")
    assert "table talk sent to bob." in body(receipt) and "to bob, sent to" not in body(receipt)
    # a name by its unique beginning, any case
    w.press("ann", (("CI",), "and you"))
    assert w.ref.press_records("g1", "cid")[0]["to"] == ["cid"]


def test_history_by_mail_shows_a_player_what_they_sent_and_got_and_nothing_else(w):
    w.game()
    w.press("ann", (None, "Hello all!"))
    w.press("ann", (("bob",), "Just between us,\nbob."))
    w.clock.now += timedelta(minutes=5)
    w.press("cid", (("bob",), "cid's secret for bob"))
    w.ref.notice("g1", "Deadline moves to Friday.")
    answers = {}
    for player in ("ann", "bob", "cid"):
        w.ref.request("g1", player, "history", token=w.tokens[player], in_reply_to=f"<h-{player}@players.test>",
                      serial=f"h-{player}")
        (mail,) = [m for m in w.mails(kind="history") if m["to"] == f"{player}@players.test"]
        assert parsed(mail)["Subject"] == "[g1] History: everything since your last report"
        assert parsed(mail)["In-Reply-To"] == f"<h-{player}@players.test>"
        answers[player] = body(mail)
    ann, bob, cid = answers["ann"], answers["bob"], answers["cid"]
    assert "Sun 1 Mar 2026 12:00 UTC, you to everyone:\n    Hello all!" in ann
    assert "you to bob:\n    Just between us,\n    bob." in ann
    assert "cid's secret" not in ann and "Deadline moves to Friday." in ann
    assert "ann to everyone:\n    Hello all!" in bob and "ann to bob:" in bob
    assert "12:05 UTC, cid to bob:\n    cid's secret for bob" in bob and "a notice from the moderator" in bob
    assert "Just between us" not in cid and "you to bob:\n    cid's secret for bob" in cid
    assert ann.index("Hello all!") < ann.index("Just between us") < ann.index("Deadline")  # oldest first
    with pytest.raises(ServiceError):
        w.ref.request("g1", "ann", "history", token="wrongtoken", in_reply_to=None, serial="h-bad")


def test_history_with_no_table_talk_yet_says_how_to_begin(w):
    w.game()
    w.ref.request("g1", "ann", "history", token=w.tokens["ann"], in_reply_to=None, serial="h1")
    (mail,) = w.mails(kind="history")
    assert "None yet. A mail to the game that begins with PRESS ALL" in body(mail)


def test_reply_codes_answer_the_sender_or_everyone_the_piece_went_to():
    players = ["ann", "bob", "cid", "dee"]
    assert code_audience(reply_code("tok", ["ann"]), "tok", "bob", players) == ("ann",)
    assert code_audience(reply_code("tok", ["cid", "ann"]), "tok", "bob", players) == ("ann", "cid")
    assert code_audience(reply_code("tok", None), "tok", "bob", players) == ()
    assert code_audience(reply_code("other", ["ann"]), "tok", "bob", players) is None
    assert code_audience("tok", "tok", "bob", players) is None


def test_a_reply_by_code_goes_to_the_players_it_stands_for(w):
    w.game()
    code = reply_code(w.tokens["bob"], ["ann"])
    done = w.press("bob", Talk(None, "Sure.", (1, 1), by_address=True), token=code)
    assert done.talks[0]["to"] == ["ann"]
    everyone = reply_code(w.tokens["bob"], None)
    assert w.press("bob", Talk(None, "Hi all", (1, 1), by_address=True), token=everyone).talks[0]["to"] == \
        ["ann", "cid"]
    with pytest.raises(ServiceError):
        w.press("bob", Talk(None, "x", (1, 1), by_address=True), token=reply_code("guess", ["ann"]))
    with pytest.raises(ServiceError):
        w.press("bob", (None, "x"), token="wrongtoken")


def test_no_talk_when_the_moderator_says_none_and_only_to_everyone_when_public(w):
    w.game(press="none")
    done = w.press("ann", (None, "hello"))
    assert not done.talks[0]["sent"] and "off in this game" in done.talks[0]["reason"]["msg"]
    assert w.mails(kind="press") == [] and w.ref.press_records("g1") == []
    assert w.mails(kind="press-receipt") == []  # nothing went anywhere: the mail side answers from the system outbox
    w.ref.press_options("g1", ["press=public"])
    assert not w.press("ann", (("bob",), "psst")).talks[0]["sent"]
    assert w.press("ann", (("bob", "cid"), "to both, which is everyone")).talks[0]["sent"]
    assert w.press("ann", (None, "to all")).talks[0]["sent"]


def test_options_checked_when_a_game_is_made_and_changed(w):
    with pytest.raises(BadRequest) as bad:
        w.game(press="loud", press_in_archive="some")
    assert any("press must be one of none, public, private" in p for p in bad.value.problems)
    assert any("press_in_archive must be one of none, public, all" in p for p in bad.value.problems)
    w.game(press="public", press_in_archive="all", press_after_end="yes")
    meta = w.store.load("g1").meta
    assert meta["press"] == {"press": "public", "press_in_archive": "all", "press_after_end": True}
    assert "press" not in meta["options"]
    with pytest.raises(BadRequest):
        w.ref.press_options("g1", ["press_after_end=maybe"])
    before = len(w.store.load("g1").events)
    w.ref.press_options("g1", ["press=public"])  # unchanged: no event, nobody told
    assert len(w.store.load("g1").events) == before
    w.ref.press_options("g1", ["press=none"])
    assert w.store.load("g1").events[-1]["type"] == "press_options"
    told = [p for bag in w.store.load("g1").meta["mailbag"].values() for p in bag["parts"] if p["kind"] == "notice"]
    assert len(told) == 3 and all("off in this game" in p["text"] for p in told)


def test_the_first_report_says_what_table_talk_the_game_allows(w):
    w.game(press="public")
    first = [body(m) for m in w.mails(kind="report")]
    assert first and all("PRESS ALL" in text and "Private messages are off" in text for text in first)


def test_limits_per_hour_per_mail_and_size(tmp_path):
    w = World(tmp_path, per_player_per_hour=2, max_bytes=50, per_mail=2)
    w.game()
    assert [t["sent"] for t in w.press("ann", (None, "one"), (None, "two"), (None, "three")).talks] == \
        [True, True, False]
    done = w.press("ann", (None, "four"))
    assert not done.talks[0]["sent"] and "an hour" in done.talks[0]["reason"]["msg"]
    w.clock.now += timedelta(minutes=61)
    assert w.press("ann", (None, "five")).talks[0]["sent"]
    big = w.press("ann", (None, "x" * 51)).talks[0]
    assert not big["sent"] and big["reason"]["args"] == {"size": 51, "most": 50}
    w.clock.now += timedelta(minutes=61)
    first, second, third = w.press("bob", (None, "a"), (None, "b"), (None, "c")).talks
    assert first["sent"] and second["sent"] and "PRESS lines" in third["reason"]["msg"]
    assert third["reason"]["args"] == {"count": 2}


def test_no_talk_after_the_end_unless_the_option_allows(w):
    w.game(target=3)
    w.ref.submit("g1", "ann", "ADD 3")
    assert w.store.load("g1").meta["status"] == "finished"
    assert not w.press("bob", (None, "gg")).talks[0]["sent"]
    w.ref.press_options("g1", ["press_after_end=true"])
    assert w.press("bob", (None, "gg")).talks[0]["sent"]


def test_no_talk_to_or_from_a_dropped_seat(w):
    w.game("simul")
    w.ref.drop("g1", "cid")
    assert "left the game" in w.press("ann", (("cid",), "x")).talks[0]["reason"]["msg"]
    assert "left the game" in w.press("cid", (None, "x")).talks[0]["reason"]["msg"]
    assert w.press("ann", (None, "to all")).talks[0]["to"] == ["bob"]
    assert w.ref.notice("g1", "The moderator speaks.")["to"] == ["ann", "bob"]


def test_bad_audiences_are_refused_with_the_reason(w):
    w.game()
    unknown = w.press("ann", (("dave", "bob"), "x")).talks[0]
    assert not unknown["sent"] and unknown["reason"]["args"]["names"] == "dave"
    assert "yourself" in w.press("ann", (("ann",), "x")).talks[0]["reason"]["msg"]
    assert "followed by ALL" in w.press("ann", ((), "x")).talks[0]["reason"]["msg"]
    assert "no text" in w.press("ann", (None, "  ")).talks[0]["reason"]["msg"]
    assert w.ref.press_records("g1") == []


def test_a_mail_read_twice_passes_its_talk_on_once(w):
    w.game()
    w.press("ann", (None, "once"), message_id="<same@players.test>")
    again = w.press("ann", (None, "once"), message_id="<same@players.test>")
    assert again.duplicate and again.talks == []
    assert len(w.ref.press_records("g1")) == 1 and len(w.mails(kind="press")) == 2


def test_digest_folds_talk_into_the_next_mail_and_never_hastens_it(w):
    w.game()
    w.ref.set_notify("g1", "cid", "press digest")
    bag = lambda: w.store.load("g1").meta["mailbag"]["cid"]  # noqa: E731
    count = bag()["count"]
    before = len([m for m in w.mails() if m["to"] == "cid@players.test"])
    w.press("ann", (None, "for the digest"))
    assert [m["to"] for m in w.mails(kind="press")] == ["bob@players.test"]
    assert [p["kind"] for p in bag()["parts"]] == ["press"] and bag()["count"] == count
    assert len([m for m in w.mails() if m["to"] == "cid@players.test"]) == before  # no mail of its own
    w.ref.submit("g1", "ann", "ADD 1")  # a new round: cid's next mail carries the talk
    mail = [m for m in w.mails() if m["to"] == "cid@players.test"][before]
    text = body(mail)
    assert "Table talk from ann to everyone" in text and "for the digest" in text
    assert bag()["parts"] == []


def test_digest_under_notify_each_rides_the_next_report(w):
    w.game()
    w.ref.set_notify("g1", "cid", "each")
    w.ref.set_notify("g1", "cid", "press digest")
    reports = len([m for m in w.mails() if m["to"] == "cid@players.test"])
    w.press("ann", (None, "rides along"))
    assert len([m for m in w.mails() if m["to"] == "cid@players.test"]) == reports
    w.ref.submit("g1", "ann", "ADD 1")  # a report to everyone under `each`
    report = [m for m in w.mails() if m["to"] == "cid@players.test"][reports]
    assert report["kind"] == "report" and "rides along" in body(report)
    assert w.store.load("g1").meta["mailbag"]["cid"]["parts"] == []


def test_orders_and_talk_in_one_mail_get_one_receipt_saying_which_lines_were_which(w):
    w.game()
    w.ref.set_notify("g1", "ann", "each")
    orders = Submission("ann", "\n\n\nADD 2", message_id="<both@players.test>", source="mail")
    done = w.ref.press("g1", PressRequest("ann", (Talk(None, "hello", (1, 3)),), token=w.tokens["ann"],
                                          message_id="<both@players.test>", in_reply_to="<both@players.test>",
                                          source="mail", orders=orders, order_lines=(4, 4)))
    assert done.receipt.status == "accepted" and done.talks[0]["sent"]
    (receipt,) = w.mails(kind="receipt")
    text = body(receipt)
    assert "Lines 1-3: table talk to everyone, sent to bob, cid." in text
    assert "Line 4 was read as orders." in text and "ADD 2" in text
    assert w.mails(kind="press-receipt") == []  # one answer for the one mail


def test_files_are_named_to_the_readers_and_the_sender(w):
    w.game()
    done = w.press("ann", (None, "see attached"), attachments=("plan.pdf",))
    assert any("plan.pdf" in str(note) for note in done.notes)
    for mail in w.mails(kind="press"):
        assert "carried 1 file (plan.pdf); files are not passed on" in body(mail).replace("\n", " ")


def test_the_moderators_notice_goes_to_everyone_at_once(w):
    w.game()
    w.ref.set_notify("g1", "bob", "press digest")
    done = w.ref.notice("g1", "The server moves on Sunday.")
    assert done["to"] == ["ann", "bob", "cid"]
    mails = w.mails(kind="press")
    assert sorted(m["to"] for m in mails) == ["ann@players.test", "cid@players.test"]
    assert all(parsed(m)["Subject"] == "[g1] Notice from the moderator" for m in mails)
    assert any(p["kind"] == "press" for p in w.store.load("g1").meta["mailbag"]["bob"]["parts"])
    with pytest.raises(BadRequest):
        w.ref.notice("g1", "   ")


def test_the_game_record_shows_what_press_in_archive_allows_and_still_replays(w):
    w.game(target=4, press_in_archive="public")
    w.press("ann", (None, "public words"))
    w.press("ann", (("bob",), "private words"))
    w.ref.submit("g1", "ann", "ADD 2")
    w.ref.notice("g1", "half way")
    w.ref.submit("g1", "bob", "ADD 2")
    public = w.ref.game_record("g1")
    assert "public words" in public and "half way" in public and "private words" not in public
    assert "press: \"public\"" in public
    lines = [line.split("\t") for line in public.splitlines() if "\t" in line and not line.startswith("end")]
    assert [(f[0], f[3], f[4]) for f in lines] == [("-", "press", "ann"), ("2", "order", "ann"),
                                                   ("-", "notice", "-"), ("3", "order", "bob")]
    assert '"to":"all"' in lines[0][5]
    everything = w.ref.game_record("g1", press="all")
    assert "private words" in everything and '"to":["bob"]' in everything
    assert "public words" not in w.ref.game_record("g1", press="none")
    for text in (public, everything):
        assert replay_log(text, GAMES.__getitem__).ok
    with pytest.raises(BadRequest):
        w.ref.game_record("g1", press="some")
