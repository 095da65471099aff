"""`referee case run`: rulebook cases as executable files (format in docs/cases.md)."""

from __future__ import annotations

import click


@click.group("case")
def case_group() -> None:
    """Run case files: set up a position, give orders, check what must be true."""
