"""The `referee` command line: one click group, one module per command group."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from referee import config

from . import cases, deadlines, games_admin, listing, mail, moderation, play, records, signups, spool, tournament
from .demo import command as demo
from .common import Group


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
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


cli.add_command(listing.games_command)
cli.add_command(demo.demo_command)
for _command in (games_admin.new_command, games_admin.list_command, games_admin.status_command,
                 games_admin.show_command, play.orders_command, play.adjudicate_command,
                 moderation.history_command, moderation.undo_command, moderation.replace_command,
                 moderation.drop_command, records.log_command, records.replay_command, cases.case_group,
                 mail.serve_command, mail.ingest_command, mail.recipient_check_command, mail.outbox_group, mail.config_group,
                 spool.spool_group, signups.signups_group, tournament.tournament_group, *deadlines.COMMANDS):
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="referee")
