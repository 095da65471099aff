"""Every bad input gets a clear answer and nothing is lost: durations and dates too large for
the clock, a Content-Type that breaks the standard library's header parser, player names too
long for a reply address, addresses no mail server without SMTPUTF8 delivers."""

import json
from email.message import EmailMessage

import pytest
from click.testing import CliRunner

from commands.main import cli
from mailer.daemon.wiring import build
from mailer.inbound.addresses import parse_plus_address
from mailer.outbound.notifier import reply_address
from referee.config import Settings
from referee.tokens import LOCAL_PART_MAX, longest_name

HOST = "games.test"


@pytest.fixture
def svc(tmp_path, games):
    svc = build(Settings(hostname=HOST, data_dir=tmp_path / "data", relay=f"maildir:{tmp_path / 'relay'}"))
    made = svc.referee.new_game("race", [("ann", "ann@players.test"), ("bob", "bob@players.test")], seed="s",
                                game_id="g1")
    svc.tokens = {s["name"]: s["token"] for s in made.players}
    return svc


def invoke(svc, *args):
    return CliRunner().invoke(cli, ["--data-dir", str(svc.settings.data_dir), *args])


def mail_to(svc, player, body, n, content_type=None):
    to = f"g1+{player}+{svc.tokens[player]}@{HOST}"
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{player}@players.test", to, "mail"
    msg["Message-ID"] = f"<m{n}@players.test>"
    msg.set_content(body)
    raw = f"Delivered-To: {to}\r\n".encode() + bytes(msg)
    if content_type is not None:
        head, _, rest = raw.partition(b"Content-Type: text/plain; charset=\"utf-8\"")
        raw = head + content_type + rest
    return svc.spool.add(raw)


def test_an_overflowing_vacation_by_mail_is_answered_and_nothing_is_set_aside(svc):
    mail_to(svc, "ann", "VACATION 99999999999d\n", 1)
    (handled,) = svc.worker().run_once(svc.spool)
    assert handled.outcome == "rejected" and "longer than a year" in handled.detail
    (answer,) = [r for r in svc.system_outbox.pending() if r["to"] == "ann@players.test"]
    assert answer["subject"] == "[g1] VACATION not done"
    assert "'99999999999d' is longer than a year" in answer["raw"]
    assert svc.spool.aside() == [] and svc.spool.pending() == 0


@pytest.mark.parametrize("args, needle", [
    (["vacation", "g1", "ann", "99999999999d"], "'99999999999d' is longer than a year"),
    (["vacation", "g1", "ann", "9" * 5000 + "w"], "is longer than a year"),
    (["vacation", "g1", "ann", "until", "0001-01-01"], "'0001-01-01' must lie between 2000 and 9000"),
    (["vacation", "g1", "ann", "until", "9999-12-31T23:59-05:00"], "it must be within a year from now"),
    (["extend", "g1", "--by", "99999999999d", "--reason", "x"], "--by: '99999999999d' is longer than a year"),
    (["policy", "set", "g1", "grace=99999999999w", "--reason", "x"], "grace=99999999999w: '99999999999w' is longer"),
    (["policy", "set", "g1", "deadline=20:00 UTC after 99999999999m", "--reason", "x"], "is longer than a year"),
    (["tick", "--now", "9999-12-31T23:59Z"], "--now: '9999-12-31T23:59Z' must lie between 2000 and 9000"),
    (["tick", "--now", "0001-01-01T00:00+01:00"], "is too far away"),
    (["new", "race", "--player", "a:a@x.org", "--player", "b:b@x.org", "--set", "reminders=99999999999h"],
     "longer than a year"),
])
def test_overflowing_durations_and_dates_are_refused_clearly(svc, args, needle):
    result = invoke(svc, *args)
    assert result.exit_code == 2, result.output
    assert needle in result.output
    assert "unexpected" not in result.output and "Traceback" not in result.output


def test_a_content_type_that_breaks_the_header_parser_is_read_as_well_as_can_be(svc):
    broken = (b"Content-Type: text/plain; charset=\"utf-8\"; format=flowed; name*0*=utf-8''%E2%82%AC%20orders; "
              b"name*1*=%20for%20the%20game%20of%20the%20week; name*2*")
    assert 140 <= len(broken) <= 170
    mail_to(svc, "ann", "ADD 2\n", 1, content_type=broken)
    (handled,) = svc.worker().run_once(svc.spool)
    assert (handled.outcome, handled.player) == ("accepted", "ann")
    assert [e["text"] for e in svc.store.load("g1").events if e["type"] == "order"] == ["ADD 2"]
    # her receipt opens her next mail, sent now or waiting in her mailbag (NOTIFY turn)
    with svc.store.transaction("g1") as tx:
        sent = [r for r in tx.records("outbox") if r["to"] == "ann@players.test" and "Accepted (" in r["raw"]]
        waiting = [p for p in (tx.meta.get("mailbag") or {})["ann"]["parts"] if p["kind"] == "receipt"]
    assert len(sent) + len(waiting) == 1


def test_names_too_long_for_a_reply_address_are_refused_at_new(svc):
    result = invoke(svc, "new", "race", "--id", "g2", "--player", "a" * 300 + ":a@x.org", "--player", "b:b@x.org")
    assert result.exit_code == 2
    assert f"is too long: reply addresses read g2+NAME+TOKEN@..., whose part before the @ may have at most " \
           f"{LOCAL_PART_MAX} characters, so a name in game g2 may have at most {longest_name('g2')}" in result.output
    assert "a" * 41 not in result.output  # the name is shown cut
    longest = "n" * longest_name("g2")
    made = invoke(svc, "new", "race", "--id", "g2", "--player", f"{longest}:a@x.org", "--player", "b:b@x.org",
                  "--json")
    assert made.exit_code == 0, made.output
    seat = json.loads(made.output)["players"][0]
    address = reply_address("g2", seat, HOST)
    assert len(address.partition("@")[0]) == LOCAL_PART_MAX
    assert parse_plus_address(address) == ("g2", longest, seat["token"])
    generated = invoke(svc, "new", "race", "--player", f"{longest}x:a@x.org", "--player", "b:b@x.org")
    assert generated.exit_code == 2 and "so a name in game race-1 may have at most" in generated.output


def test_a_seat_whose_name_is_too_long_is_replaced_with_a_warning(svc, monkeypatch):
    from referee.service import creating

    long = "x" * 60
    with monkeypatch.context() as patch:  # a game made before names were checked
        patch.setattr(creating, "name_problem", lambda *_: None)
        svc.referee.new_game("race", [(long, "x@players.test"), ("bob", "bob@players.test")], game_id="g4")
    result = invoke(svc, "replace", "g4", long, "--email", "new@players.test")
    assert result.exit_code == 0, result.output
    assert "Warning: player name" in result.output and "PLAYER line" in result.output


@pytest.mark.parametrize("args", [
    ["new", "race", "--player", "jörg:jörg@example.org", "--player", "b:b@x.org"],
    ["new", "race", "--player", "j:jörg@example.org", "--player", "b:b@x.org"],
    ["replace", "g1", "ann", "--email", "änn@players.test"],
    ["policy", "set", "g1", "moderator=mödi@example.org", "--reason", "x"],
])
def test_addresses_outside_ascii_are_refused_with_a_reason(svc, args):
    result = invoke(svc, *args)
    assert result.exit_code == 2, result.output
    assert "characters outside ASCII before the @" in result.output and "SMTPUTF8" in result.output


def test_an_internationalised_domain_is_kept_in_its_ascii_form(svc):
    made = invoke(svc, "new", "race", "--id", "g3", "--player", "a:a@bücher.example", "--player", "b:b@x.org",
                  "--json")
    assert made.exit_code == 0, made.output
    assert json.loads(made.output)["players"][0]["email"] == "a@xn--bcher-kva.example"
    svc.send()
    with svc.store.transaction("g3") as tx:
        (report,) = [r for r in tx.records("outbox") if r["to"].startswith("a@")]
    assert report["to"] == "a@xn--bcher-kva.example"
