"""`referee demo --languages de,en,it`: one table, three languages. Every mail each player
received is in their language, the bots' orders were written in it (the log, in English,
replays), and a mail in the wrong language would have been caught."""

from __future__ import annotations

import email
from email import policy
from pathlib import Path

import pytest
from click.testing import CliRunner

from commands.demo import mailstats
from commands.demo.languages import mail_problems, mailbox_problems
from commands.main import cli

from .test_demo import mails, text
from ..marks import slow


@slow
@pytest.mark.parametrize("game,prefix", [("constantinopolis", "constantinopolis-1"), ("porto-carthago", "porto-1")])
def test_a_table_of_three_languages_by_mail(tmp_path, game, prefix):
    data = tmp_path / "data"
    result = CliRunner().invoke(cli, ["--data-dir", str(data), "demo", "--game", game, "--players", "3",
                                      "--languages", "de,en,it", "--seed", f"three-languages-{game}"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Languages: alice de, bruno en, chiara it" in out
    # one line a phase, in the game's own (English) words, whatever the players read
    phases = [line.split("  ")[-1] for line in out.splitlines() if "s " in line and "  round " in line]
    assert phases and len(phases) == len(set(phases))
    assert {"constantinopolis": "round 1: Auction of public offices",
            "porto-carthago": "round 1: setup: optional dock"}[game] in phases
    assert not any(word in out for word in ("Versteigerung", "Asta ", "Runde ", "Turno "))
    # every mail counted by the kind the referee gives it, in every language: one end each
    stats = mailstats.read(data / "mailboxes", ["alice", "bruno", "chiara"], 1)
    assert all(player.count(mailstats.END) == 1 and player.kinds[-1] == mailstats.END for player in stats.players)
    assert all(player.count(mailstats.ASK) >= 3 for player in stats.players)
    assert "Languages: every mail in its player's language" in out
    assert f"referee replay {prefix}.log: OK" in out
    for player, lang in (("alice", "de"), ("bruno", "en"), ("chiara", "it")):
        count, problems = mailbox_problems(data / "mailboxes" / player, lang, prefix)
        assert count > 5 and problems == []
    # the German player wrote German orders, and the referee understood them
    sent = [text(m) for m in mails(data / "mailboxes" / "alice" / ".Sent")]
    words = {"constantinopolis": ("biete", "passe", "nimm", "fertig", "baue", "spende", "lagere", "annehmen",
                                  "ablehnen", "verteidige", "erhöhe"),
             "porto-carthago": ("KAPITÄN", "ARISTOKRAT", "LADEMEISTER", "HÄNDLER", "TRÄGER", "TALENTE", "PASSE",
                                "BESETZE", "FERTIG", "NEBENAKTION")}[game]
    assert any(word in body for body in sent for word in words)
    received = [text(m) for m in mails(data / "mailboxes" / "alice")]
    assert any("Angenommen (" in body for body in received)  # the receipts, folded into her mail
    log = (data / f"{prefix}.log").read_text(encoding="utf-8")
    assert not any(f'"{w} ' in log or f'"{w}"' in log for w in words)  # the log stays English


def test_a_mail_in_another_language_is_caught(tmp_path):
    def mail(subject: str, body: str) -> bytes:
        msg = email.message.EmailMessage(policy=policy.default)
        msg["Subject"] = subject
        msg.set_content(body)
        return msg.as_bytes()

    assert mail_problems(mail("[g-1] Befehle erhalten: angenommen", "x"), "de", "g-1") == []
    assert mail_problems(mail("[g-1] Orders received: accepted", "x"), "de", "g-1") == [
        "subject '[g-1] Orders received: accepted' is not one written in Deutsch"]
    footer = "Deine Sprache: Deutsch. Schick LANGUAGE de, en oder it, um sie zu wechseln."
    assert mail_problems(mail("[g-1] Runde 2 – Bauphase", "no footer"), "de", "g-1") == [
        "report '[g-1] Runde 2 – Bauphase' lacks the Deutsch footer"]
    assert mail_problems(mail("[g-1] Round 2: x", "no footer"), "de", "g-1")[0].startswith("subject")
    # Porto Carthago counts decades, in its subjects as in its text
    assert "subject '[porto-1] Dein Zug: Runde 2, Aktionszug' counts rounds where Porto Carthago counts decades" in \
        mail_problems(mail("[porto-1] Dein Zug: Runde 2, Aktionszug", "x"), "de", "porto-1")
    assert not [p for p in mail_problems(mail("[porto-1] Dein Zug: Dekade 2, Aktionszug", "x"), "de", "porto-1")
                if "decades" in p]
    # an engine's sentence that missed the catalogue
    assert mail_problems(mail("[g-1] Befehle erhalten: angenommen", "ann: The auction is over; 4 gold on the "
                              "office board goes back to the bank."), "de", "g-1") == [
        "'[g-1] Befehle erhalten: angenommen' holds English: 'gold on the office board goes back to the bank.'"]
    assert Path  # the module's own check of whole mailboxes runs in the demo test above
    assert footer
