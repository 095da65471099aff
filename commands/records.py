"""`referee log` and `referee replay`: the portable, tamper-evident game record."""

from __future__ import annotations

import click

from .common import EXIT_REFUSED, echo_out, fail, handles_errors, referee


@click.command("log")
@click.argument("game_id")
@click.option("--reveal-seed", is_flag=True,
              help="Include the seed even though the game is not over (for the moderator's own copy).")
@click.option("--press", "press", type=click.Choice(["none", "public", "all"]), default=None,
              help="Which table talk the record shows (default: the game's press_in_archive option).")
@click.pass_context
@handles_errors
def log_command(ctx: click.Context, game_id: str, reveal_seed: bool, press: str | None) -> None:
    """Write the game record (text orders, hash-chained, with the table talk the game's
    options let it show) to standard output."""
    service = referee(ctx)
    if service.load(game_id).meta.get("status") == "open":
        fail(f"{game_id} has not started yet: its record begins when it starts")
    echo_out(service.game_record(game_id, press=press, reveal_seed=reveal_seed), nl=False)


@click.command("replay")
@click.argument("log_file", type=click.File("r", encoding="utf-8"))
@click.option("--seed", default=None, help="The seed, for a log of a game that is not over yet.")
def replay_command(log_file, seed: str | None) -> None:
    """Recompute a game from its record; exit 0 only if every hash link and the final state match."""
    from referee import registry  # every game and the log's reader: for this command only
    from referee.gamelog import replay_log

    result = replay_log(log_file.read(), registry.get, seed=seed)
    if result.ok:
        click.echo(f"OK: {result.message}")
        return
    where = f"line {result.line}: " if result.line else ""
    click.echo(f"FAILED: {where}{result.message}", err=True)
    raise SystemExit(EXIT_REFUSED)
