"""What every game command shares: the service for the chosen data directory, JSON output,
and turning failures into one-line messages with the documented exit statuses."""

from __future__ import annotations

import functools
import json
import os
import sys
from dataclasses import replace
from typing import Any, Callable, NoReturn, TypeVar

import click

from mailer.daemon.wiring import Services, build
from referee.config import Settings
from referee.service import BadRequest, Referee, ServiceError, system_clock
from referee.store import GameFileBroken, GameNotFound, StoreBusy, StoreError

from .owner import NotTheOwner, act_as_owner

EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_SOFTWARE = 70  # EX_SOFTWARE from sysexits.h: an unexpected failure (a bug)
EXIT_IOERR = 74  # EX_IOERR: a data file is damaged, or the disk refused a read or a write
EXIT_TEMPFAIL = 75  # EX_TEMPFAIL from sysexits.h: try again later
EXIT_PIPE = 141  # 128 + SIGPIPE, as a shell reports a program whose output was closed (`| head`)

F = TypeVar("F", bound=Callable[..., Any])


def services(ctx: click.Context) -> Services:
    """Store, service and mail parts for the chosen settings, with the real clock (tests may
    put another clock in the context); as the data directory's owner (commands/owner.py)."""
    obj = ctx.find_root().obj or {}
    settings = obj.get("settings") or Settings(data_dir=obj["data_dir"])
    try:
        act_as_owner(obj["data_dir"])
    except NotTheOwner as exc:  # an MTA's pipe keeps the mail until the command is set up right
        fail(str(exc), EXIT_TEMPFAIL if ctx.info_name == "ingest" else EXIT_REFUSED)
    return build(replace(settings, data_dir=obj["data_dir"]), clock=obj.get("clock", system_clock))


def referee(ctx: click.Context) -> Referee:
    """The service, wired to the outbox so that what the CLI does is reported by mail too."""
    return services(ctx).referee


def fail(message: str, code: int = EXIT_REFUSED) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    raise SystemExit(code)


def closed_pipe() -> NoReturn:
    """Standard output was closed by its reader (`referee history g | head`): stop quietly.
    Output still buffered would fail again when the interpreter exits, so it goes nowhere."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's capture): nothing is left to fail
    raise SystemExit(EXIT_PIPE)


def disk_trouble(exc: OSError) -> str:
    """An operating-system error as one line that says what to do."""
    what = exc.strerror or str(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    return (f"the data directory could not be read or written{where}: {what}; a change that failed was not "
            "written (every game file is replaced whole or not at all); mend the cause and run the command again")


class Group(click.Group):
    """The command group: a reader that closes our output early ends the command quietly,
    whichever command it is."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            closed_pipe()


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
        except GameFileBroken as exc:
            fail(str(exc), EXIT_IOERR)
        except GameNotFound as exc:
            fail(f"{exc}; `referee list` shows the games")
        except (ServiceError, StoreError) as exc:
            fail(str(exc))
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            closed_pipe()
        except OSError as exc:  # a full disk, an I/O error, a permission
            fail(disk_trouble(exc), EXIT_IOERR)
        except Exception as exc:
            # A bug: still one line. A change that failed half-way was not written; the store
            # writes all or nothing.
            if os.environ.get("REFEREE_DEBUG"):
                raise
            game = kwargs.get("game_id")
            about = f" while working on game {game}" if isinstance(game, str) else ""
            fail(f"unexpected failure{about} ({exc.__class__.__name__}: {exc}); nothing was changed by it; "
                 "set REFEREE_DEBUG=1 for details", EXIT_SOFTWARE)

    return wrapper  # type: ignore[return-value]


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False))
