"""The `referee` command line: one click group, one module per command group."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from referee import config

from .common import Group

# Each command by name, imported when it is run or listed (commands/common.py, Group).
COMMANDS = {
    "games": "commands.listing:games_command",
    "demo": "commands.demo.command:demo_command",
    **{name: f"commands.games_admin:{name}_command" for name in ("new", "list", "status", "show")},
    **{name: f"commands.play:{name}_command" for name in ("orders", "adjudicate")},
    **{name: f"commands.moderation:{name}_command" for name in ("history", "undo", "replace", "drop")},
    **{name: f"commands.press:{name}_command" for name in ("press", "notice")},
    **{name: f"commands.records:{name}_command" for name in ("log", "replay")},
    "case": "commands.cases:case_group",
    "serve": "commands.mail:serve_command",
    "ingest": "commands.mail:ingest_command",
    "recipient-check": "commands.mail:recipient_check_command",
    "outbox": "commands.mail:outbox_group",
    "config": "commands.mail:config_group",
    "spool": "commands.spool:spool_group",
    "signups": "commands.signups:signups_group",
    "tournament": "commands.tournament:tournament_group",
    "policy": "commands.deadlines:policy_group",
    **{name: f"commands.deadlines:{name}_command"
       for name in ("tick", "extend", "pause", "resume", "vacation", "timezone", "notify", "language")},
}


@click.group(cls=Group, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="REFEREE_CONFIG",
    default=None,
    help="TOML settings file (also REFEREE_CONFIG); without one the built-in defaults apply.",
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="REFEREE_DATA",
    default=None,
    help="Where games, spool and outbox live (also REFEREE_DATA; default: data_dir of the settings, ./var).",
)
@click.pass_context
def cli(ctx: click.Context, config_path: Path | None, data_dir: Path | None) -> None:
    """Referee: play board games by mail and from the command line.

    Players mail orders; Referee checks them against the rules, answers every mail, keeps
    every turn and reports each resolved phase. Moderators run games from here too.

    Exit status: 0 done; 1 refused or rejected (bad orders, illegal action, unknown game);
    2 usage errors; 70 an unexpected failure; 74 a damaged data file or a disk error;
    75 the game file is busy (try again). Every command's statuses: docs/cli.md.
    """
    try:
        settings = config.load(config_path)
    except config.ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    if data_dir is not None:
        settings = replace(settings, data_dir=data_dir)
    # a caller (a test) may hand in a clock through obj; everything else comes from here
    ctx.obj = {**(ctx.obj or {}), "settings": settings, "data_dir": settings.data_dir}


def main() -> None:
    cli(prog_name="referee")
