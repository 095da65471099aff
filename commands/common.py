"""What every game command shares: the service for the chosen data directory, JSON output,
and turning failures into one-line messages with the documented exit statuses."""

from __future__ import annotations

import functools
import json
import os
from dataclasses import replace
from typing import Any, Callable, TypeVar

import click

from referee.service import BadRequest, Referee, ServiceError, system_clock
from referee.store import GameNotFound, StoreBusy, StoreError
from referee.config import Settings
from mailer.wiring import Services, build

EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_TEMPFAIL = 75  # EX_TEMPFAIL from sysexits.h: try again later

F = TypeVar("F", bound=Callable[..., Any])


def services(ctx: click.Context) -> Services:
    """Store, service and mail parts for the chosen settings, with the real clock (tests may
    put another clock in the context)."""
    obj = ctx.find_root().obj or {}
    settings = obj.get("settings") or Settings(data_dir=obj["data_dir"])
    return build(replace(settings, data_dir=obj["data_dir"]), clock=obj.get("clock", system_clock))


def referee(ctx: click.Context) -> Referee:
    """The service, wired to the outbox so that what the CLI does is reported by mail too."""
    return services(ctx).referee


def fail(message: str, code: int = EXIT_REFUSED) -> None:
    click.echo(f"Error: {message}", err=True)
    raise SystemExit(code)


def handles_errors(func: F) -> F:
    """Known failures become a clear line on stderr and an exit status, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BadRequest as exc:
            for problem in exc.problems:
                click.echo(f"Error: {problem}", err=True)
            raise SystemExit(EXIT_USAGE) from None
        except StoreBusy as exc:
            fail(str(exc), EXIT_TEMPFAIL)
        except GameNotFound as exc:
            fail(f"{exc}; `referee list` shows the games")
        except (ServiceError, StoreError) as exc:
            fail(str(exc))
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as exc:
            # A bug or an environment problem (permissions, a full disk): still one line. A
            # change that failed half-way was not written; the store writes all or nothing.
            if os.environ.get("REFEREE_DEBUG"):
                raise
            fail(f"unexpected failure ({exc.__class__.__name__}: {exc}); set REFEREE_DEBUG=1 for details")

    return wrapper  # type: ignore[return-value]


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False))
