"""The command line: help texts, errors, `referee games`, `referee demo` arguments (the demo
itself is in tests/demo)."""

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from commands.main import cli
from referee import registry


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args, **kw):
        return runner.invoke(cli, list(args), catch_exceptions=False, **kw)

    return invoke


def test_help_lists_every_command(run):
    result = run("--help")
    assert result.exit_code == 0
    ctx = click.Context(cli, info_name="referee")
    names = cli.list_commands(ctx)
    assert len(names) == 34
    for name in names:
        command = cli.get_command(ctx, name)
        assert name in result.output
        sub = run(name, "--help")
        assert sub.exit_code == 0, name
        assert command.help.split("\n")[0].strip() in " ".join(sub.output.split())


# what a process that runs `referee ARGS` has imported when it ends, one name a line on stderr
IMPORTED = ("import atexit, sys; atexit.register(lambda: sys.stderr.write('\\n'.join(sorted(sys.modules)))); "
            "from commands.main import main; main()")


def imported(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", IMPORTED, *args], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    return set(done.stderr.split())


def test_a_command_imports_only_what_it_needs(tmp_path):
    """Every process the tests, an MTA's pipe or cron start pays for what it imports: `--help`
    reads the commands' options without the daemon, the templates or TinyDB, and a command
    that works on the games (`list`) without the mail worker and the SMTP server."""
    daemon = {"mailer.daemon.serve", "mailer.daemon.worker", "mailer.daemon.handler", "mailer.inbound.message",
              "aiosmtpd", "commands.demo.run", "tarfile"}
    assert not imported("--help") & (daemon | {"mailer.daemon.wiring", "referee.service", "jinja2", "tinydb"})
    listing = imported("--data-dir", str(tmp_path), "list")
    assert {"mailer.daemon.wiring", "referee.service", "commands.games_admin"} <= listing
    assert not listing & (daemon | {"commands.tournament", "commands.mail"})


def test_unknown_command_and_bad_arguments_fail_clearly(run):
    result = run("nosuch")
    assert result.exit_code == 2 and "No such command 'nosuch'" in result.output
    result = run("demo", "--players", "9")
    assert result.exit_code == 2 and "--players" in result.output
    result = run("games", "--bogus")
    assert result.exit_code == 2 and "No such option" in result.output


def test_games_lists_installed_games_with_player_counts(run, race_registered, monkeypatch):
    monkeypatch.setattr(registry, "broken", lambda: {})
    result = run("games")
    assert result.exit_code == 0
    line = next(l for l in result.output.splitlines() if l.startswith("race"))
    assert "Race to the Target" in line and "2-4 players" in line
    assert "--option target=21" in result.output
    data = json.loads(run("games", "--json").output)
    race = next(g for g in data["games"] if g["name"] == "race")
    assert (race["min_players"], race["max_players"]) == (2, 4)


def test_a_game_that_fails_to_load_is_reported(run, race_registered, monkeypatch):
    monkeypatch.setattr(registry, "broken", lambda: {"oops": "cannot load x:GAME: ImportError"})
    result = run("games")
    assert result.exit_code == 1
    assert "oops: not available" in result.stderr
    assert "race" in result.stdout


def test_demo_refuses_unknown_games_and_wrong_player_counts(run, race_registered):
    result = run("demo", "--game", "rcae")
    assert result.exit_code == 2 and "Did you mean 'race'" in result.output
    result = run("demo", "--game", "race", "--players", "5")
    assert result.exit_code == 2 and "2-4 players" in result.output
