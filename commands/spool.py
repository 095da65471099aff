"""`referee spool`: inbound mail that is waiting, and mail set aside because it could not be
processed, with why; `spool requeue` puts mail set aside back to be processed again; `spool
prune` deletes processed mail past its keeping time."""

from __future__ import annotations

import click

from .common import EXIT_REFUSED, echo_json, handles_errors, services


@click.group("spool", invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def spool_group(ctx: click.Context, as_json: bool) -> None:
    """List inbound mail set aside (it could not be processed) and why, and how much waits.

    Mail kept after an error that passes (a full disk, a busy or broken game file) waits in
    the spool and is tried again by itself; only mail that could not be processed at all is
    set aside. `spool requeue` puts it back once the cause is mended.
    """
    if ctx.invoked_subcommand is not None:
        return
    from mailer.inbound.message import parse_message  # the reading of mail: for this listing only

    spool = services(ctx).spool
    waiting = spool.pending()
    rows = []
    for entry in spool.aside():
        try:
            mail = parse_message(spool.read_aside(entry.key))
            sender, subject = mail.sender, mail.subject
        except (OSError, KeyError):  # requeued or moved meanwhile
            sender, subject = None, None
        rows.append({**entry.to_json(), "from": sender, "subject": subject})
    if as_json:
        echo_json({"waiting": waiting, "set_aside": rows})
        return
    click.echo(f"{waiting} mail(s) waiting to be processed; {len(rows)} set aside.")
    for row in rows:
        who = f"{row['game']} {row['player']}" if row["game"] else "sender not identified"
        click.echo(f"{row['key']}  {row['at'] or '-'}  {who}  from {row['from'] or '?'}: {row['subject'] or ''}")
        click.echo(f"    why: {row['reason']}")
    if rows:
        click.echo("Once the cause is mended: referee spool requeue KEY (or --all).")


@spool_group.command("requeue")
@click.argument("keys", nargs=-1, metavar="[KEY]...")
@click.option("--all", "everything", is_flag=True, help="Requeue every mail set aside.")
@click.pass_context
@handles_errors
def spool_requeue(ctx: click.Context, keys: tuple[str, ...], everything: bool) -> None:
    """Put mail set aside back into the spool to be processed again.

    The daemon takes it within seconds; without a daemon, the next `referee ingest` does.
    Mail processed before is recognised by its Message-ID: nothing in it is done twice.
    """
    if everything == bool(keys):
        raise click.UsageError("give the KEYs of the mail to requeue (see `referee spool`), or --all")
    spool = services(ctx).spool
    wanted = [entry.key for entry in spool.aside()] if everything else list(keys)
    unknown = []
    for key in wanted:
        try:
            spool.requeue(key)
        except KeyError:
            unknown.append(key)
    done = len(wanted) - len(unknown)
    click.echo(f"{done} mail(s) requeued." if done else "Nothing requeued.")
    for key in unknown:
        click.echo(f"Error: no mail {key!r} is set aside; `referee spool` lists them", err=True)
    if unknown:
        raise SystemExit(EXIT_REFUSED)


@spool_group.command("prune")
@click.pass_context
@handles_errors
def spool_prune(ctx: click.Context) -> None:
    """Delete processed mail kept for audit that is older than `spool_keep_days`.

    The daemon does this once an hour by itself; run it from cron where mail comes through
    `referee ingest` with no daemon. Mail set aside is kept however old.
    """
    svc = services(ctx)
    days = svc.settings.spool_keep_days
    if days <= 0:
        click.echo("spool_keep_days is 0: processed mail is kept for good; nothing deleted.")
        return
    click.echo(f"{svc.prune_spool()} file(s) of processed mail older than {days} days deleted.")
