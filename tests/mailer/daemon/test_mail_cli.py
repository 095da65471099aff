"""`referee ingest`, `outbox`, `config show` and `serve` from the command line."""

import json
import os
import signal
import smtplib
import subprocess
import sys
import time
from email.message import EmailMessage

import pytest
from click.testing import CliRunner

from commands.main import cli
from referee import registry

from ..net import free_port


def run(*args, input=None, env=None):
    return CliRunner().invoke(cli, list(args), input=input, env=env, catch_exceptions=False)


@pytest.fixture
def game(tmp_path, race_registered):
    data = tmp_path / "var"
    result = run("--data-dir", str(data), "new", "race", "--player", "ann:ann@p.test", "--player",
                 "bob:bob@p.test", "--seed", "s", "--id", "race-1", "--json")
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    tokens = {p["name"]: p["token"] for p in info["players"]}
    return data, tokens


def mail_bytes(to, body, frm="ann@p.test", mid="<m1@p.test>"):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = frm, to, "orders", mid
    msg.set_content(body)
    return bytes(msg)


def relay_files(data):
    return sorted((data / "relay" / "new").iterdir())


def test_new_game_reports_are_captured_in_the_local_relay(game):
    data, _ = game
    assert run("--data-dir", str(data), "outbox", "retry").exit_code == 0
    texts = [p.read_text() for p in relay_files(data)]
    assert len(texts) == 2 and sum("ORDERS race-1 t0" in t for t in texts) == 1  # only ann is asked


def test_ingest_from_stdin_submits_and_answers(game):
    data, tokens = game
    raw = mail_bytes(f"race-1+ann+{tokens['ann']}@localhost", "ADD 2\n")
    chose = run("--data-dir", str(data), "notify", "race-1", "ann", "each")  # a receipt for every mail
    assert chose.exit_code == 0 and "a mail for everything as it happens" in chose.output
    result = run("--data-dir", str(data), "ingest", input=raw)
    assert result.exit_code == 0, result.output
    assert "<m1@p.test> accepted: race-1 ann" in result.stderr  # the Message-ID, as the MTA's log names it
    assert run("--data-dir", str(data), "status", "race-1", "--json").exit_code == 0
    receipts = [p.read_text() for p in relay_files(data) if "Orders received" in p.read_text()]
    assert len(receipts) == 1 and "ADD 2" in receipts[0]
    out = run("--data-dir", str(data), "outbox")
    assert "every mail has been delivered" in out.stdout
    assert json.loads(run("--data-dir", str(data), "outbox", "--json").stdout) == []


def test_ingest_refuses_oversized_mail_with_a_bounce_status(game, monkeypatch):
    data, tokens = game
    monkeypatch.setenv("REFEREE_LIMITS_MAX_MESSAGE_BYTES", "500")
    result = run("--data-dir", str(data), "ingest", input=mail_bytes("race-1@localhost", "x" * 2000))
    assert result.exit_code == 65 and "larger than 500 bytes" in result.stderr


def test_ingest_from_a_maildir(game, tmp_path):
    data, tokens = game
    import mailbox

    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    box.add(mail_bytes(f"race-1+ann+{tokens['ann']}@localhost", "ADD 1\n"))
    result = run("--data-dir", str(data), "ingest", "--maildir", str(tmp_path / "inbox"))
    assert result.exit_code == 0 and "accepted" in result.stderr
    assert [m.get_subdir() for m in box] == ["cur"]
    again = run("--data-dir", str(data), "ingest", "--maildir", str(tmp_path / "inbox"))
    assert again.exit_code == 0 and "accepted" not in again.stderr


def test_config_show_layers_file_and_environment(tmp_path):
    cfg = tmp_path / "referee.toml"
    cfg.write_text('hostname = "games.example.org"\nlisten_port = 2525\n[limits]\nmax_recipients = 3\n')
    result = run("--config", str(cfg), "config", "show", env={"REFEREE_LISTEN_PORT": "2626", "REFEREE_RELAY_PASSWORD": "pw"})
    settings = json.loads(result.stdout)
    assert settings["hostname"] == "games.example.org"
    assert settings["listen_port"] == 2626
    assert settings["limits"]["max_recipients"] == 3
    assert settings["relay_password"] == "********"
    bad = tmp_path / "bad.toml"
    bad.write_text("colour = 'red'\n")
    result = run("--config", str(bad), "config", "show")
    assert result.exit_code == 2 and "unknown setting 'colour'" in result.output


@pytest.mark.parametrize("to_file", [False, True], ids=["log-to-stderr", "log-file"])
def test_serve_accepts_mail_and_stops_cleanly_on_sigterm(tmp_path, to_file):
    name = next(iter(registry.games()), None)
    if name is None:
        pytest.skip("no game installed")
    game = registry.get(name)
    data = tmp_path / "var"
    players = [f"--player=p{i}:p{i}@p.test" for i in range(game.min_players)]
    created = run("--data-dir", str(data), "new", name, *players, "--id", "g-4", "--json")
    assert created.exit_code == 0, created.output
    token = json.loads(created.stdout)["players"][0]["token"]
    port = free_port()
    env = {**os.environ, "REFEREE_DATA": str(data), "REFEREE_LISTEN_PORT": str(port),
           "REFEREE_WORKER_INTERVAL_SECONDS": "0.1", "REFEREE_WORKER_PROCESSES": "2"}
    log = tmp_path / "referee.log"
    if to_file:
        env["REFEREE_LOG_FILE"] = str(log)
    proc = subprocess.Popen([sys.executable, "-m", "commands", "serve"], env=env,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                smtp = smtplib.SMTP("127.0.0.1", port, timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.1)
        with smtp:
            with pytest.raises(smtplib.SMTPRecipientsRefused):
                smtp.sendmail("p0@p.test", ["nobody@localhost"], b"Subject: x\r\n\r\nx")
            smtp.sendmail("p0@p.test", [f"g-4+p0+{token}@localhost"],
                          mail_bytes(f"g-4+p0+{token}@localhost", "HELLO\n", frm="p0@p.test"))
        deadline = time.monotonic() + 20
        while not (data / "relay" / "new").exists() or not any(
                "Orders NOT accepted" in p.read_text() or "Orders received" in p.read_text()
                or "Not accepted" in p.read_text() for p in (data / "relay" / "new").iterdir()):
            assert time.monotonic() < deadline, "no answer was sent"
            time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    if to_file:  # the daemon's log and its worker processes' in the file, nothing on standard error
        assert err == ""
        logged = log.read_text()
        assert "listening on 127.0.0.1" in logged and "mail worker of share 1 of 2 is ready" in logged
        # g-4's mail is the share of the worker in the child process (crc32 of the id, odd)
        assert "stopped" in logged and "referee.worker mail <m1@p.test> rejected: g-4 p0" in logged
    else:
        assert "stopped" in err and not log.exists()
