"""A whole tournament by mail: 12 players, 3 rounds of 4-player Constantinopolis tables,
played by bots through the real daemon with one-minute deadlines on a fast clock, then
archived and verified. Constantinopolis rather than Porto Carthago: a four-player game by
mail takes about the same wall time, but Constantinopolis sends fewer mails (about 450 a
game against 520) and costs less CPU, and every game here shares one process."""

from __future__ import annotations

import email
import json
from email import policy

import pytest
from click.testing import CliRunner

from commands.main import cli
from referee.tournament.roster import Entry

from .bymail import TournamentByMail

PLAYERS = ["ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea"]


@pytest.mark.long
def test_twelve_players_three_rounds_by_mail_then_archived_and_verified(tmp_path):
    data = tmp_path / "data"
    run = TournamentByMail(data, PLAYERS)
    run.start()
    try:
        org = run.services.tournaments
        roster = [Entry(p, run.addresses[p]) for p in PLAYERS]
        made = org.create("cup", "constantinopolis", roster, rounds=3, table_size="4", seed="by-mail",
                          policy="tournament", policy_set=["deadline=1m", "reminders=none", "early=true"])
        assert [len(x.seats) for x in made.round.tables] == [4, 4, 4]
        for number in (1, 2, 3):
            t = org.tournament("cup")
            assert t.current.number == number
            run.play_round(t, "by-mail")
            subject = "Final standings" if number == 3 else f"Standings after round {number}"
            for player in PLAYERS:  # the daemon's sender mailed everyone the standings
                assert run.wait_for(player, f"[cup] {subject}", 1), (player, subject)
            if number < 3:
                org.next_round("cup")
        t, standings = org.standings("cup")
    finally:
        run.close()

    assert t.complete and t.seed_revealed and standings.complete
    assert [r.games for r in standings.rows] == [3] * 12
    ranks = [r.rank for r in standings.rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    # the standings mail a player got after the last round is what the command shows
    mail = email.message_from_bytes(run.wait_for("ann", "[cup] Final standings", 1)[0], policy=policy.default)
    body = mail.get_body(("plain",)).get_content()
    assert "cup (Constantinopolis): final standings" in body and "The tournament is over" in body
    assert t.seed in body

    cli_run = CliRunner()
    archive = tmp_path / "cup.zip"
    done = cli_run.invoke(cli, ["--data-dir", str(data), "tournament", "archive", "cup", "-o", str(archive)])
    assert done.exit_code == 0, done.output
    checked = cli_run.invoke(cli, ["tournament", "verify", str(archive), "--json"])
    assert checked.exit_code == 0, checked.output
    verdict = json.loads(checked.stdout)
    assert verdict["ok"] and verdict["games"] == 9 and verdict["steps"] > 9 * 100
