"""`referee demo`: whole games played by mail through the real daemon, a capture relay and
one bot per player, all on loopback."""

from __future__ import annotations

import email
import os
import re
import subprocess
import sys
from email import policy
from pathlib import Path

import pytest
from click.testing import CliRunner

import commands.demo.bot
from commands.main import cli
from commands.demo.bot import MailBot, arrival_key
from mailer.inbound.spool import Spool
from referee import registry

from ..service.simul import Simul
from ..marks import slow


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, list(args), catch_exceptions=False)

    return invoke


def mails(folder: Path) -> list[email.message.EmailMessage]:
    files = sorted((p for sub in ("new", "cur") for p in (folder / sub).iterdir()), key=lambda p: arrival_key(p.name))
    return [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in files]


def text(mail) -> str:
    return mail.get_body(("plain",)).get_content().replace("\r\n", "\n")


def test_a_race_played_by_mail_from_start_to_replay(run, race_registered, tmp_path):
    data = tmp_path / "data"
    result = run("--data-dir", str(data), "demo", "--game", "race", "--players", "2", "--seed", "mail-demo")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Race to the Target, 2 players: alice, bruno; seed mail-demo" in out
    assert "round 0: add" in out  # progress, from the reports as they go out
    assert "Race to the Target: final standings" in out and "Winner:" in out
    assert "Seed revealed: mail-demo (matches the commitment" in out
    log = data / "race-1.log"
    assert f"Game log: {log}" in out and "referee replay race-1.log: OK: replayed" in out
    assert f"Data directory kept: {data}" in out  # the user's own directory is never removed
    # the progress alone on the terminal; the daemon's log in its file, named at the end
    assert result.stderr == "" and "referee.daemon" not in out and "mail accepted" not in out
    assert out.splitlines()[1] == "  time  mails in  out  phase"
    assert f"Daemon log: {data / 'daemon.log'}" in out
    logged = (data / "daemon.log").read_text()
    assert "referee.daemon listening on 127.0.0.1:" in logged
    assert re.search(r"referee\.worker mail <[^>\n]+> accepted: race-1 alice\n", logged)
    replayed = run("replay", str(log))
    assert replayed.exit_code == 0 and replayed.stdout.startswith("OK:")

    for player in ("alice", "bruno"):
        box = data / "mailboxes" / player
        assert f"{player:<8} {box}" in out
        inbox = mails(box)
        # filed by the capture server from the SMTP envelope the daemon's relay client sent
        assert all(m["Delivered-To"] == f"{player}@players.localhost" for m in inbox)
        assert all(m["Return-Path"] == "<race-1@games.localhost>" for m in inbox)
        subjects = [m["Subject"] for m in inbox]
        assert subjects[0] == "[race-1] Round 0 – add" or subjects[0].startswith("[race-1] Your move: round 0, add (by ")
        assert subjects[-1] == "[race-1] Game over"
        # the subject says "Your move" exactly when the mail asks for orders
        assert all(s.startswith("[race-1] Your move: ") == ("\nORDERS race-1 t" in text(m)) for s, m in zip(subjects, inbox))
        # NOTIFY turn: a mail when asked (with the receipt of the last orders), a round ends (in
        # this race every turn is a round), or the game ends; each ask answered by one reply
        asks = [m for m in inbox if "\nORDERS race-1 t" in text(m)]
        rounds = [m["Subject"] for m in inbox]
        assert len(rounds) == len(set(rounds))  # one mail per round
        every = mails(box / ".Sent")
        sent = [m for m in every if "\nORDERS race-1 t" in text(m)]
        assert sent and len(sent) == len(asks)
        assert sum("Accepted (" in text(m) for m in inbox) == len(sent)
        ids = {m["Message-ID"]: m for m in inbox}
        for reply in every:
            answered = ids[reply["In-Reply-To"]]  # a reply to a mail the bot received
            assert reply["Subject"] == "Re: " + answered["Subject"]
            assert reply["References"].split()[-1] == answered["Message-ID"]
            assert reply["To"] == answered["Reply-To"] and "+" in reply["To"]
            assert "\n> " in text(reply) and " wrote:\n" in text(reply)  # the mail answered quoted below
        for n, reply in enumerate(sent):
            body = text(reply)
            # table talk to everyone above the first orders, as a player greets the table
            assert body.startswith("PRESS ALL\nGood luck, everyone." if n == 0 else "Hello")
            assert "\nORDERS race-1 t" in body and "\nEND\n" in body

        # table talk: the other's greeting, and the other's answer to this player's greeting
        other = "bruno" if player == "alice" else "alice"
        talk = {m["Subject"]: m for m in inbox if "Table talk" in m["Subject"]}
        assert set(talk) == {f"[race-1] Table talk from {other} to everyone", f"[race-1] Table talk from {other}",
                             f"[race-1] Table talk sent to {other}"}
        greeting = talk[f"[race-1] Table talk from {other} to everyone"]
        answer = talk[f"[race-1] Table talk from {other}"]
        for piece in (greeting, answer):
            assert piece["From"] == f"{other} via Referee <race-1@games.localhost>"
            assert f"{other}@players.localhost" not in piece.as_string()  # never the writer's address
            assert piece["Reply-To"].startswith(f"race-1+{player}+9")  # a reply code, not the token
        assert f"Good luck, everyone. {other.capitalize()} here" in text(greeting)
        assert f"Thanks, {player.capitalize()}, and the same to you." in text(answer)
        assert "wrote:" not in text(answer)  # the quote below the answer stays behind
        answered = [m for m in every if "\nORDERS race-1 t" not in text(m)]
        # the first piece that came is answered, once, whichever it was
        assert len(answered) == 1 and answered[0]["In-Reply-To"] in (greeting["Message-ID"], answer["Message-ID"])
        assert any(f"Lines 1-3: table talk to everyone, sent to {other}." in text(m) for m in inbox)

    # the daemon's inbound side: every reply came in through its SMTP server and was answered
    spooled = [email.message_from_bytes(raw, policy=policy.default) for _, raw in Spool(data / "spool").every_mail()]
    assert spooled and all(m["Delivered-To"].startswith("race-1+") for m in spooled)
    assert sorted(m["Message-ID"] for m in spooled) == sorted(
        m["Message-ID"] for p in ("alice", "bruno") for m in mails(data / "mailboxes" / p / ".Sent"))


def test_verbose_shows_the_daemons_log_as_it_goes(run, race_registered, tmp_path):
    data = tmp_path / "data"
    result = run("--data-dir", str(data), "demo", "--game", "race", "--players", "2", "--seed", "loud", "--verbose")
    assert result.exit_code == 0, result.output
    # the daemon's thread here logs to our standard error; its worker processes write to theirs, the terminal
    assert "referee.daemon listening on 127.0.0.1:" in result.stderr
    assert not (data / "daemon.log").exists() and "Daemon log:" not in result.stdout


def test_a_progress_line_holds_a_long_phase_name(capsys):
    from commands.demo.command import PROGRESS_HEAD, _show_tick
    from commands.demo.run import Tick

    _show_tick(Tick(3.25, 2, "ship arrival (lighthouse order)", 5, 17))
    _show_tick(Tick(123.0, 12, "action turn", 1234, 20345))
    _show_tick(Tick(130.0, None, None, 1240, 20400))
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["  3.2s         5   17  round 2: ship arrival (lighthouse order)",
                     "123.0s      1234 20345  round 12: action turn",
                     "130.0s      1240 20400  (still playing)"]
    assert PROGRESS_HEAD.index("phase") == lines[0].index("round")  # the header sits over its columns


def test_the_same_seed_plays_the_same_game(run, race_registered, tmp_path):
    ends = []
    for n in (1, 2):
        data = tmp_path / f"d{n}"
        result = run("--data-dir", str(data), "demo", "--game", "race", "--players", "3", "--seed", "again")
        assert result.exit_code == 0, result.output
        ends.append((data / "race-1.log").read_text().splitlines()[-1].split("\t")[1])
    assert ends[0] == ends[1]


def test_a_simultaneous_set_written_over_several_mails_keeps_its_earlier_orders(run, tmp_path, monkeypatch):
    """One order per mail: in a simultaneous phase each new set replaces the last, so the bot
    must write its earlier orders again with the new one (PICK, then PICK + DONE)."""
    real = registry.games()
    monkeypatch.setattr(registry, "games", lambda: {**real, "simul": Simul()})
    monkeypatch.setattr(commands.demo.bot, "MAX_ORDERS_PER_MAIL", 1)
    data = tmp_path / "data"
    result = run("--data-dir", str(data), "demo", "--game", "simul", "--players", "3", "--seed", "one-by-one")
    assert result.exit_code == 0, result.output
    assert "refused" not in result.stdout and "referee replay simul-1.log: OK" in result.stdout
    for player in ("alice", "bruno", "chiara"):
        sets = [text(m).split("ORDERS simul-1 ")[1].split("\nEND\n")[0].splitlines()[1:]
                for m in mails(data / "mailboxes" / player / ".Sent") if "ORDERS simul-1 " in text(m)]
        orders = [[line for line in lines if not line.startswith("#")] for lines in sets]
        assert len(orders) == 4  # two rounds, two mails each
        assert [len(o) for o in orders] == [1, 2, 1, 2] and orders[1][1] == "DONE"
        assert orders[1][0] == orders[0][0] and orders[3][0] == orders[2][0]


def test_a_refused_set_is_rewritten_and_the_game_goes_on(run, race_registered, tmp_path, monkeypatch):
    choose = MailBot.choose
    first: set[str] = set()

    def clumsy(bot, state, key, limit=12, rng=None):
        if bot.name not in first:  # each player's first mail asks for something illegal
            first.add(bot.name)
            return ["ADD 9"]
        return choose(bot, state, key, limit, rng)

    monkeypatch.setattr(MailBot, "choose", clumsy)
    data = tmp_path / "data"
    result = run("--data-dir", str(data), "demo", "--game", "race", "--players", "2", "--seed", "oops")
    assert result.exit_code == 0, result.output
    assert "referee replay race-1.log: OK" in result.stdout
    assert "The referee refused 2 set(s) of orders, each with the reason" in result.stdout
    notices = [m for m in mails(data / "mailboxes" / "alice") if m["Subject"] == "[race-1] Orders not accepted"]
    assert len(notices) == 1 and "ADD 9" in text(notices[0]) and "[illegal]" in text(notices[0])


def test_a_bot_that_is_always_refused_stops_and_the_demo_fails_clearly(run, race_registered, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setattr(MailBot, "choose", lambda bot, state, key, limit=12, rng=None: ["ADD 9"])
    result = run("--data-dir", str(tmp_path / "data"), "demo", "--game", "race", "--players", "2",
                 "--seed", "never")
    assert result.exit_code == 1
    assert "alice: orders for phase t0 were refused 5 times" in result.stderr
    assert "[illegal]" in result.stderr or "line 1" in result.stderr


def test_a_bot_that_breaks_ends_the_demo_at_once(run, race_registered, tmp_path, monkeypatch):
    def broken(bot, state, key, limit=12, rng=None):
        raise RuntimeError("out of ideas")

    monkeypatch.setattr(MailBot, "choose", broken)
    result = run("--data-dir", str(tmp_path / "data"), "demo", "--game", "race", "--players", "2", "--seed", "x")
    assert result.exit_code == 1
    assert "alice stopped: RuntimeError: out of ideas" in result.stderr


def test_a_stalled_game_ends_the_demo_with_where_it_stands(run, race_registered, tmp_path, monkeypatch):
    monkeypatch.setattr(MailBot, "_send", lambda bot, *args: None)  # bots that never write
    result = run("--data-dir", str(tmp_path / "data"), "demo", "--game", "race", "--players", "2",
                 "--seed", "mute", "--stall-timeout", "1")
    assert result.exit_code == 1
    assert "the game stalled: no mail for" in result.stderr
    assert "phase t0 (add) waits for alice" in result.stderr


def test_a_non_empty_data_directory_is_refused(run, race_registered, tmp_path):
    (tmp_path / "games").mkdir()
    result = run("--data-dir", str(tmp_path), "demo", "--game", "race")
    assert result.exit_code == 2 and "needs an empty data directory" in result.output


def test_without_keep_the_temporary_directory_is_removed(run, race_registered, tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)
    result = run("demo", "--game", "race", "--players", "2", "--seed", "tmp")
    assert result.exit_code == 0, result.output
    assert "Data directory kept" not in result.stdout
    assert list(tmp_path.iterdir()) == []


@slow
def test_constantinopolis_by_mail(run, tmp_path):
    data = tmp_path / "data"
    result = run("--data-dir", str(data), "demo", "--players", "2", "--seed", "s1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Constantinopolis, 2 players: alice, bruno; seed s1; bots: plans" in out
    assert "mails per player per round" in out
    assert "round 9:" in out and "Constantinopolis: final standings" in out
    assert "referee replay constantinopolis-1.log: OK" in out
    assert run("replay", str(data / "constantinopolis-1.log")).exit_code == 0


@slow
def test_porto_carthago_by_mail_from_the_installed_command(tmp_path):
    """The real entry point in its own process, as `make demo` runs it."""
    data = tmp_path / "data"
    env = dict(os.environ, REFEREE_DATA=str(data))
    done = subprocess.run([sys.executable, "-m", "commands", "demo", "--game", "porto-carthago",
                           "--players", "3", "--seed", "s1"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Porto Carthago: final standings" in done.stdout
    assert "OK: replayed" in done.stdout
    replay = subprocess.run([sys.executable, "-m", "commands", "replay", str(data / "porto-1.log")],
                            capture_output=True, text=True, timeout=300)
    assert replay.returncode == 0 and replay.stdout.startswith("OK:")
