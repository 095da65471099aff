"""`referee games`: which games are installed."""

from __future__ import annotations

import json

import click

from referee import registry


@click.command("games")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def games_command(as_json: bool) -> None:
    """List the installed games with their player counts and options."""
    table = registry.games()
    broken = registry.broken()
    if as_json:
        rows = [
            {
                "name": g.name,
                "title": g.title,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "rules_version": g.rules_version,
                "options": {o.name: o.default for o in g.options},
            }
            for g in table.values()
        ]
        click.echo(json.dumps({"games": rows, "broken": broken}, indent=2, ensure_ascii=False))
    else:
        if not table:
            click.echo("No games are installed.")
        for game in table.values():
            click.echo(f"{game.name:<20} {game.title:<22} {game.min_players}-{game.max_players} players")
            for option in game.options:
                click.echo(f"    --option {option.name}={json.dumps(option.default)}  {option.help}")
        for name, reason in broken.items():
            click.echo(f"{name}: not available ({reason})", err=True)
    if broken:
        raise SystemExit(1)
