"""The `referee` command line."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee")
def cli() -> None:
    """Referee: play board games by mail and from the command line."""


def main() -> None:
    cli()
