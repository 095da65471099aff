"""`referee new`, `list`, `status`, `show`: creating games and looking at them."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, Callable

import click

from .common import echo_json, fail, handles_errors, referee, EXIT_USAGE


def _split_player(value: str) -> tuple[str, str]:
    name, sep, email = value.partition(":")
    if not sep or not name.strip() or not email.strip():
        raise click.BadParameter(f"{value!r} is not NAME:EMAIL", param_hint="--player")
    return name.strip(), email.strip()


def _split_bot(value: str) -> tuple[str, str | None]:
    """`NAME[:LEVEL]`: the level is checked by the service with everything else."""
    name, sep, level = value.partition(":")
    if not name.strip() or (sep and not level.strip()):
        raise click.BadParameter(f"{value!r} is not NAME or NAME:LEVEL", param_hint="--bot")
    return name.strip(), level.strip() or None


def _read_components(path: Path) -> dict:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", EXIT_USAGE)
    try:
        if path.suffix.lower() == ".toml":
            return tomllib.loads(raw.decode("utf-8"))
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        fail(f"{path} is not valid {'TOML' if path.suffix.lower() == '.toml' else 'JSON'}: {exc}", EXIT_USAGE)
    if not isinstance(data, dict):
        fail(f"{path} must hold an object/table at the top", EXIT_USAGE)
    return data


@click.command("new")
@click.argument("game_type")
@click.option("--player", "players", multiple=True, metavar="NAME:EMAIL",
              help="A player, in seat order; repeat for each player (not with --open).")
@click.option("--bot", "bots", multiple=True, metavar="NAME[:LEVEL]",
              help="A computer player (level fast or strong, default strong), seated after the --player seats; "
                   "repeatable (docs/bots.md).")
@click.option("--open", "is_open", is_flag=True,
              help="Make a game that waits for players to sign up by mail (JOIN), with --seats.")
@click.option("--seats", default=None, metavar="MIN..MAX", help="With --open: how many players it takes, e.g. 3..5.")
@click.option("--starts-when", default=None, metavar="full|DATE",
              help="With --open: start when every seat is taken (full, the default), or at DATE with at least "
                   "MIN players.")
@click.option("--approve", is_flag=True, help="With --open: the moderator approves each sign-up "
                                              "(`referee signups approve`) instead of a reply from the address.")
@click.option("--fill-with-bots", "fill", is_flag=False, flag_value="strong", default=None, metavar="[LEVEL]",
              help="With --open and --starts-when DATE: computer players (level fast or strong, default strong) "
                   "take the seats still empty at the start date.")
@click.option("--seed", default=None, help="The game's seed (default: a fresh random one).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A game option; repeatable.")
@click.option("--components", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A component data file (JSON or TOML) to use instead of the built-in set.")
@click.option("--id", "game_id", default=None, help="The game id (default: generated, e.g. race-3).")
@click.option("--policy", "policy", default=None, metavar="PRESET",
              help="Deadline preset: casual, standard or tournament (default: the default_policy setting).")
@click.option("--set", "policy_set", multiple=True, metavar="KEY=VALUE",
              help="A deadline policy key, e.g. grace=2h or deadline.auction=36h; repeatable.")
@click.option("--language", default=None, metavar="LANG",
              help="The game's language, de, en or it (default: en): every player's until they choose their own. "
                   "With --open also what LIST says the table speaks (any words; default English).")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def new_command(ctx: click.Context, game_type: str, players: tuple[str, ...], bots: tuple[str, ...], is_open: bool,
                seats: str | None, starts_when: str | None, approve: bool, fill: str | None, seed: str | None,
                options: tuple[str, ...], components: Path | None, game_id: str | None, policy: str | None,
                policy_set: tuple[str, ...], language: str | None, as_json: bool) -> None:
    """Create a game and print its id, each player's secret token and the seed commitment.
    With --open the game has no players yet: they sign up by mail (docs/players.md).

    Everything is checked before anything is created: game type, player count and names,
    email addresses, options and the component file.
    """
    if is_open and (players or bots):
        raise click.UsageError("--open makes a game that players join by mail; give no --player or --bot "
                               "(--fill-with-bots seats computer players at the start date)")
    if not is_open and (seats or starts_when or approve or fill):
        raise click.UsageError("--seats, --starts-when, --approve and --fill-with-bots go with --open")
    if is_open and not seats:
        raise click.UsageError("--open needs --seats MIN..MAX")
    if not is_open and not players and not bots:
        raise click.UsageError("give the players with --player NAME:EMAIL (and computer players with --bot NAME), "
                               "or make an open game with --open")
    pairs = [_split_player(p) for p in players]
    computers = [_split_bot(b) for b in bots]
    given: dict[str, str] = {}
    for item in options:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--option")
        given[key.strip()] = value.strip()
    data = _read_components(components) if components is not None else None
    if is_open:
        assert seats is not None
        made = referee(ctx).open_game(game_type, seats, starts_when=starts_when, approve=approve,
                                      language=language or "English",
                                      seed=seed, options=given, components=data, game_id=game_id, policy=policy,
                                      policy_set=list(policy_set), fill=fill)
        if as_json:
            echo_json(made.to_json())
            return
        click.echo(f"Created open game {made.id} ({made.game}); players join by mail with JOIN {made.id}.")
        if fill:
            click.echo(f"At the start date computer players ({fill}) take the seats still empty.")
        click.echo(f"Seed commitment (SHA-256): {made.commitment}")
        return
    made = referee(ctx).new_game(game_type, pairs, seed=seed, options=given, components=data, game_id=game_id,
                                 policy=policy, policy_set=list(policy_set), language=language, bots=computers)
    if as_json:
        echo_json(made.to_json())
        return
    click.echo(f"Created game {made.id} ({made.game}).")
    click.echo(f"Seed commitment (SHA-256): {made.commitment}")
    click.echo("Player tokens (give each player only their own):")
    for seat in made.players:
        if "computer" in seat:
            click.echo(f"  {seat['name']:<16} computer player ({seat['computer']['level']})")
        else:
            click.echo(f"  {seat['name']:<16} {seat['token']}  <{seat['email']}>")


@click.command("list")
@click.option("--open", "only_open", is_flag=True, help="Only the games open for sign-ups, as LIST by mail shows them.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def list_command(ctx: click.Context, only_open: bool, as_json: bool) -> None:
    """List the games, a line each: where each stands, whom it waits for, its deadline and
    the seats to know about; a game that needs the moderator is marked with `!`."""
    from .at_a_glance import list_rows  # the clock's wording: for the commands that show, not for every one

    svc = referee(ctx)
    if only_open:
        _rows(svc.open_games(), as_json,
              "No game is open for sign-ups; `referee new GAME --open --seats MIN..MAX` makes one.",
              lambda g: f"{g['id']:<22} {g['game']:<18} {g['taken']} of {g['max']} taken, {g['free']} free; "
                        f"{g['start']}; {g['preset']}; {g['language']}{'; approval' if g['approve'] else ''}; "
                        f"press {g['press']}")
        return
    games = svc.overview()
    if as_json:
        echo_json(games)
        return
    if not games:
        click.echo("No games yet; `referee new` creates one.")
        return
    for line in list_rows(games, svc.clock()):
        click.echo(line)


def _rows(rows: list[dict[str, Any]], as_json: bool, empty: str, line: Callable[[dict[str, Any]], str]) -> None:
    """A listing: JSON, or a line per row, or what to do when there is none."""
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo(empty)
    for row in rows:
        click.echo(line(row))


@click.command("status")
@click.argument("game_id", required=False)
@click.option("--desk", is_flag=True, help="Instead of a game: what the referee's own address answered and what "
                                           "it took without an answer.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def status_command(ctx: click.Context, game_id: str | None, desk: bool, as_json: bool) -> None:
    """Show a game's round and phase, whom it waits for and for what, since when and until
    when, and the seats to know about (on vacation, missing deadlines, offered, mail bouncing);
    or, with --desk, the counts of the referee's own address."""
    from .at_a_glance import flag_lines, status_lines  # for the commands that show, not for every one
    from .desk_status import desk_status

    if desk or game_id is None:
        if game_id is not None or not desk:
            raise click.UsageError("give a GAME_ID, or --desk alone")
        desk_status(ctx, as_json)
        return
    from referee.rendering import render

    svc = referee(ctx)
    info = svc.status(game_id)
    if as_json:
        echo_json(info)
        return
    click.echo(f"{info['id']}: {info['title']} ({info['status']})")
    if info["status"] == "open":
        signup = info["signup"]
        click.echo(f"Waiting for players: {len(info['players'])} of {signup['max']} seats taken "
                   f"({', '.join(info['players']) or 'none yet'}); the game {signup['start']}.")
        for line in status_lines(info["glance"], svc.clock()):
            click.echo(line)
        click.echo(f"Seed commitment: {info['commitment']}")
        return
    phase = info["phase"]
    click.echo(f"Round {phase['round']}, {phase['name']} (phase {phase['key']})")
    if info["waiting_for"]:
        for line in status_lines(info["glance"], svc.clock()):
            click.echo(line)
    else:
        click.echo("The game is over.")
        if info["standings"]:
            click.echo(render("standings.txt", title=info["title"] or info["game"], standings=info["standings"]),
                       nl=False)
        for line in flag_lines(info["glance"]):
            click.echo(line)
    click.echo(f"Seed commitment: {info['commitment']}")
    if info["seed"]:
        click.echo(f"Seed: {info['seed']}")


@click.command("show")
@click.argument("game_id")
@click.option("--as", "as_player", default=None, metavar="PLAYER",
              help="Show only what this player may see, laid out as in their report "
                   "(default: the moderator's full view).")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def show_command(ctx: click.Context, game_id: str, as_player: str | None, as_json: bool) -> None:
    """Show the whole table as the moderator sees it, in plain text, with what the players
    cannot see marked; with --as, only what that player sees, laid out as in their report."""
    from mailer.outbound.reports import view_text  # the templates: for the commands that show, not for every one
    from referee.rendering import render, wrap

    from .at_a_glance import who_and_what
    from .table_text import LEGEND, table_text

    service = referee(ctx)
    view = service.show(game_id, as_player)
    if as_json:
        echo_json(view)
        return
    if as_player is not None:
        # laid out as in the player's report: the game's own view partial, or generic rows
        name = as_player.strip().lower()
        click.echo(f"{game_id} as seen by {name}:\n")
        click.echo(view_text(service.game_of(service.load(game_id).meta), view, name), nl=False)
        return
    stored = service.load(game_id)
    game = service.game_of(stored.meta)
    facts = service.glance(game_id)
    phase = facts["phase"]
    click.echo(f"{game_id} as seen by the moderator: {game.title}, round {phase['round']}, {phase['name']} "
               f"(phase {phase['key']})")
    for line in facts["waiting"]:
        click.echo(f"Waiting for {who_and_what(line)}")
    click.echo(wrap(LEGEND, 0, 0, 78))
    click.echo("")
    click.echo(table_text(game, stored.state, stored.meta["players"]), nl=False)
    standings = service.status(game_id)["standings"]
    if standings:
        click.echo("")
        click.echo(render("standings.txt", title=game_id, standings=standings), nl=False)
