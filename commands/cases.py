"""`referee case run`: rulebook cases as executable files (format in docs/cases.md)."""

from __future__ import annotations

from pathlib import Path

import click

from .common import EXIT_REFUSED


@click.group("case")
def case_group() -> None:
    """Run case files: set up a position, give orders, check what must be true."""


@click.command("run")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def run_command(files: tuple[Path, ...]) -> None:
    """Run case files; print PASS or FAIL for each with what differed. Exit 1 if any fails."""
    from referee import registry  # every game and the case runner: for this command only
    from referee.cases import run_case

    failed = 0
    for path in files:
        result = run_case(path.read_text(encoding="utf-8"), registry.get, str(path))
        if result.ok:
            click.echo(f"PASS {path}")
            continue
        failed += 1
        click.echo(f"FAIL {path}")
        for failure in result.failures:
            click.echo(f"  {failure}")
    click.echo(f"{len(files) - failed} passed, {failed} failed")
    if failed:
        raise SystemExit(EXIT_REFUSED)


case_group.add_command(run_command)
