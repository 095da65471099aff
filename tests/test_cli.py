"""The command line: help texts, errors, `referee games`, `referee demo` arguments (the demo
itself is in tests/demo)."""

import json

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
    for name, command in cli.commands.items():
        assert name in result.output
        sub = run(name, "--help")
        assert sub.exit_code == 0, name
        assert command.help.split("\n")[0].strip() in " ".join(sub.output.split())


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
