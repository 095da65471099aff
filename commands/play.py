"""`referee orders` and `referee adjudicate`: moving a game forward from the command line."""

from __future__ import annotations

import sys

import click

from .common import EXIT_REFUSED, echo_json, handles_errors, referee


@click.command("orders")
@click.argument("game_id")
@click.argument("player")
@click.argument("source", required=False, metavar="[-]")
@click.option("--file", "-f", "path", type=click.File("r", encoding="utf-8"), default=None,
              help="Read the orders from this file ('-' for standard input).")
@click.option("--token", default=None, help="The player's secret token; checked when given.")
@click.option("--message-id", default=None, help="An id for this submission; a repeat is processed once.")
@click.option("--phase", "phase_key", default=None, help="Refuse the orders unless this phase is open.")
@click.option("--check", "check_only", is_flag=True,
              help="Only show the receipt these orders would get now; nothing is submitted or changed.")
@click.option("--json", "as_json", is_flag=True, help="Print the receipt as JSON.")
@click.pass_context
@handles_errors
def orders_command(ctx: click.Context, game_id: str, player: str, source: str | None, path,
                   token: str | None, message_id: str | None, phase_key: str | None, check_only: bool,
                   as_json: bool) -> None:
    """Submit a player's orders (from --file, or '-' / nothing for standard input) and print
    the receipt. This is the same path orders by mail take. With --check, print the receipt
    they would get and change nothing (CHECK by mail).

    Exit status 1 when the orders are rejected or refused (with --check: would be); the game
    is then unchanged.
    """
    from referee.receipts import ACCEPTED, DUPLICATE  # with the service, not with `referee --help`

    if source not in (None, "-"):
        raise click.BadParameter("give '-' to read standard input, or use --file", param_hint="[-]")
    text = path.read() if path is not None else sys.stdin.read()
    if check_only:
        receipt = referee(ctx).check(game_id, player, text, token=token, phase_key=phase_key)
        if not as_json:
            click.echo("CHECK only: nothing was submitted and the game is unchanged.\n")
    else:
        receipt = referee(ctx).submit(game_id, player, text, token=token, message_id=message_id,
                                      phase_key=phase_key, source="cli")
    if as_json:
        echo_json(receipt.to_json())
    else:
        click.echo(receipt.render(), nl=False)
    if receipt.status not in (ACCEPTED, DUPLICATE):
        raise SystemExit(EXIT_REFUSED)


@click.command("adjudicate")
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def adjudicate_command(ctx: click.Context, game_id: str, as_json: bool) -> None:
    """Close the open phase now, giving every player still asked their default orders."""
    report = referee(ctx).adjudicate(game_id)
    if as_json:
        echo_json(report.to_json())
        return
    closed = report.closed
    click.echo(f"Closed {closed['name']} (round {closed['round']}, phase {closed['key']}) of {game_id}.")
    for item in report.applied:
        click.echo(f"  default for {item['player']}: {item['text'].replace(chr(10), ' | ') or '(nothing)'}")
    if report.finished:
        click.echo("The game is over.")
    elif report.opened:
        opened = report.opened
        click.echo(f"Now open: {opened['name']} (round {opened['round']}, phase {opened['key']}).")
