"""`referee signups`: an open game's seats and waiting sign-ups, and the moderator's approval
or refusal of them (games made with `new --open --approve`)."""

from __future__ import annotations

import click

from .common import echo_json, handles_errors, referee


@click.group("signups")
def signups_group() -> None:
    """An open game's sign-ups: show them, approve or decline one."""


@signups_group.command("show")
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def show_command(ctx: click.Context, game_id: str, as_json: bool) -> None:
    """The seats taken and the sign-ups that wait for a reply or for approval."""
    info = referee(ctx).signups(game_id)
    if as_json:
        echo_json(info)
        return
    how = "the moderator approves each player" if info["approve"] else "players confirm by mail"
    click.echo(f"{info['id']}: {info['start']}; {how}")
    click.echo(f"Seated ({len(info['seats'])}):")
    for seat in info["seats"]:
        click.echo(f"  {seat['name']:<16} <{seat['email']}>")
    click.echo(f"Waiting ({len(info['pending'])}):")
    for item in info["pending"]:
        click.echo(f"  {item['name']:<16} <{item['email']}>  since {item['at']}")


@signups_group.command("approve")
@click.argument("game_id")
@click.argument("name")
@click.pass_context
@handles_errors
def approve_command(ctx: click.Context, game_id: str, name: str) -> None:
    """Seat a waiting sign-up; the game starts if that fills it."""
    done = referee(ctx).approve(game_id, name)
    click.echo(f"{done['name']} <{done['email']}> is seated in {game_id}."
               + (" The game has started." if done["started"] else ""))


@signups_group.command("decline")
@click.argument("game_id")
@click.argument("name")
@click.option("--reason", default="", help="Told to the address that signed up.")
@click.pass_context
@handles_errors
def decline_command(ctx: click.Context, game_id: str, name: str, reason: str) -> None:
    """Turn a waiting sign-up down; its address is told."""
    referee(ctx).decline(game_id, name, reason)
    click.echo(f"The sign-up of {name} in {game_id} is declined.")
