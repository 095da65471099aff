"""`referee press` and `referee notice`: the moderator reads a game's table talk, sets what it
allows, and writes to every player."""

from __future__ import annotations

import sys

import click

from .common import echo_json, handles_errors, referee


@click.command("press")
@click.argument("game_id")
@click.option("--as", "as_player", default=None, metavar="PLAYER",
              help="Only what this player sent and got, as their HISTORY shows it.")
@click.option("--set", "assignments", multiple=True, metavar="KEY=VALUE",
              help="Change an option: press=none|public|private, press_in_archive=none|public|all, "
                   "press_after_end=true|false; repeatable. Players are told when `press` changes.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def press_command(ctx: click.Context, game_id: str, as_player: str | None, assignments: tuple[str, ...],
                  as_json: bool) -> None:
    """Read every piece of a game's table talk, private ones included (players write it with
    PRESS ALL or PRESS and names at the start of a mail), and the options that govern it."""
    svc = referee(ctx)
    options = svc.press_options(game_id, list(assignments))
    records = [] if assignments else svc.press_records(game_id, as_player)
    if as_json:
        echo_json({"options": options, "press": records})
        return
    after = "yes" if options["press_after_end"] else "no"
    click.echo(f"Table talk in {game_id}: {options['press']}; the game record shows "
               f"{options['press_in_archive']}; after the end: {after}.")
    if assignments:
        return
    if not records:
        click.echo("No table talk yet.")
    for record in records:
        sender = record["from"] or "the moderator (notice)"
        readers = "everyone" if record["all"] else ", ".join(record["to"])
        files = record.get("attachments") or []
        kept = f"; not passed on: {', '.join(files)}" if files else ""
        click.echo(f"\n#{record['n']} {record['at']} phase {record.get('phase') or '-'}: {sender} to {readers}"
                   f"{' (' + ', '.join(record['to']) + ')' if record['all'] else ''}{kept}")
        for line in record["text"].splitlines():
            click.echo(f"    {line}")


@click.command("notice")
@click.argument("game_id")
@click.argument("text")
@click.pass_context
@handles_errors
def notice_command(ctx: click.Context, game_id: str, text: str) -> None:
    """Mail a notice from the moderator to every player still in the game, at once (TEXT, or
    '-' to read it from standard input). It is kept with the game's table talk."""
    if text == "-":
        text = sys.stdin.read()
    done = referee(ctx).notice(game_id, text)
    click.echo(f"Notice #{done['n']} sent to {', '.join(done['to']) or 'nobody'}.")
