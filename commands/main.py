"""The `referee` command line: one click group, one module per command group."""

from __future__ import annotations

import os
from pathlib import Path

import click

from . import demo, listing


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
    """
    ctx.obj = {"data_dir": data_dir}


cli.add_command(listing.games_command)
cli.add_command(demo.demo_command)


def main() -> None:
    cli(prog_name="referee")
