"""The `referee` command line: one click group, one module per command group."""

from __future__ import annotations

import os
from pathlib import Path

import click

from . import cases, demo, games_admin, listing, moderation, play, records


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "referee"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="REFEREE_DATA",
    default=default_data_dir,
    show_default="$XDG_DATA_HOME/referee",
    help="Where games are stored (also REFEREE_DATA).",
)
@click.pass_context
def cli(ctx: click.Context, data_dir: Path) -> None:
    """Referee: play board games by mail and from the command line.

    Players mail orders; Referee checks them against the rules, answers every mail, keeps
    every turn and reports each resolved phase. Moderators run games from here too.

    Exit status: 0 done; 1 refused or rejected (bad orders, illegal action, unknown game);
    2 usage errors; 75 the game file is busy (try again).
    """
    ctx.obj = {"data_dir": data_dir}


cli.add_command(listing.games_command)
cli.add_command(demo.demo_command)
for _command in (games_admin.new_command, games_admin.list_command, games_admin.status_command,
                 games_admin.show_command, play.orders_command, play.adjudicate_command,
                 moderation.history_command, moderation.undo_command, moderation.replace_command,
                 moderation.drop_command, records.log_command, records.replay_command, cases.case_group):
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="referee")
