"""One mail per player per moment, and each player's choice of mail (NOTIFY each|turn|digest).

- No loss of information: whole games of both games played through the service under `turn`
  and under `each`; every event a player may see is in some mail to that player.
- Under `turn` a player's receipt waits for their next mail and opens it; a player asked
  again by the same step gets one mail; a moderator's notice waits for the next mail; a
  reminder always goes at once.
- `digest`: one mail at the player's local time, sooner when a deadline is less than a day
  away; `referee tick` sends it.
- NOTIFY by mail and by the CLI; the choice shows in the footer of every mail.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.message import EmailMessage

import pytest

from mailer.daemon.handler import MailHandler
from mailer.daemon.wiring import build
from mailer.outbound import folding
from mailer.outbound.news import OWN_ECHO
from referee import registry
from referee.config import Settings
from referee.contract import Event, echo_kinds
from referee.playthrough import BotStuck, bot_submission
from referee.rng import Rng
from referee.service import BadRequest

from tests.deadlines.conftest import ManualClock, flat, mails
from tests.reports.util import check_html
from tests.service.conftest import games  # noqa: F401  (the race and simul test games)
from tests.marks import slow

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)  # a Monday, 09:00 UTC


@pytest.fixture
def svc(tmp_path, games):  # noqa: F811
    clock = ManualClock()
    services = build(Settings(hostname="games.test", data_dir=tmp_path / "var"), clock=clock)
    services.clock = clock
    return services


class Queued:
    """Every mail the referee queued, as `mails` (tests/deadlines/conftest.py) gives them,
    read once when the game is over: each mail is parsed once, and what the checks read of it
    (its text, all it shows, its headers) is worked out once, where asking the parsed mail
    again for each check parsed its headers and looked for its parts every time."""

    def __init__(self, svc) -> None:
        self.all = mails(svc)
        for mail in self.all:
            mail.flat, mail.shown = flat(mail), shown(mail)
            mail.to, mail.referee_kind, mail.phase = mail["To"], mail["X-Referee-Kind"], mail["X-Referee-Phase"]

    def to(self, address: str):
        return [mail for mail in self.all if mail.to == address]


def play_to_the_end(svc, gid: str, seed: str) -> None:
    bots = Rng.from_seed(seed, "one mail")
    for _ in range(5000):
        stored = svc.store.load(gid)
        game = registry.get(stored.meta["game"])
        try:
            turn = bot_submission(game, stored, bots)
        except BotStuck:
            svc.referee.adjudicate(gid)
            continue
        if turn is None:
            return
        receipt = svc.referee.submit(gid, *turn)
        assert receipt.status == "accepted", receipt.render()
    raise AssertionError(f"{gid} did not end")


def shown(mail) -> str:
    """All a mail shows, its lines joined: the text part, and the HTML part's text, which has
    every event where the text part tells a long stretch in short."""
    html = mail.get_body(("html",))
    return flat(mail) + (" " + " ".join(check_html(html.get_content()).split()) if html is not None else "")


def missing_events(svc, gid: str, players: list[str], queued: Queued) -> list[tuple[str, str]]:
    """(player, event text) for every event the player may see that no mail to them shows.
    Several moves of one player in a row read as one line (`bob sells ...; sells ...`), so
    each event is looked for without its closing full stop, and without the player's name
    when it continues such a line. A player's own plan as they set it (`plan.set`, ...) is
    not told back among the events: their receipt names its parts and "Your plan" shows it; nor
    is a move of theirs that says no more than their orders (`echo_events`) in a mail that
    opens with their receipt."""
    missing = []
    stored = svc.store.load(gid)
    echoes = echo_kinds(registry.get(stored.meta["game"]))
    events = [Event.from_json(e) for r in stored.events for e in r.get("events", [])]
    for player in players:
        text = " ".join(m.shown for m in queued.to(f"{player}@players.test"))
        for event in events:
            if not event.visible_to(player) or event.kind in OWN_ECHO or (
                    event.kind in echoes and folding.own_event(event, player)):
                continue
            said = " ".join(event.text.split()).rstrip(".")
            rest = next((said[len(p):].removeprefix(":").strip() for p in players if said.startswith(p + " ")
                         or said.startswith(p + ":")), None)
            if said not in text and (rest is None or rest not in text):
                missing.append((player, event.text))
    return missing


@slow
@pytest.mark.parametrize("notify", ["turn", "each"])
@pytest.mark.parametrize("name", ["constantinopolis", "porto-carthago"])
def test_every_event_reaches_every_player_who_may_see_it(svc, name, notify):
    players = ["ann", "bob", "cid"]
    gid = f"{name[:5]}-{notify}"
    svc.referee.new_game(name, [(p, f"{p}@players.test") for p in players], seed=f"one-mail-{name}",
                         game_id=gid, notify={p: notify for p in players})
    play_to_the_end(svc, gid, f"one-mail-{name}")
    assert svc.store.load(gid).meta["status"] == "finished"
    queued = Queued(svc)
    assert missing_events(svc, gid, players, queued) == []
    for player in players:
        got = queued.to(f"{player}@players.test")
        assert got[-1]["Subject"] == f"[{gid}] Game over"
        assert all(f"NOTIFY {notify} (" in m.flat for m in got if m.kind in ("report", "reminder"))
        # what each mail is, for filters and tools: asked for orders exactly when it holds an ORDERS block
        assert all(m.referee_kind for m in got)
        reports = [m for m in got if m.kind in ("report", "reminder")]
        assert all((m.referee_kind == "ask") == (f" ORDERS {gid} " in m.flat) for m in reports)
        assert [m.referee_kind for m in got].count("end") == 1 and got[-1].referee_kind == "end"
        rounds = [int(m.phase.split(";")[0]) for m in reports]
        assert rounds == sorted(rounds) and rounds[-1] > 1
    if notify == "turn":  # nothing went out on its own that only said something changed
        assert not [m for m in queued.all if m.kind == "notice"]
        receipts = [m.flat for m in queued.all if m.kind == "receipt"]  # each answers orders at once, alone
        assert receipts and all("Accepted (" in text and "ORDERS " not in text for text in receipts)
        assert all("Your next mail comes when you are asked something or the round ends." in text
                   or "You are still asked" in text for text in receipts)


@slow
@pytest.mark.parametrize("name", ["constantinopolis", "porto-carthago"])
def test_each_mail_names_its_kind_and_phase_the_same_in_every_language(tmp_path, games, name):  # noqa: F811
    """The same game played twice, once in English and once in German and Italian: every
    player's mail carries the same X-Referee-Kind and X-Referee-Phase, mail by mail."""
    players = ["ann", "bob", "cid"]
    seen = []
    for n, languages in enumerate(({}, {"ann": "de", "bob": "it", "cid": "de"})):
        services = build(Settings(hostname="games.test", data_dir=tmp_path / f"var{n}"), clock=ManualClock())
        services.referee.new_game(name, [(p, f"{p}@players.test") for p in players], seed=f"kinds-{name}",
                                  game_id="g-1", languages=languages)
        play_to_the_end(services, "g-1", f"kinds-{name}")
        seen.append({p: [(m["X-Referee-Kind"], m["X-Referee-Phase"]) for m in mails(services, to=f"{p}@players.test")]
                     for p in players})
    assert seen[0] == seen[1]
    kinds = {kind for got in seen[1].values() for kind, _ in got}
    # a receipt answers each order mail at once, in the unit of work that read it
    assert {"ask", "end"} <= kinds and kinds <= {"ask", "round", "end", "report", "reminder", "receipt"}


def race(svc, notify=None, **kwargs):
    made = svc.referee.new_game("race", [(p, f"{p}@players.test") for p in ("ann", "bob")], seed="s",
                                game_id="race-1", notify=notify, **kwargs)
    return {p["name"]: p["token"] for p in made.players}


def test_under_turn_the_receipt_opens_the_next_mail_and_a_notice_waits(svc):
    race(svc)
    assert [m["To"] for m in mails(svc)] == ["ann@players.test", "bob@players.test"]  # the opening
    svc.referee.submit("race-1", "ann", "ADD 2")  # round 0 ends; bob is asked
    ann, bob = mails(svc, "ann@players.test"), mails(svc, "bob@players.test")
    assert len(bob) == 2 and "YOUR MOVE" in flat(bob[-1])
    # ann: a new round began, so she hears of it, her receipt first
    assert len(ann) == 2 and flat(ann[-1]).index("Accepted (") < flat(ann[-1]).index("Nothing is asked of you")
    svc.referee.extend("race-1", "1d", "the moderator is away")  # news that asks nothing
    assert len(mails(svc)) == 4
    svc.referee.submit("race-1", "bob", "ADD 1")
    last = flat(mails(svc, "ann@players.test")[-1])
    assert "Deadline extended" in last and "Reason given: the moderator is away" in last and "YOUR MOVE" in last


def test_a_player_asked_again_by_the_same_step_gets_one_mail(svc):
    svc.referee.new_game("simul", [(p, f"{p}@players.test") for p in ("ann", "bob", "cid")], seed="s",
                         game_id="s1")
    before = len(mails(svc, "ann@players.test"))
    svc.referee.submit("s1", "ann", "PICK 5")  # still asked in this phase: DONE is to come
    got = mails(svc, "ann@players.test")
    assert len(got) == before + 1
    body = flat(got[-1])
    assert body.startswith("Secret Numbers s1 for ann") and "Accepted (pick, round 1): PICK" in body and "ORDERS s1 r1" in body
    svc.referee.submit("s1", "ann", "PICK 5\nDONE")  # nothing more asked: the receipt, alone, at once
    got = mails(svc, "ann@players.test")
    assert len(got) == before + 2 and got[-1].kind == "receipt"
    assert got[-1]["Subject"] == "[s1] Orders received: accepted"
    body = flat(got[-1])
    assert "Accepted (pick, round 1): PICK 5; DONE." in body and "ORDERS" not in body
    assert "Nothing more is asked of you now; waiting for bob, cid. Your next mail comes when you are asked" in body


def test_a_reminder_always_goes_and_carries_what_waited(svc):
    race(svc, notify={"ann": "digest 20:00"})
    svc.clock.now = START + timedelta(days=1, hours=1)  # 24h before the deadline
    svc.tick()
    reminder = mails(svc, "ann@players.test")[-1]
    assert reminder.kind == "reminder"
    assert reminder["Subject"] == "[race-1] Your move (reminder, 23h left): round 0, add (by Wed 4 Mar 09:00 UTC)"
    assert "ORDERS race-1 t0" in flat(reminder)


def test_a_digest_comes_at_the_players_local_time_or_sooner_near_a_deadline(svc):
    race(svc, notify={"bob": "digest 18:30"}, timezones={"bob": "Europe/Berlin"}, policy_set=["deadline=4d"])
    opening = len(mails(svc, "bob@players.test"))
    svc.clock.now = START + timedelta(hours=1)
    svc.referee.submit("race-1", "ann", "ADD 2")  # bob is asked: under digest he hears at 18:30 Berlin
    assert len(mails(svc, "bob@players.test")) == opening
    svc.clock.now = datetime(2026, 3, 2, 17, 29, tzinfo=timezone.utc)
    assert not [a for a in svc.tick() if a.action == "digest"]
    svc.clock.now = datetime(2026, 3, 2, 17, 30, tzinfo=timezone.utc)  # 18:30 in Berlin
    assert [a.players for a in svc.tick() if a.action == "digest"] == [("bob",)]
    digest = mails(svc, "bob@players.test")[-1]
    assert digest["Subject"].endswith("(daily digest)") and "YOUR MOVE" in flat(digest)
    assert "NOTIFY digest 18:30 (daily at 18:30 Europe/Berlin)" in flat(digest)
    svc.clock.now += timedelta(minutes=5)
    svc.tick()
    assert mails(svc, "bob@players.test")[-1]["Message-ID"] == digest["Message-ID"]  # one a day


def test_a_digest_player_gets_the_receipt_of_their_orders_at_once(svc):
    """A receipt is not news to wait for: whatever the choice, the player hears at once that
    their orders arrived, and when their next mail comes."""
    race(svc, notify={"bob": "digest 18:30"}, timezones={"bob": "Europe/Berlin"}, policy_set=["deadline=4d"])
    svc.referee.submit("race-1", "ann", "ADD 2")
    before = len(mails(svc, "bob@players.test"))
    svc.referee.submit("race-1", "bob", "ADD 1", in_reply_to="<bob-1@players.test>")
    [receipt] = mails(svc, "bob@players.test")[before:]
    assert receipt.kind == "receipt" and receipt["In-Reply-To"] == "<bob-1@players.test>"
    body = flat(receipt)
    assert "Accepted (add, round 1): ADD 1." in body and "ORDERS" not in body
    assert ("Nothing more is asked of you now; waiting for ann. Your next mail comes with your daily digest at "
            "18:30 Europe/Berlin, sooner when a deadline of yours is less than a day away.") in body
    assert "NOTIFY digest 18:30 (daily at 18:30 Europe/Berlin)" in body


def test_a_digest_player_asked_with_a_deadline_less_than_a_day_away_is_mailed_at_once(svc):
    race(svc, notify={"bob": "digest 08:00"}, policy_set=["deadline=12h"])
    opening = len(mails(svc, "bob@players.test"))
    svc.referee.submit("race-1", "ann", "ADD 2")
    got = mails(svc, "bob@players.test")
    assert len(got) == opening + 1 and "YOUR MOVE" in flat(got[-1])


def test_notify_by_mail(svc):
    tokens = race(svc)
    raw = EmailMessage()
    raw["From"], raw["To"], raw["Subject"] = "ann@players.test", f"race-1+ann+{tokens['ann']}@games.test", "x"
    raw["Message-ID"] = "<notify-1@players.test>"
    raw.set_content("NOTIFY digest 7.15\n")
    handler = MailHandler(svc.referee, svc.notifier, svc.settings)
    handled = handler.handle(f"Delivered-To: {raw['To']}\r\n".encode() + bytes(raw))
    assert handled.outcome == "command"
    seat = next(s for s in svc.store.load("race-1").meta["seats"] if s["name"] == "ann")
    assert seat["notify"] == {"mode": "digest", "at": "07:15"}
    answer = mails(svc, "ann@players.test")[-1]
    assert answer["Subject"] == "[race-1] Mail setting: NOTIFY digest 07:15"
    assert answer["In-Reply-To"] == "<notify-1@players.test>"
    [event] = [e for e in svc.store.load("race-1").events if e["type"] == "notify"]
    assert event["player"] == "ann" and event["source"] == "mail"
    assert event["digest_at"] == "07:15" and event["at"].endswith("Z")  # when it happened, not the digest's hour
    with pytest.raises(BadRequest, match="is not a choice"):
        svc.referee.set_notify("race-1", "ann", "hourly")
    with pytest.raises(BadRequest, match="only a digest has one"):
        svc.referee.set_notify("race-1", "ann", "turn 08:00")


def test_the_cli_sets_the_choice(tmp_path, games):  # noqa: F811
    from click.testing import CliRunner

    from commands.main import cli
    runner = CliRunner()
    data = str(tmp_path / "var")
    made = runner.invoke(cli, ["--data-dir", data, "new", "race", "--player", "ann:ann@p.test", "--player",
                               "bob:bob@p.test", "--id", "race-1"])
    assert made.exit_code == 0, made.output
    done = runner.invoke(cli, ["--data-dir", data, "notify", "race-1", "bob", "each"])
    assert done.exit_code == 0 and "bob in race-1: You get a mail for everything as it happens." in done.output
    bad = runner.invoke(cli, ["--data-dir", data, "notify", "race-1", "bob", "weekly"])
    assert bad.exit_code == 2 and "is not a choice" in bad.output


def test_a_mail_that_answers_several_mails_refers_to_each(svc):
    """Mails of one player read in one unit of work get one answer: its In-Reply-To names the
    last mail answered and References every one of them, so a mail program threads them all
    (and a player can tell which of their mails were answered). So for a receipt alone, and
    for receipts that open a report due at the same moment."""
    from referee.service import Submission

    svc.referee.new_game("simul", [(p, f"{p}@players.test") for p in ("ann", "bob", "cid")], seed="s",
                         game_id="s1")
    before = len(mails(svc, "ann@players.test"))
    receipts = svc.referee.submit_many("s1", [Submission("ann", "PICK 5", in_reply_to="<ann-1@players.test>"),
                                              Submission("ann", "PICK 4\nDONE", in_reply_to="<ann-2@players.test>")])
    assert [r.status for r in receipts] == ["accepted", "accepted"]
    [answer] = mails(svc, "ann@players.test")[before:]  # nothing more is asked of ann: the receipts alone
    assert answer.kind == "receipt" and answer["In-Reply-To"] == "<ann-2@players.test>"
    refs = answer["References"].split()
    assert refs.index("<ann-1@players.test>") < refs.index("<ann-2@players.test>") == len(refs) - 1
    assert "Accepted (pick, round 1): PICK 5." in flat(answer) and "PICK 4; DONE." in flat(answer)
    before = len(mails(svc, "bob@players.test"))
    svc.referee.submit("s1", "cid", "PICK 1\nDONE")
    svc.referee.submit_many("s1", [Submission("bob", "PICK 2", in_reply_to="<bob-1@players.test>"),
                                   Submission("bob", "PICK 1\nDONE", in_reply_to="<bob-2@players.test>")])
    [report] = mails(svc, "bob@players.test")[before:]  # the round ended: the receipts open its report
    assert report.kind == "report" and report["In-Reply-To"] == "<bob-2@players.test>"
    refs = report["References"].split()
    assert refs.index("<bob-1@players.test>") < refs.index("<bob-2@players.test>") == len(refs) - 1
