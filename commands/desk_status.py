"""`referee status --desk`: what the referee's own address answered, and what it took without
an answer once its bounds were reached (mailer/daemon/desk_book.py)."""

from __future__ import annotations

import click

from mailer.daemon.desk_book import desk_book
from mailer.own_address import referee_address

from .common import echo_json, services


def desk_status(ctx: click.Context, as_json: bool) -> None:
    svc = services(ctx)
    found = desk_book(svc.settings, svc.notifier).summary()
    if as_json:
        echo_json(found)
        return
    click.echo(f"The referee's own address, {referee_address(svc.settings.hostname)}:")
    click.echo(f"  answers to newcomers in the last hour: {found['newcomers_answered_last_hour']} of "
               f"{found['newcomers_per_hour']} (limits.desk_answers_to_newcomers_per_hour); each address at most "
               f"{found['per_address_per_hour']} an hour")
    click.echo(f"  taken without an answer: {found['silent_this_hour']} this hour, {found['silent_last_day']} in the "
               f"last 24 hours, {found['silent_total']} in all"
               + (f" (the latest at {found['last_silent']})" if found["last_silent"] else ""))
    click.echo(f"  answered: {found['answered_last_day']} in the last 24 hours, {found['answered_total']} in all"
               + (f", counted since {found['since']}" if found["since"] else ""))
    for day, counts in found["days"].items():
        click.echo(f"    {day}: {counts.get('answered', 0)} answered, {counts.get('silent', 0)} without an answer")
    click.echo(f"  addresses answered in the last hour: {found['addresses_remembered']} (at most "
               f"{found['max_addresses']} are remembered)")
