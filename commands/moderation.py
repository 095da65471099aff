"""`referee history`, `undo`, `replace`, `drop`: the moderator's record and interventions."""

from __future__ import annotations

from typing import Any

import click

from .common import echo_json, handles_errors, referee


def _names(names: Any) -> str:
    return ", ".join(str(n) for n in names or []) or "nobody"


def _ranking(result: dict | None) -> str:
    places = (result or {}).get("ranking") or []
    return "; ".join(f"{i}. {' = '.join(place)}" for i, place in enumerate(places, start=1))


def describe(event: dict) -> str:
    """One line per event for people, naming every player the event concerns; `--json` has
    everything."""
    kind = event["type"]
    text = (event.get("text") or "").replace("\n", " | ")
    if kind == "created":
        if event.get("open") is not None:
            return f"open game created ({event.get('game')}); players sign up by mail"
        return f"game created for {_names(event.get('players'))}"
    if kind == "join":
        return f"{event['name']} asked for a seat from <{event.get('email')}>"
    if kind == "seated":
        how = {"reply": "the address confirmed by mail", "moderator": "approved by the moderator"}.get(event.get("by"),
                                                                                             event.get("by"))
        return f"{event['name']} seated <{event.get('email')}>" + (f" ({how})" if how else "")
    if kind == "declined":
        return f"{event['name']}'s sign-up <{event.get('email')}> declined by the moderator"
    if kind == "left":
        return f"{event['name']} left before the start"
    if kind == "started":
        return f"game started; seat order {_names(event.get('players'))}"
    if kind in ("order", "default"):
        what = "orders" if kind == "order" else "default orders"
        if event.get("source") == "computer":
            what = f"computer {what}" + (f" ({event['reason']})" if event.get("reason") else "")
        tail = f", opened {event['opened']}" if event.get("opened") else ""
        tail += "".join(f"; cancelled {c['player']}'s orders ({c['reason']})" for c in event.get("cancelled", []))
        return f"{event['player']} {what} in {event.get('phase')}: {text}{tail}"
    if kind == "drop":
        return f"{event['player']} dropped in {event.get('phase')}"
    if kind == "adjudicate":
        return f"phase {event.get('phase')} closed by the moderator (waiting for {_names(event.get('waiting_for'))})"
    if kind == "undo":
        return f"undo to event {event['to']}: {event['reason']}"
    if kind == "replace":
        dropped = len(event.get("dropped") or [])
        tail = f"; {dropped} mail(s) queued for the former player not sent" if dropped else ""
        if event.get("computer"):
            return f"{event['player']} handed to a computer player ({event['computer']}){tail}"
        return f"{event['player']} replaced (new address and token; welcome mailed){tail}"
    if kind == "held":
        return f"{event['player']} orders in {event.get('phase')}, held for the deadline: {text}"
    if kind == "deadline":
        what = "default orders applied" if event.get("applied") else "waiting (missed=wait)"
        return f"deadline of {event.get('phase')} passed; missing: {_names(event.get('waiting_for'))}; {what}"
    if kind == "reminder":
        return f"reminder {event.get('before')} before the deadline of {event.get('phase')} to {_names(event.get('players'))}"
    if kind == "escalation":
        note = f" ({event['note']})" if event.get("note") else ""
        return f"{event['player']} missed {event.get('misses')} deadlines in a row: {event.get('action')}{note}"
    if kind == "policy":
        return f"policy changed: {'; '.join(event.get('changes', []))} (reason: {event.get('reason')})"
    if kind == "extend":
        return f"deadline of {event.get('phase')} extended by {event.get('by')} to {event.get('due')}: {event.get('reason')}"
    if kind == "pause":
        return f"game paused: {event.get('reason')}"
    if kind == "resume":
        return f"game resumed; deadline moved by {event.get('moved')}" + (f": {event['reason']}" if event.get("reason") else "")
    if kind == "vacation":
        until = event.get("until")
        return f"{event['player']} {'on vacation until ' + until if until else 'back from vacation'} (by {event.get('source')})"
    if kind == "vacation_moved":
        return f"deadline of {event.get('phase')} moved by {event.get('by')} for {event['player']}'s vacation"
    if kind == "vacation_quota":
        return f"{event['player']}'s vacation quota is used up"
    if kind == "timezone":
        return f"{event['player']} time zone set to {event.get('zone')}"
    if kind == "language":
        return f"{event['player']} language set to {event.get('language')}"
    if kind in ("press", "notice"):
        sender = event.get("from") or "the moderator"
        readers = "everyone" if event.get("all") else ", ".join(event.get("to", []))
        what = "notice" if kind == "notice" else "table talk"
        return f"{what} #{event['n']} from {sender} to {readers} ({len(event.get('text', ''))} characters; " \
               f"`referee press` shows it)"
    if kind == "press_options":
        return (f"table talk options: press={event.get('press')}, press_in_archive={event.get('press_in_archive')}, "
                f"press_after_end={str(event.get('press_after_end')).lower()}")
    if kind == "press_notify":
        return f"{event['player']} gets table talk: {event.get('mode')}"
    if kind == "notify":
        at = f" at {event['digest_at']}" if event.get("digest_at") else ""
        return f"{event['player']} mail setting set to {event.get('mode')}{at} (by {event.get('source')})"
    if kind == "bounce":
        how = "returned by the mail system" if event.get("source") == "dsn" else "refused by the relay"
        return f"mail to {event['player']} <{event.get('email')}> not delivered ({how}): {event.get('why')}"
    if kind == "bounce_cleared":
        return f"mail to {event['player']} <{event.get('email')}> goes through again"
    if kind == "held_failed":
        return f"{event['player']}'s held orders no longer applied: {event.get('reason')}"
    if kind == "finished":
        result = event.get("result") or {}
        winners = _names(result.get("winners")) if result.get("winners") else "none"
        ranking = _ranking(result)
        return f"game over; winner(s): {winners}" + (f"; ranking {ranking}" if ranking else "") + \
            f"; seed revealed: {event.get('seed')}"
    return _unknown(event)


def _unknown(event: dict) -> str:
    """An event this version does not know (written by a newer one): its kind and whom it names."""
    named = [str(event[key]) for key in ("player", "name") if event.get(key)]
    for key in ("players", "waiting_for"):
        named += [str(n) for n in event.get(key) or []]
    return event["type"] + (f" ({', '.join(named)})" if named else "")


@click.command("history")
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def history_command(ctx: click.Context, game_id: str, as_json: bool) -> None:
    """List every event of a game; events an undo discarded are marked with 'x'. Table talk
    (`p1`, `p2` ...) comes where it was sent: who wrote to whom and when (`referee press` has
    the texts)."""
    from referee.press import with_talk

    svc = referee(ctx)
    events = with_talk(svc.history(game_id), svc.press_records(game_id))
    if as_json:
        echo_json(events)
        return
    for event in events:
        mark = " " if event["effective"] else "x"
        number = f"p{event['n']}" if event["type"] in ("press", "notice") else event["seq"]
        click.echo(f"{number:>4} {mark} {event.get('at', ''):<20} {describe(event)}")


@click.command("undo")
@click.argument("game_id")
@click.option("--to", "to", type=int, required=True, metavar="SEQ",
              help="The last event to keep (its number in `referee history`).")
@click.option("--reason", required=True, help="Why; recorded in the game's history.")
@click.pass_context
@handles_errors
def undo_command(ctx: click.Context, game_id: str, to: int, reason: str) -> None:
    """Roll a game back to just after an event; the rollback and its reason are logged."""
    done = referee(ctx).undo(game_id, to, reason)
    phase = done["phase"]
    click.echo(f"Rolled {game_id} back to event {to}; {len(done['discarded'])} later event(s) no longer count.")
    click.echo(f"Now open: {phase['name']} (round {phase['round']}, phase {phase['key']}); "
               f"waiting for {', '.join(done['waiting_for']) or 'nobody'}.")


@click.command("replace")
@click.argument("game_id")
@click.argument("player")
@click.option("--email", "--player", "email", default=None, metavar="EMAIL",
              help="The new player's email address (also to hand a computer player's seat back to a person).")
@click.option("--bot", "level", is_flag=False, flag_value="strong", default=None, metavar="[LEVEL]",
              help="Hand the seat to a computer player (level fast or strong, default strong).")
@click.pass_context
@handles_errors
def replace_command(ctx: click.Context, game_id: str, player: str, email: str | None, level: str | None) -> None:
    """Hand a seat to someone else: new address and a new token (the old one stops working),
    or to a computer player with --bot, which plays the seat's decisions from then on.

    The new player is mailed a welcome with their reply address, their token and the game
    as it stands; mail still queued for the former player (it names the old token) is not
    sent, and the game's history says how much.
    """
    if (email is None) == (level is None):
        raise click.UsageError("give the new player's address with --email (or --player), or --bot [LEVEL]")
    done = referee(ctx).replace(game_id, player, email, computer=level)
    if level is not None:
        click.echo(f"{done['player']} in {game_id} is now played by a computer player ({done['computer']}).")
    else:
        click.echo(f"{done['player']} in {game_id} is now <{done['email']}>; new token: {done['token']}")
        click.echo(f"A welcome with the reply address and the game as it stands is mailed to <{done['email']}>.")
    if done["dropped"]:
        click.echo(f"{len(done['dropped'])} mail(s) still queued for the former player will not be sent.")
    if done["warning"]:
        click.echo(f"Warning: {done['warning']}; the new player can still send orders with a PLAYER line "
                   f"to {game_id}@<host>.", err=True)


@click.command("drop")
@click.argument("game_id")
@click.argument("player")
@click.pass_context
@handles_errors
def drop_command(ctx: click.Context, game_id: str, player: str) -> None:
    """Remove a player from a game, where the game's rules allow it."""
    done = referee(ctx).drop(game_id, player)
    click.echo(f"Dropped {done['player']} from {game_id}.")
    for text in done["events"]:
        click.echo(f"  {text}")
