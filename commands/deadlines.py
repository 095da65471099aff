"""`referee policy`, `tick`, `extend`, `pause`, `resume`, `vacation`, `timezone`, `notify`:
the clock of a game, the rules it runs by, and when its players get mail; and `language`, the
other lever a player has on their mail."""

from __future__ import annotations

from datetime import datetime

import click

from referee.i18n import NAMES
from referee.timekeeping import TimeError, from_iso, parse_moment, show_moment

from .common import echo_json, fail, handles_errors, referee, services, EXIT_USAGE


def _when(iso: str | None) -> str:
    return show_moment(from_iso(iso)) if iso else "none"


@click.group("policy")
def policy_group() -> None:
    """Show or change a game's deadline policy (presets: casual, standard, tournament)."""


@policy_group.command("show")
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def policy_show(ctx: click.Context, game_id: str, as_json: bool) -> None:
    """Every policy key with its value and where it comes from, and the open deadline."""
    info = referee(ctx).policy_show(game_id)
    if as_json:
        echo_json(info)
        return
    if info["policy"] is None:
        click.echo(f"{game_id} has no deadline policy: no deadlines, no reminders.")
        click.echo(f"Set one with: referee policy set {game_id} preset=standard --reason \"...\"")
        return
    click.echo(f"{game_id}: preset {info['policy']['preset']}")
    for row in info["rows"]:
        source = "set for this game" if row["from"] == "set" else f"preset {row['from']}"
        click.echo(f"  {row['key']:<20} {row['value'] or '(none)':<28} {source}")
    deadline = info["deadline"]
    if deadline:
        click.echo(f"Open phase {deadline['phase']} ({deadline['kind']}): deadline {_when(deadline['due'])}"
                   + (f", grace until {_when(deadline['grace_until'])}" if deadline["grace_until"] and
                      deadline["grace_until"] != deadline["due"] else ""))
    if info["paused"]:
        click.echo(f"Paused since {_when(info['paused']['since'])}: {info['paused']['reason']}")
    for player, count in sorted(info["misses"].items()):
        click.echo(f"  {player} has missed {count} deadline(s) in a row")
    for player, vacation in sorted(info["vacations"].items()):
        click.echo(f"  {player} is on vacation until {_when(vacation['until'])}")
    for player, used in sorted(info["vacation_used"].items()):
        click.echo(f"  {player} has used {used} of vacation quota")


@policy_group.command("set")
@click.argument("game_id")
@click.argument("assignments", nargs=-1, required=True, metavar="KEY=VALUE...")
@click.option("--reason", required=True, help="Why; logged and sent to the players with the change.")
@click.pass_context
@handles_errors
def policy_set(ctx: click.Context, game_id: str, assignments: tuple[str, ...], reason: str) -> None:
    """Change policy keys, e.g. `grace=2h reminders=24h,2h deadline.auction=36h`.

    `preset=NAME` starts again from a preset; `KEY=` returns a key to the preset's value.
    The change is logged with the reason and announced to every player by mail.
    """
    done = referee(ctx).policy_set(game_id, list(assignments), reason)
    if not done["changes"]:
        click.echo(f"Policy of {game_id} unchanged: it already says that. Nothing is announced.")
        return
    told = "announced to the players" if done["announced"] else "kept for this game; unchanged for the players, " \
        "so not announced"
    click.echo(f"Policy of {game_id} changed ({told}):")
    for line in done["changes"]:
        click.echo(f"  {line}")
    for key in done["unchanged"]:
        click.echo(f"  {key}: unchanged")


@click.command("tick")
@click.option("--now", "now_text", default=None, metavar="ISO",
              help="Act as if it were this moment (UTC unless an offset is given); default: the clock.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def tick_command(ctx: click.Context, now_text: str | None, as_json: bool) -> None:
    """Process due deadlines and reminders of every game, play the decisions computer players
    owe, send the mail, and exit (for cron).

    Safe to run as often as you like, and alongside `referee serve`: nothing is ever done twice.
    """
    now: datetime | None = None
    if now_text is not None:
        try:
            now = parse_moment(now_text)
        except TimeError as exc:
            fail(f"--now: {exc}", EXIT_USAGE)
    root = ctx.find_root()
    if now is not None:
        root.obj = dict(root.obj or {}, clock=lambda: now)
    svc = services(ctx)
    actions = svc.tick(now, computers=True)
    try:
        report = svc.send()
    except OSError as exc:  # the relay's trouble: the mail stays queued for the next run
        click.echo(f"note: mail stays queued: {exc}", err=True)
    else:
        if report.troubles:  # which mail to which address was deferred or refused, for cron's log
            click.echo(f"note: {report.summary()}", err=True)
    if as_json:
        echo_json([a.to_json() for a in actions])
        return
    if not actions:
        click.echo("Nothing due.")
    for a in actions:
        who = f" [{', '.join(a.players)}]" if a.players else ""
        click.echo(f"{a.game}: {a.action}: {a.detail}{who}")


@click.command("extend")
@click.argument("game_id")
@click.option("--by", "by", required=True, metavar="DURATION", help="How much later, e.g. 12h, 2d, 1d12h.")
@click.option("--reason", required=True, help="Why; logged and sent to the players.")
@click.pass_context
@handles_errors
def extend_command(ctx: click.Context, game_id: str, by: str, reason: str) -> None:
    """Move the open phase's deadline later; logged and announced."""
    done = referee(ctx).extend(game_id, by, reason)
    click.echo(f"Deadline of phase {done['phase']} in {game_id} moved by {done['by']}: now {_when(done['due'])}.")


@click.command("pause")
@click.argument("game_id")
@click.option("--reason", required=True, help="Why; logged and sent to the players.")
@click.pass_context
@handles_errors
def pause_command(ctx: click.Context, game_id: str, reason: str) -> None:
    """Stop a game's clock: no deadline passes, no reminder goes out; orders are still taken."""
    referee(ctx).pause(game_id, reason)
    click.echo(f"{game_id} is paused; `referee resume {game_id}` starts the clock again.")


@click.command("resume")
@click.argument("game_id")
@click.option("--reason", default="", help="Why; logged and sent to the players.")
@click.pass_context
@handles_errors
def resume_command(ctx: click.Context, game_id: str, reason: str) -> None:
    """Start a paused game's clock again; its deadline moves by the time it stood still."""
    done = referee(ctx).resume(game_id, reason)
    tail = f"; the deadline moved by {done['moved']} to {_when(done['due'])}" if done["due"] else ""
    click.echo(f"{game_id} runs again{tail}.")


@click.command("vacation")
@click.argument("game_id")
@click.argument("player")
@click.argument("spec", nargs=-1, required=True, metavar="(DURATION | until DATE | off)")
@click.pass_context
@handles_errors
def vacation_command(ctx: click.Context, game_id: str, player: str, spec: tuple[str, ...]) -> None:
    """Put a player on vacation (`5d`, `until 2026-12-01`) or back (`off`).

    While away, a deadline the player would miss moves so they get a normal deadline when
    they are back, within the game's vacation quota per player. Announced to the players.
    """
    done = referee(ctx).vacation(game_id, player, " ".join(spec))
    if done["until"] is None:
        click.echo(f"{done['player']} is back in {game_id}; {done['quota_left']} of vacation quota left.")
    else:
        click.echo(f"{done['player']} is on vacation in {game_id} until {_when(done['until'])}; "
                   f"{done['quota_left']} of vacation quota left.")


@click.command("timezone")
@click.argument("game_id")
@click.argument("player")
@click.argument("zone")
@click.pass_context
@handles_errors
def timezone_command(ctx: click.Context, game_id: str, player: str, zone: str) -> None:
    """Set a player's time zone (an IANA name such as Europe/Berlin) for the deadlines they see."""
    done = referee(ctx).set_timezone(game_id, player, zone)
    click.echo(f"{done['player']} in {game_id} sees deadlines in {done['timezone']}: {done['deadline']}")


@click.command("language")
@click.argument("game_id")
@click.argument("player")
@click.argument("language")
@click.pass_context
@handles_errors
def language_command(ctx: click.Context, game_id: str, player: str, language: str) -> None:
    """Set the language a player is written to in (de, en or it); their orders are then read in it too."""
    done = referee(ctx).set_language(game_id, player, language)
    click.echo(f"{done['player']} in {game_id} is written to in {NAMES[done['language']]} ({done['language']}).")


@click.command("notify")
@click.argument("game_id")
@click.argument("player")
@click.argument("choice", nargs=-1, required=True, metavar="(each | turn | digest [HH:MM])")
@click.pass_context
@handles_errors
def notify_command(ctx: click.Context, game_id: str, player: str, choice: tuple[str, ...]) -> None:
    """Set how a player gets mail: `turn` (when asked, at round ends; the default), `each`
    (everything as it happens) or `digest 08:00` (a mail a day at that time in their time zone)."""
    done = referee(ctx).set_notify(game_id, player, " ".join(choice))
    click.echo(f"{done['player']} in {game_id}: {done['text']}.")
