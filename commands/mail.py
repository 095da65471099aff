"""Mail commands: `serve`, `ingest`, `recipient-check`, `outbox`, `config show`."""

from __future__ import annotations

import json
import logging
import mailbox
import signal
import sys
import threading
from pathlib import Path

import click

from referee.store.interface import StoreBusy

from .common import EXIT_IOERR, EXIT_TEMPFAIL, echo_json, handles_errors, services

EX_DATAERR = 65  # the MTA bounces: the mail itself is unacceptable


@click.command("serve")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="Override the SMTP listen port.")
@click.pass_context
@handles_errors
def serve_command(ctx: click.Context, port: int | None) -> None:
    """Run the SMTP server, the mail worker and the outbound sender until SIGTERM or Ctrl-C.

    The server accepts mail for the game addresses only, spools it and answers at once; the
    worker reads the spool, checks and submits orders and queues receipts and reports; the
    sender delivers queued mail to the relay with retries.
    """
    from mailer.daemon.one_daemon import AlreadyServed  # the daemon's parts: for this command only
    from mailer.daemon.serve import serve
    from mailer.inbound.ingest import IngestError

    svc = services(ctx)
    log_file = svc.settings.log_file
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s",
                        **({"filename": log_file} if log_file else {"stream": sys.stderr}))
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    try:
        serve(svc, stop, port=port)
    except IngestError as exc:
        raise click.ClickException(f"the SMTP server could not start: {exc}") from None
    except AlreadyServed as exc:
        raise click.ClickException(str(exc)) from None


def _process(svc, quiet: bool) -> None:
    """Work on the spool and send. The mail is safe in the spool by now, so nothing here may
    make the MTA try again or bounce it: what goes wrong is said, and the exit status is 0."""
    worker = svc.worker()
    try:
        for handled in worker.run_once(svc.spool):
            if not quiet:
                click.echo(f"{handled.message_id or '<no Message-ID>'} {handled.outcome}: {handled.game or '-'} "
                           f"{handled.player or '-'} {handled.detail}".rstrip(), err=True)
    except Exception as exc:  # a bug: the mail stays in the spool for the next run
        click.echo(f"note: the spool could not be worked on ({type(exc).__name__}: {exc}); the mail is kept",
                   err=True)
    if worker.kept:
        click.echo(f"note: {worker.kept} mail(s) kept in the spool after an error that passes; "
                   "the next run tries them again", err=True)
    try:
        report = svc.send()
    except OSError as exc:  # the relay's trouble is the outbox's to retry, not the MTA's
        click.echo(f"note: mail stays queued: {exc}", err=True)
        return
    if report.troubles:
        click.echo(f"note: {report.summary()}", err=True)


@click.command("ingest")
@click.option("--maildir", "maildir", type=click.Path(file_okay=False, exists=True, path_type=Path), default=None,
              help="Read every new message of this Maildir instead of one message on stdin.")
@click.option("--quiet", is_flag=True, help="Print nothing on success.")
@click.pass_context
def ingest_command(ctx: click.Context, maildir: Path | None, quiet: bool) -> None:
    """Take mail from an MTA pipe (one raw message on stdin) or from a Maildir.

    The mail is spooled first, so it is safe from then on; then it is processed and the
    answers are sent. Exit status 75 (EX_TEMPFAIL) asks the MTA to retry later, 65 means the
    message was refused (too large).
    """
    try:
        svc = services(ctx)
        limit = svc.settings.limits.max_message_bytes
        if maildir is None:
            raw = sys.stdin.buffer.read(limit + 1)
            if len(raw) > limit:
                click.echo(f"Error: message larger than {limit} bytes", err=True)
                raise SystemExit(EX_DATAERR)
            svc.spool.add(raw)
        else:
            box = mailbox.Maildir(maildir, factory=None, create=False)
            for key in list(box.iterkeys()):
                if box.get_message(key).get_subdir() != "new":
                    continue
                with box.get_file(key) as handle:
                    svc.spool.add(handle.read())
                msg = box.get_message(key)
                msg.set_subdir("cur")
                box[key] = msg
    except StoreBusy as exc:
        click.echo(f"Error: {exc}", err=True)
        raise SystemExit(EXIT_TEMPFAIL)
    except OSError as exc:
        click.echo(f"Error: cannot store the message now: {exc}", err=True)
        raise SystemExit(EXIT_TEMPFAIL)
    _process(svc, quiet)


@click.command("recipient-check")
@click.pass_context
def recipient_check_command(ctx: click.Context) -> None:
    """Answer Postfix's recipient checks (its policy protocol, on stdin and stdout): a
    recipient at the game domain that no game here has is refused at RCPT, so that no mail to
    it is taken and bounced later to a sender who may be forged; every other request is left
    to Postfix's other checks. For the `ingest` pipe, where Postfix cannot ask the daemon
    (docs/operations.md, "Behind Postfix")."""
    svc = services(ctx)
    host = svc.settings.hostname.lower()
    request: dict[str, str] = {}
    for line in sys.stdin:
        line = line.rstrip("\r\n")
        if line:
            name, _, value = line.partition("=")
            request[name] = value
            continue
        recipient = request.get("recipient", "")
        request = {}
        refused = recipient.lower().rpartition("@")[2] == host and not svc.known_address(recipient)
        sys.stdout.write("action=550 5.1.1 No such game or player address here\n\n" if refused
                         else "action=DUNNO\n\n")
        sys.stdout.flush()


def _unreadable(problems: list[str]) -> None:
    """Games whose mail could not be looked at: said on stderr, exit status 74."""
    for problem in problems:
        click.echo(f"Error: {problem}", err=True)
    if problems:
        raise SystemExit(EXIT_IOERR)


@click.group("outbox", invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@handles_errors
def outbox_group(ctx: click.Context, as_json: bool) -> None:
    """List outgoing mail that is pending, failed or bounced (`outbox retry` sends what is
    pending or failed now).

    A game whose file cannot be read is left out of the listing, named on stderr, and the
    exit status is 74; with --json as without.
    """
    if ctx.invoked_subcommand is not None:
        return
    svc = services(ctx)
    unreadable: list[str] = []
    rows = svc.outbox.pending(unreadable=unreadable) + svc.system_outbox.pending(unreadable=unreadable)
    fields = ["game", "message_id", "kind", "to", "subject", "status", "attempts", "next_attempt_at", "last_error"]
    if as_json:
        echo_json([{k: r.get(k) for k in fields} for r in rows])
        _unreadable(unreadable)
        return
    if not rows:
        click.echo("No mail waits in the games that could be read." if unreadable
                   else "The outbox is empty: every mail has been delivered.")
    for r in rows:
        click.echo(f"{r['status']:<8} {r['game'] or '-':<16} {r['to']:<30} {r['subject']}  "
                   f"(tries {r['attempts']}{', ' + r['last_error'] if r.get('last_error') else ''})")
    _unreadable(unreadable)


@outbox_group.command("retry")
@click.pass_context
@handles_errors
def outbox_retry(ctx: click.Context) -> None:
    """Make every pending or failed mail due now and try to deliver it."""
    svc = services(ctx)
    now = svc.clock()
    unreadable: list[str] = []
    count = svc.outbox.retry_now(now, unreadable) + svc.system_outbox.retry_now(now, unreadable)
    report = svc.send()
    click.echo(f"{count} mail(s) retried: {len(report.sent)} sent, {len(report.deferred)} deferred, "
               f"{len(report.failed)} failed.")
    for message_id, to, why in report.troubles:
        click.echo(f"  {message_id} to <{to}>: {why}")
    _unreadable(list(dict.fromkeys(unreadable + report.skipped)))


@click.group("config")
def config_group() -> None:
    """Inspect the settings."""


@config_group.command("show")
@click.pass_context
def config_show(ctx: click.Context) -> None:
    """Print the effective settings: defaults, then the config file, then REFEREE_* variables."""
    settings = ctx.find_root().obj["settings"]
    click.echo(json.dumps(settings.to_json(), indent=2))
