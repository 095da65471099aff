"""Each player chooses the language of their mail: LANGUAGE by real mail, `referee language`,
a game's default (`referee new --language`) and a tournament's; kept in the game."""

from __future__ import annotations

import pytest

from referee.i18n import recipient_language

from ..deadlines.conftest import HOST, START, ManualClock, cli_run, clock, events, mails, race, svc  # noqa: F401
from ..deadlines.test_mail_commands import address, post  # noqa: F401
from ..service.conftest import games  # noqa: F401


def test_language_by_mail_is_confirmed_in_the_new_language_and_kept(svc, clock, post):  # noqa: F811
    tokens = race(svc)
    post.send("ann@players.test", address(tokens, "ann"), "LANGUAGE de\n")
    assert post.pump() == [("command", "LANGUAGE")]
    mail, body = post.last("ann@players.test")
    assert mail["Subject"] == "[race-1] Sprache eingestellt: Deutsch"
    assert "Deine Befehle kannst du auf Deutsch oder auf Englisch schreiben." in " ".join(body.split())
    assert [e["language"] for e in events(svc, "race-1", "language")] == ["de"]
    meta = svc.store.load("race-1").meta
    assert recipient_language(meta, "ann") == "de" and recipient_language(meta, "bob") == "en"

    post.send("bob@players.test", address(tokens, "bob"), "", subject="Sprache Italiano")
    assert post.pump() == [("command", "LANGUAGE")]
    assert post.last("bob@players.test")[0]["Subject"] == "[race-1] Lingua impostata: Italiano"

    post.send("ann@players.test", address(tokens, "ann"), "ADD 2\n")  # the race game has no glossary: English
    post.pump()
    subjects = [m["Subject"] for m in post.inbox.to("ann@players.test")]
    assert "[race-1] Befehle erhalten: angenommen" in subjects and "[race-1] Runde 1 – add" in subjects
    report = [m for m in post.inbox.to("bob@players.test") if m["Subject"].startswith("[race-1] Tocca a te: round 1, add (entro ")]
    assert report, [m["Subject"] for m in post.inbox.to("bob@players.test")]
    assert "mer 4 mar 2026, 09:00 UTC" in report[-1].get_body(("plain",)).get_content()  # the Italian date


def test_an_unknown_language_by_mail_is_refused_in_the_players_language(svc, clock, post):  # noqa: F811
    tokens = race(svc)
    svc.referee.set_language("race-1", "ann", "it")
    post.send("ann@players.test", address(tokens, "ann"), "LANGUAGE klingon\n")
    assert post.pump()[0][0] == "rejected"
    mail, body = post.last("ann@players.test")
    assert mail["Subject"] == "[race-1] LINGUA non eseguito"
    assert "Non è cambiato nulla." in body and "no language 'klingon' here" in body
    assert recipient_language(svc.store.load("race-1").meta, "ann") == "it"


def test_the_command_line_sets_a_language_and_a_games_default(cli_run):  # noqa: F811
    made = cli_run("new", "race", "--player", "ann:ann@x.test", "--player", "bob:bob@x.test", "--id", "r1",
                   "--language", "Deutsch")
    assert made.exit_code == 0, made.output
    assert cli_run("language", "r1", "bob", "it").stdout == "bob in r1 is written to in Italiano (it).\n"
    refused = cli_run("language", "r1", "bob", "fr")
    assert refused.exit_code == 2 and "choose one of en (English), de (Deutsch), it (Italiano)" in refused.output
    bad = cli_run("new", "race", "--player", "ann:ann@x.test", "--player", "bob:bob@x.test", "--id", "r2",
                  "--language", "xx")
    assert bad.exit_code == 2 and "the game's language" in bad.output
    history = cli_run("history", "r1").stdout
    assert "bob language set to it" in history


def test_a_games_language_is_every_players_until_they_choose(svc):  # noqa: F811
    svc.referee.new_game("race", [("ann", "ann@x.test"), ("bob", "bob@x.test")], seed="s", game_id="r1",
                         language="it", languages={"bob": "de"})
    meta = svc.store.load("r1").meta
    assert (recipient_language(meta, "ann"), recipient_language(meta, "bob")) == ("it", "de")
    first = {m["To"]: m["Subject"] for m in mails(svc, kind="report")}
    assert first == {"ann@x.test": "[r1] Tocca a te: round 0, add (entro mer 4 mar, 09:00 UTC)",
                     "bob@x.test": "[r1] Runde 0 – add"}
